"""A player's private notes on a game: saved as they type (or with Save, without JavaScript),
kept after the game, shown to them in its replay and in their own data, and to nobody else over
any route: the page, its partials, the pushes, the replay, the records, the export, the admin
lists."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from factories import (
    client_for,
    first_legal,
    make_staff,
    make_user,
    play,
    staff_client_for,
    started_game,
)

from basilica_site.asgi import application
from games.correspondence import notes
from games.live import pushes
from games.models import Game, GameNote, PlayerSettings
from games.play import services
from games.web import notes as note_views

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SECRET = "Plan: wall off the north before Bob sees it"
PARTIALS = ("live", "play", "status", "market", "board", "log")


def notes_url(game: Game) -> str:
    return reverse("games:notes", args=[game.pk])


def write(game: Game, user, text: str = SECRET) -> GameNote | None:
    return notes.write(game, user, text)


def note_text(game: Game, user) -> str | None:
    note = GameNote.objects.filter(game=game, user=user).first()
    return note.text if note else None


@pytest.fixture
def game():
    """A public game under way, seat 0 (Ann) keeping notes on it."""
    game = started_game(make_user("ann"), make_user("bob"))
    write(game, game.seat0)
    return game


@pytest.fixture
def spectator():
    return make_user("carl")


# -- who sees the note on the game page and its partials ---------------------------------------


def test_the_writer_finds_their_note_in_the_box_on_the_game_page(game):
    page = client_for(game.seat0).get(game.get_absolute_url())
    assert page.status_code == 200
    assert SECRET in page.text
    assert 'id="notes-text"' in page.text
    assert "Last saved" in page.text


def test_the_opponent_sees_an_empty_box_of_their_own(game):
    page = client_for(game.seat1).get(game.get_absolute_url())
    assert page.status_code == 200
    assert 'id="notes-text"' in page.text
    assert SECRET not in page.text


@pytest.mark.parametrize("who", ["spectator", "anonymous"])
def test_a_spectator_and_an_anonymous_visitor_see_no_notes_at_all(game, spectator, who):
    client = client_for(spectator) if who == "spectator" else Client()
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert SECRET not in page.text
    assert 'id="notes"' not in page.text


@pytest.mark.parametrize("partial", PARTIALS)
def test_no_partial_of_the_page_carries_the_note_not_even_the_writers(game, spectator, partial):
    for viewer in (game.seat0, game.seat1, spectator):
        answer = client_for(viewer).get(f"{game.get_absolute_url()}?partial={partial}", **HTMX)
        assert answer.status_code == 200
        assert SECRET not in answer.text


def test_a_moves_answer_does_not_carry_the_note(game):
    answer = client_for(game.seat0).post(
        reverse("games:act", args=[game.pk]),
        {"action": json.dumps(first_legal(game)), "seq": "0"},
        **HTMX,
    )
    assert answer.status_code == 200
    assert 'id="status"' in answer.text
    assert SECRET not in answer.text


def test_the_pushes_drawn_for_both_seats_and_a_spectator_leave_the_note_out(game, spectator):
    game = play(game, [first_legal(game)])
    for viewer, seat in ((game.seat0, 0), (game.seat1, 1), (spectator, None)):
        html = pushes.render_push(game.pk, viewer, seat, "token")
        assert 'id="status"' in html
        assert SECRET not in html


# -- the pushes over the socket ----------------------------------------------------------------


def _cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; csrftoken=abc".encode()


def _socket(game_id: int, cookie: bytes) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def _pushed(communicator, limit: int = 40) -> list[str]:
    """Every message the socket is sent up to the push that redraws the board."""
    messages = []
    for _ in range(limit):
        messages.append(await communicator.receive_from(timeout=3))
        if 'id="status"' in messages[-1]:
            return messages
    raise AssertionError("no push of the board came")


def _until_turn_passes(game: Game) -> Game:
    """The player deciding acts until the other must decide."""
    game.refresh_from_db()
    deciding = game.to_decide
    while game.to_decide == deciding:
        game = play(game, [first_legal(game)])
    return game


def _watched_game_with_notes() -> tuple[Game, object]:
    game = started_game(make_user("ann"), make_user("bob"))
    write(game, game.seat1)  # the note of Bob, who is pushed Ann's moves
    write(game, game.seat0, "Ann's own: " + SECRET)
    return Game.objects.select_related("seat0", "seat1").get(pk=game.pk), make_user("carl")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_push_over_the_socket_carries_the_note_to_anyone():
    game, carl = await sync_to_async(_watched_game_with_notes)()
    sockets = {}
    for name, user in (("ann", game.seat0), ("bob", game.seat1), ("carl", carl)):
        sockets[name] = _socket(game.pk, await sync_to_async(_cookie)(user))
        assert (await sockets[name].connect())[0]
    game = await sync_to_async(_until_turn_passes)(game)  # Ann's turn: Bob and Carl are pushed
    seen = [*await _pushed(sockets["bob"]), *await _pushed(sockets["carl"])]
    await sync_to_async(play)(game, [await sync_to_async(first_legal)(game)])  # Bob: to Ann
    seen += await _pushed(sockets["ann"])
    for communicator in sockets.values():
        await communicator.disconnect()
    assert seen
    for message in seen:
        assert SECRET not in message


# -- the replay --------------------------------------------------------------------------------


def test_the_replay_shows_the_writer_their_note_read_only_with_a_way_back_to_edit_it(game):
    page = client_for(game.seat0).get(reverse("games:replay", args=[game.pk]))
    assert page.status_code == 200
    assert "Your notes on this game" in page.text
    assert SECRET in page.text
    assert "<textarea" not in page.text
    assert f'href="{game.get_absolute_url()}#notes"' in page.text


def test_the_replay_shows_the_note_to_nobody_else_even_after_the_writer_saw_it(game, spectator):
    replay = reverse("games:replay", args=[game.pk])
    assert SECRET in client_for(game.seat0).get(replay).text  # the writer first: steps are kept
    for client in (client_for(game.seat1), client_for(spectator), Client()):
        page = client.get(replay)
        assert page.status_code == 200
        assert SECRET not in page.text
        assert "Your notes on this game" not in page.text


def test_a_step_of_the_replay_asked_by_htmx_does_not_carry_the_note(game):
    game = play(game, [first_legal(game)])
    answer = client_for(game.seat0).get(f"{reverse('games:replay', args=[game.pk])}?step=0", **HTMX)
    assert answer.status_code == 200
    assert SECRET not in answer.text


def test_a_finished_games_replay_shows_its_writer_the_note_kept(game):
    services.resign(game, game.seat1)
    page = client_for(game.seat0).get(reverse("games:replay", args=[game.pk]))
    assert SECRET in page.text


# -- records -----------------------------------------------------------------------------------


@pytest.mark.parametrize("record", ["games:record-json", "games:record-text"])
def test_the_records_never_carry_a_note_even_for_its_writer(game, record):
    services.resign(game, game.seat1)
    answer = client_for(game.seat0).get(reverse(record, args=[game.pk]))
    assert answer.status_code == 200
    assert SECRET not in answer.content.decode()


# -- saving ------------------------------------------------------------------------------------


def test_a_note_typed_with_htmx_is_saved_and_the_box_says_when(calendar):
    game = started_game(make_user("ann"), make_user("bob"))
    answer = client_for(game.seat0).post(notes_url(game), {"text": SECRET}, **HTMX)
    assert answer.status_code == 200
    assert answer.text.strip() == "Saved at 09:00."
    assert note_text(game, game.seat0) == SECRET


def test_the_saved_time_is_in_the_writers_zone_and_language(calendar):
    game = started_game(make_user("ann"), make_user("bob"))
    PlayerSettings.objects.update_or_create(
        user=game.seat0, defaults={"time_zone": "Europe/Warsaw", "language": "fr"}
    )
    answer = client_for(game.seat0).post(notes_url(game), {"text": SECRET}, **HTMX)
    assert answer.text.strip() == "Enregistré à 10:00."


def test_without_javascript_save_comes_back_to_the_game_with_the_note_in_its_box():
    game = started_game(make_user("ann"), make_user("bob"))
    client = client_for(game.seat0)
    answer = client.post(notes_url(game), {"text": SECRET})
    assert answer.status_code == 302
    assert answer["Location"] == f"{game.get_absolute_url()}#notes"
    page = client.get(answer["Location"])
    assert "Your notes on this game are saved." in page.text
    assert SECRET in page.text


def test_the_opponent_keeps_notes_of_their_own_beside_the_writers(game):
    client_for(game.seat1).post(notes_url(game), {"text": "Bob: she goes north"}, **HTMX)
    assert note_text(game, game.seat0) == SECRET
    assert note_text(game, game.seat1) == "Bob: she goes north"
    bobs_page = client_for(game.seat1).get(game.get_absolute_url()).text
    assert "Bob: she goes north" in bobs_page
    assert SECRET not in bobs_page


def test_saving_again_replaces_the_note(game):
    client_for(game.seat0).post(notes_url(game), {"text": "second thoughts"}, **HTMX)
    assert note_text(game, game.seat0) == "second thoughts"
    assert GameNote.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("text", ["", "  \r\n  "])
def test_an_empty_text_deletes_the_note(game, text):
    answer = client_for(game.seat0).post(notes_url(game), {"text": text}, **HTMX)
    assert answer.status_code == 200
    assert "Cleared" in answer.text
    assert not GameNote.objects.filter(game=game).exists()


def test_a_note_in_html_is_shown_as_text(game):
    write(game, game.seat0, "<script>alert('north')</script>")
    page = client_for(game.seat0).get(game.get_absolute_url())
    assert "&lt;script&gt;alert(&#x27;north&#x27;)&lt;/script&gt;" in page.text
    assert "<script>alert" not in page.text


def test_a_note_is_kept_after_the_game_ends_and_may_still_be_written(game):
    services.resign(game, game.seat0)
    client = client_for(game.seat0)
    assert SECRET in client.get(game.get_absolute_url()).text
    answer = client.post(notes_url(game), {"text": "lost: too greedy in the north"}, **HTMX)
    assert answer.status_code == 200
    assert note_text(game, game.seat0) == "lost: too greedy in the north"


def test_line_ends_sent_as_a_browser_sends_them_count_once():
    game = started_game(make_user("ann"), make_user("bob"))
    lines = "x\r\n" * 5000  # 10,000 characters in the box, 15,000 sent
    answer = client_for(game.seat0).post(notes_url(game), {"text": lines}, **HTMX)
    assert answer.status_code == 200
    assert len(note_text(game, game.seat0)) == GameNote.MAX_LENGTH


# -- refused -----------------------------------------------------------------------------------


def test_a_text_too_long_is_refused_with_its_length_and_the_note_is_unchanged(game):
    answer = client_for(game.seat0).post(notes_url(game), {"text": "x" * 10_001}, **HTMX)
    assert answer.status_code == 400
    assert "notes hold at most 10,000 characters, and this text has 10,001" in answer.text
    assert "Shorten it by 1 character" in answer.text
    assert note_text(game, game.seat0) == SECRET


def test_without_javascript_a_text_too_long_comes_back_in_the_box_with_the_reason(game):
    longer = "north " * 2000
    page = client_for(game.seat0).post(notes_url(game), {"text": longer})
    assert page.status_code == 400
    assert "notes hold at most 10,000 characters, and this text has 12,000" in page.text
    assert longer in page.text
    assert note_text(game, game.seat0) == SECRET


def test_a_body_far_too_large_is_refused_before_it_is_read(game):
    answer = client_for(game.seat0).post(
        notes_url(game), {"text": "x" * (note_views.NOTE_BODY_MAX + 1)}, **HTMX
    )
    assert answer.status_code == 413
    assert note_text(game, game.seat0) == SECRET


def test_a_spectator_may_not_write_notes_on_a_game_they_watch(game, spectator):
    answer = client_for(spectator).post(notes_url(game), {"text": "mine"}, **HTMX)
    assert answer.status_code == 403
    assert not GameNote.objects.filter(user=spectator).exists()


def test_a_stranger_to_a_private_game_finds_no_game_to_write_on(spectator):
    game = started_game(make_user("ann"), make_user("bob"), private=True)
    answer = client_for(spectator).post(notes_url(game), {"text": "mine"})
    assert answer.status_code == 404
    assert not GameNote.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in_and_nothing_is_written(game):
    answer = Client().post(notes_url(game), {"text": "mine"})
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login"))
    assert GameNote.objects.get().text == SECRET


def test_a_game_still_waiting_for_an_opponent_takes_no_notes():
    game = started_game(make_user("ann"), make_user("bob"))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OPEN, seat1=None)
    answer = client_for(game.seat0).post(notes_url(game), {"text": "early"}, **HTMX)
    assert answer.status_code == 403
    assert not GameNote.objects.exists()


def test_a_get_is_not_a_save(game):
    assert client_for(game.seat0).get(notes_url(game)).status_code == 405


def test_a_save_without_its_csrf_token_is_refused(game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(game.seat0)
    answer = client.post(notes_url(game), {"text": "forged"}, **HTMX)
    assert answer.status_code == 403
    assert note_text(game, game.seat0) == SECRET


def test_a_save_with_the_pages_csrf_token_is_kept():
    game = started_game(make_user("ann"), make_user("bob"))
    client = Client(enforce_csrf_checks=True)
    client.force_login(game.seat0)
    client.get(game.get_absolute_url())
    token = client.cookies["csrftoken"].value
    answer = client.post(notes_url(game), {"text": SECRET, "csrfmiddlewaretoken": token}, **HTMX)
    assert answer.status_code == 200
    assert note_text(game, game.seat0) == SECRET


def test_too_many_saves_in_a_minute_are_refused_with_words_and_the_last_saved_text_kept(
    settings, game
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "note": (3, 60)}
    client = client_for(game.seat0)
    for n in range(3):
        assert client.post(notes_url(game), {"text": f"draft {n}"}, **HTMX).status_code == 200
    refused = client.post(notes_url(game), {"text": "draft 3"}, **HTMX)
    assert refused.status_code == 429
    assert "Not saved" in refused.text
    assert "Your text is still here" in refused.text
    assert note_text(game, game.seat0) == "draft 2"


def test_without_javascript_a_save_refused_for_coming_too_often_keeps_the_text_in_the_box(
    settings, game
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "note": (1, 60)}
    client = client_for(game.seat0)
    client.post(notes_url(game), {"text": "draft 0"})
    page = client.post(notes_url(game), {"text": "draft 1, not yet saved"})
    assert page.status_code == 429
    assert "draft 1, not yet saved" in page.text
    assert "Your text is still here" in page.text


def test_the_limit_counts_each_player_apart(settings, game):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "note": (1, 60)}
    assert client_for(game.seat0).post(notes_url(game), {"text": "a"}, **HTMX).status_code == 200
    assert client_for(game.seat1).post(notes_url(game), {"text": "b"}, **HTMX).status_code == 200


# -- the player's own data ---------------------------------------------------------------------


def my_data(user) -> dict:
    answer = client_for(user).get(reverse("my-data"))
    assert answer.status_code == 200
    return json.loads(answer.content)


def test_the_writers_data_holds_the_note_and_the_opponents_does_not(game):
    write(game, game.seat1, "Bob's own thoughts")
    anns, bobs = my_data(game.seat0), my_data(game.seat1)
    assert [(n["game"], n["text"]) for n in anns["notes"]] == [(game.pk, SECRET)]
    assert [(n["game"], n["text"]) for n in bobs["notes"]] == [(game.pk, "Bob's own thoughts")]
    assert SECRET not in json.dumps(bobs, ensure_ascii=False)


# -- the admin ---------------------------------------------------------------------------------


def test_the_notes_list_of_the_admin_says_whose_and_how_long_never_what(game):
    page = staff_client_for(make_staff()).get(reverse("admin:games_gamenote_changelist"))
    assert page.status_code == 200
    assert "ann" in page.text
    assert f"{len(SECRET)} characters" in page.text
    assert SECRET not in page.text


def test_the_notes_list_cannot_be_searched_by_what_they_say(game):
    changelist = reverse("admin:games_gamenote_changelist")
    page = staff_client_for(make_staff()).get(changelist, {"q": "north"})
    assert "0 game notes" in page.text


def test_a_notes_own_page_in_the_admin_shows_its_text(game):
    note = GameNote.objects.get()
    page = staff_client_for(make_staff()).get(
        reverse("admin:games_gamenote_change", args=[note.pk])
    )
    assert page.status_code == 200
    assert SECRET in page.text


def test_the_game_admin_never_shows_its_notes(game):
    staff = staff_client_for(make_staff())
    for url in (
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_review", args=[game.pk]),
    ):
        page = staff.get(url)
        assert page.status_code == 200
        assert SECRET not in page.text


def test_staff_without_the_permission_to_view_notes_are_refused(game):
    note = GameNote.objects.get()
    staff = make_user("helper", is_staff=True)
    answer = staff_client_for(staff).get(reverse("admin:games_gamenote_change", args=[note.pk]))
    assert answer.status_code == 403
    staff.user_permissions.add(Permission.objects.get(codename="view_gamenote"))
    allowed = staff_client_for(staff).get(reverse("admin:games_gamenote_change", args=[note.pk]))
    assert allowed.status_code == 200
    assert SECRET in allowed.text


def test_a_player_who_is_not_staff_is_sent_to_the_admins_login(game):
    note = GameNote.objects.get()
    answer = client_for(game.seat0).get(reverse("admin:games_gamenote_change", args=[note.pk]))
    assert answer.status_code == 302
    assert "/admin/login/" in answer["Location"]


def test_the_service_hands_a_note_to_its_writer_only(game, spectator):
    assert notes.note_of(game, game.seat0).text == SECRET
    assert notes.note_of(game, game.seat1) is None
    assert notes.note_of(game, spectator) is None


def test_in_a_game_of_cathedral_too_only_the_writer_sees_the_note(spectator):
    game = started_game(make_user("ann"), make_user("bob"), kind="cathedral")
    write(game, game.seat0)
    assert SECRET in client_for(game.seat0).get(game.get_absolute_url()).text
    for viewer in (game.seat1, spectator):
        assert SECRET not in client_for(viewer).get(game.get_absolute_url()).text
    for partial in ("live", "status", "board"):
        answer = client_for(game.seat0).get(f"{game.get_absolute_url()}?partial={partial}", **HTMX)
        assert SECRET not in answer.text
