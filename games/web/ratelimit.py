"""A simple per-address limit on what costs the site (mail, accounts, games), in the cache.

The windows are fixed (counted from the first request of a window), which is enough to stop a
script and never bothers a person. The limits are in ``settings.RATE_LIMITS``.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

PHRASES = {
    "signup": _("new accounts"),
    "password_reset": _("password-reset emails"),
    "create_game": _("new games"),
    "hint": _("hints"),
}


def refusal(scope: str, limit: int, minutes: int) -> str:
    """The page's sentence for ``scope`` used up: ``limit`` requests in ``minutes``."""
    said = {"count": limit, "minutes": minutes}
    if scope == "signup":
        return (
            ngettext(
                "This address has opened %(count)d new account in %(minutes)d minutes, the most "
                "the site allows: please try again later.",
                "This address has opened %(count)d new accounts in %(minutes)d minutes, the most "
                "the site allows: please try again later.",
                limit,
            )
            % said
        )
    if scope == "password_reset":
        return (
            ngettext(
                "This address has asked for %(count)d password-reset email in %(minutes)d minutes, "
                "the most the site allows: please try again later.",
                "This address has asked for %(count)d password-reset emails in %(minutes)d minutes, "
                "the most the site allows: please try again later.",
                limit,
            )
            % said
        )
    if scope == "hint":
        return (
            ngettext(
                "This address has asked for %(count)d hint in %(minutes)d minutes, the most the "
                "site allows: please try again later.",
                "This address has asked for %(count)d hints in %(minutes)d minutes, the most the "
                "site allows: please try again later.",
                limit,
            )
            % said
        )
    return (
        ngettext(
            "This address has opened %(count)d new game in %(minutes)d minutes, the most the site "
            "allows: please try again later.",
            "This address has opened %(count)d new games in %(minutes)d minutes, the most the site "
            "allows: please try again later.",
            limit,
        )
        % said
    )


def spend(scope: str, address: str) -> bool:
    """Count one request of ``scope`` from ``address``; False once the limit is reached."""
    limit, seconds = settings.RATE_LIMITS[scope]
    key = f"ratelimit:{scope}:{address}"
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens a new window
        cache.set(key, 1, timeout=seconds)
        count = 1
    return count <= limit


def limited(scope: str):
    """Refuse a POST with 429 and a clear page once its address has used up ``scope``."""

    def decorator(view):
        @wraps(view)
        def guarded(request, *args, **kwargs):
            if request.method == "POST" and not spend(scope, request.META.get("REMOTE_ADDR", "")):
                limit, seconds = settings.RATE_LIMITS[scope]
                context = {
                    "what": PHRASES[scope],
                    "limit": limit,
                    "minutes": seconds // 60,
                    "sentence": refusal(scope, limit, seconds // 60),
                }
                return render(request, "ratelimited.html", context, status=429)
            return view(request, *args, **kwargs)

        return guarded

    return decorator
