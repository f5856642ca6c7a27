"""The front door: the home page shows games being played as small boards and offers one-click
games, which pair with another player's seek of the same terms or open one; the boards show
nothing a spectator may not know."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user, open_game, play, play_randomly, started_game

from games.engine import cathedral
from games.engine.basilica.state import Cell
from games.models import Game
from games.play import seeks, services, states
from games.web import thumbnails

pytestmark = pytest.mark.django_db

BASILICA_3D = reverse("games:play-now", args=["basilica-3d"])
SVG = re.compile(r"<svg class=\"thumb.*?</svg>", re.S)


def play_now(user, url: str = BASILICA_3D):
    return client_for(user).post(url)


def the_game(response) -> Game:
    assert response.status_code == 302, response.content[:300]
    return Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


# -- the home page ------------------------------------------------------------------------------


def test_the_home_page_shows_games_in_play_as_small_boards_that_link_to_them():
    game = play_randomly(started_game(make_user("alice"), make_user("bob")), 3)
    page = Client().get(reverse("home")).text
    card = page.split(f'href="{game.get_absolute_url()}"')[1].split("</a>")[0]
    assert '<svg class="thumb thumb-basilica"' in card
    assert 'role="img"' in card
    deciding = game.player(game.to_decide).username
    assert f'aria-label="Basilica: alice against bob, {deciding} to play"' in card


def test_a_cathedral_in_play_is_drawn_too():
    game = started_game(kind="cathedral")
    game = play(game, [cathedral.legal_actions(states.load_state(game))[0].to_json()])
    page = Client().get(reverse("home")).text
    card = page.split(f'href="{game.get_absolute_url()}"')[1].split("</a>")[0]
    assert '<svg class="thumb thumb-cathedral"' in card
    assert 'class="cathedral"' in card  # Light's first placement is the Cathedral


def test_a_private_game_never_appears_on_the_home_page():
    hidden = started_game(private=True)
    page = client_for(make_user("carol")).get(reverse("home")).text
    assert hidden.get_absolute_url() not in page
    assert "No public game is being played right now" in page


def test_the_home_page_offers_the_play_now_grid_to_a_player():
    page = client_for(make_user()).get(reverse("home")).text
    for preset in ("basilica-1d", "basilica-3d", "basilica-10-5", "cathedral-3d", "cathedral-5-3"):
        assert f'action="{reverse("games:play-now", args=[preset])}"' in page
    assert "against the computer" in page


def test_a_visitor_is_sent_to_log_in_and_back_from_the_grid():
    page = Client().get(reverse("home")).text
    assert 'href="/accounts/login/?next=/%23play-now"' in page
    assert reverse("signup") in page
    assert 'action="/games/play/' not in page


def test_the_home_page_teaches_each_game_in_a_few_pictured_steps():
    page = Client().get(reverse("home")).text
    how = page.split('id="how-to-play"')[1]
    assert how.count('<svg class="thumb') == 6
    assert reverse("rules-kind", args=["basilica"]) in how
    assert reverse("rules-kind", args=["cathedral"]) in how


def test_the_watch_list_and_my_games_show_the_boards_of_games_in_play():
    alice = make_user("alice")
    game = started_game(alice)
    waiting = open_game(alice)
    assert 'aria-label="Basilica: alice against' in Client().get(reverse("games:now")).text
    mine = client_for(alice).get(reverse("games:mine")).text
    assert mine.count('<svg class="thumb') == 1
    assert game.get_absolute_url() in mine
    assert waiting.get_absolute_url() in mine


# -- play now ------------------------------------------------------------------------------------


def test_play_now_joins_another_players_seek_of_the_same_terms():
    seek = open_game(make_user("alice"), time_control="3d", rated=True, edition="2022")
    bob = make_user("bob")
    game = the_game(play_now(bob))
    assert game.pk == seek.pk
    assert game.status == Game.Status.ACTIVE
    assert {game.seat0.username, game.seat1.username} == {"alice", "bob"}


def test_play_now_opens_a_seek_when_no_one_waits_for_the_same_game():
    open_game(make_user("alice"), time_control="1d", rated=True)  # another clock
    open_game(make_user("carol"), time_control="3d", rated=True, edition="2010")  # another edition
    game = the_game(play_now(make_user("bob")))
    assert game.status == Game.Status.OPEN
    assert (game.kind, game.time_control, game.rated) == ("basilica", "3d", True)
    assert Game.objects.open_seeks().count() == 3


def test_the_second_player_to_click_the_same_button_is_paired_with_the_first():
    first = the_game(play_now(make_user("alice")))
    second = the_game(play_now(make_user("bob")))
    assert second.pk == first.pk
    assert second.status == Game.Status.ACTIVE


def test_two_players_who_click_at_the_same_moment_are_paired_all_the_same(monkeypatch):
    """Both find no seek and open one at once. To make the moment, this test (and only it) hides
    alice's seek from bob's first look, as a request that read before hers was written."""
    alice, bob = make_user("alice"), make_user("bob")
    first = the_game(play_now(alice))
    first_look = seeks.matching
    looks = []

    def not_yet_written(terms):
        looks.append(terms)
        found = first_look(terms)
        return found.exclude(pk=first.pk) if len(looks) == 1 else found

    monkeypatch.setattr(seeks, "matching", not_yet_written)
    second = the_game(play_now(bob))
    assert second.pk == first.pk
    assert second.status == Game.Status.ACTIVE
    assert {second.seat0.username, second.seat1.username} == {"alice", "bob"}
    # bob's own seek, opened in the same moment, is cancelled, not left waiting
    assert not Game.objects.open_seeks().exists()


def test_the_later_seek_stays_when_the_earlier_was_taken_meanwhile():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    earlier = open_game(alice, time_control="3d", rated=True, edition="2022")
    terms = seeks.GameSettings(
        options=dict(earlier.options), kind="basilica", time_control="3d", rated=True
    )
    mine = open_game(bob, time_control="3d", rated=True, edition="2022")
    services.accept_game(earlier, carol)  # carol took alice's seek first
    game, how = seeks.settled(mine, bob, terms)
    assert (game.pk, how) == (mine.pk, seeks.OPENED)
    assert Game.objects.get(pk=mine.pk).status == Game.Status.OPEN


def test_a_second_click_sends_a_player_to_the_seek_they_already_have():
    alice = make_user("alice")
    first = the_game(play_now(alice))
    client = client_for(alice)
    again = client.post(BASILICA_3D, follow=True)
    assert again.redirect_chain[0][0] == first.get_absolute_url()
    assert "Your seek of this game is still open" in again.text
    assert Game.objects.filter(created_by=alice).count() == 1


def test_play_now_against_the_computer_starts_a_game_with_the_bot():
    game = the_game(
        play_now(make_user("alice"), reverse("games:play-now", args=["cathedral-computer"]))
    )
    assert game.status == Game.Status.ACTIVE
    assert game.seat1.username.startswith("computer-")
    assert game.private
    assert game.kind == "cathedral"


def test_too_many_games_against_the_computer_are_refused_in_words(settings):
    settings.COMPUTER_GAMES_IN_PLAY = 1
    alice = make_user("alice")
    url = reverse("games:play-now", args=["basilica-computer"])
    the_game(play_now(alice, url))
    refused = client_for(alice).post(url, follow=True)
    assert refused.status_code == 200
    assert "the most allowed at one time" in refused.text
    assert Game.objects.filter(created_by=alice).count() == 1


def test_an_unknown_button_changes_nothing_and_says_so():
    response = client_for(make_user()).post(
        reverse("games:play-now", args=["chess-1d"]), follow=True
    )
    assert response.status_code == 200
    assert "There is no such game to play now" in response.text
    assert not Game.objects.exists()


def test_a_visitor_who_is_not_signed_in_is_sent_to_log_in():
    response = Client().post(BASILICA_3D)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not Game.objects.exists()


def test_play_now_answers_only_a_post():
    assert client_for(make_user()).get(BASILICA_3D).status_code == 405


def test_play_now_needs_the_pages_csrf_token():
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    assert client.post(BASILICA_3D).status_code == 403
    assert not Game.objects.exists()


# -- what a board may show ----------------------------------------------------------------------


@pytest.fixture
def game_under_way():
    return play_randomly(started_game(expansion=True, remove_six=True, seed=20261122), 9)


def drawn(game: Game, world, monkeypatch) -> str:
    cache.clear()  # the boards are kept by (game, seq): draw this world's afresh
    monkeypatch.setattr(states, "load_state", lambda _game: world)
    pages = [Client().get(reverse("home")).text, Client().get(reverse("games:now")).text]
    monkeypatch.undo()
    return "".join("".join(SVG.findall(page)) for page in pages)


def test_a_board_never_shows_the_seed(game_under_way):
    page = Client().get(reverse("home")).text
    assert str(game_under_way.seed) not in "".join(SVG.findall(page))


def test_a_board_does_not_depend_on_the_stack_the_removed_tiles_or_the_seed(
    game_under_way, monkeypatch
):
    game = game_under_way
    real = states.load_state(game)
    other = real.copy()
    other.stack = real.stack[::-1]
    other.stack[0], other.removed[0] = real.removed[0], other.stack[0]
    other.seed = real.seed ^ 0x5EED
    assert other.stack != real.stack
    assert drawn(game, other, monkeypatch) == drawn(game, real, monkeypatch)


def test_the_comparison_notices_a_change_a_spectator_may_see(game_under_way, monkeypatch):
    game = game_under_way
    real = states.load_state(game)
    moved = real.copy()
    moved.cells = dict(real.cells)
    pos, cell = next((pos, c) for pos, c in real.cells.items() if c.builder is None)
    moved.cells[pos] = Cell(tile=cell.tile, builder=0, glass=cell.glass, altar=cell.altar)
    assert drawn(game, moved, monkeypatch) != drawn(game, real, monkeypatch)


def test_a_board_is_small():
    game = play_randomly(started_game(), 40)
    assert len(thumbnails.thumbnail(game).encode()) < 3000
