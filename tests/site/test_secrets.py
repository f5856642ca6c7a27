"""Nothing a player or spectator is shown depends on what they may not know: the order of the
stack, the tiles removed unseen, the seed, or the opponent's Jester colour before the scoring.

Each test renders every page and partial a viewer can ask for twice: once for the real game and
once for a world that differs only in the secret. If the pages are identical, the secret cannot
have leaked in any form (ids, colours, counts, ordering). A control shows that the same
rendering does notice a change the viewer may see.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from factories import (
    client_for,
    game_from_log,
    make_user,
    play_randomly,
    search_position,
    started_game,
)

from games.engine import basilica as engine
from games.models import Game
from games.play import states

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PARTIALS = ("board", "market", "status", "log")
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
PICK = re.compile(r'href="\?(pick=[^"]+)"')


def every_page(viewer, game: Game) -> dict[str, str]:
    """Every page and partial the viewer can ask for now, with each pick two clicks deep."""
    client = client_for(viewer)
    url = game.get_absolute_url()
    pages = {"page": client.get(url)}
    for partial in PARTIALS:
        pages[partial] = client.get(f"{url}?partial={partial}", **HTMX)
    pages["play"] = client.get(url, **HTMX)
    pages["live"] = client.get(url, **HTMX, HTTP_HX_TARGET="live")
    picks = PICK.findall(pages["page"].text)
    for pick in picks:
        pages[pick] = client.get(f"{url}?{pick}", **HTMX)
        for deeper in PICK.findall(pages[pick].text):
            pages.setdefault(deeper, client.get(f"{url}?{deeper}", **HTMX))
    if game.seat_of(viewer) is not None:
        # A refused move answers with the board too.
        refused = client.post(reverse("games:act", args=[game.pk]), {"seq": "?"}, **HTMX)
        assert refused.status_code == 400
        pages["refused move"] = refused
    for name, response in pages.items():
        assert response.status_code in (200, 400), name
    return {name: CSRF.sub(r"\1", response.text) for name, response in pages.items()}


def viewers(game: Game):
    return {"seat 0": game.seat0, "seat 1": game.seat1, "spectator": make_user("spectator")}


def rendered_in(world: engine.State, monkeypatch, viewer, game) -> dict[str, str]:
    monkeypatch.setattr(states, "load_state", lambda _game: world)
    pages = every_page(viewer, game)
    monkeypatch.undo()
    return pages


@pytest.fixture
def game_under_way():
    """An expansion game with six tiles removed unseen, a few turns in (a fixed deal, so the
    position, and how many pick pages it offers, is the same on every run)."""
    game = play_randomly(started_game(expansion=True, remove_six=True, seed=20261122), 9)
    while states.load_state(game).decision["kind"] != "main":
        game = play_randomly(game, 1)
    return game


def test_no_page_shows_the_seed(game_under_way):
    game = game_under_way
    seed = str(game.seed)
    assert len(seed) >= 6
    for who, user in viewers(game).items():
        for name, text in every_page(user, game).items():
            assert seed not in text, (who, name)


def test_no_page_depends_on_the_stack_below_its_top_the_removed_tiles_or_the_seed(
    game_under_way, monkeypatch
):
    game = game_under_way
    real = states.load_state(game)
    other = real.copy()
    # The top of the stack lies face up for everyone (RULINGS.md §3): only what is below it
    # is secret.
    other.stack = real.stack[-2::-1] + real.stack[-1:]
    other.stack[0], other.removed[0] = real.removed[0], other.stack[0]
    other.seed = real.seed ^ 0x5EED
    assert other.stack != real.stack
    assert set(other.removed) != set(real.removed)
    assert len(other.stack) == len(real.stack)

    for who, user in viewers(game).items():
        seen = rendered_in(real, monkeypatch, user, game)
        Game.objects.filter(pk=game.pk).update(seed=other.seed)
        assert rendered_in(other, monkeypatch, user, game) == seen, who
        Game.objects.filter(pk=game.pk).update(seed=real.seed)
        if user == game.player(real.to_decide):
            assert len([name for name in seen if name.startswith("pick=")]) > 3


def test_the_comparison_notices_a_change_a_viewer_may_see(game_under_way, monkeypatch):
    game = game_under_way
    real = states.load_state(game)
    richer = real.copy()
    richer.players[0].coins += 3
    seen = rendered_in(real, monkeypatch, game.seat1, game)
    assert rendered_in(richer, monkeypatch, game.seat1, game)["status"] != seen["status"]


def test_the_game_page_shows_the_top_of_the_stack_that_everyone_sees(game_under_way, monkeypatch):
    game = game_under_way
    real = states.load_state(game)
    other = real.copy()
    top = next(i for i in range(len(real.stack) - 1, -1, -1) if _face(real, i) != _face(real, -1))
    other.stack[-1], other.stack[top] = real.stack[top], real.stack[-1]
    seen = rendered_in(real, monkeypatch, game.seat1, game)
    assert rendered_in(other, monkeypatch, game.seat1, game)["market"] != seen["market"]
    assert "Top of the stack" in seen["market"]


def _face(state: engine.State, index: int) -> dict:
    face = state.tiles[state.stack[index]].to_json()
    del face["id"]
    return face


# -- the Jester's colour ----------------------------------------------------------------------


def opponent_picked_a_jester_colour(state: engine.State) -> bool:
    decision = state.decision
    return decision is not None and decision["kind"] == "jester" and _opponents_pick(state)


def _opponents_pick(state: engine.State) -> str | None:
    for key in state.jester_picks:
        col, row = (int(x) for x in key.split(","))
        if state.cells[(col, row)].builder != state.to_decide:
            return key
    return None


@pytest.fixture
def jester_scoring():
    """A scoring where one player has chosen their Jester's colour and the other is choosing."""
    options = engine.Options(edition="2022")
    seed, actions = search_position(options, opponent_picked_a_jester_colour)
    return game_from_log(options, seed, actions)


