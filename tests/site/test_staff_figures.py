"""The staff's page of the site's figures (`/admin/figures/`): the last day hour by hour as small
charts a screen reader can read too, and the queues now; the staff only."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from factories import (
    client_for,
    first_legal,
    make_staff,
    make_user,
    play,
    player,
    staff_client_for,
    started_game,
)

from games import tasks

pytestmark = pytest.mark.django_db

FIGURES = reverse("site-figures")


@pytest.fixture
def staff():
    return staff_client_for(make_staff())


def moves(game, count: int):
    for _ in range(count):
        game = play(game, [first_legal(game)])
    return game


def test_the_staff_page_shows_the_hours_moves(calendar, staff):
    moves(started_game(), 3)  # at 09:00 UTC, the calendar's hour
    calendar.shift(timedelta(hours=2))
    moves(started_game(), 1)

    page = staff.get(FIGURES).content.decode()

    assert "<title>09:00: 3 moves</title>" in page
    assert "<title>10:00: 0 moves</title>" in page
    assert "<title>11:00: 1 move</title>" in page
    assert "In the last 24 hours: 4; in the busiest hour: 3." in page
    assert "<title>09:00: 2 games begun</title>" not in page  # one each hour
    assert "<title>09:00: 1 game begun</title>" in page
    # The same figures in the table, for those who do not see the charts.
    row = re.search(r'<th scope="row">09:00</th>((?:<td>\d+</td>)+)', page)
    assert row is not None
    assert re.findall(r"<td>(\d+)</td>", row[1]) == ["3", "1", "0", "0", "0"]


def test_a_game_ended_on_time_shows_in_its_hour(calendar, staff):
    game = started_game(player("ann"), player("bob"), time_control="1d")
    calendar.shift(timedelta(days=2))  # 09:00 two days later: the first move never came
    tasks.sweep()
    game.refresh_from_db()
    assert game.termination == "abandoned"
    page = staff.get(FIGURES).content.decode()
    assert "<title>09:00: 1 game ended on time</title>" in page
    assert "<title>09:00: 0 games begun</title>" in page  # begun two days ago: not this day


def test_the_queues_and_the_workers_last_sweep_are_told(calendar, staff):
    page = staff.get(FIGURES).content.decode()
    assert "0 tasks waiting on the light queue" in page
    assert "No minute sweep has run yet" in page

    tasks.sweep_every_minute()
    calendar.shift(timedelta(seconds=42))
    page = staff.get(FIGURES).content.decode()
    assert "The last minute sweep ran 42 seconds ago." in page


def test_each_chart_is_an_image_named_by_its_title_and_drawn_to_the_pages_width(staff):
    page = staff.get(FIGURES).content.decode()
    charts = re.findall(
        r'<figure class="site-figure">.*?(<svg [^>]*>)\s*<title[^>]*>([^<]+)<', page, re.S
    )
    assert [title for _, title in charts] == [
        "Moves",
        "Games begun",
        "Games ended on time",
        "Emails sent",
        "Emails failed",
    ]
    for svg, _ in charts:
        assert 'role="img"' in svg
        assert 'width="100%"' in svg  # no sideways scroll on a phone: the viewBox scales
        assert "viewBox=" in svg
        ids = re.search(r'aria-labelledby="([^"]+)"', svg)[1].split()
        assert all(f'id="{name}"' in page for name in ids)


def test_the_admin_index_leads_to_it(staff):
    assert f'href="{FIGURES}"' in staff.get(reverse("admin:index")).content.decode()


def test_a_player_is_refused_as_the_admin_refuses_them():
    answer = client_for(make_user("alice")).get(FIGURES)
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("admin:login"))
    assert Client().get(FIGURES)["Location"].startswith(reverse("admin:login"))
