"""Playing the computer through the site: the bot answers in the task runner (immediate in
tests), through the same service as a person, and never in the request of the human's move."""

from __future__ import annotations

import html
import json
import random
import re
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from factories import client_for, lobby_form, make_staff, make_user, started_game

from games import bots, tasks
from games.models import Action, Computer, Game
from games.play import computer, states

pytestmark = pytest.mark.django_db(transaction=True)


def play_computer(client, kind: str = "basilica", level: str = "random", **fields) -> Game:
    fields = {"first": "me", "time_control": "none", **fields}
    if kind == "basilica":
        fields.setdefault("edition", "2022")
    form = {**lobby_form(kind, **fields), "level": level}
    form = {k.replace(f"{kind}-", f"computer-{kind}-", 1): v for k, v in form.items()}
    response = client.post(reverse("games:computer"), form)
    assert response.status_code == 302, response.content[:500]
    return Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


def test_the_lobby_offers_the_computer_at_three_levels():
    page = client_for(make_user()).get(reverse("games:lobby")).text
    assert "Play the computer" in page
    for level in Computer.Level:
        assert f'value="{level.value}"' in page


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_a_whole_game_against_the_computer_through_the_page(kind):
    alice = make_user("alice")
    client = client_for(alice)
    game = play_computer(client, kind=kind, level="greedy")
    bot = computer.account("greedy").user
    assert game.seat1 == bot
    assert game.private
    rng = random.Random(3)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.to_decide == 0, "the bot's move should already have been made"
        state = states.load_state(game)
        action = rng.choice(game.engine.legal_actions(state)).to_json()
        form = {"action": json.dumps(action), "seq": game.seq}
        # As a browser without JavaScript posts it: the answer is the game page, bot's move made.
        response = client.post(reverse("games:act", args=[game.pk]), form)
        assert response.status_code == 302
    assert game.status == Game.Status.FINISHED
    assert Action.objects.filter(game=game, user=bot).exists()
    assert states.replay_game(game).finished


def test_a_bot_that_must_move_first_has_moved_when_the_page_opens():
    alice = make_user("alice")
    client = client_for(alice)
    form = {
        "kind": "cathedral",
        "level": "random",
        "computer-cathedral-first": "opponent",  # the computer plays Light: the Cathedral first
        "computer-cathedral-time_control": "none",
    }
    response = client.post(reverse("games:computer"), form)
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert game.seq == 1
    assert game.to_decide == 0


