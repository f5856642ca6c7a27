"""Where the community's parts meet: Ann blocks Bob in the middle of their game, and neither
reads the other's chat from then on (and Bob is not told); every moderator's decision and every
change an admin makes to a tournament is in the audit log; a suspended player's series is
resigned to its end, as a closed account's is, and they leave their tournaments."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import START, client_for, lobby_form, make_staff, make_user, started_game

from games.community import moderation, relations
from games.models import AuditEntry, ChatMessage, Game, Report
from games.play import services
from games.terms import GameSettings
from games.tournaments import entries, running, staff

pytestmark = pytest.mark.django_db


def say(user, game, text):
    return client_for(user).post(
        reverse("games:chat", args=[game.pk]), {"room": "players", "text": text}
    )


def page_of(user, game) -> str:
    return client_for(user).get(reverse("games:detail", args=[game.pk])).text


def test_after_a_block_neither_player_reads_the_other_and_the_blocked_one_is_not_told():
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(ann, bob)
    say(bob, game, "before the block")
    relations.block(ann, bob)
    answer = say(bob, game, "after the block, unseen")
    assert answer.status_code in (200, 302), "Bob's message is taken as any other"
    say(ann, game, "ann talks to herself")
    assert ChatMessage.objects.filter(game=game).count() == 3
    anns = page_of(ann, game)
    assert "after the block, unseen" not in anns
    bobs = page_of(bob, game)
    assert "after the block, unseen" in bobs, "Bob sees his own line, as if sent"
    assert "ann talks to herself" not in bobs
    assert "block" not in bobs.replace("after the block, unseen", "").replace(
        "before the block", ""
    )


def test_each_decision_of_a_moderator_is_in_the_audit_log():
    ann, bob, mod = make_user("ann"), make_user("bob"), make_staff("mod")
    game = started_game(ann, bob)
    say(bob, game, "rude words")
    line = ChatMessage.objects.get()
    subject = moderation.subject_of(game, ann, message_id=str(line.pk))
    first = moderation.report(ann, subject, Report.Reason.ABUSE, "twice")
    moderation.decide(first, mod, Report.Outcome.MUTED, "rude in chat", days=2)
    second = moderation.report(ann, moderation.Subject(game=game, player=bob), "stalling")
    moderation.decide(second, mod, Report.Outcome.DISMISSED, "he was thinking")
    rows = list(AuditEntry.objects.order_by("pk").values_list("action", "actor", "user", "reason"))
    assert rows == [
        ("moderation.muted", mod.pk, bob.pk, "rude in chat"),
        ("moderation.dismissed", mod.pk, bob.pk, "he was thinking"),
    ]


def test_a_suspension_resigns_a_series_to_its_end_and_is_in_the_audit_log():
    zed, bob, mod = make_user("zed"), make_user("bob"), make_staff("mod")
    client_for(zed).post(
        reverse("games:create"),
        lobby_form("cathedral", first="me", series="2", time_control="none"),
    )
    services.accept_game(Game.objects.get(series_number=1), bob)
    assert services.games_to_resign(zed) == 2
    ended = moderation.suspend(zed, mod, "threats", days=7)
    assert ended == 2
    assert not Game.objects.involving(zed).running().exists()
    entry = AuditEntry.objects.get(action="moderation.suspend")
    assert (entry.actor, entry.user, entry.reason, len(entry.details["games"])) == (
        mod,
        zed,
        "threats",
        2,
    )


def test_an_admin_cancelling_a_tournament_is_in_the_audit_log():
    ann, mod = make_user("ann"), make_staff("mod")
    cup = entries.create(
        ann,
        entries.Plan(name="Winter cup", format="swiss", rounds=2, max_players=8, starts_at=None),
        GameSettings(kind="basilica", time_control="3d"),
    )
    staff.cancel(cup, mod, "the organiser asked")
    entry = AuditEntry.objects.get(action="tournament.cancel")
    assert (entry.actor, entry.reason, entry.details["tournament"]) == (
        mod,
        "the organiser asked",
        cup.pk,
    )


def test_a_suspended_player_leaves_an_open_tournament_and_is_withdrawn_from_a_running_one(
    calendar,
):
    zed, bob, cat, dan, mod = (make_user(n) for n in ("zed", "bob", "cat", "dan", "mod"))
    mod.is_staff = True
    mod.save()
    plan = {"format": "swiss", "rounds": 2, "max_players": 8}
    waiting = entries.create(
        bob,
        entries.Plan(name="Later cup", starts_at=None, **plan),
        GameSettings(kind="basilica", time_control="3d"),
    )
    playing = entries.create(
        bob,
        entries.Plan(name="Now cup", starts_at=START + timedelta(days=1), **plan),
        GameSettings(kind="basilica", time_control="3d"),
    )
    for user in (cat, dan, zed):
        entries.join(playing, user)
    entries.join(waiting, zed)
    calendar.shift(timedelta(days=1, minutes=1))
    running.advance(playing.pk, timezone.now())
    moderation.suspend(zed, mod, "threats", days=7)
    assert not waiting.entries.filter(user=zed).exists()
    assert playing.entries.get(user=zed).withdrawn_at is not None, "never paired again"
    assert not Game.objects.involving(zed).running().exists()
