"""Reports and the moderators' decisions, as a player and a moderator live them: a report reaches
the admin's queue with its context; a mute silences the chat everywhere and says why and until
when; a suspension ends the running games as resignations, after a confirmation that counts
them, and refuses every play action while it lasts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import ChatMessage, Computer, Game, Report, Sanction
from games.play import closing, services
from tests.site.factories import (
    client_for,
    first_legal,
    lobby_form,
    make_staff,
    make_user,
    open_game,
    staff_client_for,
    started_game,
)

pytestmark = pytest.mark.django_db


def say(client, game, text, room="players"):
    return client.post(reverse("games:chat", args=[game.pk]), {"room": room, "text": text})


def decide(moderator, report, **form):
    return moderator.post(reverse("admin:games_report_decide", args=[report.pk]), form)


@pytest.fixture
def quarrel():
    """Bob insults Ann in their game's chat, among a few ordinary lines."""
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(ann, bob)
    anns, bobs = client_for(ann), client_for(bob)
    say(anns, game, "good luck")
    say(bobs, game, "you play like a potato")
    say(anns, game, "that was rude")
    return game, anns, bobs


def test_a_report_reaches_the_queue_in_context_and_a_mute_silences_the_player(quarrel):
    game, anns, bobs = quarrel
    insult = ChatMessage.objects.get(text="you play like a potato")
    form_url = reverse("games:report", args=[game.pk]) + f"?message={insult.pk}"
    assert "you play like a potato" in anns.get(form_url).content.decode()
    response = anns.post(
        reverse("games:report", args=[game.pk]),
        {"message": insult.pk, "reason": "abuse", "text": "he keeps at it"},
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.message) == (game.seat0, game.seat1, insult)

    staff = staff_client_for(make_staff())
    queue = staff.get(reverse("admin:games_report_changelist")).content.decode()
    assert "you play like a potato" in queue
    page = staff.get(reverse("admin:games_report_decide", args=[report.pk])).content.decode()
    for line in ("good luck", "you play like a potato", "that was rude", "he keeps at it"):
        assert line in page
    assert 'class="selected reported-message"' in page
    assert reverse("games:detail", args=[game.pk]) in page

    response = decide(staff, report, outcome="muted", reason="insults in chat", days="3")
    assert response.status_code == 302
    mute = Sanction.objects.get(user=game.seat1)
    assert (mute.kind, mute.reason, mute.moderator.username) == (
        "mute",
        "insults in chat",
        "referee",
    )
    assert timedelta(days=2, hours=23) < mute.ends_at - timezone.now() <= timedelta(days=3)
    report.refresh_from_db()
    assert (report.outcome, report.decided_by) == ("muted", mute.moderator)
    assert (
        "you play like a potato"
        not in staff.get(reverse("admin:games_report_changelist")).content.decode()
    )  # decided: out of the open queue

    bobs_page = bobs.get(game.get_absolute_url()).content.decode()
    assert "A moderator muted you until" in bobs_page
    assert "insults in chat" in bobs_page
    assert 'id="chat-players-form"' not in bobs_page  # no form to write with
    told = bobs.get(say(bobs, game, "sorry not sorry")["Location"]).content.decode()
    assert "A moderator muted you until" in told
    assert not ChatMessage.objects.filter(text="sorry not sorry").exists()
    other = started_game(make_user("carl"), game.seat1)
    say(bobs, other, "hello Carl")  # a mute holds in every game
    assert not ChatMessage.objects.filter(text="hello Carl").exists()
    assert say(anns, game, "bye").status_code == 302
    assert ChatMessage.objects.filter(text="bye").exists()  # Ann is not muted


def test_a_mute_ends_when_its_time_is_up(quarrel):
    game, _anns, bobs = quarrel
    Sanction.objects.create(
        user=game.seat1, kind="mute", reason="r", ends_at=timezone.now() - timedelta(minutes=1)
    )
    say(bobs, game, "I am back")
    assert ChatMessage.objects.filter(text="I am back").exists()


