"""Cathedral in French and in Polish: a game page in the middle of a game speaks the player's
language (the prompt, the log, the buildings' names), counts take each language's plural forms,
and a refused placement names its rule in the player's language."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.urls import reverse
from django.utils import translation
from factories import client_for, make_user, play, started_game

from games.engine import cathedral as engine
from games.kinds.cathedral import presenters
from games.kinds.cathedral.words import words
from games.models import Game, PlayerSettings
from games.play import states
from games.words import say

pytestmark = pytest.mark.django_db

# Random play from this seed reaches, in 26 placements, claims and captures of both colours.
SEED, MOVES = 70, 26
CATHEDRAL_ON_E5 = {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}


def speaking(user, language: str):
    PlayerSettings.objects.update_or_create(user=user, defaults={"language": language})
    return client_for(user)


def mid_game() -> Game:
    """ann (Light) and bob (Dark) after 26 placements, with claims and captures in the log."""
    game = started_game(make_user("ann"), make_user("bob"), kind="cathedral", time_control="none")
    state, rng, actions = engine.new_game(engine.Options(light=0)), random.Random(SEED), []
    for _ in range(MOVES):
        action = rng.choice(engine.legal_actions(state))
        actions.append(action.to_json())
        state = engine.apply_action(state, action)
    return play(game, actions)


def page_for_the_deciding_player(game: Game, language: str, **query) -> str:
    game.refresh_from_db()
    return speaking(game.player(game.to_decide), language).get(game.get_absolute_url(), query).text


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


ENGLISH_LEFT = ["Your turn", "placed the", "claimed", "captured", "squares unplaced", "in hand",
                "Place it here", "Turn it", "Last move", "'s buildings", "Light", "Dark"]  # fmt: skip


def test_a_game_page_in_french_speaks_french():
    game = mid_game()
    page = page_for_the_deciding_player(game, "fr")
    seen = text_of(page)
    assert "À vous\u00a0: choisissez un de vos bâtiments à placer." in seen
    assert "ann (Clairs) a placé la Cathédrale en" in seen
    assert "et capturé la Place des Foncés (qui retourne dans leur réserve)" in seen
    assert "revendiqué 1 case et capturé la Taverne des Clairs" in seen
    assert re.search(r"revendiqué \d+ cases", seen)
    assert "Dernier coup\u00a0:" in seen
    for name in ("Taverne", "Place", "Infirmerie", "Tour", "Château"):  # the hands
        assert f'<span class="piece-name">{name}' in page
    assert re.search(r"\d+</strong> cases à placer", page)
    assert 'aria-label="La cité, A1 en haut à gauche"' in page
    assert "territoire des Clairs" in page  # a claimed cell's label
    assert [words for words in ENGLISH_LEFT if words in seen] == []


def test_a_game_page_in_polish_speaks_polish():
    game = mid_game()
    page = page_for_the_deciding_player(game, "pl")
    seen = text_of(page)
    assert "Twój ruch: wybierz jeden ze swoich budynków do postawienia." in seen
    assert "ann (Jasne) stawia Katedrę na" in seen
    assert "zajmuje 5 pól i zbija Plac Ciemnych (wraca do ich zapasu)" in seen
    assert "zajmuje 1 pole i zbija Karczmę Jasnych" in seen
    assert "zajmuje 3 pola i zbija Karczmę Jasnych" in seen
    assert "Ostatni ruch:" in seen
    for name in ("Karczma", "Plac", "Infirmeria", "Wieża", "Zamek"):
        assert f'<span class="piece-name">{name}' in page
    assert 'aria-label="Miasto, A1 w lewym górnym rogu"' in page
    assert "terytorium Jasnych" in page
    assert [words for words in ENGLISH_LEFT if words in seen] == []


def test_a_picked_building_is_prompted_and_placed_in_polish():
    game = started_game(make_user("ann"), make_user("bob"), kind="cathedral")
    page = page_for_the_deciding_player(game, "pl", pick="cathedral.E5")
    seen = text_of(page)
    assert "Katedra na E5: obróć albo postaw tutaj." in seen
    assert "Wybrano: Katedra na E5" in seen
    assert ">Postaw tutaj</button>" in page
    assert "Obróć" in seen
    assert "tu postawisz Katedrę" in page  # the cells the Cathedral would cover


# -- plurals -------------------------------------------------------------------------------------

POLISH_SQUARES = {1: "pole", 2: "pola", 5: "pól", 22: "pola", 25: "pól"}
POLISH_BUILDINGS = {1: "budynek", 2: "budynki", 5: "budynków", 22: "budynki", 25: "budynków"}


@pytest.mark.parametrize("count", sorted(POLISH_SQUARES))
def test_the_players_counts_take_the_polish_plural_forms(count, monkeypatch):
    """Each player's unplaced squares and buildings in hand, and each hand's squares."""
    panels, hands = presenters.player_panels, presenters.hands
    monkeypatch.setattr(
        presenters,
        "player_panels",
        lambda *args: [{**p, "unplaced": count, "left": count} for p in panels(*args)],
    )
    monkeypatch.setattr(
        presenters, "hands", lambda *args: [{**h, "unplaced": count} for h in hands(*args)]
    )
    game = started_game(make_user("ann"), make_user("bob"), kind="cathedral")
    page = page_for_the_deciding_player(game, "pl")
    squares, buildings = POLISH_SQUARES[count], POLISH_BUILDINGS[count]
    assert page.count(f'<strong class="">{count}</strong> {squares} do postawienia') == 2
    assert page.count(f"{count} {buildings} w zapasie") == 2
    assert f"Jasne, {count} {squares}</small>" in page
    french = page_for_the_deciding_player(game, "fr")
    assert f"{count}</strong> {'case' if count == 1 else 'cases'} à placer" in french


def a_claim(count: int, captures: list | None = None) -> dict:
    """A log entry of light's (seat 0) Tower on D4-F6 claiming ``count`` squares (its English
    text, which the site keeps each sentence by, as the engine would write it)."""
    text = f"Light placed the Tower on D4\u2013F6, claimed {count} squares"
    for capture in captures or []:
        text += f" and captured Dark's {capture['building']} (back to Dark's hand)"
    return {
        "seq": 9,
        "kind": "place",
        "player": 0,
        "action": {"kind": "place", "building": "tower", "col": 4, "row": 4, "turn": 0},
        "text": text,
        "cells": ["D4", "D5", "E5", "E6", "F6"],
        "claimed": [[0, 0]] * count,
        "captures": captures or [],
    }


@pytest.mark.parametrize("count", sorted(POLISH_SQUARES))
def test_the_log_and_the_result_take_the_polish_plural_forms(count):
    seen, names = {"light": 0}, ["ann", "bob"]
    squares = POLISH_SQUARES[count]
    with translation.override("pl"):
        said = presenters.named(a_claim(count), seen, names)
        assert said == f"ann (Jasne) stawia Wieżę na D4\u2013F6 i zajmuje {count} {squares}"
        end = {"finished": True, "winners": [0], "hands": [{"unplaced_squares": count}] * 2}
        assert presenters.result_line(end, names, seat=0) == (
            f"Wygrywasz: {count} {squares} do postawienia wobec {count} u gracza bob."
        )
        draw = {**end, "winners": [0, 1]}
        assert presenters.result_line(draw, names, seat=None) == (
            f"Remis: każdy z graczy ma {count} {squares} do postawienia."
        )
    with translation.override("en"):
        english = presenters.named(a_claim(count), seen, names)
        assert english.endswith(f"claimed {count} square{'s' if count > 1 else ''}")


def test_a_capture_in_the_log_names_the_building_in_the_right_case():
    capture = [{"building": "inn", "owner": 1, "cells": ["A1", "A2", "B1"]}]
    seen, names = {"light": 0}, ["ann", "bob"]
    with translation.override("pl"):
        assert presenters.named(a_claim(22, capture), seen, names) == (
            "ann (Jasne) stawia Wieżę na D4\u2013F6, zajmuje 22 pola i zbija Gospodę Ciemnych "
            "(wraca do ich zapasu)"
        )
    with translation.override("fr"):
        assert presenters.named(a_claim(25, capture), seen, names) == (
            "ann (Clairs) a placé la Tour en D4\u2013F6, revendiqué 25 cases et capturé "
            "l'Auberge des Foncés (qui retourne dans leur réserve)"
        )


def test_the_words_are_made_once_per_language():
    with translation.override("pl"):
        polish = words()
        assert words() is polish
        assert polish.name["square"] == "Plac"
    with translation.override("fr"):
        assert words().name["square"] == "Place"
        assert words().thing["inn"] == "l'Auberge"


# -- a refused placement -------------------------------------------------------------------------


def refusal(state, action: dict) -> engine.IllegalAction:
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply_action(state, action)
    return refused.value


def test_a_refused_placement_names_the_rule_in_polish_and_in_french():
    state = engine.apply_action(engine.new_game(engine.Options()), CATHEDRAL_ON_E5)
    on_top = {"kind": "place", "building": "tavern", "col": 4, "row": 4, "turn": 0}
    reason = refusal(state, on_top).args[0]
    assert reason == "the Tavern does not fit there: E5 is already built on"
    with translation.override("pl"):
        assert say(reason) == "Karczma nie mieści się tutaj: pole E5 jest już zabudowane"
    with translation.override("fr"):
        assert say(reason) == "Taverne\u00a0: ne tient pas ici, la case E5 est déjà bâtie"
    out = {**on_top, "building": "tower", "col": 0, "row": 0}
    with translation.override("pl"):
        assert say(refusal(state, out).args[0]) == (
            "Wieża nie mieści się tutaj: wystaje poza mury miasta"
        )
    with translation.override("pl"):
        assert say(refusal(state, CATHEDRAL_ON_E5).args[0]) == "Katedra już stoi w mieście"


def test_malformed_data_is_refused_in_polish():
    with pytest.raises(engine.MalformedAction) as refused:
        engine.Action.from_json({**CATHEDRAL_ON_E5, "col": 10})
    with translation.override("pl"):
        assert say(refused.value.args[0]) == (
            "col i row przyjmują wartości 0\u20139: miasto ma 10 pól szerokości i 10 wysokości"
        )


def test_an_illegal_placement_posted_in_polish_is_answered_in_polish():
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(ann, bob, kind="cathedral")
    play(game, [CATHEDRAL_ON_E5])
    game.refresh_from_db()
    on_top = {"kind": "place", "building": "tavern", "col": 4, "row": 4, "turn": 0}
    response = speaking(bob, "pl").post(
        reverse("games:act", args=[game.pk]),
        {"action": json.dumps(on_top), "seq": game.seq},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="live",
    )
    assert response.status_code == 400
    assert "Karczma nie mieści się tutaj: pole E5 jest już zabudowane" in response.text
    assert states.load_state(game).history[-1]["action"] == CATHEDRAL_ON_E5


def test_a_hint_can_be_worded_in_polish():
    """``describe_placement`` words a legal placement as the log will: for a hint."""
    state = engine.apply_action(engine.new_game(engine.Options()), CATHEDRAL_ON_E5)
    bridge = engine.Action.from_json(
        {"kind": "place", "building": "bridge", "col": 0, "row": 1, "turn": 1}
    )
    with translation.override("pl"):
        assert presenters.describe_placement(state, bridge) == "postaw Most na A1\u2013A3"
    with translation.override("en"):
        assert presenters.describe_placement(state, bridge) == engine.describe_action(state, bridge)
