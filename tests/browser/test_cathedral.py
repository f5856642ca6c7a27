"""Cathedral in the browser: a building follows the mouse, turns with R and the wheel, and is
placed by a click; the other player places one with the keyboard alone; both see it pushed."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from .site import Table, arrived, open_game, screenshot

pytestmark = pytest.mark.browser


def shadow(page: Page) -> list[str]:
    return sorted(
        page.locator("#board .cell.shadow").evaluate_all("els => els.map(e => e.dataset.cell)")
    )


def choose(page: Page, building: str) -> None:
    page.locator(f'#hands .tile.choosable[data-tile="{building}"]').click()
    expect(page.locator(f'#hands .tile.picked[data-tile="{building}"]')).to_have_count(1)


def test_light_places_the_cathedral_by_mouse_and_dark_a_building_by_keyboard(
    site, visitors, screenshots
):
    alice, bob = visitors("alice"), visitors("bob")
    open_game(site, alice, bob, "", 1, kind="cathedral")
    arrived(alice.page)
    arrived(bob.page)
    page = alice.page

    # Light (alice) chooses the Cathedral: its ghost follows the pointer over the city.
    choose(page, "cathedral")
    page.locator('#board [data-cell="E5"]').hover()
    first = shadow(page)
    assert len(first) == 6
    assert "E5" in first
    page.keyboard.press("r")
    turned = shadow(page)
    assert len(turned) == 6
    assert "E5" in turned
    assert turned != first
    page.mouse.wheel(0, 120)
    expect(page.locator("#board .cell.shadow")).to_have_count(6)
    assert shadow(page) not in (turned, [])
    screenshot(page, screenshots, "cathedral", "01-ghost-follows-the-mouse")

    # A click shows it placed there (a correspondence game asks to confirm), then it is sent.
    page.locator('#board [data-cell="E5"]').click()
    expect(page.get_by_role("button", name="Place it here")).to_be_visible()
    assert len(page.locator("#board .cell.ghost").all()) == 6
    page.get_by_role("button", name="Place it here").click()
    expect(bob.page.locator("#board .cell.cathedral-piece")).to_have_count(6)
    expect(bob.page.locator(".last-move")).to_contain_text("Cathedral")
    screenshot(bob.page, screenshots, "cathedral", "02-dark-sees-the-cathedral")

    # Dark (bob) plays with the keyboard: a building, the arrows to a cell, R, Enter.
    keys = bob.page
    keys.locator('#hands .tile.choosable[data-tile="tower"]').focus()
    keys.keyboard.press("Enter")
    expect(keys.locator('#hands .tile.picked[data-tile="tower"]')).to_have_count(1)
    keys.locator("#board a.cell.target").first.focus()
    keys.keyboard.press("ArrowRight")
    keys.keyboard.press("ArrowDown")
    assert len(shadow(keys)) == 5
    keys.keyboard.press("r")
    keys.keyboard.press("ArrowRight")
    expect(keys.locator("#board .cell.shadow")).to_have_count(5)
    cells = shadow(keys)
    keys.keyboard.press("Enter")
    place = keys.get_by_role("button", name="Place it here")
    expect(place).to_be_visible()
    place.focus()
    keys.keyboard.press("Enter")
    expect(alice.page.locator("#board .cell.dark")).to_have_count(5)
    placed = sorted(
        alice.page.locator("#board .cell.dark").evaluate_all("els => els.map(e => e.dataset.cell)")
    )
    assert placed == cells
    expect(alice.page.locator("#log")).to_contain_text("Tower")
    screenshot(alice.page, screenshots, "cathedral", "03-light-sees-darks-tower")

    for size, (width, height) in {"phone": (390, 844), "laptop": (1366, 768)}.items():
        page.set_viewport_size({"width": width, "height": height})
        choose(page, page.locator("#hands .tile.choosable").first.get_attribute("data-tile"))
        screenshot(page, screenshots, "cathedral", f"04-{size}")
        wide = page.evaluate(
            """(width) => Array.from(document.querySelectorAll("body *"))
                .filter((el) => el.getBoundingClientRect().right > width + 1)
                .map((el) => { const r = el.getBoundingClientRect();
                    return el.tagName + "." + el.className + " " + r.left + "-" + r.right; })
                .slice(0, 2).concat([getComputedStyle(document.querySelector(".city")).getPropertyValue("--cell"), getComputedStyle(document.querySelector(".city .cell")).width, innerWidth, document.querySelector("link[href*=cathedral]").href])""",
            width,
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
        screenshot(page, screenshots, "cathedral", f"04-{size}")
        page.keyboard.press("Escape")
        expect(page.locator("#hands .tile.picked")).to_have_count(0)


def test_a_whole_game_of_cathedral_played_by_clicks_ends_as_the_engine_says(
    site, visitors, screenshots
):
    alice, bob = visitors("alice"), visitors("bob")
    game_id = open_game(site, alice, bob, "", 1, kind="cathedral")
    arrived(alice.page)
    arrived(bob.page)
    carl = visitors("carl")
    carl.page.goto(f"/games/{game_id}/")
    arrived(carl.page)
    table = Table([alice.page, bob.page], [carl.page], random.Random(12))
    table.play(limit=600)
    state = site.replayed(game_id)
    assert state.finished
    squares = state.returns()
    for page in table.pages:
        result = page.locator(".result").inner_text()
        if len(state.outcome.winners) == 2:
            assert "draw" in result
        else:
            assert f"{squares[state.outcome.winners[0]]} unplaced square" in result
    screenshot(carl.page, screenshots, "cathedral", "05-the-end-seen-by-a-spectator")
