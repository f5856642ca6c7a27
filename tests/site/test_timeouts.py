"""Correspondence games played over simulated days: the clock refills after each decision, the
sweep ends the games out of time (and only those), a late move is refused, and a game ends
early by resignation or abort, then starts again as a rematch.

The players here have spent their vacation days: a day of vacation would save a clock that runs
out (see test_vacation.py)."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from factories import (
    START,
    client_for,
    first_legal,
    game_from_log,
    make_user,
    player,
    search_position,
    started_game,
    user_deciding,
)

from games import tasks
from games.engine import basilica as engine
from games.models import Game
from games.play import services, timing, vacation

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
MINUTE = timedelta(minutes=1)


@pytest.fixture
def ann():
    return player("ann")


@pytest.fixture
def bob():
    return player("bob")


def decide(game: Game) -> Game:
    """Whoever must decide makes the first legal decision."""
    return services.submit_action(game, user_deciding(game), first_legal(game), game.seq)


def page_of(game: Game, user) -> str:
    return client_for(user).get(game.get_absolute_url()).content.decode()


def log_of(page: str) -> str:
    return page.split('id="log"', 1)[1]


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# -- the clock of a correspondence game -------------------------------------------------------


def test_a_decision_refills_the_clock_for_the_next_one(calendar, ann, bob):
    game = started_game(ann, bob, time_control="3d")
    calendar.shift(2 * DAY)
    assert timing.read(game).remaining[0] == DAY

    game = decide(game)  # ann's first vault, after two days' thought

    assert timing.read(game).remaining == (3 * DAY, 3 * DAY)
    assert fresh(game).deadline == START + 2 * DAY + 3 * DAY


def test_the_player_who_answers_a_paid_order_runs_the_clock_though_it_is_not_their_turn(
    calendar, ann, bob
):
    options = engine.Options(edition="2022", first_player=0)
    seed, actions = search_position(options, lambda s: s.to_decide != s.active)
    game = game_from_log(options, seed, actions, seat0=ann, seat1=bob)
    Game.objects.filter(pk=game.pk).update(time_control="3d", started_at=START)
    game = fresh(game)
    timing.refresh_deadline(game)
    answering = game.player(game.to_decide)
    calendar.shift(3 * DAY)

    tasks.sweep()

    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.player(game.ended_by) == answering
    assert game.player(game.winners[0]) != answering


# -- the sweep --------------------------------------------------------------------------------


def test_the_sweep_ends_only_the_games_out_of_time(calendar, ann, bob):
    carol, dave = player("carol"), player("dave")
    late = decide(started_game(ann, bob, time_control="3d"))
    friendly = decide(started_game(carol, dave, time_control="none"))
    calendar.shift(2 * DAY)
    fresh_move = decide(started_game(carol, dave, time_control="3d"))
    calendar.shift(DAY + MINUTE)

    result = tasks.sweep()

    assert result["ended"] == 1
    assert fresh(late).status == Game.Status.FINISHED
    assert fresh(fresh_move).status == Game.Status.ACTIVE
    assert fresh(friendly).status == Game.Status.ACTIVE


def test_two_sweeps_that_overlap_count_only_the_games_each_ended_itself(
    calendar, ann, bob, monkeypatch
):
    games = [decide(started_game(ann, player(f"p{i}"), time_control="1d")) for i in range(3)]
    calendar.shift(DAY + MINUTE)
    real_lock, other = services.lock, []

    def lock_after_another_sweep(game):
        if not other:  # the first game this sweep locks: another sweep got there just before
            other.append(None)
            other[0] = tasks.sweep()
        return real_lock(game)

    monkeypatch.setattr(services, "lock", lock_after_another_sweep)
    ended = []
    monkeypatch.setattr(services, "_end", counting(services._end, ended))

    this = tasks.sweep()

    assert this["ended"] + other[0]["ended"] == len(games) == 3
    assert sorted(game.pk for game in ended) == sorted(game.pk for game in games)
    assert all(fresh(game).termination == "timeout" for game in games)


def counting(function, calls: list):
    def counted(game, *args):
        calls.append(game)
        return function(game, *args)

    return counted


def test_running_out_of_time_is_a_loss_for_who_ran_out(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))  # ann plays, then thinks too long
    calendar.shift(3 * DAY)

    tasks.sweep()

    game = fresh(game)
    assert game.termination == "timeout"
    assert game.winners == [1]
    assert game.result_for(ann) == "lost"
    assert game.result_for(bob) == "won"


def test_the_sweep_leaves_a_game_one_second_before_its_deadline(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY - timedelta(seconds=1))

    tasks.sweep()

    assert fresh(game).status == Game.Status.ACTIVE


def test_the_sweep_command_ends_games_out_of_time_for_cron(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="1d"))
    calendar.shift(DAY + MINUTE)
    out = io.StringIO()

    call_command("sweep_games", stdout=out)

    assert fresh(game).termination == "timeout"
    assert "1 game(s) ended on time" in out.getvalue()


def test_the_players_read_the_timeout_on_the_game_page_and_in_its_log(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(4 * DAY)
    tasks.sweep()

    bobs_page, anns_page = page_of(game, bob), page_of(game, ann)

    assert "You won: ann ran out of time: bob wins." in bobs_page
    assert "You lost: ann ran out of time: bob wins." in anns_page
    assert "ann ran out of time: bob wins." in log_of(bobs_page)


def test_an_untimed_game_never_times_out(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="none"))
    calendar.shift(400 * DAY)

    tasks.sweep()
    page_of(game, bob)
    game = decide(game)  # ann comes back after a year and goes on

    assert fresh(game).status == Game.Status.ACTIVE
    assert fresh(game).seq == 2


# -- no worker needed: a move or a page checks the clock too ------------------------------------


def test_a_late_move_is_refused_with_the_reason_and_the_game_is_over(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)  # no sweep ran: the worker is down

    response = client_for(ann).post(
        reverse("games:act", args=[game.pk]),
        {"action": json.dumps(first_legal(game)), "seq": 1},
    )

    assert response.status_code == 409
    assert "ann ran out of time: bob wins." in response.content.decode()
    assert fresh(game).status == Game.Status.FINISHED
    assert fresh(game).seq == 1


def test_a_late_move_through_the_service_is_refused_and_not_logged(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)

    with pytest.raises(services.StaleMove, match="ann ran out of time: bob wins"):
        decide(game)

    assert fresh(game).termination == "timeout"
    assert fresh(game).actions.count() == 1


def test_opening_the_game_after_its_deadline_ends_it(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)

    page = page_of(game, bob)

    assert "You won: ann ran out of time: bob wins." in page
    assert fresh(game).status == Game.Status.FINISHED


# -- a game that never began --------------------------------------------------------------------


def test_a_game_whose_first_player_never_moves_is_aborted_without_a_result(calendar, ann, bob):
    game = started_game(ann, bob, time_control="3d")
    calendar.shift(3 * DAY)

    tasks.sweep()

    game = fresh(game)
    assert game.status == Game.Status.ABORTED
    assert game.termination == "abandoned"
    assert game.winners == []
    assert game.result_for(bob) == ""
    assert "ann made no first move in time. No result." in page_of(game, bob)


def test_a_game_never_begun_is_aborted_in_the_time_for_one_decision_vacation_or_not(calendar):
    # Vacation days save a game in play; they do not keep an opponent waiting for a game that
    # never began.
    absent, waiting = make_user("absent"), make_user("waiting")
    game = started_game(absent, waiting, time_control="3d")
    calendar.shift(3 * DAY)

    tasks.sweep()

    assert fresh(game).termination == "abandoned"
    assert vacation.settings_for(absent).vacation_days == 7


def test_the_first_player_may_abort_before_their_first_move(ann, bob):
    game = started_game(ann, bob, time_control="3d")

    client_for(ann).post(reverse("games:abort", args=[game.pk]))

    assert fresh(game).status == Game.Status.ABORTED
    assert fresh(game).winners == []


def test_the_second_player_may_abort_after_the_first_players_move(ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))

    page = client_for(bob).post(reverse("games:abort", args=[game.pk]), follow=True)

    assert fresh(game).status == Game.Status.ABORTED
    assert "The game was aborted by bob before it really began: no result." in page.content.decode()


def test_no_abort_after_ones_own_first_move(ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))

    page = client_for(ann).post(reverse("games:abort", args=[game.pk]), follow=True)

    assert "a game can be aborted only before your own first move" in page.content.decode()
    assert fresh(game).status == Game.Status.ACTIVE


# -- resign -------------------------------------------------------------------------------------


def csrf_token_of_form(page: str, action: str) -> str:
    form = page.split(f'action="{action}"', 1)[1]
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]


def logged_in_with_csrf_checks(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_resigning_from_the_game_page_gives_the_win_to_the_opponent(ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    browser = logged_in_with_csrf_checks(bob)
    url = reverse("games:resign", args=[game.pk])
    token = csrf_token_of_form(browser.get(game.get_absolute_url()).content.decode(), url)

    page = browser.post(url, {"csrfmiddlewaretoken": token}, follow=True).content.decode()

    assert "You lost: bob resigned: ann wins." in page
    assert fresh(game).termination == "resignation"
    assert fresh(game).winners == [0]


def test_a_resignation_posted_from_another_site_is_refused(ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    browser = logged_in_with_csrf_checks(bob)

    response = browser.post(reverse("games:resign", args=[game.pk]))

    assert response.status_code == 403
    assert fresh(game).status == Game.Status.ACTIVE


def test_a_stranger_cannot_resign_for_a_player(ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))

    response = client_for(make_user("eve")).post(reverse("games:resign", args=[game.pk]))

    assert response.status_code == 403
    game = fresh(game)
    assert game.status == Game.Status.ACTIVE
    assert (game.seq, game.termination, game.winners) == (1, "", [])


def test_a_player_may_resign_though_it_is_not_their_turn(ann, bob):
    game = decide(started_game(ann, bob, time_control="none"))  # ann still deciding

    client_for(bob).post(reverse("games:resign", args=[game.pk]))

    assert fresh(game).result_for(ann) == "won"


def test_resigning_after_ones_clock_ran_out_ends_the_game_on_time_for_good(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="1d"))  # ann has moved, and still decides
    calendar.shift(DAY + MINUTE)

    with pytest.raises(services.StaleMove, match="ann ran out of time: bob wins"):
        services.resign(game, ann)

    game = fresh(game)
    assert (game.status, game.termination, game.winners) == (Game.Status.FINISHED, "timeout", [1])


def test_a_game_over_cannot_be_resigned_again(ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    services.resign(game, ann)

    page = client_for(bob).post(reverse("games:resign", args=[game.pk]), follow=True)

    assert "this game is already over" in page.content.decode()
    assert fresh(game).winners == [1]


# -- rematch ------------------------------------------------------------------------------------


def rematch_answer(game: Game, user, answer: str):
    return client_for(user).post(reverse("games:rematch", args=[game.pk]), {"answer": answer})


def test_an_accepted_rematch_begins_at_once_with_the_same_options_and_seats_swapped(ann, bob):
    game = decide(started_game(ann, bob, time_control="2d", expansion=True, remove_six=True))
    services.resign(game, ann)
    rematch_answer(game, ann, "offer")

    response = rematch_answer(game, bob, "accept")

    rematch = fresh(game).rematch
    assert response["Location"] == rematch.get_absolute_url()
    assert rematch.status == Game.Status.ACTIVE
    assert (rematch.seat0, rematch.seat1) == (bob, ann)
    assert rematch.time_control == "2d"
    assert (rematch.edition, rematch.engine_options.expansion) == ("2022", True)
    assert rematch.engine_options.remove_six
    assert rematch.deadline is not None


def test_in_a_rematch_the_player_who_moved_second_moves_first(ann, bob):
    game = decide(started_game(ann, bob, time_control="2d"))  # ann moved first
    services.resign(game, bob)
    services.offer_rematch(game, bob)

    rematch = services.answer_rematch(game, ann, accept=True)

    assert user_deciding(rematch) == bob


def test_the_offer_of_a_rematch_shows_on_the_opponents_page(ann, bob):
    game = decide(started_game(ann, bob, time_control="2d"))
    services.resign(game, ann)

    rematch_answer(game, ann, "offer")

    assert "Your opponent offers a rematch" in page_of(game, bob)


def test_a_declined_rematch_starts_no_game_and_the_offerer_is_told(ann, bob):
    game = decide(started_game(ann, bob, time_control="2d"))
    services.resign(game, ann)
    services.offer_rematch(game, ann)

    rematch_answer(game, bob, "decline")

    assert Game.objects.count() == 1
    assert not hasattr(fresh(game), "rematch")
    assert "The rematch was declined." in page_of(game, ann)


def test_a_declined_rematch_cannot_be_offered_again(ann, bob):
    game = decide(started_game(ann, bob, time_control="2d"))
    services.resign(game, ann)
    services.offer_rematch(game, ann)
    services.answer_rematch(game, bob, accept=False)

    with pytest.raises(services.StaleMove, match="declined"):
        services.offer_rematch(game, ann)
    assert "Offer a rematch" not in page_of(game, ann)


def test_the_player_who_offered_a_rematch_cannot_accept_it_for_the_other(ann, bob):
    game = decide(started_game(ann, bob, time_control="2d"))
    services.resign(game, ann)
    services.offer_rematch(game, ann)

    response = rematch_answer(game, ann, "accept")

    assert response.status_code == 403
    assert Game.objects.count() == 1


def test_no_rematch_of_an_aborted_game(ann, bob):
    game = started_game(ann, bob, time_control="2d")
    services.abort(game, ann)

    with pytest.raises(services.StaleMove):
        services.offer_rematch(game, bob)


# -- a live game --------------------------------------------------------------------------------


def test_a_live_game_is_flagged_when_the_bank_reaches_zero(calendar, ann, bob):
    game = started_game(ann, bob, time_control="10+5")
    calendar.shift(timedelta(seconds=30))
    game = decide(game)  # 10:00 - 0:30 + 0:05 left for ann's next decision
    calendar.shift(timedelta(minutes=9, seconds=35))

    game = services.enforce_clock(game)

    assert game.status == Game.Status.FINISHED
    assert game.termination == "timeout"
    assert game.winners == [1]


def test_a_live_game_is_not_flagged_a_second_early(calendar, ann, bob):
    game = started_game(ann, bob, time_control="10+5")
    calendar.shift(timedelta(seconds=30))
    game = decide(game)
    calendar.shift(timedelta(minutes=9, seconds=34))

    game = services.enforce_clock(game)

    assert game.status == Game.Status.ACTIVE


@pytest.mark.django_db(transaction=True)  # outside a transaction, as a page or push reads it
def test_a_live_clock_read_again_asks_the_database_nothing_and_then_only_for_what_is_new(
    calendar, ann, bob, django_assert_num_queries, monkeypatch
):
    game = started_game(ann, bob, time_control="10+5")
    for _ in range(30):
        calendar.shift(timedelta(seconds=3))
        game = decide(game)
    first = timing.read(game)
    with django_assert_num_queries(0):  # every page and push of this position reads it again
        assert timing.read(game) == first

    calendar.shift(timedelta(seconds=3))
    game = decide(game)  # a move made here tells the clock as it commits
    with django_assert_num_queries(0):
        reading = timing.read(game)
    timing.forget_decisions()
    assert timing.read(game) == reading  # the same as a read of the whole log

    monkeypatch.setattr(timing, "decided", lambda *args: None)  # as if another process moved
    calendar.shift(timedelta(seconds=3))
    game = decide(game)
    with django_assert_num_queries(1) as queries:
        timing.read(game)
    assert '"seq" > 31' in queries.captured_queries[0]["sql"]  # the one decision made since
