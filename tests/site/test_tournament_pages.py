"""The tournaments' pages as players use them: the list, creating one, its page, joining and
leaving (as a plain form and as HTMX), and every refusal, which changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import client_for, make_staff, make_user, staff_client_for

from games.models import AuditEntry, Entry, PlayerSettings, Rating, Sanction, Tournament
from games.terms import GameSettings
from games.tournaments import entries, running

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    return make_user("ann")


@pytest.fixture
def bob():
    return make_user("bob")


def cup_of(creator, **plan) -> Tournament:
    plan.setdefault("starts_at", timezone.now() + timedelta(days=2))
    plan.setdefault("max_players", 8)
    plan.setdefault("format", "swiss")
    plan.setdefault("rounds", 3)
    return entries.create(
        creator,
        entries.Plan(name="Autumn cup", **plan),
        GameSettings(kind="basilica", time_control="3d", rated=True),
    )


def new_tournament_form(**fields) -> dict:
    moment = timezone.localtime(timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "kind": "basilica",
        "t-name": "Winter league",
        "t-format": "round_robin",
        "t-rounds": "",
        "t-max_players": "6",
        "t-start": "at",
        "t-starts_at": moment,
        "t-timeouts_allowed": "2",
        "basilica-time_control": "3d",
        "basilica-rated": "on",
        "basilica-edition": "2022",
    }
    form.update(fields)
    return form


def test_a_player_creates_a_round_robin_from_the_form_and_is_its_first_player(ann):
    page = client_for(ann).post(reverse("games:tournament-new"), new_tournament_form())
    league = Tournament.objects.get()
    assert page.status_code == 302
    assert page.url == league.get_absolute_url()
    assert league.format == "round_robin"
    assert league.terms["time_control"] == "3d"
    assert league.terms["rated"] is True
    assert list(Entry.objects.filter(tournament=league).values_list("user", flat=True)) == [ann.pk]
    shown = client_for(ann).get(league.get_absolute_url()).content.decode()
    assert "Winter league" in shown
    assert "Sonneborn–Berger" in shown  # noqa: RUF001 - the name has an en dash
    assert "if at least three players have joined by then" in shown


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"t-max_players": "13"}, "A round robin takes at most 12 players."),
        ({"t-format": "swiss", "t-rounds": "6", "t-max_players": "6"}, "at most one round fewer"),
        ({"t-start": "at", "t-starts_at": ""}, "Say when the tournament starts."),
        ({"basilica-time_control": "9d"}, "not one of the choices offered"),
    ],
)
def test_a_tournament_the_form_refuses_is_not_created_and_the_page_says_why(ann, fields, words):
    page = client_for(ann).post(reverse("games:tournament-new"), new_tournament_form(**fields))
    assert page.status_code == 400
    assert words in page.content.decode()
    assert not Tournament.objects.exists()


def test_only_the_staff_may_mark_a_tournament_official(ann):
    client_for(ann).post(
        reverse("games:tournament-new"), new_tournament_form(**{"t-official": "on"})
    )
    assert Tournament.objects.get().official is False


def test_the_list_shows_upcoming_running_and_finished_tournaments_to_anyone(ann):
    cup_of(ann)
    hidden = cup_of(ann, invite_only=True)
    hidden.name = "Secret cup"
    hidden.save()
    page = Client().get(reverse("games:tournaments")).content.decode()
    assert "Autumn cup" in page
    assert "Secret cup" not in page, "an invitation-only tournament is not listed"


def test_joining_and_leaving_with_a_plain_form(ann, bob):
    cup = cup_of(ann)
    client = client_for(bob)
    answer = client.post(reverse("games:tournament-join", args=[cup.pk]))
    assert answer.status_code == 302
    assert Entry.objects.filter(tournament=cup, user=bob).exists()
    assert "You have joined the tournament." in client.get(cup.get_absolute_url()).content.decode()
    client.post(reverse("games:tournament-leave", args=[cup.pk]))
    assert not Entry.objects.filter(tournament=cup, user=bob).exists(), "before the start: gone"


def test_joining_with_htmx_redraws_the_entry_box_with_a_leave_button(ann, bob):
    cup = cup_of(ann)
    answer = client_for(bob).post(
        reverse("games:tournament-join", args=[cup.pk]), headers={"HX-Request": "true"}
    )
    box = answer.content.decode()
    assert answer.status_code == 200
    assert box.lstrip().startswith('<div id="entry"')
    assert "Leave" in box


def test_a_player_outside_the_rating_range_cannot_join(ann, bob):
    cup = cup_of(ann, rating_min=1400, rating_max=1600)
    Rating.objects.create(user=bob, kind="basilica", speed="correspondence", rating=1750)
    answer = client_for(bob).post(reverse("games:tournament-join", args=[cup.pk]))
    assert not Entry.objects.filter(tournament=cup, user=bob).exists()
    assert answer.status_code == 302
    page = client_for(bob).get(cup.get_absolute_url()).content.decode()
    assert "outside the range of this tournament" in page


def test_a_suspended_player_can_neither_create_nor_join_a_tournament_and_is_told_why(ann, bob):
    Sanction.objects.create(user=bob, kind="suspension", reason="abusive chat")
    created = client_for(bob).post(reverse("games:tournament-new"), new_tournament_form())
    assert created.status_code == 400
    assert "Your account is suspended until a moderator lifts it: abusive chat." in (
        created.content.decode()
    )
    assert not Tournament.objects.exists()
    cup = cup_of(ann)
    client_for(bob).post(reverse("games:tournament-join", args=[cup.pk]))
    assert not Entry.objects.filter(tournament=cup, user=bob).exists()
    page = client_for(bob).get(cup.get_absolute_url()).content.decode()
    assert "abusive chat" in page


def test_a_full_tournament_refuses_another_player(ann, bob):
    cup = cup_of(ann, max_players=3)
    entries.join(cup, make_user("cat"))
    entries.join(cup, make_user("dan"))
    with pytest.raises(entries.Refused, match="full"):
        entries.join(cup, bob)
    assert cup.entries.count() == 3


def test_a_started_tournament_refuses_a_new_player(ann, bob):
    cup = cup_of(ann, starts_at=timezone.now() + timedelta(minutes=1))
    entries.join(cup, make_user("cat"))
    entries.join(cup, make_user("dan"))
    running.advance(cup.pk, timezone.now() + timedelta(minutes=2))
    with pytest.raises(entries.Refused, match="already started"):
        entries.join(cup, bob)


def test_an_invitation_only_tournament_needs_its_link(ann, bob):
    cup = cup_of(ann, invite_only=True)
    client = client_for(bob)
    assert client.get(cup.get_absolute_url()).status_code == 404
    assert client.post(reverse("games:tournament-join", args=[cup.pk])).status_code == 404
    assert (
        client.post(
            reverse("games:tournament-join", args=[cup.pk]), {"token": "guessed"}
        ).status_code
        == 404
    )
    assert not Entry.objects.filter(tournament=cup, user=bob).exists()
    link = reverse("games:tournament-invite", args=[cup.pk, cup.invite_token])
    page = client.get(link).content.decode()
    assert cup.invite_token in page, "the join button carries the invitation"
    client.post(reverse("games:tournament-join", args=[cup.pk]), {"token": cup.invite_token})
    assert Entry.objects.filter(tournament=cup, user=bob).exists()
    shown_to_creator = client_for(ann).get(cup.get_absolute_url()).content.decode()
    assert link in shown_to_creator, "the organiser sees the link to send"


def test_a_forged_post_without_its_csrf_token_is_refused(ann, bob):
    cup = cup_of(ann)
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    assert client.post(reverse("games:tournament-join", args=[cup.pk])).status_code == 403
    assert client.post(reverse("games:tournament-new"), new_tournament_form()).status_code == 403
    assert not Entry.objects.filter(tournament=cup, user=bob).exists()
    assert Tournament.objects.count() == 1


def test_an_anonymous_post_is_sent_to_log_in_and_changes_nothing(ann):
    cup = cup_of(ann)
    answer = Client().post(reverse("games:tournament-join", args=[cup.pk]))
    assert answer.status_code == 302
    assert reverse("login") in answer.url
    assert cup.entries.count() == 1
    assert Client().post(reverse("games:tournament-leave", args=[cup.pk])).status_code == 302
    assert cup.entries.count() == 1


def test_leaving_a_tournament_one_never_joined_is_refused(ann, bob):
    cup = cup_of(ann)
    answer = client_for(bob).post(
        reverse("games:tournament-leave", args=[cup.pk]), headers={"HX-Request": "true"}
    )
    assert answer.status_code == 409
    assert "You are not playing in this tournament." in answer.content.decode()


def test_the_profile_lists_the_tournaments_played_with_places(ann, bob):
    cup = cup_of(ann)
    entries.join(cup, bob)
    Entry.objects.filter(tournament=cup, user=bob).update(place=2)
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    page = Client().get(reverse("profile", args=["bob"])).content.decode()
    assert "Autumn cup" in page
    assert "place 2 of 2" in page


def test_the_lobby_and_the_site_navigation_link_to_the_tournaments(ann):
    page = client_for(ann).get(reverse("games:lobby")).content.decode()
    assert page.count(reverse("games:tournaments")) >= 2


def test_the_admin_cancels_a_tournament_with_a_reason_seen_in_its_audit(ann, bob):
    cup = cup_of(ann)
    referee = make_staff()
    staff_page = reverse("admin:games_tournament_staff", args=[cup.pk])
    assert client_for(bob).get(staff_page).status_code == 302, "a player is sent to log in"
    client = staff_client_for(referee)
    empty = client.post(staff_page, {"action": "cancel", "c-reason": ""})
    assert empty.status_code == 400
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.OPEN, "no reason, no change"
    answer = client.post(staff_page, {"action": "cancel", "c-reason": "the venue closed"})
    assert answer.status_code == 302
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED
    audit = client.get(reverse("admin:games_tournament_change", args=[cup.pk])).content.decode()
    assert "the venue closed" in audit
    assert "referee" in audit
    assert "Cancelled by the admin." in Client().get(cup.get_absolute_url()).content.decode()


def test_the_admin_strikes_out_an_entry_before_the_start_from_the_admin(ann, bob):
    cup = cup_of(ann)
    entries.join(cup, bob)
    client = staff_client_for(make_staff())
    staff_page = reverse("admin:games_tournament_staff", args=[cup.pk])
    assert "Withdraw a player" in client.get(staff_page).content.decode()
    answer = client.post(
        staff_page, {"action": "withdraw", "w-player": bob.pk, "w-reason": "a second account"}
    )
    assert answer.status_code == 302
    assert not cup.entries.filter(user=bob).exists()
    assert "bob" not in Client().get(cup.get_absolute_url()).content.decode()
    audit = client.get(reverse("admin:games_tournament_change", args=[cup.pk])).content.decode()
    assert "a second account" in audit
    forged = client.post(
        staff_page, {"action": "withdraw", "w-player": bob.pk, "w-reason": "again"}
    )
    assert forged.status_code == 400, "no longer a player of it: not offered, refused"


def test_a_tournament_renamed_in_the_admin_is_in_the_audit_log(ann):
    cup = cup_of(ann)
    rita = make_staff("rita")
    answer = staff_client_for(rita).post(
        reverse("admin:games_tournament_change", args=[cup.pk]),
        {
            "name": "Autumn cup (official)",
            "official": "on",
            **inline_management("entries", "pairings", "changes"),
        },
    )
    assert answer.status_code == 302
    entry = AuditEntry.objects.get(action="tournament.change")
    assert entry.actor == rita
    assert entry.details["changed"] == {"name": "Autumn cup (official)", "official": True}


def inline_management(*prefixes: str) -> dict:
    """The management forms of the admin page's inlines, with nothing changed in them."""
    return {
        f"{prefix}-{field}": value
        for prefix in prefixes
        for field, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))
    }


