"""Prepared replies in Cathedral, through the site: Alice, waiting for Bob, keeps lines "if Bob
places this, I reply that" from the analysis board; Bob's move plays her reply at once, or drops
her lines; nobody but Alice ever reads them before a move of theirs is played.

Alice plays Light and has placed the Cathedral: Bob (Dark) is to move, Alice waits.
"""

from __future__ import annotations

import io
import json
import re
from functools import partial

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user, play, started_game
from test_concurrency import in_threads, threads_on_a_file_copy

from basilica_site.asgi import application
from games.kinds.cathedral import prepare as board
from games.live import pushes
from games.models import Action, ConditionalLine, Game
from games.play import conditional, services, states

pytestmark = pytest.mark.django_db

DASH = "\u2013"  # between the corners of a building's span: "A1-C3"
CATHEDRAL = {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = "http://basilica.example"
    settings.NOTIFY_DELAY_SECONDS = 0  # the email a worker would send two minutes later


def waiting_game(**settings) -> Game:
    alice = make_user("alice", email="alice@example.com")
    bob = make_user("bob", email="bob@example.com")
    game = started_game(seat0=alice, seat1=bob, kind="cathedral", time_control="3d", **settings)
    return play(game, [CATHEDRAL])


@pytest.fixture
def game() -> Game:
    return waiting_game()


def line_of(game: Game, *choices: int) -> list[dict]:
    """A line from the game's position: at each step the legal placement numbered ``choice``
    of whoever decides then."""
    state, moves = states.load_state(game), []
    for choice in choices:
        action = game.engine.legal_actions(state)[choice]
        moves.append(action.to_json())
        state = game.engine.apply_action(state, action)
    return moves


def keep(client: Client, game: Game, moves: object, seq: int | None = None, **extra):
    form = {"moves": json.dumps(moves), "seq": game.seq if seq is None else seq}
    return client.post(reverse("games:prepare-keep", args=[game.pk]), form, **extra)


def plays(client: Client, game: Game, action: dict, seq: int | None = None):
    """A move posted from the game page, as its form sends it."""
    form = {"action": json.dumps(action), "seq": game.seq if seq is None else seq}
    return client.post(
        reverse("games:act", args=[game.pk]), form, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live"
    )


def logged(game: Game) -> list[tuple[int, str, dict]]:
    return [
        (a.player, a.user.username, a.data)
        for a in Action.objects.filter(game=game).select_related("user").order_by("seq")
    ]


def told(response) -> str:
    """The messages a redirected page shows."""
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


def lines_of(game: Game) -> list[list[dict]]:
    return [line.moves for line in ConditionalLine.objects.filter(game=game)]


# -- played when matched --------------------------------------------------------------------------


def test_a_reply_is_played_at_once_when_bob_plays_the_move_it_answers(
    game, django_capture_on_commit_callbacks, mailoutbox
):
    alice, bob = game.seat0, game.seat1
    x, y = line_of(game, 5, 7)
    assert keep(client_for(alice), game, [x, y]).status_code == 302

    with django_capture_on_commit_callbacks(execute=True):
        response = plays(client_for(bob), game, x)

    assert response.status_code == 200
    game.refresh_from_db()
    assert logged(game)[1:] == [(1, "bob", x), (0, "alice", y)]
    assert game.to_decide == 1  # Bob's move again
    assert lines_of(game) == []
    assert "alice (Light) placed the" in response.text  # on Bob's page at once
    [email] = [m for m in mailoutbox if m.to == ["alice@example.com"]]
    assert email.subject == f"Your prepared reply was played against bob (game {game.pk})"
    assert "Your reply: alice (Light) placed the" in email.body


def test_no_email_tells_alice_of_a_reply_she_watched_being_played(
    game, django_capture_on_commit_callbacks, mailoutbox
):
    alice, bob = game.seat0, game.seat1
    x, y = line_of(game, 5, 7)
    keep(client_for(alice), game, [x, y])
    client_for(alice).get(game.get_absolute_url())  # her page is open on the game

    with django_capture_on_commit_callbacks(execute=True):
        plays(client_for(bob), game, x)

    assert logged(game)[-1] == (0, "alice", y)
    assert [m for m in mailoutbox if m.to == ["alice@example.com"]] == []


def test_a_line_of_several_steps_plays_each_reply_and_a_sibling_line_is_dropped_where_it_parts(
    game,
):
    alice, bob = game.seat0, game.seat1
    x, y, z, w = line_of(game, 5, 7, 3, 2)
    q, r = line_of(game, 5, 7, 4, 6)[2:]
    assert z != q
    alice_page = client_for(alice)
    assert keep(alice_page, game, [x, y, z, w]).status_code == 302
    assert keep(alice_page, game, [x, y, q, r]).status_code == 302

    plays(client_for(bob), game, x)
    game.refresh_from_db()
    assert logged(game)[-1] == (0, "alice", y)
    assert sorted(lines_of(game), key=json.dumps) == sorted([[z, w], [q, r]], key=json.dumps)

    plays(client_for(bob), game, z)
    game.refresh_from_db()
    assert logged(game)[-2:] == [(1, "bob", z), (0, "alice", w)]
    assert lines_of(game) == []
    assert game.to_decide == 1


def test_a_move_no_line_foresaw_drops_every_line_and_plays_nothing_for_alice(game):
    alice, bob = game.seat0, game.seat1
    keep(client_for(alice), game, line_of(game, 5, 7))
    keep(client_for(alice), game, line_of(game, 6, 7))
    other = line_of(game, 9)[0]

    plays(client_for(bob), game, other)

    game.refresh_from_db()
    assert logged(game)[1:] == [(1, "bob", other)]
    assert game.to_decide == 0  # Alice decides for herself
    assert lines_of(game) == []


# -- built on the analysis board, listed and deleted on the game page -----------------------------


def link(page: str, marker: str) -> str:
    """The address of the first link whose tag holds ``marker``."""
    for tag in re.findall(r"<a [^>]*>", page):
        if marker in tag:
            return re.search(r'href="([^"]*)"', tag).group(1).replace("&amp;", "&")
    raise AssertionError(f"no link with {marker!r}")


def test_alice_builds_a_line_by_links_keeps_it_and_finds_it_in_words_on_the_game_page(game):
    alice = game.seat0
    client = client_for(alice)
    url = reverse("games:prepare", args=[game.pk])
    page = client.get(url).text
    assert "If bob plays…: choose one of their buildings." in page
    assert "Keep this line" not in page

    page = client.get(url + link(page, 'data-tile="tower"')).text  # Bob's Tower
    page = client.get(url + link(page, 'data-cell="B2"')).text  # its centre on B2
    assert "Tower on B2: turn it, or add this move to the line." in page
    page = client.get(url + link(page, "add-move")).text
    assert f"If bob places the Tower on A1{DASH}C3" in page
    assert "…you reply: choose one of your buildings." in page
    assert "Keep this line" not in page  # a line ends with a reply of Alice's

    page = client.get(url + link(page, 'data-tile="inn"')).text
    page = client.get(url + link(page, 'data-cell="H8"')).text
    page = client.get(url + link(page, "add-move")).text
    assert f"You reply by placing the Inn on H8{DASH}I9" in page
    form = dict(re.findall(r'name="(moves|seq|line)" value="([^"]*)"', page))
    form["moves"] = form["moves"].replace("&quot;", '"')
    response = client.post(reverse("games:prepare-keep", args=[game.pk]), form, follow=True)

    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert "Your line is kept: if bob plays its first move" in told(response)
    assert "Prepared replies (1 of 30)" in response.text
    said = f"If bob places the Tower on A1{DASH}C3, you reply by placing the Inn on H8{DASH}I9"
    assert said in response.text
    [kept] = lines_of(game)
    assert [m["building"] for m in kept] == ["tower", "inn"]


def test_take_back_and_start_again_are_links_to_a_shorter_line(game):
    client = client_for(game.seat0)
    url = reverse("games:prepare", args=[game.pk])
    moves = line_of(game, 5, 7)
    line = "~".join(board.token(m) for m in moves)
    page = client.get(url, {"seq": game.seq, "line": line}).text
    assert "Keep this line" in page
    back = client.get(url + link(page, "take-back")).text
    assert "…you reply: choose one of your buildings." in back
    assert "you reply by placing" not in back
    again = client.get(url + link(page, "start-again")).text
    assert "Nothing yet: begin with a move bob might make." in again


def test_a_line_begun_before_the_game_moved_on_starts_afresh(game):
    client = client_for(game.seat0)
    x, y = line_of(game, 5, 7)
    keep(client, game, [x, y])
    plays(client_for(game.seat1), game, x)  # Alice's reply is played: she waits again
    game.refresh_from_db()
    old = "~".join(board.token(m) for m in line_of(game, 1, 1))
    page = client.get(reverse("games:prepare", args=[game.pk]), {"seq": 1, "line": old}).text
    assert "The game has moved on since this line was begun" in page
    assert "Nothing yet" in page


def test_forged_lines_in_the_address_end_where_they_stop_being_moves(game):
    client = client_for(game.seat0)
    client.raise_request_exception = False
    url = reverse("games:prepare", args=[game.pk])
    good = board.token(line_of(game, 5)[0])
    for line in ("%00", "x" * 5000, "tower.Z9.0", "tower.B2.99999999999", "~~~", f"{good}~nope"):
        for pick in ("", "tower", "tower.B2.7", "%00", "inn." + "9" * 5000):
            response = client.get(url, {"seq": game.seq, "line": line, "pick": pick})
            assert response.status_code == 200, (line, pick)
    page = client.get(url, {"seq": game.seq, "line": f"{good}~nope"}).text
    assert "The rest of the line in this address was no legal move here" in page
    assert "If bob places" in page


def test_alice_deletes_one_line_and_then_all_of_them(game):
    client = client_for(game.seat0)
    keep(client, game, line_of(game, 5, 7))
    keep(client, game, line_of(game, 6, 7))
    keep(client, game, line_of(game, 8, 7))
    first = ConditionalLine.objects.filter(game=game).first()

    response = client.post(reverse("games:prepare-delete", args=[game.pk, first.pk]), follow=True)
    assert "The line is deleted." in told(response)
    assert "Prepared replies (2 of 30)" in response.text

    response = client.post(
        reverse("games:prepare-delete-all", args=[game.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="prepared"')  # the list alone
    assert "2 prepared lines deleted." in response.text
    assert "Prepared replies (0 of 30)" in response.text
    assert lines_of(game) == []


def test_the_prepare_link_takes_the_player_whose_move_it_is_to_a_page_saying_so(game):
    alice, bob = game.seat0, game.seat1
    prepare = reverse("games:prepare", args=[game.pk])
    assert (
        f'href="{prepare}">Prepare a reply</a>'
        in client_for(alice).get(game.get_absolute_url()).text
    )
    page = client_for(bob).get(prepare)
    assert page.status_code == 200
    assert "It is your move: play it, and prepare replies while you wait." in page.text
    assert f'href="{game.get_absolute_url()}"' in page.text
    assert 'class="city"' not in page.text


def test_a_finished_game_has_no_analysis_board_and_no_box(game):
    services.resign(game, game.seat1)
    page = client_for(game.seat0).get(reverse("games:prepare", args=[game.pk]))
    assert "This game is not in play." in page.text
    assert 'id="prepared"' not in client_for(game.seat0).get(game.get_absolute_url()).text


# -- never seen by anyone else -------------------------------------------------------------------


def secrets_of(game: Game, moves: list[dict]) -> list[str]:
    """What would give Alice's line away: its words, its moves' tokens and JSON."""
    sentence = board.line_sentence(game.engine, states.load_state(game), 0, ["alice", "bob"], moves)
    said = ["you reply by placing", "Prepared replies (1", sentence]
    return said + [board.token(m) for m in moves[1:]] + [json.dumps(m) for m in moves[1:]]


def assert_hidden(text: str, secrets: list[str], where: str) -> None:
    for secret in secrets:
        assert secret not in text, (where, secret)


def test_no_page_partial_record_or_replay_shows_alices_line_to_bob_or_a_spectator(game):
    alice, bob, carol = game.seat0, game.seat1, make_user("carol")
    x, y = line_of(game, 5, 7)
    keep(client_for(alice), game, [x, y])
    secrets = secrets_of(game, [x, y])
    assert any(s in client_for(alice).get(game.get_absolute_url()).text for s in secrets[:3])
    urls = [
        game.get_absolute_url(),
        reverse("games:replay", args=[game.pk]),
        reverse("games:record-json", args=[game.pk]),
        reverse("games:record-text", args=[game.pk]),
    ]
    for viewer in (client_for(bob), client_for(carol), Client()):
        for url in urls:
            assert_hidden(viewer.get(url).text, secrets, url)
        record = json.loads(viewer.get(reverse("games:record-json", args=[game.pk])).content)
        assert y not in [a["action"] for a in record["actions"]]
        for partial_name in ("live", "play", "status", "hands", "board", "log"):
            url = f"{game.get_absolute_url()}?partial={partial_name}"
            assert_hidden(viewer.get(url, HTTP_HX_REQUEST="true").text, secrets, url)
    assert client_for(bob).get(reverse("games:prepare", args=[game.pk])).status_code == 200
    assert client_for(carol).get(reverse("games:prepare", args=[game.pk])).status_code == 403


def test_the_pushes_of_every_viewer_hold_nobodys_lines(game):
    alice, bob, carol = game.seat0, game.seat1, make_user("carol")
    x, y = line_of(game, 5, 7)
    keep(client_for(alice), game, [x, y])
    secrets = [*secrets_of(game, [x, y]), 'id="prepared"']
    for viewer in (alice, bob, carol):
        assert_hidden(pushes.render_partials(game, viewer, "token"), secrets, viewer.username)


def socket(game_id: int, user) -> WebsocketCommunicator:
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken=abc".encode()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def pushed_html(communicator: WebsocketCommunicator, seq: int) -> str:
    for _ in range(10):
        message = await communicator.receive_from(timeout=3)
        if 'id="board"' in message and f'data-seq="{seq}"' in message:
            return message
    raise AssertionError("no push of the move came")


async def told_seq(communicator: WebsocketCommunicator, seq: int) -> str:
    """Everything a mover's socket is sent up to the notice of ``seq``."""
    heard = []
    for _ in range(10):
        message = await communicator.receive_from(timeout=3)
        heard.append(message)
        if '"type": "seq"' in message and f'"seq": {seq}' in message:
            return "\n".join(heard)
    raise AssertionError("no notice of the move came")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_websocket_pushes_to_both_seats_and_a_spectator_carry_no_reply_not_yet_played():
    game = await database_sync_to_async(waiting_game)()
    game = await database_sync_to_async(Game.objects.select_related("seat0", "seat1").get)(
        pk=game.pk
    )
    carol = await database_sync_to_async(make_user)("carol")
    x, y, z, w = await database_sync_to_async(line_of)(game, 5, 7, 3, 2)
    await database_sync_to_async(conditional.prepare)(game, game.seat0, [x, y, z, w], game.seq)
    sockets = {}
    for user in (game.seat0, game.seat1, carol):
        sockets[user.username] = await database_sync_to_async(socket)(game.pk, user)
        assert (await sockets[user.username].connect())[0]

    # Bob plays X: Alice's Y is played at once, and her W waits on Bob's Z.
    await database_sync_to_async(services.submit_action)(game, game.seat1, x, game.seq)

    game = await database_sync_to_async(Game.objects.select_related("seat0", "seat1").get)(
        pk=game.pk
    )
    secrets = await database_sync_to_async(secrets_of)(game, [z, w])
    for name, communicator in sockets.items():
        if name == "bob":
            # Bob's own request answers with the page (his move and Alice's reply): his sockets
            # are told only the seq, and a tab left behind catches up over HTTP.
            told = await told_seq(communicator, 3)
            assert_hidden(told, [*secrets, 'id="prepared"'], name)
        else:
            html = await pushed_html(communicator, 3)
            assert "alice (Light) placed the" in html  # Y, played
            assert_hidden(html, [*secrets, 'id="prepared"'], name)
        await communicator.disconnect()


def test_once_played_the_reply_is_an_ordinary_action_of_alice_in_the_record_and_replay(game):
    alice, bob = game.seat0, game.seat1
    x, y = line_of(game, 5, 7)
    keep(client_for(alice), game, [x, y])
    plays(client_for(bob), game, x)

    record = json.loads(client_for(bob).get(reverse("games:record-json", args=[game.pk])).content)
    assert [(a["seq"], a["player"], a["user"], a["action"]) for a in record["actions"][1:]] == [
        (2, 1, "bob", x),
        (3, 0, "alice", y),
    ]
    text = client_for(bob).get(reverse("games:record-text", args=[game.pk])).text
    assert text.count("alice (Light) placed the") == 2  # the Cathedral, then the reply
    replay = client_for(make_user("carol")).get(reverse("games:replay", args=[game.pk]))
    steps = re.findall(r'href="\?step=(\d)"[^>]*>([^<]*)</a>', replay.text)
    assert [(seq, text.split(" placed")[0]) for seq, text in steps] == [
        ("0", "The start"),
        ("1", "alice (Light)"),
        ("2", "bob (Dark)"),
        ("3", "alice (Light)"),
    ]
    out = io.StringIO()
    call_command("check_games", stdout=out)
    assert out.getvalue().strip().endswith("0 mismatches")


# -- the limits ----------------------------------------------------------------------------------


def test_the_31st_line_is_refused_and_nothing_is_stored(game):
    alice = game.seat0
    for choice in range(conditional.MAX_LINES):
        conditional.prepare(game, alice, line_of(game, choice, 0), game.seq)

    response = keep(client_for(alice), game, line_of(game, conditional.MAX_LINES, 0))

    assert response.status_code == 400
    assert "You have 30 prepared lines in this game already, the most it holds" in response.text
    assert ConditionalLine.objects.filter(game=game).count() == conditional.MAX_LINES


def test_a_line_longer_than_twenty_moves_is_refused(game):
    moves = line_of(game, *[0] * (conditional.MAX_MOVES + 1))
    response = keep(client_for(game.seat0), game, moves)
    assert response.status_code == 400
    assert "A prepared line holds at most 20 moves" in response.text
    assert lines_of(game) == []


def test_the_board_stops_a_line_at_twenty_moves(game):
    line = "~".join(board.token(m) for m in line_of(game, *[0] * conditional.MAX_MOVES))
    page = client_for(game.seat0).get(
        reverse("games:prepare", args=[game.pk]), {"seq": game.seq, "line": line}
    )
    assert "This line is as long as a line may be" in page.text
    assert 'class="tile piece choosable' not in page.text


# -- a race between Bob's move and Alice's lines --------------------------------------------------


def test_a_line_kept_from_a_page_drawn_before_bobs_move_is_refused_as_stale(game):
    alice, bob = game.seat0, game.seat1
    drawn = game.seq
    x, y = line_of(game, 5, 7)
    plays(client_for(bob), game, line_of(game, 9)[0])
    game.refresh_from_db()

    response = keep(client_for(alice), game, [x, y], seq=drawn)

    assert response.status_code == 409
    assert "The game has moved on since your page was drawn" in response.text
    assert lines_of(game) == []


def test_deleting_a_line_bobs_move_already_played_says_it_is_gone(game):
    alice, bob = game.seat0, game.seat1
    x, y = line_of(game, 5, 7)
    keep(client_for(alice), game, [x, y])
    line = ConditionalLine.objects.get(game=game)
    plays(client_for(bob), game, x)
    url = reverse("games:prepare-delete", args=[game.pk, line.pk])

    response = client_for(alice).post(url, follow=True)
    assert response.status_code == 200
    assert "That line is gone already: played to its end" in told(response)

    response = client_for(alice).post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "That line is gone already" in response.text


def test_bob_cannot_delete_alices_line(game):
    alice, bob = game.seat0, game.seat1
    keep(client_for(alice), game, line_of(game, 5, 7))
    line = ConditionalLine.objects.get(game=game)
    response = client_for(bob).post(
        reverse("games:prepare-delete", args=[game.pk, line.pk]), follow=True
    )
    assert "That line is gone already" in told(response)
    assert client_for(bob).post(reverse("games:prepare-delete-all", args=[game.pk])).status_code
    assert ConditionalLine.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_line_kept_at_the_moment_bob_moves_is_either_played_or_refused(tmp_path):
    game = waiting_game()
    alice, bob = game.seat0, game.seat1
    x, y = line_of(game, 5, 7)
    tabs = {"alice": client_for(alice), "bob": client_for(bob)}
    keeping = partial(keep, tabs["alice"], game, [x, y], game.seq)
    moving = partial(plays, tabs["bob"], game, x)

    with threads_on_a_file_copy(tmp_path):
        kept, moved = in_threads(keeping, moving)
        [(log, left)] = in_threads(lambda: (logged(game), lines_of(game)))

    assert moved.status_code == 200
    assert left == []  # no line outlives the position it was prepared from
    if kept.status_code == 302:  # kept first: the reply was played with Bob's move
        assert log[1:] == [(1, "bob", x), (0, "alice", y)]
    else:
        assert kept.status_code == 409
        assert log[1:] == [(1, "bob", x)]


# -- Basilica, and who may ask --------------------------------------------------------------------


def test_basilica_refuses_prepared_replies_and_its_rules_say_why():
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(seat0=alice, seat1=bob, first="opponent")  # Bob moves first
    client = client_for(alice)

    response = keep(client, game, [{"kind": "pass"}])
    assert response.status_code == 400
    assert "Basilica has hidden information: replies cannot be prepared in it" in response.text
    assert ConditionalLine.objects.count() == 0
    page = client.get(reverse("games:prepare", args=[game.pk]))
    assert page.status_code == 404
    assert "The tiles of the stack are hidden" in page.text
    assert 'id="prepared"' not in client.get(game.get_absolute_url()).text
    rules = Client().get(reverse("rules")).text
    assert '<h2 id="prepared">Prepared replies</h2>' in rules
    assert "a turn is three actions, so a reply prepared to one of them could not" in rules


def test_the_cathedral_rules_say_how_to_prepare_replies():
    rules = Client().get(reverse("rules-kind", args=["cathedral"])).text
    assert "<strong>Prepared replies.</strong>" in rules
    assert "open “Prepare a reply” on the game page" in rules


def test_a_stranger_finds_no_prepared_replies_of_a_private_game():
    game = waiting_game(private=True)
    keep(client_for(game.seat0), game, line_of(game, 5, 7))
    line = ConditionalLine.objects.get()
    carol = client_for(make_user("carol"))
    assert carol.get(reverse("games:prepare", args=[game.pk])).status_code == 404
    assert keep(carol, game, line_of(game, 6, 7)).status_code == 404
    assert carol.post(reverse("games:prepare-delete", args=[game.pk, line.pk])).status_code == 404
    assert carol.post(reverse("games:prepare-delete-all", args=[game.pk])).status_code == 404
    assert ConditionalLine.objects.count() == 1


def test_a_spectator_of_a_public_game_is_refused_and_a_visitor_sent_to_log_in(game):
    keep(client_for(game.seat0), game, line_of(game, 5, 7))
    line = ConditionalLine.objects.get()
    carol = client_for(make_user("carol"))
    assert carol.get(reverse("games:prepare", args=[game.pk])).status_code == 403
    assert keep(carol, game, line_of(game, 6, 7)).status_code == 403
    assert carol.post(reverse("games:prepare-delete", args=[game.pk, line.pk])).status_code == 403
    assert carol.post(reverse("games:prepare-delete-all", args=[game.pk])).status_code == 403
    visitor = Client().get(reverse("games:prepare", args=[game.pk]))
    assert visitor.status_code == 302
    assert visitor.url.startswith(reverse("login"))
    assert ConditionalLine.objects.count() == 1


def test_a_keep_without_its_csrf_token_is_refused(game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(game.seat0)
    assert keep(client, game, line_of(game, 5, 7)).status_code == 403
    assert lines_of(game) == []


@pytest.mark.parametrize(
    ("moves", "says"),
    [
        ("{{", "That form was not a prepared line"),
        ('{"kind": "place"}', "A prepared line is a list of moves"),
        ("[]", "A prepared line is a list of moves"),
        ('[{"kind": "fly"}]', "Move 1 of this line: unknown action kind"),
        ('[{"kind": "place", "building": "tower", "col": 4, "row": 4, "turn": 0}]', "Move 1 of"),
        ("[" * 100_000, "That request is too large"),
    ],
)
def test_a_forged_line_is_refused_with_a_reason_and_nothing_is_stored(game, moves, says):
    form = {"moves": moves, "seq": game.seq}
    response = client_for(game.seat0).post(reverse("games:prepare-keep", args=[game.pk]), form)
    assert response.status_code in (400, 413)
    assert says in response.text
    assert lines_of(game) == []


def test_a_pick_naming_no_cell_is_no_server_error_on_the_game_page_or_the_board(game):
    bob, alice = client_for(game.seat1), client_for(game.seat0)
    for client in (bob, alice):
        client.raise_request_exception = False
    for pick in (
        "tower.B\u00b2",
        "tower.B2.\u00b2",
        "tower.B" + "9" * 5000,
        "tower.B2." + "1" * 5000,
    ):
        assert bob.get(game.get_absolute_url(), {"pick": pick}).status_code == 200, pick
        line = pick.replace("tower.B2", "tower.B2.0~inn")
        response = alice.get(reverse("games:prepare", args=[game.pk]), {"line": line})
        assert response.status_code == 200, line


def test_the_list_a_page_asks_for_after_a_push_shows_the_lines_as_they_are_now(game):
    alice, bob = game.seat0, game.seat1
    x, y = line_of(game, 5, 7)
    keep(client_for(alice), game, [x, y])
    url = reverse("games:prepare-lines", args=[game.pk])
    assert "Prepared replies (1 of 30)" in client_for(alice).get(url).text

    plays(client_for(bob), game, x)  # the line is played to its end

    after = client_for(alice).get(url, HTTP_HX_REQUEST="true").text
    assert "Prepared replies (0 of 30)" in after
    assert "you reply by placing" not in after
    assert client_for(make_user("carol")).get(url).status_code == 403
    assert client_for(bob).get(url).text.count("you reply by placing") == 0
