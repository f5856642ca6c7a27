"""Takeback requests, as two players live them on the game page: ann asks to take back her last
action, bob accepts or declines; the rules refuse what showed something hidden or what bob has
answered already; the log keeps every entry, and replays and records tell of the takeback."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user, started_game

from games.archive import records
from games.engine.takeback import marker
from games.models import Action, Game, PlayerSettings
from games.play import computer, services, states, takebacks
from games.terms import GameSettings

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}


@pytest.fixture
def ann():
    return make_user("ann")


@pytest.fixture
def bob():
    return make_user("bob")


def cathedral(ann, bob, **settings) -> Game:
    """A Cathedral game (nothing hidden), ann to decide first."""
    game = started_game(ann, bob, kind="cathedral", **settings)
    return _seated_first(game, ann)


def _seated_first(game: Game, first) -> Game:
    assert game.player(game.to_decide) == first
    return game


def move(game: Game, user, index: int = 0) -> Game:
    """``user`` plays the ``index``-th legal action through the service door."""
    state = states.load_state(game)
    action = game.engine.legal_actions(state)[index].to_json()
    return services.submit_action(game, user, action, game.seq)


def post(user, game: Game, answer: str, seq: int | None = None, **headers):
    seq = game.seq if seq is None else seq
    url = reverse("games:takeback", args=[game.pk])
    return client_for(user).post(url, {"answer": answer, "seq": seq}, **headers)


def page(user, game: Game) -> str:
    """The game page as ``user`` reads it (entities unescaped)."""
    return html.unescape(client_for(user).get(game.get_absolute_url()).text)


def board(game: Game, seat: int) -> dict:
    """What ``seat`` sees of the game, its log and seq aside."""
    seen = dict(game.engine.view(states.load_state(game), seat))
    for key in ("log", "seq"):
        seen.pop(key, None)
    return seen


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# -- asked, accepted, declined ---------------------------------------------------------------------


def test_an_accepted_takeback_puts_the_board_back_and_ann_decides_again(ann, bob):
    game = cathedral(ann, bob)
    before = board(game, 0)
    game = move(game, ann)
    assert "Ask to take back my last action" in page(ann, game)

    asked = post(ann, game, "ask", **HTMX)
    assert asked.status_code == 200
    assert "waiting for your opponent" in asked.text
    assert "ann asks to take back their last action." in page(bob, game)

    accepted = post(bob, fresh(game), "accept", **HTMX)
    assert accepted.status_code == 200
    game = fresh(game)
    assert board(game, 0) == before
    assert game.player(game.to_decide) == ann
    assert "ann's action 1 was taken back, by agreement with bob." in page(ann, game)
    # Nothing left the log: the action and the takeback are both in it, in order.
    rows = list(game.actions.order_by("seq").values_list("seq", "player", "data"))
    assert [seq for seq, _, _ in rows] == [1, 2]
    assert rows[1] == (2, 1, marker(1))


def test_ann_plays_on_from_the_position_before_her_action(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann, index=3)
    post(ann, game, "ask")
    post(bob, fresh(game), "accept")
    game = move(fresh(game), ann, index=0)  # another choice this time
    game = move(game, bob)
    assert game.seq == 4
    assert states.replay_game(game).history[-1]["player"] == 1


def test_a_declined_takeback_leaves_the_game_as_it_was_and_is_not_asked_again(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    after = board(game, 0)
    post(ann, game, "ask")
    declined = post(bob, fresh(game), "decline", **HTMX)
    assert declined.status_code == 200
    game = fresh(game)
    assert board(game, 0) == after
    assert game.seq == 1
    assert game.player(game.to_decide) == bob
    assert "Your opponent declined the takeback." in page(ann, game)
    again = post(ann, game, "ask", **HTMX)
    assert again.status_code == 409
    assert "you have already asked to take back this action" in again.text


def test_the_request_is_shown_without_javascript_and_answered_by_a_plain_form(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    asked = post(ann, game, "ask")
    assert asked.status_code == 302
    shown = client_for(bob).get(game.get_absolute_url()).text
    assert 'name="csrfmiddlewaretoken"' in shown
    assert 'value="accept"' in shown
    assert 'value="decline"' in shown
    answered = client_for(bob).post(
        reverse("games:takeback", args=[game.pk]), {"answer": "accept", "seq": 1}, follow=True
    )
    assert "The action was taken back." in answered.text


# -- refused -----------------------------------------------------------------------------------------


def test_a_vault_placed_drew_a_tile_so_it_cannot_be_taken_back(ann, bob):
    game = _seated_first(started_game(ann, bob), ann)
    state = states.load_state(game)
    vault = next(a for a in game.engine.legal_actions(state) if a.kind == "vault")
    game = services.submit_action(game, ann, vault.to_json(), game.seq)
    assert "Ask to take back" not in page(ann, game)
    refused = post(ann, game, "ask", **HTMX)
    assert refused.status_code == 400
    assert "that action showed what was hidden" in refused.text
    game = fresh(game)
    assert game.takeback_seq is None
    assert game.seq == 1


def test_after_bob_has_moved_ann_cannot_take_hers_back(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    game = move(game, bob)
    assert "Ask to take back" not in page(ann, game)
    refused = post(ann, game, "ask", **HTMX)
    assert refused.status_code == 400
    assert "your opponent has acted since your last action" in refused.text
    assert fresh(game).takeback_seq is None


def test_the_request_disappears_when_bob_moves_instead(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    post(ann, game, "ask")
    assert "asks to take back" in page(bob, fresh(game))
    game = move(fresh(game), bob)
    assert "asks to take back" not in page(bob, game)
    assert "waiting for your opponent" not in page(ann, game)
    stale = post(bob, game, "accept", seq=1, **HTMX)
    assert stale.status_code == 409
    late = post(bob, game, "accept", **HTMX)
    assert late.status_code == 409
    assert "there is no takeback request to answer" in late.text
    assert fresh(game).seq == 2


def test_ann_cannot_answer_her_own_request(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    post(ann, game, "ask")
    answered = post(ann, fresh(game), "accept")
    assert answered.status_code == 403
    assert fresh(game).seq == 1


def test_a_forged_form_is_refused_with_a_clear_message_and_no_write(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    url = reverse("games:takeback", args=[game.pk])
    for form in ({"answer": "undo-everything", "seq": 1}, {"answer": "ask", "seq": "x"}, {}):
        refused = client_for(ann).post(url, form, **HTMX)
        assert refused.status_code == 400
        assert "that form was not a takeback request: reload the page" in refused.text
    stale = post(ann, game, "ask", seq=0, **HTMX)
    assert stale.status_code == 409
    assert "the game has moved on since your page was drawn" in stale.text
    game = fresh(game)
    assert (game.seq, game.takeback_seq) == (1, None)


def test_a_form_without_its_csrf_token_is_refused(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    client = client_for(ann)
    client.handler.enforce_csrf_checks = True
    refused = client.post(reverse("games:takeback", args=[game.pk]), {"answer": "ask", "seq": 1})
    assert refused.status_code == 403
    assert fresh(game).takeback_seq is None


def test_a_spectator_can_neither_ask_nor_answer(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    post(ann, game, "ask")
    carol = make_user("carol")
    for answer in ("ask", "accept", "decline"):
        assert post(carol, fresh(game), answer).status_code == 403
    anonymous = reverse("games:takeback", args=[game.pk])
    assert Client().post(anonymous, {"answer": "accept", "seq": 1}).status_code == 302  # log in
    assert "asks to take back" not in page(carol, fresh(game))
    game = fresh(game)
    assert game.seq == 1
    assert game.takeback_declined is False


def test_a_game_against_the_computer_allows_no_takeback(ann):
    terms = GameSettings(kind="cathedral", first="me", time_control="none", options={})
    game = computer.play_the_computer(ann, terms, "random")
    game = _seated_first(fresh(game), ann)
    game = move(game, ann)
    refused = post(ann, fresh(game), "ask", seq=fresh(game).seq, **HTMX)
    assert refused.status_code == 400
    assert "the computer answers each move at once" in refused.text


# -- rated games -------------------------------------------------------------------------------------


def allow_rated_takebacks(*users) -> None:
    for user in users:
        PlayerSettings.objects.update_or_create(user=user, defaults={"takebacks_in_rated": True})


def rated(ann, bob) -> Game:
    game = cathedral(ann, bob, time_control="3d", rated=True)
    assert game.rated
    return move(game, ann)


def test_a_rated_game_refuses_a_takeback_unless_both_players_allow_them(ann, bob):
    game = rated(ann, bob)
    refused = post(ann, game, "ask", **HTMX)
    assert refused.status_code == 400
    assert "this rated game allows no takebacks" in refused.text
    allow_rated_takebacks(ann)
    assert post(ann, game, "ask", **HTMX).status_code == 400
    assert fresh(game).takeback_seq is None


def test_a_rated_game_allows_a_takeback_when_both_players_allow_them(ann, bob):
    game = rated(ann, bob)
    allow_rated_takebacks(ann, bob)
    assert "Ask to take back my last action" in page(ann, game)
    assert post(ann, game, "ask").status_code == 302
    assert post(bob, fresh(game), "accept").status_code == 302
    assert fresh(game).player(fresh(game).to_decide) == ann


def test_the_setting_is_in_the_settings_of_play(ann):
    shown = client_for(ann).get(reverse("settings")).text
    assert "Allow takebacks in rated games" in shown
    client_for(ann).post(
        reverse("settings-play"), {"confirm_moves": "correspondence", "takebacks_in_rated": "on"}
    )
    assert PlayerSettings.of(ann).takebacks_in_rated


# -- the log, the replay, the records, check_games ---------------------------------------------------


@pytest.fixture
def taken_back(ann, bob) -> Game:
    """ann's first building taken back by agreement, then ann and bob play on."""
    game = cathedral(ann, bob)
    game = move(game, ann, index=5)
    post(ann, game, "ask")
    post(bob, fresh(game), "accept")
    game = move(fresh(game), ann, index=0)
    return move(game, bob)


