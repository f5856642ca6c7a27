"""Tournaments that run by themselves: the task runner starts the games, pairs each Swiss round
when the one before is over, forfeits a withdrawn player's games, removes a player who loses too
many on time, and finishes with the places, each step told to the players."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from factories import START, first_legal, make_staff, make_user, play, play_randomly

from games import tasks
from games.models import (
    Block,
    Entry,
    Game,
    Notification,
    Pairing,
    PairingChange,
    PlayerSettings,
    Tournament,
)
from games.play import services, vacation
from games.terms import GameSettings
from games.tournaments import entries, pairing, results, running, staff, tables

pytestmark = pytest.mark.django_db(transaction=True)  # the site's after-commit steps run
DAY = timedelta(days=1)
MINUTE = timedelta(minutes=1)


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = "http://basilica.example"
    settings.NOTIFY_DELAY_SECONDS = 0


def players(*names):
    """Players with an email address, and no vacation days to save a clock."""
    made = [make_user(name, email=f"{name}@example.com") for name in names]
    for user in made:
        PlayerSettings.objects.filter(pk=vacation.settings_for(user).pk).update(vacation_days=0)
    return made


def organise(creator, others, fmt="swiss", rounds=2, days=3, **plan):
    plan.setdefault("starts_at", START + DAY)
    plan.setdefault("max_players", 8)
    tournament = entries.create(
        creator,
        entries.Plan(name="Spring cup", format=fmt, rounds=rounds, **plan),
        GameSettings(kind="basilica", time_control=f"{days}d", rated=True),
    )
    for user in others:
        entries.join(tournament, user)
    return tournament


def the_minute_sweep(calendar):
    """The worker's periodic task, at the next minute (one run a minute does the work)."""
    calendar.shift(MINUTE)
    tasks.sweep_every_minute.call_local()


def round_games(tournament, number) -> list[Game]:
    return [
        p.game
        for p in Pairing.objects.filter(tournament=tournament, round=number).select_related(
            "game__seat0", "game__seat1"
        )
        if p.game is not None
    ]


def resigned_by(game: Game, user) -> Game:
    """A few moves through the game service, then ``user`` resigns."""
    game = play_randomly(game, 3)
    return services.resign(game, user)


def hand_over(game: Game) -> Game:
    """The player to decide plays until the decision passes to the other."""
    game.refresh_from_db()
    seat = game.to_decide
    while game.to_decide == seat:
        game = play(game, [first_legal(game)])
    return game


def notes(kind, user=None):
    rows = Notification.objects.filter(kind=kind)
    return rows.filter(user=user) if user else rows


def test_a_swiss_of_four_in_two_rounds_runs_from_its_start_to_the_winner_by_itself(calendar):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    cup = organise(ann, [bob, cat, dan])
    the_minute_sweep(calendar)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.OPEN, "nothing starts before its time"

    calendar.shift(DAY + MINUTE)
    the_minute_sweep(calendar)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING
    first = round_games(cup, 1)
    assert len(first) == 2
    assert all(g.status == Game.Status.ACTIVE for g in first)
    assert notes(Notification.Kind.TOURNAMENT_GAME).count() == 4, "each player told of their game"
    the_minute_sweep(calendar)
    assert Pairing.objects.filter(tournament=cup).count() == 2, "a second sweep pairs nothing"

    # Round 1: the first player of each game wins (the other resigns after a few moves).
    for game in first:
        resigned_by(game, game.seat1)
    cup.refresh_from_db()
    assert cup.current_round == 2, "round 2 is paired as soon as round 1's last game ends"
    second = round_games(cup, 2)
    assert len(second) == 2
    round_one = {frozenset((g.seat0_id, g.seat1_id)) for g in first}
    assert not {frozenset((g.seat0_id, g.seat1_id)) for g in second} & round_one, "no rematch"
    # Both winners moved first in round 1: each now meets a loser, who moves first.
    losers = {g.seat1_id for g in first}
    assert {g.seat0_id for g in second} == losers

    # Round 2: in one game the loser of round 1 resigns: its winner has won both. In the other
    # the first player moves, and the round-1 winner lets the clock run out.
    resigned_by(second[0], second[0].seat0)
    champion = second[0].seat1
    for _turn in range(3):  # both players have moved: a clock that runs out is a timeout
        hand_over(second[1])
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING, "a game of the last round is still played"
    calendar.shift(4 * DAY)
    the_minute_sweep(calendar)
    second[1].refresh_from_db()
    assert second[1].termination == "timeout"
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=cup, place=1).user == champion
    over = notes(Notification.Kind.TOURNAMENT_OVER)
    assert over.count() == 4, "every player hears the end, with their place"
    assert "place 1 of 4" in over.get(user=champion).body
    loser = next(u for u in (ann, bob, cat, dan) if u != champion)
    assert f"Won by {champion.username}." in over.get(user=loser).body


