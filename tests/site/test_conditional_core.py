"""Prepared replies at the service door: a Cathedral player waiting for the opponent keeps
lines "if they play X, I reply Y", and the server plays the reply in the opponent's move's own
transaction (games.play.conditional, games.play.services)."""

from __future__ import annotations

import pytest
from django.core import mail
from factories import make_user, play, started_game

from games.engine import cathedral as engine
from games.models import Action, ConditionalLine, Game
from games.play import conditional, services, states
from games.play.refusals import MoveRejected, NotAllowed, StaleMove

pytestmark = pytest.mark.django_db


def place(building: str, col: int, row: int, turn: int = 0) -> dict:
    return {"kind": "place", "building": building, "col": col, "row": row, "turn": turn}


CATHEDRAL = place("cathedral", 4, 4)  # alice, light, opens in the middle
# Dark's possible first moves, and light's replies, all in far corners of the city.
BOB_TAVERN = place("tavern", 0, 0)
BOB_STABLE = place("tavern", 9, 0)
ALICE_TAVERN = place("tavern", 0, 9)
ALICE_INN_TOP = place("tavern", 9, 9)
BOB_SECOND = place("tavern", 2, 0)
ALICE_SECOND = place("tavern", 2, 9)
BOB_OTHER_SECOND = place("tavern", 0, 2)


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def bob():
    return make_user("bob", email="bob@example.com")


@pytest.fixture
def game(alice, bob) -> Game:
    """Alice (light) has placed the Cathedral: bob (dark) to move, alice waiting."""
    game = started_game(alice, bob, kind="cathedral", time_control="3d")
    return play(game, [CATHEDRAL])


def bob_plays(game: Game, bob, action: dict) -> Game:
    return services.submit_action(game, bob, action, game.seq)


def log_of(game: Game) -> list[tuple[str, dict]]:
    return [(a.user.username, a.data) for a in game.actions.order_by("seq").select_related("user")]


def test_a_reply_is_played_at_once_when_the_opponent_plays_the_move_foreseen(
    game, alice, bob, django_capture_on_commit_callbacks
):
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)

    with django_capture_on_commit_callbacks(execute=True):
        game = bob_plays(game, bob, BOB_TAVERN)

    assert log_of(game)[-2:] == [("bob", BOB_TAVERN), ("alice", ALICE_TAVERN)]
    assert game.to_decide == 1  # bob's move again, at once
    assert not ConditionalLine.objects.exists()  # played to its end
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.seq == game.seq == 3
    # What every page is drawn from is the game after the reply, not before it.
    assert states.cached_state(fresh).history == states.replay_game(fresh).history


def test_a_line_of_several_steps_waits_for_each_move_and_a_divergent_line_is_dropped(
    game, alice, bob
):
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN, BOB_SECOND, ALICE_SECOND], game.seq)
    other = conditional.prepare(
        game, alice, [BOB_TAVERN, ALICE_TAVERN, BOB_OTHER_SECOND, ALICE_SECOND], game.seq
    )

    game = bob_plays(game, bob, BOB_TAVERN)
    lines = list(ConditionalLine.objects.order_by("pk"))
    assert [line.moves for line in lines] == [
        [BOB_SECOND, ALICE_SECOND],
        [BOB_OTHER_SECOND, ALICE_SECOND],
    ]
    assert all(line.base_seq == game.seq for line in lines)

    game = bob_plays(game, bob, BOB_SECOND)
    assert log_of(game)[-2:] == [("bob", BOB_SECOND), ("alice", ALICE_SECOND)]
    assert not ConditionalLine.objects.filter(pk=other.pk).exists()
    assert not ConditionalLine.objects.exists()


def test_a_move_no_line_foresaw_drops_them_all_and_plays_nothing(game, alice, bob):
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    conditional.prepare(game, alice, [BOB_STABLE, ALICE_INN_TOP], game.seq)

    game = bob_plays(game, bob, BOB_SECOND)

    assert log_of(game)[-1] == ("bob", BOB_SECOND)
    assert game.to_decide == 0  # alice decides for herself
    assert not ConditionalLine.objects.exists()


def test_a_line_is_refused_past_thirty_and_nothing_more_is_kept(game, alice):
    state = states.load_state(game)
    theirs = [a.to_json() for a in engine.legal_actions(state) if a.building == "tavern"]
    for first in theirs[: conditional.MAX_LINES]:
        after = engine.apply_action(state, first)
        reply = engine.legal_actions(after)[0].to_json()
        conditional.prepare(game, alice, [first, reply], game.seq)
    extra = next(a.to_json() for a in engine.legal_actions(state) if a.building == "stable")
    reply = engine.legal_actions(engine.apply_action(state, extra))[0].to_json()
    with pytest.raises(MoveRejected, match="30 prepared lines"):
        conditional.prepare(game, alice, [extra, reply], game.seq)
    assert ConditionalLine.objects.count() == 30


def test_a_line_prepared_on_a_stale_page_is_refused(game, alice, bob):
    seen = game.seq
    game = bob_plays(game, bob, BOB_TAVERN)  # alice's page still shows bob to move
    with pytest.raises(StaleMove):
        conditional.prepare(game, alice, [BOB_SECOND, ALICE_SECOND], seen)
    assert not ConditionalLine.objects.exists()


def test_deleting_a_line_the_opponent_already_played_through_says_it_is_gone(game, alice, bob):
    line = conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    bob_plays(game, bob, BOB_TAVERN)
    with pytest.raises(StaleMove, match="gone already"):
        conditional.withdraw(game, alice, line.pk)


