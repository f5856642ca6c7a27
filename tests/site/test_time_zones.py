"""Every time in the viewer's own zone, named where it matters: a correspondence deadline read
by a player in Warsaw and one in Montréal across the weeks of 2026 when their clocks change on
different days (North America on 8 March, Europe on 29 March), and a visitor's zone taken from
the ``tz`` cookie their browser set."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user, started_game

from games.models import Game, PlayerSettings

pytestmark = pytest.mark.django_db

WARSAW, MONTREAL = "Europe/Warsaw", "America/Montreal"


def living_in(name: str, zone: str, language: str = ""):
    user = make_user(name)
    PlayerSettings.objects.update_or_create(
        user=user, defaults={"time_zone": zone, "language": language}
    )
    return user


def read(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def game_begun_at(moment: datetime, seat0, seat1, days: int = 3) -> Game:
    """A correspondence game begun at ``moment``: seat 0's clock runs out ``days`` later."""
    with time_machine.travel(moment, tick=False):
        return started_game(seat0, seat1, time_control=f"{days}d")


def test_a_deadline_after_europes_change_reads_in_summer_time_in_warsaw_and_montreal():
    """Begun on Friday 27 March 2026 at 10:00 UTC (11:00 CET in Warsaw, 06:00 EDT in Montréal,
    which changed on the 8th): the clock runs out on Monday 30 March at 10:00 UTC, after Warsaw's
    own change on Sunday the 29th: 12:00 CEST there, not the 11:00 its winter offset gives."""
    ola = living_in("ola", WARSAW)
    luc = living_in("luc", MONTREAL)
    game = game_begun_at(datetime(2026, 3, 27, 10, 0, tzinfo=UTC), ola, luc)
    assert game.deadline == datetime(2026, 3, 30, 10, 0, tzinfo=UTC)
    with time_machine.travel(datetime(2026, 3, 27, 12, 0, tzinfo=UTC), tick=False):
        olas_page = read(client_for(ola), game.get_absolute_url())
        lucs_page = read(client_for(luc), game.get_absolute_url())
        olas_list = read(client_for(ola), reverse("games:mine"))
        lucs_list = read(client_for(luc), reverse("games:mine"))
    assert "Runs out on 30 Mar, 12:00 CEST" in olas_page
    assert "Runs out on 30 Mar, 06:00 EDT" in lucs_page
    assert '<time datetime="2026-03-30T12:00:00+02:00">30 Mar, 12:00 CEST</time>' in olas_list
    assert '<time datetime="2026-03-30T06:00:00-04:00">30 Mar, 06:00 EDT</time>' in lucs_list
    assert "UTC" not in olas_page.split('<p class="deadline">', 1)[1].split("</p>", 1)[0]


def test_a_deadline_after_north_americas_change_reads_in_summer_time_in_montreal_only():
    """Begun on Friday 6 March 2026 at 15:00 UTC (10:00 EST in Montréal): three days later,
    Monday 9 March at 15:00 UTC, Montréal has moved to EDT (11:00) while Warsaw keeps CET."""
    ola = living_in("ola", WARSAW)
    luc = living_in("luc", MONTREAL)
    game = game_begun_at(datetime(2026, 3, 6, 15, 0, tzinfo=UTC), luc, ola)
    with time_machine.travel(datetime(2026, 3, 7, 9, 0, tzinfo=UTC), tick=False):
        lucs_page = read(client_for(luc), game.get_absolute_url())
        olas_page = read(client_for(ola), game.get_absolute_url())
    assert "Runs out on 9 Mar, 11:00 EDT" in lucs_page
    assert "Runs out on 9 Mar, 16:00 CET" in olas_page


def test_a_deadline_is_said_in_the_players_language_and_zone_together():
    ola = living_in("ola", WARSAW, "pl")
    luc = living_in("luc", MONTREAL, "fr")
    game = game_begun_at(datetime(2026, 3, 27, 10, 0, tzinfo=UTC), ola, luc)
    with time_machine.travel(datetime(2026, 3, 27, 12, 0, tzinfo=UTC), tick=False):
        olas_page = read(client_for(ola), game.get_absolute_url())
        lucs_list = read(client_for(luc), reverse("games:mine"))
    assert "Upływa 30 marca, 12:00 CEST" in olas_page
    assert ">30 mars, 06:00 EDT</time>" in lucs_list
    assert "Expire le" in lucs_list


def test_a_spectator_is_shown_no_deadline_a_push_to_many_zones_would_share():
    ola = living_in("ola", WARSAW)
    game = game_begun_at(datetime(2026, 3, 27, 10, 0, tzinfo=UTC), ola, make_user("bob"))
    with time_machine.travel(datetime(2026, 3, 27, 12, 0, tzinfo=UTC), tick=False):
        page = read(client_for(make_user("carol")), game.get_absolute_url())
    assert "Runs out on" not in page
    assert "2 days 22 hours" in page  # the time left, which reads the same in every zone


# -- a visitor's zone: their browser's, kept in the tz cookie -------------------------------------


def finished_late(seat0, seat1) -> Game:
    """A game that ended on Sunday 29 March 2026 at 23:30 UTC: already Monday in Warsaw,
    still Sunday evening in Montréal."""
    game = started_game(seat0, seat1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        winners=[0],
        scores=[40, 30],
        termination="third scoring",
        to_decide=None,
        finished_at=datetime(2026, 3, 29, 23, 30, tzinfo=UTC),
    )
    return game


@pytest.mark.parametrize(
    ("zone", "day", "offset"),
    [
        (WARSAW, "2026-03-30", "+02:00"),
        (MONTREAL, "2026-03-29", "-04:00"),
        (None, "2026-03-29", "+00:00"),
    ],
)
def test_a_visitors_tz_cookie_sets_the_day_a_game_ended(zone, day, offset):
    ann = make_user("ann")
    finished_late(ann, make_user("bob"))
    visitor = Client()
    if zone:
        visitor.cookies["tz"] = zone
    page = read(visitor, reverse("history", args=["ann"]))
    assert f'datetime="{day}T' in page
    assert f'{offset}">{day}</time>' in page


def test_a_visitors_record_of_a_game_names_their_zone_and_its_times_in_it():
    game = finished_late(make_user("ann"), make_user("bob"))
    visitor = Client()
    visitor.cookies["tz"] = MONTREAL
    text = visitor.get(reverse("games:record-text", args=[game.pk])).content.decode()
    assert "Finished: 2026-03-29 19:30 America/Montreal" in text
    assert "Actions (times in America/Montreal):" in text


def test_a_cookie_naming_no_zone_is_ignored():
    ann = make_user("ann")
    finished_late(ann, make_user("bob"))
    visitor = Client()
    visitor.cookies["tz"] = "Mars/Olympus_Mons"
    page = read(visitor, reverse("history", args=["ann"]))
    assert '+00:00">2026-03-29</time>' in page


def test_a_players_own_zone_wins_over_the_cookie_of_the_browser_they_use():
    ola = living_in("ola", WARSAW)
    game = game_begun_at(datetime(2026, 3, 27, 10, 0, tzinfo=UTC), ola, make_user("bob"))
    client = client_for(ola)
    client.cookies["tz"] = MONTREAL
    with time_machine.travel(datetime(2026, 3, 27, 12, 0, tzinfo=UTC), tick=False):
        page = read(client, game.get_absolute_url())
    assert "Runs out on 30 Mar, 12:00 CEST" in page
    assert timedelta(0) < game.deadline - datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
