"""From one game waiting for a player to the next: /games/next/ goes to the most urgent, a game
page offers it once it waits for the opponent, a move goes there by itself for a player who
chose so, and My games lists the most urgent first with each game's last activity."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from factories import (
    START,
    client_for,
    first_legal,
    game_from_log,
    make_user,
    open_game,
    play,
    search_position,
    started_game,
)

from games import tasks
from games.engine import basilica
from games.models import Game, PlayerSettings
from games.play import computer, services, states, timing, vacation

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}
NEXT = reverse("games:next")


@pytest.fixture
def ann():
    return make_user("ann")


def cathedral(ann, days: int | None, opponent=None) -> Game:
    """A Cathedral game in which ann (Light) places first: by correspondence, ``days`` a move,
    or untimed."""
    clock = f"{days}d" if days else "none"
    return started_game(ann, opponent or make_user(), kind="cathedral", time_control=clock)


def placement(game: Game) -> dict:
    game.refresh_from_db()
    return game.engine.legal_actions(states.load_state(game))[0].to_json()


def move(client, game: Game, action: dict | None = None, **headers):
    """The player's move in ``game`` posted from its page (over htmx with ``HTMX``)."""
    form = {"action": json.dumps(action or placement(game)), "seq": game.seq}
    return client.post(reverse("games:act", args=[game.pk]), form, **headers)


def whole_turn(game: Game) -> Game:
    """The Basilica turn of the player to decide, played to its end."""
    mover = game.to_decide
    while game.to_decide == mover:
        game = play(game, [first_legal(game)])
    return game


def choose_next_game_after_move(user) -> None:
    PlayerSettings.objects.filter(pk=vacation.settings_for(user).pk).update(
        next_game_after_move=True
    )


def said(response) -> str:
    """The page's messages, as a player reads them."""
    return " ".join(re.findall(r'<ul class="messages"[^>]*>(.*?)</ul>', response.text, re.S))


def offer(text: str) -> str:
    """The offer's container on a page or in a move's answer."""
    found = re.search(r'<div id="next-game"[^>]*>.*?</div>', text, re.S)
    assert found is not None
    return found.group(0)


# -- /games/next/ -------------------------------------------------------------------------------


def test_the_next_game_is_the_one_whose_deadline_is_nearest(ann, calendar):
    cathedral(ann, 7)
    day = cathedral(ann, 1)
    cathedral(ann, 3)
    response = client_for(ann).get(NEXT)
    assert response.status_code == 302
    assert response.url == day.get_absolute_url()


def test_the_game_just_left_is_skipped(ann, calendar):
    cathedral(ann, 7)
    day, three_days = cathedral(ann, 1), cathedral(ann, 3)
    response = client_for(ann).get(NEXT, {"after": day.pk})
    assert response.url == three_days.get_absolute_url()


def test_an_untimed_game_comes_after_every_game_with_a_deadline(ann, calendar):
    untimed = cathedral(ann, None)
    calendar.shift(timedelta(hours=2))
    week = cathedral(ann, 7)
    client = client_for(ann)
    assert client.get(NEXT).url == week.get_absolute_url()
    assert client.get(NEXT, {"after": week.pk}).url == untimed.get_absolute_url()


def test_games_waiting_for_the_opponent_are_never_next(ann, calendar):
    theirs = cathedral(ann, 1)
    play(theirs, [placement(theirs)])
    mine = cathedral(ann, 7)
    assert client_for(ann).get(NEXT).url == mine.get_absolute_url()


def test_with_no_game_waiting_the_player_lands_on_my_games_with_a_message(ann):
    only = cathedral(ann, 3)
    response = client_for(ann).get(NEXT, {"after": only.pk}, follow=True)
    assert response.redirect_chain == [(reverse("games:mine"), 302)]
    assert "No game is waiting for your move." in said(response)


@pytest.mark.parametrize("after", ["", "abc", "-4", "0", "1.5", "99999999999999999999999"])
def test_a_strange_after_is_no_error(ann, after):
    game = cathedral(ann, 3)
    response = client_for(ann).get(NEXT, {"after": after})
    assert response.url == game.get_absolute_url()


def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in(ann):
    cathedral(ann, 3)
    response = Client().get(NEXT)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_stranger_is_never_sent_to_another_players_game(ann):
    cathedral(ann, 3)
    response = client_for(make_user("carol")).get(NEXT, follow=True)
    assert response.redirect_chain == [(reverse("games:mine"), 302)]
    assert "No game is waiting for your move." in said(response)


