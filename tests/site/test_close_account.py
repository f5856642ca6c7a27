"""Zanzibar closes their account from Settings: their games stay, for Bob's sake, and show
"deleted player" wherever Zanzibar's name was; their running games are resigned; what was only
theirs goes; they cannot log in again, and the name is free for someone else."""

from __future__ import annotations

import io
import json

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import PASSWORD, client_for, lobby_form, make_user, play_randomly, started_game

from games import events
from games.models import (
    Action,
    AuditEntry,
    ConditionalLine,
    Game,
    GameNote,
    PlayerSettings,
    PushDevice,
    Rating,
)
from games.play import services, vacation

pytestmark = pytest.mark.django_db

NAME = "zanzibar"
CLOSE = reverse("close-account")


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.NOTIFY_DELAY_SECONDS = 0  # the check a worker would run two minutes later


@pytest.fixture
def zed():
    user = make_user(NAME, email="zanzibar@example.org")
    row = vacation.settings_for(user)
    row.calendar_token = "a-secret-feed-address"
    row.save()
    return user


@pytest.fixture
def bob():
    return make_user("bob", email="bob@example.org")


@pytest.fixture
def games(zed, bob):
    """A rated game Bob won against Zanzibar after some moves, and one still running."""
    over = play_randomly(started_game(zed, bob, time_control="3d", rated=True), 8)
    over = services.resign(over, zed)
    running = play_randomly(started_game(bob, zed, seed=77), 5)
    GameNote.objects.create(game=running, user=zed, text="bob always goes north")
    PushDevice.objects.create(
        user=zed, endpoint="https://fcm.googleapis.com/fcm/send/zed", p256dh="k", auth="a"
    )
    return {"over": over, "running": running}


def close(user, password: str = PASSWORD):
    return client_for(user).post(CLOSE, {"password": password})


def pages_naming_players(games: dict, bob) -> list[str]:
    over, running = games["over"], games["running"]
    return [
        reverse("games:detail", args=[over.pk]),
        reverse("games:detail", args=[running.pk]),
        reverse("games:replay", args=[over.pk]),
        reverse("games:record-text", args=[over.pk]),
        reverse("games:record-json", args=[over.pk]),
        reverse("profile", args=["bob"]),
        reverse("history", args=["bob"]),
        reverse("history-csv", args=["bob"]),
        reverse("games:mine"),
        reverse("home"),
        reverse("leaderboard", args=["basilica", "correspondence"]),
    ]


def test_the_confirmation_asks_for_the_password_and_says_how_many_games_are_resigned(zed, games):
    page = client_for(zed).get(CLOSE)
    assert page.status_code == 200
    assert "Your 1 game in play is resigned" in page.text
    assert 'type="password"' in page.text
    assert f'href="{CLOSE}"' in client_for(zed).get(reverse("settings")).text


def test_a_wrong_password_closes_nothing(zed, games):
    answer = close(zed, "not my password")
    assert answer.status_code == 400
    assert "This is not your password: nothing was closed." in answer.text
    zed.refresh_from_db()
    assert (zed.username, zed.email, zed.is_active) == (NAME, "zanzibar@example.org", True)
    assert Game.objects.get(pk=games["running"].pk).status == Game.Status.ACTIVE
    assert GameNote.objects.filter(user=zed).exists()
    assert not AuditEntry.objects.exists()


def test_closing_resigns_the_running_games_and_keeps_every_game_replayable(
    zed, bob, games, django_capture_on_commit_callbacks
):
    actions = Action.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        answer = close(zed)
    assert answer.status_code == 302
    running = Game.objects.get(pk=games["running"].pk)
    assert running.status == Game.Status.FINISHED
    assert running.winners == [0]  # Bob's
    assert Game.objects.filter(pk=games["over"].pk).exists()
    assert Action.objects.count() == actions
    out = io.StringIO()
    ids = f"{games['over'].pk},{running.pk}"
    call_command("check_games", "--id", ids, verbosity=2, stdout=out)  # fails on a mismatch
    assert out.getvalue().count("replays as stored") == 2
    assert "2 games checked" in out.getvalue()


def test_the_name_is_gone_from_every_page_record_and_list(zed, bob, games):
    Rating.objects.filter(user=zed).update(deviation=40, last_game_at=timezone.now())
    viewer = client_for(bob)
    before = [viewer.get(url).content.decode() for url in pages_naming_players(games, bob)]
    assert all(NAME in text for text in before[:6])  # the test would notice the name
    close(zed)
    for url in pages_naming_players(games, bob):
        for client in (viewer, Client()):
            answer = client.get(url)
            assert answer.status_code in (200, 302), url
            assert NAME not in answer.content.decode(), url
    assert "deleted player" in viewer.get(reverse("games:detail", args=[games["over"].pk])).text
    assert "deleted player" in viewer.get(reverse("history", args=["bob"])).text
    record = viewer.get(reverse("games:record-json", args=[games["over"].pk])).json()
    assert "deleted player" in json.dumps(record)


