"""Queries compiled once (``games.compiled``): the game's row with its players, as every page,
move and push reads it, and the move's lock. Compiled once, they must answer every later call
with that call's own values, exactly as Django's ORM would."""

from __future__ import annotations

import gc
import threading
import weakref
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.forms.models import model_to_dict
from django.utils import timezone
from factories import client_for, make_staff, make_user, started_game

from games.compiled import Compiled
from games.models import (
    Game,
    PlayerSettings,
    Sanction,
    Vacation,
    count_waiting_for,
    game_with_players,
)
from games.play import services

pytestmark = pytest.mark.django_db


def fields_of(game: Game) -> dict:
    return {
        **model_to_dict(game),
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "seat0": model_to_dict(game.seat0),
        "seat1": model_to_dict(game.seat1),
    }


def test_a_game_is_read_as_djangos_orm_reads_it_players_included(django_assert_num_queries):
    ann, bob = make_user("ann"), make_user("bob")
    games = [started_game(ann, bob), started_game(bob, make_user("carl"), private=True)]
    for game in games:
        expected = Game.objects.select_related("seat0", "seat1").get(pk=game.pk)
        with django_assert_num_queries(1):  # the players come with the row
            found = game_with_players(game.pk)
            names = found.seat0.username, found.seat1.username
        assert fields_of(found) == fields_of(expected)
        assert names == (expected.seat0.username, expected.seat1.username)
    assert game_with_players(games[0].pk).seat0.username == "ann"
    assert game_with_players(games[1].pk).seat1.username == "carl"  # each call its own game


def test_a_private_game_is_found_only_by_its_players_and_the_staff():
    ann, bob, stranger = make_user("ann"), make_user("bob"), make_user("eve")
    private = started_game(ann, bob, private=True)
    public = started_game(make_user("dora"), make_user("fred"))
    for who in (ann, bob, make_staff("referee")):
        assert game_with_players(private.pk, who).pk == private.pk
    for who in (stranger, AnonymousUser()):
        assert game_with_players(private.pk, who) is None
        assert game_with_players(public.pk, who).pk == public.pk
    assert client_for(stranger).get(private.get_absolute_url()).status_code == 404
    assert client_for(bob).get(private.get_absolute_url()).status_code == 200


def test_a_number_no_row_can_have_is_no_game_not_an_error():
    ann = make_user("ann")
    assert game_with_players(10**20, ann) is None
    assert game_with_players(-1, ann) is None


def test_the_lock_asks_about_the_mover_at_the_moment_of_each_move():
    game = started_game(make_user("ann"), make_user("bob"))
    ann = game.seat0
    now = timezone.now()
    Vacation.objects.create(
        user=ann, starts_at=now + timedelta(days=2), ends_at=now + timedelta(days=4), days=2
    )
    Sanction.objects.create(
        user=ann, kind="suspension", reason="r", ends_at=now + timedelta(days=1)
    )

    def locked_at(moment):
        with time_machine.travel(moment, tick=False), transaction.atomic():
            locked = services.lock(game, mover=ann)
            return locked.mover_suspended, locked.mover_away

    assert locked_at(now) == (True, False)
    assert locked_at(now + timedelta(days=3)) == (False, True)
    assert locked_at(now + timedelta(days=5)) == (False, False)
    bob_locked = transaction.atomic()(lambda: services.lock(game, mover=game.seat1))()
    assert bob_locked.mover_suspended is False  # booleans, as Django's converters make them
    assert bob_locked.mover_away is False


@pytest.mark.django_db(transaction=True)  # the test itself outside any transaction
def test_the_lock_outside_a_transaction_is_refused_every_time_as_djangos_own_is():
    """Where the database takes row locks (PostgreSQL; SQLite takes none and refuses nothing),
    a lock outside a transaction would hold nothing: refused, at every call."""
    game = started_game(make_user("ann"), make_user("bob"))
    with transaction.atomic():
        services.lock(game, mover=game.seat0)  # compiled, in a transaction, and kept

    def refused(lock) -> bool:
        try:
            lock()
        except TransactionManagementError:
            return True
        return False

    djangos = refused(lambda: list(Game.objects.select_for_update().filter(pk=game.pk)))
    assert djangos == connection.features.has_select_for_update
    for _ in range(2):
        assert refused(lambda: services.lock(game, mover=game.seat0)) == djangos


