"""The tournament's pure pairing functions: who meets whom, who sits out, who stands where."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from games.tournaments.pairing import (
    DRAW,
    LOSS,
    WIN,
    Game,
    NoPairing,
    records,
    round_robin,
    standings,
    swiss_round,
)

HALF = Fraction(1, 2)


def test_a_round_robin_of_five_meets_everyone_once_with_one_bye_a_round_and_first_moves_balanced():
    players = [1, 2, 3, 4, 5]
    rounds = round_robin(players)
    assert len(rounds) == 5
    met = Counter()
    sat_out = []
    firsts = Counter()
    for pairs in rounds:
        byes = [a for a, b in pairs if b is None]
        assert len(byes) == 1, "one player sits out each round"
        sat_out.extend(byes)
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == players, "everyone appears once a round"
        for a, b in pairs:
            if b is not None:
                met[frozenset((a, b))] += 1
                firsts[a] += 1
    assert sorted(sat_out) == players, "each player has the bye once"
    assert len(met) == 10, "every pair meets"
    assert set(met.values()) == {1}, "and only once"
    assert {firsts[p] for p in players} == {2}, "each moves first in two of their four games"


def test_a_round_robin_of_six_balances_first_moves_within_one():
    rounds = round_robin([1, 2, 3, 4, 5, 6])
    firsts = Counter(a for pairs in rounds for a, _b in pairs)
    assert all(b is not None for pairs in rounds for _a, b in pairs)
    assert {firsts[p] for p in range(1, 7)} <= {2, 3}


def _play_swiss(rng: random.Random, players: list[int], rounds: int) -> list[Game]:
    ratings = {p: 1500 + 10 * p for p in players}
    games: list[Game] = []
    for number in range(1, rounds + 1):
        paired = swiss_round(number, players, games, ratings)
        for game in paired:
            if game.bye:
                games.append(game)
            else:
                games.append(Game(number, game.first, game.second, rng.choice([WIN, DRAW, LOSS])))
    return games


@pytest.mark.parametrize("seed", range(60))
def test_a_swiss_of_seven_over_four_rounds_keeps_the_usual_rules(seed):
    rng = random.Random(seed)
    players = list(range(1, 8))
    ratings = {p: 1500 + 10 * p for p in players}
    games: list[Game] = []
    for number in range(1, 5):
        before = records(players, games)
        paired = swiss_round(number, players, games, ratings)
        byes = [g for g in paired if g.bye]
        assert len(byes) == 1, "seven players: one bye a round"
        assert before[byes[0].first].byes == 0, "never a second bye to the same player"
        seated = sorted(p for g in paired for p in (g.first, g.second) if p is not None)
        assert seated == players
        for game in paired:
            if not game.bye:
                assert game.second not in before[game.first].opponents, "no rematch"
        # Score groups where possible: no other pairing without a rematch or a second bye, and
        # keeping first moves within one, brings scores closer together.
        assert _spread(paired, before) == min(_spreads(players, before))
        for game in paired:
            games.append(
                game
                if game.bye
                else Game(number, game.first, game.second, rng.choice([WIN, DRAW, LOSS]))
            )
        after = records(players, games)
        assert all(abs(r.balance) <= 1 for r in after.values()), "first moves within one"


def _gap(before, a: int, b: int | None) -> int:
    """The squared gap in half points between two players' scores (a bye scores nothing)."""
    other = 0 if b is None else before[b].points
    return int(2 * abs(before[a].points - other)) ** 2


def _spread(paired: list[Game], before) -> int:
    return sum(_gap(before, g.first, g.second) for g in paired)


def _spreads(players: list[int], before):
    """The spread of every allowed pairing of the round, found by brute force."""

    def allowed(a: int, b: int | None) -> bool:
        if b is None:
            return before[a].byes == 0
        if b in before[a].opponents:
            return False
        balances = (before[a].balance, before[b].balance)
        return any(abs(x + s) <= 1 and abs(y - s) <= 1 for x, y in [balances] for s in (1, -1))

    def matchings(rest: list):
        if not rest:
            yield 0
            return
        a, others = rest[0], rest[1:]
        for i, b in enumerate(others):
            pair = (a, b) if a is not None else (b, a)
            if allowed(*pair):
                for spread in matchings(others[:i] + others[i + 1 :]):
                    yield spread + _gap(before, *pair)

    seats: list = list(players) + ([None] if len(players) % 2 else [])
    return list(matchings(seats))


def test_in_round_two_the_winners_meet_and_who_was_second_moves_first():
    players = [1, 2, 3, 4]
    games = [Game(1, 1, 2, WIN), Game(1, 3, 4, LOSS)]  # 1 and 4 won; 1 and 3 moved first
    paired = swiss_round(2, players, games, {})
    assert {(g.first, g.second) for g in paired} == {(4, 1), (2, 3)}


def test_first_moves_come_before_score_groups_when_both_winners_moved_first():
    # 1 and 3 won, both moving first: they cannot meet without one of them moving first twice
    # more than second, which the pairing never allows where another pairing avoids it.
    players = [1, 2, 3, 4]
    games = [Game(1, 1, 2, WIN), Game(1, 3, 4, WIN)]
    paired = swiss_round(2, players, games, {})
    after = records(players, games + [Game(2, g.first, g.second, WIN) for g in paired])
    assert all(abs(r.balance) <= 1 for r in after.values())
    assert {frozenset((g.first, g.second)) for g in paired} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


