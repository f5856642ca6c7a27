"""``manage.py check_games``: every stored game replayed on its own rules version and held
against its row. A site whose games all replay as stored passes; a game that differs is named,
with what differs, and the command fails."""

from __future__ import annotations

import io
import json
import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone
from factories import client_for, make_user, open_game

from games.archive import records
from games.management.commands import check_games
from games.models import Action, Game
from games.play import services, states

pytestmark = pytest.mark.django_db


def check(*args) -> str:
    """What the operator reads of a check that passes."""
    out = io.StringIO()
    call_command("check_games", *args, stdout=out)
    return out.getvalue()


def refused(*args) -> str:
    """What the operator reads of a check that fails: the games named, then the summary."""
    out = io.StringIO()
    with pytest.raises(CommandError) as failure:
        call_command("check_games", *args, stdout=out)
    return out.getvalue() + str(failure.value)


def game_on(version: str, kind: str, alice, bob, clock: str = "none") -> Game:
    """A game started on rules ``version``: an earlier version's game is one created while that
    version was current, so it has its version before anyone moves."""
    game = open_game(alice, kind=kind, first="me", time_control=clock)
    Game.objects.filter(pk=game.pk).update(engine_version=version, seed=4242)
    states.forget_cached_states()
    return services.accept_game(Game.objects.get(pk=game.pk), bob)


def played(game: Game, rng: random.Random, moves: int | None = None) -> Game:
    """Random legal moves through the one service door: ``moves`` of them, or to the end."""
    done = 0
    while game.status == Game.Status.ACTIVE and (moves is None or done < moves):
        state = states.load_state(game)
        action = rng.choice(game.engine.legal_actions(state)).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
        done += 1
    return game


@pytest.fixture
def alice_and_bob():
    return make_user("alice"), make_user("bob")


@pytest.fixture
def stored(alice_and_bob):
    """Finished, running and resigned games of both kinds on both rules versions."""
    games = {}
    for kind in ("basilica", "cathedral"):
        for version in ("1", "2"):
            rng = random.Random(f"{kind} {version}")
            finished = played(game_on(version, kind, *alice_and_bob), rng)
            running = played(game_on(version, kind, *alice_and_bob), rng, moves=9)
            resigned = played(game_on(version, kind, *alice_and_bob), rng, moves=6)
            resigned = services.resign(resigned, resigned.player(resigned.to_decide))
            games[kind, version, "finished"] = finished
            games[kind, version, "running"] = running
            games[kind, version, "resigned"] = resigned
    return games


def test_a_site_whose_games_all_replay_as_stored_passes(stored):
    said = check()
    assert said.startswith("12 games checked in ")
    assert said.strip().endswith("a second): 0 mismatches")
    endings = {game.termination for game in stored.values()}
    assert "resignation" in endings
    assert endings - {"resignation", ""}  # and the rules' own endings
    for (_, version, _), game in stored.items():
        assert states.replay_game(game).version == version


def test_with_verbosity_2_each_game_checked_has_its_line(stored):
    game = stored["cathedral", "1", "running"]
    said = check("-v", "2")
    assert said.count(" replays as stored, ") == 12
    assert f"game {game.pk} (cathedral, rules version 1): replays as stored, 9 actions" in said


def test_games_ended_off_the_board_are_read_as_such(alice_and_bob):
    """Aborted, abandoned, lost on time: the rules did not end these games, and that is right."""
    alice, bob = alice_and_bob
    aborted = services.abort(game_on("1", "basilica", alice, bob), alice)
    tomorrow = timezone.now() + timedelta(days=1)
    abandoned = services.enforce_clock(game_on("2", "basilica", alice, bob, "10+5"), tomorrow)
    timed = played(game_on("1", "cathedral", alice, bob, "10+5"), random.Random(5), moves=4)
    timed = services.enforce_clock(timed, tomorrow)
    assert [aborted.termination, abandoned.termination, timed.termination] == [
        "aborted",
        "abandoned",
        "timeout",
    ]
    assert check().startswith("3 games checked in ")


