"""Telling players what waits for them: "your turn", "time almost up", "game over", "rematch
offered" and the daily digest by email; the count in every page's header; the My games list.

Alice always moves first. The site sends its emails once the move's transaction has committed:
here, at the end of a ``committed()`` block. The delayed check runs at once in these tests.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import signing
from django.test import Client
from django.urls import reverse
from factories import (
    client_for,
    finished_game,
    first_legal,
    make_staff,
    make_user,
    play,
    staff_client_for,
    started_game,
)

from games import tasks
from games.correspondence import notify
from games.models import Game, Notification, PlayerSettings
from games.play import states, takebacks

pytestmark = pytest.mark.django_db

MONDAY = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
EVERY_EMAIL = {
    "email_your_turn": "on",
    "email_time_running_out": "on",
    "email_game_over": "on",
    "email_rematch_offered": "on",
}


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = "http://basilica.example"  # where the links in emails point
    settings.NOTIFY_DELAY_SECONDS = 0  # the check a worker would run two minutes later


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what the site does after a commit (checks, then deliveries) as the block ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def bob():
    return make_user("bob", email="bob@example.com")


def hand_over(game):
    """Whoever decides now plays until the decision passes to the other player."""
    seat = game.to_decide
    while game.to_decide == seat:
        game = play(game, [first_legal(game)])
    return game


def mail_to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email]]


def absolute(path: str) -> str:
    return "http://basilica.example" + path


# -- your turn -----------------------------------------------------------------------------------


def test_bob_is_emailed_that_it_is_his_turn_once_alice_has_played(
    alice, bob, committed, mailoutbox
):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    [mail] = mailoutbox
    assert mail.to == ["bob@example.com"]
    assert mail.subject == f"Your turn against alice (game {game.pk})"


def test_the_your_turn_email_links_to_the_game(alice, bob, committed, mailoutbox):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    [mail] = mailoutbox
    assert absolute(f"/games/{game.pk}/") in mail.body


def test_the_email_carries_its_one_click_unsubscribe_link_in_the_body_and_the_headers(
    alice, bob, committed, mailoutbox
):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    [mail] = mailoutbox
    link = re.search(r"Stop these emails: (\S+)", mail.body)[1]
    assert link.startswith(absolute("/notifications/unsubscribe/"))
    message = mail.message()
    assert message["List-Unsubscribe"] == f"<{link}>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_email_is_plain_text_naming_the_kind_in_words(alice, bob, committed, mailoutbox):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    [mail] = mailoutbox
    assert mail.content_subtype == "plain"
    assert not getattr(mail, "alternatives", [])
    assert mail.message().get_content_type() == "text/plain"
    assert "“your turn” emails are on for bob" in mail.body
    assert "<" not in mail.body  # no markup


def test_no_your_turn_email_while_bob_has_the_game_open(alice, bob, committed, mailoutbox):
    game = started_game(alice, bob, time_control="3d")
    assert client_for(bob).get(game.get_absolute_url()).status_code == 200
    with committed():
        hand_over(game)
    assert mailoutbox == []


def test_a_look_at_the_game_ten_minutes_ago_is_not_watching_it(alice, bob, committed, mailoutbox):
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = started_game(alice, bob, time_control="3d")
        client_for(bob).get(game.get_absolute_url())
        clock.shift(timedelta(minutes=10))
        with committed():
            hand_over(game)
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]


@pytest.fixture
def worker(tasks_run_at_once, settings):
    """The task runner with the real two-minute wait before a check; ``run_due()`` runs what
    has come due, as the worker would."""
    settings.NOTIFY_DELAY_SECONDS = 120
    tasks_run_at_once.flush()  # nothing left scheduled by an earlier test

    class Worker:
        @staticmethod
        def run_due():
            for task in tasks_run_at_once.read_schedule():
                tasks_run_at_once.execute(task)

    return Worker


def test_the_your_turn_email_waits_two_minutes_to_see_whether_bob_comes(
    alice, bob, committed, mailoutbox, worker
):
    with time_machine.travel(MONDAY, tick=False) as clock:
        with committed():
            hand_over(started_game(alice, bob, time_control="3d"))
        clock.shift(timedelta(seconds=110))
        with committed():
            worker.run_due()
        assert mailoutbox == []
        clock.shift(timedelta(seconds=11))
        with committed():
            worker.run_due()
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]


def test_bob_opening_the_game_before_the_email_is_due_stops_it(
    alice, bob, committed, mailoutbox, worker
):
    with time_machine.travel(MONDAY, tick=False) as clock:
        with committed():
            game = hand_over(started_game(alice, bob, time_control="3d"))
        clock.shift(timedelta(seconds=60))
        client_for(bob).get(game.get_absolute_url())
        clock.shift(timedelta(seconds=61))
        with committed():
            worker.run_due()
    assert mailoutbox == []


def test_the_same_check_twice_sends_one_email(alice, bob, committed, mailoutbox):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        game = hand_over(game)
        tasks.check_notification(Notification.Kind.YOUR_TURN, game.pk, 1, game.seq)
    with committed():
        tasks.check_notification(Notification.Kind.YOUR_TURN, game.pk, 1, game.seq)
    assert len(mailoutbox) == 1
    assert Notification.objects.count() == 1


def test_no_second_email_for_the_second_action_of_bobs_turn(alice, bob, committed, mailoutbox):
    game = hand_over(started_game(alice, bob, time_control="3d"))
    with committed():
        game = play(game, [first_legal(game)])
        assert game.to_decide == 1  # still bob's turn: his opening vaults are three actions
        play(game, [first_legal(game)])
    assert mailoutbox == []


def test_a_reminder_that_comes_due_after_bob_has_moved_is_dropped(
    alice, bob, committed, mailoutbox
):
    game = hand_over(started_game(alice, bob, time_control="3d"))
    his_decision = game.seq
    hand_over(game)
    with committed():
        tasks.check_notification(Notification.Kind.YOUR_TURN, game.pk, 1, his_decision)
    assert mailoutbox == []


def test_no_your_turn_email_once_bob_switched_it_off_on_the_settings_page(
    alice, bob, committed, mailoutbox
):
    choices = dict(EVERY_EMAIL)
    del choices["email_your_turn"]
    client_for(bob).post(reverse("settings-emails"), choices)
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    assert mailoutbox == []


def test_a_game_without_a_clock_still_says_whose_turn_it_is(alice, bob, committed, mailoutbox):
    game = started_game(alice, bob)
    with committed():
        hand_over(game)
    [mail] = mailoutbox
    assert mail.subject == f"Your turn against alice (game {game.pk})"
    assert "Time left" not in mail.body


# -- time almost up ------------------------------------------------------------------------------


def test_time_almost_up_is_sent_when_80_percent_of_a_decision_has_gone(
    alice, bob, committed, mailoutbox
):
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = hand_over(started_game(alice, bob, time_control="1d"))
        clock.shift(timedelta(hours=19))
        with committed():
            tasks.sweep()
        assert mailoutbox == []
        clock.shift(timedelta(hours=1))
        with committed():
            tasks.sweep()
    [mail] = mailoutbox
    assert mail.to == ["bob@example.com"]
    assert mail.subject == f"Time almost up against alice: 4 hours left (game {game.pk})"


def test_time_almost_up_is_sent_once_per_decision(alice, bob, committed, mailoutbox):
    with time_machine.travel(MONDAY, tick=False) as clock:
        hand_over(started_game(alice, bob, time_control="1d"))
        for _ in range(3):
            clock.shift(timedelta(hours=20 if not mailoutbox else 1))
            with committed():
                tasks.sweep()
    assert len(mailoutbox) == 1


# -- game over and rematch ----------------------------------------------------------------------


def test_game_over_goes_to_the_player_who_did_not_resign(alice, bob, committed, mailoutbox):
    game = hand_over(started_game(alice, bob, time_control="3d"))
    with committed():
        client_for(alice).post(reverse("games:resign", args=[game.pk]))
    [mail] = mailoutbox
    assert mail.to == ["bob@example.com"]
    assert mail.subject == f"Game over against alice (game {game.pk})"
    assert "you won" in mail.body


def test_the_player_who_ran_out_of_time_is_told_too(alice, bob, committed, mailoutbox):
    with time_machine.travel(MONDAY, tick=False) as clock:
        # Both have played, so running out is a loss, not a game that never began.
        hand_over(hand_over(hand_over(started_game(alice, bob, time_control="1d"))))
        PlayerSettings.objects.create(user=bob, vacation_days=0)  # no vacation to save him
        clock.shift(timedelta(days=1, minutes=1))
        with committed():
            tasks.sweep()
    over = [m for m in mailoutbox if m.subject.startswith("Game over")]
    assert sorted(m.to[0] for m in over) == ["alice@example.com", "bob@example.com"]
    assert "you lost" in mail_to(over, bob)[0].body


def test_a_rematch_offer_is_emailed_to_the_other_player(alice, bob, committed, mailoutbox):
    game = finished_game(alice, bob, winners=[0], scores=[40, 31])
    with committed():
        client_for(alice).post(reverse("games:rematch", args=[game.pk]), {"answer": "offer"})
    [mail] = mailoutbox
    assert mail.to == ["bob@example.com"]
    assert mail.subject == f"alice offers you a rematch (game {game.pk})"
    assert absolute(game.get_absolute_url()) in mail.body


# -- a takeback asked ---------------------------------------------------------------------------


def alice_places_a_building(game):
    """Alice's first move of a game of Cathedral (nothing hidden: it may be taken back)."""
    assert game.to_decide == 0
    return play(game, [game.engine.legal_actions(states.load_state(game))[0].to_json()])


