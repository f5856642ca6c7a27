"""A tournament's news for its players, through the site's notifications
(``games.correspondence.notify``): a game of theirs starts, and the tournament is over, with
their place. Once each: the keys name the game and the tournament."""

from __future__ import annotations

from django.urls import reverse

from games.correspondence import notify
from games.models import Entry, Game, Notification, Tournament, player_name

Kind = Notification.Kind


def game_starts(tournament: Tournament, game: Game) -> None:
    """Both players of a new tournament game are told (the first player's "your turn" follows
    as for any game)."""
    for user in (game.seat0, game.seat1):
        key = f"{Kind.TOURNAMENT_GAME}:{game.pk}:{user.pk}"
        notify.queue(
            user, Kind.TOURNAMENT_GAME, game, key, tournament=tournament, page=_page(tournament)
        )


def tournament_over(tournament: Tournament, entry: Entry) -> None:
    winners = tournament.entries.filter(place=1).select_related("user")
    key = f"{Kind.TOURNAMENT_OVER}:{tournament.pk}"
    notify.queue(
        entry.user,
        Kind.TOURNAMENT_OVER,
        None,
        key,
        tournament=tournament,
        place=entry.place,
        players=tournament.entries.count(),
        winners=", ".join(player_name(w.user) for w in winners),
        page=_page(tournament),
    )


def _page(tournament: Tournament) -> str:
    return notify.absolute(reverse("games:tournament", args=[tournament.pk]))
