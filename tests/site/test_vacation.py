"""Fair absence: days of vacation, earned by membership, spent only when a correspondence game
would otherwise time out; while one lasts, its player's correspondence clocks stand still, live
clocks do not, and any move of theirs ends it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from factories import START, client_for, first_legal, make_user, started_game, user_deciding

from games import tasks
from games.models import Game, PlayerSettings, Vacation
from games.play import services, vacation

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
MINUTE = timedelta(minutes=1)


@pytest.fixture
def ann():
    return make_user("ann")


@pytest.fixture
def bob():
    return make_user("bob")


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """``with committed():`` runs, at the end of the block, what the site runs once a change
    commits (a vacation that begins or ends moves its player's deadlines)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def decide(game: Game) -> Game:
    return services.submit_action(game, user_deciding(game), first_legal(game), game.seq)


def days_left(user) -> int:
    return vacation.settings_for(user).vacation_days


def give_days(user, days: int) -> None:
    PlayerSettings.objects.filter(pk=vacation.settings_for(user).pk).update(vacation_days=days)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def page_of(game: Game, user) -> str:
    return client_for(user).get(game.get_absolute_url()).content.decode()


# -- the allowance ------------------------------------------------------------------------------


def test_a_new_player_starts_with_a_weeks_vacation_shown_on_their_settings_page(ann):
    page = client_for(ann).get("/settings/").content.decode()

    assert "You have <strong>7 days</strong> of vacation left." in page


def test_each_month_of_membership_earns_two_days(calendar, ann):
    assert days_left(ann) == 7

    calendar.shift(61 * DAY)

    assert days_left(ann) == 11


def test_the_allowance_stops_growing_at_thirty_days(calendar, ann):
    calendar.shift(3 * 365 * DAY)

    assert days_left(ann) == 30


# -- spent only when a game would time out --------------------------------------------------------


def test_no_day_is_spent_while_the_clock_still_has_time(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY - MINUTE)

    tasks.sweep()

    assert days_left(ann) == 7
    assert not Vacation.objects.exists()
    assert fresh(game).status == Game.Status.ACTIVE


def test_the_sweep_spends_a_day_instead_of_ending_the_game(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)

    tasks.sweep()

    game = fresh(game)
    assert game.status == Game.Status.ACTIVE
    assert days_left(ann) == 6
    assert game.deadline == START + 3 * DAY + DAY
    assert vacation.on_vacation_until(ann) == START + 4 * DAY


def test_a_sweep_every_minute_spends_one_day_not_one_a_minute(calendar, ann, bob):
    decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)

    for _ in range(5):
        tasks.sweep()
        calendar.shift(MINUTE)

    assert days_left(ann) == 6


def test_days_of_vacation_stretch_the_clock_until_they_run_out(calendar, ann, bob):
    give_days(ann, 2)
    game = decide(started_game(ann, bob, time_control="3d"))

    for _ in range(4):  # the decision's three days, then the first day away
        calendar.shift(DAY)
        tasks.sweep()
        assert fresh(game).status == Game.Status.ACTIVE
    calendar.shift(DAY)  # the second day away is over
    tasks.sweep()

    game = fresh(game)
    assert game.termination == "timeout"
    assert game.winners == [1]
    assert days_left(ann) == 0


def test_with_no_days_left_the_game_times_out(calendar, ann, bob):
    give_days(ann, 0)
    game = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)

    tasks.sweep()

    assert fresh(game).termination == "timeout"


def test_a_vacation_day_never_saves_a_live_game(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="5+3"))
    calendar.shift(6 * MINUTE)

    tasks.sweep()

    assert fresh(game).termination == "timeout"
    assert days_left(ann) == 7


def test_a_late_move_is_saved_by_a_day_of_vacation(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="1d"))
    calendar.shift(DAY + 3 * 60 * MINUTE)  # the worker was down: no sweep spent the day

    game = decide(game)

    assert game.seq == 2
    assert days_left(ann) == 6


# -- while it lasts ------------------------------------------------------------------------------


def test_a_vacation_pauses_every_correspondence_clock_of_its_player_but_no_live_one(
    calendar, ann, bob, committed
):
    three_days = decide(started_game(ann, bob, time_control="3d"))
    a_week = started_game(ann, make_user("carol"), time_control="7d")
    live = decide(started_game(ann, make_user("dave"), time_control="10+5"))

    with committed():
        vacation.start(ann, 4)

    assert fresh(three_days).deadline == START + 3 * DAY + 4 * DAY
    assert fresh(a_week).deadline == START + 7 * DAY + 4 * DAY
    assert fresh(live).deadline == START + 10 * MINUTE + 5 * timedelta(seconds=1)


