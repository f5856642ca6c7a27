"""Playing the computer in the browser: the bot thinks in the real task runner's worker (another
process), and its answers arrive on the human's page, pushed, with no reload."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from .site import POLL, SYNCED, TIMEOUT, Table, arrived, choose, screenshot, seq_of

pytestmark = pytest.mark.browser


def play_until_it_posts(table: Table, page: Page, rng: random.Random) -> int:
    """Click the human's choices (a building, then a square, then a confirmation) until one
    sends a move; the seq it was sent from."""
    for _ in range(10):
        option = choose(rng, table.options(page))
        before = seq_of(page)
        page.evaluate("document.getElementById('play').dataset.stale = '1'")
        page.locator(option.selector).click()
        page.wait_for_function(
            "() => document.getElementById('play')?.dataset.stale !== '1'", polling=POLL
        )
        if option.posts:
            return before
    raise AssertionError("ten clicks sent no move")


@pytest.mark.parametrize("level", ["greedy"])
def test_the_computers_answers_arrive_on_the_page_without_a_reload(
    site, visitors, screenshots, level
):
    alice = visitors("alice")
    page = alice.page
    page.goto("/games/")
    form = page.locator("#computer-cathedral")
    form.locator("summary").click()
    form.locator("select[name=level]").select_option(level)
    form.locator("select[name=computer-cathedral-first]").select_option("me")
    form.get_by_role("button", name="Play Cathedral against the computer").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    arrived(page)
    expect(page.locator("body")).to_contain_text("computer-greedy")

    # A hint marks the building it advises in hand and the six squares the Cathedral would cover.
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#computer-hint")).to_contain_text("Hint: place the Cathedral")
    expect(page.locator("#board .cell.hinted")).to_have_count(6)
    expect(page.locator('#hands .hinted[data-tile="cathedral"]')).to_have_count(1)
    screenshot(page, screenshots, "computer", "01-hint-laptop")

    rng = random.Random(4)
    table = Table([page], [], rng)
    for _ in range(3):
        expect(page.locator("#play .prompt")).to_be_visible(timeout=TIMEOUT)
        sent_from = seq_of(page)
        play_until_it_posts(table, page, rng)
        # The bot's answer: pushed to this very document (a reload would lose its mark).
        page.wait_for_function(SYNCED, arg=sent_from + 2, polling=POLL, timeout=TIMEOUT)
    assert seq_of(page) == 6
    screenshot(page, screenshots, "computer", "02-three-answers-laptop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, screenshots, "computer", "03-phone")
    assert page.locator(".hinted").count() == 0  # the marks went with the first move