def test_bob_is_emailed_that_alice_asks_to_take_back_her_last_action(
    alice, bob, committed, mailoutbox
):
    game = started_game(alice, bob, kind="cathedral", time_control="3d")
    with committed():
        game = alice_places_a_building(game)
    [_your_turn] = mail_to(mailoutbox, bob)
    with committed():
        takebacks.ask(game, alice, game.seq)
    [_, asked] = mail_to(mailoutbox, bob)
    assert asked.subject == f"alice asks to take back their last action (game {game.pk})"
    assert absolute(game.get_absolute_url()) in asked.body
    assert mail_to(mailoutbox, alice) == []


def test_no_takeback_email_once_bob_has_answered_or_while_he_watches(
    alice, bob, committed, mailoutbox
):
    game = started_game(alice, bob, kind="cathedral", time_control="3d")
    game = alice_places_a_building(game)
    assert client_for(bob).get(game.get_absolute_url()).status_code == 200
    with committed():
        takebacks.ask(game, alice, game.seq)
    assert mail_to(mailoutbox, bob) == []
    game = Game.objects.get(pk=game.pk)
    takebacks.answer(game, bob, game.seq, accept=False)
    assert not notify.still_due("takeback_asked", Game.objects.get(pk=game.pk), 1, game.seq)


