"""Small factories for the site's tests: players, games in each status, and moves through the
one service door, so that a test reads as a story of play."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.test import Client

from games.engine import basilica as engine
from games.models import Action, Game, PlayerSettings
from games.play import services, states, vacation

PASSWORD = "a cathedral of many colours"
START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # where the tests of clocks freeze the site's clock
_names = itertools.count(1)


def make_user(username: str | None = None, **fields):
    username = username or f"player{next(_names)}"
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **fields)


def player(name: str):
    """A player with no vacation days left to save a clock."""
    user = make_user(name)
    PlayerSettings.objects.filter(pk=vacation.settings_for(user).pk).update(vacation_days=0)
    return user


def make_staff(username: str = "referee"):
    return make_user(username, is_staff=True, is_superuser=True)


def lobby_form(kind: str = "basilica", **fields) -> dict:
    """The lobby's form for a game of ``kind`` as a browser posts it (fields carry its prefix)."""
    return {"kind": kind, **{f"{kind}-{name}": value for name, value in fields.items()}}


PLATFORM_SETTINGS = ("kind", "first", "private", "time_control", "rated", "rating_range", "hints")


def open_game(creator=None, **settings) -> Game:
    """A game waiting for an opponent; ``settings`` are those of the lobby form: the platform's
    (kind, first, private, time_control) and the kind's own options (edition, expansion, …)."""
    platform = {key: settings.pop(key) for key in PLATFORM_SETTINGS if key in settings}
    platform.setdefault("first", "me")
    game_settings = services.GameSettings(options=settings, **platform)
    return services.create_game(creator or make_user(), game_settings)


def started_game(seat0=None, seat1=None, seed: int = 1122, **settings) -> Game:
    """A game in play; seat 0 (the creator) moves first unless ``first`` says otherwise.

    The deal is fixed (``seed``) so that every run of a test sees the same position.
    """
    game = open_game(seat0, **settings)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    return services.accept_game(game, seat1 or make_user())


def user_deciding(game: Game):
    game.refresh_from_db()
    return game.player(game.to_decide)


def play(game: Game, actions) -> Game:
    """Each action, as JSON, submitted by whoever must decide."""
    for action in actions:
        game = services.submit_action(game, user_deciding(game), action, game.seq)
    return game


def play_randomly(game: Game, moves: int, rng: random.Random | None = None) -> Game:
    """``moves`` legal actions chosen at random (fewer if the game ends)."""
    rng = rng or random.Random(game.pk)
    for _ in range(moves):
        state = states.load_state(game)
        if state.finished:
            break
        game = play(game, [rng.choice(engine.legal_actions(state)).to_json()])
    return game


def first_legal(game: Game) -> dict:
    return engine.legal_actions(states.load_state(game))[0].to_json()


def finished_game(seat0, seat1, winners: list[int], scores: list[int]) -> Game:
    """A game recorded as over, as the service leaves it after the last move."""
    game = started_game(seat0, seat1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        winners=winners,
        scores=scores,
        termination="third scoring",
        to_decide=None,
    )
    game.refresh_from_db()
    return game


def game_from_log(
    options: engine.Options, seed: int, actions: list[engine.Action], **users
) -> Game:
    """A game in play that has reached the position these actions lead to from ``seed``."""
    game = started_game(**users)
    state = engine.replay(options, seed, actions, check=True)
    Game.objects.filter(pk=game.pk).update(
        options=options.to_json(), seed=seed, seq=len(actions), to_decide=state.to_decide
    )
    game.refresh_from_db()
    Action.objects.bulk_create(
        Action(
            game=game,
            seq=seq,
            player=entry["player"],
            user=game.player(entry["player"]),
            data=entry["action"],
        )
        for seq, entry in enumerate(state.history, start=1)
    )
    return game


def random_choice(rng: random.Random, actions: list[engine.Action]) -> engine.Action:
    """A kind of action at random, then one of that kind, so that orders get played too."""
    kinds = sorted({a.kind for a in actions})
    kind = rng.choice(kinds)
    return rng.choice([a for a in actions if a.kind == kind])


def search_position(options: engine.Options, wanted, seeds=range(500)):
    """The first (seed, actions) of random play that reaches a state where ``wanted(state)``."""
    for seed in seeds:
        state, actions, rng = engine.new_game(options, seed), [], random.Random(seed)
        while not state.finished:
            if wanted(state):
                return seed, actions
            actions.append(random_choice(rng, engine.legal_actions(state)))
            state = engine.apply_action(state, actions[-1])
    raise LookupError("no random game reached the position")


def client_for(user) -> Client:
    # Logged in as the login page would (django-axes checks every password against a request).
    client = Client()
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)
    return client


def session_of(user) -> str:
    """The session cookie of ``user``, signed in as by the login page."""
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return browser.cookies["sessionid"].value


async def post_through_asgi(path: str, form: dict, headers: dict[str, str]) -> dict:
    """A form POSTed through the site's ASGI application, as daphne hands it one: the answer's
    status, body and headers (their names in lower case)."""
    from urllib.parse import urlencode

    from channels.testing import HttpCommunicator

    from basilica_site.asgi import application

    communicator = HttpCommunicator(
        application,
        "POST",
        path,
        body=urlencode(form).encode(),
        headers=[
            (b"host", b"testserver"),
            (b"content-type", b"application/x-www-form-urlencoded"),
            *((name.lower().encode(), value.encode()) for name, value in headers.items()),
        ],
    )
    response = await communicator.get_response(timeout=30)
    await communicator.wait()
    response["headers"] = {
        name.decode().lower(): value.decode() for name, value in response["headers"]
    }
    return response


def staff_client_for(user) -> Client:
    """``user`` of the staff, logged in and past the second factor as at the login page: an
    authenticator app of their own (a TOTP device) and the code it shows now. A new app each
    time, as a code is accepted once."""
    from django.urls import reverse
    from django_otp.oath import TOTP
    from django_otp.plugins.otp_totp.models import TOTPDevice

    client = client_for(user)
    app = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    code = TOTP(app.bin_key, app.step, app.t0, app.digits, app.drift).token()
    answer = client.post(reverse("second-factor"), {"code": f"{code:0{app.digits}d}"})
    assert answer.status_code == 302, answer.content
    return client
