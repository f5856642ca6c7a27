"""A page that lost its connection catches up by itself, and a move made from an outdated page is
refused with a message on the page, never an error page."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .a11y import assert_accessible
from .site import Table, arrived, open_game, screenshot, seq_of, watch_game

pytestmark = pytest.mark.browser

STALE_MESSAGE = "the game has moved on since your page was drawn: here it is now"


def main_decision(table: Table) -> bool:
    page = table.decider()
    return page is not None and page.locator(".prompt > p").first.inner_text().startswith(
        "Your turn"
    )


def started_game(site, visitors, seed: int):
    alice, bob, carol = visitors("alice"), visitors("bob"), visitors("carol")
    game = open_game(site, alice, bob, "2010", seed)
    arrived(alice.page)
    arrived(bob.page)
    watch_game(carol.page, game)
    table = Table([alice.page, bob.page], [carol.page], random.Random(seed))
    table.play(until=lambda: seq_of(alice.page) >= 6 and main_decision(table))
    return game, table, (alice, bob, carol)


def test_a_page_that_lost_its_connection_catches_up(site, visitors, screenshots):
    _, table, (alice, bob, carol) = started_game(site, visitors, seed=11)
    lost = carol.page
    lost.evaluate("window.__dropSocket()")
    table.offline.add(lost)
    before = seq_of(lost)

    table.play(until=lambda: seq_of(alice.page) >= before + 3)
    now = seq_of(alice.page)
    assert seq_of(lost) == before  # nothing reached it: the moves were pushed to a closed socket
    screenshot(lost, screenshots, "stale-page", "01-before-reconnecting")

    lost.evaluate("window.__noticeDrop()")
    # htmx reconnects by itself after a short pause; the page then fetches what it missed.
    expect(lost.locator("#status")).to_have_attribute("data-seq", str(now))
    expect(lost.locator("#connection")).to_have_attribute("data-state", "open")
    assert lost.evaluate("window.__sameDocument") == 1, "the page was reloaded"
    assert lost.locator("#log .entries li").count() == bob.page.locator("#log .entries li").count()
    screenshot(lost, screenshots, "stale-page", "02-caught-up")

    # Back in the game: the next moves are pushed to it again.
    table.offline.discard(lost)
    table.play(until=lambda: seq_of(alice.page) >= now + 2)
    assert_accessible(lost)


def test_a_move_from_an_outdated_page_is_refused_with_a_message(site, visitors, screenshots):
    game, table, (alice, bob, _) = started_game(site, visitors, seed=12)
    mover = table.decider()
    person = alice if mover is alice.page else bob
    # The same player has the game open in a second tab, half way through picking a vault.
    outdated = person.new_tab()
    outdated.goto(f"/games/{game}/")
    arrived(outdated)
    vault = outdated.locator("#play .tile.vault.choosable").first
    vault.click()
    expect(outdated.locator("#play .cell.target").first).to_be_attached()
    outdated.evaluate("window.__dropSocket()")  # from now on, nothing tells this tab the news
    before = seq_of(outdated)
    mover.bring_to_front()  # a tab in the background gets its timers slowed down

    # In the first tab the player completes an action: the second tab is now out of date.
    table.play(until=lambda: seq_of(mover) > before)
    assert seq_of(outdated) == before
    outdated.bring_to_front()
    with person.expecting_console_error("status of 409"):
        outdated.locator("#play .cell.target").first.click()
        error = outdated.locator("#status .error")
        expect(error).to_have_text(STALE_MESSAGE)
    # The refusal shows the game as it is now, on the game page itself.
    expect(outdated.locator("#status")).to_have_attribute("data-seq", str(seq_of(mover)))
    expect(outdated.locator("h1")).to_contain_text(f"Game {game}")
    assert outdated.evaluate("window.__sameDocument") == 1
    screenshot(outdated, screenshots, "stale-move", "01-refused-with-a-message")
    assert_accessible(outdated)
    # Nothing was played from the outdated tab, and the game goes on.
    assert seq_of(mover) == before + 1
    mover.bring_to_front()
    table.play(until=lambda: seq_of(mover) >= before + 3)
