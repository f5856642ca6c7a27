"""What the pages around a game show: the game page and its partials, my games, profiles,
the rules."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from factories import client_for, finished_game, make_user, open_game, play_randomly, started_game

from games.engine.basilica import view
from games.engine.basilica.components import ASSUMED
from games.kinds.basilica import story
from games.live import pushes
from games.models import Game
from games.play import services, states

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


# -- the game page ----------------------------------------------------------------------------


def test_the_player_to_move_sees_the_prompt_and_the_vaults_they_may_take():
    game = started_game(make_user("alice"), make_user("bob"))
    page = client_for(game.seat0).get(game.get_absolute_url())
    assert page.status_code == 200
    assert "Your turn: 3 actions left." in page.text
    for tile in states.load_state(game).market_vaults:
        assert f'data-tile="{tile}"' in page.text
    assert "choosable" in page.text


def test_the_opponent_sees_whose_decision_it_is_and_nothing_to_click():
    game = started_game(make_user("alice"), make_user("bob"))
    page = client_for(game.seat1).get(game.get_absolute_url())
    assert "Waiting for alice to decide." in page.text
    assert "choosable" not in page.text
    assert reverse("games:act", args=[game.pk]) not in page.text


def test_a_spectator_watches_a_public_game_without_choices():
    game = started_game(make_user("alice"), make_user("bob"))
    page = client_for(make_user()).get(game.get_absolute_url())
    assert "You are watching this game: alice is deciding." in page.text
    assert reverse("games:act", args=[game.pk]) not in page.text


def test_a_stranger_may_not_watch_a_private_game():
    game = started_game(private=True)
    assert client_for(make_user()).get(game.get_absolute_url()).status_code == 404


def test_picking_a_vault_offers_the_cells_it_may_go_to():
    game = started_game(time_control="5+3")  # live: a move goes at its last click
    state = states.load_state(game)
    tile = state.market_vaults[0]
    colors = "/".join(state.tiles[tile].colors)
    response = client_for(game.seat0).get(f"{game.get_absolute_url()}?pick=tile:{tile}", **HTMX)
    assert response.text.lstrip().startswith('<div id="play"')
    assert f"Picked: {colors} vault" in response.text
    assert "Now choose a highlighted cell for this vault." in response.text
    # A vault's first placement completes the action: each starting slot is a move form.
    assert response.text.count('name="action"') == 5
    assert f"{{&quot;type&quot;: &quot;vault&quot;, &quot;tile&quot;: {tile}" in response.text


def test_a_correspondence_move_waits_for_its_confirmation():
    game = started_game(time_control="3d")
    state = states.load_state(game)
    tile = state.market_vaults[0]
    colors = "/".join(state.tiles[tile].colors)
    player = client_for(game.seat0)
    page = player.get(f"{game.get_absolute_url()}?pick=tile:{tile}", **HTMX).text
    assert 'name="action"' not in page  # the cells only pick: nothing is sent yet
    assert page.count('class="cell void target"') == 5
    page = player.get(f"{game.get_absolute_url()}?pick=tile:{tile}/at:2,0", **HTMX).text
    assert f"Your move: place {colors} vault at c2r0. Send it?" in page
    assert page.count('name="action"') == 1
    assert "Confirm this move" in page
    assert 'class="cell void picked" data-cell="2,0"' in page


def test_a_player_who_wants_no_confirmation_sends_at_the_last_click():
    game = started_game(time_control="3d")
    player = client_for(game.seat0)
    player.post(reverse("settings-play"), {"confirm_moves": "never"})
    tile = states.load_state(game).market_vaults[0]
    page = player.get(f"{game.get_absolute_url()}?pick=tile:{tile}", **HTMX).text
    assert page.count('name="action"') == 5
    assert "Confirm this move" not in page


def test_a_pick_that_matches_no_legal_action_starts_over():
    game = started_game()
    response = client_for(game.seat0).get(f"{game.get_absolute_url()}?pick=tile:999", **HTMX)
    assert response.status_code == 200
    assert "Picked:" not in response.text


@pytest.mark.parametrize("partial", ["board", "market", "status", "log"])
def test_each_partial_is_its_own_section(partial):
    game = started_game()
    url = f"{game.get_absolute_url()}?partial={partial}"
    response = client_for(game.seat0).get(url, **HTMX)
    assert response.text.lstrip().startswith(f'<section id="{partial}"')
    assert "<html" not in response.text


def test_the_legend_comes_when_opened_and_is_kept_by_htmx_after_a_move_or_a_push():
    game = started_game()
    client = client_for(game.seat0)
    page = client.get(game.get_absolute_url()).text
    assert '<details class="legend" id="symbols" hx-preserve="true">' in page
    # its words are fetched when it is first opened; without JavaScript it links to the rules'
    assert 'id="help-vault"' not in page
    assert f'hx-get="/games/{game.pk}/symbols/"' in page
    assert 'href="/rules/2022/#symbols"' in page
    listed = client.get(f"/games/{game.pk}/symbols/", **HTMX).text
    assert listed.lstrip().startswith('<dl class="legend-list">')
    assert 'id="help-vault"' in listed
    answer = client.get(f"{game.get_absolute_url()}?partial=status", **HTMX).text
    push = pushes.render_partials(game, game.seat1, "token")
    for partial in (answer, push):
        assert '<details class="legend" id="symbols" hx-preserve="true"></details>' in partial
        assert "help-vault" not in partial


def test_the_log_partial_tells_each_move_newest_first():
    game = play_randomly(started_game(make_user("alice"), make_user("bob")), 4)
    response = client_for(game.seat1).get(f"{game.get_absolute_url()}?partial=log", **HTMX)
    log = response.text
    assert log.lstrip().startswith('<section id="log"')
    names = ["alice", "bob"]
    seen = view(states.load_state(game), 1)
    moves = [escape(story.entry_text(entry, names)) for entry in seen["log"]]
    entries = re.findall(r"<li[^>]*>(.*?)</li>", log.split('class="turns"')[1])
    assert len(entries) == len(moves) == 4
    newest_first = zip(entries, reversed(moves), strict=True)
    assert all(entry.endswith(text) for entry, text in newest_first)
    assert "Turn 1 · alice" in log


def test_the_finished_game_shows_the_result_banner_to_each_player():
    game = play_randomly(started_game(seed=4), 500)
    assert game.status == Game.Status.FINISHED
    for seat in (0, 1):
        page = client_for(game.player(seat)).get(game.get_absolute_url()).text
        verdict = "You won" if game.winners == [seat] else "You lost"
        if len(game.winners) == 2:
            verdict = "A shared victory"
        assert verdict in page
        assert 'class="result' in page


def test_an_open_game_shows_the_waiting_page_not_a_board():
    game = open_game()
    page = client_for(make_user()).get(game.get_absolute_url())
    assert "waiting for an opponent" in page.text
    assert 'id="board"' not in page.text


# -- my games ---------------------------------------------------------------------------------


def test_my_games_lists_the_games_waiting_for_me_first():
    alice, bob = make_user("alice"), make_user("bob")
    my_move = started_game(alice, bob, first="me")
    their_move = started_game(alice, bob, first="opponent")
    seeking = open_game(alice)
    over = finished_game(alice, bob, winners=[0], scores=[15, 8])
    cancelled = open_game(alice)
    services.cancel_game(cancelled, alice)
    # The game waiting for alice is the one touched longest ago: only its urgency puts it first.
    long_ago = timezone.now() - datetime.timedelta(days=3)
    Game.objects.filter(pk=my_move.pk).update(updated_at=long_ago)

    page = client_for(alice).get(reverse("games:mine")).text
    order = [g.pk for g in (my_move, their_move, seeking, over)]
    positions = [page.index(f'href="{reverse("games:detail", args=[pk])}"') for pk in order]
    assert positions == sorted(positions)
    assert "your move" in page
    assert f'href="{cancelled.get_absolute_url()}"' not in page


def test_my_games_shows_how_a_finished_game_ended_for_me():
    alice, bob = make_user("alice"), make_user("bob")
    finished_game(alice, bob, winners=[1], scores=[9, 12])
    assert "lost" in client_for(alice).get(reverse("games:mine")).text
    assert "won" in client_for(bob).get(reverse("games:mine")).text


def test_the_lobby_points_to_the_games_waiting_for_me():
    alice = make_user("alice")
    game = started_game(alice, first="me")
    page = client_for(alice).get(reverse("games:lobby")).text
    assert "Your move" in page
    assert game.get_absolute_url() in page


# -- profiles ---------------------------------------------------------------------------------


def test_a_profile_shows_the_record_and_each_finished_result():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    finished_game(alice, bob, winners=[0], scores=[15, 8])
    finished_game(carol, alice, winners=[0], scores=[20, 11])
    finished_game(alice, carol, winners=[0, 1], scores=[10, 10])
    running = started_game(bob, alice)

    page = client_for(bob).get(reverse("profile", args=["alice"])).text
    assert "1 won · 1 lost · 1 shared" in page
    assert "won, 15 \N{EN DASH} 8" in page
    assert "lost, 20 \N{EN DASH} 11" in page
    assert "shared, 10 \N{EN DASH} 10" in page
    assert running.get_absolute_url() in page


def test_an_unknown_player_has_no_profile():
    assert client_for(make_user()).get(reverse("profile", args=["nobody"])).status_code == 404


# -- the rules --------------------------------------------------------------------------------


def test_the_rules_page_marks_every_assumed_figure():
    page = Client().get(reverse("rules")).text
    for figure in ASSUMED:
        assert escape(figure) in page
    assert page.count('class="assumed"') >= 10


def test_the_2010_rules_mark_the_crown_spaces_assumed():
    page = Client().get(reverse("rules-edition", args=["2010"])).text
    crown_row = page.split("Crown spaces on the king")[1].split("</tr>")[0]
    assert 'class="assumed"' in crown_row
    page_2022 = Client().get(reverse("rules-edition", args=["2022"])).text
    assert (
        'class="assumed"' not in page_2022.split("Crown spaces on the queen")[1].split("</tr>")[0]
    )


def test_an_unknown_edition_has_no_rules():
    assert Client().get(reverse("rules-edition", args=["1999"])).status_code == 404


def test_a_click_on_a_page_drawn_before_the_last_move_shows_the_game_now():
    game = started_game(time_control="3d")
    tile = states.load_state(game).market_vaults[0]
    player = client_for(game.seat0)
    link = f"{game.get_absolute_url()}?pick=tile:{tile}&seq=0"
    assert player.get(link, **HTMX).status_code == 200  # drawn at seq 0, still seq 0
    game = play_randomly(game, 1)
    response = player.get(link, **HTMX)  # the same link, from the page drawn at seq 0
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#live"
    assert response.text.lstrip().startswith('<div id="live">')
    assert "the game has moved on since your page was drawn: here it is now" in response.text
    assert 'data-seq="1"' in response.text
    assert "Picked:" not in response.text


def test_the_symbols_of_a_private_game_are_not_found_by_a_stranger():
    game = started_game(private=True)
    assert client_for(game.seat0).get(f"/games/{game.pk}/symbols/").status_code == 200
    assert client_for(make_user("stranger")).get(f"/games/{game.pk}/symbols/").status_code == 404


def test_the_symbols_are_the_games_edition():
    kept = started_game(edition="2010")
    assert "help-rank-jester" not in client_for(kept.seat0).get(f"/games/{kept.pk}/symbols/").text
    game = started_game(edition="2022")
    assert "help-rank-jester" in client_for(game.seat0).get(f"/games/{game.pk}/symbols/").text