def test_only_the_waiting_player_prepares_and_only_legal_lines_that_reply(game, alice, bob):
    stranger = make_user("carol")
    with pytest.raises(NotAllowed):
        conditional.prepare(game, stranger, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    with pytest.raises(MoveRejected, match="your move"):
        conditional.prepare(game, bob, [ALICE_TAVERN, BOB_TAVERN], game.seq)
    with pytest.raises(MoveRejected, match="at least one reply"):
        conditional.prepare(game, alice, [BOB_TAVERN], game.seq)
    with pytest.raises(MoveRejected, match="move 2 of this line"):
        conditional.prepare(game, alice, [BOB_TAVERN, BOB_TAVERN], game.seq)  # square taken
    with pytest.raises(MoveRejected, match="move 1 of this line"):
        conditional.prepare(game, alice, [{"kind": "jump"}, ALICE_TAVERN], game.seq)
    with pytest.raises(MoveRejected, match="list of moves"):
        conditional.prepare(game, alice, "tavern", game.seq)
    assert not ConditionalLine.objects.exists()


def test_two_different_replies_to_the_same_move_are_refused(game, alice):
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    with pytest.raises(MoveRejected, match="different move 2"):
        conditional.prepare(game, alice, [BOB_TAVERN, ALICE_INN_TOP], game.seq)
    with pytest.raises(MoveRejected, match="already holds"):
        conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    assert ConditionalLine.objects.count() == 1


def test_basilica_has_hidden_information_and_refuses_prepared_replies():
    game = started_game(make_user("ann"), make_user("ben"))
    waiting = game.player(1 - game.to_decide)
    with pytest.raises(MoveRejected, match="hidden information"):
        conditional.prepare(game, waiting, [{"kind": "x"}], game.seq)
    assert not conditional.offered(game)


def test_the_lines_go_when_the_game_ends_off_the_board(game, alice, bob):
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    services.resign(game, bob)
    assert not ConditionalLine.objects.exists()


def test_the_player_is_told_by_email_of_the_reply_played_for_them(
    game, alice, bob, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFY_DELAY_SECONDS = 0
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        game = bob_plays(game, bob, BOB_TAVERN)

    told = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert len(told) == 1
    assert told[0].subject == f"Your prepared reply was played against bob (game {game.pk})"
    assert "Their move: bob (Dark) placed the Tavern on A1" in told[0].body
    assert "Your reply: alice (Light) placed the Tavern on A10" in told[0].body
    assert "no prepared line left" in told[0].body
    # Bob, whose move was answered at once, is told it is his turn as after any move.
    assert not [m for m in mail.outbox if "prepared" in m.subject and m.to == ["bob@example.com"]]


def test_a_reply_played_for_a_player_on_vacation_does_not_end_the_vacation(game, alice, bob):
    from games.play import vacation

    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    vacation.start(alice, 3)
    vacation.start(bob, 3)
    bob_plays(game, bob, BOB_TAVERN)
    assert vacation.current(alice) is not None, "her prepared reply is not a move of hers"
    assert vacation.current(bob) is None, "his move ends his vacation"


def test_the_reply_is_an_ordinary_action_of_the_log(game, alice, bob):
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    game = bob_plays(game, bob, BOB_TAVERN)
    reply = Action.objects.get(game=game, seq=game.seq)
    assert (reply.player, reply.user, reply.data) == (0, alice, ALICE_TAVERN)


def test_a_move_and_the_reply_to_it_are_told_to_the_site_once_at_the_reply(
    game, alice, bob, django_capture_on_commit_callbacks
):
    from games import events

    heard = []

    def listener(game, by, **_facts):
        heard.append((game.seq, by))

    events.game_changed.connect(listener)
    try:
        conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
        with django_capture_on_commit_callbacks(execute=True):
            game = bob_plays(game, bob, BOB_TAVERN)
    finally:
        events.game_changed.disconnect(listener)
    assert heard == [(3, 1)]  # once, at the reply's seq, by bob whose own answer shows it


def test_the_clock_reads_each_decision_by_its_own_player_after_a_reply(
    game, alice, bob, django_capture_on_commit_callbacks
):
    from games.play import timing

    timing.decisions(Game.objects.get(pk=game.pk))  # the clock's cache is warm, as on a site
    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    with django_capture_on_commit_callbacks(execute=True):
        game = bob_plays(game, bob, BOB_TAVERN)
    fresh = Game.objects.get(pk=game.pk)
    assert [d.seat for d in timing.decisions(fresh)] == [0, 1, 0]
    timing.forget_decisions()
    assert [d.seat for d in timing.decisions(fresh)] == [0, 1, 0]


def test_no_reply_is_prepared_in_a_live_game(alice, bob):
    game = play(started_game(alice, bob, kind="cathedral", time_control="10+5"), [CATHEDRAL])
    assert not conditional.offered(game)
    with pytest.raises(MoveRejected, match="not live"):
        conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    assert not ConditionalLine.objects.exists()


def test_a_referee_ending_the_game_drops_the_lines(game, alice):
    from games.play import referee

    conditional.prepare(game, alice, [BOB_TAVERN, ALICE_TAVERN], game.seq)
    referee.abort_game(game, make_user("judge", is_staff=True), "a test of the referee")
    assert not ConditionalLine.objects.exists()


def test_the_analysis_board_of_a_live_game_says_replies_are_for_slower_games(alice, bob):
    from django.urls import reverse
    from factories import client_for

    game = play(started_game(alice, bob, kind="cathedral", time_control="10+5"), [CATHEDRAL])
    page = client_for(alice).get(reverse("games:prepare", args=[game.pk])).text
    assert "Replies are prepared in correspondence and untimed games, not live." in page
    assert "Prepare a reply" not in client_for(alice).get(game.get_absolute_url()).text
