"""`manage.py bench_comfort`: times what a player with many correspondence games waits for, on a
throwaway database: a Cathedral move with no prepared line and one that sets off a prepared
reply, the game page with the player's notes and 30 prepared lines, My games and the next game
with 20 games running, and the calendar feed of those 20 games. Prints the median and 95th
percentile of each, and the database queries of one request."""

from __future__ import annotations

import json
import statistics
import time

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_test_environment
from django.urls import reverse

from basilica_site.logs import without_move_lines
from games.correspondence import calendar, notes
from games.engine import cathedral as engine
from games.play import conditional, services, states


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Command(BaseCommand):
    help = "Time the correspondence tools: prepared replies, notes, My games, next game, feed."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=60)

    @without_move_lines
    def handle(self, *args, rounds: int, **options):
        from basilica_site.runtime import freeze_startup_objects

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        import basilica_site.asgi  # noqa: F401 - set up as a server process is

        freeze_startup_objects()
        try:
            self.bench(rounds)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def report(self, name: str, samples: list[float], queries: int) -> None:
        self.stdout.write(
            f"{name}: median {statistics.median(samples) * 1000:.1f} ms, "
            f"p95 {percentile(samples, 0.95) * 1000:.1f} ms, {queries} queries"
        )

    def timed(self, name: str, rounds: int, call) -> None:
        call()  # templates compiled, caches as a running server has them
        reset_queries()  # the log keeps 9,000 queries at most: counted from an empty one
        with CaptureQueriesContext(connection) as queries:
            call()
        samples = []
        for _ in range(rounds):
            start = time.perf_counter()
            call()
            samples.append(time.perf_counter() - start)
        self.report(name, samples, len(queries))

    def game(self, ann, bob):
        """A correspondence Cathedral game: ann (light) placed the Cathedral, bob to move."""
        terms = services.GameSettings(kind="cathedral", first="me", time_control="3d")
        game = services.accept_game(services.create_game(ann, terms), bob)
        first = engine.legal_actions(states.load_state(game))[0].to_json()
        return services.submit_action(game, ann, first, game.seq)

    def bench(self, rounds: int) -> None:
        ann = User.objects.create_user("bench-ann", password="a long enough password 1")
        bob = User.objects.create_user("bench-bob", password="a long enough password 2")
        games = [self.game(ann, bob) for _ in range(20)]
        clients = {ann: Client(), bob: Client()}
        for user, client in clients.items():
            client.force_login(user)
        self.moves(games, clients, ann, bob, rounds)
        game = games[0]
        notes.write(game, ann, "Keep the corner for the Castle.\n" * 20)
        self.prepare_many(game, ann)
        self.timed(
            "game page, 30 lines and a note",
            rounds,
            lambda: clients[ann].get(game.get_absolute_url()),
        )
        self.timed("My games, 20 games", rounds, lambda: clients[ann].get(reverse("games:mine")))
        self.timed("next game, 20 games", rounds, lambda: clients[bob].get(reverse("games:next")))
        token = calendar.new_address(ann)
        self.timed(
            "calendar feed, 20 games",
            rounds,
            lambda: Client().get(reverse("calendar-feed", args=[token])),
        )

    def moves(self, games, clients, ann, bob, rounds: int) -> None:
        """Bob's HTMX move, in a game where ann prepared nothing and in one where she prepared
        the reply to it (the reply played in the same request)."""
        plain, replied = [], []
        plain_queries = replied_queries = 0
        for number in range(2 * rounds):
            game = games[1 + number % (len(games) - 1)]
            game.refresh_from_db()
            if game.status != "active":
                continue
            if game.to_decide != 1:  # ann's move, played outside the timing
                mine = engine.legal_actions(states.load_state(game))[0].to_json()
                game = services.submit_action(game, ann, mine, game.seq)
                if game.to_decide != 1:
                    continue
            state = states.load_state(game)
            theirs = engine.legal_actions(state)[number % 7]
            prepared = number // (len(games) - 1) % 2 == 1
            if prepared:
                reply = engine.legal_actions(engine.apply_action(state, theirs))[0]
                conditional.prepare(game, ann, [theirs.to_json(), reply.to_json()], game.seq)
            form = {"action": json.dumps(theirs.to_json()), "seq": game.seq}
            reset_queries()
            url = reverse("games:act", args=[game.pk])
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = clients[bob].post(url, form, HTTP_HX_REQUEST="true")
                took = time.perf_counter() - start
            assert response.status_code == 200, response.status_code
            (replied if prepared else plain).append(took)
            if prepared:
                replied_queries = len(queries)
            else:
                plain_queries = len(queries)
        self.report("Cathedral move, nothing prepared", plain, plain_queries)
        self.report("Cathedral move and the prepared reply", replied, replied_queries)

    def prepare_many(self, game, ann) -> None:
        game.refresh_from_db()
        state = states.load_state(game)
        for theirs in engine.legal_actions(state)[: conditional.MAX_LINES]:
            reply = engine.legal_actions(engine.apply_action(state, theirs))[0]
            conditional.prepare(game, ann, [theirs.to_json(), reply.to_json()], game.seq)