def test_a_failed_bot_move_is_retried_and_then_made(monkeypatch):
    # A unit test with a stand-in: the real bot fails once (as a crash would), then plays.
    alice = make_user("alice")
    real = bots.choose
    failures = []

    def crashing_once(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise RuntimeError("the bot crashed")
        return real(*args, **kwargs)

    monkeypatch.setattr(bots, "choose", crashing_once)
    with monkeypatch.context() as unheard:
        unheard.setattr(tasks, "computer_move", lambda *args, **kwargs: None)
        game = play_computer(client_for(alice), kind="cathedral", level="random", first="opponent")
    assert game.seq == 0  # nobody asked the bot yet
    assert tasks.computer_move.retries >= 1
    with pytest.raises(RuntimeError):
        tasks.computer_move.call_local(game.pk, 0)
    tasks.computer_move.call_local(game.pk, 0)  # what the task runner's retry does
    game.refresh_from_db()
    assert game.seq == 1


def test_the_bot_does_nothing_when_the_game_has_moved_on():
    alice = make_user("alice")
    game = play_computer(client_for(alice), kind="cathedral", level="random")
    assert computer.move(game.pk, game.seq + 5) is None
    assert computer.move(game.pk, game.seq) is None  # alice decides, not the bot


def test_a_hint_names_a_move_the_player_may_make():
    alice = make_user("alice")
    client = client_for(alice)
    game = play_computer(client, kind="basilica", level="random")
    page = client.get(game.get_absolute_url()).text
    assert reverse("games:hint", args=[game.pk]) in page
    url = reverse("games:hint", args=[game.pk])
    answer = client.post(url, {"seq": game.seq}, HTTP_HX_REQUEST="true").text
    assert "Hint: " in answer
    state = states.load_state(game)
    described = {game.engine.describe_action(state, a) for a in game.engine.legal_actions(state)}
    hinted = answer.split("Hint: ", 1)[1].split("</p>", 1)[0]
    assert html.unescape(hinted) in described
    assert 'data-tiles="' in answer  # every first action takes a tile of the market
    game.refresh_from_db()
    assert game.seq == 0  # a hint plays nothing


def test_no_hint_between_two_people_nor_for_a_stranger():
    game = started_game(make_user("ann"), make_user("bob"))
    ann = client_for(game.seat0)
    assert reverse("games:hint", args=[game.pk]) not in ann.get(game.get_absolute_url()).text
    answer = ann.post(reverse("games:hint", args=[game.pk]), {"seq": 0}, HTTP_HX_REQUEST="true")
    assert "does not allow hints" in answer.text
    against_the_computer = play_computer(client_for(make_user("alice")), kind="cathedral")
    stranger = client_for(make_user("carl"))
    url = reverse("games:hint", args=[against_the_computer.pk])
    assert stranger.post(url, {"seq": 0}).status_code == 404  # a private game, to a stranger


def test_no_hint_from_a_stale_page():
    alice = make_user("alice")
    client = client_for(alice)
    game = play_computer(client, kind="cathedral", level="random")
    url = reverse("games:hint", args=[game.pk])
    stale = client.post(url, {"seq": game.seq + 3}, HTTP_HX_REQUEST="true").text
    assert "moved on" in stale
    response = client.post(url, {"seq": game.seq})  # without JavaScript: a message, the page
    assert response.status_code == 302
    assert "Hint: place the" in client.get(response.url).text


def test_a_hint_marks_the_squares_of_the_building_it_advises():
    client = client_for(make_user("alice"))
    game = play_computer(client, kind="cathedral", level="random")  # alice places the Cathedral
    url = reverse("games:hint", args=[game.pk])
    answer = client.post(url, {"seq": game.seq}, HTTP_HX_REQUEST="true").text
    assert 'data-tiles="cathedral"' in answer
    cells = answer.split('data-cells="', 1)[1].split('"', 1)[0].split()
    assert len(cells) == 6  # the Cathedral covers six squares
    assert all(re.fullmatch(r"[A-J](10|[1-9])", cell) for cell in cells)


def test_hints_are_limited_per_address(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hint": (2, 600)}
    client = client_for(make_user("alice"))
    game = play_computer(client, kind="cathedral", level="random")
    url = reverse("games:hint", args=[game.pk])
    for _ in range(2):
        assert client.post(url, {"seq": game.seq}, HTTP_HX_REQUEST="true").status_code == 200
    refused = client.post(url, {"seq": game.seq}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    assert "2 hints in 10 minutes" in refused.text


def test_nobody_may_sign_up_under_a_computer_players_name():
    response = Client().post(
        reverse("signup"),
        {
            "username": "Computer-strong",
            "email": "",
            "password1": "a long enough password 1",
            "password2": "a long enough password 1",
        },
    )
    assert response.status_code == 400
    assert "the computer players" in response.text
    assert not User.objects.filter(username="Computer-strong").exists()


def test_a_hint_is_thought_out_by_the_task_runner_while_the_page_asks_again(monkeypatch):
    # A stand-in for a busy queue (unit test): the hint's task is queued, not run at once.
    from games.tasks import COMPUTE

    queued = []
    monkeypatch.setattr(
        tasks, "computer_hint", lambda *args: queued.append(args) or SimpleNamespace(id="h-1")
    )
    alice = make_user("alice")
    client = client_for(alice)
    game = play_computer(client, kind="cathedral", level="random")
    thinking = client.post(
        reverse("games:hint", args=[game.pk]), {"seq": game.seq}, HTTP_HX_REQUEST="true"
    ).text
    assert "The computer is thinking" in thinking
    assert queued == [(game.pk, 0, game.seq)]
    again = html.unescape(thinking.split('hx-get="', 1)[1].split('"', 1)[0])
    assert "thinking" in client.get(again, HTTP_HX_REQUEST="true").text

    COMPUTE.put_result("h-1", computer.hint_at(*queued[0]))  # what the compute worker stores
    answer = client.get(again, HTTP_HX_REQUEST="true").text
    assert "Hint: place the" in answer
    assert 'data-cells="' in answer

    bob = client_for(make_user("bob"))
    assert bob.get(again, HTTP_HX_REQUEST="true").status_code == 404  # a private game, to him
    referee = client_for(make_staff())
    assert referee.get(again, HTTP_HX_REQUEST="true").status_code == 403  # alice's ticket
    forged = client.get(again.replace("ticket=", "ticket=x"), HTTP_HX_REQUEST="true")
    assert forged.status_code == 200
    assert "expired" in forged.text
    without_javascript = client.post(reverse("games:hint", args=[game.pk]), {"seq": game.seq})
    assert without_javascript.status_code == 200
    assert 'http-equiv="refresh"' in without_javascript.text
