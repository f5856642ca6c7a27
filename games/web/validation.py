"""Limits on what a request may carry before the site reads it."""

from __future__ import annotations

from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _

# A move form is an action of a few short fields, a seq and the CSRF token: well under 1 KB.
MOVE_BODY_MAX = 4096


def body_at_most(limit: int):
    """Refuse with 413 a request whose body is larger than ``limit`` bytes, before parsing it."""

    def decorator(view):
        @wraps(view)
        def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                declared = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                declared = limit + 1
            if declared > limit or _size(request, declared) > limit:
                return HttpResponse(
                    _(
                        "That request is too large to be a move (at most %(limit)d bytes): "
                        "reload the page."
                    )
                    % {"limit": limit},
                    status=413,
                    content_type="text/plain; charset=utf-8",
                )
            return view(request, *args, **kwargs)

        return guarded

    return decorator


def _size(request: HttpRequest, declared: int) -> int:
    """The body's length; a multipart form that the CSRF check has already read from the stream
    keeps no body to measure, and was read no further than its declared length."""
    try:
        return len(request.body)
    except RawPostDataException:
        return declared
