"""The staff's second factor: after the password, a code from an authenticator app (TOTP) or a
recovery code (django-otp's devices), before any admin page.

A staff account (``is_staff`` or ``is_superuser``) without a confirmed app is sent to the setup
page (a QR code and the secret as text, confirmed by a code, then ten recovery codes shown
once); one with an app is asked for a code. ``staff_second_factor``, a middleware, is the one
place that keeps an unverified staff session out of ``/admin/`` and everything under it (the
referee's pages and the site's figures included). Wrong codes are limited per account
(``RATE_LIMITS["second_factor"]``), on top of django-otp's own growing delays.
"""

from __future__ import annotations

import math
from base64 import b32encode
from collections.abc import Callable
from urllib.parse import urlencode

import qrcode
from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from games import audit
from games.web.accounts import next_page
from games.web.middleware import DATABASE_AWAY, database_away
from games.web.ratelimit import spend

GUARDED = "/admin/"
RECOVERY_CODES = 10


def needs_second_factor(user) -> bool:
    return user.is_authenticated and (user.is_staff or user.is_superuser)


def staff_second_factor(get_response: Callable) -> Callable:
    """Send a staff session that has not given its second factor from any admin page to the
    second factor's page, and back once it has."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(GUARDED):
            return get_response(request)
        user = request.user
        try:
            unverified = needs_second_factor(user) and not user.is_verified()
        except DATABASE_AWAY as error:
            return database_away(request, error)  # never the page unasked: 503, not a 500
        if unverified:
            return redirect(f"{reverse('second-factor')}?{urlencode({'next': request.path})}")
        return get_response(request)

    return middleware


class StaffLoginView(auth_views.LoginView):
    """Django's login page; a staff account goes on to its second factor."""

    def get_success_url(self) -> str:
        going = super().get_success_url()
        if needs_second_factor(self.request.user):
            return f"{reverse('second-factor')}?{urlencode({'next': going})}"
        return going


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "off", "spellcheck": "false"}
        ),
    )

    def clean_code(self) -> str:
        return "".join(self.cleaned_data["code"].split()).lower()


@login_required
@require_http_methods(["GET", "POST"])
def second_factor(request: HttpRequest) -> HttpResponse:
    going = next_page(request) or reverse("admin:index")
    user = request.user
    if not needs_second_factor(user) or user.is_verified():
        return redirect(going)
    app = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if app is None:
        return _set_up(request, going)
    return _ask(request, going)


def _ask(request: HttpRequest, going: str) -> HttpResponse:
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        refused = _refused(request)
        if refused:
            return refused
        wait = _wait_after_failure(request.user)
        if wait:
            # A code tried too soon after a wrong one is not even looked at (django-otp's
            # throttle, which doubles the wait each time): say so, rather than "wrong".
            form.add_error(
                "code",
                ngettext(
                    "After a wrong code, wait %(seconds)d second before the next one.",
                    "After a wrong code, wait %(seconds)d seconds before the next one.",
                    wait,
                )
                % {"seconds": wait},
            )
        else:
            device = _device_taking(request.user, form.cleaned_data["code"])
            if device is not None:
                otp_login(request, device)
                return redirect(going)
            _count_failure(request)
            form.add_error("code", _("This code is wrong or has expired: try the next one."))
    context = {"form": form, "next": going}
    return render(
        request, "registration/second_factor.html", context, status=400 if form.errors else 200
    )


def _set_up(request: HttpRequest, going: str) -> HttpResponse:
    user = request.user
    app = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if app is None:
        app = TOTPDevice.objects.create(user=user, confirmed=False, name="authenticator app")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        refused = _refused(request)
        if refused:
            return refused
        if app.verify_token(form.cleaned_data["code"]):
            codes = _confirm(user, app)
            otp_login(request, app)
            context = {"codes": codes, "next": going}
            return render(request, "registration/second_factor_codes.html", context)
        _count_failure(request)
        form.add_error("code", _("This code is wrong or has expired: try the next one."))
    context = {
        "form": form,
        "next": going,
        "secret": _grouped(b32encode(app.bin_key).decode()),
        "qr": _qr(app.config_url),
    }
    return render(
        request,
        "registration/second_factor_setup.html",
        context,
        status=400 if form.errors else 200,
    )


def _confirm(user, app: TOTPDevice) -> list[str]:
    """Confirm the app and give the account fresh recovery codes (the old ones no longer work)."""
    with transaction.atomic():
        app.confirmed = True
        app.save(update_fields=["confirmed"])
        TOTPDevice.objects.filter(user=user).exclude(pk=app.pk).delete()
        StaticDevice.objects.filter(user=user).delete()
        recovery = StaticDevice.objects.create(user=user, name="recovery codes")
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        StaticToken.objects.bulk_create(StaticToken(device=recovery, token=c) for c in codes)
        audit.record(user, "second_factor.set_up", user=user)
    return codes


def _device_taking(user, code: str):
    """The confirmed device that accepts ``code`` (the app's six digits, or a recovery code, which
    is then spent), if any."""
    with transaction.atomic():
        for device in (
            *TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True),
            *StaticDevice.objects.select_for_update().filter(user=user, confirmed=True),
        ):
            if device.verify_token(code):
                return device
    return None


def _wait_after_failure(user) -> int:
    """Seconds before the account's devices look at a code again after a wrong one, or 0."""
    now = timezone.now()
    waits = [
        math.ceil((data["locked_until"] - now).total_seconds())
        for model in (TOTPDevice, StaticDevice)
        for device in model.objects.filter(user=user, confirmed=True)
        for allowed, data in [device.verify_is_allowed()]
        if not allowed and data and "locked_until" in data
    ]
    return max(waits, default=0)


def _failures_key(request: HttpRequest) -> str:
    return f"user:{request.user.pk}"


def _refused(request: HttpRequest) -> HttpResponse | None:
    """The page refusing one more code once the account has used up its wrong codes."""
    limit, seconds = settings.RATE_LIMITS["second_factor"]
    if cache.get(f"ratelimit:second_factor:{_failures_key(request)}", 0) < limit:
        return None
    sentence = _(
        "Too many wrong codes for this account: please wait %(minutes)d minutes and try again."
    ) % {"minutes": seconds // 60}
    return render(request, "ratelimited.html", {"sentence": sentence}, status=429)


def _count_failure(request: HttpRequest) -> None:
    spend("second_factor", _failures_key(request))


def _grouped(secret: str) -> str:
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def _qr(text: str) -> dict:
    """The QR code of ``text`` as one SVG path of its dark modules, with its quiet zone."""
    code = qrcode.QRCode(border=4, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    matrix = code.get_matrix()
    path = "".join(
        f"M{x} {y}h1v1h-1z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark
    )
    return {"size": len(matrix), "path": path}