def test_next_only_answers_a_get(ann):
    assert client_for(ann).post(NEXT).status_code == 405


# -- the offer on the game page -----------------------------------------------------------------


def test_after_a_move_over_htmx_the_offer_comes_out_of_band_with_the_other_games_count(
    ann, calendar
):
    here = cathedral(ann, 3)
    cathedral(ann, 7)
    sooner = cathedral(ann, 1)
    response = move(client_for(ann), here, **HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="live">')
    box = offer(response.text)
    assert 'hx-swap-oob="true"' in box
    assert f'href="/games/next/?after={here.pk}"' in box
    assert "Next game waiting for you (2)" in box
    assert client_for(ann).get(f"/games/next/?after={here.pk}").url == sooner.get_absolute_url()


def test_after_a_move_without_javascript_the_game_page_offers_the_next_game(ann, calendar):
    here = cathedral(ann, 3)
    cathedral(ann, 7)
    client = client_for(ann)
    response = move(client, here)
    assert response.status_code == 302
    assert response.url == here.get_absolute_url()
    box = offer(client.get(here.get_absolute_url()).text)
    assert f'href="/games/next/?after={here.pk}"' in box
    assert "Next game waiting for you (1)" in box
    assert "hx-swap-oob" not in box


def test_a_game_waiting_for_the_player_offers_nothing_but_keeps_the_empty_place(ann):
    here = cathedral(ann, 3)
    cathedral(ann, 7)
    box = offer(client_for(ann).get(here.get_absolute_url()).text)
    assert "/games/next/" not in box
    assert box.endswith("></div>")


def test_with_no_other_game_waiting_the_move_swaps_in_an_empty_offer(ann):
    here = cathedral(ann, 3)
    box = offer(move(client_for(ann), here, **HTMX).text)
    assert 'hx-swap-oob="true"' in box
    assert "/games/next/" not in box


def test_a_finished_game_offers_the_games_still_waiting(ann):
    over = cathedral(ann, 3)
    services.resign(over, ann)
    cathedral(ann, 7)
    box = offer(client_for(ann).get(over.get_absolute_url()).text)
    assert "Next game waiting for you (1)" in box


def test_the_opponent_and_spectators_never_see_a_players_offer(ann):
    bob = make_user("bob")
    here = cathedral(ann, 3, opponent=bob)
    cathedral(ann, 7)
    play(here, [placement(here)])
    assert "next-game" not in client_for(make_user("carol")).get(here.get_absolute_url()).text
    assert "next-game" not in Client().get(here.get_absolute_url()).text
    assert "/games/next/" not in offer(client_for(bob).get(here.get_absolute_url()).text)


# -- going on by itself ----------------------------------------------------------------------


def test_a_move_over_htmx_goes_on_to_the_most_urgent_game_for_a_player_who_chose_so(ann, calendar):
    choose_next_game_after_move(ann)
    here, sooner = cathedral(ann, 3), cathedral(ann, 1)
    cathedral(ann, 7)
    client = client_for(ann)
    response = move(client, here, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == sooner.get_absolute_url()
    here.refresh_from_db()
    assert here.seq == 1  # the move was made
    page = client.get(sooner.get_absolute_url())
    assert f"Your move in game {here.pk} was sent." in said(page)


def test_a_move_without_javascript_goes_on_to_the_most_urgent_game(ann, calendar):
    choose_next_game_after_move(ann)
    here, sooner = cathedral(ann, 3), cathedral(ann, 1)
    client = client_for(ann)
    response = move(client, here)
    assert response.status_code == 302
    assert response.url == sooner.get_absolute_url()
    assert f"Your move in game {here.pk} was sent." in said(client.get(response.url))


def test_a_player_who_did_not_choose_so_stays_on_the_game(ann):
    here = cathedral(ann, 3)
    cathedral(ann, 1)
    client = client_for(ann)
    assert "HX-Redirect" not in move(client, here, **HTMX)
    other = cathedral(ann, 3)
    assert move(client, other).url == other.get_absolute_url()


def test_with_no_other_game_waiting_the_move_stays_on_the_game(ann):
    choose_next_game_after_move(ann)
    here = cathedral(ann, 3)
    response = move(client_for(ann), here, **HTMX)
    assert "HX-Redirect" not in response
    assert response.text.lstrip().startswith('<div id="live">')


def test_only_the_action_that_ends_a_basilica_turn_goes_on(ann):
    choose_next_game_after_move(ann)
    here = started_game(ann, make_user(), time_control="3d")
    waiting = cathedral(ann, 7)
    client = client_for(ann)
    for _ in range(2):  # a turn is three actions: the first two leave the decision with ann
        response = move(client, here, first_legal(here), **HTMX)
        assert "HX-Redirect" not in response
        here.refresh_from_db()
        assert here.to_decide == 0
    response = move(client, here, first_legal(here), **HTMX)
    assert response["HX-Redirect"] == waiting.get_absolute_url()


def test_a_move_that_ends_the_game_goes_on_and_says_the_game_is_over(ann):
    choose_next_game_after_move(ann)
    options = basilica.Options()

    def last_action_ahead(state):
        return basilica.apply_action(state, basilica.legal_actions(state)[0]).finished

    seed, actions = search_position(options, last_action_ahead)
    position = basilica.replay(options, seed, actions)
    seats = {"seat0": ann, "seat1": make_user()}
    if position.to_decide == 1:
        seats = {"seat0": make_user(), "seat1": ann}
    ending = game_from_log(options, seed, actions, **seats)
    waiting = cathedral(ann, 7)
    client = client_for(ann)
    response = move(client, ending, first_legal(ending))
    ending.refresh_from_db()
    assert ending.status == Game.Status.FINISHED
    assert response.url == waiting.get_absolute_url()
    assert f"Your move in game {ending.pk} was sent: that game is over." in said(
        client.get(response.url)
    )


def test_a_live_game_never_goes_on_by_itself(ann):
    choose_next_game_after_move(ann)
    here = started_game(ann, make_user(), kind="cathedral", time_control="10+5")
    cathedral(ann, 1)
    assert move(client_for(ann), here).url == here.get_absolute_url()


def test_a_game_against_the_computer_never_goes_on_by_itself(ann):
    choose_next_game_after_move(ann)
    # The bot answers once the move is committed, which a test's transaction never is: the
    # game waits for it here, as it does for the second the bot thinks.
    terms = services.GameSettings(kind="cathedral", first="me", options={})
    here = computer.play_the_computer(ann, terms, "random")
    cathedral(ann, 1)
    assert move(client_for(ann), here).url == here.get_absolute_url()


def test_the_choice_is_on_the_playing_settings_form(ann):
    client = client_for(ann)
    page = client.get(reverse("settings")).text
    form = page.split('id="play-settings"', 1)[1].split("</form>", 1)[0]
    assert "After a move that ends my turn, go to the next game waiting for me" in form
    client.post(
        reverse("settings-play"), {"confirm_moves": "correspondence", "next_game_after_move": "on"}
    )
    assert PlayerSettings.of(ann).next_game_after_move


# -- My games -----------------------------------------------------------------------------------


def rows_of(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<td class="game-number"><a href="/games/(\d+)/">', page)]


def test_my_games_lists_the_most_urgent_first_and_untimed_games_after(ann, calendar):
    bob = make_user("bob")
    untimed, week, day = cathedral(ann, None, bob), cathedral(ann, 7, bob), cathedral(ann, 1, bob)
    theirs_later, theirs_sooner = cathedral(ann, 5, bob), cathedral(ann, 2, bob)
    theirs_untimed = cathedral(ann, None, bob)
    for game in (theirs_untimed, theirs_sooner, theirs_later):
        play(game, [placement(game)])
    seeking = open_game(ann)
    page = client_for(ann).get(reverse("games:mine")).text
    assert rows_of(page) == [
        g.pk for g in (day, week, untimed, theirs_sooner, theirs_later, theirs_untimed, seeking)
    ]


def test_my_games_says_who_moved_last_and_how_long_ago(ann, calendar):
    bob = make_user("bob")
    mine, theirs = cathedral(ann, 3, bob), cathedral(ann, 3, bob)
    calendar.shift(timedelta(hours=1))
    play(theirs, [placement(theirs)])  # ann moves
    calendar.shift(timedelta(hours=2))
    play(theirs, [placement(theirs)])  # bob answers...
    play(theirs, [placement(theirs)])  # ...and ann again
    play(mine, [placement(mine)])  # ann
    calendar.shift(timedelta(days=2))
    play(mine, [placement(mine)])  # bob
    fresh = cathedral(ann, 3, bob)
    seeking = open_game(ann)
    calendar.shift(timedelta(hours=3))
    page = client_for(ann).get(reverse("games:mine")).text
    words = dict(
        re.findall(
            r'href="/games/(\d+)/">.*?<td class="last-activity"><time[^>]*>([^<]*)<', page, re.S
        )
    )
    assert words[str(mine.pk)] == "bob moved 3 hours ago"
    assert words[str(theirs.pk)] == "you moved 2 days ago"
    assert words[str(fresh.pk)] == "started 3 hours ago"
    assert words[str(seeking.pk)] == "opened 3 hours ago"


def test_my_games_says_the_last_activity_in_the_players_language(ann, calendar):
    PlayerSettings.objects.filter(pk=vacation.settings_for(ann).pk).update(language="fr")
    game = cathedral(ann, 3)
    play(game, [placement(game)])
    calendar.shift(timedelta(hours=3))
    page = client_for(ann).get(reverse("games:mine")).text
    assert "vous avez joué il y a 3 heures" in page
    assert "Dernière activité" in page


def test_my_games_keeps_the_deadline_in_the_players_zone(ann, calendar):
    PlayerSettings.objects.filter(pk=vacation.settings_for(ann).pk).update(
        time_zone="Europe/Warsaw"
    )
    cathedral(ann, 1)
    page = client_for(ann).get(reverse("games:mine")).text
    deadline = START + timedelta(days=1)
    assert f'<time datetime="{deadline:%Y-%m-%d}T10:00:00+01:00">4 Mar, 10:00 CET</time>' in page


# Outside a test's transaction, as a request runs: a live clock's decisions are kept in memory
# only once read outside one (games.play.timing.decisions).
@pytest.mark.django_db(transaction=True)
def test_my_games_asks_no_more_of_the_database_for_twenty_games_than_for_two(
    ann, django_assert_max_num_queries
):
    def some_games(count):
        for number in range(count):
            clock = ("3d", "10+5", "none")[number % 3]
            kind = ("basilica", "cathedral")[number % 2]
            game = started_game(ann, make_user(), kind=kind, time_control=clock)
            if number % 4 == 0:
                play(game, [first_legal(game) if kind == "basilica" else placement(game)])

    client = client_for(ann)
    some_games(2)
    client.get(reverse("games:mine"))  # the small boards are drawn once, then kept
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games:mine"))
    two = len(queries)  # read now: the log is cleared at the next request
    some_games(18)
    client.get(reverse("games:mine"))
    with django_assert_max_num_queries(two):
        page = client.get(reverse("games:mine")).text
    assert len(rows_of(page)) == 20


def test_my_games_reads_each_clock_as_the_game_page_does_through_vacations(
    ann, calendar, django_capture_on_commit_callbacks
):
    """A day of vacation spent to save one game, then a move elsewhere that ends the vacation:
    the saved game's clock stands still to the end of its day, the others run again. The list
    reads all the clocks at once; each must read as the game alone reads."""

    def one_action(game):
        return play(game, [first_legal(game)])  # the first of three: ann still decides

    saved = one_action(started_game(ann, make_user(), time_control="3d"))
    calendar.shift(timedelta(days=2))
    elsewhere = started_game(ann, make_user(), time_control="3d")
    waiting = one_action(started_game(ann, make_user(), time_control="5d"))
    erin = make_user("erin")
    theirs = whole_turn(started_game(ann, erin, time_control="3d"))
    calendar.shift(timedelta(days=1, minutes=1))
    tasks.sweep()  # a day is spent to save the first game
    calendar.shift(timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        one_action(elsewhere)
        vacation.start(erin, 2)
    calendar.shift(timedelta(hours=5))

    page = client_for(ann).get(reverse("games:mine")).text
    listed = dict(
        re.findall(r'href="/games/(\d+)/">.*?<td class="time-left">([^<]*)</td>', page, re.S)
    )
    for game in (saved, elsewhere, waiting, theirs):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        reading = timing.read(game)
        assert listed[str(game.pk)] == game.clock_control.show(reading.remaining[reading.running])
    assert len(set(listed.values())) == 4
