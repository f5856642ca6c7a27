"""`manage.py vapid_keys`: a new VAPID key pair for browser notifications (Web Push), printed as
the two environment variables production reads. Keep the pair: browsers subscribed with one
public key are reached only with its private half (a new pair means every player turns their
notifications on again)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.correspondence import push


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY."

    def handle(self, *args, **options) -> None:
        public, private = push.new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