def the_other_colour(state: engine.State) -> engine.State:
    """The same state, but the Jester already coloured got another colour it could have had."""
    key = _opponents_pick(state)
    col, row = (int(x) for x in key.split(","))
    chosen = state.jester_picks[key]
    lacking = set("YBRG") - set(state.tiles[state.cells[(col, row)].tile].colors) - {chosen}
    other = state.copy()
    other.jester_picks[key] = sorted(lacking)[0]
    other.history = [dict(entry) for entry in state.history]
    for entry in other.history:
        if entry["action"]["type"] == "jester" and (
            entry["action"]["col"],
            entry["action"]["row"],
        ) == (col, row):
            entry["action"] = {**entry["action"], "color": other.jester_picks[key]}
    assert other.history != state.history
    return other


def test_the_player_choosing_and_a_spectator_do_not_see_the_opponents_jester_colour(
    jester_scoring, monkeypatch
):
    game = jester_scoring
    real = states.load_state(game)
    other = the_other_colour(real)
    chooser = game.player(real.to_decide)
    for who, user in {"chooser": chooser, "spectator": make_user("spectator")}.items():
        seen = rendered_in(real, monkeypatch, user, game)
        assert rendered_in(other, monkeypatch, user, game) == seen, who


def test_the_player_who_chose_the_colour_sees_it(jester_scoring, monkeypatch):
    game = jester_scoring
    real = states.load_state(game)
    other = the_other_colour(real)
    picker = game.player(1 - real.to_decide)
    seen = rendered_in(real, monkeypatch, picker, game)
    imagined = rendered_in(other, monkeypatch, picker, game)
    assert imagined["board"] != seen["board"]
    assert imagined["log"] != seen["log"]


def test_the_log_says_a_colour_was_chosen_without_naming_it(jester_scoring):
    game = jester_scoring
    chooser = game.player(states.load_state(game).to_decide)
    log = client_for(chooser).get(f"{game.get_absolute_url()}?partial=log", **HTMX).text
    assert "hose a colour for their Jester at" in log  # "Chose" in the log, "chose" in a summary
    assert "(hidden until the scoring)" in log


def test_the_pickers_board_drawn_first_shows_nobody_else_the_colour(jester_scoring, monkeypatch):
    """The cathedral drawn for the player who chose a Jester's colour, then for the others, of
    the very same state: theirs is the board of any other colour it could have had."""
    game = jester_scoring
    real = states.load_state(game)
    picker, chooser = game.player(1 - real.to_decide), game.player(real.to_decide)
    rendered_in(real, monkeypatch, picker, game)
    for who, user in {"chooser": chooser, "spectator": make_user("spectator")}.items():
        board = rendered_in(real, monkeypatch, user, game)["board"]
        assert board == rendered_in(the_other_colour(real), monkeypatch, user, game)["board"], who
