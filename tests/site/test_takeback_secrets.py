"""A takeback leaks nothing hidden (the checks of test_secrets.py, on games with a takeback).

The pages of a game whose log holds a takeback are rendered for each viewer in two worlds that
differ only in a secret: the stack below its top and the seed, or the colour of a Jester pick
that was taken back before anyone saw it. Identical pages mean the secret did not reach the
browser in any form, on the game page and its partials, the replay and the records."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import client_for, game_from_log, make_user, search_position, started_game
from test_secrets import CSRF, every_page, rendered_in, viewers

# Imported before any test patches ``states.load_state``: the records module keeps the name
# it imports, and would otherwise keep a test's patch.
from games.archive import records, replays  # noqa: F401
from games.engine import basilica as engine
from games.models import Action, Game
from games.play import services, states, takebacks

pytestmark = pytest.mark.django_db


def records_and_replay(viewer, game: Game) -> dict[str, str]:
    """The replay (every step) and both records, as ``viewer`` gets them."""
    client = client_for(viewer)
    pages = {
        "record.json": client.get(reverse("games:record-json", args=[game.pk])),
        "record.txt": client.get(reverse("games:record-text", args=[game.pk])),
    }
    for step in range(game.seq + 1):
        pages[f"replay {step}"] = client.get(
            f"{reverse('games:replay', args=[game.pk])}?step={step}"
        )
    for name, response in pages.items():
        assert response.status_code == 200, name
    return {name: CSRF.sub(r"\1", response.text) for name, response in pages.items()}


def take_back_last(game: Game) -> Game:
    """The player who acted last asks; the other accepts."""
    state = states.load_state(game)
    asker = game.player(state.history[-1]["player"])
    other = game.player(1 - state.history[-1]["player"])
    game = takebacks.ask(game, asker, game.seq)
    return takebacks.answer(game, other, game.seq, accept=True)


# -- the stack and the seed -------------------------------------------------------------------------


def quiet_builder_next(state: engine.State) -> bool:
    """A builder may be placed now, and placing it draws nothing (a takeback is allowed)."""
    if state.decision is None or state.decision["kind"] != "main" or state.last_vault is None:
        return False
    builder = next((a for a in engine.legal_actions(state) if a.kind == "builder"), None)
    return builder is not None and engine.apply_action(state, builder).stack == state.stack


def a_builder_just_placed() -> Game:
    """An expansion game in which a builder was just placed, drawing nothing: it may be taken
    back."""
    options = engine.Options(edition="2022", expansion=True, remove_six=True)
    seed, actions = search_position(options, quiet_builder_next, seeds=range(20261122, 20261622))
    game = game_from_log(options, seed, actions)
    state = states.load_state(game)
    builder = next(a for a in engine.legal_actions(state) if a.kind == "builder")
    return services.submit_action(game, game.player(state.to_decide), builder.to_json(), game.seq)


@pytest.fixture
def builder_taken_back():
    return take_back_last(a_builder_just_placed())


def test_no_page_of_a_game_with_a_takeback_depends_on_the_stack_below_its_top_or_the_seed(
    builder_taken_back, monkeypatch
):
    game = builder_taken_back
    real = states.load_state(game)
    assert real.history[-2]["taken_back"]
    other = real.copy()
    other.stack = real.stack[-2::-1] + real.stack[-1:]
    other.stack[0], other.removed[0] = real.removed[0], other.stack[0]
    other.seed = real.seed ^ 0x5EED
    assert other.stack != real.stack
    for who, user in viewers(game).items():
        seen = rendered_in(real, monkeypatch, user, game)
        Game.objects.filter(pk=game.pk).update(seed=other.seed)
        assert rendered_in(other, monkeypatch, user, game) == seen, who
        Game.objects.filter(pk=game.pk).update(seed=real.seed)
        assert "taken back, by agreement" in seen["status"].replace("&#x27;", "'")


def test_no_page_of_a_game_with_a_takeback_shows_the_seed(builder_taken_back):
    game = builder_taken_back
    seed = str(game.seed)
    for who, user in viewers(game).items():
        pages = {**every_page(user, game), **records_and_replay(user, game)}
        for name, text in pages.items():
            assert seed not in text, (who, name)


# -- a Jester pick taken back before the scoring --------------------------------------------------


def first_of_two_jester_picks(state: engine.State) -> bool:
    decision = state.decision
    if decision is None or decision["kind"] != "jester" or state.jester_picks:
        return False
    return {pick["player"] for pick in state.pending} == {0, 1}


@pytest.fixture
def pick_taken_back():
    """ann picks her Jester's colour, asks to take the pick back, bob agrees before picking his;
    ann picks again. Returns the game and the number of the pick taken back."""
    options = engine.Options(edition="2022")
    seed, actions = search_position(options, first_of_two_jester_picks)
    game = game_from_log(options, seed, actions)
    state = states.load_state(game)
    picks = [a for a in engine.legal_actions(state) if a.kind == "jester"]
    picker = game.player(state.to_decide)
    game = services.submit_action(game, picker, picks[0].to_json(), game.seq)
    number = game.seq
    game = take_back_last(game)
    game = services.submit_action(game, picker, picks[-1].to_json(), game.seq)
    assert states.load_state(game).decision["kind"] == "jester"  # the other pick is still owed
    return game, number, picks


def _with_the_taken_back_pick(game: Game, number: int, action) -> None:
    """The world where the pick taken back was ``action``: the log's row, and no state kept."""
    Action.objects.filter(game=game, seq=number).update(data=action.to_json())
    states.forget_cached_states()
    replays._steps.clear()


def test_nobody_but_the_picker_learns_the_colour_of_a_jester_pick_taken_back(pick_taken_back):
    game, number, picks = pick_taken_back
    picker_seat = Action.objects.get(game=game, seq=number).player
    assert picks[0].color != picks[1].color
    readers = {"opponent": game.player(1 - picker_seat), "spectator": make_user("spectator")}
    seen = {
        who: {**every_page(user, game), **records_and_replay(user, game)}
        for who, user in readers.items()
    }
    _with_the_taken_back_pick(game, number, picks[1])
    for who, user in readers.items():
        again = {**every_page(user, game), **records_and_replay(user, game)}
        assert again == seen[who], who


def test_the_picker_still_reads_their_own_pick_taken_back_in_the_replay(pick_taken_back):
    game, number, picks = pick_taken_back
    picker = game.player(Action.objects.get(game=game, seq=number).player)
    before = records_and_replay(picker, game)[f"replay {number}"]
    _with_the_taken_back_pick(game, number, picks[1])
    assert records_and_replay(picker, game)[f"replay {number}"] != before


def test_a_started_game_has_no_takeback_to_tell():
    game = started_game()
    assert takebacks.last_taken_back(states.load_state(game), ["ann", "bob"]) == ""
