"""The computer's analysis on the replay page of a finished game, as a spectator meets it: the
button, the wait, then the graph and the mistakes; no serious fault that axe-core finds, and on a
phone no sideways scrolling. Screenshots at a phone's and a laptop's size."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .a11y import assert_no_axe_violations
from .site import TIMEOUT, Table, Visitor, arrived, open_game, screenshot, seq_of

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def no_sideways_scrolling(page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"{wide}px wide"


def test_a_spectator_asks_for_the_analysis_and_reads_it(site, browser, screenshots):
    alice, bob, carol = (Visitor.sign_up(browser, site.url, r, "analysis") for r in "abc")
    try:
        done = open_game(site, alice, bob, "2022", seed=31)
        arrived(alice.page)
        arrived(bob.page)
        Table([alice.page, bob.page], [], random.Random(31)).play(
            until=lambda: seq_of(alice.page) >= 24
        )
        bob.page.goto(f"/games/{done}/")
        arrived(bob.page)
        with bob.page.expect_navigation():
            bob.page.locator("form[action$='/resign/']").evaluate("form => form.submit()")

        page = carol.page
        page.set_viewport_size(PHONE)
        page.goto(f"/games/{done}/replay/")
        ask = page.get_by_role("button", name="Ask the computer to analyse this game")
        expect(ask).to_be_visible()
        assert_no_axe_violations(page)
        no_sideways_scrolling(page)
        ask.click()
        # The compute worker makes it in a few seconds; the page says where it is meanwhile
        # and offers a plain refresh (the replay page has no socket).
        expect(page.locator("#analysis")).to_contain_text("analys", timeout=TIMEOUT)
        for _ in range(90):
            if page.locator("#analysis svg").count():
                break
            page.wait_for_timeout(2000)
            page.goto(f"/games/{done}/replay/")
        expect(page.locator("#analysis svg[role=img] title")).to_have_count(1)
        expect(page.get_by_role("heading", name="Mistakes")).to_be_visible()
        for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
            page.set_viewport_size(viewport)
            page.locator("#analysis").scroll_into_view_if_needed()
            screenshot(page, screenshots, "analysis", size)
            assert_no_axe_violations(page)
        page.set_viewport_size(PHONE)
        no_sideways_scrolling(page)
        shown = page.get_by_role("link", name="Show it on the board")
        if shown.count():
            shown.first.click()
            expect(page.locator("#computer-hint")).to_contain_text("The computer preferred")
            expect(page.locator(".hinted").first).to_be_attached()
            screenshot(page, screenshots, "analysis", "preferred-move")
            assert_no_axe_violations(page)
        for person in (alice, bob, carol):
            person.assert_no_console_errors()
    finally:
        for person in (alice, bob, carol):
            person.close()
