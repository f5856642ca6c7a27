"""Rated and casual games: a rated game's end moves both players' ratings once, in the same
transaction; casual, aborted, untimed, imported and computer games move nothing; two players'
fourth rated game in a day is casual; the recompute gives back the stored ratings."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from factories import (
    START,
    first_legal,
    make_staff,
    player,
    staff_client_for,
    started_game,
    user_deciding,
)

from games import tasks
from games.models import Computer, Game, Rating, RatingChange
from games.play import referee, services, states
from games.ratings import service as ratings
from games.ratings.glicko2 import Glicko

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture
def ann():
    return player("ann")


@pytest.fixture
def bob():
    return player("bob")


def rated_game(seat0, seat1, time_control="3d", **settings) -> Game:
    return started_game(seat0, seat1, time_control=time_control, rated=True, **settings)


def rating(user, kind="basilica", speed="correspondence") -> Rating | None:
    return Rating.objects.filter(user=user, kind=kind, speed=speed).first()


def turn_played(game: Game) -> Game:
    """Both players' first turns and seat 0's second, played: seat 1 must decide, and has
    begun, so that running out of time loses the game (rather than aborting it)."""
    moved = set()
    while moved != {0, 1} or game.to_decide != 1:
        moved.add(game.to_decide)
        game = services.submit_action(game, user_deciding(game), first_legal(game), game.seq)
    return game


def snapshot() -> tuple[list, list]:
    kept = [
        (r.user_id, r.kind, r.speed, r.rating, r.deviation, r.volatility, r.games, r.last_game_at)
        for r in Rating.objects.order_by("user_id", "kind", "speed")
    ]
    changes = [
        (c.game_id, c.seat, c.rating_before, c.deviation_before, c.rating_after, c.at)
        for c in RatingChange.objects.order_by("game_id", "seat")
    ]
    return kept, changes


# -- a rated game's end ---------------------------------------------------------------------------


def test_a_resignation_moves_both_ratings_once(calendar, ann, bob):
    game = rated_game(ann, bob)
    assert game.rated
    assert game.rated_label == "rated"
    services.resign(game, bob)

    winner, loser = rating(ann), rating(bob)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert (winner.games, loser.games) == (1, 1)
    assert winner.deviation < 350
    assert loser.deviation < 350
    changes = RatingChange.objects.filter(game=game).order_by("seat")
    assert [(c.user, c.score, c.rating_before) for c in changes] == [
        (ann, 1.0, 1500.0),
        (bob, 0.0, 1500.0),
    ]
    assert changes[0].rating_after == winner.rating


def test_the_game_page_tells_the_rating_changes(calendar, ann, bob):
    from django.urls import reverse
    from factories import client_for

    game = rated_game(ann, bob)
    services.resign(game, bob)
    page = client_for(ann).get(reverse("games:detail", args=[game.pk])).text
    gain = round(rating(ann).rating) - 1500
    assert "rated" in page
    assert f'1500? → {round(rating(ann).rating)}? <span class="gain">(+{gain})</span>' in page


def test_a_timeout_found_by_the_sweep_moves_the_ratings(calendar, ann, bob):
    game = turn_played(rated_game(ann, bob))
    calendar.shift(4 * DAY)  # bob never answers: his 3 days run out
    assert tasks.sweep()["ended"] == 1
    game.refresh_from_db()
    assert (game.termination, game.winners) == ("timeout", [0])
    assert rating(ann).rating > 1500 > rating(bob).rating


def test_a_live_game_moves_the_live_rating_only(calendar, ann, bob):
    game = rated_game(ann, bob, time_control="5+3")
    services.resign(game, ann)
    assert rating(bob, speed="live").rating > 1500
    assert rating(bob, speed="correspondence") is None


def test_the_last_move_rates_the_game_in_the_transaction_that_ends_it(calendar, ann, bob):
    game = rated_game(ann, bob, kind="cathedral")
    while game.status == Game.Status.ACTIVE:
        state = states.load_state(game)
        action = game.engine.legal_actions(state)[0].to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
    assert game.status == Game.Status.FINISHED
    changes = list(RatingChange.objects.filter(game=game).order_by("seat"))
    assert [c.score for c in changes] == [
        1.0
        if seat in game.winners and len(game.winners) == 1
        else 0.5
        if seat in game.winners
        else 0.0
        for seat in (0, 1)
    ]
    assert rating(ann, kind="cathedral").games == rating(bob, kind="cathedral").games == 1


def test_idle_months_grow_the_deviation_before_the_next_game(calendar, ann, bob):
    services.resign(rated_game(ann, bob), bob)
    settled = rating(ann).deviation
    calendar.shift(200 * DAY)
    game = rated_game(ann, bob)
    services.resign(game, bob)
    before = RatingChange.objects.get(game=game, user=ann).deviation_before
    assert before > settled


def test_a_deviation_stays_between_the_floor_and_the_ceiling():
    settled = ratings.Standing(Glicko(1500, 45, 0.06), games=200, last_game_at=START)
    before, after = ratings.rate_game((settled, settled), (1.0, 0.0), START + timedelta(hours=1))
    assert [s.glicko.deviation for s in after] == [ratings.DEVIATION_FLOOR] * 2
    assert after[0].glicko.rating > 1500 > after[1].glicko.rating
    years_later = START + 20 * 365 * DAY  # the deviation would grow to some 415
    before, after = ratings.rate_game((settled, settled), (0.5, 0.5), years_later)
    assert [g.deviation for g in before] == [ratings.DEVIATION_CEILING] * 2


def test_a_rating_is_provisional_above_110_and_shown_with_a_question_mark():
    assert str(ratings.shown(ratings.Standing())) == "1500?"
    settled = ratings.Standing(Glicko(1623.4, 80, 0.06), games=30, last_game_at=START)
    assert str(ratings.shown(settled, START)) == "1623"
    assert str(ratings.shown(settled, START + 3 * 365 * DAY)) == "1623?"  # idle for years


# -- games that change nothing ------------------------------------------------------------------


def test_a_casual_game_changes_no_rating(calendar, ann, bob):
    game = started_game(ann, bob, time_control="3d", rated=False)
    assert game.rated_label == "casual"
    services.resign(game, bob)
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_an_aborted_rated_game_changes_no_rating(calendar, ann, bob):
    game = rated_game(ann, bob)
    services.abort(game, ann)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_a_game_the_first_player_never_began_is_aborted_unrated(calendar, ann, bob):
    rated_game(ann, bob)
    calendar.shift(4 * DAY)
    tasks.sweep()
    assert Game.objects.get().termination == "abandoned"
    assert not RatingChange.objects.exists()


def test_an_untimed_game_is_never_rated(calendar, ann, bob):
    game = started_game(ann, bob, time_control="none", rated=True)
    assert not game.rated
    assert game.rated_label.startswith("casual: untimed games are never rated")
    services.resign(game, bob)
    assert not RatingChange.objects.exists()


def test_a_game_against_the_computer_is_casual(calendar, ann):
    bot = Computer.objects.get(level="random").user
    game = services.create_game(ann, services.GameSettings(time_control="3d", rated=True))
    game = services.accept_game(game, bot)
    assert game.rated_label == "casual: games against the computer are never rated"
    services.resign(game, ann)
    assert not RatingChange.objects.exists()


def test_an_imported_game_is_never_rated(calendar, ann, bob):
    game = rated_game(ann, bob)
    Game.objects.filter(pk=game.pk).update(
        imported=True, status=Game.Status.FINISHED, winners=[0], finished_at=START
    )
    assert ratings.game_over(Game.objects.get(pk=game.pk)) == []
    assert ratings.recompute() == {"games": 0, "ratings": 0}


# -- the same two players, many times a day ---------------------------------------------------


def test_the_fourth_rated_game_of_a_pair_in_a_day_is_casual(calendar, ann, bob):
    for n in range(3):
        game = rated_game(ann, bob) if n % 2 == 0 else rated_game(bob, ann)
        assert game.rated
        services.resign(game, bob)
        calendar.shift(timedelta(hours=1))
    fourth = rated_game(ann, bob)
    assert not fourth.rated
    assert fourth.rated_label == (
        "casual: these two players have begun 3 rated games together in the last 24 hours"
    )
    services.resign(fourth, bob)
    assert rating(ann).games == 3
    calendar.shift(DAY)
    assert rated_game(ann, bob).rated  # a day after the first ones, rated again


def test_an_aborted_game_does_not_count_towards_the_pair_limit(calendar, ann, bob):
    for _ in range(3):
        services.abort(rated_game(ann, bob), ann)
    assert rated_game(ann, bob).rated


def test_a_rematch_of_a_rated_game_is_rated_and_of_a_casual_one_casual(calendar, ann, bob):
    rated, casual = rated_game(ann, bob), started_game(ann, bob, time_control="3d")
    for game in (rated, casual):
        services.resign(game, bob)
        services.offer_rematch(game, bob)
    assert services.answer_rematch(rated, ann, accept=True).rated
    assert not services.answer_rematch(casual, ann, accept=True).rated


# -- the referee and the recompute --------------------------------------------------------------


def play_a_season(calendar, players) -> list[Game]:
    """Rated games among ``players`` over some weeks, ended by resignation and by time."""
    games = []
    for n in range(12):
        a, b = players[n % len(players)], players[(n * 2 + 1) % len(players)]
        if a == b:
            continue
        game = rated_game(a, b, time_control="1d" if n % 3 else "10+5")
        if n % 4 == 0:
            game = turn_played(game)
            calendar.shift(2 * DAY if n % 3 else timedelta(hours=1))
            services.enforce_clock(game)
        else:
            services.resign(game, b if n % 2 else a)
        games.append(game)
        calendar.shift(timedelta(days=n % 5, hours=3))
    return games


def test_the_recompute_gives_back_the_stored_ratings(calendar, ann, bob):
    play_a_season(calendar, [ann, bob, player("carol"), player("dave")])
    stored = snapshot()
    assert len(stored[1]) >= 16
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert snapshot() == stored
    assert f"{len(stored[1]) // 2} rated games replayed" in out.getvalue()


def test_a_referees_correction_reaches_every_later_game_after_a_recompute(calendar, ann, bob):
    games = play_a_season(calendar, [ann, bob, player("carol")])
    first = Game.objects.get(pk=games[0].pk)
    stored = snapshot()
    referee.set_result(first, make_staff(), [1 - first.winners[0]], None, "a stolen account")
    assert snapshot() == stored  # a correction alone changes no rating
    ratings.recompute()
    kept, changes = snapshot()
    assert kept != stored[0]
    flipped = [c for c in changes if c[0] == first.pk]
    assert {c[1] for c in flipped} == {0, 1}
    assert RatingChange.objects.get(game=first, seat=first.winners[0]).score == 0.0


def test_a_game_in_play_decided_by_the_referee_is_rated_at_once(calendar, ann, bob):
    game = rated_game(ann, bob)
    referee.set_result(game, make_staff(), [1], None, "ann left the site for good")
    assert rating(bob).rating > 1500 > rating(ann).rating


def test_the_admin_says_a_corrected_rated_game_needs_a_recompute(calendar, ann, bob):
    from django.urls import reverse

    game = rated_game(ann, bob)
    services.resign(game, bob)
    form = {"decision": "result", "winner": "1", "reason": "bob's resignation was a misclick"}
    url = reverse("admin:games_game_referee", args=[game.pk])
    page = staff_client_for(make_staff()).post(url, form, follow=True).text
    assert "need a recompute (manage.py recompute_ratings)" in page
    assert rating(ann).rating > 1500  # unchanged until the recompute
    call_command("recompute_ratings", stdout=io.StringIO())
    assert rating(bob).rating > 1500 > rating(ann).rating


def test_a_game_cannot_be_rated_twice(calendar, ann, bob):
    game = rated_game(ann, bob)
    services.resign(game, bob)
    stored = snapshot()
    with pytest.raises(IntegrityError), transaction.atomic():
        ratings.game_over(Game.objects.get(pk=game.pk))  # as if a second ending got through
    assert snapshot() == stored
