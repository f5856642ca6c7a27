"""A player's deadlines in their phone's calendar: a feed at a secret address, made, renewed and
stopped in Settings, with one event per running correspondence game at its deadline, that moves
as moves are made, names opponent and game and never the position."""

from __future__ import annotations

import re
from datetime import timedelta

import icalendar
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from factories import (
    START,
    client_for,
    finished_game,
    first_legal,
    make_user,
    open_game,
    started_game,
    user_deciding,
)

from games.engine import cathedral
from games.models import Game, GameNote, PlayerSettings
from games.play import services, states

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOST = "127.0.0.1"  # settings.SITE_URL's, in the tests


@pytest.fixture
def ann():
    return make_user("ann")


@pytest.fixture
def bob():
    return make_user("bob")


def feed_address(user) -> str:
    """Ann's address, as Settings gives it after "Create my calendar feed"."""
    client_for(user).post(reverse("calendar-new"))
    token = PlayerSettings.objects.get(user=user).calendar_token
    return reverse("calendar-feed", args=[token])


def read_feed(address: str) -> icalendar.Calendar:
    response = Client().get(address)
    assert response.status_code == 200
    return icalendar.Calendar.from_ical(response.content)


def events_by_uid(calendar: icalendar.Calendar) -> dict[str, icalendar.Event]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def uid(game: Game) -> str:
    return f"game-{game.pk}@{HOST}"


def start(event: icalendar.Event):
    return event.decoded("DTSTART")


def decide(game: Game) -> Game:
    return services.submit_action(game, user_deciding(game), first_legal(game), game.seq)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# -- the feed's events --------------------------------------------------------------------------


def test_each_running_correspondence_game_is_one_event_at_its_deadline(calendar, ann, bob):
    three_days = started_game(ann, bob, time_control="3d")
    theirs = started_game(bob, ann, time_control="5d", kind="cathedral")
    started_game(ann, bob, time_control="10+5")  # live
    started_game(ann, bob, time_control="none")  # untimed
    finished_game(ann, bob, winners=[0], scores=[30, 20])
    open_game(ann, time_control="3d")

    events = events_by_uid(read_feed(feed_address(ann)))

    assert set(events) == {uid(three_days), uid(theirs)}
    assert start(events[uid(three_days)]) == START + 3 * DAY == fresh(three_days).deadline
    assert start(events[uid(theirs)]) == START + 5 * DAY == fresh(theirs).deadline


def test_the_feed_is_a_calendar_that_asks_to_be_read_again_every_quarter_hour(ann, bob):
    started_game(ann, bob, time_control="3d")

    response = Client().get(feed_address(ann))
    calendar = icalendar.Calendar.from_ical(response.content)

    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Cache-Control"] == "private, max-age=300"
    assert str(calendar["X-WR-CALNAME"]) == "Basilica: my deadlines"
    assert str(calendar["NAME"]) == "Basilica: my deadlines"
    assert calendar.decoded("REFRESH-INTERVAL") == timedelta(minutes=15)
    assert b"REFRESH-INTERVAL;VALUE=DURATION:PT15M" in response.content
    assert b"X-PUBLISHED-TTL:PT15M" in response.content


def test_a_calendar_app_may_ask_for_the_headers_first(ann):
    response = Client().head(feed_address(ann))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"


def test_a_move_moves_the_event_and_raises_its_sequence_under_the_same_uid(calendar, ann, bob):
    game = started_game(ann, bob, time_control="3d")
    address = feed_address(ann)
    before = events_by_uid(read_feed(address))[uid(game)]

    calendar.shift(DAY)
    game = decide(game)  # ann's first action: her turn goes on, her clock starts again

    after = events_by_uid(read_feed(address))[uid(game)]
    assert start(after) == START + DAY + 3 * DAY == fresh(game).deadline
    assert start(after) != start(before)
    assert after.decoded("SEQUENCE") > before.decoded("SEQUENCE")
    assert after.decoded("LAST-MODIFIED") == START + DAY


