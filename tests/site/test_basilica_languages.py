"""Basilica in French and in Polish: the game page a player reads in the middle of a game, the
log and its counts, and a refused move, each in the words of the edition's own rulebook (the
2010 French one, the 2022 Polish one)."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from factories import client_for, make_user, play, random_choice, started_game

from games.engine import basilica as engine
from games.kinds.basilica import presenters, story
from games.kinds.basilica.names import names
from games.models import Game, PlayerSettings
from games.play import states
from games.words import say

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
ORDERS = {
    "fr": {
        "promote": "Promouvoir",
        "move": "Déplacer un Bâtisseur",
        "recruit": "Recruter",
        "confuse": "Confondre",
        "glass": "Vitrail",
        "scaffold": "Échafaudage",
        "disaster": "Catastrophe",
        "altar": "Autel",
    },
    "pl": {
        "promote": "Szkolenie",
        "move": "Przemieszczenie Budowniczego",
        "recruit": "Rekrutacja",
        "confuse": "Zamieszanie",
        "glass": "Witraż",
        "scaffold": "Rusztowanie",
        "disaster": "Katastrofa",
        "altar": "Ołtarz",
    },
}
ENGLISH_LEFT = ("Your turn", "Last move:", "Market", "actions left", "placed a", "Scoring ")


def speaking(user, language: str):
    """``user``'s client, with the language chosen in their settings."""
    PlayerSettings.objects.update_or_create(user=user, defaults={"language": language})
    return client_for(user)


@pytest.fixture
def mid_game() -> Game:
    """A game some twenty actions in, orders taken as often as vaults, stopped where the
    player to decide has a main action to choose."""
    game = started_game(make_user("anna"), make_user("bruno"))
    rng = random.Random(26)
    for _ in range(200):
        state = states.load_state(game)
        if len(state.history) >= 20 and state.decision["kind"] == "main":
            break
        game = play(game, [random_choice(rng, engine.legal_actions(state)).to_json()])
    state = states.load_state(game)
    assert not state.finished
    assert state.decision["kind"] == "main"
    assert any(h["action"]["type"] in ORDERS["fr"] for h in state.history)
    return game


def _page(game: Game, language: str) -> tuple[str, engine.State]:
    game.refresh_from_db()
    player = game.player(game.to_decide)
    page = speaking(player, language).get(game.get_absolute_url())
    assert page.status_code == 200
    return page.text, states.load_state(game)


def _orders_taken(state: engine.State) -> set[str]:
    return {h["action"]["type"] for h in state.history} & set(ORDERS["fr"])


def test_the_game_page_speaks_french_with_the_2010_rulebooks_words(mid_game):
    page, state = _page(mid_game, "fr")
    left = state.actions_left
    assert f"Votre tour{NBSP}: il vous reste {left} action" in page
    assert "Prenez une voûte ou une consigne." in page
    assert f"Dernier coup{NBSP}:" in page
    assert ">Marché" in page
    assert ">Journal<" in page
    assert "Place une voûte" in page  # a log line, in the player's words
    for order in _orders_taken(state):  # each order executed, named as the rulebook names it
        assert ORDERS["fr"][order] in page
    for tile in state.market_orders:  # the market's orders, by name
        assert ORDERS["fr"][state.tiles[tile].order] in page
    assert "bâtisseur" in page
    assert "pièce de monnaie" in page
    assert [words for words in ENGLISH_LEFT if words in page] == []


def test_the_game_page_speaks_polish_with_the_2022_rulebooks_words(mid_game):
    page, state = _page(mid_game, "pl")
    left = state.actions_left
    forms = {1: "została ci 1 akcja", 2: "zostały ci 2 akcje", 3: "zostały ci 3 akcje"}
    assert f"Twoja tura: {forms[left]}." in page
    assert "Weź Sklepienie albo Rozkaz." in page
    assert "Ostatni ruch:" in page
    assert ">Rynek" in page
    assert ">Przebieg<" in page  # the log, named as on every game page
    assert "Umieszcza" in page
    assert "Sklepienie" in page  # a log line, in the player's words
    for order in _orders_taken(state):
        assert ORDERS["pl"][order] in page
    for tile in state.market_orders:
        assert ORDERS["pl"][state.tiles[tile].order] in page
    assert "Budowniczy" in page
    assert "Monet" in page
    assert [words for words in ENGLISH_LEFT if words in page] == []


