"""The one door for a move, and the other ways a game changes: create, accept, cancel."""

from __future__ import annotations

import pytest
from factories import first_legal, make_user, open_game, play, play_randomly, started_game

from games.engine import basilica as engine
from games.models import Action, Game
from games.play import services, states

pytestmark = pytest.mark.django_db


def test_the_player_who_must_decide_makes_the_first_move():
    game = started_game()
    game = services.submit_action(game, game.seat0, first_legal(game), expected_seq=0)
    assert game.seq == 1
    assert list(game.actions.values_list("seq", "player")) == [(1, 0)]


def test_the_opponent_may_not_move_out_of_turn():
    game = started_game()
    with pytest.raises(services.NotAllowed, match="not your decision"):
        services.submit_action(game, game.seat1, first_legal(game), expected_seq=0)
    assert not Action.objects.exists()


def test_someone_outside_the_game_may_not_move_in_it():
    game = started_game()
    with pytest.raises(services.NotAllowed, match="only the two players"):
        services.submit_action(game, make_user(), first_legal(game), expected_seq=0)
    assert not Action.objects.exists()


def test_a_move_drawn_on_a_stale_page_is_refused_and_nothing_is_written():
    game = play_randomly(started_game(), 2)
    with pytest.raises(services.StaleMove):
        services.submit_action(game, game.player(game.to_decide), first_legal(game), 1)
    game.refresh_from_db()
    assert game.seq == 2
    assert game.actions.count() == 2


def test_an_illegal_move_is_refused_with_the_rules_reason_and_nothing_is_written():
    game = started_game()
    not_on_offer = {"type": "vault", "tile": 999, "col": 0, "row": 0}
    with pytest.raises(services.MoveRejected, match="not on offer in the market") as refusal:
        services.submit_action(game, game.seat0, not_on_offer, expected_seq=0)
    assert refusal.value.status == 400
    game.refresh_from_db()
    assert (game.seq, game.actions.count()) == (0, 0)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("vault", "an action is a JSON object"),
        ({"type": "teleport"}, "unknown action type 'teleport'"),
        ({"type": "vault", "tile": "3", "col": 0, "row": 0}, "tile must be a whole number"),
        ({"type": "decline", "coins": 5}, "unexpected fields in action: coins"),
    ],
)
def test_something_that_is_not_an_action_is_refused_as_a_bad_request(data, reason):
    game = started_game()
    with pytest.raises(services.MoveRejected, match=reason) as refusal:
        services.submit_action(game, game.seat0, data, expected_seq=0)
    assert refusal.value.status == 400
    assert not Action.objects.exists()


def test_no_move_is_made_in_a_game_still_waiting_for_an_opponent():
    game = open_game()
    with pytest.raises(services.StaleMove, match="not in play"):
        services.submit_action(game, game.seat0, {"type": "builder"}, expected_seq=0)


def test_a_finished_game_takes_no_more_moves():
    game = play_randomly(started_game(seed=4), 500)
    assert game.status == Game.Status.FINISHED
    with pytest.raises(services.StaleMove, match="this game is over"):
        services.submit_action(game, game.seat0, {"type": "builder"}, game.seq)


def test_the_finished_game_records_its_winners_and_scores():
    game = play_randomly(started_game(seed=4), 500)
    truth = states.replay_game(game)
    assert game.winners == list(truth.outcome.winners)
    assert game.scores == list(truth.outcome.scores)
    assert game.termination == truth.outcome.termination
    assert game.to_decide is None
    assert game.finished_at is not None


def test_the_cached_state_equals_a_fresh_replay_of_the_log():
    game = play_randomly(started_game(), 30)
    cached = states.load_state(game)
    assert states.load_state(game) is cached
    states.forget_cached_states()
    assert cached == states.replay_game(game)
    assert cached == engine.replay(
        game.engine_options, game.seed, [a.data for a in game.actions.all()], check=True
    )


def test_the_cache_follows_the_game_as_it_moves_on(django_capture_on_commit_callbacks):
    game = started_game()
    with django_capture_on_commit_callbacks(execute=True):
        game = play_randomly(game, 12)
    assert states.load_state(game) == states.replay_game(game)


def test_the_replay_can_stop_after_any_action():
    game = play_randomly(started_game(), 5)
    after_two = states.replay_game(game, upto=2)
    assert len(after_two.history) == 2
    assert after_two == engine.replay(
        game.engine_options, game.seed, [a.data for a in game.actions.all()[:2]]
    )


def test_the_log_is_append_only():
    game = play(started_game(), [])
    game = play_randomly(game, 1)
    first = game.actions.get()
    first.data = {"type": "builder"}
    with pytest.raises(ValueError, match="append-only"):
        first.save()


# -- opening, accepting and cancelling --------------------------------------------------------


def test_a_new_game_seats_its_creator_and_waits():
    alice = make_user("alice")
    game = open_game(alice, edition="2010", first="opponent")
    assert (game.seat0, game.seat1, game.status) == (alice, None, Game.Status.OPEN)
    assert game.engine_options.edition == "2010"
    assert game.engine_options.first_player == 1


def test_accepting_starts_the_game_with_the_first_player_to_decide():
    game = open_game(first="opponent")
    bob = make_user("bob")
    game = services.accept_game(game, bob)
    assert (game.seat1, game.status, game.to_decide) == (bob, Game.Status.ACTIVE, 1)
    assert game.started_at is not None


def test_a_game_never_starts_with_the_same_person_in_both_seats():
    alice = make_user("alice")
    game = open_game(alice)
    with pytest.raises(services.NotAllowed):
        services.accept_game(game, alice)
    game.refresh_from_db()
    assert (game.seat1, game.status) == (None, Game.Status.OPEN)


def test_a_taken_game_cannot_be_accepted_a_second_time():
    game = started_game()
    latecomer = make_user()
    with pytest.raises(services.StaleMove):
        services.accept_game(game, latecomer)
    game.refresh_from_db()
    assert game.seat1 != latecomer


def test_only_the_creator_may_cancel_an_open_game():
    game = open_game()
    with pytest.raises(services.NotAllowed):
        services.cancel_game(game, make_user())
    game = services.cancel_game(game, game.seat0)
    assert game.status == Game.Status.CANCELLED


def test_a_game_in_play_cannot_be_cancelled():
    game = started_game()
    with pytest.raises(services.StaleMove):
        services.cancel_game(game, game.seat0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_cancelled_game_cannot_be_accepted():
    game = open_game()
    services.cancel_game(game, game.seat0)
    with pytest.raises(services.StaleMove):
        services.accept_game(game, make_user())
