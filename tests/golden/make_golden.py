"""Write the golden game records: whole games, played at random through the rules engines alone
(no database), as ``games.records.export`` writes a finished game's record.

    .venv/bin/python tests/golden/make_golden.py [--force]

They were written once and are committed; ``tests/records/test_golden.py`` replays each and
checks the stored result. Writing them again (``--force``) is right only when a change of the
rules was intended, and then on a new engine version (see the README): a test that fails here
means that stored games would replay differently.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basilica_site.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # the development settings; no database is used

import django  # noqa: E402

django.setup()

from games.engine import basilica, cathedral  # noqa: E402
from games.records import FORMAT_VERSION, RECORD_FORMAT  # noqa: E402

PLAYERS = ["ann", "bob"]
STARTED = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)

# name -> (engine, options, ending wanted or None)
GAMES = {
    "basilica-2010": (basilica, basilica.Options(edition="2010"), None),
    "basilica-2010-expansion": (basilica, basilica.Options(edition="2010", expansion=True), None),
    "basilica-2022": (basilica, basilica.Options(edition="2022", first_player=1), None),
    "basilica-2022-expansion": (
        basilica,
        basilica.Options(edition="2022", expansion=True),
        "third scoring",
    ),
    "basilica-2022-expansion-remove-six": (
        basilica,
        basilica.Options(edition="2022", expansion=True, remove_six=True, first_player=1),
        None,
    ),
    "cathedral": (cathedral, cathedral.Options(light=0), None),
    "cathedral-lehman": (cathedral, cathedral.Options(light=1, lehman=True), None),
}


# Records of rules version 2, each chosen for what it shows (``covers``, as
# ``tests/records/test_golden.py`` reads them): name -> (engine, options, what it must show).
GAMES_V2 = {
    "basilica-2022-expansion-v2": (
        basilica,
        basilica.Options(edition="2022", expansion=True),
        {"two altars", "one altar, one vault"},
    ),
    "basilica-2010-expansion-v2": (
        basilica,
        basilica.Options(edition="2010", expansion=True, first_player=1),
        {"two altars", "one altar, one token"},
    ),
    "cathedral-v2": (
        cathedral,
        cathedral.Options(light=0),
        {"two captures in one move", "both mirrored pairs"},
    ),
}


def covers(engine, options, state) -> set[str]:
    """What a finished game shows of the rules version 2 changed: an Altar order placing two
    altars, or one because one vault or one token was left; a Cathedral move capturing in two
    regions; both sides' Abbey and Academy placed."""
    shown = set()
    if engine is cathedral:
        if any(len(entry["captures"]) > 1 for entry in engine.view(state, None)["log"]):
            shown.add("two captures in one move")
        placed = {(h["player"], h["action"]["building"]) for h in state.history}
        if all((seat, key) in placed for seat in (0, 1) for key in ("abbey", "academy")):
            shown.add("both mirrored pairs")
        return shown
    history = state.history
    for index, entry in enumerate(history):
        if entry["action"]["type"] != "altar":
            continue
        following = history[index + 1]["action"]["type"] if index + 1 < len(history) else None
        if following == "second_altar":
            shown.add("two altars")
            continue
        before = engine.replay(options, state.seed, [h["action"] for h in history[:index]])
        shown.add("one altar, one token" if before.altars_left == 1 else "one altar, one vault")
    return shown


def steered(rng: random.Random, actions: list) -> object:
    """An Altar order whenever one is offered, otherwise as ``choose``."""
    altars = [a for a in actions if getattr(a, "kind", "") == "altar"]
    return rng.choice(altars) if altars else choose(rng, actions)


def game_of_v2(name: str):
    """The first game of a fixed sequence of seeds that shows all its record is for."""
    engine, options, wanted = GAMES_V2[name]
    seeds = random.Random(name)
    pick = steered if engine is basilica else choose
    for _ in range(20000):
        seed = seeds.getrandbits(62)
        state = engine.new_game(options, seed)
        rng = random.Random(seed)
        while not state.finished:
            state = engine.apply_action(state, pick(rng, engine.legal_actions(state)))
        if wanted <= covers(engine, options, state):
            return engine, options, seed, state
    raise LookupError(f"no game of {name} shows {sorted(wanted)}")


def choose(rng: random.Random, actions: list) -> object:
    """A kind of action at random, then one of that kind: orders get played, not only vaults."""
    by_kind: dict[str, list] = {}
    for action in actions:
        by_kind.setdefault(getattr(action, "kind", ""), []).append(action)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def play(engine, options, seed: int):
    state = engine.new_game(options, seed)
    rng = random.Random(seed)
    while not state.finished:
        state = engine.apply_action(state, choose(rng, engine.legal_actions(state)))
    return state


def game_of(name: str):
    """The first game of a fixed sequence of seeds that ends as wanted."""
    engine, options, ending = GAMES[name]
    seeds = random.Random(name)
    for _ in range(200):
        seed = seeds.getrandbits(62)
        state = play(engine, options, seed)
        if ending in (None, state.outcome.termination):
            return engine, options, seed, state
    raise LookupError(f"no game of {name} ended by {ending}")


def record(engine, options, seed: int, state) -> dict:
    times = [STARTED + timedelta(seconds=37 * seq) for seq in range(1, len(state.history) + 1)]
    outcome = state.outcome
    return {
        "format": RECORD_FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": engine.NAME,
        "engine_version": engine.VERSION,
        "options": options.to_json(),
        "seed": seed,
        "players": PLAYERS,
        "time_control": "none",
        "created_at": (STARTED - timedelta(minutes=5)).isoformat(),
        "started_at": STARTED.isoformat(),
        "finished_at": times[-1].isoformat(),
        "status": "finished",
        "result": {
            "winners": list(outcome.winners),
            "scores": list(outcome.scores),
            "termination": outcome.termination,
        },
        "actions": [
            {
                "seq": seq,
                "player": entry["player"],
                "user": PLAYERS[entry["player"]],
                "action": entry["action"],
                "at": at.isoformat(),
            }
            for seq, (entry, at) in enumerate(zip(state.history, times, strict=True), start=1)
        ],
    }


def dumps(data: dict) -> str:
    """Indented JSON with one action a line, so that a diff shows which actions changed."""
    head = json.dumps({k: v for k, v in data.items() if k != "actions"}, indent=1)
    actions = ",\n".join("  " + json.dumps(action) for action in data["actions"])
    return head[:-2] + ',\n "actions": [\n' + actions + "\n ]\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="overwrite the records there are")
    force = parser.parse_args().force
    for name in GAMES:
        path = HERE / f"{name}.json"
        if path.exists() and not force:
            print(f"{path.name}: kept (--force writes it again)")
            continue
        engine, options, seed, state = game_of(name)
        path.write_text(dumps(record(engine, options, seed, state)))
        print(f"{path.name}: {len(state.history)} actions, {state.outcome}")
    for name in GAMES_V2:  # the version-1 records above are never written again
        path = HERE / f"{name}.json"
        if path.exists() and not force:
            print(f"{path.name}: kept (--force writes it again)")
            continue
        engine, options, seed, state = game_of_v2(name)
        path.write_text(dumps(record(engine, options, seed, state)))
        print(f"{path.name}: {len(state.history)} actions, seed {seed}, {state.outcome}")


if __name__ == "__main__":
    main()