def test_the_admin_replaces_a_bye_by_a_game(ann, bob):
    cup = cup_of(ann, starts_at=timezone.now() + timedelta(minutes=1))
    cat = make_user("cat")
    entries.join(cup, bob)
    entries.join(cup, cat)
    running.advance(cup.pk, timezone.now() + timedelta(minutes=2))
    bye = cup.pairings.get(second__isnull=True)
    partner = next(u for u in (ann, bob, cat) if u.pk != bye.first_id)
    busy = cup.pairings.get(second__isnull=False)
    client = staff_client_for(make_staff())
    answer = client.post(
        reverse("admin:games_tournament_staff", args=[cup.pk]),
        {
            "action": "replace",
            "r-pairing": bye.pk,
            "r-first": bye.first_id,
            "r-second": partner.pk,
            "r-reason": "a test of the form",
        },
    )
    assert answer.status_code == 400, "the partner already plays in this round"
    assert "already plays another game of this round" in answer.content.decode()
    busy.refresh_from_db()
    assert busy.game.status == "active"


def test_the_start_is_read_in_the_creators_time_zone(ann):
    PlayerSettings.objects.create(user=ann, time_zone="Europe/Warsaw")
    form = new_tournament_form(**{"t-starts_at": "2031-01-10T12:00"})  # winter: UTC+1
    client_for(ann).post(reverse("games:tournament-new"), form)
    assert Tournament.objects.get().starts_at == datetime(2031, 1, 10, 11, 0, tzinfo=UTC)