def test_a_round_that_would_need_a_rematch_cannot_be_paired():
    players = [1, 2, 3]
    games = [Game(1, 1, 2, WIN), Game(1, 3, None, WIN), Game(2, 3, 1, WIN), Game(2, 2, None, WIN)]
    games += [Game(3, 2, 3, WIN), Game(3, 1, None, WIN)]
    with pytest.raises(NoPairing):
        swiss_round(4, players, games, {})


def test_tiebreaks_on_a_hand_made_round_robin_table():
    # Four players, each pair once. Results (first player's score):
    #   a-b 1, c-d ½, a-c ½, b-d 1, a-d 0, b-c 1
    # Points: a 1½, b 2, c 1, d 1½.
    # Sonneborn-Berger: the points of those beaten, half of those drawn with.
    #   a beat b (2), drew c (½·1), lost to d: 2½
    #   b beat d (1½), beat c (1), lost to a: 2½
    #   c drew d (½·1½), drew a (½·1½), lost to b: 1½
    #   d drew c (½·1), lost to b, beat a (1½): 2
    a, b, c, d = 1, 2, 3, 4
    games = [
        Game(1, a, b, WIN),
        Game(1, c, d, DRAW),
        Game(2, a, c, DRAW),
        Game(2, b, d, WIN),
        Game(3, a, d, LOSS),
        Game(3, b, c, WIN),
    ]
    table = {line.player: line for line in standings([a, b, c, d], games, swiss=False)}
    assert table[b].points == 2
    assert table[b].place == 1
    assert (table[a].points, table[a].tiebreak) == (Fraction(3, 2), Fraction(5, 2))
    assert (table[d].points, table[d].tiebreak) == (Fraction(3, 2), 2)
    assert table[a].place == 2, "level on points with d, a's tiebreak is better"
    assert table[d].place == 3
    assert table[c].tiebreak == Fraction(3, 2)
    assert table[c].place == 4
    assert table[b].tiebreak == Fraction(5, 2)


def test_buchholz_on_a_hand_made_swiss_table_counts_a_bye_as_a_point_and_no_opponent():
    # Five players, two rounds.
    # Round 1: a beats b, c draws d, e has the bye (1).
    # Round 2: e beats a, b beats c, d has the bye.
    # Points: a 1, b 1, c ½, d 1½, e 2.
    # Buchholz (opponents' points; a bye adds nothing):
    #   a: b 1 + e 2 = 3; b: a 1 + c ½ = 1½; c: d 1½ + b 1 = 2½; d: c ½ = ½; e: a 1 = 1
    a, b, c, d, e = 1, 2, 3, 4, 5
    games = [
        Game(1, a, b, WIN),
        Game(1, c, d, DRAW),
        Game(1, e, None, WIN),
        Game(2, e, a, WIN),
        Game(2, b, c, WIN),
        Game(2, d, None, WIN),
    ]
    lines = standings([a, b, c, d, e], games, swiss=True)
    table = {line.player: line for line in lines}
    assert [line.player for line in lines] == [e, d, a, b, c]
    assert table[a].tiebreak == 3
    assert table[b].tiebreak == Fraction(3, 2)
    assert table[c].tiebreak == Fraction(5, 2)
    assert table[d].tiebreak == HALF
    assert table[e].tiebreak == 1
    assert table[a].place == 3, "a and b level on points: Buchholz decides"
    assert table[b].place == 4


def test_the_bye_goes_to_the_lowest_placed_player_who_has_not_had_one():
    players = [1, 2, 3, 4, 5]
    ratings = {1: 1900, 2: 1800, 3: 1700, 4: 1600, 5: 1500}
    first = swiss_round(1, players, [], ratings)
    assert [g.first for g in first if g.bye] == [5], "round 1: the lowest rated sits out"
    played = [Game(1, 1, 2, WIN), Game(1, 3, 4, DRAW), Game(1, 5, None, WIN)]
    second = swiss_round(2, players, played, ratings)
    assert [g.first for g in second if g.bye] == [2], "round 2: the one with no points"


def test_a_swiss_keeps_two_players_apart_when_one_blocked_the_other_if_the_round_allows():
    players = [1, 2, 3, 4, 5, 6]
    ratings = {p: 2000 - 10 * p for p in players}
    plain = swiss_round(1, players, [], ratings)
    blocked = frozenset((plain[0].first, plain[0].second))  # a pair the round would make
    kept = swiss_round(1, players, [], ratings, apart={blocked})
    pairs = {frozenset((g.first, g.second)) for g in kept}
    assert blocked not in pairs
    assert sorted(p for g in kept for p in (g.first, g.second)) == players  # all still play


def test_a_blocked_pair_meets_when_nothing_else_pairs_everyone():
    # Round 2 of four: 1-2 and 3-4 met, so 1 and 3 are apart only if 1 meets 4 and 2 meets 3.
    games = [Game(1, 1, 2, WIN), Game(1, 3, 4, WIN)]
    apart = {frozenset((1, 3)), frozenset((1, 4))}  # 1 blocked both remaining opponents
    paired = swiss_round(2, [1, 2, 3, 4], games, {}, apart=apart)
    # The round is played, everyone in it: a block never stops a tournament.
    assert sorted(p for g in paired for p in (g.first, g.second)) == [1, 2, 3, 4]