def test_the_replay_shows_the_action_taken_back_and_the_takeback(taken_back, ann):
    game = taken_back
    url = reverse("games:replay", args=[game.pk])
    whole = html.unescape(client_for(ann).get(url).text)
    assert "(taken back)" in whole
    assert "ann's action 1 was taken back, by agreement with bob." in whole
    at_takeback = client_for(ann).get(f"{url}?step=2").text
    assert 'class="taken-back-note"' in at_takeback
    assert "Step 2 of 4" in at_takeback
    at_start = client_for(ann).get(f"{url}?step=0")
    at_two = client_for(ann).get(f"{url}?step=2")
    # After the takeback the city is as at the start: the same board partial.
    assert _board_of(at_two.text) == _board_of(at_start.text)


def _board_of(text: str) -> str:
    """The board partial, without the seq it was drawn at."""
    start = text.index('id="board"')
    return re.sub(r'data-seq="\d+"', "", text[start : text.index("</section>", start)])


def test_the_record_keeps_the_takeback_and_replays_to_the_same_game(taken_back):
    game = taken_back
    exported = records.export(game)
    assert [a["action"] for a in exported["actions"]][1] == marker(1)
    record = records.read(json.loads(json.dumps(exported)))
    state = records.replay(record)
    assert state.to_json() == states.load_state(game).to_json()
    text = records.text_log(game)
    assert "1. " in text
    assert "(taken back)" in text
    assert "was taken back, by agreement with bob." in text


