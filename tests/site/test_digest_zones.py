"""The daily digest at 07:00 on each player's own clock, and the quiet hours in which no email
but a last timeout warning is sent: what falls in them waits for their end.

Zofia plays from Warsaw (UTC+1 in March, +2 from 30 March), Étienne from Montréal (UTC-5, -4
from 9 March). Each has a 3-day game waiting for their move against alice. The task runner
runs the digest's task every hour and the held emails' every quarter of an hour: here a day is
walked through a quarter of an hour at a time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone
from factories import first_legal, make_user, play, started_game

from games import tasks
from games.models import Game, Notification, PlayerSettings

pytestmark = pytest.mark.django_db

MONDAY = datetime(2025, 3, 3, 0, 0, tzinfo=UTC)
QUARTER = timedelta(minutes=15)


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = "http://basilica.example"
    settings.NOTIFY_DELAY_SECONDS = 0


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def reader(name: str, language: str, zone: str, **choices):
    user = make_user(name, email=f"{name}@example.com")
    PlayerSettings.objects.create(user=user, language=language, time_zone=zone, **choices)
    return user


def hand_over(game: Game) -> Game:
    seat = game.to_decide
    while game.to_decide == seat:
        game = play(game, [first_legal(game)])
    return game


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.com")


def waiting_for(player, alice, at: datetime) -> Game:
    with time_machine.travel(at, tick=False):
        return hand_over(started_game(alice, player, time_control="3d"))


def walk(start: datetime, hours: int, committed, mailoutbox, run) -> dict[str, list[datetime]]:
    """Run ``run`` every quarter of an hour from ``start``; who got an email, and when (UTC)."""
    received: dict[str, list[datetime]] = {}
    with time_machine.travel(start, tick=False) as clock:
        for _ in range(hours * 4):
            before = len(mailoutbox)
            with committed():
                run()
            for mail in mailoutbox[before:]:
                received.setdefault(mail.to[0].split("@")[0], []).append(timezone.now())
            clock.shift(QUARTER)
    return received


def at(hour: int, minute: int = 0, day: int = 3) -> datetime:
    return datetime(2025, 3, day, hour, minute, tzinfo=UTC)


# -- the digest at seven, each on their own clock -----------------------------------------------


def every_quarter(committed, mailoutbox, start, hours):
    """The task runner's periodic work as it runs: the digest on the hour, held emails every
    quarter."""

    def run():
        if timezone.now().minute == 0:
            tasks.daily_digest()
        tasks.send_held_emails()

    return walk(start, hours, committed, mailoutbox, run)


def test_the_digest_comes_at_seven_in_warsaw_and_at_seven_in_montreal(alice, committed, mailoutbox):
    zofia = reader("zofia", "pl", "Europe/Warsaw", email_daily_digest=True)
    etienne = reader("etienne", "fr", "America/Montreal", email_daily_digest=True)
    waiting_for(zofia, alice, MONDAY - timedelta(hours=2))
    waiting_for(etienne, alice, MONDAY - timedelta(hours=2))
    received = every_quarter(committed, mailoutbox, MONDAY, 24)
    assert received == {
        "zofia": [at(6)],  # 07:00 CET
        "etienne": [at(12)],  # 07:00 EST
    }
    subjects = {m.to[0]: m.subject for m in mailoutbox}
    assert subjects == {
        "zofia@example.com": "1 partia czeka na Twój ruch",
        "etienne@example.com": "1 partie attend votre coup",
    }


def test_after_the_clocks_change_in_montreal_the_digest_comes_an_hour_earlier_in_utc(
    alice, committed, mailoutbox
):
    etienne = reader("etienne", "fr", "America/Montreal", email_daily_digest=True)
    saturday = at(0, day=8)  # the clocks go forward on Sunday 9 March at 02:00 in Montréal
    waiting_for(etienne, alice, saturday)
    received = every_quarter(committed, mailoutbox, saturday, 48)
    assert received == {"etienne": [at(12, day=8), at(11, day=9)]}  # 07:00 EST, 07:00 EDT


def test_the_digest_is_sent_once_however_often_its_task_runs_in_the_hour(
    alice, committed, mailoutbox
):
    zofia = reader("zofia", "pl", "Europe/Warsaw", email_daily_digest=True)
    waiting_for(zofia, alice, MONDAY)
    received = walk(at(5), 3, committed, mailoutbox, tasks.daily_digest)
    assert received == {"zofia": [at(6)]}
    assert Notification.objects.filter(kind=Notification.Kind.DAILY_DIGEST).count() == 1


def test_no_digest_for_a_player_whose_games_wait_for_nobody(alice, committed, mailoutbox):
    zofia = reader("zofia", "pl", "Europe/Warsaw", email_daily_digest=True)
    game = waiting_for(zofia, alice, MONDAY)
    with time_machine.travel(MONDAY, tick=False):
        hand_over(game)  # zofia has moved: the game waits for alice
    assert every_quarter(committed, mailoutbox, MONDAY, 24) == {}


# -- quiet hours ------------------------------------------------------------------------------


def test_a_digest_at_seven_in_quiet_hours_until_eight_comes_at_eight(alice, committed, mailoutbox):
    zofia = reader(
        "zofia", "pl", "Europe/Warsaw", email_daily_digest=True, quiet_from=22, quiet_until=8
    )
    waiting_for(zofia, alice, MONDAY - timedelta(hours=2))
    received = every_quarter(committed, mailoutbox, MONDAY, 24)
    assert received == {"zofia": [at(7)]}  # 08:00 in Warsaw
    [note] = Notification.objects.all()
    assert note.created_at == at(6)  # written at 07:00, held, as it was written
    assert note.outcome == Notification.Outcome.SENT


def test_a_your_turn_email_in_quiet_hours_waits_for_their_end(alice, committed, mailoutbox):
    zofia = reader("zofia", "pl", "Europe/Warsaw", quiet_from=22, quiet_until=8)
    with time_machine.travel(at(22), tick=False):  # 23:00 in Warsaw
        game = started_game(alice, zofia, time_control="3d")
        with committed():
            hand_over(game)
    assert mailoutbox == []
    assert Notification.objects.get().outcome == Notification.Outcome.PENDING
    received = every_quarter(committed, mailoutbox, at(22, 15), 12)
    assert received == {"zofia": [at(7, day=4)]}  # 08:00 in Warsaw, once
    assert mailoutbox[0].subject == f"Twój ruch w partii z alice (partia nr {game.pk})"
    assert "do 6 marca 2025, 23:00 CET" in mailoutbox[0].body  # the deadline, still true


def test_quiet_hours_that_do_not_wrap_midnight(alice, committed, mailoutbox):
    etienne = reader("etienne", "fr", "America/Montreal", quiet_from=12, quiet_until=14)
    with time_machine.travel(at(17, 30), tick=False), committed():  # 12:30 in Montréal
        hand_over(started_game(alice, etienne, time_control="3d"))
    assert mailoutbox == []
    received = every_quarter(committed, mailoutbox, at(17, 45), 3)
    assert received == {"etienne": [at(19)]}  # 14:00 in Montréal


def test_an_email_outside_quiet_hours_goes_at_once(alice, committed, mailoutbox):
    zofia = reader("zofia", "pl", "Europe/Warsaw", quiet_from=22, quiet_until=8)
    with time_machine.travel(at(20, 59), tick=False), committed():  # 21:59 in Warsaw
        hand_over(started_game(alice, zofia, time_control="3d"))
    assert len(mailoutbox) == 1
    assert every_quarter(committed, mailoutbox, at(21), 12) == {}  # and not again


def test_the_last_timeout_warning_is_not_held(alice, committed, mailoutbox):
    """Zofia asked for the warning that saves a game: it comes at 02:15 in Warsaw."""
    zofia = reader("zofia", "pl", "Europe/Warsaw", quiet_from=22, quiet_until=8)
    with time_machine.travel(at(6), tick=False) as clock:  # a day per move, from 07:00
        game = hand_over(started_game(alice, zofia, time_control="1d"))
        clock.move_to(at(1, day=4))  # 5 hours left: not yet
        with committed():
            tasks.sweep()
        assert mailoutbox == []
        clock.move_to(at(1, 15, day=4))  # 4 h 45 min left, past 80% of her day
        with committed():
            tasks.sweep()
    [mail] = mailoutbox
    assert mail.subject == (
        f"Kończy się czas w partii nr {game.pk} z alice (pozostały czas: 4 godziny 45 minut)"
    )
    assert "do 4 marca 2025, 07:00 CET" in mail.body