def test_a_value_build_does_not_hand_on_as_given_is_refused_at_once():
    shifted = Compiled(lambda pk: Game.objects.filter(pk=pk + 1))  # would keep the first pk + 1
    with pytest.raises(ValueError, match="do not reach"):
        shifted.first(1)
    week = Compiled(  # ``now`` reaches the SQL, but so does a moment made from it
        lambda now: Vacation.objects.filter(starts_at__lte=now, ends_at__gt=now - timedelta(7))
    )
    with pytest.raises(ValueError, match="nothing else vary"):
        week.first(timezone.now())
    players = Compiled(  # a list read while building, which would be kept
        lambda pk: Game.objects.filter(pk=pk, seat0_id__in=list(User.objects.values_list("pk")))
    )
    with pytest.raises(ValueError, match="may not run a query"):
        players.first(1)
    with pytest.raises(TypeError):
        Compiled(lambda pks: Game.objects.filter(pk__in=pks)).first([1, 2])  # ids, keys, moments


def test_each_players_settings_are_their_own(django_assert_num_queries):
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    PlayerSettings.objects.create(user=ann, language="pl")
    PlayerSettings.objects.create(user=bob, language="fr")
    with django_assert_num_queries(3):
        said = [PlayerSettings.of(who) for who in (ann, bob, carl)]
    assert [s.language for s in said] == ["pl", "fr", ""]
    assert said[2].pk is None  # the defaults, not stored
    assert said[2].user == carl


def test_a_session_is_read_while_it_lives_and_not_after(settings):
    ann = make_user("ann")
    anns = client_for(ann)
    assert anns.get("/games/mine/").status_code == 200  # signed in: their games
    bobs = client_for(make_user("bob"))
    assert "bob" in bobs.get("/games/mine/").content.decode()  # each session its own player
    assert "ann" in anns.get("/games/mine/").content.decode()
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE + 60)):
        page = anns.get("/games/mine/")
    assert page.status_code == 302  # the session ran out: to the login page
    assert "/login" in page["Location"]


def test_the_headers_count_of_games_waiting_is_each_players_own():
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    for seat0, seat1 in ((ann, bob), (carl, ann), (ann, carl)):
        started_game(seat0, seat1)
    waiting = {who.username: count_waiting_for(who) for who in (ann, bob, carl)}
    assert waiting == {
        who.username: Game.objects.waiting_for(who).count() for who in (ann, bob, carl)
    }
    assert sum(waiting.values()) == 3  # one player decides in each game


@pytest.mark.django_db(transaction=True)
def test_a_query_compiled_in_one_thread_answers_in_another():
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    games = [started_game(ann, bob), started_game(carl, ann)]
    assert game_with_players(games[0].pk).seat1.username == "bob"  # compiled here, if not yet
    found = {}

    def elsewhere():
        try:
            found["game"] = game_with_players(games[1].pk)
            found["waiting"] = count_waiting_for(carl)
        finally:
            connections.close_all()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert (found["game"].pk, found["game"].seat0.username) == (games[1].pk, "carl")
    assert found["game"].created_at == Game.objects.get(pk=games[1].pk).created_at
    assert found["waiting"] == Game.objects.waiting_for(carl).count()


@pytest.mark.django_db(transaction=True)
def test_a_query_compiled_in_a_thread_keeps_no_hold_on_that_thread_s_connection():
    """A compiled query outlives the thread that compiled it (a request's, under daphne). It must
    not keep that thread's database connection alive (SQLite's converters of dates are methods
    of it; PostgreSQL has none). It answers afterwards with the calling thread's connection."""
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(ann, bob)
    games_of = Compiled(lambda pk: Game.objects.filter(pk=pk))  # first compiled in the thread
    held = {}

    def elsewhere():
        held["connection"] = weakref.ref(connections["default"])
        held["game"] = games_of.first(game.pk)
        connections["default"].close()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    gc.collect()
    assert held["game"].created_at == game.created_at
    assert held["connection"]() is None  # gone with its thread
    assert games_of.first(game.pk).updated_at == game.updated_at


def test_the_visibility_rule_refuses_a_viewer_it_does_not_know():
    """A player without an id would read "seat IS NULL": every private seek still waiting."""
    make_user("ann")
    for viewer, user_id in (("player", None), ("Staff", 1)):
        with pytest.raises(ValueError):
            Game.objects.seen_by(viewer, user_id)