def test_a_record_with_a_forged_takeback_is_refused(taken_back):
    exported = records.export(taken_back)
    exported["actions"][1]["action"] = {"kind": "takeback", "seq": 7}
    with pytest.raises(records.RecordError):
        records.read(exported)


def test_check_games_replays_a_game_with_a_takeback(taken_back):
    out = io.StringIO()
    call_command("check_games", "--id", str(taken_back.pk), stdout=out)
    assert "1 game" in out.getvalue()


def test_check_games_names_a_takeback_made_after_the_opponent_answered(ann, bob):
    game = cathedral(ann, bob)
    game = move(game, ann)
    game = move(game, bob)
    # A takeback of bob's move stored as if ann had agreed after bob had... moved on: forged.
    game = move(game, ann)
    Action.objects.create(game=game, seq=4, player=1, user=bob, data=marker(2))
    Game.objects.filter(pk=game.pk).update(seq=4)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_games", "--id", str(game.pk), stdout=out)
    assert "a takeback takes back the action just before it" in out.getvalue()


def test_the_clock_gives_no_time_back(ann, bob):
    game = cathedral(ann, bob, time_control="5+3")
    game = move(game, ann)
    post(ann, game, "ask")
    post(bob, fresh(game), "accept")
    game = fresh(game)
    decisions = list(game.actions.order_by("seq").values_list("player", flat=True))
    # ann's action stays on her clock; bob's time to agree is his own decision.
    assert decisions == [0, 1]
    assert takebacks.asked(game) is None
