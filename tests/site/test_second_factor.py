"""The staff's second factor: after the password, a code from an authenticator app or a
recovery code before any admin page (the admin's own, the referee's, the site's figures);
players log in as before."""

from __future__ import annotations

import re
from base64 import b32decode

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from factories import PASSWORD, START, client_for, make_staff, make_user, started_game

from games.models import AuditEntry

pytestmark = pytest.mark.django_db

SECOND_FACTOR = reverse("second-factor")


def admin_pages(game) -> dict[str, str]:
    return {
        "admin index": reverse("admin:index"),
        "a model's list": reverse("admin:games_game_changelist"),
        "the site's figures": reverse("site-figures"),
        "a referee's page": reverse("admin:games_game_referee", args=[game.pk]),
        "a game's review": reverse("admin:games_game_review", args=[game.pk]),
    }


def log_in(username: str) -> Client:
    client = Client()
    answer = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert answer.status_code == 302
    return client


def code_of(secret: str, at_offset: int = 0) -> str:
    """The six digits an authenticator app shows for ``secret`` (as the setup page writes it)."""
    key = b32decode(secret.replace(" ", ""))
    totp = TOTP(key)
    totp.time += at_offset
    return f"{totp.token():06d}"


def app_of(user) -> TOTPDevice:
    return TOTPDevice.objects.create(user=user, name="phone", confirmed=True)


def code_for(app: TOTPDevice) -> str:
    return f"{TOTP(app.bin_key, app.step, app.t0, app.digits, app.drift).token():06d}"


def test_a_staff_login_without_its_second_factor_reaches_no_admin_page():
    rita = make_staff("rita")
    app_of(rita)
    client = client_for(rita)  # the right password, no code yet
    for what, url in admin_pages(started_game()).items():
        answer = client.get(url)
        assert answer.status_code == 302, what
        assert answer.url.startswith(SECOND_FACTOR), what
    refused = client.post(
        reverse("admin:games_game_referee", args=[started_game().pk]),
        {"decision": "abort", "reason": "a forged form"},
    )
    assert refused.url.startswith(SECOND_FACTOR)


def test_with_its_code_the_staff_reach_every_admin_page():
    rita = make_staff("rita")
    app = app_of(rita)
    client = log_in("rita")
    game = started_game()
    answer = client.post(SECOND_FACTOR, {"code": code_for(app), "next": reverse("admin:index")})
    assert answer.status_code == 302
    assert answer.url == reverse("admin:index")
    for what, url in admin_pages(game).items():
        assert client.get(url).status_code == 200, what


def test_the_login_page_sends_the_staff_on_to_their_code_and_then_where_they_were_going():
    rita = make_staff("rita")
    app_of(rita)
    answer = Client().post(
        reverse("login"), {"username": "rita", "password": PASSWORD, "next": "/admin/figures/"}
    )
    assert answer.url == f"{SECOND_FACTOR}?next=%2Fadmin%2Ffigures%2F"


def test_a_player_logs_in_as_before_and_never_sees_the_second_factor():
    make_user("alice")
    answer = Client().post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert answer.url == reverse("games:lobby")
    client = client_for(make_user("bob"))
    assert client.get(reverse("games:lobby")).status_code == 200
    assert client.get(SECOND_FACTOR).url == reverse("admin:index")  # nothing to give
    assert client.get(reverse("admin:index")).url.startswith(reverse("admin:login"))


def test_a_staff_member_without_an_app_sets_one_up_and_is_shown_recovery_codes_once():
    rita = make_staff("rita")
    client = client_for(rita)
    setup = client.get(client.get(reverse("admin:index")).url)
    assert "Set up your second factor" in setup.text
    assert 'role="img" aria-labelledby="qr-title"' in setup.text  # the QR code, drawn inline
    secret = re.search(r"data-secret>([A-Z2-7 ]+)<", setup.text).group(1)
    assert client.get(setup.request["PATH_INFO"]).text.count(secret) == 1  # the same app again

    done = client.post(SECOND_FACTOR, {"code": code_of(secret), "next": "/admin/"})
    codes = re.findall(r"<li><code>(\w+)</code></li>", done.text)
    assert len(codes) == 10
    assert TOTPDevice.objects.get(user=rita).confirmed
    assert client.get(reverse("admin:index")).status_code == 200
    assert AuditEntry.objects.filter(action="second_factor.set_up", user=rita).exists()
    later = client_for(rita).get(SECOND_FACTOR)
    assert not any(code in later.text for code in codes)
    assert "Set up" not in later.text


