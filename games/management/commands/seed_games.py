"""Fill a throwaway database with games of every kind, option set and rules version, made and
played through the site's own services with random legal moves: finished by the rules, still
running, resigned, lost on time, aborted, abandoned, and imported from their records.

    manage.py seed_games [--seed N] [--rounds N]

It is what ``make check-games`` runs ``check_games`` against. Never run it on a real site: it
makes two players of its own and dozens of games between them.
"""

from __future__ import annotations

import itertools
import json
import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games import kinds
from games.archive import records
from games.archive.record_views import _store as store_record  # the import page's own storing
from games.engine import versions
from games.models import Game
from games.play import services, states

# Every option set the lobby offers, by kind.
OPTION_SETS = {
    "basilica": [
        {"edition": edition, "expansion": expansion, "remove_six": remove_six}
        for edition in ("2010", "2022")
        for expansion, remove_six in ((False, False), (True, False), (True, True))
    ],
    "cathedral": [{"lehman": False}, {"lehman": True}],
}
# How the games of each option set are left; a fourth game takes its ending in turn from the others.
ENDINGS = ("rules", "running", "resigned")
OTHER_ENDINGS = ("aborted", "timeout", "abandoned")
MOVES = {"running": 9, "resigned": 7, "timeout": 5}  # moves played before a game is left so
LIVE_CLOCK = "10+5"  # a game that runs out of time has a live clock: no vacation can save it


class Command(BaseCommand):
    help = "Make games of every kind, option set and rules version (for check_games in CI)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seed", type=int, default=1, help="the deals' and the moves' seed")
        parser.add_argument("--rounds", type=int, default=1, help="how many times over")

    def handle(self, *args, seed: int = 1, rounds: int = 1, **options) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_games is for a throwaway database: run it with DJANGO_DEBUG=1")
        rng = random.Random(seed)
        users = get_user_model().objects
        ann, _ = users.get_or_create(username="seed-ann")
        bob, _ = users.get_or_create(username="seed-bob")
        made = [
            leave(started(ann, bob, kind, choices, version, ending, rng), ending, rng)
            for kind, version, choices, ending in plan(rounds)
        ]
        imported = [imported_copy(game, ann) for game in made if game.over]
        self.stdout.write(
            f"{len(made) + len(imported)} games seeded: {len(made)} played, "
            f"{len(imported)} imported from their records"
        )


def plan(rounds: int):
    """(kind, rules version, options, ending) of each game to seed."""
    for _ in range(rounds):
        for kind, option_sets in OPTION_SETS.items():
            others = itertools.cycle(OTHER_ENDINGS)
            for version, choices in itertools.product(versions(kind), option_sets):
                for ending in (*ENDINGS, next(others)):
                    yield kind, version, choices, ending


def started(ann, bob, kind: str, choices: dict, version: str, ending: str, rng) -> Game:
    chosen = services.GameSettings(
        kind=kind,
        options=dict(choices),
        first=rng.choice(("me", "opponent")),
        time_control=LIVE_CLOCK if ending in ("timeout", "abandoned") else "none",
    )
    game = services.create_game(ann, chosen)
    # A stored game of an earlier rules version is one created while that version was current:
    # so it is given that version now, before it is accepted and anyone moves.
    fields = {"seed": rng.getrandbits(62)}
    if version != kinds.get(kind).engine.VERSION:
        fields["engine_version"] = version
    Game.objects.filter(pk=game.pk).update(**fields)
    states.forget_cached_states()
    return services.accept_game(Game.objects.get(pk=game.pk), bob)


def leave(game: Game, ending: str, rng: random.Random) -> Game:
    """Play ``game`` on and leave it as ``ending`` says (or ended by the rules, if they come
    first)."""
    game = play(game, rng, MOVES.get(ending, 0) if ending != "rules" else None)
    if game.status != Game.Status.ACTIVE:
        return game
    if ending in ("resigned", "aborted"):
        end = services.resign if ending == "resigned" else services.abort
        return end(game, game.player(game.to_decide))
    if ending in ("timeout", "abandoned"):  # the clock's sweep, a day on
        return services.enforce_clock(game, timezone.now() + timedelta(days=1))
    return game


def play(game: Game, rng: random.Random, moves: int | None) -> Game:
    """Random legal moves through ``submit_action``: ``moves`` of them, or to the end."""
    done = 0
    while game.status == Game.Status.ACTIVE and (moves is None or done < moves):
        state = states.load_state(game)
        actions = game.engine.legal_actions(state)
        kind = rng.choice(sorted({a.kind for a in actions}))  # so that orders get played too
        action = rng.choice([a for a in actions if a.kind == kind])
        game = services.submit_action(
            game, game.player(state.to_decide), action.to_json(), game.seq
        )
        done += 1
    return game


def imported_copy(game: Game, user) -> Game:
    """The game's record, written and read back as the import page reads an upload."""
    record = records.read(json.loads(json.dumps(records.export(game))))
    return store_record(record, user)
