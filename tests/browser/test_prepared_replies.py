"""Prepared replies in the browser: Alice, waiting in a correspondence game of Cathedral, builds a
line on the analysis board by clicks (Bob's building, its cell, "add"; her reply the same way),
keeps it, and when Bob plays that move her reply is on both pages at once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_no_axe_violations
from .site import arrived, open_game, screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def add_to_the_line(page: Page, building: str, cell: str) -> str:
    """Choose ``building`` in the hand of whoever decides, its centre on ``cell``, and add the
    move to the line; the move's token ("tower.B2.0")."""
    page.locator(f'#hands .tile.choosable[data-tile="{building}"]').click()
    page.locator(f'#board a.cell.target[data-cell="{cell}"]').click()
    add = page.get_by_role("link", name="Add this move to the line")
    token = re.search(r"line=(?:[^&#]*~)?([^&#~]+)", add.get_attribute("href")).group(1)
    add.click()
    return token


def sideways(page: Page, width: int) -> list[str]:
    """Why a page ``width`` wide scrolls sideways (its width and what sticks out), or nothing.
    (A hand's strip scrolls in its own box: its buildings may lie beyond the screen.)"""
    return page.evaluate(
        """(width) => document.documentElement.scrollWidth <= width ? [] :
            [document.documentElement.scrollWidth].concat(
              Array.from(document.querySelectorAll("body *"))
              .filter((el) => el.getBoundingClientRect().right > width + 1)
              .map((el) => el.tagName.toLowerCase() + "." + [...el.classList].join("."))
              .slice(0, 4))""",
        width,
    )


def smallest_target(page: Page, selector: str) -> float:
    return page.locator(selector).evaluate_all(
        "els => Math.min(...els.filter((e) => e.offsetParent)"
        ".map((e) => Math.min(e.getBoundingClientRect().width, e.getBoundingClientRect().height)))"
    )


def test_alice_prepares_a_reply_that_is_played_when_bob_makes_that_move(
    site, visitors, screenshots
):
    alice, bob = visitors("alice"), visitors("bob")
    game = open_game(site, alice, bob, "", 1, kind="cathedral")  # correspondence, 3 days
    a, b = alice.page, bob.page
    for page in (a, b):
        arrived(page)

    # Alice (Light) places the Cathedral: now she waits for Bob, and her page offers to
    # prepare a reply at once.
    prepare = a.get_by_role("link", name="Prepare a reply")
    expect(prepare).to_be_hidden()
    a.locator('#hands .tile.choosable[data-tile="cathedral"]').click()
    expect(a.locator('#hands .tile.picked[data-tile="cathedral"]')).to_have_count(1)
    a.locator('#board [data-cell="E5"]').click()
    a.get_by_role("button", name="Place it here").click()
    expect(b.locator("#board .cell.cathedral-piece")).to_have_count(6)
    expect(prepare).to_be_visible()
    expect(b.get_by_role("link", name="Prepare a reply")).to_be_hidden()

    # The analysis board: the line is built by clicks.
    prepare.click()
    expect(a).to_have_url(re.compile(rf"/games/{game}/prepare/$"))
    expect(a.locator(".prompt-text")).to_have_text(
        f"If {bob.name} plays…: choose one of their buildings."
    )
    theirs = add_to_the_line(a, "tower", "B2")
    expect(a.locator(".line-steps li.theirs")).to_have_text(
        f"If {bob.name} places the Tower on A1\u2013C3"
    )
    expect(a.locator(".prompt-text")).to_have_text("…you reply: choose one of your buildings.")
    a.locator('#hands .tile.choosable[data-tile="inn"]').click()
    a.locator('#board a.cell.target[data-cell="H8"]').click()
    a.set_viewport_size(PHONE)
    screenshot(a, screenshots, "prepared-replies", "01-phone-a-reply-picked")
    assert sideways(a, PHONE["width"]) == []
    assert smallest_target(a, ".prompt-actions .button") >= 44  # under the thumb
    assert smallest_target(a, "#hands .tile.choosable") >= 40
    add = a.get_by_role("link", name="Add this move to the line")
    expect(add).to_be_in_viewport()
    add.click()
    expect(a.locator(".line-steps li.mine")).to_have_text(
        "You reply by placing the Inn on H8\u2013I9"
    )
    screenshot(a, screenshots, "prepared-replies", "02-phone-the-line")
    assert sideways(a, PHONE["width"]) == []
    a.set_viewport_size(DESKTOP)
    screenshot(a, screenshots, "prepared-replies", "03-desktop-the-line")
    assert_no_axe_violations(a)
    a.get_by_role("button", name="Keep this line").click()

    # Back on the game page, the line is listed in words, for Alice alone.
    expect(a).to_have_url(re.compile(rf"/games/{game}/$"))
    arrived(a)
    expect(a.locator(".messages")).to_contain_text("Your line is kept")
    expect(a.locator("#prepared h2")).to_have_text("Prepared replies (1 of 30)")
    expect(a.locator("#prepared .line-words")).to_have_text(
        f"If {bob.name} places the Tower on A1\u2013C3, you reply by placing the Inn on H8\u2013I9"
    )
    screenshot(a, screenshots, "prepared-replies", "04-desktop-the-list")
    expect(b.locator("#prepared")).to_contain_text("Prepared replies (0 of 30)")
    expect(b.locator("body")).not_to_contain_text("you reply by placing")

    # Bob plays that very move: Alice's reply is on his page and hers at once.
    assert theirs == "tower.B2.0"
    b.locator('#hands .tile.choosable[data-tile="tower"]').click()
    expect(b.locator('#hands .tile.picked[data-tile="tower"]')).to_have_count(1)
    b.locator('#board a.cell.target[data-cell="B2"]').click()
    b.get_by_role("button", name="Place it here").click()
    for page in (b, a):
        expect(page.locator(".last-move")).to_contain_text(
            f"{alice.name} (Light) placed the Inn on H8\u2013I9"
        )
        expect(page.locator("#log")).to_contain_text(f"{bob.name} (Dark) placed the Tower")
    expect(b.locator(".prompt")).to_contain_text("Your turn")
    # Alice's list, outside the pushed region, asks for itself again: the line was played.
    expect(a.locator("#prepared h2")).to_have_text("Prepared replies (0 of 30)")
    expect(a.locator("#prepared .line-words")).to_have_count(0)
    screenshot(b, screenshots, "prepared-replies", "05-bob-sees-the-reply")
    for page in (a, b):
        assert page.evaluate("window.__sameDocument") == 1, "the page was reloaded"
