"""Zanzibar, who follows Bob, blocked Carl and plays in two tournaments, closes their account:
what the other parts of the site held of them goes with it (their follows and blocks, their
presence, their places in tournaments still to be paired), and the tournament's page names them
as every page names a closed account. Before closing, their data download holds their
relations."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import PASSWORD, START, client_for, make_user

from games.community import presence, relations
from games.models import Block, Entry, Follow, Presence, Tournament
from games.terms import GameSettings
from games.tournaments import entries, running

pytestmark = pytest.mark.django_db


@pytest.fixture
def zed():
    return make_user("zanzibar", email="zanzibar@example.org")


@pytest.fixture
def others():
    return [make_user(name, email=f"{name}@example.org") for name in ("bob", "carl", "dora")]


def cup(creator, players, **plan) -> Tournament:
    plan.setdefault("starts_at", START + timedelta(days=1))
    tournament = entries.create(
        creator,
        entries.Plan(name="Autumn cup", format="swiss", rounds=2, max_players=8, **plan),
        GameSettings(kind="basilica", time_control="3d"),
    )
    for user in players:
        entries.join(tournament, user)
    return tournament


def close(user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(user).post(reverse("close-account"), {"password": PASSWORD})
    assert answer.status_code == 302


def test_the_data_download_holds_whom_they_follow_and_whom_they_blocked(zed, others):
    bob, carl, _dora = others
    relations.follow(zed, bob)
    relations.block(zed, carl)
    data = client_for(zed).get(reverse("my-data")).json()
    text = str(data["relations"])
    assert "bob" in text
    assert "carl" in text


def test_a_closed_account_follows_nobody_blocks_nobody_and_is_online_nowhere(
    zed, others, django_capture_on_commit_callbacks
):
    bob, carl, dora = others
    relations.follow(zed, bob)
    relations.follow(dora, zed)
    relations.block(zed, carl)
    presence.touch(zed)
    close(zed, django_capture_on_commit_callbacks)
    assert not Follow.objects.filter(follower=zed).exists()
    assert not Follow.objects.filter(followed=zed).exists()
    assert not Block.objects.filter(blocker=zed).exists()
    assert not Presence.objects.filter(user=zed).exists()
    assert "zanzibar" not in client_for(dora).get(reverse("following")).text


def test_a_closed_account_leaves_an_open_tournament(
    zed, others, django_capture_on_commit_callbacks
):
    bob, carl, _dora = others
    waiting = cup(bob, [carl, zed])
    close(zed, django_capture_on_commit_callbacks)
    assert list(waiting.entries.values_list("user__username", flat=True).order_by("user")) == [
        "bob",
        "carl",
    ]


def test_a_closed_account_is_withdrawn_from_a_running_tournament_and_named_deleted(
    zed, others, django_capture_on_commit_callbacks, calendar
):
    bob, carl, dora = others
    playing = cup(bob, [carl, dora, zed])
    calendar.shift(timedelta(days=1, minutes=1))
    running.advance(playing.pk, timezone.now())
    playing.refresh_from_db()
    assert playing.status == Tournament.Status.RUNNING
    close(zed, django_capture_on_commit_callbacks)
    entry = Entry.objects.get(tournament=playing, user=zed)
    assert entry.withdrawn_at is not None, "no later round pairs a player who is gone"
    page = client_for(bob).get(reverse("games:tournament", args=[playing.pk])).text
    assert "zanzibar" not in page
    assert "deleted player" in page
