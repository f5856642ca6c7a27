"""The browsers a player is told of their games in (Web Push): a subscription as the browser
hands it over, checked before it is kept, and a name the player can tell it by in Settings.

A subscription is an address at the browser's push service (``endpoint``) and the keys that
messages to it are encrypted to (``p256dh``, ``auth``): ``PushSubscription.toJSON()``."""

from __future__ import annotations

import base64
import binascii
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction

from games.models import PushDevice

# A player's phones, tablets and computers, not a script's thousands of endpoints for the task
# runner to post to: a new browser beyond these replaces the one subscribed longest ago.
MOST_PER_PLAYER = 10


class BadSubscription(ValueError):
    """What a browser sent is not a Web Push subscription this site can send to."""


def subscribe(user, data: object, user_agent: str = "") -> PushDevice:
    """Keep the browser's subscription for ``user`` (a browser that was another account's moves
    over to this one); ``BadSubscription`` says what is wrong with it."""
    endpoint, p256dh, auth = read(data)
    with transaction.atomic():
        known = PushDevice.objects.select_for_update().filter(endpoint=endpoint).first()
        if (
            known is not None
            and known.user_id != user.pk
            and (known.p256dh, known.auth)
            != (
                p256dh,
                auth,
            )
        ):
            # Only the browser itself (which holds its keys) moves to another account.
            raise BadSubscription("that browser is subscribed with other keys")
        device, _created = PushDevice.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "name": name_of(user_agent)},
        )
        kept = PushDevice.objects.filter(user=user).order_by("-created_at", "-pk")
        stale = list(kept.values_list("pk", flat=True)[MOST_PER_PLAYER:])
        PushDevice.objects.filter(pk__in=stale).delete()
    return device


def remove(user, device_id: int) -> bool:
    """Forget one of the player's own browsers; whether there was one to forget."""
    deleted, _ = PushDevice.objects.filter(user=user, pk=device_id).delete()
    return deleted > 0


def read(data: object) -> tuple[str, str, str]:
    """The endpoint and keys of a subscription, each checked."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise BadSubscription("a subscription is an endpoint and its keys")
    endpoint, keys = data.get("endpoint"), data["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not all(isinstance(v, str) for v in (endpoint, p256dh, auth)):
        raise BadSubscription("a subscription is an endpoint and its keys")
    check_endpoint(endpoint)
    point = _decoded(p256dh, 100)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as error:
        raise BadSubscription("p256dh is not a P-256 public key") from error
    if len(_decoded(auth, 50)) != 16:
        raise BadSubscription("auth is not a 16-byte secret")
    return endpoint, p256dh, auth


def check_endpoint(endpoint: str) -> None:
    """A push service's address: HTTPS, and not this machine's own network, for the task runner
    posts to it (``PUSH_LOCAL_ENDPOINTS`` lets development and the tests use a stand-in)."""
    if len(endpoint) > 1000:
        raise BadSubscription("the endpoint is too long")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as error:
        raise BadSubscription("the endpoint is not a URL") from error
    if settings.PUSH_LOCAL_ENDPOINTS and parts.scheme in ("http", "https") and host:
        return
    if parts.scheme != "https" or not host or parts.username or parts.password:
        raise BadSubscription("the endpoint is not an https URL")
    # The task runner posts to it: only the browsers' own push services, on HTTPS's port, never
    # an address of this site's network that a forged subscription names.
    host = host.rstrip(".")
    if parts.port not in (None, 443) or not any(
        host == domain or host.endswith("." + domain) for domain in settings.PUSH_SERVICE_DOMAINS
    ):
        raise BadSubscription("the endpoint is not a known browser push service")


def _decoded(value: str, longest: int) -> bytes:
    if not value or len(value) > longest or not re.fullmatch(r"[A-Za-z0-9_\-]+=*", value):
        raise BadSubscription("a key is not base64url")
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise BadSubscription("a key is not base64url") from error


# The first that matches names the browser: Edge and Opera say "Chrome" too, Chrome "Safari".
BROWSERS = [
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
]
SYSTEMS = [
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
]


def name_of(user_agent: str) -> str:
    """The browser and its system in a few words, from its User-Agent: "Firefox · Android";
    empty if neither is known."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return " · ".join(part for part in (browser, system) if part)
