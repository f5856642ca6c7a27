"""Write the golden game records: whole games, played through the rules engines alone (no
database), as ``games.archive.records.export`` writes a finished game's record.

    .venv/bin/python tests/golden/make_golden.py [--force | --check]

``GAMES`` are games of rules version 1, played at random: both editions of Basilica, with and
without the expansion, one without six tiles, Cathedral and Lehman's Cathedral. They were
written once and are never written again, not even with ``--force``: the games stored on
version 1 must keep replaying as they were played. ``GAMES_V2`` (``*-v2.json``) are games of
version 2, each the first of a fixed sequence of seeds that shows what version 2 changed (see
``covers``): an Altar order placing two altars, one placing a single altar because only one vault
could take one, one because only one token was left; a Cathedral move capturing in two regions;
both sides' Abbey and Academy placed. ``--force`` writes these again, which is right only when a
change of the rules was intended (see the README). ``--check`` writes nothing: it plays every
record again and says whether it comes out as stored.

``tests/records/test_golden.py`` replays each record and checks the stored result: a test that
fails there means that stored games would replay differently.
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

from games.archive.records import FORMAT_VERSION, RECORD_FORMAT  # noqa: E402
from games.engine import basilica, cathedral  # noqa: E402
from games.engine.basilica import v1 as basilica_v1  # noqa: E402
from games.engine.cathedral import v1 as cathedral_v1  # noqa: E402

PLAYERS = ["ann", "bob"]
STARTED = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)

# Records of rules version 1, played by its engines: name -> (engine, options, ending wanted or
# None).
GAMES = {
    "basilica-2010": (basilica_v1, basilica.Options(edition="2010"), None),
    "basilica-2010-expansion": (
        basilica_v1,
        basilica.Options(edition="2010", expansion=True),
        None,
    ),
    "basilica-2022": (basilica_v1, basilica.Options(edition="2022", first_player=1), None),
    "basilica-2022-expansion": (
        basilica_v1,
        basilica.Options(edition="2022", expansion=True),
        "third scoring",
    ),
    "basilica-2022-expansion-remove-six": (
        basilica_v1,
        basilica.Options(edition="2022", expansion=True, remove_six=True, first_player=1),
        None,
    ),
    "cathedral": (cathedral_v1, cathedral.Options(light=0), None),
    "cathedral-lehman": (cathedral_v1, cathedral.Options(light=1, lehman=True), None),
}


# Records of rules version 2, each chosen for what it shows (``covers``; the tests in
# ``tests/records/test_golden.py`` check it again on their own): name -> (engine, options, what
# it must show).
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
    """What a finished game of version 2 shows of the rules version 2 changed, as the players
    saw it: an Altar order placing two altars, or a single one because only one vault could
    take an altar or only one token was left; a Cathedral move capturing in two regions; both
    sides' Abbey and Academy placed."""
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
        actions = [h["action"] for h in history[:index]]
        seen = engine.view(engine.replay(options, state.seed, actions, version=state.version), None)
        free = [c for c in seen["cathedral"] if not (c["scaffold"] or c["altar"])]
        if seen["altars_left"] == 1 and len(free) > 1:
            shown.add("one altar, one token")
        elif seen["altars_left"] > 1 and len(free) == 1:
            shown.add("one altar, one vault")
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
        state = play(engine, options, seed, pick)
        if wanted <= covers(engine, options, state):
            return engine, options, seed, state
    raise LookupError(f"no game of {name} shows {sorted(wanted)}")


def choose(rng: random.Random, actions: list) -> object:
    """A kind of action at random, then one of that kind: orders get played, not only vaults."""
    by_kind: dict[str, list] = {}
    for action in actions:
        by_kind.setdefault(getattr(action, "kind", ""), []).append(action)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def play(engine, options, seed: int, pick=choose):
    """A whole game, each action picked by ``pick`` with a generator seeded by ``seed``."""
    state = engine.new_game(options, seed)
    rng = random.Random(seed)
    while not state.finished:
        state = engine.apply_action(state, pick(rng, engine.legal_actions(state)))
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
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--force", action="store_true", help="write the version-2 records again")
    what.add_argument("--check", action="store_true", help="write nothing, compare with the files")
    arguments = parser.parse_args()
    made = [(name, game_of, 1) for name in GAMES] + [(name, game_of_v2, 2) for name in GAMES_V2]
    for name, make, version in made:
        path = HERE / f"{name}.json"
        # Version 1's records are never written again: games stored on it must replay as played.
        if path.exists() and not arguments.check and (version == 1 or not arguments.force):
            print(f"{path.name}: kept" + ("" if version == 1 else " (--force writes it again)"))
            continue
        engine, options, seed, state = make(name)
        text = dumps(record(engine, options, seed, state))
        if arguments.check:
            same = path.exists() and path.read_text() == text
            print(f"{path.name}: {'as stored' if same else 'NOT as stored'}")
            continue
        path.write_text(text)
        print(f"{path.name}: {len(state.history)} actions, seed {seed}, {state.outcome}")


if __name__ == "__main__":
    main()
