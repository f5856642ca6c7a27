"""The game page as a player reads it: what just happened, a board that fits a phone, play at
the keyboard, and a page that says when it cannot reach the server."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from games.engine import basilica as engine
from games.kinds.basilica import story

from .a11y import assert_accessible
from .site import Table, arrived, open_game, screenshot, seq_of

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1366, 768)}


def two_players(site, visitors, seed: int, edition: str = "2022"):
    alice, bob = visitors("alice"), visitors("bob")
    open_game(site, alice, bob, edition, seed)
    arrived(alice.page)
    arrived(bob.page)
    return alice, bob, Table([alice.page, bob.page], [], random.Random(seed))


def test_the_opponent_sees_the_last_move_marked_and_told(site, visitors, screenshots):
    alice, bob, table = two_players(site, visitors, seed=31)
    # Alice (first) plays until the turn is Bob's; Bob has not clicked anything.
    table.play(until=lambda: table.decider() is bob.page)
    last = bob.page.locator(".last-move")
    expect(last).to_contain_text(f"{alice.name}")
    expect(last).to_contain_text("Last move:")
    # The cells and market slots her turn changed are marked on his board.
    assert bob.page.locator("#board .cell.changed").count() >= 1
    assert bob.page.locator("#market .tile.changed").count() >= 1
    screenshot(bob.page, screenshots, "last-move", "01-bob-sees-alices-turn")

    # Bob's first action replaces the marks, on Alice's page too, without a reload.
    start = seq_of(bob.page)
    table.play(until=lambda: seq_of(bob.page) > start)
    expect(alice.page.locator(".last-move")).to_contain_text(bob.name)
    assert alice.page.evaluate("window.__sameDocument") == 1
    screenshot(alice.page, screenshots, "last-move", "02-alice-sees-bobs-action")


# The outermost elements that stick out to the right: where a sideways scroll comes from.
STICKING_OUT = """
() => Array.from(document.querySelectorAll("body *"))
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
  .filter((el) => !(el.parentElement && el.parentElement.getBoundingClientRect().right > window.innerWidth + 1))
  .slice(0, 5).map((el) => el.tagName.toLowerCase() + "." + el.className + " " + Math.round(el.getBoundingClientRect().right))
