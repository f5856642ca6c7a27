"""Fill a (throwaway) database with games of every kind, option set and rules version, played
through the site's one service: finished by the rules, still running, resigned and aborted.

    manage.py seed_games [--seed N]

It is what ``make check-games`` runs ``check_games`` against. Never run it on a real site: it
makes two players of its own and dozens of games between them.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import kinds, services
from games.engine import versions
from games.models import Game

# Every option set the lobby offers, by kind.
OPTION_SETS = {
    "basilica": [
        {"edition": "2010"},
        {"edition": "2022"},
        {"edition": "2010", "expansion": True},
        {"edition": "2022", "expansion": True},
        {"edition": "2022", "expansion": True, "remove_six": True},
    ],
    "cathedral": [{}, {"lehman": True}],
}
# How each seeded game is left: played to its end, stopped partway, resigned, aborted.
ENDINGS = ("rules", "running", "resigned", "aborted")


class Command(BaseCommand):
    help = "Make games of every kind, option set and rules version (for check_games in CI)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seed", type=int, default=1, help="the random moves' seed")

    def handle(self, *args, seed: int = 1, **options) -> None:
        rng = random.Random(seed)
        users = get_user_model().objects
        ann, _ = users.get_or_create(username="seed-ann")
        bob, _ = users.get_or_create(username="seed-bob")
        made = 0
        for kind, option_sets in OPTION_SETS.items():
            for version in versions(kind):
                for number, choices in enumerate(option_sets):
                    for ending in (ENDINGS[number % 2], ENDINGS[2 + number % 2], "rules"):
                        game = seeded_game(ann, bob, kind, choices, version, rng)
                        leave(game, ending, rng)
                        made += 1
        self.stdout.write(f"{made} games seeded")


def seeded_game(ann, bob, kind: str, choices: dict, version: str, rng: random.Random) -> Game:
    settings = services.GameSettings(kind=kind, options=dict(choices), first="random")
    game = services.create_game(ann, settings)
    # A game of an earlier version is one created while that version was current: it is given
    # the version before anyone has moved, as it would have been then.
    fields = {"seed": rng.getrandbits(62)}
    if version != kinds.get(kind).engine.VERSION:
        fields["engine_version"] = version
    Game.objects.filter(pk=game.pk).update(**fields)
    services.forget_cached_states()
    return services.accept_game(Game.objects.get(pk=game.pk), bob)


def leave(game: Game, ending: str, rng: random.Random) -> Game:
    if ending == "aborted":
        return services.abort(game, game.player(game.to_decide))
    moves = {"rules": None, "running": 30, "resigned": 20}[ending]
    game = play(game, rng, moves)
    if ending == "resigned" and game.status == Game.Status.ACTIVE:
        game = services.resign(game, game.player(rng.randrange(2)))
    return game


def play(game: Game, rng: random.Random, moves: int | None) -> Game:
    """Random legal moves through ``submit_action``: ``moves`` of them, or to the end."""
    done = 0
    while game.status == Game.Status.ACTIVE and (moves is None or done < moves):
        state = services.load_state(game)
        actions = game.engine.legal_actions(state)
        kind = rng.choice(sorted({a.kind for a in actions}))  # so that orders get played too
        action = rng.choice([a for a in actions if a.kind == kind])
        game = services.submit_action(
            game, game.player(state.to_decide), action.to_json(), game.seq
        )
        done += 1
    return game