def test_seeks_and_cancelled_games_are_checked_too(alice_and_bob):
    """Never played, they replay to a new game: their rules and options must still be there."""
    alice, _ = alice_and_bob
    open_game(alice, kind="cathedral")
    cancelled = services.cancel_game(open_game(alice), alice)
    assert check().startswith("2 games checked in ")
    Game.objects.filter(pk=cancelled.pk).update(engine_version="9")
    assert f"game {cancelled.pk} (basilica, rules version 9): cannot be replayed" in refused()


def test_an_imported_record_is_a_game_too(alice_and_bob):
    alice, bob = alice_and_bob
    finished = played(game_on("1", "cathedral", alice, bob), random.Random(6))
    aborted = services.abort(game_on("2", "basilica", alice, bob), alice)
    for game in (finished, aborted):
        text = json.dumps(records.export(game))
        client_for(alice).post(reverse("games:import"), {"text": text})
    imported = Game.objects.filter(imported=True)
    # The import page stores every record as a finished game, aborted ones included.
    assert sorted(imported.values_list("status", "termination")) == [
        ("finished", "aborted"),
        ("finished", "no more placements"),
    ]
    assert check().startswith("4 games checked in ")


def test_the_games_are_read_a_chunk_at_a_time(stored, monkeypatch):
    monkeypatch.setattr(check_games, "CHUNK", 5)
    assert check().startswith("12 games checked in ")
    last = max(game.pk for game in stored.values())
    Game.objects.filter(pk=last).update(engine_version="9")
    said = refused()
    assert f"game {last} (cathedral, rules version 9)" in said
    assert "12 games checked in " in said


# -- a game that differs from its log is named, and the command fails ---------------------------


def test_a_changed_score_is_found(stored):
    game = stored["basilica", "1", "finished"]
    first, second = game.scores
    Game.objects.filter(pk=game.pk).update(scores=[first + 1, second])
    said = refused()
    assert (
        f"game {game.pk} (basilica, rules version 1): stored scores [{first + 1}, {second}], "
        f"replayed [{first}, {second}]\n"
    ) in said
    assert "12 games checked in " in said
    assert said.endswith("a second): 1 mismatch")


def test_a_changed_winner_is_found(stored):
    game = stored["cathedral", "2", "finished"]
    other = [1] if game.winners == [0] else [0]
    Game.objects.filter(pk=game.pk).update(winners=other)
    said = refused()
    assert (
        f"game {game.pk} (cathedral, rules version 2): stored winners {other}, "
        f"replayed {game.winners}"
    ) in said


def test_a_resigned_game_credited_to_the_wrong_seat_is_found(stored):
    game = stored["basilica", "2", "resigned"]
    Game.objects.filter(pk=game.pk).update(winners=[game.ended_by])
    said = refused("--id", str(game.pk))
    assert (
        f"stored winners [{game.ended_by}], its ending (resignation by seat {game.ended_by}) "
        f"gives [{1 - game.ended_by}]"
    ) in said


def test_a_running_game_stored_as_over_is_found(stored):
    game = stored["cathedral", "1", "running"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, termination="nothing")
    said = refused()
    assert (
        f"game {game.pk} (cathedral, rules version 1): stored as finished (nothing), but its log "
        f"does not end the game: seat {game.to_decide} is to decide after action 9"
    ) in said


def test_a_game_the_rules_ended_stored_as_in_play_is_found(stored):
    game = stored["basilica", "2", "finished"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)
    said = refused()
    assert (
        f"game {game.pk} (basilica, rules version 2): the rules end it at action {game.seq} "
        f"({game.termination}), but it is stored as in play"
    ) in said