def test_a_warning_and_a_dismissal_are_recorded_with_the_moderator(quarrel):
    game, _anns, _bobs = quarrel
    insult = ChatMessage.objects.get(text="you play like a potato")
    staff = staff_client_for(make_staff())
    first = Report.objects.create(
        reporter=game.seat0, reported=game.seat1, message=insult, game=game, reason="abuse"
    )
    second = Report.objects.create(
        reporter=game.seat0, reported=game.seat1, game=game, reason="stalling"
    )
    assert decide(staff, first, outcome="warned", reason="").status_code == 400  # say why
    decide(staff, first, outcome="warned", reason="mind your words")
    decide(staff, second, outcome="dismissed", reason="moves are slow but legal")
    warning = Sanction.objects.get()
    assert (warning.kind, warning.reason) == ("warning", "mind your words")
    second.refresh_from_db()
    assert (second.outcome, second.decision_reason) == ("dismissed", "moves are slow but legal")
    assert second.decided_by.username == "referee"
    assert (
        "A moderator warned you: mind your words."
        in client_for(game.seat1).get(game.get_absolute_url()).content.decode()
    )


def test_a_report_may_name_only_what_the_reporter_can_see(quarrel):
    game, _anns, _bobs = quarrel
    carl = client_for(make_user("carl"))
    private = ChatMessage.objects.get(text="you play like a potato")
    url = reverse("games:report", args=[game.pk])
    response = carl.post(url, {"message": private.pk, "reason": "abuse"})
    assert response.status_code == 404  # a watcher never saw the players' chat
    response = carl.post(url, {"player": "bob", "reason": "nonsense"})
    assert response.status_code == 400
    assert "Choose a reason" in response.content.decode()
    assert carl.post(url, {"player": "bob", "reason": "cheating"}).status_code == 302
    assert Report.objects.get().reported == game.seat1


def test_the_word_filters_catch_is_released_or_removed_by_a_moderator(settings):
    settings.CHAT_HIDDEN_WORDS = ["potato"]
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(ann, bob)
    say(client_for(bob), game, "potato salad recipe?")
    say(client_for(bob), game, "you potato")
    _salad, _insult = ChatMessage.objects.order_by("pk")
    staff = staff_client_for(make_staff())
    queue = staff.get(reverse("admin:games_report_changelist")).content.decode()
    assert "potato salad recipe?" in queue
    assert "you potato" in queue
    first, second = Report.objects.order_by("pk")
    decide(staff, first, outcome="released", reason="")
    decide(staff, second, outcome="removed", reason="")
    anns_page = client_for(ann).get(game.get_absolute_url()).content.decode()
    assert "potato salad recipe?" in anns_page
    assert "you potato" not in anns_page
    assert "you potato" not in client_for(bob).get(game.get_absolute_url()).content.decode()


def test_suspension_confirms_the_count_then_ends_running_games_as_resignations():
    bob = make_user("bob")
    ann, dora = make_user("ann"), make_user("dora")
    first = started_game(ann, bob)  # Bob in seat 1
    second = started_game(bob, dora)  # Bob in seat 0
    finished = started_game(bob, make_user("eve"))
    services.resign(finished, finished.seat1)
    report = Report.objects.create(reporter=ann, reported=bob, game=first, reason="abuse")
    staff = staff_client_for(make_staff())

    asked = decide(staff, report, outcome="suspended", reason="threats", days="7")
    assert asked.status_code == 200
    assert "bob has 2 running games" in asked.content.decode()
    assert not Sanction.objects.exists()  # nothing yet: the moderator confirms first
    assert Game.objects.get(pk=first.pk).status == Game.Status.ACTIVE

    done = decide(staff, report, outcome="suspended", reason="threats", days="7", confirmed="1")
    assert done.status_code == 302
    suspension = Sanction.objects.get()
    assert (suspension.kind, suspension.user, suspension.reason) == ("suspension", bob, "threats")
    for game, winner in ((first, 0), (second, 1)):
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert (game.termination, game.winners) == ("resignation", [winner])
        assert game.ended_by == 1 - winner
    report.refresh_from_db()
    assert report.outcome == "suspended"