"""


# Whether every highlighted cell of the board is inside the window.
ALL_TARGETS_ON_SCREEN = """
() => Array.from(document.querySelectorAll("#board .cell.target")).every((el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
})
"""


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, (
        f"the page is {width}px wide in a {viewport}px window: {page.evaluate(STICKING_OUT)}"
    )


def targets_inside_the_width(page: Page) -> None:
    boxes = page.evaluate(
        """() => Array.from(document.querySelectorAll(
            "#play .cell.target, #play .tile.choosable, #play .prompt .choice, #board .cell"
        )).map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.right]; })"""
    )
    viewport = page.viewport_size["width"]
    assert boxes
    outside = [b for b in boxes if b[0] < 0 or b[1] > viewport]
    assert not outside, f"{len(outside)} of {len(boxes)} targets or cells stick out"


@pytest.mark.parametrize("size", SIZES)
def test_the_page_fits_the_screen(site, visitors, screenshots, size):
    alice, _bob, table = two_players(site, visitors, seed=32)
    table.play(until=lambda: seq_of(alice.page) >= 14 and table.decider() is alice.page)
    page = alice.page
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.reload()
    arrived(page)
    no_horizontal_scroll(page)
    targets_inside_the_width(page)
    if size == "laptop":
        # a mid-game position, the whole game in one screen: the log scrolls in its own box (the
        # site's footer, the language switcher, lies below it)
        screenshot(page, screenshots, "fit", f"{size}-whole")
        height = page.evaluate(
            "document.getElementById('game').getBoundingClientRect().bottom + window.scrollY"
        )
        assert height <= SIZES[size][1] + 2, f"the game is {height}px tall on a laptop"
    # The prompt stays in sight while the player scrolls down to the board.
    page.locator("#board .crow.base").scroll_into_view_if_needed()
    expect(page.locator(".prompt")).to_be_in_viewport()
    screenshot(page, screenshots, "fit", f"{size}-board")
    # A tall cathedral of a long game still shows every one of its rows inside the window
    # on a laptop; on a phone the page scrolls down only, never sideways.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#market .tile.vault.choosable").first.click()
    expect(page.locator("#play .cell.target").first).to_be_attached()
    no_horizontal_scroll(page)
    targets_inside_the_width(page)
    # and every cell the vault may go to is on the screen, without scrolling
    assert page.evaluate(ALL_TARGETS_ON_SCREEN)
    screenshot(page, screenshots, "fit", f"{size}-vault-picked")


def press_until(page: Page, key: str, selector: str, limit: int = 40) -> None:
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector}")


def test_a_whole_turn_at_the_keyboard(site, visitors, screenshots):
    alice, bob, _ = two_players(site, visitors, seed=33)
    page = alice.page
    start = seq_of(page)
    # Escape takes back a half-made move.
    page.keyboard.press("ArrowRight")  # the first target gets the focus
    press_until(page, "ArrowDown", "#market .tile.vault.choosable")
    page.keyboard.press("Enter")
    expect(page.locator("p.picked")).to_contain_text("vault")
    assert page.evaluate("document.activeElement.closest('#game') !== null")
    page.keyboard.press("Escape")
    expect(page.locator("p.picked")).to_have_count(0)

    # Three actions: a vault each time (pick it, a cell, then confirm: a correspondence game).
    for action in range(3):
        press_until(page, "ArrowDown", "#market .tile.vault.choosable")
        page.keyboard.press("Enter")
        expect(page.locator("#play .cell.target").first).to_be_attached()
        press_until(page, "ArrowRight", "#play .cell.target")
        focused = page.evaluate("document.activeElement.dataset.cell")
        page.keyboard.press("Enter")
        expect(page.locator(".prompt .choice.confirm")).to_be_attached()
        screenshot(page, screenshots, "keyboard", f"{action + 1}-confirm")
        assert page.locator(f'#board [data-cell="{focused}"].picked').count() == 1
        press_until(page, "ArrowDown", ".prompt .choice.confirm")
        page.keyboard.press("Enter")
        expect(page.locator("#status")).to_have_attribute("data-seq", str(start + action + 1))
        assert page.evaluate("document.activeElement.closest('#game') !== null"), (
            "the focus fell out of the game after the move"
        )
    expect(bob.page.locator(".last-move")).to_contain_text(alice.name)
    expect(page.locator("#status")).to_have_attribute("data-yours", "0")
    assert_accessible(page)


def test_a_page_that_cannot_reach_the_server_says_so(site, visitors, screenshots):
    alice, _bob, _ = two_players(site, visitors, seed=34)
    page = alice.page
    before = seq_of(page)
    banner = page.locator("#connection")
    # While offline the browser logs each failed request and reconnection: part of the story.
    with alice.expecting_console_error(r"htmx:|ERR_INTERNET_DISCONNECTED|\[object Event\]"):
        page.context.set_offline(True)
        page.evaluate("window.__dropSocket()")
        page.evaluate("window.__noticeDrop()")
        expect(banner).to_have_attribute("data-state", "closed")
        expect(banner).to_contain_text("reconnecting")
        page.locator("#market .tile.vault.choosable").first.click()
        trouble = page.locator("#net-error")
        expect(trouble).to_be_visible()
        expect(trouble).to_contain_text("could not be reached")
        # Nothing changed: no pick, the same seq.
        expect(page.locator("p.picked")).to_have_count(0)
        assert seq_of(page) == before
        screenshot(page, screenshots, "offline", "01-refused-click")
        page.context.set_offline(False)
        expect(banner).to_have_attribute("data-state", "open", timeout=20_000)
    # Back online, the page fetches what it missed; that answer clears the warning.
    expect(page.locator("#net-error")).to_be_hidden()
    page.locator("#market .tile.vault.choosable").first.click()
    expect(page.locator("p.picked")).to_contain_text("vault")
    screenshot(page, screenshots, "offline", "02-back-online")


def test_the_scoring_overlay_tells_the_numbers_of_the_scoring(site, visitors, screenshots):
    alice, bob = visitors("alice"), visitors("bob")
    game = open_game(site, alice, bob, "2022", 2022)
    arrived(alice.page)
    arrived(bob.page)
    table = Table([alice.page, bob.page], [], random.Random(2022))
    overlay = alice.page.locator("#scoring-overlay[open]")
    table.play(until=lambda: overlay.count() == 1)
    screenshot(alice.page, screenshots, "scoring", "01-overlay-at-the-first-scoring")
    # The engine, replaying the stored log on its own, says what the scoring was.
    seen = engine.view(site.replayed(game), 0)
    names = [alice.name, bob.name]
    truth = story.scoring_breakdown(seen, 1, names)
    text = overlay.inner_text()
    assert truth["title"] in text
    for area in truth["areas"]:
        assert area["why"] in text
        assert area["verdict"] in text
    for player in truth["players"]:
        assert f"{player['name']} +{player['earned']}" in text
        assert f"{player['before']} → {player['after']}" in text
    # Closed, it comes back from the scoring's line in the log.
    overlay.locator(".close").click()
    expect(overlay).to_have_count(0)
    alice.page.locator("#log .show-scoring").first.click()
    expect(overlay).to_contain_text(truth["title"])
    assert_accessible(alice.page)


def test_the_coordinates_show_on_request_and_stay_shown(site, visitors):
    alice, _bob, table = two_players(site, visitors, seed=33)
    page = alice.page
    labels = page.locator("#board .collabel").first
    expect(labels).to_be_hidden()  # the log names the cells; the board shows them on request
    page.get_by_label("Show coordinates").check()
    expect(labels).to_be_visible()
    table.play(until=lambda: seq_of(page) >= 1)  # the board is drawn anew
    expect(labels).to_be_visible()
    page.reload()
    arrived(page)
    expect(page.get_by_label("Show coordinates")).to_be_checked()
    expect(labels).to_be_visible()