def test_the_log_and_the_last_move_are_told_in_the_viewers_language(mid_game):
    state = states.load_state(mid_game)
    seen = engine.view(state, None)
    run = story.last_run(seen)
    with translation.override("fr"):
        french = story.move_summary(run, ["anna", "bruno"])
        turns = story.log_turns(seen, ["anna", "bruno"])
    with translation.override("pl"):
        polish = story.move_summary(run, ["anna", "bruno"])
    with translation.override("en"):
        english = story.move_summary(run, ["anna", "bruno"])
    assert french != english != polish
    assert french.startswith(("anna ", "bruno "))
    assert french.endswith(".")
    texts = [e["text"] for t in turns for e in t["entries"]]
    assert any(text.startswith("Place une voûte") for text in texts)


def test_a_vault_is_named_in_agreement_with_its_noun():
    with translation.override("fr"):
        assert names().vaults["B"] == "voûte bleue"
        assert names().vaults["BG"] == "voûte bleue/verte"
    with translation.override("pl"):
        assert names().vaults["B"] == "niebieskie Sklepienie"
        assert names().vaults["YR"] == "żółto-czerwone Sklepienie"


# -- Polish plurals: 1, 2-4 (22-24), 5 and more (25) ------------------------------------------

COUNTS = (1, 2, 5, 22, 25)


def _main(left: int) -> dict:
    return {
        "decision": {"kind": "main", "player": 0},
        "to_decide": 0,
        "active_player": 0,
        "actions_left": left,
        "rules_version": engine.VERSION,
    }


def test_the_actions_left_take_the_three_polish_forms():
    with translation.override("pl"):
        prompts = [presenters.prompt(_main(n), 0, ["anna", "bruno"], picking=True) for n in COUNTS]
        notes = [presenters.turn_note(_main(n), 0) for n in COUNTS]
    assert prompts == [
        "Twoja tura: została ci 1 akcja.",
        "Twoja tura: zostały ci 2 akcje.",
        "Twoja tura: zostało ci 5 akcji.",
        "Twoja tura: zostały ci 22 akcje.",
        "Twoja tura: zostało ci 25 akcji.",
    ]
    assert notes == [
        "na ruchu: została 1 akcja",
        "na ruchu: zostały 2 akcje",
        "na ruchu: zostało 5 akcji",
        "na ruchu: zostały 22 akcje",
        "na ruchu: zostało 25 akcji",
    ]


def test_a_reshuffled_discard_pile_counts_its_tiles_in_polish():
    seen = {"events": [], "crown_spaces": [10, 20, 30], "monarch": "queen"}
    with translation.override("pl"):
        said = [
            story.event_text({"kind": "reshuffle", "tiles": n}, seen, ["anna", "bruno"])
            for n in COUNTS
        ]
    assert said == [
        "Stos się wyczerpał: 1 odrzucony kafelek przetasowano w nowy stos.",
        "Stos się wyczerpał: 2 odrzucone kafelki przetasowano w nowy stos.",
        "Stos się wyczerpał: 5 odrzuconych kafelków przetasowano w nowy stos.",
        "Stos się wyczerpał: 22 odrzucone kafelki przetasowano w nowy stos.",
        "Stos się wyczerpał: 25 odrzuconych kafelków przetasowano w nowy stos.",
    ]


