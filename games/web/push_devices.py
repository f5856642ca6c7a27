"""Browser notifications in Settings: the service worker that shows them, a browser's
subscription handed over by the page's script (``static/js/push.js``), and the removal of a
browser, which works without JavaScript (Post/Redirect/Get)."""

from __future__ import annotations

import json
from functools import cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.correspondence import devices, push

WORKER = settings.BASE_DIR / "static" / "js" / "push-worker.js"
LONGEST_SUBSCRIPTION = 4096  # bytes: an endpoint and two keys


@cache
def _worker_script() -> bytes:
    return WORKER.read_bytes()


@require_GET
def worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is the whole site."""
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # a new version reaches the browsers at once
    return response


@require_POST
def subscribe(request: HttpRequest) -> HttpResponse:
    """Keep this browser's subscription (JSON, as ``PushSubscription.toJSON()`` gives it)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "log in first"}, status=403)
    if not push.public_key():
        return JsonResponse({"error": "this site sends no browser notifications"}, status=404)
    if len(request.body) > LONGEST_SUBSCRIPTION:
        return JsonResponse({"error": "too long"}, status=400)
    try:
        data = json.loads(request.body)
        device = devices.subscribe(request.user, data, request.headers.get("User-Agent", ""))
    except (ValueError, UnicodeDecodeError) as error:  # BadSubscription is a ValueError
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"id": device.pk, "name": device.name}, status=201)


@require_POST
@login_required
def remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Forget one of the player's browsers; another player's is not found."""
    if not devices.remove(request.user, pk):
        raise Http404("no such browser of yours")
    messages.info(request, _("That browser will no longer be notified."))
    return redirect(reverse("settings") + "#push-devices")