def test_the_clocks_of_a_player_on_vacation_outlast_their_old_deadline(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    vacation.start(ann, 4)
    calendar.shift(3 * DAY + MINUTE)

    tasks.sweep()

    assert fresh(game).status == Game.Status.ACTIVE
    assert days_left(ann) == 3  # only the four days she chose


def test_an_opponents_vacation_does_not_stop_your_clock(calendar, ann, bob):
    give_days(ann, 0)
    game = decide(started_game(ann, bob, time_control="3d"))
    vacation.start(bob, 7)
    calendar.shift(3 * DAY)

    tasks.sweep()

    assert fresh(game).termination == "timeout"


def test_a_move_ends_the_vacation_and_gives_back_the_days_not_begun(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))
    vacation.start(ann, 5)
    calendar.shift(DAY + 2 * 60 * MINUTE)  # into her second day away

    decide(game)

    assert vacation.on_vacation_until(ann) is None
    assert days_left(ann) == 2 + 3
    assert Vacation.objects.get().days == 2


def test_a_move_in_the_saved_game_ends_the_vacation_and_the_opponent_sees_it_over(
    calendar, ann, bob, committed
):
    saved = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(3 * DAY + MINUTE)
    tasks.sweep()  # a day is spent to save the game
    assert "On vacation until" in page_of(saved, bob)
    calendar.shift(2 * 60 * MINUTE)

    with committed():
        decide(saved)

    assert vacation.current(ann) is None
    assert Vacation.objects.get().ends_at == START + 3 * DAY + (2 * 60 + 1) * MINUTE
    assert days_left(ann) == 6  # the day begun, and no more
    assert "On vacation until" not in page_of(saved, bob)
    # The clock refilled with the move: the rest of the day spent holds it no more.
    assert fresh(saved).deadline == START + 3 * DAY + (2 * 60 + 1) * MINUTE + 3 * DAY


def test_a_move_elsewhere_ends_the_vacation_and_the_saved_game_keeps_its_day(
    calendar, ann, bob, committed
):
    saved = decide(started_game(ann, bob, time_control="3d"))
    calendar.shift(2 * DAY)
    carol = make_user("carol")
    elsewhere = started_game(ann, carol, time_control="3d")
    waiting = decide(started_game(ann, make_user("dave"), time_control="3d"))
    calendar.shift(DAY + MINUTE)
    tasks.sweep()  # a day is spent to save the first game
    calendar.shift(2 * 60 * MINUTE)

    with committed():
        decide(elsewhere)

    assert vacation.current(ann) is None
    assert days_left(ann) == 6
    assert "On vacation until" not in page_of(elsewhere, carol)
    bobs_page = page_of(saved, bob)
    assert "On vacation until" not in bobs_page
    assert "Their clock stands still until 7 Mar, 09:00 UTC" in bobs_page
    # Her other clocks run again at once; the saved game's stands still to the end of its day,
    # so the move elsewhere neither loses it nor spends another day on it.
    assert fresh(waiting).deadline == START + 5 * DAY + (2 * 60 + 1) * MINUTE
    assert fresh(saved).deadline == START + 4 * DAY
    calendar.shift(MINUTE)
    tasks.sweep()
    assert days_left(ann) == 6
    assert fresh(saved).status == Game.Status.ACTIVE


def test_when_a_vacation_ends_the_clocks_run_again_from_where_they_stood(
    calendar, ann, bob, committed
):
    waiting = decide(started_game(ann, bob, time_control="3d"))  # ann to decide here
    playing = decide(started_game(ann, make_user("carol"), time_control="3d"))
    calendar.shift(DAY)
    vacation.start(ann, 5)
    calendar.shift(2 * DAY)

    with committed():
        decide(playing)  # ann comes back two days early, in the other game

    # One day used before she left, none while away: two days left from now.
    assert fresh(waiting).deadline == START + 3 * DAY + 2 * DAY


# -- planned from the settings page ----------------------------------------------------------


def test_a_vacation_planned_on_the_settings_page_is_shown_to_the_opponent(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="3d"))

    client_for(ann).post("/settings/vacation/", {"days": 3})

    page = client_for(bob).get(game.get_absolute_url()).content.decode()
    assert "On vacation until 6 Mar, 09:00 UTC" in page
    assert days_left(ann) == 4


def test_the_player_on_vacation_sees_it_on_their_settings_page(calendar, ann):
    page = client_for(ann).post("/settings/vacation/", {"days": 3}, follow=True)

    assert "You are on vacation until 6 Mar 2025, 09:00 UTC." in page.content.decode()


def test_more_vacation_than_one_has_is_refused(ann):
    response = client_for(ann).post("/settings/vacation/", {"days": 8})

    assert response.status_code == 400
    assert "you have 7 days of vacation left" in response.content.decode()
    assert vacation.current(ann) is None


def test_a_live_game_shows_no_vacation(calendar, ann, bob):
    game = decide(started_game(ann, bob, time_control="10+5"))
    vacation.start(ann, 3)

    page = client_for(bob).get(game.get_absolute_url()).content.decode()

    assert "On vacation until" not in page