def test_a_round_robin_of_five_starts_all_ten_games_at_once_with_a_bye_each_round(calendar):
    ann, *others = players("ann", "bob", "cat", "dan", "eve")
    league = organise(ann, others[:3], fmt="round_robin", max_players=5, starts_at=None)
    the_minute_sweep(calendar)
    league.refresh_from_db()
    assert league.status == Tournament.Status.OPEN, "four of five: it waits"
    entries.join(league, others[3])
    the_minute_sweep(calendar)
    league.refresh_from_db()
    assert league.status == Tournament.Status.RUNNING, "the fifth entry filled it: it started"
    pairings = Pairing.objects.filter(tournament=league)
    assert pairings.filter(game__isnull=False, game__status=Game.Status.ACTIVE).count() == 10
    assert pairings.filter(second__isnull=True).count() == 5
    assert sorted(pairings.filter(second__isnull=True).values_list("round", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
    ]


def test_a_player_who_withdraws_mid_tournament_forfeits_and_is_paired_no_more(calendar):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    cup = organise(ann, [bob, cat, dan])
    calendar.shift(DAY + MINUTE)
    the_minute_sweep(calendar)
    dans_game = next(g for g in round_games(cup, 1) if dan.pk in (g.seat0_id, g.seat1_id))
    entries.leave(cup, dan)
    dans_game.refresh_from_db()
    assert dans_game.termination == "resignation"
    assert dans_game.player(dans_game.ended_by) == dan
    other = next(g for g in round_games(cup, 1) if g.pk != dans_game.pk)
    resigned_by(other, other.seat0)
    cup.refresh_from_db()
    assert cup.current_round == 2
    paired = Pairing.objects.filter(tournament=cup, round=2)
    assert dan.pk not in {p.first_id for p in paired} | {p.second_id for p in paired}
    assert paired.filter(second__isnull=True).count() == 1, "three left: one bye"
    assert Entry.objects.get(tournament=cup, user=dan).left == Entry.Left.WITHDREW


def test_a_player_who_loses_more_games_on_time_than_allowed_is_withdrawn(calendar):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    league = organise(ann, [bob, cat, dan], fmt="round_robin", days=1, timeouts_allowed=1)
    calendar.shift(DAY)
    the_minute_sweep(calendar)
    games = list(results.games_of(league).select_related("seat0", "seat1"))
    dans = [g for g in games if dan.pk in (g.seat0_id, g.seat1_id)]
    assert len(dans) == 3
    for game in games:
        if game not in dans:
            resigned_by(game, game.seat1)
    # In two games dan is left to decide and never does; in the third he is up to date.
    late, kept = dans[:2], dans[2]
    for game in late:
        if game.seat0_id != dan.pk:
            hand_over(game)
    if kept.seat0_id == dan.pk:
        hand_over(kept)
    calendar.shift(DAY / 2)
    hand_over(kept)  # his opponent moves half a day later: dan has a day from now
    calendar.shift(DAY / 2)
    the_minute_sweep(calendar)

    for game in late:
        game.refresh_from_db()
        assert game.player(game.ended_by) == dan
        assert game.termination in ("timeout", "abandoned")
    entry = Entry.objects.get(tournament=league, user=dan)
    assert entry.left == Entry.Left.TIMEOUTS, "two games lost on time, one allowed: withdrawn"
    kept.refresh_from_db()
    assert kept.termination == "resignation", "his game still in play is forfeited"
    assert kept.player(kept.ended_by) == dan
    league.refresh_from_db()
    assert league.status == Tournament.Status.FINISHED
    assert entry.user in {row.user for row in Entry.objects.filter(tournament=league)}


def test_a_swiss_is_cut_to_one_round_fewer_than_its_players(calendar):
    ann, bob, cat = players("ann", "bob", "cat")
    cup = organise(ann, [bob, cat], rounds=3)
    calendar.shift(DAY)
    the_minute_sweep(calendar)
    cup.refresh_from_db()
    assert cup.rounds == 2, "three players meet in at most two rounds"


def test_a_swiss_round_that_cannot_be_paired_ends_the_tournament_early_saying_why(
    calendar, monkeypatch
):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    cup = organise(ann, [bob, cat, dan], rounds=3)
    calendar.shift(DAY)
    the_minute_sweep(calendar)

    def no_pairing(number, *_args):
        raise pairing.NoPairing(f"round {number}")

    monkeypatch.setattr(pairing, "swiss_round", no_pairing)
    for game in round_games(cup, 1):
        resigned_by(game, game.seat1)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert "round 2 could not be paired without a rematch" in tables.next_step(cup)
    assert notes(Notification.Kind.TOURNAMENT_OVER).count() == 4


def test_too_few_players_at_the_start_time_cancels_the_tournament(calendar):
    ann, bob = players("ann", "bob")
    cup = organise(ann, [bob])
    calendar.shift(DAY + MINUTE)
    the_minute_sweep(calendar)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED
    assert "fewer than three" in cup.ended_reason


def test_the_admin_cancels_a_running_tournament_its_games_aborted_with_no_result(calendar):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    cup = organise(ann, [bob, cat, dan])
    calendar.shift(DAY + MINUTE)
    the_minute_sweep(calendar)
    referee = make_staff()
    with pytest.raises(staff.StaffRefused):
        staff.cancel(cup, ann, "I changed my mind")
    with pytest.raises(staff.StaffRefused):
        staff.cancel(cup, referee, "  ")
    staff.cancel(cup, referee, "a sponsor withdrew")
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED
    for game in round_games(cup, 1):
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED
        assert game.winners == []
    change = PairingChange.objects.get(tournament=cup)
    assert (change.by, change.reason) == (referee, "a sponsor withdrew")


def test_the_admin_replaces_a_game_of_a_running_round_with_a_reason(calendar):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    cup = organise(ann, [bob, cat, dan])
    calendar.shift(DAY + MINUTE)
    the_minute_sweep(calendar)
    referee = make_staff()
    made = Pairing.objects.filter(tournament=cup, round=1).first()
    old = made.game
    first, second = made.second, made.first
    staff.replace(made, first, second, referee, "the first game's seats were swapped by mistake")
    made.refresh_from_db()
    old.refresh_from_db()
    assert old.status == Game.Status.ABORTED
    assert made.game.status == Game.Status.ACTIVE
    assert (made.game.seat0, made.game.seat1) == (first, second)
    change = PairingChange.objects.get(pairing=made)
    assert change.reason == "the first game's seats were swapped by mistake"
    assert change.by == referee
    other = Pairing.objects.filter(tournament=cup, round=1).exclude(pk=made.pk).get()
    with pytest.raises(staff.StaffRefused):
        staff.replace(made, first, other.first, referee, "one player in two games")


def test_the_admin_withdraws_a_player_who_forfeits_and_is_paired_no_more(calendar):
    ann, bob, cat, dan = players("ann", "bob", "cat", "dan")
    cup = organise(ann, [bob, cat, dan])
    calendar.shift(DAY + MINUTE)
    the_minute_sweep(calendar)
    referee = make_staff()
    dans_game = next(g for g in round_games(cup, 1) if dan.pk in (g.seat0_id, g.seat1_id))
    with pytest.raises(staff.StaffRefused):
        staff.withdraw(cup, dan, referee, "  ")  # no reason, no change
    assert Entry.objects.get(tournament=cup, user=dan).withdrawn_at is None
    staff.withdraw(cup, dan, referee, "abandoned every game of another tournament")
    dans_game.refresh_from_db()
    assert dans_game.termination == "resignation"
    assert dans_game.player(dans_game.ended_by) == dan
    assert Entry.objects.get(tournament=cup, user=dan).left == Entry.Left.REMOVED
    change = PairingChange.objects.get(tournament=cup)
    assert (change.by, change.reason) == (referee, "abandoned every game of another tournament")
    with pytest.raises(staff.StaffRefused):
        staff.withdraw(cup, dan, referee, "twice")
    other = next(g for g in round_games(cup, 1) if g.pk != dans_game.pk)
    resigned_by(other, other.seat0)
    paired = Pairing.objects.filter(tournament=cup, round=2)
    assert paired.exists()
    assert dan.pk not in {p.first_id for p in paired} | {p.second_id for p in paired}


def test_a_cathedral_series_counts_as_one_game_its_result_the_series(calendar):
    ann, bob, cat = players("ann", "bob", "cat")
    cup = entries.create(
        ann,
        entries.Plan(name="Cathedral cup", format="swiss", rounds=2, max_players=3, starts_at=None),
        GameSettings(kind="cathedral", time_control="3d", series=2),
    )
    entries.join(cup, bob)
    entries.join(cup, cat)
    the_minute_sweep(calendar)
    made = Pairing.objects.get(tournament=cup, round=1, second__isnull=False)
    first_game = made.game
    assert first_game.series.length == 2
    services.resign(first_game, first_game.seat1)
    made.refresh_from_db()
    assert made.score is None, "one game of two: the series goes on"
    following = first_game.series.games.get(series_number=2)
    assert following.status == Game.Status.ACTIVE
    cup.refresh_from_db()
    assert cup.current_round == 1
    # Withdrawing forfeits the series still being played: its second game.
    entries.leave(cup, following.seat0)
    made.refresh_from_db()
    assert made.score == 1, "the series is over, won by the player who never resigned"
    cup.refresh_from_db()
    assert cup.current_round == 2


def test_a_swiss_round_keeps_apart_two_players_of_whom_one_blocked_the_other(calendar):
    everyone = players("ann", "bob", "cat", "dan", "eve", "fay")
    cup = entries.create(  # unrated: round 1 changes no rating, so round 2 is foreseen exactly
        everyone[0],
        entries.Plan(name="Spring cup", format="swiss", rounds=2, max_players=8, starts_at=START),
        GameSettings(kind="basilica", time_control="3d", rated=False),
    )
    for user in everyone[1:]:
        entries.join(cup, user)
    calendar.shift(MINUTE)
    the_minute_sweep(calendar)
    # Round 2 as the Swiss pairs it once each first player won round 1, were nobody blocked:
    won = [replace(g, score=pairing.WIN) for g in running.pure_games(cup)]
    ids = [user.pk for user in everyone]
    would = pairing.swiss_round(2, ids, won, {})
    a, b = would[0].first, would[0].second
    Block.objects.create(blocker_id=b, blocked_id=a)
    for game in round_games(cup, 1):
        resigned_by(game, game.seat1)
    second = {frozenset((g.seat0_id, g.seat1_id)) for g in round_games(cup, 2)}
    assert len(second) == 3
    assert frozenset((a, b)) not in second
