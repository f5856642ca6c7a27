"""``manage.py reset_second_factor USER``: forget a staff account's authenticator apps and
recovery codes (a lost phone), so that their next login sets up a new app. Kept in the audit
log with the reason given."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django_otp import devices_for_user

from games import audit


class Command(BaseCommand):
    help = "Forget a staff account's second factor: its next login sets up a new app."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--reason", default="", help="why, kept in the audit log")

    def handle(self, *args, username: str, reason: str, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no account called {username!r}")
        with transaction.atomic():
            devices = list(devices_for_user(user, confirmed=None))
            for device in devices:
                device.delete()
            audit.record(
                None,
                "second_factor.reset",
                user=user,
                reason=reason,
                devices=[type(d).__name__ for d in devices],
            )
        self.stdout.write(
            f"{username}: {len(devices)} device(s) forgotten; the next login sets up a new app."
        )
