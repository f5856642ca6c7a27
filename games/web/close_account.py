"""Closing one's own account from Settings: a page that says what closing does and how many
running games it resigns, and asks for the password; then the account is closed
(``games.play.closing``) and its sessions end."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games.play import closing, services


class CloseAccountForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, request: HttpRequest, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        user = self.request.user
        # Through the login's own checks: django-axes counts a wrong password here too.
        if authenticate(self.request, username=user.username, password=password) != user:
            raise forms.ValidationError(_("This is not your password: nothing was closed."))
        return password


@login_required
@require_http_methods(["GET", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    form = CloseAccountForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        resigned = closing.close_account(request.user)
        logout(request)
        messages.success(
            request,
            _("Your account is closed. Its games stay, under “deleted player”. Goodbye!")
            if not resigned
            else _(
                "Your account is closed, and its running games were resigned. Its games stay, "
                "under “deleted player”. Goodbye!"
            ),
        )
        return redirect("home")
    context = {"form": form, "resigning": services.games_to_resign(request.user)}
    return render(request, "games/close_account.html", context, status=400 if form.errors else 200)
