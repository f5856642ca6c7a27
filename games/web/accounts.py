"""Signing up; everything else about accounts is Django's own auth views."""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from basilica_site import backends
from games.models import CLOSED_PREFIX, PlayerSettings
from games.play.computer import RESERVED_PREFIX
from games.play.vacation import settings_for
from games.web.locale import zone_named
from games.web.ratelimit import limited


class SignUpForm(UserCreationForm):
    # The browser's zone, filled in by site.js (Intl); changeable in Settings.
    time_zone = forms.CharField(
        required=False, widget=forms.HiddenInput(attrs={"data-time-zone": ""})
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and username.lower().startswith(RESERVED_PREFIX):
            raise forms.ValidationError(
                _("Names beginning with “%(prefix)s” are the computer players': choose another."),
                code="reserved",
                params={"prefix": RESERVED_PREFIX},
            )
        if username and username.lower().startswith(CLOSED_PREFIX):
            # The names closed accounts keep (games.play.closing).
            raise forms.ValidationError(
                _("Names beginning with “%(prefix)s” are not available: choose another."),
                code="reserved",
                params={"prefix": CLOSED_PREFIX},
            )
        return username


def next_page(request: HttpRequest) -> str:
    """Where the new player was going (``next``, as Django's login reads it), if it is a page of
    this site; else the lobby."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe else ""


@require_http_methods(["GET", "POST"])
@limited("signup")
def signup(request: HttpRequest) -> HttpResponse:
    going = next_page(request)
    if request.user.is_authenticated:
        return redirect(going or "games:lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Emails go out in the language the player signed up in, until they choose another.
        zone = form.cleaned_data["time_zone"]
        settings_for(user)
        PlayerSettings.objects.filter(user=user).update(
            language=translation.get_language(), time_zone=zone if zone_named(zone) else ""
        )
        login(request, user, backend=backends.PATH)
        return redirect(going or "games:lobby")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": going},
        status=400 if form.errors else 200,
    )
