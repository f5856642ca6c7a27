"""The top of the stack, which lies order side up for both players: seen beside the market on a
phone and on a laptop, and the same face as the engine's view gives it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import basilica as engine

from .a11y import assert_accessible
from .site import arrived, open_game, screenshot

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


@pytest.mark.parametrize("size", SIZES)
def test_both_players_see_the_top_of_the_stack_beside_the_market(site, visitors, screenshots, size):
    alice, bob = visitors("alice"), visitors("bob")
    game = open_game(site, alice, bob, "2022", seed=41)
    top = engine.view(site.replayed(game), None)["stack_top"]
    for visitor in (alice, bob):
        page = visitor.page
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        arrived(page)
        shown = page.locator("#market .stack-top")
        shown.scroll_into_view_if_needed()
        expect(shown).to_be_in_viewport()
        expect(shown.locator(".tile.order")).to_have_attribute("data-tile", str(top["id"]))
        expect(shown.locator(".chip")).to_have_text(list(top["colors"]))
        expect(shown).to_contain_text("Top of the stack (")
        # Not a thing to click: the top of the stack is only seen, never taken.
        assert shown.locator("a, button, form").count() == 0
        # Beside the market, inside the window: no sideways scrolling on a phone.
        box = shown.bounding_box()
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the page is {scroll}px wide in a {width}px window"
        assert_accessible(page)
    screenshot(alice.page, screenshots, "stack-top", f"{size}-page")
    alice.page.locator("#market").screenshot(
        path=str(screenshots / f"stack-top--{size}-market.png")
    )
    # The replay shows it at each step, as it lay then.
    page = alice.page
    page.goto(f"/games/{game}/replay/?step=0")
    shown = page.locator("#replay .stack-top")
    shown.scroll_into_view_if_needed()
    expect(shown).to_be_in_viewport()
    expect(shown.locator(".tile.order")).to_have_attribute("data-tile", str(top["id"]))
    expect(page.locator(".rules-version")).to_have_text("rules version 2")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, screenshots, "stack-top", f"{size}-replay")
