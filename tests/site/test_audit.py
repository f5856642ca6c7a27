"""The audit log: every referee's decision is kept with who, what, which game and why; the
admin lists it with filters and lets nobody, not even a superuser, add, change or delete one."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from factories import finished_game, make_staff, make_user, staff_client_for, started_game

from games import audit
from games.models import AuditEntry, ChatMessage, Game, HiddenWord, Sanction
from games.play import referee

pytestmark = pytest.mark.django_db


def reasons(listing: str) -> list[str]:
    return re.findall(r'<td class="field-reason">([^<]*)</td>', listing)


@pytest.fixture
def rita():
    return make_staff("rita")


def test_an_abort_from_the_referees_form_is_in_the_audit_log(rita):
    game = started_game()
    staff_client_for(rita).post(
        reverse("admin:games_game_referee", args=[game.pk]),
        {"decision": "abort", "reason": "A duplicate game."},
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action, entry.game_id) == (rita, "referee.abort", game.pk)
    assert entry.reason == "A duplicate game."
    assert entry.details["status_before"] == "active"


def test_a_corrected_result_keeps_the_result_before_and_after(rita):
    alice, bob = make_user("alice"), make_user("bob")
    game = finished_game(alice, bob, [0], [30, 20])
    referee.set_result(game, rita, [1], [20, 30], "The scores were swapped.")
    entry = AuditEntry.objects.get(action="referee.result")
    assert entry.details["winners_before"] == [0]
    assert entry.details["winners_after"] == [1]
    assert entry.details["scores_after"] == [20, 30]


def test_a_refused_decision_leaves_no_entry(rita):
    game = started_game()
    with pytest.raises(referee.RefereeRefused):
        referee.abort_game(game, rita, "   ")
    assert not AuditEntry.objects.exists()


def test_an_entry_cannot_be_changed_or_deleted_in_the_admin_even_by_a_superuser(rita):
    entry = audit.record(rita, "moderation.warn", user=make_user("troll"), reason="Insults.")
    admin = staff_client_for(rita)
    listing = admin.get(reverse("admin:games_auditentry_changelist"))
    assert listing.status_code == 200
    assert "moderation.warn" in listing.text
    assert "Insults." in listing.text
    assert admin.get(reverse("admin:games_auditentry_add")).status_code == 403
    page = admin.get(reverse("admin:games_auditentry_change", args=[entry.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.text
    changed = admin.post(
        reverse("admin:games_auditentry_change", args=[entry.pk]), {"reason": "nothing"}
    )
    assert changed.status_code == 403
    deleted = admin.post(reverse("admin:games_auditentry_delete", args=[entry.pk]), {"post": "yes"})
    assert deleted.status_code == 403
    bulk = admin.post(
        reverse("admin:games_auditentry_changelist"),
        {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert AuditEntry.objects.get(pk=entry.pk).reason == "Insults."


def test_the_admin_filters_by_action_and_by_actor(rita):
    other = make_staff("otto")
    audit.record(rita, "referee.abort", game=started_game(), reason="one")
    audit.record(other, "moderation.mute", user=make_user("loud"), reason="two")
    admin = staff_client_for(rita)
    url = reverse("admin:games_auditentry_changelist")
    by_action = admin.get(url, {"action": "moderation.mute"}).text
    assert reasons(by_action) == ["two"]
    by_actor = admin.get(url, {"actor__id__exact": rita.pk}).text
    assert reasons(by_actor) == ["one"]


def test_an_entry_is_never_changed_nor_deleted_in_code_either(rita):
    entry = audit.record(rita, "moderation.warn", reason="x")
    entry.reason = "y"
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()


# -- changes made by hand in the moderators' admin pages ------------------------------------------


def test_lifting_a_sanction_in_the_admin_is_in_the_audit_log(rita):
    troll = make_user("troll")
    muted = Sanction.objects.create(user=troll, kind="mute", reason="insults")
    answer = staff_client_for(rita).post(
        reverse("admin:games_sanction_changelist"),
        {"action": "lift", "_selected_action": [muted.pk]},
    )
    assert answer.status_code == 302
    muted.refresh_from_db()
    assert muted.lifted
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action, entry.user) == (rita, "moderation.lift", troll)
    assert entry.details["sanction"] == muted.pk


def test_a_chat_message_removed_by_hand_in_the_admin_is_in_the_audit_log(rita):
    game = started_game()
    line = ChatMessage.objects.create(game=game, author=game.seat1, room="players", text="rude")
    staff_client_for(rita).post(
        reverse("admin:games_chatmessage_change", args=[line.pk]), {"removed": "on"}
    )
    line.refresh_from_db()
    assert line.removed
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.user, entry.game) == ("moderation.message.change", game.seat1, game)
    assert entry.details["changed"] == ["removed"]


def test_the_word_filters_list_changed_in_the_admin_is_in_the_audit_log(rita):
    admin = staff_client_for(rita)
    admin.post(reverse("admin:games_hiddenword_add"), {"word": "potato"})
    word = HiddenWord.objects.get(word="potato")
    admin.post(reverse("admin:games_hiddenword_delete", args=[word.pk]), {"post": "yes"})
    assert not HiddenWord.objects.exists()
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "details__word"))
    assert actions == [("moderation.word.add", "potato"), ("moderation.word.delete", "potato")]
