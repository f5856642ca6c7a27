"""A correspondence game in the browser: both clocks on both pages, the running one moving to
whoever must decide, and the header's count of games waiting for you following each move."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from .site import Table, arrived, open_game, screenshot

pytestmark = pytest.mark.browser


def running_clock_of(page: Page, seat: int):
    return page.locator(f"#status .player.seat{seat} .clock.running")


def badge(page: Page):
    return page.locator("#turns .badge")


def test_two_moves_of_a_correspondence_game_move_the_clocks_and_the_header_count(
    site, visitors, screenshots
):
    alice, bob = visitors("alice"), visitors("bob")
    game = open_game(site, alice, bob, "2022", seed=7)  # the lobby's default clock: 3 days
    for visitor in (alice, bob):
        arrived(visitor.page)
    a, b = alice.page, bob.page

    # Before anyone moves: both clocks on both pages, Alice's running; the move is hers.
    for page in (a, b):
        expect(page.locator("#status .clock")).to_have_count(2)
        expect(running_clock_of(page, 0)).to_contain_text(re.compile(r"(3 days|2 days 23 hours)"))
        expect(running_clock_of(page, 1)).to_have_count(0)
    expect(badge(a)).to_have_text("1")
    expect(badge(b)).to_have_count(0)
    expect(a).to_have_title(re.compile(r"^\(1\) "))
    screenshot(a, screenshots, "correspondence", "01-alice-to-move")

    # Alice plays until the decision passes to Bob: pushed to his page, no reload.
    table = Table([a, b], [], random.Random(7))
    table.play(until=lambda: b.locator(".prompt").count() > 0)
    for page in (a, b):
        expect(running_clock_of(page, 1)).to_contain_text("day")
        expect(running_clock_of(page, 0)).to_have_count(0)
    expect(badge(b)).to_have_text("1")
    expect(b).to_have_title(re.compile(r"^\(1\) "))
    expect(badge(a)).to_have_count(0)
    expect(a).not_to_have_title(re.compile(r"^\(\d+\) "))
    screenshot(b, screenshots, "correspondence", "02-bob-to-move")

    # Bob answers until it is Alice's decision again: everything swings back.
    table.play(until=lambda: a.locator(".prompt").count() > 0)
    expect(running_clock_of(a, 0)).to_be_visible()
    expect(running_clock_of(b, 0)).to_be_visible()
    expect(badge(a)).to_have_text("1")
    expect(badge(b)).to_have_count(0)
    for page in (a, b):
        assert page.evaluate("window.__sameDocument") == 1, "the page was reloaded"

    # The My games list says whose move it is, and how long is left.
    a.goto("/games/mine/")
    row = a.locator("tr", has_text=f"Game {game}")
    expect(row).to_contain_text("your move")
    expect(row.locator(".time-left")).to_contain_text("day")

    # At phone size the clocks and the controls fit too.
    b.set_viewport_size({"width": 390, "height": 844})
    b.goto(f"/games/{game}/")
    expect(b.locator("#status .clock")).to_have_count(2)
    screenshot(b, screenshots, "correspondence", "03-phone")