# -- the daily digest ---------------------------------------------------------------------------


def three_games_waiting_for(player, opponent, clock):
    """Three games in which ``player`` must decide, begun an hour apart: 3, 1 and 7 days per
    move. Two hours after the last, the 1-day game has the least time left, then the 3-day."""
    games = {}
    for days in (3, 1, 7):
        games[days] = hand_over(started_game(opponent, player, time_control=f"{days}d"))
        clock.shift(timedelta(hours=1))
    clock.shift(timedelta(hours=1))
    return games


def test_the_daily_digest_lists_the_games_waiting_least_time_left_first(
    alice, bob, committed, mailoutbox
):
    # The digest comes at 07:00 in the player's zone: MONDAY's hour (13:00 UTC) in Chicago.
    PlayerSettings.objects.create(user=bob, email_daily_digest=True, time_zone="America/Chicago")
    with time_machine.travel(MONDAY, tick=False) as clock:
        games = three_games_waiting_for(bob, alice, clock)
        with committed():
            tasks.daily_digest()
    [mail] = mailoutbox
    assert mail.subject == "3 games waiting for you"
    listed = [int(pk) for pk in re.findall(r"^- Game (\d+) against alice", mail.body, re.M)]
    assert listed == [games[1].pk, games[3].pk, games[7].pk]
    assert f"- Game {games[1].pk} against alice: 21 hours left" in mail.body


