"""A box a player opens on the game page (Basilica's "if scored now") stays open while the game
goes on: through the mover's own answer and through the moves pushed to the other player and to
a spectator. One left closed, or closed again, stays closed."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .a11y import assert_accessible
from .site import Table, arrived, open_game, screenshot, seq_of, watch_game

pytestmark = pytest.mark.browser


def drawn_at(page) -> int:
    """The seq the box was drawn for: every move draws it anew, with the new seq."""
    return int(page.locator("#preview").get_attribute("data-seq"))


def test_the_if_scored_now_box_stays_open_through_moves_until_closed(site, visitors, screenshots):
    alice, bob, carol = visitors("alice"), visitors("bob"), visitors("carol")
    game = open_game(site, alice, bob, "2022", seed=11)
    arrived(alice.page)
    arrived(bob.page)
    watch_game(carol.page, game)
    for page in (alice.page, bob.page):
        page.locator("#preview summary").click()
        expect(page.locator("#preview")).to_have_attribute("open", "")
    expect(carol.page.locator("#preview")).not_to_have_attribute("open", "")

    table = Table([alice.page, bob.page], [carol.page], random.Random(11))
    start = seq_of(carol.page)
    table.play(until=lambda: seq_of(carol.page) >= start + 3)
    for page in (alice.page, bob.page, carol.page):
        assert drawn_at(page) >= start + 3  # the box was drawn again
    for page in (alice.page, bob.page):
        expect(page.locator("#preview")).to_have_attribute("open", "")
        expect(page.locator("#preview summary")).to_be_visible()
    expect(carol.page.locator("#preview")).not_to_have_attribute("open", "")
    screenshot(bob.page, screenshots, "open-boxes", "preview-kept-open")
    assert_accessible(bob.page)

    # Closed again by Bob, it stays closed at the next moves; Alice's stays open.
    bob.page.locator("#preview summary").click()
    expect(bob.page.locator("#preview")).not_to_have_attribute("open", "")
    again = seq_of(carol.page)
    table.play(until=lambda: seq_of(carol.page) >= again + 2)
    assert drawn_at(bob.page) >= again + 2
    expect(bob.page.locator("#preview")).not_to_have_attribute("open", "")
    expect(alice.page.locator("#preview")).to_have_attribute("open", "")
