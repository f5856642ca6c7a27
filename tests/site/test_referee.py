"""The referee's decisions: abort a game, or set or correct its result, always with a written
reason kept with the referee's name; and the review page's move times and notifications."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse
from factories import (
    client_for,
    finished_game,
    first_legal,
    lobby_form,
    make_staff,
    make_user,
    play,
    staff_client_for,
    started_game,
)

from games.models import Game, Notification, RefereeDecision
from games.play import referee, series, services

pytestmark = pytest.mark.django_db

MONDAY = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.NOTIFY_DELAY_SECONDS = 0  # the check a worker would run two minutes later


@pytest.fixture
def staff():
    return make_staff("rita")


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def bob():
    return make_user("bob", email="bob@example.com")


def referee_url(game: Game) -> str:
    return reverse("admin:games_game_referee", args=[game.pk])


def review_url(game: Game) -> str:
    return reverse("admin:games_game_review", args=[game.pk])


# -- aborting ---------------------------------------------------------------------------------


def test_the_referee_aborts_a_running_game_with_a_reason(staff, alice, bob):
    game = started_game(alice, bob)
    response = staff_client_for(staff).post(
        referee_url(game), {"decision": "abort", "reason": "Both players asked: a server outage."}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.termination == "referee"
    assert game.winners == []
    assert game.to_decide is None
    assert game.result_for(alice) == ""
    decision = RefereeDecision.objects.get(game=game)
    assert decision.referee == staff
    assert decision.kind == "abort"
    assert decision.status_before == Game.Status.ACTIVE
    assert decision.reason == "Both players asked: a server outage."
    page = staff_client_for(staff).get(review_url(game)).text
    decisions = page.split("Decisions of the referee")[1].split("</table>")[0]
    assert "Both players asked: a server outage." in decisions
    assert "<td>rita</td>" in decisions


def test_the_referees_line_names_the_referee_and_the_reason(staff):
    game = referee.abort_game(started_game(), staff, "A duplicate game.")
    assert referee.referee_line(game) == "The referee rita decided: A duplicate game."


def test_a_game_already_over_cannot_be_aborted(staff, alice, bob):
    game = finished_game(alice, bob, winners=[0], scores=[40, 30])
    with pytest.raises(ValueError, match="already over"):
        referee.abort_game(game, staff, "Too late.")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not RefereeDecision.objects.exists()


def test_the_players_are_told_of_the_abort(staff, alice, bob, django_capture_on_commit_callbacks):
    game = started_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        referee.abort_game(game, staff, "A server outage.")
    told = Notification.objects.filter(game=game, kind=Notification.Kind.GAME_OVER)
    assert {n.user for n in told} == {alice, bob}


# -- setting and correcting a result ----------------------------------------------------------


def test_the_referee_corrects_the_result_of_a_finished_game(staff, alice, bob):
    game = finished_game(alice, bob, winners=[0], scores=[40, 30])
    response = staff_client_for(staff).post(
        referee_url(game),
        {
            "decision": "result",
            "winner": "1",
            "score0": "28",
            "score1": "30",
            "reason": "Alice's last scoring counted a church twice.",
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winners == [1]
    assert game.scores == [28, 30]
    assert game.termination == "referee"
    assert game.result_for(alice) == "lost"
    assert game.result_for(bob) == "won"
    decision = RefereeDecision.objects.get(game=game)
    assert (decision.kind, decision.referee) == ("result", staff)
    assert (decision.winners_before, decision.winners_after) == ([0], [1])
    assert (decision.scores_before, decision.scores_after) == ([40, 30], [28, 30])
    assert decision.termination_before == "third scoring"


def test_a_result_without_scores_keeps_the_scores(staff, alice, bob):
    game = finished_game(alice, bob, winners=[0], scores=[40, 30])
    game = referee.set_result(game, staff, [0, 1], None, "A tie on the tie-break, misread.")
    assert game.winners == [0, 1]
    assert game.scores == [40, 30]
    assert game.result_for(alice) == "shared"


def test_the_referee_finishes_a_running_game(staff, alice, bob):
    game = started_game(alice, bob)
    game = referee.set_result(game, staff, [0], [12, 3], "Bob left the site for good.")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    assert game.to_decide is None
    assert game.deadline is None
    assert game.result_for(alice) == "won"


@pytest.mark.parametrize("winners", [[2], [0, 5], [-1], []])
def test_winners_are_seats(staff, winners):
    game = started_game()
    with pytest.raises(ValueError, match="winner"):
        referee.set_result(game, staff, winners, None, "Why not.")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_game_that_never_began_has_no_result(staff):
    game = started_game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OPEN)
    with pytest.raises(ValueError, match="never began"):
        referee.set_result(game, staff, [0], None, "Hm.")


def cathedral_series(alice, bob) -> Game:
    client_for(alice).post(
        reverse("games:create"),
        lobby_form("cathedral", first="me", series="2", time_control="none"),
    )
    return services.accept_game(Game.objects.get(series_number=1), bob)


def test_a_decided_game_of_a_series_counts_against_its_loser_and_the_next_one_begins(
    staff, alice, bob
):
    game = referee.set_result(cathedral_series(alice, bob), staff, [1], None, "Alice left.")
    table = series.standings(game.series)
    assert table["rows"][0]["points"][0] > table["rows"][0]["points"][1] == 0  # alice's squares
    assert Game.objects.filter(series=game.series, series_number=2).exists()
    page = client_for(alice).get(game.get_absolute_url())
    assert page.status_code == 200


def test_a_game_of_a_series_is_not_shared_by_a_referee(staff, alice, bob):
    game = cathedral_series(alice, bob)
    with pytest.raises(ValueError, match="series"):
        referee.set_result(game, staff, [0, 1], None, "Both played well.")


# -- refusals: only the staff, only with a reason ---------------------------------------------


def test_a_player_cannot_open_the_referees_form():
    game = started_game()
    response = client_for(game.seat0).post(
        referee_url(game), {"decision": "abort", "reason": "I want out."}
    )
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_staff_member_without_the_right_to_change_games_is_forbidden():
    clerk = make_user("clerk", is_staff=True)
    game = started_game()
    response = staff_client_for(clerk).post(
        referee_url(game), {"decision": "abort", "reason": "No."}
    )
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_the_service_refuses_a_player(alice, bob):
    game = started_game(alice, bob)
    with pytest.raises(ValueError, match="staff"):
        referee.abort_game(game, alice, "I want out.")
    with pytest.raises(ValueError, match="staff"):
        referee.set_result(game, alice, [0], None, "I won, surely.")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert not RefereeDecision.objects.exists()


@pytest.mark.parametrize("reason", ["", "   \n "])
def test_a_decision_without_a_reason_is_refused_and_changes_nothing(staff, reason):
    game = started_game()
    response = staff_client_for(staff).post(
        referee_url(game), {"decision": "abort", "reason": reason}
    )
    assert response.status_code == 400
    assert "A referee&#x27;s decision needs a written reason." in response.text
    with pytest.raises(ValueError, match="written reason"):
        referee.abort_game(game, staff, reason)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert not RefereeDecision.objects.exists()


def test_the_form_shows_the_services_refusal(staff, alice, bob):
    game = finished_game(alice, bob, winners=[0], scores=[40, 30])
    response = staff_client_for(staff).post(
        referee_url(game), {"decision": "abort", "reason": "Oops."}
    )
    assert response.status_code == 400
    assert "already over" in response.text


def test_a_result_needs_a_winner_on_the_form(staff):
    game = started_game()
    response = staff_client_for(staff).post(
        referee_url(game), {"decision": "result", "reason": "Hm."}
    )
    assert response.status_code == 400
    assert "A result needs a winner" in response.text
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


# -- where the referee finds the tools and what they show ---------------------------------------


def test_the_game_and_review_pages_link_to_the_referees_form(staff):
    game = started_game()
    client = staff_client_for(staff)
    assert referee_url(game) in client.get(reverse("admin:games_game_change", args=[game.pk])).text
    assert referee_url(game) in client.get(review_url(game)).text
    form = client.get(referee_url(game))
    assert form.status_code == 200
    assert "csrfmiddlewaretoken" in form.text


def test_the_games_admin_page_lists_the_decisions(staff):
    game = referee.abort_game(started_game(), staff, "A duplicate of game 1.")
    page = staff_client_for(staff).get(reverse("admin:games_game_change", args=[game.pk])).text
    assert "A duplicate of game 1." in page
    assert "referee_decisions-0-reason" not in page  # shown, not editable


def test_the_review_shows_each_moves_time(staff):
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = started_game()
        clock.shift(timedelta(seconds=4))
        game = play(game, [first_legal(game)])
        clock.shift(timedelta(minutes=3, seconds=5))
        game = play(game, [first_legal(game)])
    page = staff_client_for(staff).get(review_url(game)).text
    times = page.split("Move times")[1].split("</table>")[0]
    assert "4.0 s" in times
    assert "3 min 05 s" in times


def test_the_review_shows_the_notifications_sent(
    staff, alice, bob, django_capture_on_commit_callbacks
):
    game = started_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        referee.abort_game(game, staff, "A server outage.")
    page = staff_client_for(staff).get(review_url(game)).text
    sent = page.split("Notifications sent")[1].split("</table>")[0]
    assert sent.count("game over") == 2
    assert "alice" in sent
    assert "bob" in sent


def test_the_game_page_says_the_referee_decided_and_why():
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob)
    referee.abort_game(game, make_staff("judge"), "Both players asked for it by email.")
    page = client_for(alice).get(game.get_absolute_url()).text
    assert "The referee judge decided: Both players asked for it by email." in page
