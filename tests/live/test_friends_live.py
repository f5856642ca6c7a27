"""Blocks and presence on the sockets: a blocked player's lobby hears only that its list
changed, and the list it then asks for holds nothing of the player who blocked them; the
waiting page of a blocker's seek opens no socket for them. A player's open sockets say they
are online, and when the last closes, when they were last seen."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from test_consumers import socket
from test_lobby_socket import SEEKS_CHANGED, lobby_of, notice, open_seek, signed_in

from games.community import presence, relations
from games.live import lobby, pushes
from games.models import PlayerSettings, Presence

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def fresh_lists(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setattr(lobby, "EVERY", {lobby.SEEKS: 0.0, lobby.NOW: 0.0})
    pushes.forget_sockets()
    lobby.forget()
    cache.clear()
    yield
    pushes.forget_sockets()
    lobby.forget()
    cache.clear()


def seeks_as_seen_by(user) -> str:
    """The lobby's list as its page asks for it when its socket says it changed."""
    browser = Client()
    browser.force_login(user)
    return browser.get(reverse("games:lobby"), HTTP_HX_REQUEST="true").text


async def test_the_lobby_push_brings_bob_nothing_of_the_player_who_blocked_him():
    ann, _ = await signed_in("ann")
    bob, bobs_lobby = await lobby_of("bob")
    await database_sync_to_async(relations.block)(ann, bob)

    seek = await database_sync_to_async(open_seek)(ann)
    told = await bobs_lobby.receive_from(timeout=3)
    assert json.loads(told) == SEEKS_CHANGED
    assert "ann" not in told
    page = await database_sync_to_async(seeks_as_seen_by)(bob)
    assert reverse("games:accept", args=[seek.pk]) not in page
    assert 'id="seeks"' in page
    await bobs_lobby.disconnect()


async def test_the_same_push_brings_a_stranger_the_seek():
    ann, _ = await signed_in("ann")
    cas, cas_lobby = await lobby_of("cas")
    seek = await database_sync_to_async(open_seek)(ann)
    assert await notice(cas_lobby) == SEEKS_CHANGED
    page = await database_sync_to_async(seeks_as_seen_by)(cas)
    assert reverse("games:accept", args=[seek.pk]) in page
    await cas_lobby.disconnect()


async def test_bob_opens_no_socket_on_the_waiting_page_of_anns_seek():
    ann, _ = await signed_in("ann")
    bob, bobs_cookie = await signed_in("bob")
    await database_sync_to_async(relations.block)(ann, bob)
    seek = await database_sync_to_async(open_seek)(ann)
    connected, _ = await socket(seek.pk, bobs_cookie).connect()
    assert not connected
    _, cas_cookie = await signed_in("cas")
    watching = socket(seek.pk, cas_cookie)
    assert (await watching.connect())[0]
    await watching.disconnect()


# -- presence -----------------------------------------------------------------------------------


async def test_an_open_socket_says_its_player_is_online_and_its_close_when_last_seen():
    ann, anns_lobby = await lobby_of("ann")
    seen = await database_sync_to_async(presence.seen)(ann)
    assert seen.online

    await anns_lobby.disconnect()
    await asyncio.sleep(0.1)
    stamp = await database_sync_to_async(Presence.objects.get)(user=ann)
    later = stamp.seen_at + presence.ONLINE_WITHIN + timedelta(seconds=1)
    seen = await database_sync_to_async(presence.seen)(ann, later)
    assert not seen.online
    assert seen.last_seen == stamp.seen_at


async def test_a_living_socket_keeps_stamping(monkeypatch):
    monkeypatch.setattr(presence, "EVERY", 0.05)
    ann, anns_lobby = await lobby_of("ann")
    first = (await database_sync_to_async(Presence.objects.get)(user=ann)).seen_at
    await asyncio.sleep(0.3)
    again = (await database_sync_to_async(Presence.objects.get)(user=ann)).seen_at
    assert again > first
    await anns_lobby.disconnect()


async def test_a_socket_lost_without_a_goodbye_stops_counting():
    """A web process that died took its sockets' stamps with it: the last stamp ages out."""
    ann, _ = await signed_in("ann")
    long_ago = timezone.now() - presence.ONLINE_WITHIN - timedelta(seconds=5)
    await database_sync_to_async(presence.touch)(ann, long_ago)
    seen = await database_sync_to_async(presence.seen)(ann)
    assert not seen.online
    assert seen.last_seen == long_ago


async def test_a_player_who_hides_their_presence_shows_neither():
    ann, anns_lobby = await lobby_of("ann")
    await database_sync_to_async(PlayerSettings.objects.update_or_create)(
        user=ann, defaults={"hide_presence": True}
    )
    seen = await database_sync_to_async(presence.seen)(ann)
    assert not seen.online
    assert seen.last_seen is None
    await anns_lobby.disconnect()
