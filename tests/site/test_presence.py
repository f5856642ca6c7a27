"""Presence on the pages: a player's page says "Online now" or when they were last seen, in
the reader's time zone; one who hides it in Settings shows neither, there or on the Following
page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import client_for, make_user

from games.community import presence, relations
from games.models import PlayerSettings
from games.play import vacation

pytestmark = pytest.mark.django_db


def profile_of(name: str, reader=None) -> str:
    browser = client_for(reader) if reader else Client()
    return browser.get(reverse("profile", args=[name])).text


def test_a_player_with_a_socket_open_is_online_now():
    ann = make_user("ann")
    presence.touch(ann)
    assert "Online now" in profile_of("ann")


def test_a_player_gone_a_while_shows_when_last_seen_in_the_readers_zone():
    ann, reader = make_user("ann"), make_user("reader")
    presence.touch(ann, datetime(2025, 3, 3, 9, 30, tzinfo=UTC))
    row = vacation.settings_for(reader)
    row.time_zone = "Europe/Warsaw"
    row.save()
    page = profile_of("ann", reader)
    assert "Online now" not in page
    assert "Last seen 3 Mar 2025, 10:30 CET" in page


def test_a_player_never_seen_shows_nothing():
    make_user("ann")
    page = profile_of("ann")
    assert "Online now" not in page
    assert "Last seen" not in page


def test_hiding_presence_in_settings_hides_it_everywhere():
    ann, ben = make_user("ann"), make_user("ben")
    relations.follow(ben, ann)
    presence.touch(ann)
    response = client_for(ann).post(
        reverse("settings-play"), {"confirm_moves": "never", "hide_presence": "on"}
    )
    assert response.status_code == 302
    assert PlayerSettings.objects.get(user=ann).hide_presence
    assert "Online now" not in profile_of("ann", ben)
    following = client_for(ben).get(reverse("following")).text
    assert "<strong>ann</strong>" in following
    assert "Online now" not in following
    assert "Last seen" not in following


def test_the_settings_page_offers_to_hide_presence():
    page = client_for(make_user()).get(reverse("settings")).text
    assert 'name="hide_presence"' in page
    assert 'name="email_followed_seek"' in page


def test_online_means_seen_within_the_window():
    ann = make_user("ann")
    now = timezone.now()
    presence.touch(ann, now - presence.ONLINE_WITHIN + timedelta(seconds=5))
    assert presence.seen(ann, now).online
    assert not presence.seen(ann, now + timedelta(seconds=10)).online
