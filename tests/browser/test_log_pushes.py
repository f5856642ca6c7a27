"""A watched Basilica game's log grows by what each move changed: the push carries the newest
turns only, and the log a spectator reads, push after push, is the one a fresh page shows. A
page that is behind when such a push comes fetches the whole region instead."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .a11y import assert_accessible
from .site import Table, arrived, log_text, open_game, screenshot, seq_of, watch_game
from .test_takeback import allow_rated_takebacks

pytestmark = pytest.mark.browser

SYNCED = "seq => parseInt(document.getElementById('status').dataset.seq, 10) === seq"


def fresh_log(page, game: int) -> str:
    page.goto(f"/games/{game}/")
    arrived(page)
    return log_text(page)


def test_a_spectators_log_grows_by_its_newest_turns_and_reads_as_a_fresh_page(
    site, visitors, screenshots
):
    alice, bob, carol, dave = (visitors(name) for name in ("alice", "bob", "carol", "dave"))
    game = open_game(site, alice, bob, "2022", seed=23)
    arrived(alice.page)
    arrived(bob.page)
    frames: list[str] = []
    carol.page.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived", lambda frame: frames.append(frame if isinstance(frame, str) else "")
        ),
    )
    watch_game(carol.page, game)
    table = Table([alice.page, bob.page], [carol.page], random.Random(23))

    for _ in range(4):
        start = seq_of(carol.page)
        table.play(until=lambda start=start: seq_of(carol.page) >= start + 3)
        assert log_text(carol.page) == fresh_log(dave.page, game)
    assert carol.page.evaluate("window.__sameDocument") == 1, "the page was reloaded"
    partials = [frame for frame in frames if frame.lstrip().startswith("<")]
    deltas = [frame for frame in partials if "data-log-base" in frame]
    assert deltas, "no push carried the log's newest turns only"
    # The turn that was the newest and any begun since: never the log's older turns, which
    # stayed where they were (a fresh page shows more).
    for frame in deltas:
        assert 'id="log"' not in frame
        assert frame.count('class="turn-group"') <= 2
    assert dave.page.locator("#log .turn-group").count() > 2
    screenshot(carol.page, screenshots, "log-pushes", "spectator")
    assert_accessible(carol.page)

    # A page whose log is an action behind when a push of the newest turns comes (as if it had
    # missed one: drawn at an earlier seq, with a turn that is no more) fetches the whole live
    # region: it ends at the game's seq, its log whole and nothing of the old one left.
    behind = seq_of(carol.page)
    carol.page.evaluate(
        f"""() => {{
            document.getElementById('preview').dataset.seq = '{behind - 1}';
            document.getElementById('log-turns').insertAdjacentHTML(
                'afterbegin', '<section class="turn-group" id="turn-999">gone</section>');
        }}"""
    )
    table.offline.add(carol.page)
    table.play(until=lambda: seq_of(alice.page) >= behind + 1)
    now = seq_of(alice.page)
    carol.page.wait_for_function(SYNCED, arg=now)
    expect(carol.page.locator("#turn-999")).to_have_count(0)
    assert log_text(carol.page) == fresh_log(dave.page, game)


ASK = "Ask to take back my last action"


def test_a_takeback_asked_then_declined_reaches_both_pages_and_leaves_their_logs_whole(
    site, visitors
):
    # Asked and declined, the game changes without an action: the push comes again at the seq
    # both pages show, and must swap in its news without touching the logs.
    alice, bob, dave = visitors("alice"), visitors("bob"), visitors("dave")
    game = open_game(site, alice, bob, "2022", seed=31)
    for visitor in (alice, bob):
        allow_rated_takebacks(visitor, game)
    table = Table([alice.page, bob.page], [], random.Random(31))
    table.play(
        until=lambda: any(p.get_by_role("button", name=ASK).count() for p in table.players),
        limit=300,
    )
    asker = next(p for p in table.players if p.get_by_role("button", name=ASK).count())
    other = bob.page if asker is alice.page else alice.page
    asker.get_by_role("button", name=ASK).click()
    request_box = other.get_by_role("region", name="Takeback request")
    expect(request_box).to_contain_text("asks to take back their last action")
    assert log_text(other) == fresh_log(dave.page, game)

    request_box.get_by_role("button", name="Decline").click()
    expect(asker.locator(".note.takeback")).to_contain_text("Your opponent declined the takeback")
    assert log_text(asker) == fresh_log(dave.page, game)
    assert log_text(other) == log_text(dave.page)
    for page in (asker, other):
        assert page.evaluate("window.__sameDocument") == 1, "a page was reloaded"
