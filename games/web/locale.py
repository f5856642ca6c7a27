"""Each request in its viewer's language and time zone.

The language: a signed-in player's stored choice, else the cookie the footer's switcher sets,
else the browser's ``Accept-Language``; URLs carry no language, so a shared link works for
anyone. The time zone: the player's stored one, else the browser's (``site.js`` keeps it in a
cookie), else UTC. Both are activated once per request, never looked up per string.
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache
from types import SimpleNamespace
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.models import PlayerSettings
from games.play.vacation import settings_for
from games.web.middleware import DATABASE_AWAY

ZONE_COOKIE = "tz"


ZONE_NAMES = frozenset(zoneinfo.available_timezones())  # read once: it scans the tz database


@lru_cache(maxsize=512)
def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The IANA zone of that name, or None for anything else (a cookie is the visitor's)."""
    if not name or len(name) > 64 or name not in ZONE_NAMES:
        return None
    return zoneinfo.ZoneInfo(name)


def language_of(request, prefs: PlayerSettings | None) -> str:
    if prefs is not None and prefs.language:
        return prefs.language
    return translation.get_language_from_request(request, check_path=False)


def zone_of(request, prefs: PlayerSettings | None) -> zoneinfo.ZoneInfo | None:
    if prefs is not None and prefs.time_zone:
        return zone_named(prefs.time_zone)
    return zone_named(request.COOKIES.get(ZONE_COOKIE, ""))


def locale_of_socket(scope: dict, user) -> tuple[str, str | None]:
    """A game socket's language and zone name, found as its page's were (in a worker thread: a
    signed-in player's settings are a query)."""
    headers = dict(scope.get("headers") or [])
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
        path_info="/",
    )
    prefs = PlayerSettings.of(user) if user.is_authenticated else None
    zone = zone_of(request, prefs)
    return language_of(request, prefs), (zone.key if zone is not None else None)


class PlayerLocale:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        try:
            signed_in = user is not None and user.is_authenticated
            prefs = PlayerSettings.of(user) if signed_in else None
        except DATABASE_AWAY:
            # The database is away (restarting): the browser's language, and the view meets the
            # database in its turn and is answered 503 (DatabaseUnavailable), never a 500 here.
            prefs = None
        request.player_settings = prefs
        if prefs is not None:
            user.settings_of_this_request = prefs  # PlayerSettings.of asks no more this request
        language = language_of(request, prefs)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        zone = zone_of(request, prefs)
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        response = self.get_response(request)
        patch_vary_headers(response, ["Accept-Language", "Cookie"])
        response.headers.setdefault("Content-Language", language)
        return response


LANGUAGE_NAMES = dict(settings.LANGUAGES)


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The footer's switcher: the visitor's choice kept in the language cookie, and a signed-in
    player's on their account too, so that it follows them to every device and every email."""
    language = request.POST.get("language", "")
    going = _back_to(request, request.POST.get("next", ""))
    if language not in LANGUAGE_NAMES:
        return HttpResponseBadRequest(gettext("No such language on this site."))
    if request.user.is_authenticated:
        settings_for(request.user)  # a first row starts with its vacation allowance
        PlayerSettings.objects.filter(user=request.user).update(language=language)
    response = HttpResponseRedirect(going)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def _back_to(request: HttpRequest, path: str) -> str:
    """The page the switcher was on: ``path`` (the form carries no query string, see base.html)
    with the query the browser's Referer gives when it names the same page of this site."""
    safe = {"allowed_hosts": {request.get_host()}, "require_https": request.is_secure()}
    if not url_has_allowed_host_and_scheme(path, **safe):
        return "/"
    came_from = request.headers.get("Referer", "")
    parts = urlsplit(came_from)
    if parts.query and parts.path == path and url_has_allowed_host_and_scheme(came_from, **safe):
        return f"{path}?{parts.query}"
    return path
