"""Closing an account, at its player's request (Settings).

Their games stay: they are the opponent's games too, and their action logs point to the
player's row, which is kept under a name nobody can sign up with (``CLOSED_PREFIX`` and its id)
and shown everywhere as "deleted player" (``games.models.player_name``). Their running games end
as resignations through the one door of every resignation; seeks they opened are cancelled;
what was only theirs (settings and calendar token, notes, prepared lines, browsers, emails sent,
second-factor devices, ratings, the records of their logins) is deleted; the email and the
password go. ``account_closed`` is sent on commit so that other concerns forget their own rows
(the records of logins are kept by name, which is gone by then: they go here).
"""

from __future__ import annotations

from django.db import transaction
from django_otp import devices_for_user

from games import audit, events, upkeep
from games.models import (
    CLOSED_PREFIX,
    ConditionalLine,
    Game,
    GameNote,
    GameVisit,
    Notification,
    PlayerSettings,
    PushDevice,
    Rating,
)
from games.play import services


def close_account(user) -> list[int]:
    """Close ``user``'s account; the games resigned on the way, by id."""
    with transaction.atomic():
        resigned = services.resign_everything(user)
        for seek in Game.objects.filter(created_by=user, status=Game.Status.OPEN):
            services.cancel_game(seek, user)
        _forget(user)
        _anonymise(user)
        audit.record(user, "account.closed", user=user, resigned=resigned)
        events.send_on_commit(events.account_closed, user=user)
    return resigned


def _forget(user) -> None:
    for rows in (
        PlayerSettings.objects.filter(user=user),
        GameNote.objects.filter(user=user),
        ConditionalLine.objects.filter(user=user),
        PushDevice.objects.filter(user=user),
        GameVisit.objects.filter(user=user),
        Notification.objects.filter(user=user),
        Rating.objects.filter(user=user),
    ):
        rows.delete()
    for device in devices_for_user(user, confirmed=None):
        device.delete()
    upkeep.forget_logins(user.username)  # before the name is gone: they are kept by name


def _anonymise(user) -> None:
    """The row stays, for the action logs and the games' seats; nothing of the person does."""
    user.username = f"{CLOSED_PREFIX}{user.pk}"
    user.email = ""
    user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()  # and every session of theirs ends with the old hash
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
