"""The import page, fuzzed: random JSON, random text and bytes, and real exported records changed
at random (a field dropped, added, retyped, a control character slipped into a string, a list cut
or shuffled). Whatever arrives, the answer is never a server error, and a refused record stores
nothing. The cases come from one seed: a failure names its case, which replays."""

from __future__ import annotations

import copy
import json
import logging
import random
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from factories import client_for, make_user, play, started_game, user_deciding

from games.archive import records
from games.models import Action, Game
from games.play import services, states

pytestmark = pytest.mark.django_db

SEED = 24
CASES = 500
STRINGS = [
    "",
    "\x00",
    "a\x00b",
    "\t",
    "\n",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\ud800",
    "\udfff",
    "\u202e",
    "é",
    "😀",
    "x" * 200,
    "NaN",
    "resignation",
    "timeout",
    "aborted",
    "abandoned",
    "referee",
    "finished",
    "2022",
    "2010",
    "1d",
    "10+5",
    "2025-03-03T09:00:00+00:00",
    "9999-12-31T23:59:59",
    "basilica",
    "cathedral",
    "'; DROP TABLE games_game; --",
    "<script>alert(1)</script>",
]
NUMBERS = [0, 1, 2, -1, 3, 7, 2**31, 2**63, -(2**63), 10**30, 0.5, float("inf"), float("nan")]


def record_of(game: Game, moves: int, rng: random.Random) -> Game:
    """``game`` played on by random legal moves, ``moves`` of them or to its end."""
    for _ in range(moves):
        state = states.load_state(game)
        if state.finished:
            break
        game = play(game, [rng.choice(game.engine.legal_actions(state)).to_json()])
    game.refresh_from_db()
    return game


@pytest.fixture
def exported(calendar) -> list[dict]:
    """Real records, as the site exports them: a game ended by the rules, a resignation, an
    abort."""
    rng = random.Random(SEED)
    ann, bob = make_user("ann"), make_user("bob")
    cathedral = record_of(started_game(ann, bob, kind="cathedral", lehman=True), 200, rng)
    assert cathedral.status == Game.Status.FINISHED
    resigned = record_of(started_game(ann, bob, seed=SEED, expansion=True), 14, rng)
    resigned = services.resign(resigned, user_deciding(resigned))
    aborted = record_of(started_game(ann, bob, seed=SEED + 1, edition="2010"), 1, rng)
    # A player may abort until their own first move: the one who has not moved yet.
    mover = aborted.actions.get(seq=1).player
    aborted = services.abort(aborted, aborted.player(1 - mover))
    # PostgreSQL keeps JSON's keys in an order of its own: sorted, the cases are the same on
    # every database.
    return [
        json.loads(json.dumps(records.export(game), sort_keys=True))
        for game in (cathedral, resigned, aborted)
    ]


# -- the cases ----------------------------------------------------------------------------------


def random_json(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice([*STRINGS, *NUMBERS, None, True, False])
    if roll < 0.7:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = [*rng.sample(sorted(records._KEYS), 2), *rng.sample(STRINGS, 2)]
    return {key: random_json(rng, depth + 1) for key in keys[: rng.randrange(5)]}


def places(data, path=()):
    """Every (container, key) of ``data``, depth first."""
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for key, value in list(items):
        yield data, key
        if isinstance(value, dict | list) and value:
            yield from places(value, (*path, key))


def mutate(rng: random.Random, data: dict) -> str:
    """Change ``data`` in place, once, at random; the change in a few words."""
    holder, key = rng.choice(list(places(data)))
    value = holder[key]
    roll = rng.randrange(9)
    if roll == 0 and isinstance(holder, dict):
        del holder[key]
        return f"dropped {key!r}"
    if roll == 1 and isinstance(value, str):
        at = rng.randrange(len(value) + 1)
        holder[key] = value[:at] + rng.choice("\x00\x01\t\n\x1f\x7f\x9f\ud800") + value[at:]
        return f"a control character in {key!r}"
    if roll == 2 and isinstance(value, int) and not isinstance(value, bool):
        holder[key] = value + rng.choice([-1, 1, 2, -(2**40), 2**64])
        return f"{key!r} moved"
    if roll == 3 and isinstance(value, list) and value:
        rng.shuffle(value)
        del value[rng.randrange(len(value)) :]
        return f"{key!r} shuffled and cut"
    if roll == 4 and isinstance(value, list) and value:
        value.insert(rng.randrange(len(value)), copy.deepcopy(rng.choice(value)))
        return f"an element of {key!r} doubled"
    if roll == 5 and isinstance(value, dict):
        value[rng.choice(STRINGS)] = random_json(rng, 2)
        return f"a field added to {key!r}"
    if roll == 6:
        holder[key] = rng.choice(STRINGS)
        return f"{key!r} made a string"
    if roll == 7:
        holder[key] = rng.choice(NUMBERS)
        return f"{key!r} made a number"
    holder[key] = random_json(rng, 2)
    return f"{key!r} made random"


def case(rng: random.Random, exported: list[dict]) -> tuple[str, dict]:
    """(what the case is, the POST's fields): a record's text, or its file."""
    roll = rng.random()
    if roll < 0.1:
        text, what = json.dumps(random_json(rng)), "random JSON"
    elif roll < 0.15:
        text = "".join(rng.choice('{}[]":,0123456789.-eE truefalsn\\u') for _ in range(60))
        what = "random text"
    elif roll < 0.2:
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
        return "random bytes", {"record": SimpleUploadedFile("game.json", body)}
    else:
        data = copy.deepcopy(rng.choice(exported))
        changes = [mutate(rng, data) for _ in range(rng.choice([0, 1, 1, 1, 1, 2, 2, 3]))]
        text = json.dumps(data)
        if rng.random() < 0.05:
            text = text[: rng.randrange(len(text))]
            changes.append("cut short")
        what = "; ".join(changes) or "unchanged"
    if rng.random() < 0.2:
        return what, {"record": SimpleUploadedFile("game.json", text.encode())}
    return what, {"text": text}


# -- the test -----------------------------------------------------------------------------------


def test_no_import_is_a_server_error_and_a_refused_one_stores_nothing(exported, settings, caplog):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create_game": (CASES + 1, 3600)}
    caplog.set_level(logging.ERROR, logger="django.request")  # not every 400 as a warning
    client = client_for(make_user("carl"))
    rng = random.Random(SEED)
    cases = [case(rng, exported) for _ in range(CASES)]
    accepted, started = 0, time.perf_counter()
    for number, (what, form) in enumerate(cases):
        games, actions = Game.objects.count(), Action.objects.count()
        try:
            response = client.post(reverse("games:import"), form)
        except Exception as error:
            error.add_note(f"import case {number} of seed {SEED}: {what}")
            raise
        assert response.status_code in (302, 400), (number, what, response.status_code)
        if response.status_code == 302:
            accepted += 1
            game = Game.objects.get(imported=True, pk=response.url.split("/")[-3])
            assert Game.objects.count() == games + 1, (number, what)
            assert Action.objects.count() == actions + game.seq, (number, what)
        else:
            assert (Game.objects.count(), Action.objects.count()) == (games, actions), (
                number,
                what,
            )
    print(f"{CASES} imports in {time.perf_counter() - started:.1f} s, {accepted} accepted")
    # A record refused by a fault outside the checks of its reading is logged: there is none.
    assert not [r for r in caplog.records if r.name == "games.archive.record_views"]
    assert 0 < accepted < CASES / 2
