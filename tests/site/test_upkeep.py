"""The daily upkeep: sessions past their expiry and records of logins older than
LOGIN_RECORDS_DAYS are cleared, a live session and a recent record are kept; a player's records
of logins are in their data download and go with their closed account."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import PASSWORD, START, make_user

from games import tasks, upkeep

pytestmark = pytest.mark.django_db


def log_in(username: str, password: str = PASSWORD, browser: str = "Firefox/140") -> Client:
    """Through the login page, as a person does: django-axes records it."""
    client = Client(HTTP_USER_AGENT=browser, REMOTE_ADDR="203.0.113.7")
    client.post(reverse("login"), {"username": username, "password": password})
    return client


def signed_in(client: Client) -> bool:
    return client.get(reverse("settings")).status_code == 200


def test_the_upkeep_clears_old_sessions_and_login_records_and_keeps_the_rest(settings):
    settings.LOGIN_RECORDS_DAYS = 90
    make_user("ann"), make_user("bob")
    recent = log_in("bob")
    with time_machine.travel(timezone.now() - timedelta(days=100), tick=False):
        old = log_in("ann")  # a session of two weeks, long gone; a login 100 days old
        log_in("ann", password="wrong password")  # and a failed one
    assert (Session.objects.count(), AccessLog.objects.count()) == (2, 2)
    assert AccessFailureLog.objects.filter(username="ann").count() == 1
    assert AccessAttempt.objects.filter(username="ann").count() == 1

    assert upkeep.clear_expired() == {"sessions": 1, "login records": 3}
    assert signed_in(recent)
    assert not Session.objects.filter(session_key=old.session.session_key).exists()
    assert list(AccessLog.objects.values_list("username", flat=True)) == ["bob"]
    assert not AccessFailureLog.objects.exists()
    assert not AccessAttempt.objects.exists()


def test_the_task_runner_clears_once_a_day_however_many_consumers_run():
    make_user("ann")
    at = START + timedelta(hours=18, minutes=40)  # 03:40 the next day, the task's hour
    scheduled = tasks.upkeep.task_class()
    assert scheduled.validate_datetime(at)  # the scheduler queues it at 03:40, and only then
    assert not scheduled.validate_datetime(at + timedelta(minutes=1))
    assert not scheduled.validate_datetime(at + timedelta(hours=1))

    def expired_session() -> None:
        with time_machine.travel(at - timedelta(days=30), tick=False):
            log_in("ann")

    expired_session()
    with time_machine.travel(at, tick=False) as clock:
        tasks.upkeep()
        assert not Session.objects.exists()
        expired_session()
        clock.shift(timedelta(minutes=25))
        tasks.upkeep()  # another consumer's copy of the day's task, late: nothing more done
        assert Session.objects.count() == 1
        clock.shift(timedelta(days=1))
        tasks.upkeep()
        assert not Session.objects.exists()


def test_a_players_logins_are_in_their_data_and_go_with_their_account():
    with time_machine.travel(timezone.now() - timedelta(days=3), tick=False):
        make_user("ann")
        log_in("ann", browser="Old/1")  # as if by an earlier account of that name
    User.objects.filter(username="ann").update(date_joined=timezone.now() - timedelta(days=1))
    make_user("bob")
    anns = log_in("ann")
    log_in("bob")
    log_in("ann", password="wrong password", browser="Chromium/131")  # someone tries her name
    data = anns.get(reverse("my-data")).json()
    failed, logged_in = data["logins"]  # newest first; none from before the account began
    assert failed == {"at": failed["at"], "ok": False, "locked_out": False}  # not their address
    assert (logged_in["ok"], logged_in["address"], logged_in["browser"]) == (
        True,
        "203.0.113.7",
        "Firefox/140",
    )

    answer = anns.post(reverse("close-account"), {"password": PASSWORD})
    assert answer.status_code == 302
    for model in upkeep.LOGIN_RECORDS:
        assert not model.objects.filter(username="ann").exists()
    assert AccessLog.objects.filter(username="bob").exists()