def test_a_resignation_stored_as_an_abort_is_found(stored):
    game = stored["cathedral", "2", "resigned"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    said = refused()
    assert "its ending (resignation) is stored as aborted, not finished" in said


def test_the_wrong_seat_to_decide_is_found(stored):
    game = stored["basilica", "1", "running"]
    Game.objects.filter(pk=game.pk).update(to_decide=1 - game.to_decide)
    said = refused()
    assert f"stored seat {1 - game.to_decide} to decide, replayed seat {game.to_decide}" in said


def test_an_illegal_move_in_a_log_is_found(stored):
    game = stored["cathedral", "2", "running"]
    first = game.actions.get(seq=1)
    Action.objects.filter(pk=first.pk).update(data={**first.data, "col": 9, "row": 9})
    said = refused("--kind", "cathedral")
    assert f"game {game.pk} (cathedral, rules version 2): does not replay: action 1: " in said
    assert said.endswith("a second): 1 mismatch")


def test_a_move_stored_under_the_wrong_seat_is_found(stored):
    game = stored["basilica", "2", "running"]
    third = game.actions.get(seq=3)
    Action.objects.filter(pk=third.pk).update(player=1 - third.player)
    said = refused()
    assert (
        f"action 3 is stored as seat {1 - third.player}'s, the rules gave it to seat {third.player}"
    ) in said


def test_a_deleted_last_action_is_found(stored):
    game = stored["basilica", "1", "running"]
    game.actions.get(seq=9).delete()
    said = refused("--id", str(game.pk))
    assert (
        f"game {game.pk} (basilica, rules version 1): the row counts 9 actions, its log holds 8"
    ) in said


def test_a_gap_in_a_log_is_found(stored):
    game = stored["cathedral", "1", "finished"]
    game.actions.get(seq=2).delete()
    said = refused("--id", str(game.pk))
    assert f"game {game.pk} (cathedral, rules version 1): its log lacks action 2" in said


def test_a_game_on_rules_the_site_does_not_have_is_found(stored):
    game = stored["cathedral", "2", "finished"]
    Game.objects.filter(pk=game.pk).update(engine_version="9")
    said = refused()
    assert (
        f"game {game.pk} (cathedral, rules version 9): cannot be replayed: this site has no "
        "rules version '9' of cathedral (it has 1, 2)"
    ) in said
    assert said.endswith("a second): 1 mismatch")


def test_options_that_do_not_read_are_found(stored):
    game = stored["basilica", "2", "finished"]
    Game.objects.filter(pk=game.pk).update(options={**game.options, "edition": "1999"})
    said = refused()
    assert f"game {game.pk} (basilica, rules version 2): cannot be replayed: its options" in said


def test_every_game_that_differs_is_named_once(stored):
    broken = [stored["basilica", "1", "finished"], stored["cathedral", "2", "resigned"]]
    Game.objects.filter(pk__in=[g.pk for g in broken]).update(engine_version="9")
    said = refused()
    for game in broken:
        assert said.count(f"game {game.pk} ") == 1
    assert said.endswith("a second): 2 mismatches")


# -- choosing the games -------------------------------------------------------------------------


def test_kind_chooses_the_games_of_one_kind(stored):
    Game.objects.filter(pk=stored["basilica", "1", "finished"].pk).update(engine_version="9")
    assert check("--kind", "cathedral").startswith("6 games checked in ")
    assert "6 games checked in " in refused("--kind", "basilica")


def test_id_chooses_games_by_number(stored):
    one, two, three = (stored["basilica", "1", e] for e in ("finished", "running", "resigned"))
    assert check("--id", str(one.pk)).startswith("1 game checked in ")
    assert check("--id", f"{one.pk},{two.pk}").startswith("2 games checked in ")
    assert check("--id", str(one.pk), "--id", f"{two.pk},{three.pk}").startswith(
        "3 games checked in "
    )
    with pytest.raises(CommandError, match="--id takes game numbers"):
        check("--id", "twelve")


def test_since_chooses_the_games_created_or_changed_since_a_day(stored):
    long_ago = timezone.now() - timedelta(days=400)
    old = [stored["basilica", "1", "finished"], stored["cathedral", "1", "finished"]]
    Game.objects.filter(pk__in=[g.pk for g in old]).update(created_at=long_ago, updated_at=long_ago)
    Game.objects.filter(pk=old[0].pk).update(engine_version="9")  # not looked at since
    ten_days_ago = (timezone.now() - timedelta(days=10)).date().isoformat()
    assert check("--since", ten_days_ago).startswith("10 games checked in ")
    tomorrow = (timezone.now() + timedelta(days=1)).date().isoformat()
    assert check("--since", tomorrow).startswith("0 games checked in ")
