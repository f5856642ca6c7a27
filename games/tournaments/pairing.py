"""Who plays whom in a tournament, and who stands where: pure functions of the results so far.

Scores count in points: 1 a win, ½ a shared result, 0 a loss; a bye is worth one point. A game
has a first player (who opens, seat 0) and a second. Cathedral's series counts as one game: its
result is the series'.

- ``round_robin``: everyone meets everyone once, in rounds of Berger's tables (with an odd number
  of players, one sits out each round: the bye).
- ``swiss_round``: the next Swiss round by the usual rules: no rematch, players of the same score
  meet where they can (a player floats to the nearest score group when they cannot), first moves
  balanced, a bye (one point) for an odd number, never twice to the same player, and two players
  of whom one blocked the other kept apart where the round allows. The pairs are a
  maximum-weight matching (networkx), not a hand search.
- ``standings``: points, then the tiebreak: Sonneborn-Berger for a round robin, Buchholz for a
  Swiss.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

BYE = None
WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


@dataclass(frozen=True)
class Game:
    """A game of the tournament, or a bye when ``second`` is None. ``score`` is the first
    player's (1, ½ or 0), None while the game is being played; a bye scores 1."""

    round: int
    first: int
    second: int | None
    score: Fraction | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    def points(self, player: int) -> Fraction:
        """What ``player`` scored in this game (0 while it is being played)."""
        if self.bye:
            return WIN if player == self.first else LOSS
        if self.score is None:
            return LOSS
        return self.score if player == self.first else 1 - self.score

    def opponent(self, player: int) -> int | None:
        return self.second if player == self.first else self.first


@dataclass
class Record:
    """One player's tournament so far."""

    player: int
    points: Fraction = Fraction(0)
    opponents: list[int] = field(default_factory=list)
    firsts: int = 0
    seconds: int = 0
    last_seat: int | None = None
    byes: int = 0

    @property
    def balance(self) -> int:
        """Games as first player less games as second: kept within one by the pairing."""
        return self.firsts - self.seconds


def records(players: Iterable[int], games: Iterable[Game]) -> dict[int, Record]:
    """Each player's points, opponents, first moves and byes from ``games``."""
    table = {player: Record(player) for player in players}
    for game in sorted(games, key=lambda g: g.round):
        first = table.get(game.first)
        if game.bye:
            if first:
                first.points += WIN
                first.byes += 1
            continue
        second = table.get(game.second)
        for record, seat in ((first, 0), (second, 1)):
            if record is None:
                continue
            record.points += game.points(record.player)
            record.opponents.append(game.opponent(record.player))
            record.last_seat = seat
            if seat == 0:
                record.firsts += 1
            else:
                record.seconds += 1
    return table


