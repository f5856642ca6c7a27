"""What a tournament's games have given so far: each pairing's score, each player's games lost
on time. Read from the games themselves; the running tournament records them in its pairings
(``games.tournaments.running``)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from django.db.models import Q

from games.models import Ending, Game, Pairing, Tournament
from games.play import series as series_table
from games.tournaments.pairing import DRAW, LOSS, WIN


def score_of(pairing: Pairing) -> Fraction | None:
    """The first player's score in ``pairing``'s game (or series), once it is over: 1, ½ or 0.

    A game a player aborted by hand, or abandoned without a first move, is lost by them (a
    tournament game has no "no result"); a game the admin aborted has no score: the admin
    replaces it or cancels the tournament. None while the game is played."""
    if pairing.bye:
        return WIN
    game = pairing.game
    if game is None:
        return None
    if game.series_id is not None:
        return _series_score(pairing, game)
    return _game_score(game, pairing.first_id)


def _game_score(game: Game, first_id: int) -> Fraction | None:
    if not game.over:
        return None
    seat = 0 if game.seat0_id == first_id else 1
    if game.status == Game.Status.ABORTED:
        if game.ended_by is None or game.termination == Ending.REFEREE:
            return None
        return LOSS if game.ended_by == seat else WIN
    if sorted(game.winners) == [0, 1]:
        return DRAW
    if game.winners == [seat]:
        return WIN
    return LOSS if game.winners else DRAW


def _series_score(pairing: Pairing, first: Game) -> Fraction | None:
    """A Cathedral series counts as one game: its result is the series' (an aborted game ends
    it where it stands; aborted before any game finished, it is lost by whoever aborted)."""
    table = series_table.standings(first.series)
    if not table["over"]:
        return None
    winners = {user.pk for user in table["winners"]}
    if not winners:
        aborted = [row["game"] for row in table["rows"] if row["game"].over]
        return _game_score(aborted[-1], pairing.first_id) if aborted else None
    if winners == {pairing.first_id, pairing.second_id}:
        return DRAW
    return WIN if pairing.first_id in winners else LOSS


def games_of(tournament: Tournament):
    """Every game of ``tournament``: its pairings' games and the later games of their series."""
    firsts = Pairing.objects.filter(tournament=tournament, game__isnull=False)
    series = firsts.filter(game__series__isnull=False).values("game__series")
    return Game.objects.filter(Q(pairing__tournament=tournament) | Q(series__in=series))


def timeouts(tournament: Tournament) -> Counter:
    """Each player's games of ``tournament`` lost on time (a first move never made counts)."""
    lost = Counter()
    ended = games_of(tournament).filter(termination__in=Ending.OUT_OF_TIME, ended_by__isnull=False)
    for game in ended.only("seat0_id", "seat1_id", "ended_by"):
        lost[game.seat0_id if game.ended_by == 0 else game.seat1_id] += 1
    return lost
