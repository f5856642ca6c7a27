"""A visitor who has no account finds a live game in the list of games being played now and
watches it: every move arrives by itself, and the page offers nothing to click in the game."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .a11y import assert_accessible
from .site import PAGE_PROBE, TIMEOUT, Table, arrived, open_game, screenshot, seq_of

pytestmark = pytest.mark.browser


def test_an_anonymous_visitor_watches_a_live_game(site, browser, visitors, screenshots):
    alice, bob = visitors("alice"), visitors("bob")
    game = open_game(site, alice, bob, "2022", seed=11)
    arrived(alice.page)
    arrived(bob.page)

    context = browser.new_context(base_url=site.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(TIMEOUT)
    context.add_init_script(PAGE_PROBE)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/games/now/")
        page.get_by_role("link", name=f"Watch game {game}").click()
        expect(page).to_have_url(f"{site.url}/games/{game}/")
        arrived(page)
        assert page.locator("#status form, #market form, #board form").count() == 0
        assert "You are watching this game" in page.locator("#status").inner_text()

        table = Table([alice.page, bob.page], [page], random.Random(11))
        table.play(until=lambda: seq_of(page) >= 6)
        assert seq_of(page) >= 6
        assert page.locator("#status form, #market form, #board form").count() == 0
        screenshot(page, screenshots, "anonymous-spectator", "after-six-moves")
        assert_accessible(page)
    finally:
        context.close()
    assert not errors, errors
