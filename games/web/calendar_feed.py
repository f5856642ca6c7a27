"""The calendar feed of a player's deadlines, and its secret address in Settings.

The feed is read by calendar apps, which log in to nothing: the secret in its address is the
key. There is no rate limit per address, because one calendar service (Google's) fetches the
feeds of all its users from a few addresses; a wrong secret costs one indexed lookup.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.correspondence import calendar
from games.models import PlayerSettings

MAX_AGE = 300  # seconds a calendar (or a proxy of its own) may keep the feed


@require_safe  # GET, and HEAD, which some calendar apps send first
def feed(request: HttpRequest, token: str) -> HttpResponse:
    prefs = calendar.owner_of(token)
    if prefs is None:
        raise Http404("no such calendar")
    response = HttpResponse(calendar.feed_of(prefs), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = f"private, max-age={MAX_AGE}"
    response["Content-Disposition"] = 'inline; filename="deadlines.ics"'
    response["Content-Language"] = prefs.speaks()  # the player's, not the reader's
    response["X-Robots-Tag"] = "noindex"
    return response


@require_POST
@login_required
def new_address(request: HttpRequest) -> HttpResponse:
    """Create the player's feed, or give it a new address (the former one stops working)."""
    had_one = PlayerSettings.of(request.user).calendar_token is not None
    calendar.new_address(request.user)
    if had_one:
        messages.info(
            request, _("Your calendar has a new address: the former one no longer works.")
        )
    else:
        messages.info(request, _("Your calendar feed is ready: add its address to your calendar."))
    return _back()


@require_POST
@login_required
def stop(request: HttpRequest) -> HttpResponse:
    calendar.stop(request.user)
    messages.info(request, _("Your calendar feed is stopped: its address no longer works."))
    return _back()


def _back() -> HttpResponse:
    return redirect(reverse("settings") + "#calendar")