def test_my_deadline_says_it_is_my_move_and_warns_me_an_hour_before(ann, bob):
    game = started_game(ann, bob, time_control="3d")  # ann moves first

    event = events_by_uid(read_feed(feed_address(ann)))[uid(game)]

    assert str(event["SUMMARY"]) == f"Your move against bob — Basilica, game {game.pk}"
    [alarm] = event.walk("VALARM")
    assert alarm.decoded("TRIGGER") == -timedelta(hours=1)
    assert str(alarm["DESCRIPTION"]) == "Your move is due in an hour"


def test_the_opponents_deadline_says_it_is_their_move_and_rings_no_alarm(ann, bob):
    game = started_game(bob, ann, time_control="3d")  # bob moves first

    event = events_by_uid(read_feed(feed_address(ann)))[uid(game)]

    assert str(event["SUMMARY"]) == f"bob's move — Basilica, game {game.pk}"
    assert event.walk("VALARM") == []


def test_each_event_links_to_its_game(ann, bob):
    game = started_game(ann, bob, time_control="3d")

    event = events_by_uid(read_feed(feed_address(ann)))[uid(game)]

    page = f"http://{HOST}:8000/games/{game.pk}/"
    assert str(event["URL"]) == page
    assert page in str(event["DESCRIPTION"])


def test_an_opponents_vacation_moves_the_event_past_it(
    calendar, ann, bob, django_capture_on_commit_callbacks
):
    game = started_game(bob, ann, time_control="3d")  # bob's clock runs
    address = feed_address(ann)

    with django_capture_on_commit_callbacks(execute=True):
        client_for(bob).post(reverse("vacation-start"), {"days": 2})

    assert start(events_by_uid(read_feed(address))[uid(game)]) == START + 5 * DAY


# -- what the feed never says -------------------------------------------------------------------


def test_the_feed_names_no_piece_no_seed_and_no_note(calendar, ann, bob):
    basilica = started_game(ann, bob, seed=987654321, time_control="3d")
    basilica = decide(decide(basilica))
    city = started_game(ann, bob, seed=123456789, time_control="3d", kind="cathedral")
    for _ in range(4):
        move = cathedral.legal_actions(states.load_state(city))[0].to_json()
        city = services.submit_action(city, user_deciding(city), move, city.seq)
    GameNote.objects.create(game=basilica, user=ann, text="bob fears the Jester")
    GameNote.objects.create(game=city, user=bob, text="ann leaves the corner open")

    text = Client().get(feed_address(ann)).content.decode()

    assert len(events_by_uid(icalendar.Calendar.from_ical(text))) == 2
    secrets = ["987654321", "123456789", "seed", "fears", "corner", "Jester", "vault", "Builder"]
    buildings = ["Tavern", "Stable", "Inn", "Bridge", "Manor", "Abbey", "Castle", "Tower"]
    for word in secrets + buildings:
        assert not re.search(rf"\b{word}\b", text, re.IGNORECASE), word


def test_another_players_feed_never_shows_my_games(ann, bob):
    cid, dan = make_user("cid"), make_user("dan")
    mine = started_game(ann, bob, time_control="3d")
    theirs = started_game(cid, dan, time_control="3d")

    events = events_by_uid(read_feed(feed_address(cid)))

    assert set(events) == {uid(theirs)}
    assert uid(mine) not in events


def test_a_polish_players_calendar_speaks_polish_whoever_reads_it(ann, bob):
    PlayerSettings.objects.update_or_create(user=ann, defaults={"language": "pl"})
    game = started_game(ann, bob, time_control="3d")
    with translation.override("pl"):
        name = translation.gettext("Basilica: my deadlines")
        due = translation.gettext("Your move is due in an hour")
    assert name != "Basilica: my deadlines"

    response = Client(headers={"accept-language": "fr"}).get(feed_address(ann))
    calendar = icalendar.Calendar.from_ical(response.content)

    assert str(calendar["X-WR-CALNAME"]) == name
    assert response["Content-Language"] == "pl"
    [alarm] = events_by_uid(calendar)[uid(game)].walk("VALARM")
    assert str(alarm["DESCRIPTION"]) == due