def test_the_opponents_email_names_a_deleted_player(
    zed, bob, games, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        close(zed)
    to_bob = [m for m in mail.outbox if m.to == ["bob@example.org"]]
    assert to_bob, "Bob is told his game is over"
    assert all(NAME not in m.subject + m.body for m in to_bob)
    assert any("deleted player" in m.body for m in to_bob)
    assert not [m for m in mail.outbox if "zanzibar@example.org" in m.to]


def test_the_profile_is_gone_and_what_was_only_theirs_with_it(zed, games):
    close(zed)
    zed.refresh_from_db()
    assert Client().get(reverse("profile", args=[zed.username])).status_code == 404
    assert Client().get(reverse("profile", args=[NAME])).status_code == 404
    assert Client().get(reverse("history", args=[zed.username])).status_code == 404
    assert zed.email == ""
    assert not zed.has_usable_password()
    for rows in (PlayerSettings, GameNote, ConditionalLine, PushDevice, Rating):
        assert not rows.objects.filter(user=zed).exists(), rows.__name__
    assert Client().get("/calendar/a-secret-feed-address.ics").status_code == 404


def test_their_chat_lines_are_gone_from_the_game_page_once_closed(
    zed, bob, games, django_capture_on_commit_callbacks
):
    running = games["running"]
    chat = reverse("games:chat", args=[running.pk])
    assert (
        client_for(zed).post(chat, {"room": "players", "text": "north again?"}).status_code == 302
    )
    assert client_for(bob).post(chat, {"room": "players", "text": "always"}).status_code == 302
    assert "north again?" in client_for(bob).get(running.get_absolute_url()).text
    with django_capture_on_commit_callbacks(execute=True):
        close(zed)
    page = client_for(bob).get(running.get_absolute_url()).text
    assert "north again?" not in page
    assert "always" in page, "the opponent's own lines stay"


def test_they_cannot_log_in_and_someone_new_may_take_the_name(zed, games):
    old_session = client_for(zed)
    close(zed)
    assert old_session.get(reverse("settings")).status_code == 302  # logged out everywhere
    answer = Client().post(reverse("login"), {"username": NAME, "password": PASSWORD})
    assert answer.status_code == 200
    assert "_auth_user_id" not in answer.client.session
    signup = Client().post(
        reverse("signup"),
        {
            "username": NAME,
            "email": "",
            "password1": "a new cathedral",
            "password2": "a new cathedral",
        },
    )
    assert signup.status_code == 302
    newcomer = type(zed).objects.get(username=NAME)
    assert newcomer.pk != zed.pk
    assert not Game.objects.involving(newcomer).exists()


def test_a_name_like_a_closed_accounts_cannot_be_taken():
    signup = Client().post(
        reverse("signup"),
        {"username": "deleted.3", "password1": "a new cathedral", "password2": "a new cathedral"},
    )
    assert signup.status_code == 400


def test_the_closing_is_in_the_audit_log_and_told_to_the_other_concerns(
    zed, games, django_capture_on_commit_callbacks
):
    heard = []

    def listener(user, **facts):
        heard.append(user.pk)

    events.account_closed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            close(zed)
    finally:
        events.account_closed.disconnect(listener)
    assert heard == [zed.pk]
    entry = AuditEntry.objects.get(action="account.closed")
    assert entry.user_id == zed.pk
    assert entry.details["resigned"] == [games["running"].pk]


def test_the_data_downloaded_before_closing_holds_all_that_is_theirs(zed, games):
    data = json.loads(client_for(zed).get(reverse("my-data")).content)
    assert data["account"]["username"] == NAME
    assert data["settings"]["time_zone"] is not None
    assert {g["id"] for g in data["games"]} == {games["over"].pk, games["running"].pk}
    assert all(g["record"].endswith("/record.txt") for g in data["games"])
    assert data["notes"][0]["text"] == "bob always goes north"
    assert data["ratings"][0]["kind"] == "basilica"
    assert data["rating_changes"][0]["game"] == games["over"].pk
    assert data["browsers"] == [{"name": "", "created_at": data["browsers"][0]["created_at"]}]
    assert "a-secret-feed-address" not in json.dumps(data)
    for part in ("prepared_lines", "vacations", "emails"):
        assert part in data


def test_a_series_in_play_is_resigned_game_after_game(zed, bob):
    client_for(zed).post(
        reverse("games:create"),
        lobby_form("cathedral", first="me", series="2", time_control="none"),
    )
    services.accept_game(Game.objects.get(series_number=1), bob)
    assert "Your 2 games in play are resigned" in client_for(zed).get(CLOSE).text
    close(zed)
    played = Game.objects.filter(series__isnull=False).order_by("series_number")
    assert [(g.series_number, g.status, g.ended_by) for g in played] == [
        (1, Game.Status.FINISHED, played[0].seat_of(zed)),
        (2, Game.Status.FINISHED, played[1].seat_of(zed)),
    ]
    assert not Game.objects.involving(zed).running().exists()