def test_the_daily_digest_goes_only_to_players_who_turned_it_on(alice, bob, committed, mailoutbox):
    with time_machine.travel(MONDAY, tick=False) as clock:
        three_games_waiting_for(bob, alice, clock)
        with committed():
            tasks.daily_digest()
    assert mailoutbox == []


# -- unsubscribing and the settings page --------------------------------------------------------


def unsubscribe_link(mail) -> str:
    return re.search(r"Stop these emails: (\S+)", mail.body)[1].removeprefix(absolute(""))


def test_the_unsubscribe_link_turns_that_kind_of_email_off(alice, bob, committed, mailoutbox):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        game = hand_over(game)
    response = Client().get(unsubscribe_link(mailoutbox[0]))
    assert "You are unsubscribed" in response.text
    with committed():
        hand_over(hand_over(game))
    assert len(mail_to(mailoutbox, bob)) == 1
    assert PlayerSettings.objects.get(user=bob).email_game_over  # the other kinds stay on


def test_a_mail_programs_one_click_post_unsubscribes_without_a_csrf_token(
    alice, bob, committed, mailoutbox
):
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    mail_program = Client(enforce_csrf_checks=True)
    response = mail_program.post(
        unsubscribe_link(mailoutbox[0]),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert not PlayerSettings.objects.get(user=bob).email_your_turn


def test_undo_on_the_unsubscribe_page_turns_the_emails_back_on(alice, bob, committed, mailoutbox):
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    link = unsubscribe_link(mailoutbox[0])
    Client().get(link)
    response = Client().post(link, {"resubscribe": "1"})
    assert "You will get “your turn” emails again" in response.text
    assert PlayerSettings.objects.get(user=bob).email_your_turn


def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(alice, bob):
    token = notify.unsubscribe_token(bob, Notification.Kind.YOUR_TURN)
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    response = Client().get(reverse("unsubscribe", args=[forged]))
    assert response.status_code == 400
    assert "That link is not valid" in response.text
    assert not PlayerSettings.objects.filter(user=bob, email_your_turn=False).exists()


def test_the_link_in_an_emails_body_and_in_its_header_are_the_same_a_second_later(bob):
    # The body is written when the email is queued, the header when it is sent.
    with time_machine.travel(MONDAY, tick=False):
        written = notify.unsubscribe_url(bob, Notification.Kind.YOUR_TURN)
    with time_machine.travel(MONDAY + timedelta(seconds=1), tick=False):
        sent = notify.unsubscribe_url(bob, Notification.Kind.YOUR_TURN)
    assert written == sent


def test_the_timestamped_link_of_an_older_email_still_unsubscribes(bob):
    old = signing.dumps([bob.pk, "your_turn"], salt=notify.UNSUBSCRIBE_SALT, compress=True)
    response = Client().get(reverse("unsubscribe", args=[old]))
    assert response.status_code == 200
    assert not PlayerSettings.objects.get(user=bob).email_your_turn


def checked(page: str) -> set[str]:
    return set(re.findall(r'<input type="checkbox" name="(\w+)"[^>]*\bchecked\b', page))


def test_the_settings_page_saves_the_players_choices(bob):
    client = client_for(bob)
    response = client.post(
        reverse("settings-emails"),
        {"email_game_over": "on", "email_daily_digest": "on"},
    )
    assert response.status_code == 302
    page = client.get(reverse("settings")).text
    emails = {name for name in checked(page) if name.startswith("email_")}
    assert emails == {"email_game_over", "email_daily_digest"}


# -- the record, and the referee's view of it ---------------------------------------------------


def test_every_email_sent_is_recorded_as_delivered(alice, bob, committed, mailoutbox):
    with time_machine.travel(MONDAY, tick=False):
        game = started_game(alice, bob, time_control="3d")
        with committed():
            hand_over(game)
    [note] = Notification.objects.all()
    assert (note.user, note.kind, note.game_id) == (bob, "your_turn", game.pk)
    assert note.address == "bob@example.com"
    assert note.outcome == Notification.Outcome.SENT
    assert (note.attempts, note.sent_at) == (1, MONDAY)
    assert note.subject == mailoutbox[0].subject


def test_the_referee_sees_the_notifications_beside_the_game(alice, bob, committed):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    referee = staff_client_for(make_staff())
    page = referee.get(reverse("admin:games_game_change", args=[game.pk])).text
    notes = page[page.index("Notifications") :]
    assert "bob@example.com" in notes
    assert "your turn" in notes
    assert "delivered to the mail server" in notes


# -- in the site: the header count and My games -------------------------------------------------


def test_every_page_shows_how_many_games_wait_for_the_player(alice, bob):
    for _ in range(2):
        hand_over(started_game(alice, bob, time_control="3d"))
    page = client_for(bob).get(reverse("rules")).text
    assert re.search(r"<title>\(2\) ", page)
    assert re.search(r'id="turns" href="/games/mine/"[^>]*>My games <span class="badge"', page)
    assert 'aria-label="2 games waiting for your move">2</span>' in page


def test_no_count_shows_when_no_game_waits(alice, bob):
    hand_over(started_game(alice, bob, time_control="3d"))
    page = client_for(alice).get(reverse("rules")).text
    assert "<title>(" not in page
    assert 'class="badge"' not in page


def test_my_games_shows_each_games_time_left_least_first(alice, bob):
    with time_machine.travel(MONDAY, tick=False) as clock:
        games = three_games_waiting_for(bob, alice, clock)
        page = client_for(bob).get(reverse("games:mine")).text
    rows = re.findall(r'<a href="/games/(\d+)/">.*?<td class="time-left">([^<]*)</td>', page, re.S)
    assert rows == [
        (str(games[1].pk), "21 hours"),
        (str(games[3].pk), "2 days 20 hours"),
        (str(games[7].pk), "6 days 22 hours"),
    ]


def game_over_email(user, game) -> str:
    return notify.compose(user, Notification.Kind.GAME_OVER, game)[1]


def ended(game, **fields):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, to_decide=None, **fields)
    game.refresh_from_db()
    return game


def test_a_cathedral_game_over_email_names_the_players_and_counts_unplaced_squares(alice, bob):
    game = ended(
        started_game(alice, bob, kind="cathedral"),
        winners=[0],
        scores=[0, 47],
        termination="all placed",
    )
    body = game_over_email(alice, game)
    assert "you won" in body
    assert "alice 0, bob 47" in body
    assert "unplaced squares" in body.lower()
    assert "fewest" in body
    assert "Score:" not in body  # the bare numbers said nothing of who had which


def test_a_game_over_email_says_how_a_game_ended_off_the_board_not_its_squares_then(alice, bob):
    game = ended(
        started_game(alice, bob, kind="cathedral"),
        winners=[0],
        scores=[38, 34],
        termination="resignation",
        ended_by=1,
    )
    body = game_over_email(alice, game)
    assert "bob resigned: alice wins." in body
    assert "Score" not in body
    assert "unplaced" not in body  # the squares left when bob resigned decide nothing


def test_a_basilica_game_over_email_gives_each_players_points(alice, bob):
    game = finished_game(alice, bob, winners=[1], scores=[30, 41])
    body = game_over_email(alice, game)
    assert "you lost" in body
    assert "alice 30 points, bob 41 points" in body
