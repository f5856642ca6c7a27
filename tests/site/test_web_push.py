"""Browser notifications (Web Push): a player turns them on in Settings, and their browser is
told of their turn, of their time almost up and of a game's end, with the game's link and what
the opponent did, in the player's language, outside their quiet hours.

The push service is a real HTTP server on 127.0.0.1 in a thread. Each test browser holds its
subscription's keys (a P-256 key pair and an auth secret, as a browser makes them) and decrypts
what arrives (aes128gcm), so the encryption and the VAPID signature are checked for real.
Alice always moves first; the site's delayed check runs at once in these tests.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation
from factories import client_for, finished_game, make_user, open_game, play, started_game
from huey.contrib.djhuey import HUEY
from py_vapid import Vapid02

from games import tasks
from games.community import news
from games.correspondence import devices, notify, push
from games.models import Block, Follow, Notification, PlayerSettings, PushDevice
from games.play import services, states, takebacks
from games.terms import GameSettings
from games.tournaments import entries, notices

pytestmark = pytest.mark.django_db

SITE = "http://basilica.example"
FIREFOX_ON_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"
CHROME_ON_WINDOWS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
MONDAY = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on 127.0.0.1: it keeps every POST and answers each path as told (201 if
    not told: the push is taken)."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self.answers: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                self.send_response(service.answers.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def at(self, path: str) -> list[dict]:
        return [r for r in self.received if r["path"] == path]


class Browser:
    """A browser's side of a subscription: its own key pair and auth secret, as
    ``pushManager.subscribe()`` makes them, and the decryption of what its push service got."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def read(self, received: dict) -> dict:
        plain = http_ece.decrypt(
            received["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@pytest.fixture
def service():
    service = PushService()
    service.thread.start()
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = SITE
    settings.NOTIFY_DELAY_SECONDS = 0
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_key_pair()
    settings.VAPID_SUBJECT = "mailto:admin@basilica.example"
    settings.PUSH_LOCAL_ENDPOINTS = True  # the push service stands on 127.0.0.1, on plain HTTP
    HUEY.flush()  # no task held from another test
    yield settings
    HUEY.flush()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def bob():
    return make_user("bob", email="bob@example.com")


def subscribe(user, browser: Browser, agent: str = FIREFOX_ON_ANDROID, client=None):
    """What push.js does once the player allowed notifications: POST the subscription."""
    client = client or client_for(user)
    return client.post(
        reverse("push-subscribe"),
        json.dumps(browser.subscription()),
        content_type="application/json",
        headers={"User-Agent": agent},
    )


@pytest.fixture
def bobs_phone(bob, service):
    browser = Browser(f"{service.origin}/bob-phone")
    assert subscribe(bob, browser).status_code == 201
    return browser


def hand_over(game):
    """Whoever decides now plays until the decision passes to the other player."""
    seat = game.to_decide
    while game.to_decide == seat:
        first = game.engine.legal_actions(states.load_state(game))[0].to_json()
        game = play(game, [first])
    return game


def run_held_pushes(now: datetime) -> None:
    """What the task runner's scheduler does at ``now``: run the pushes held until then."""
    moment = now.astimezone(UTC).replace(tzinfo=None)  # huey's clock: naive UTC
    for task in HUEY.read_schedule(moment):
        HUEY.execute(task, moment)


def vapid_claims(authorization: str) -> dict:
    token = authorization.split("t=", 1)[1].split(",", 1)[0]
    return json.loads(unb64(token.split(".")[1]))


# -- your turn, end to end -----------------------------------------------------------------------


def test_bobs_browser_is_told_it_is_his_turn_with_alices_move_and_the_games_link(
    alice, bob, bobs_phone, service, committed
):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        game = hand_over(game)
    [received] = service.at("/bob-phone")
    payload = bobs_phone.read(received)
    assert payload["title"] == f"Your turn against alice (game {game.pk})"
    assert payload["url"] == f"{SITE}/games/{game.pk}/"
    # Alice's three opening vaults, in the words of the game's log as bob sees it.
    assert payload["body"].startswith("alice: Placed a ")
    assert payload["body"].count("alice: Placed a ") == 3
    assert "left for this decision." in payload["body"]


def test_a_cathedral_player_is_told_of_the_building_placed(
    alice, bob, bobs_phone, service, committed
):
    game = started_game(alice, bob, time_control="3d", kind="cathedral")
    with committed():
        game = hand_over(game)
    payload = bobs_phone.read(service.received[0])
    assert payload["title"] == f"Your turn against alice (game {game.pk})"
    assert "Cathedral" in payload["body"].split("\n")[0]  # alice placed it, playing Light


def test_a_long_move_is_shortened_and_the_time_left_still_said(alice, bob, monkeypatch):
    game = hand_over(started_game(alice, bob, time_control="3d"))
    monkeypatch.setattr(push, "last_move", lambda game, seat: "alice: Placed a vault; " * 40)
    _, body = push.compose(bob, "your_turn", game)
    move, left = body.split("\n")
    assert len(move) <= push.LONGEST_MOVE
    assert move.endswith("…")
    assert left.endswith("left for this decision.")


def test_the_push_is_signed_with_the_sites_vapid_key_for_that_push_service(
    alice, bob, bobs_phone, service, committed, settings
):
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    [received] = service.received
    headers = received["headers"]
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0
    authorization = headers["authorization"]
    assert authorization.startswith("vapid t=")
    assert f"k={settings.VAPID_PUBLIC_KEY}" in authorization
    assert Vapid02.verify(authorization)  # the signature checks out with the key it names
    claims = vapid_claims(authorization)
    assert claims["aud"] == service.origin
    assert claims["sub"] == "mailto:admin@basilica.example"
    assert 0 < claims["exp"] - datetime.now(UTC).timestamp() <= 24 * 3600


def test_the_push_is_recorded_once_and_as_delivered(alice, bob, bobs_phone, service, committed):
    game = started_game(alice, bob, time_control="3d")
    with committed():
        game = hand_over(game)
    with committed():
        tasks.check_notification(Notification.Kind.YOUR_TURN, game.pk, 1, game.seq)
    assert len(service.received) == 1
    note = Notification.objects.get(channel="push")
    assert (note.user, note.kind, note.outcome) == (bob, "your_turn", "sent")
    assert note.address == "Firefox · Android"
    assert PushDevice.objects.get(user=bob).last_used_at is not None
    # The email goes its own way, as before.
    assert Notification.objects.filter(channel="email", user=bob).count() == 1


def test_every_browser_of_the_player_is_told(alice, bob, bobs_phone, service, committed):
    laptop = Browser(f"{service.origin}/bob-laptop")
    subscribe(bob, laptop, CHROME_ON_WINDOWS)
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    [on_phone], [on_laptop] = service.at("/bob-phone"), service.at("/bob-laptop")
    assert bobs_phone.read(on_phone) == laptop.read(on_laptop)


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_push_speaks_the_players_language(alice, bob, bobs_phone, service, committed, language):
    PlayerSettings.objects.update_or_create(user=bob, defaults={"language": language})
    game = started_game(alice, bob, time_control="3d")
    with committed():
        hand_over(game)
    payload = bobs_phone.read(service.received[0])
    english = "Your turn against %(opponent)s (game %(number)s)"
    with translation.override(language):
        title = translation.gettext(english)
    assert title != english  # the catalogue has it
    assert payload["title"] == title % {"opponent": "alice", "number": game.pk}
    assert translation.get_language() == "en"  # the task runner's language is left as it was


def test_the_settings_section_speaks_polish(bob):
    PlayerSettings.objects.update_or_create(user=bob, defaults={"language": "pl"})
    page = client_for(bob).get(reverse("settings")).text
    assert "Powiadomienia w tej przeglądarce" in page
    assert "Powiadamiaj mnie w tej przeglądarce" in page


def test_no_push_while_bob_has_the_game_open(alice, bob, bobs_phone, service, committed):
    game = started_game(alice, bob, time_control="3d")
    client_for(bob).get(game.get_absolute_url())
    with committed():
        hand_over(game)
    assert service.received == []


def test_a_player_without_a_browser_subscribed_gets_the_email_alone(
    alice, bob, service, committed, mailoutbox
):
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    assert len(mailoutbox) == 1
    assert not Notification.objects.filter(channel="push").exists()
    assert service.received == []


def test_a_push_that_cannot_be_made_does_not_keep_the_email_from_going(
    alice, bob, bobs_phone, service, committed, mailoutbox, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the push's words")

    monkeypatch.setattr(push, "compose", broken)
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    assert len(mailoutbox) == 1
    assert service.received == []


# -- time almost up, and game over ---------------------------------------------------------------


def test_bobs_browser_is_told_when_his_time_is_almost_up_once(
    alice, bob, bobs_phone, service, committed
):
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = started_game(alice, bob, time_control="1d")
        game = hand_over(game)
        clock.shift(timedelta(hours=20))
        for _ in range(3):
            with committed():
                tasks.sweep()
            clock.shift(timedelta(minutes=1))
    [received] = service.received
    payload = bobs_phone.read(received)
    assert payload["title"] == f"Time almost up against alice (game {game.pk})"
    assert "Only 4 hours left for this decision." in payload["body"]
    assert payload["body"].startswith("alice: Placed a ")
    assert received["headers"]["urgency"] == "high"


def test_bobs_browser_is_told_that_alice_resigned(alice, bob, bobs_phone, service, committed):
    game = hand_over(started_game(alice, bob, time_control="3d"))
    with committed():
        client_for(alice).post(reverse("games:resign", args=[game.pk]))
    [received] = service.received
    payload = bobs_phone.read(received)
    assert payload["title"] == f"Game over against alice (game {game.pk})"
    assert "You won." in payload["body"]
    assert "alice resigned" in payload["body"]
    assert payload["url"] == f"{SITE}/games/{game.pk}/"


# -- gone subscriptions --------------------------------------------------------------------------


def test_a_subscription_the_push_service_calls_gone_is_deleted(
    alice, bob, bobs_phone, service, committed
):
    uninstalled = Browser(f"{service.origin}/gone")
    expired = Browser(f"{service.origin}/missing")
    subscribe(bob, uninstalled)
    subscribe(bob, expired)
    service.answers.update({"/gone": 410, "/missing": 404})
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    assert len(service.at("/gone")) == len(service.at("/missing")) == 1
    assert list(PushDevice.objects.values_list("endpoint", flat=True)) == [bobs_phone.endpoint]
    assert Notification.objects.get(channel="push").outcome == "sent"


def test_a_push_whose_every_browser_is_gone_is_recorded_as_failed(
    alice, bob, service, committed, mailoutbox
):
    subscribe(bob, Browser(f"{service.origin}/gone"))
    service.answers["/gone"] = 410
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    assert not PushDevice.objects.exists()
    note = Notification.objects.get(channel="push")
    assert (note.outcome, note.error) == ("failed", "no browser subscribed any more")
    assert len(mailoutbox) == 1


def test_a_push_service_that_fails_is_tried_again_and_the_browser_kept(
    alice, bob, bobs_phone, service, committed
):
    service.answers["/bob-phone"] = 503
    with committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    note = Notification.objects.get(channel="push")
    assert note.outcome == "pending"
    assert "503" in note.error
    assert PushDevice.objects.filter(user=bob).exists()
    service.answers["/bob-phone"] = 201
    run_held_pushes(datetime.now(UTC) + timedelta(minutes=2))  # the retry, a minute later
    note.refresh_from_db()
    assert note.outcome == "sent"
    assert len(service.received) == 2


# -- quiet hours ---------------------------------------------------------------------------------


def quiet_nights(user, zone: str = "Europe/Warsaw") -> None:
    PlayerSettings.objects.update_or_create(
        user=user, defaults={"quiet_from": 22, "quiet_until": 8, "time_zone": zone}
    )


def test_quiet_hours_hold_the_push_until_they_end(alice, bob, bobs_phone, service, committed):
    quiet_nights(bob)
    night = datetime(2025, 3, 3, 22, 30, tzinfo=UTC)  # 23:30 in Warsaw
    with time_machine.travel(night, tick=False) as clock:
        game = started_game(alice, bob, time_control="3d")
        with committed():
            game = hand_over(game)
        assert service.received == []
        clock.move_to(datetime(2025, 3, 4, 6, 59, tzinfo=UTC))  # 07:59 in Warsaw
        run_held_pushes(datetime.now(UTC))
        assert service.received == []
        clock.move_to(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))  # 08:00: the quiet hours end
        run_held_pushes(datetime.now(UTC))
    [received] = service.received
    assert bobs_phone.read(received)["title"] == f"Your turn against alice (game {game.pk})"


def test_a_held_push_is_dropped_if_bob_moved_meanwhile(alice, bob, bobs_phone, service, committed):
    quiet_nights(bob)
    with time_machine.travel(datetime(2025, 3, 3, 22, 30, tzinfo=UTC), tick=False) as clock:
        game = started_game(alice, bob, time_control="3d")
        with committed():
            game = hand_over(game)
        clock.move_to(datetime(2025, 3, 4, 5, 0, tzinfo=UTC))
        hand_over(game)  # bob could not sleep
        clock.move_to(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))
        run_held_pushes(datetime.now(UTC))
    assert service.received == []
    assert Notification.objects.get(channel="push", user=bob).error == "no longer due"


def test_outside_quiet_hours_the_push_goes_at_once(alice, bob, bobs_phone, service, committed):
    quiet_nights(bob)
    with time_machine.travel(datetime(2025, 3, 3, 12, 0, tzinfo=UTC), tick=False), committed():
        hand_over(started_game(alice, bob, time_control="3d"))
    assert len(service.received) == 1


@pytest.mark.parametrize(
    ("now", "until"),
    [
        # 22:00-08:00 in Warsaw (UTC+1 in winter, +2 in summer)
        (datetime(2025, 3, 3, 20, 59, tzinfo=UTC), None),  # 21:59
        (datetime(2025, 3, 3, 21, 0, tzinfo=UTC), datetime(2025, 3, 4, 7, 0, tzinfo=UTC)),
        (datetime(2025, 3, 4, 2, 0, tzinfo=UTC), datetime(2025, 3, 4, 7, 0, tzinfo=UTC)),
        (datetime(2025, 3, 4, 7, 0, tzinfo=UTC), None),  # 08:00
        # The night the clocks go forward: it ends at 08:00 summer time, 06:00 UTC.
        (datetime(2025, 3, 29, 22, 0, tzinfo=UTC), datetime(2025, 3, 30, 6, 0, tzinfo=UTC)),
    ],
)
def test_quiet_hours_end_at_their_hour_in_the_players_zone(now, until):
    prefs = PlayerSettings(quiet_from=22, quiet_until=8, time_zone="Europe/Warsaw")
    assert push.quiet_until(prefs, now) == until


def test_quiet_hours_within_one_day_and_none_at_all():
    afternoon = PlayerSettings(quiet_from=13, quiet_until=15, time_zone="America/Montreal")
    at_two = datetime(2025, 7, 1, 18, 0, tzinfo=UTC)  # 14:00 in Montréal (UTC-4 in summer)
    assert push.quiet_until(afternoon, at_two) == datetime(2025, 7, 1, 19, 0, tzinfo=UTC)
    assert push.quiet_until(afternoon, at_two + timedelta(hours=1)) is None
    assert push.quiet_until(PlayerSettings(), at_two) is None


# -- subscribing and removing in Settings --------------------------------------------------------


def test_settings_offer_a_button_and_ask_nothing_on_load(bob, settings):
    page = client_for(bob).get(reverse("settings")).text
    assert 'id="push-enable"' in page
    assert 'type="button"' in page
    assert f'data-key="{push.public_key()}"' in page
    assert "js/push.js" in page
    assert "Turning them on needs JavaScript." in page  # what shows without the script
    assert "<script>" not in page  # nothing inline (the CSP allows none)
    # The one request for permission is in subscribe(), which only the button's click calls.
    script = (settings.BASE_DIR / "static" / "js" / "push.js").read_text()
    assert script.count("requestPermission(") == 1
    asking = script.index("requestPermission(")
    assert script.rfind("async function subscribe()", 0, asking) != -1
    assert script.count("subscribe()") == 2
    assert script.index("subscribe()", asking) > script.index('button.addEventListener("click"')


def test_settings_list_the_browsers_subscribed(bob, bobs_phone, service):
    subscribe(bob, Browser(f"{service.origin}/bob-laptop"), CHROME_ON_WINDOWS)
    page = client_for(bob).get(reverse("settings")).text
    assert "Firefox · Android" in page
    assert "Chrome · Windows" in page
    assert page.count("/remove/") == 2


def test_without_vapid_keys_in_production_the_section_says_so(bob, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.DEBUG = False
    page = client_for(bob).get(reverse("settings")).text
    assert "This site does not send browser notifications." in page
    assert 'id="push-enable"' not in page
    assert push.offer(bob, "your_turn", started_game(seat1=bob), 3) is None


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/push-worker.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert "showNotification" in response.text
    assert "notificationclick" in response.text
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_a_browser_is_named_by_its_user_agent(bob, service):
    response = subscribe(bob, Browser(f"{service.origin}/x"), CHROME_ON_WINDOWS)
    assert response.status_code == 201
    assert response.json()["name"] == "Chrome · Windows"
    assert devices.name_of("curl/8.0") == ""


def test_a_browser_signed_in_to_another_account_moves_to_it(alice, bob, bobs_phone):
    subscribe(alice, bobs_phone)
    assert PushDevice.objects.get().user == alice


def test_bob_removes_his_browser(bob, bobs_phone):
    device = PushDevice.objects.get(user=bob)
    response = client_for(bob).post(reverse("push-remove", args=[device.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("settings") + "#push-devices"
    assert not PushDevice.objects.exists()


def test_bob_cannot_remove_alices_browser(alice, bob, service):
    subscribe(alice, Browser(f"{service.origin}/alice"))
    hers = PushDevice.objects.get(user=alice)
    assert client_for(bob).post(reverse("push-remove", args=[hers.pk])).status_code == 404
    assert Client().post(reverse("push-remove", args=[hers.pk])).status_code == 302  # log in
    assert PushDevice.objects.filter(pk=hers.pk).exists()


def test_posts_without_the_csrf_token_are_refused(bob, bobs_phone, service):
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    device = PushDevice.objects.get(user=bob)
    assert client.post(reverse("push-remove", args=[device.pk])).status_code == 403
    refused = subscribe(bob, Browser(f"{service.origin}/forged"), client=client)
    assert refused.status_code == 403
    assert list(PushDevice.objects.all()) == [device]
    assert client.get(reverse("push-remove", args=[device.pk])).status_code == 405


def test_a_visitor_cannot_subscribe(service):
    response = subscribe(None, Browser(f"{service.origin}/x"), client=Client())
    assert response.status_code == 403
    assert not PushDevice.objects.exists()


def forged(browser: Browser, **changes) -> dict:
    subscription = browser.subscription()
    keys = {k: changes.pop(k) for k in ("p256dh", "auth") if k in changes}
    subscription["keys"].update(keys)
    subscription.update(changes)
    return subscription


@pytest.mark.parametrize(
    "changes",
    [
        {"p256dh": b64(b"\x04" + bytes(64))},  # not a point of the curve
        {"p256dh": "not base64!"},
        {"auth": b64(bytes(8))},  # a secret of 16 bytes
        {"endpoint": "javascript:alert(1)"},
        {"endpoint": 42},
        {"keys": "none"},
    ],
)
def test_a_forged_subscription_is_refused(bob, service, changes):
    browser = Browser(f"{service.origin}/x")
    response = client_for(bob).post(
        reverse("push-subscribe"),
        json.dumps(forged(browser, **changes)),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert not PushDevice.objects.exists()


def test_not_json_is_refused(bob):
    response = client_for(bob).post(reverse("push-subscribe"), "{", content_type="text/plain")
    assert response.status_code == 400


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/x",  # not HTTPS
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://localhost/x",
        "https://user:secret@push.example/x",
        # names and ports of this site's own network that a forged subscription may name
        "https://redis:6379/x",
        "https://127.0.0.1.nip.io/x",
        "https://2130706433/x",
        "https://localhost./x",
        "https://metadata.google.internal./x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://fcm.googleapis.com:8443/x",
    ],
)
def test_in_production_a_push_service_is_a_browsers_own_over_https(settings, endpoint):
    settings.PUSH_LOCAL_ENDPOINTS = False
    with pytest.raises(devices.BadSubscription):
        devices.check_endpoint(endpoint)
    devices.check_endpoint("https://updates.push.services.mozilla.com/wpush/v2/abc")
    devices.check_endpoint("https://fcm.googleapis.com/fcm/send/abc")
    devices.check_endpoint("https://web.push.apple.com/QH2x")


# -- the site's keys -----------------------------------------------------------------------------


def test_development_makes_a_key_pair_once_and_keeps_it(settings, tmp_path):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.DEBUG = True
    settings.VAPID_DEV_FILE = tmp_path / "vapid-dev.json"
    public, private = push.key_pair()
    assert len(unb64(public)) == 65
    assert len(unb64(private)) == 32
    push._development_pair.cache_clear()  # another process, later
    assert push.key_pair() == (public, private)
    assert json.loads(settings.VAPID_DEV_FILE.read_text()) == {"public": public, "private": private}


def test_a_public_key_that_is_not_the_private_keys_half_is_refused():
    public, _ = push.new_key_pair()
    _, private = push.new_key_pair()
    with pytest.raises(ImproperlyConfigured):
        push._signer(public, private)


def test_production_gets_its_key_pair_from_a_command(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert push._signer(lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"])


def test_a_new_browser_beyond_ten_replaces_the_oldest(bob, service):
    for number in range(devices.MOST_PER_PLAYER + 2):
        assert subscribe(bob, Browser(f"{service.origin}/{number}")).status_code == 201
    kept = sorted(PushDevice.objects.values_list("endpoint", flat=True))
    assert len(kept) == devices.MOST_PER_PLAYER
    assert f"{service.origin}/0" not in kept
    assert f"{service.origin}/11" in kept


def test_another_account_cannot_take_a_browser_it_does_not_hold_the_keys_of(bob, service):
    alice = make_user("alice2")
    victim = Browser(f"{service.origin}/victims-browser")
    assert subscribe(bob, victim).status_code < 400
    forged = Browser(f"{service.origin}/victims-browser")  # the same address, other keys
    assert subscribe(alice, forged).status_code == 400
    assert PushDevice.objects.get(endpoint=victim.endpoint).user == bob
    # The browser itself (same keys) may move to the account now signed in on it.
    assert subscribe(alice, victim).status_code < 400
    assert PushDevice.objects.get(endpoint=victim.endpoint).user == alice


def test_a_push_held_through_the_night_is_never_sent_as_an_email(
    alice, bob, bobs_phone, service, committed
):
    quiet_nights(bob)
    with time_machine.travel(datetime(2025, 3, 3, 22, 30, tzinfo=UTC), tick=False) as clock:
        game = started_game(alice, bob, time_control="3d")
        with committed():
            hand_over(game)
        clock.move_to(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))  # the quiet hours end
        # The emails' task hands over the email held through the night, and not the push.
        assert Notification.objects.filter(user=bob, channel="email").count() == 1
        assert notify.send_held(datetime.now(UTC)) == 1
        run_held_pushes(datetime.now(UTC))
    push = Notification.objects.get(channel="push", user=bob)
    assert push.outcome == Notification.Outcome.SENT
    assert len(service.received) == 1


# -- news addressed to the player ----------------------------------------------------------------


def invitation_for(friend, by):
    return news.invite(by, friend, GameSettings(kind="basilica", time_control="3d"))


def test_bobs_browser_is_told_of_alices_invitation_and_opens_it(
    alice, bob, bobs_phone, service, committed
):
    with committed():
        game = invitation_for(bob, alice)
    [received] = service.at("/bob-phone")
    payload = bobs_phone.read(received)
    assert payload["title"] == f"alice invites you to a game (game {game.pk})"
    # A private game opens by its invitation's link alone: the push leads there.
    assert payload["url"] == f"{SITE}/games/invite/{game.invite_token}/"
    assert Client().get(payload["url"].removeprefix(SITE)).status_code in (200, 302)


def test_an_invitation_is_pushed_even_to_a_player_who_wants_no_such_emails(
    alice, bob, bobs_phone, service, committed, mailoutbox
):
    PlayerSettings.objects.update_or_create(user=bob, defaults={"email_invited": False})
    with committed():
        invitation_for(bob, alice)
    assert mailoutbox == []
    assert len(service.at("/bob-phone")) == 1


def test_an_invitation_held_through_the_night_is_dropped_once_withdrawn(
    alice, bob, bobs_phone, service, committed
):
    quiet_nights(bob)
    with time_machine.travel(datetime(2025, 3, 3, 22, 30, tzinfo=UTC), tick=False) as clock:
        with committed():
            game = invitation_for(bob, alice)
        assert service.received == []
        services.cancel_game(game, alice)
        clock.move_to(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))
        run_held_pushes(datetime.now(UTC))
    assert service.received == []
    note = Notification.objects.get(channel="push", user=bob)
    assert (note.kind, note.error) == ("invited", "no longer due")


def test_bobs_browser_is_told_that_alice_offers_a_rematch(
    alice, bob, bobs_phone, service, committed
):
    game = finished_game(alice, bob, winners=[0], scores=[40, 31])
    with committed():
        client_for(alice).post(reverse("games:rematch", args=[game.pk]), {"answer": "offer"})
    [received] = service.at("/bob-phone")
    payload = bobs_phone.read(received)
    assert payload["title"] == f"alice offers you a rematch (game {game.pk})"
    assert payload["url"] == f"{SITE}/games/{game.pk}/"


def following_alice(bob, asked: bool) -> None:
    Follow.objects.create(follower=bob, followed=User.objects.get(username="alice"))
    PlayerSettings.objects.update_or_create(user=bob, defaults={"email_followed_seek": asked})


def test_a_followed_players_seek_is_pushed_to_a_follower_who_asked_for_such_news(
    alice, bob, bobs_phone, service, committed
):
    following_alice(bob, asked=True)
    with committed():
        seek = open_game(alice, time_control="3d")
    [received] = service.at("/bob-phone")
    payload = bobs_phone.read(received)
    assert payload["title"] == f"alice is looking for an opponent (game {seek.pk})"
    assert payload["url"] == f"{SITE}/games/{seek.pk}/"
    assert "Accept" in client_for(bob).get(payload["url"].removeprefix(SITE)).content.decode()


def test_a_followed_players_seek_is_not_pushed_to_a_follower_who_did_not_ask(
    alice, bob, bobs_phone, service, committed
):
    following_alice(bob, asked=False)
    with committed():
        open_game(alice, time_control="3d")
    assert service.received == []
    assert Notification.objects.filter(user=bob, channel="site").count() == 1  # still on the site


def test_a_seek_held_through_the_night_is_dropped_once_taken(
    alice, bob, bobs_phone, service, committed
):
    following_alice(bob, asked=True)
    quiet_nights(bob)
    with time_machine.travel(datetime(2025, 3, 3, 22, 30, tzinfo=UTC), tick=False) as clock:
        with committed():
            seek = open_game(alice, time_control="3d")
        assert service.received == []
        services.accept_game(seek, make_user("cat"))
        clock.move_to(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))
        run_held_pushes(datetime.now(UTC))
    assert service.received == []
    note = Notification.objects.get(channel="push", user=bob)
    assert (note.kind, note.error) == ("followed_seek", "no longer due")


@pytest.mark.parametrize("meanwhile", ["alice blocks bob", "bob unfollows", "bob asks no more"])
def test_a_seek_held_through_the_night_is_dropped_if_it_is_no_more_news_for_bob(
    alice, bob, bobs_phone, service, committed, meanwhile
):
    following_alice(bob, asked=True)
    quiet_nights(bob)
    with time_machine.travel(datetime(2025, 3, 3, 22, 30, tzinfo=UTC), tick=False) as clock:
        with committed():
            open_game(alice, time_control="3d")
        if meanwhile == "alice blocks bob":
            Block.objects.create(blocker=alice, blocked=bob)
        elif meanwhile == "bob unfollows":
            Follow.objects.filter(follower=bob).delete()
        else:
            PlayerSettings.objects.filter(user=bob).update(email_followed_seek=False)
        clock.move_to(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))
        run_held_pushes(datetime.now(UTC))
    assert service.received == []
    assert Notification.objects.get(channel="push", user=bob).error == "no longer due"


def test_both_players_browsers_are_told_their_tournament_game_starts_and_then_the_end(
    alice, bob, bobs_phone, service, committed
):
    alices_phone = Browser(f"{service.origin}/alice-phone")
    assert subscribe(alice, alices_phone).status_code == 201
    cup = entries.create(
        alice,
        entries.Plan(
            name="Spring cup", format="round_robin", rounds=0, max_players=3, starts_at=None
        ),
        GameSettings(kind="basilica", time_control="3d"),
    )
    entries.join(cup, bob)
    game = started_game(alice, bob, time_control="3d")
    with committed():
        notices.game_starts(cup, game)
    for phone, path, opponent in (
        (alices_phone, "/alice-phone", "bob"),
        (bobs_phone, "/bob-phone", "alice"),
    ):
        [received] = service.at(path)
        payload = phone.read(received)
        assert payload["title"] == (
            f"Spring cup: your game against {opponent} starts (game {game.pk})"
        )
        assert payload["url"] == f"{SITE}/games/{game.pk}/"
    entry = cup.entries.get(user=bob)
    entry.place = 2
    entry.save()
    with committed():
        notices.tournament_over(cup, entry)
    last = bobs_phone.read(service.at("/bob-phone")[-1])
    assert last["title"] == "Spring cup is over"
    assert last["url"] == f"{SITE}/games/tournaments/{cup.pk}/"


def test_bobs_browser_is_told_that_alice_asks_to_take_back_her_building(
    alice, bob, bobs_phone, service, committed
):
    game = started_game(alice, bob, kind="cathedral", time_control="3d")
    with committed():
        game = play(game, [game.engine.legal_actions(states.load_state(game))[0].to_json()])
    service.received.clear()  # "your turn"
    with committed():
        takebacks.ask(game, alice, game.seq)
    [received] = service.at("/bob-phone")
    payload = bobs_phone.read(received)
    assert payload["title"] == f"alice asks to take back their last action (game {game.pk})"
    assert payload["body"].startswith("alice (Light) placed the Cathedral")  # what she asks back
    assert payload["body"].endswith("Accept or decline on the game's page.")
    assert payload["url"] == f"{SITE}/games/{game.pk}/"
