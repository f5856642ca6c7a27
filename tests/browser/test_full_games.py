"""Two people play whole games in Chromium while a third watches, only by clicking what the page
offers them; every move shows up on the other pages by itself."""

from __future__ import annotations

import random
import re

import pytest

from .a11y import assert_accessible
from .site import Table, arrived, close_scoring, log_text, open_game, screenshot, seq_of, watch_game

pytestmark = pytest.mark.browser

PAID_OFFER = "Paid order: "
JESTER_PROMPT = "Scoring: choose the extra colour of your Jester"


class Moments:
    """Screenshots of a game at the moments worth looking at, each taken once."""

    def __init__(self, table: Table, directory, scenario: str) -> None:
        self.table, self.directory, self.scenario = table, directory, scenario
        self.taken: set[str] = set()

    def take(self, page, moment: str) -> None:
        if moment in self.taken:
            return
        self.taken.add(moment)
        n = len(self.taken)
        screenshot(page, self.directory, self.scenario, f"{n:02d}-{moment}")
        assert_accessible(page)

    def before_click(self, page) -> None:
        prompt = self.table.decisions[-1][2]
        if prompt.startswith(PAID_OFFER):
            self.take(page, "paid-offer-to-the-opponent")
        elif prompt.startswith(JESTER_PROMPT):
            self.take(page, "jester-colour-prompt")
        elif "Scoring 1 (the " in log_text(page):
            self.take(self.table.spectators[0], "spectator-after-the-first-scoring")
        if self.table.clicks > 20 and picking_a_cell(self.table):
            self.take(page, "cells-to-choose-from")


def picking_a_cell(table: Table) -> bool:
    page = table.decider()
    return page is not None and any(o.kind == "cell" for o in table.options(page))


def play_watched_game(site, visitors, screenshots, scenario: str, edition: str, seed: int):
    alice, bob, carol = visitors("alice"), visitors("bob"), visitors("carol")
    game = open_game(site, alice, bob, edition, seed)
    arrived(alice.page)
    arrived(bob.page)
    watch_game(carol.page, game)
    table = Table([alice.page, bob.page], [carol.page], random.Random(seed))
    moments = Moments(table, screenshots, scenario)
    table.before_click = moments.before_click

    assert seq_of(carol.page) == 0
    assert alice.page.locator(".prompt").count() == 1  # alice opened the game moving first
    moments.take(alice.page, "start")
    assert_accessible(alice.page, keyboard=True)
    assert_accessible(carol.page, keyboard=True)

    table.play(until=lambda: table.clicks >= 30 and picking_a_cell(table))
    # Grown push by push (most carried only its newest turns), the log reads as a fresh page's.
    fresh = carol.new_tab()
    fresh.goto(f"/games/{game}/")
    assert log_text(fresh) == log_text(carol.page)
    fresh.close()
    # Halfway through an action: the targets of the tile just picked are reached by Tab too.
    close_scoring(table.decider())
    assert_accessible(table.decider(), keyboard=True)

    table.play()

    for page, name in ((alice.page, "alice"), (bob.page, "bob"), (carol.page, "spectator")):
        moments.take(page, f"final-scoring-{name}")
        close_scoring(page)  # the final scoring opens over the page; the player closes it
        moments.take(page, f"result-{name}")
        assert page.locator(".prompt").count() == 0
    assert_accessible(bob.page, keyboard=True)
    results = [p.locator(".result").inner_text() for p in table.pages]
    assert re.match(r"(You won|You lost|A shared victory)", results[0])
    assert re.match(r"(You won|You lost|A shared victory)", results[1])
    assert re.match(rf"({alice.name} won|{bob.name} won|A shared victory)", results[2])
    log = log_text(carol.page)
    assert "Scoring 1 (the " in log
    assert "The game is over:" in log
    # And at the end, the scorings and the game's end pushed in between.
    fresh = carol.new_tab()
    fresh.goto(f"/games/{game}/")
    assert log_text(fresh) == log
    assert carol.page.evaluate("window.__sameDocument") == 1, "the spectator's page was reloaded"

    # A paid order was offered to the opponent of the one on turn, and answered by them.
    offers = table.prompts(PAID_OFFER)
    assert offers, "no paid order was offered in the whole game"
    assert all("waiting for the opponent's answer" in turns for *_, turns in offers)
    assert re.search(r"(Paid [\w-]+ a coin for|Declined to pay [\w-]+ a coin for)", log)
    return table, (alice, bob, carol)


def test_a_whole_2010_game_played_and_watched(site, visitors, screenshots):
    play_watched_game(site, visitors, screenshots, "game-2010", "2010", seed=2010)


def test_a_whole_2022_game_with_a_jester(site, visitors, screenshots):
    table, _ = play_watched_game(site, visitors, screenshots, "game-2022", "2022", seed=2022)
    assert table.prompts(JESTER_PROMPT), "no Jester colour was asked for at a scoring"
    log = log_text(table.spectators[0])
    assert re.search(r"builder at c\d+r\d+ became a Jester", log)
    # Revealed at the scoring, so the spectator reads the colour too.
    assert re.search(r"Chose (yellow|blue|red|green) for their Jester at c\d+r\d+", log)