def test_a_suspended_player_is_told_everywhere_and_may_not_play():
    bob, ann = make_user("bob"), make_user("ann")
    waiting_for_bob = started_game(ann, make_user("carl"))  # not Bob's
    game = started_game(bob, ann)  # Bob moves first
    Sanction.objects.create(
        user=bob, kind="suspension", reason="threats", ends_at=timezone.now() + timedelta(days=7)
    )
    bobs = client_for(bob)
    for url in (reverse("games:lobby"), reverse("settings"), game.get_absolute_url()):
        html = bobs.get(url).content.decode()
        assert "Your account is suspended until" in html, url
        assert "threats" in html

    move = bobs.post(
        reverse("games:act", args=[game.pk]),
        {"action": __import__("json").dumps(first_legal(game)), "seq": game.seq},
    )
    assert move.status_code == 403
    assert "Your account is suspended" in move.content.decode()
    game.refresh_from_db()
    assert game.seq == 0

    created = bobs.post(reverse("games:create"), lobby_form())
    assert "Your account is suspended" in created.content.decode()
    assert not Game.objects.filter(seat0=bob, status=Game.Status.OPEN).exists()

    seek = open_game(make_user("dora"))
    accepted = bobs.post(reverse("games:accept", args=[seek.pk]), follow=True)
    assert "Your account is suspended" in accepted.content.decode()
    seek.refresh_from_db()
    assert seek.status == Game.Status.OPEN

    invitation = open_game(make_user("eve"), private=True)
    bobs.post(reverse("games:accept", args=[invitation.pk]), {"token": invitation.invite_token})
    invitation.refresh_from_db()
    assert invitation.seat1 is None

    say(bobs, game, "let me play")
    assert not ChatMessage.objects.exists()
    assert waiting_for_bob.status == Game.Status.ACTIVE  # others' games untouched
    assert "suspended" not in client_for(ann).get(reverse("games:lobby")).content.decode()


def test_staff_who_are_not_moderators_cannot_decide(quarrel):
    game, _anns, _bobs = quarrel
    report = Report.objects.create(reporter=game.seat0, reported=game.seat1, reason="abuse")
    clerk = staff_client_for(make_user("clerk", is_staff=True))
    assert decide(clerk, report, outcome="dismissed", reason="").status_code == 403
    report.refresh_from_db()
    assert report.outcome == ""


def test_a_player_is_reported_from_their_profile_and_the_moderator_sees_who():
    ann, bob = make_user("ann"), make_user("bob")
    anns = client_for(ann)
    profile = anns.get(reverse("profile", args=["bob"])).content.decode()
    form_url = reverse("report-player", args=["bob"])
    assert form_url in profile
    form = anns.get(form_url).content.decode()
    assert "The player bob" in form
    assert 'name="player"' not in form  # the address names the player: nothing to forge
    assert 'name="message"' not in form
    refused = anns.post(form_url, {"reason": "nonsense"})
    assert refused.status_code == 400
    assert "Choose a reason" in refused.content.decode()
    assert not Report.objects.exists()
    sent = anns.post(form_url, {"reason": "abuse", "text": "his name is an insult"})
    assert sent["Location"] == reverse("profile", args=["bob"])
    assert "a moderator will look at your report" in anns.get(sent["Location"]).content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game, report.message) == (ann, bob, None, None)

    staff = staff_client_for(make_staff())
    queue = staff.get(reverse("admin:games_report_changelist")).content.decode()
    assert reverse("admin:games_report_decide", args=[report.pk]) in queue
    page = staff.get(reverse("admin:games_report_decide", args=[report.pk])).content.decode()
    assert "his name is an insult" in page
    assert reverse("profile", args=["bob"]) in page
    assert decide(staff, report, outcome="warned", reason="choose another name").status_code == 302
    assert Sanction.objects.get().user == bob


def test_a_profile_report_is_not_for_oneself_nor_a_visitor_nor_a_closed_account():
    ann, carl = make_user("ann"), make_user("carl")
    anns = client_for(ann)
    own = reverse("report-player", args=["ann"])
    assert own not in anns.get(reverse("profile", args=["ann"])).content.decode()
    told = anns.post(own, {"reason": "abuse"}, follow=True).content.decode()
    assert "You cannot report yourself." in told

    visitor = Client()
    assert own not in visitor.get(reverse("profile", args=["ann"])).content.decode()
    assert visitor.post(own, {"reason": "abuse"})["Location"].startswith(reverse("login"))

    closing.close_account(carl)
    closed_name = User.objects.get(pk=carl.pk).username
    gone = anns.post(reverse("report-player", args=[closed_name]), {"reason": "abuse"})
    assert gone.status_code == 404
    assert anns.get(reverse("report-player", args=["nobody"])).status_code == 404
    assert not Report.objects.exists()


def test_the_computer_is_no_one_to_report_from_its_profile():
    ann = make_user("ann")
    computer = Computer.objects.first().user  # the site's own, made by a migration
    anns = client_for(ann)
    url = reverse("report-player", args=[computer.username])
    assert url not in anns.get(reverse("profile", args=[computer.username])).content.decode()
    told = anns.post(url, {"reason": "cheating"}, follow=True).content.decode()
    assert "The computer plays by its program" in told
    assert not Report.objects.exists()
