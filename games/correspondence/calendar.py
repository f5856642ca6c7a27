"""A player's deadlines as a calendar feed (iCalendar, RFC 5545), for their phone to warn them.

The feed's address holds a secret (``PlayerSettings.calendar_token``): whoever has it may read
the feed, so it says only what a player's list of games says (opponent, game, whose move, when
the clock runs out), never the position. Each running correspondence game with a deadline is
one event at that deadline; its UID names the game, not the deadline, so that a calendar moves
the event after each move instead of adding another.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import translation
from django.utils.translation import gettext as _
from icalendar import Alarm, Calendar, Event, vDuration

from games.correspondence.notify import absolute
from games.models import Action, Game, PlayerSettings, player_name
from games.play import vacation

TOKEN_BYTES = 32  # 43 characters of URL-safe base64, the column's length
REFRESH = timedelta(minutes=15)  # how often a calendar should ask again, if it listens
LENGTH = timedelta(minutes=15)  # an event's length: a deadline is a moment
WARNING = timedelta(hours=1)  # the alarm before one's own deadline


# -- the secret ---------------------------------------------------------------------------------


def new_address(user) -> str:
    """Give the player a feed with a new secret; a former address stops working at once."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    row = vacation.settings_for(user)
    PlayerSettings.objects.filter(pk=row.pk).update(calendar_token=token)
    return token


def stop(user) -> None:
    """The player's feed is no more: its address is refused from now on."""
    PlayerSettings.objects.filter(user=user).update(calendar_token=None)


def owner_of(token: str) -> PlayerSettings | None:
    """The settings of the active player whose feed ``token`` opens, or None (no such feed,
    or one stopped or replaced: the same answer)."""
    return (
        PlayerSettings.objects.filter(calendar_token=token, user__is_active=True)
        .select_related("user")
        .first()
    )


# -- the feed -----------------------------------------------------------------------------------


def feed_of(prefs: PlayerSettings) -> bytes:
    """The player's calendar, in the language they are written to."""
    with translation.override(prefs.speaks()):
        return deadlines(prefs.user).to_ical()


def deadlines(user) -> Calendar:
    """One event per running correspondence game of ``user`` whose clock runs toward a
    deadline, in the active language. One query, however many games."""
    name = _("Basilica: my deadlines")
    calendar = Calendar()
    calendar.add("prodid", "-//Basilica online//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))  # an X- property: typed by hand
    for game in running_with_deadlines(user):
        calendar.add_component(event_of(game, user))
    return calendar


def running_with_deadlines(user) -> list[Game]:
    last_move = Action.objects.filter(game=OuterRef("pk"), seq=OuterRef("seq")).values("created_at")
    games = (
        Game.objects.involving(user)
        .running()
        .exclude(deadline=None)
        .select_related("seat0", "seat1")
        .annotate(last_moved_at=Subquery(last_move[:1]))
        .order_by("deadline", "pk")
    )
    return [game for game in games if game.clock_control.correspondence]


def event_of(game: Game, user) -> Event:
    seat = game.seat_of(user)
    opponent = game.player(1 - seat)
    mine = game.to_decide == seat
    url = absolute(game.get_absolute_url())
    facts = {
        "opponent": player_name(opponent, missing=_("your opponent")),
        "kind": game.kind_title,
        "game": game.pk,
        "url": url,
    }
    if mine:
        summary = _("Your move against %(opponent)s — %(kind)s, game %(game)s") % facts
        about = _("Your time to move runs out at this moment. The game: %(url)s") % facts
    else:
        summary = _("%(opponent)s's move — %(kind)s, game %(game)s") % facts
        about = _("%(opponent)s's time to move runs out at this moment. The game: %(url)s") % facts
    changed = changed_at(game)
    event = Event()
    event.add("uid", f"game-{game.pk}@{host()}")
    event.add("dtstamp", changed)
    event.add("last-modified", changed)
    event.add("sequence", game.seq)
    event.add("summary", summary)
    event.add("description", about)
    event.add("url", url)
    event.add("dtstart", game.deadline)
    event.add("duration", LENGTH)
    event.add("transp", "TRANSPARENT")  # a deadline, not a meeting: the time stays free
    if mine:
        event.add_component(alarm())
    return event


def alarm() -> Alarm:
    warning = Alarm()
    warning.add("action", "DISPLAY")
    warning.add("description", _("Your move is due in an hour"))
    warning.add("trigger", -WARNING)
    return warning


def changed_at(game: Game) -> datetime:
    """When the game last changed for the feed: its last move, else its start."""
    return game.last_moved_at or game.started_at or game.created_at


def host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"