def test_a_wrong_setup_code_confirms_nothing():
    rita = make_staff("rita")
    client = client_for(rita)
    client.get(SECOND_FACTOR)
    answer = client.post(SECOND_FACTOR, {"code": "000000"})
    assert answer.status_code == 400
    assert "This code is wrong or has expired" in answer.text
    assert not TOTPDevice.objects.filter(user=rita, confirmed=True).exists()
    assert client.get(reverse("admin:index")).status_code == 302


def test_a_wrong_code_is_refused_and_five_of_them_pause_the_account():
    rita = make_staff("rita")
    app = app_of(rita)
    client = client_for(rita)
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(5):
            wrong = client.post(SECOND_FACTOR, {"code": "123456"})
            assert wrong.status_code == 400
            assert "This code is wrong or has expired" in wrong.text
            clock.shift(120)  # past django-otp's own growing delay
        right = client.post(SECOND_FACTOR, {"code": code_for(app)})
        assert right.status_code == 429
        assert "Too many wrong codes for this account" in right.text
        assert client.get(reverse("admin:index")).status_code == 302
        # The pause is the account's, not the browser's.
        other = client_for(rita).post(SECOND_FACTOR, {"code": code_for(app)})
        assert other.status_code == 429
        clock.shift(16 * 60)
        right = client.post(SECOND_FACTOR, {"code": code_for(app)})
        assert right.status_code == 302
        assert client.get(reverse("admin:index")).status_code == 200


def test_a_recovery_code_works_once():
    rita = make_staff("rita")
    client = client_for(rita)
    secret = re.search(r"data-secret>([A-Z2-7 ]+)<", client.get(SECOND_FACTOR).text).group(1)
    done = client.post(SECOND_FACTOR, {"code": code_of(secret)})
    code = re.findall(r"<li><code>(\w+)</code></li>", done.text)[3]

    first = client_for(rita)
    assert first.post(SECOND_FACTOR, {"code": code}).status_code == 302
    assert first.get(reverse("admin:index")).status_code == 200
    again = client_for(rita).post(SECOND_FACTOR, {"code": code})
    assert again.status_code == 400
    assert StaticToken.objects.filter(device__user=rita).count() == 9


def test_a_lost_phone_is_reset_from_the_command_line_and_logged():
    rita = make_staff("rita")
    app_of(rita)
    call_command("reset_second_factor", "rita", reason="phone lost on a train")
    assert not TOTPDevice.objects.filter(user=rita).exists()
    entry = AuditEntry.objects.get(action="second_factor.reset")
    assert (entry.user, entry.reason) == (rita, "phone lost on a train")
    setup = client_for(rita).get(SECOND_FACTOR)
    assert "Set up your second factor" in setup.text


def test_a_right_code_just_after_a_wrong_one_is_told_to_wait_not_that_it_is_wrong():
    rita = make_staff("rita")
    app = app_of(rita)
    client = client_for(rita)
    with time_machine.travel(START, tick=False) as clock:
        assert client.post(SECOND_FACTOR, {"code": "123456"}).status_code == 400
        too_soon = client.post(SECOND_FACTOR, {"code": code_for(app)})
        assert too_soon.status_code == 400
        assert "After a wrong code, wait 1 second before the next one." in too_soon.text
        assert "This code is wrong" not in too_soon.text
        clock.shift(1)
        assert client.post(SECOND_FACTOR, {"code": code_for(app)}).status_code == 302
        assert client.get(reverse("admin:index")).status_code == 200
