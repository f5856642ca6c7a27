"""A takeback asked and accepted on two phones: Light places the Cathedral, thinks better of
it and asks to take it back; Dark, on the page pushed to them, accepts; the city is empty again
on both pages and Light places it anew. Checked with axe-core at each step."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .a11y import assert_no_axe_violations
from .site import arrived, players, screenshot

pytestmark = pytest.mark.browser


def place_the_cathedral(page, cell: str) -> None:
    page.locator('#hands .tile.choosable[data-tile="cathedral"]').click()
    expect(page.locator('#hands .tile.picked[data-tile="cathedral"]')).to_have_count(1)
    page.locator(f'#board [data-cell="{cell}"]').click()
    page.get_by_role("button", name="Place it here").click()


def allow_rated_takebacks(visitor, game_id: int) -> None:
    """The lobby's game is rated: the player allows takebacks in rated games in Settings."""
    page = visitor.page
    page.goto("/settings/")
    page.get_by_label("Allow takebacks in rated games").check()
    page.locator("input[name=takebacks_in_rated]").locator("xpath=ancestor::form").get_by_role(
        "button"
    ).click()
    expect(page.locator(".messages")).to_be_visible()
    page.goto(f"/games/{game_id}/")
    arrived(page)


def test_light_asks_to_take_back_the_cathedral_and_dark_accepts_on_a_phone(
    site, browser, request, screenshots
):
    light, dark, game_id = players(site, browser, request, "phone", "cathedral", seed=1)
    for visitor in (light, dark):
        allow_rated_takebacks(visitor, game_id)
    place_the_cathedral(light.page, "E5")
    expect(dark.page.locator("#board .cell.cathedral-piece")).to_have_count(6)

    light.page.get_by_role("button", name="Ask to take back my last action").click()
    expect(light.page.locator(".waiting-note.takeback")).to_contain_text(
        "waiting for your opponent's answer"
    )
    request_box = dark.page.get_by_role("region", name="Takeback request")
    expect(request_box).to_contain_text("asks to take back their last action")
    screenshot(dark.page, screenshots, "takeback-phone", "1-dark-is-asked")
    assert_no_axe_violations(dark.page)

    request_box.get_by_role("button", name="Accept the takeback").click()
    for page in (dark.page, light.page):
        expect(page.locator("#board .cell.cathedral-piece")).to_have_count(0)
        expect(page.locator(".taken-back-note")).to_contain_text("by agreement with")
    expect(light.page.locator('#hands .tile.choosable[data-tile="cathedral"]')).to_have_count(1)
    screenshot(light.page, screenshots, "takeback-phone", "2-light-decides-again")
    assert_no_axe_violations(light.page)
    width = light.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390

    place_the_cathedral(light.page, "D4")
    expect(dark.page.locator("#board .cell.cathedral-piece")).to_have_count(6)
    light.assert_no_console_errors()
    dark.assert_no_console_errors()