def test_the_feed_asks_the_database_as_often_for_twenty_games_as_for_two(ann):
    address = feed_address(ann)

    def queries_for(games: int) -> int:
        for _ in range(games):
            started_game(ann, make_user(), time_control="3d")
        with CaptureQueriesContext(connection) as queries:
            read_feed(address)
        return len(queries)

    assert queries_for(2) == queries_for(18)


# -- the secret address -------------------------------------------------------------------------


def test_a_wrong_address_is_not_found(ann):
    feed_address(ann)

    assert Client().get(reverse("calendar-feed", args=["x" * 43])).status_code == 404


def test_a_stopped_feed_is_not_found(ann, bob):
    started_game(ann, bob, time_control="3d")
    address = feed_address(ann)

    client_for(ann).post(reverse("calendar-stop"))

    assert Client().get(address).status_code == 404
    assert PlayerSettings.objects.get(user=ann).calendar_token is None


def test_a_new_address_stops_the_former_one_at_once(ann, bob):
    game = started_game(ann, bob, time_control="3d")
    former = feed_address(ann)

    client_for(ann).post(reverse("calendar-new"))

    token = PlayerSettings.objects.get(user=ann).calendar_token
    assert Client().get(former).status_code == 404
    assert uid(game) in events_by_uid(read_feed(reverse("calendar-feed", args=[token])))


def test_the_secret_is_long_and_url_safe(ann):
    token = feed_address(ann).removeprefix("/calendar/").removesuffix(".ics")

    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)


def test_a_deactivated_players_feed_is_not_found(ann):
    address = feed_address(ann)
    ann.is_active = False
    ann.save()

    assert Client().get(address).status_code == 404


@pytest.mark.parametrize("name", ["calendar-new", "calendar-stop"])
def test_the_settings_buttons_need_a_login(ann, name):
    address = feed_address(ann)

    response = Client().post(reverse(name))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Client().get(address).status_code == 200


@pytest.mark.parametrize("name", ["calendar-new", "calendar-stop"])
def test_the_settings_buttons_refuse_a_get(ann, name):
    address = feed_address(ann)

    assert client_for(ann).get(reverse(name)).status_code == 405
    assert Client().get(address).status_code == 200


@pytest.mark.parametrize("name", ["calendar-new", "calendar-stop"])
def test_the_settings_buttons_refuse_a_post_from_another_site(ann, name):
    address = feed_address(ann)
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)

    assert client.post(reverse(name)).status_code == 403
    assert Client().get(address).status_code == 200


# -- the settings card --------------------------------------------------------------------------


def test_settings_offers_a_feed_to_a_player_who_has_none(ann):
    page = client_for(ann).get(reverse("settings")).content.decode()

    assert "Create my calendar feed" in page
    assert ".ics" not in page


def test_settings_shows_the_address_to_copy_and_the_webcal_link(ann):
    address = feed_address(ann)

    response = client_for(ann).get(reverse("settings"))
    page = response.content.decode()

    assert f'value="http://testserver{address}"' in page
    assert f'href="webcal://testserver{address}"' in page
    assert "New address" in page
    assert "Stop the feed" in page
    assert "Create my calendar feed" not in page


def test_creating_the_feed_comes_back_to_settings_and_says_so(ann):
    response = client_for(ann).post(reverse("calendar-new"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("settings") + "#calendar"
    assert "Your calendar feed is ready" in response.content.decode()


def test_no_other_player_sees_my_address_in_their_settings(ann, bob):
    address = feed_address(ann)

    assert address not in client_for(bob).get(reverse("settings")).content.decode()
