"""Cathedral through the site: the lobby, the tap-by-tap move, a whole game, the rules page."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse
from django.utils import translation
from factories import client_for, lobby_form, make_user, started_game

from games.engine import cathedral as engine
from games.kinds.cathedral import presenters
from games.models import Action, Game, PlayerSettings
from games.play import services, states
from games.web.presenters import clocks

pytestmark = pytest.mark.django_db


def cathedral_game(**settings) -> Game:
    return started_game(kind="cathedral", **settings)


def post_move(client, game: Game, action: dict, seq: int | None = None):
    form = {"action": json.dumps(action), "seq": game.seq if seq is None else seq}
    return client.post(
        reverse("games:act", args=[game.pk]), form, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live"
    )


def test_the_lobby_offers_both_games_and_opens_a_cathedral_game_with_its_options():
    alice = make_user("alice")
    client = client_for(alice)
    page = client.get(reverse("games:lobby")).text
    assert "Open a game of Basilica" in page
    assert "Open a game of Cathedral" in page
    response = client.post(
        reverse("games:create"),
        lobby_form("cathedral", lehman="on", first="me", time_control="3d"),
    )
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert game.kind == "cathedral"
    assert game.engine_options == engine.Options(light=0, lehman=True)
    assert game.engine_version == engine.VERSION
    seeks = client_for(make_user("bob")).get(reverse("games:lobby")).text
    assert "alice <span" in seeks  # and her rating at Cathedral, correspondence
    assert "(1500?)</span>: Cathedral, Tom Lehman&#x27;s variant;" in seeks
    assert "alice plays Light" in seeks


def test_light_places_the_cathedral_first_by_tapping_building_cell_and_place():
    alice, bob = make_user("alice"), make_user("bob")
    game = cathedral_game(seat0=alice, seat1=bob)  # alice plays Light
    client = client_for(alice)
    page = client.get(game.get_absolute_url()).text
    assert "place the Cathedral first" in page
    assert 'data-tile="cathedral"' in page

    chosen = client.get(game.get_absolute_url(), {"pick": "cathedral"}).text
    targets = re.findall(r'href="\?pick=cathedral\.([A-J]\d+)"', chosen)
    assert "E5" in targets

    tapped = client.get(game.get_absolute_url(), {"pick": "cathedral.E5"}).text
    assert "Place it here" in tapped
    assert "Turn it" in tapped  # the cross fits E5 in more than one way
    action = json.loads(
        re.search(r'name="action" value="([^"]+)"', tapped).group(1).replace("&quot;", '"')
    )
    assert action == {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}

    response = post_move(client, game, action)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.seq == 1
    assert game.to_decide == 1
    assert "alice (Light) placed the Cathedral" in client_for(bob).get(game.get_absolute_url()).text


def test_a_building_that_does_not_fit_is_refused_with_a_reason_and_nothing_is_written():
    alice, bob = make_user("alice"), make_user("bob")
    game = cathedral_game(seat0=alice, seat1=bob)
    cathedral = {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}
    post_move(client_for(alice), game, cathedral)
    game.refresh_from_db()
    on_top = {"kind": "place", "building": "tavern", "col": 4, "row": 4, "turn": 0}
    response = post_move(client_for(bob), game, on_top)
    assert response.status_code == 400
    assert 'role="alert"' in response.text
    assert Action.objects.filter(game=game).count() == 1


def test_two_players_play_a_whole_game_through_the_page_and_see_the_result():
    alice, bob = make_user("alice"), make_user("bob")
    game = cathedral_game(seat0=alice, seat1=bob, time_control="none")
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    rng = random.Random(7)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = states.load_state(game)
        action = rng.choice(engine.legal_actions(state)).to_json()
        player = game.player(game.to_decide)
        assert post_move(clients[player.pk], game, action).status_code == 200
    state = states.replay_game(game)
    assert state.finished
    assert game.scores == list(state.returns())
    assert sorted(game.winners) == sorted(state.outcome.winners)
    page = clients[alice.pk].get(game.get_absolute_url()).text
    if len(game.winners) == 2:
        assert "A draw" in page
    else:
        assert "wins" in page or "You win" in page
    assert "unplaced square" in page


def test_a_spectator_sees_the_city_but_no_move_to_make():
    game = cathedral_game()
    page = client_for(make_user("carl")).get(game.get_absolute_url()).text
    assert "You are watching this game" in page
    assert "Place it here" not in page
    assert page.count('role="gridcell"') == 100


def test_the_rules_page_draws_every_building_of_both_sides():
    page = client_for(make_user()).get(reverse("rules-kind", args=["cathedral"])).text
    for name in ("Tavern", "Stable", "Inn", "Bridge", "Square", "Manor", "Abbey", "Infirmary"):
        assert name in page
    for name in ("Castle", "Tower", "Academy", "Cathedral"):
        assert name in page
    assert "corner" in page  # enclosure is edge to edge, never corner to corner


def test_an_unknown_game_has_no_rules_page():
    response = client_for(make_user()).get("/rules/chess/")
    assert response.status_code == 404


def city(game: Game, state, before) -> list[list[dict]]:
    """The rows of the city a spectator sees, marked as changed since ``before``."""
    base = {"seat": None, "names": ["ann", "bob"], "clocks": clocks(game)}
    base["prefs"] = PlayerSettings()
    return presenters.page_context(game, state, before, base, None)["rows"]


def test_one_city_seen_from_two_last_looks_marks_what_changed_since_each():
    """The city of a state is drawn once for the viewers who last looked at the same moment,
    and apart for one who last looked earlier: each sees marked what changed since."""
    game = cathedral_game()
    rng = random.Random(1)
    for _ in range(2):
        state = states.load_state(game)
        action = rng.choice(engine.legal_actions(state)).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
    state = states.load_state(game)

    def marked(before) -> set[str]:
        rows = city(game, state, before)
        return {c["key"] for line in rows for c in line if "changed" in c["classes"].split()}

    since_the_last_move = marked(states.state_at(game, 1))
    since_the_start = marked(states.state_at(game, 0))
    assert since_the_last_move  # the second building
    assert since_the_last_move < since_the_start  # and the first one too
    assert marked(states.state_at(game, 1)) == since_the_last_move


def test_one_city_is_drawn_apart_for_each_language():
    game = cathedral_game()
    state = states.load_state(game)
    english = city(game, state, state)
    with translation.override("fr"):
        french = city(game, state, state)
    assert english[0][0]["label"] != french[0][0]["label"]


def test_a_city_with_nothing_picked_is_one_settled_value_and_a_picked_one_is_the_pickers():
    """The city nobody is picking on is worked out once for the state and drawn once per
    content; the player who has picked a building gets their own, with its targets."""
    game = cathedral_game()
    state = states.load_state(game)
    base = {
        "seat": None,
        "names": ["ann", "bob"],
        "clocks": clocks(game),
        "prefs": PlayerSettings(),
    }
    first, again = (presenters.page_context(game, state, state, base, None) for _ in range(2))
    assert first["settled_city"] is again["settled_city"]
    assert first["settled_city"]["rows"] is first["rows"]
    html = client_for(game.player(state.to_decide)).get(game.get_absolute_url()).content.decode()
    building = re.search(r'\?pick=([^"&]+)"', html).group(1)
    picked = client_for(game.player(state.to_decide)).get(
        game.get_absolute_url(), {"pick": building}
    )
    assert picked.context["settled_city"] is None
    assert 'role="gridcell" class="' in picked.content.decode()
    assert '<a href="?pick=' in picked.content.decode().split('class="city"', 1)[1]