def _panel(builders: int, tokens: int, coins: int, score: int) -> str:
    """The status partial of a game page with one player's supply set to these counts."""
    game = started_game(make_user("anna"), make_user("bruno"))
    client = speaking(game.seat1, "pl")
    # The page reads the state the site keeps for the game: these counts are no position of
    # the rules (22 builders), only numbers for the words around them.
    supply = states.load_state(game).players[0]
    supply.builders, supply.tokens, supply.coins, supply.score = builders, tokens, coins, score
    page = client.get(f"{game.get_absolute_url()}?partial=status", HTTP_HX_REQUEST="true")
    return page.text.split('class="player seat0')[1].split('class="player seat1')[0]


@pytest.mark.parametrize(
    ("count", "builders", "tokens", "coins", "points"),
    [
        (1, "1 Budowniczy w zasobach", "1 żeton Szkolenia", "1 Moneta", "1</strong> punkt<"),
        (2, "2 Budowniczych w zasobach", "2 żetony Szkolenia", "2 Monety", "2</strong> punkty"),
        (5, "5 Budowniczych w zasobach", "5 żetonów Szkolenia", "5 Monet", "5</strong> punktów"),
        (
            22,
            "22 Budowniczych w zasobach",
            "22 żetony Szkolenia",
            "22 Monety",
            "22</strong> punkty",
        ),
        (
            25,
            "25 Budowniczych w zasobach",
            "25 żetonów Szkolenia",
            "25 Monet",
            "25</strong> punktów",
        ),
    ],
)
def test_a_players_supply_takes_the_three_polish_forms(count, builders, tokens, coins, points):
    panel = _panel(count, count, count, count)
    assert builders in panel
    assert tokens in panel
    assert coins in panel
    assert points in panel


# -- a refused move ---------------------------------------------------------------------------

PLACE_BUILDER_FIRST = {
    "fr": "Placer un bâtisseur n'est possible qu'immédiatement après Placer une voûte",
    "pl": "Umieszczenie Budowniczego jest możliwe tylko bezpośrednio po Umieszczeniu Sklepienia",
}


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_engine_names_the_broken_rule_in_the_players_language(language):
    state = engine.new_game(engine.Options(), seed=3)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply_action(state, {"type": "builder"})
    reason = refused.value.args[0]
    assert reason == "Place Builder is only possible immediately after Place Vault"
    with translation.override(language):
        assert say(reason) == PLACE_BUILDER_FIRST[language]


def test_a_refusal_with_values_says_them_in_french_too():
    state = engine.new_game(engine.Options(edition="2010"), seed=3)
    tile = state.market_orders[0]
    order = state.tiles[tile].order
    wrong = next(kind for kind in ORDERS["fr"] if kind != order)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply_action(state, {"type": wrong, "tile": tile, "col": 0, "row": 0})
    with translation.override("fr"):
        said = say(refused.value.args[0])
    assert (
        said == f"la consigne de cette tuile est {ORDERS['fr'][order]}, pas «{NBSP}{wrong}{NBSP}»"
    )


def test_an_illegal_move_posted_in_french_is_refused_in_french():
    game = started_game(make_user("anna"), make_user("bruno"))
    player = speaking(game.seat0, "fr")
    form = {"action": json.dumps({"type": "builder"}), "seq": game.seq}
    response = player.post(reverse("games:act", args=[game.pk]), form)
    assert response.status_code == 400
    assert escape(PLACE_BUILDER_FIRST["fr"]) in response.text


def test_the_move_to_confirm_is_told_in_french():
    game = started_game(make_user("anna"), make_user("bruno"), time_control="3d")
    tile = states.load_state(game).market_vaults[0]
    letters = "/".join(states.load_state(game).tiles[tile].colors)
    player = speaking(game.seat0, "fr")
    page = player.get(f"{game.get_absolute_url()}?pick=tile:{tile}/at:2,0", HTTP_HX_REQUEST="true")
    hint = f"Votre coup{NBSP}: placer la voûte {letters} en c2r0. L'envoyer{NBSP}?"
    assert escape(hint) in page.text
    assert "Confirmer ce coup" in page.text