def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin of ``players`` (in seeding order): pairs (first, second),
    and (player, None) for the one who sits out when the number is odd. Berger's tables: the
    circle method, the last player fixed, so that everyone plays first about as often as
    second."""
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(BYE)
    n = len(seats)
    rounds = []
    for number in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if i == 0 and number % 2:
                a, b = b, a  # the fixed player changes side each round
            if a is BYE:
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
        seats = [seats[-2], *seats[:-2], seats[-1]]  # all but the last turn one place
    return rounds


# The weights of the Swiss matching, largest first: a pair that would be a rematch has no edge
# at all; every pair is worth PAIRED, so that as many players as possible are paired; from
# that, a pair loses SCORE_GAP for each half point squared between the two scores (players of
# one score group meet first, and a floater goes to the nearest group), COLOUR_BREAK if one of
# the two would have two more first moves than second moves (or the reverse), and SAME_DUE if
# both were due the same seat. Breaking the colours costs more than any gap of fewer than four
# points: first moves stay within one of second moves wherever a pairing without a rematch
# allows it (stricter than FIDE's two), and within that, score groups meet.
# The bye is a node of the matching too, as an opponent with no points for whoever has not had
# one, the lowest placed preferred (BYE_PLACE a place below), so that choosing it never leaves
# the others without a pairing. Two players of whom one blocked the other are no pair at all,
# unless the round cannot pair everyone without them: then each such pair loses APART.
PAIRED = 10**9
APART = 10**8
SCORE_GAP = 10**5
COLOUR_BREAK = 5 * 10**6
SAME_DUE = 10**3
BYE_PLACE = 1
SITS_OUT = "bye"


class NoPairing(ValueError):
    """The round cannot be paired without a rematch: the tournament has run out of opponents."""


def swiss_round(
    number: int,
    players: Sequence[int],
    games: Iterable[Game],
    ratings: dict[int, float],
    apart: Collection[frozenset[int]] = (),
) -> list[Game]:
    """Round ``number`` of a Swiss tournament between ``players`` (those still in it), after
    ``games`` (every earlier game, byes included): the new games, each with its first player,
    and the bye (``second`` None) when the number is odd. The pairs of ``apart`` (one blocked
    the other) meet only if nothing else pairs everyone."""
    games = list(games)
    table = records(players, games)
    rank = sorted(players, key=lambda p: (-table[p].points, -ratings.get(p, 0), p))
    place = {player: index for index, player in enumerate(rank)}
    graph = _candidates(rank, table, place, apart, with_apart=False)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if apart and 2 * len(matching) != graph.number_of_nodes():
        # Nothing else pairs everyone: the pairs kept apart may meet, each at a loss.
        graph = _candidates(rank, table, place, apart, with_apart=True)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise NoPairing(f"round {number} cannot be paired without a rematch or a second bye")
    byes = [Game(number, _sitting_out(pair), None, WIN) for pair in matching if SITS_OUT in pair]
    matching = [pair for pair in matching if SITS_OUT not in pair]
    pairs = [_seated(table[a], table[b], place) for a, b in matching]
    pairs.sort(key=lambda pair: min(place[pair[0]], place[pair[1]]))
    return [Game(number, first, second) for first, second in pairs] + byes


def _candidates(
    rank: list[int],
    table: dict[int, Record],
    place: dict[int, int],
    apart: Collection[frozenset[int]],
    with_apart: bool,
) -> nx.Graph:
    """Every pair the round may make, weighed (the bye as an opponent); the pairs of ``apart``
    left out, or ``with_apart`` in at a loss."""
    graph = nx.Graph()
    graph.add_nodes_from(rank)
    for i, a in enumerate(rank):
        for b in rank[i + 1 :]:
            if b in table[a].opponents:
                continue  # no rematch
            kept_apart = frozenset((a, b)) in apart
            if kept_apart and not with_apart:
                continue
            loss = APART if kept_apart else 0
            graph.add_edge(a, b, weight=_weight(table[a], table[b]) - loss)
    if len(rank) % 2:
        for player in rank:
            if table[player].byes == 0:
                gap = int(2 * table[player].points)
                weight = PAIRED - SCORE_GAP * gap * gap + BYE_PLACE * place[player]
                graph.add_edge(SITS_OUT, player, weight=weight)
    return graph


def _sitting_out(pair: tuple) -> int:
    return pair[1] if pair[0] == SITS_OUT else pair[0]


def _weight(a: Record, b: Record) -> int:
    gap = int(2 * abs(a.points - b.points))
    weight = PAIRED - SCORE_GAP * gap * gap
    first, _ = _seats(a, b)
    after = [a.balance + (1 if first is a else -1), b.balance + (1 if first is b else -1)]
    if any(abs(balance) > 1 for balance in after):
        weight -= COLOUR_BREAK
    if _due(a) is not None and _due(a) == _due(b):
        weight -= SAME_DUE
    return weight


def _due(record: Record) -> int | None:
    """The seat a player should have next: the one they had less, else the other than last."""
    if record.balance:
        return 1 if record.balance > 0 else 0
    if record.last_seat is not None:
        return 1 - record.last_seat
    return None


def _seats(a: Record, b: Record, place: dict[int, int] | None = None) -> tuple[Record, Record]:
    """Who of ``a`` and ``b`` plays first: the one with fewer first moves so far, then the one
    who was second last time, then the higher placed."""
    if a.balance != b.balance:
        return (a, b) if a.balance < b.balance else (b, a)
    due_a, due_b = _due(a), _due(b)
    if due_a != due_b:
        if due_a == 0 or due_b == 1:
            return a, b
        return b, a
    if place is not None and place[b.player] < place[a.player]:
        return b, a
    return a, b


def _seated(a: Record, b: Record, place: dict[int, int]) -> tuple[int, int]:
    first, second = _seats(a, b, place)
    return first.player, second.player


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    place: int
    player: int
    points: Fraction
    tiebreak: Fraction
    games: int


def sonneborn_berger(player: int, table: dict[int, Record], games: Iterable[Game]) -> Fraction:
    """The points of the opponents ``player`` beat, and half the points of those they drew
    with (byes count nothing)."""
    total = Fraction(0)
    for game in games:
        if game.bye or game.score is None or player not in (game.first, game.second):
            continue
        total += game.points(player) * table[game.opponent(player)].points
    return total


def buchholz(player: int, table: dict[int, Record]) -> Fraction:
    """The sum of the points of ``player``'s opponents (a bye counts nothing)."""
    return sum((table[opponent].points for opponent in table[player].opponents), Fraction(0))


def standings(players: Sequence[int], games: Iterable[Game], swiss: bool) -> list[Standing]:
    """Everyone in order: points, then the tiebreak (Buchholz for a Swiss, Sonneborn-Berger for
    a round robin); players level on both share a place."""
    games = list(games)
    table = records(players, games)
    lines = []
    for player in players:
        tiebreak = buchholz(player, table) if swiss else sonneborn_berger(player, table, games)
        played = sum(
            1 for g in games if player in (g.first, g.second) and (g.bye or g.score is not None)
        )
        lines.append((table[player].points, tiebreak, player, played))
    lines.sort(key=lambda line: (-line[0], -line[1], line[2]))
    result, place = [], 0
    for index, (points, tiebreak, player, played) in enumerate(lines):
        if index == 0 or (points, tiebreak) != (lines[index - 1][0], lines[index - 1][1]):
            place = index + 1
        result.append(Standing(place, player, points, tiebreak, played))
    return result
