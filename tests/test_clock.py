"""The clock's arithmetic, read off a game's start and the times of its decisions: no database,
no ticking, only the moments a game's log would hold."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games import clock
from games.clock import Decision, TimeControl

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
MINUTE = timedelta(minutes=1)
SECOND = timedelta(seconds=1)

THREE_DAYS = TimeControl.parse("3d")
BLITZ = TimeControl.parse("10+5")


# -- the notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["3d", "1d", "14d", "10+5", "5+3", "30+20", "none"])
def test_a_time_control_reads_back_what_it_writes(text):
    assert str(TimeControl.parse(text)) == text
    assert TimeControl.parse(str(TimeControl.parse(text))) == TimeControl.parse(text)


def test_an_empty_time_control_is_no_clock():
    assert TimeControl.parse("") == TimeControl.parse("none")
    assert not TimeControl.parse("").timed


@pytest.mark.parametrize(
    "text", ["4d", "0d", "15d", "10+4", "3+2", "10", "d", "3 d", "ten+5", "-3d"]
)
def test_a_time_control_outside_the_lobbys_choices_is_refused(text):
    with pytest.raises(ValueError, match=r"time control|is not one of"):
        TimeControl.parse(text)


def test_each_control_says_what_kind_of_game_it_makes():
    assert (THREE_DAYS.speed, BLITZ.speed, TimeControl().speed) == (
        "correspondence",
        "live",
        "untimed",
    )
    assert THREE_DAYS.label == "3 days per move"
    assert TimeControl.parse("1d").label == "1 day per move"
    assert BLITZ.label == "live 10+5"


def test_every_choice_the_lobby_offers_parses():
    offered = [value for _, group in clock.choices() for value, _ in group]

    assert [str(TimeControl.parse(v)) for v in offered] == offered
    assert "none" in offered


# -- correspondence: days for each decision, refilled after it ---------------------------------


def test_a_correspondence_clock_counts_down_from_the_start_for_the_first_decision():
    reading = clock.read(THREE_DAYS, START, [], to_decide=0, now=START + DAY + 2 * HOUR)

    assert reading.running == 0
    assert reading.remaining == (DAY * 2 - 2 * HOUR, 3 * DAY)
    assert reading.deadline == START + 3 * DAY
    assert reading.flagged is None


def test_a_correspondence_clock_refills_after_each_decision():
    decisions = [Decision(0, START + 2 * DAY), Decision(1, START + 2 * DAY + 5 * HOUR)]

    reading = clock.read(THREE_DAYS, START, decisions, to_decide=0, now=START + 3 * DAY)

    # Seat 0 took two days over its first decision; that is forgotten once it decided.
    assert reading.remaining == (3 * DAY - 19 * HOUR, 3 * DAY)
    assert reading.deadline == START + 5 * DAY + 5 * HOUR


def test_a_correspondence_clock_flags_at_its_deadline_and_not_a_second_before():
    just_before = clock.read(THREE_DAYS, START, [], 0, START + 3 * DAY - SECOND)
    at_the_deadline = clock.read(THREE_DAYS, START, [], 0, START + 3 * DAY)
    long_after = clock.read(THREE_DAYS, START, [], 0, START + 9 * DAY)

    assert just_before.flagged is None
    assert just_before.remaining[0] == SECOND
    assert at_the_deadline.flagged == 0
    assert long_after.flagged == 0
    assert long_after.remaining[0] == timedelta(0)


def test_the_seat_that_must_decide_runs_the_clock_even_out_of_turn():
    # Seat 0 played; seat 1 must now answer a paid order (or pick a Jester secretly) before
    # seat 0 goes on: seat 1's clock runs, though it is seat 0's turn.
    decisions = [Decision(0, START + HOUR)]

    reading = clock.read(THREE_DAYS, START, decisions, to_decide=1, now=START + 4 * HOUR)

    assert reading.running == 1
    assert reading.remaining == (3 * DAY, 3 * DAY - 3 * HOUR)


def test_after_a_decision_out_of_turn_the_turn_player_gets_a_full_clock_again():
    # Seat 1 answered a paid order; seat 0, whose turn it still is, decides next.
    decisions = [Decision(0, START + HOUR), Decision(1, START + 2 * HOUR)]

    reading = clock.read(THREE_DAYS, START, decisions, to_decide=0, now=START + 2 * HOUR)

    assert reading.remaining == (3 * DAY, 3 * DAY)
    assert reading.deadline == START + 3 * DAY + 2 * HOUR


def test_a_game_over_runs_no_clock():
    reading = clock.read(THREE_DAYS, START, [Decision(0, START + HOUR)], None, START + 9 * DAY)

    assert reading.running is None
    assert reading.deadline is None
    assert reading.flagged is None


def test_an_untimed_game_has_no_clock_at_all():
    reading = clock.read(TimeControl(), START, [], to_decide=0, now=START + 400 * DAY)

    assert reading.remaining == (None, None)
    assert reading.deadline is None
    assert reading.flagged is None


# -- live: a bank of minutes, an increment after each decision ------------------------------------


def test_a_live_clock_spends_only_the_deciding_players_bank_and_adds_the_increment():
    decisions = [
        Decision(0, START + 20 * SECOND),  # seat 0 thought 20 s: 10:00 - 0:20 + 0:05
        Decision(1, START + 50 * SECOND),  # seat 1 thought 30 s: 10:00 - 0:30 + 0:05
    ]

    reading = clock.read(BLITZ, START, decisions, to_decide=0, now=START + 60 * SECOND)

    assert reading.running == 0
    assert reading.remaining == (
        10 * MINUTE - 15 * SECOND - 10 * SECOND,
        10 * MINUTE - 25 * SECOND,
    )
    assert reading.deadline == START + 50 * SECOND + 10 * MINUTE - 15 * SECOND


def test_quick_decisions_in_a_live_game_grow_the_bank_above_its_start():
    decisions = [Decision(0, START + SECOND * n) for n in range(1, 4)]

    reading = clock.read(BLITZ, START, decisions, to_decide=1, now=START + 3 * SECOND)

    assert reading.remaining[0] == 10 * MINUTE + 3 * (5 * SECOND - SECOND)


def test_a_live_clock_flags_when_the_bank_is_spent():
    decisions = [Decision(0, START + MINUTE)]
    deadline = START + MINUTE + 10 * MINUTE

    before = clock.read(BLITZ, START, decisions, to_decide=1, now=deadline - SECOND)
    after = clock.read(BLITZ, START, decisions, to_decide=1, now=deadline)

    assert clock.read(BLITZ, START, decisions, 1, START).deadline == deadline
    assert before.flagged is None
    assert after.flagged == 1
    assert after.remaining == (10 * MINUTE - MINUTE + 5 * SECOND, timedelta(0))


# -- pauses: vacation stops a correspondence clock, never a live one --------------------------


def test_a_vacation_stops_the_correspondence_clock_of_its_player_only():
    away = {0: [(START + DAY, START + 3 * DAY)]}

    reading = clock.read(THREE_DAYS, START, [], to_decide=0, now=START + 4 * DAY, pauses=away)

    assert reading.remaining[0] == DAY
    assert reading.deadline == START + 5 * DAY
    assert reading.flagged is None


def test_a_clock_reads_as_paused_only_while_the_vacation_lasts():
    away = {0: [(START + DAY, START + 3 * DAY)]}

    during = clock.read(THREE_DAYS, START, [], 0, START + 2 * DAY, pauses=away)
    after = clock.read(THREE_DAYS, START, [], 0, START + 3 * DAY, pauses=away)

    assert during.paused
    assert during.remaining[0] == 2 * DAY
    assert not after.paused


def test_an_opponents_vacation_does_not_stop_the_running_clock():
    away = {1: [(START, START + 10 * DAY)]}

    reading = clock.read(THREE_DAYS, START, [], to_decide=0, now=START + 3 * DAY, pauses=away)

    assert reading.flagged == 0


def test_a_vacation_does_not_stop_a_live_clock():
    away = {0: [(START, START + DAY)]}

    reading = clock.read(BLITZ, START, [], to_decide=0, now=START + 11 * MINUTE, pauses=away)

    assert reading.flagged == 0
    assert not reading.paused


def test_a_vacation_begun_as_the_clock_reaches_zero_saves_it():
    # What the sweep does for a player with days left: a vacation from the moment of the flag.
    flag = START + 3 * DAY
    away = {0: [(flag, flag + DAY)]}

    during = clock.read(THREE_DAYS, START, [], 0, flag + HOUR, pauses=away)
    after = clock.read(THREE_DAYS, START, [], 0, flag + DAY, pauses=away)

    assert during.flagged is None
    assert during.deadline == flag + DAY
    assert after.flagged == 0


def test_a_deadline_steps_over_every_pause_on_the_way():
    pauses = clock.merged(
        [
            (START + 2 * DAY, START + 3 * DAY),  # after one day of clock
            (START - DAY, START + HOUR),  # already running when the decision began
            (START + 2 * DAY + HOUR, START + 4 * DAY),  # overlaps the second
            (START + 9 * DAY, START + 10 * DAY),  # after the deadline: no effect
        ]
    )

    # One hour paused at first, then 47 hours of clock, two days away, then 25 hours more.
    assert clock.deadline_after(START, 3 * DAY, pauses) == START + 5 * DAY + HOUR


def test_touching_or_overlapping_pauses_join():
    assert clock.merged(
        [(START + DAY, START + 2 * DAY), (START, START + DAY), (START + 5 * DAY, START + 4 * DAY)]
    ) == [(START, START + 2 * DAY)]


# -- "time almost up" ----------------------------------------------------------------------------


def test_time_almost_up_is_due_when_four_fifths_of_the_decisions_time_is_gone():
    five_days = TimeControl.parse("5d")
    deadline = START + 5 * DAY

    assert not clock.warning_due(
        five_days, clock.read(five_days, START, [], 0, START + 4 * DAY - SECOND)
    )
    assert clock.warning_due(five_days, clock.read(five_days, START, [], 0, START + 4 * DAY))
    assert clock.warning_due(five_days, clock.read(five_days, START, [], 0, deadline - SECOND))


def test_time_almost_up_is_never_due_in_a_live_or_finished_game():
    live = clock.read(BLITZ, START, [], 0, START + 9 * MINUTE)
    finished = clock.read(THREE_DAYS, START, [], None, START + 3 * DAY)

    assert not clock.warning_due(BLITZ, live)
    assert not clock.warning_due(THREE_DAYS, finished)


# -- what the page shows ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "text"),
    [
        (2 * DAY + 4 * HOUR + 59 * MINUTE, "2 days 4 hours"),
        (DAY + HOUR, "1 day 1 hour"),
        (3 * DAY, "3 days"),
        (3 * HOUR + 12 * MINUTE + 30 * SECOND, "3 hours 12 minutes"),
        (HOUR, "1 hour"),
        (MINUTE + 59 * SECOND, "1 minute"),
        (40 * SECOND, "40 seconds"),
        (timedelta(0), "0 seconds"),
        (-HOUR, "0 seconds"),
        (None, ""),
    ],
)
def test_a_correspondence_clock_is_shown_in_words(left, text):
    assert clock.words(left) == text


@pytest.mark.parametrize(
    ("left", "text"),
    [
        (9 * MINUTE + 58 * SECOND + timedelta(milliseconds=999), "9:58"),
        (62 * SECOND, "1:02"),
        (HOUR + 2 * MINUTE + 3 * SECOND, "1:02:03"),
        (5 * SECOND, "0:05"),
        (-SECOND, "0:00"),
        (None, ""),
    ],
)
def test_a_live_clock_is_shown_to_the_second(left, text):
    assert clock.digits(left) == text
