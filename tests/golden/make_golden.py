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


if __name__ == "__main__":
    main()
