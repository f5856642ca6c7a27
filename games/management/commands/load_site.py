"""`manage.py load_site`: the load figures of issue 10, each a ratio or a percentile measured in
this run, beside its target. Everything runs in this one process, on the configured database
(`make load` points it at a throwaway SQLite file) and channel layer; nothing leaves 127.0.0.1.

- a move's cost does not grow with the game: POST latency late in an expansion game ÷ early;
- move → opponent's push p99 with many games being played at once;
- move → the last of 100 spectators' push p99;
- resident memory over many moves across many games stays flat;
- move → opponent's push p99 beside a flood of chat (issue 28): players posting by HTMX POST
  (through the site's ASGI application, as daphne hands it a post) twenty times a second
  against the chat's limits as they stand (what they let through is stored and pushed), and
  scripts opening sockets and sending messages up them as often, against the same games
  without it.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import random
import resource
import statistics
import time
from collections import defaultdict
from urllib.parse import urlencode

from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.test import Client

from basilica_site.logs import without_move_lines
from games.engine import basilica as engine
from games.models import Action, Game
from games.play import services, states

PASSWORD = "a long enough password 1"


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def resident_mb() -> float:
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def new_game(name: str, expansion: bool = False, seed: int | None = None) -> Game:
    ann = User.objects.create_user(f"{name}-a", password=PASSWORD)
    bob = User.objects.create_user(f"{name}-b", password=PASSWORD)
    settings = services.GameSettings(options={"expansion": expansion}, first="me")
    game = services.create_game(ann, settings)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
    game = services.accept_game(game, bob)
    return Game.objects.with_players().get(pk=game.pk)


def random_action(state, rng: random.Random):
    """A legal action: a kind at random, then one of it (so that orders get played)."""
    actions = engine.legal_actions(state)
    kind = rng.choice(sorted({a.kind for a in actions}))
    return rng.choice([a for a in actions if a.kind == kind])


def any_move(game: Game, rng: random.Random) -> tuple[User, dict]:
    """Who decides now, and a legal action for them."""
    state = states.load_state(game)
    return game.player(state.to_decide), random_action(state, rng).to_json()


def with_log(game: Game, actions: list) -> Game:
    """``game`` (just begun) having played ``actions`` at once: its log written in one go, as
    a long game's stands in the database; its state cached as after a move."""
    state = game.engine.replay(game.engine_options, game.seed, actions)
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
    Game.objects.filter(pk=game.pk).update(seq=len(actions), to_decide=state.to_decide)
    game.refresh_from_db()
    states.load_state(game)
    return game


def mover(game: Game, done: int, actions: list):
    """A function that plays the game's next action of ``actions`` as an HTMX POST of the
    player deciding (each has drawn the game's page first: a player moves from it), and returns
    how long the answer took."""
    clients = {}
    for user in (game.seat0, game.seat1):
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
        # Each player moves from the game's page, drawn for them before their move.
        assert clients[user.pk].get(game.get_absolute_url()).status_code == 200
    played = itertools.count(done)

    def move() -> float:
        index = next(played)
        state = states.load_state(game)
        form = {"action": json.dumps(actions[index].to_json()), "seq": index}
        client = clients[game.player(state.to_decide).pk]
        start = time.perf_counter()
        response = client.post(
            f"/games/{game.pk}/act/", form, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live"
        )
        took = time.perf_counter() - start
        assert response.status_code == 200, response.status_code
        game.refresh_from_db()
        return took

    return move


def session_for(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def cookie_for(user: User) -> bytes:
    return f"sessionid={session_for(user)}; csrftoken=load".encode()


CSRF_SECRET = "loadCsrfSecretOfTheFlooder012345"  # 32 letters and digits, as Django makes one


def socket(game: Game, cookie: bytes) -> WebsocketCommunicator:
    from basilica_site.asgi import application

    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)


async def push_of(communicator: WebsocketCommunicator, seq: int) -> None:
    """Wait for the push that carries ``seq`` (notices and older pushes are skipped)."""
    mark = f'data-seq="{seq}"'
    while True:
        message = await communicator.receive_from(timeout=30)
        if not message.startswith("{") and mark in message:
            return


async def players_sockets(games: list[Game]) -> dict:
    """Each player's socket on each game, connected, by (game id, user id)."""
    sockets = {}
    for game in games:
        for user in (game.seat0, game.seat1):
            communicator = socket(game, await database_sync_to_async(cookie_for)(user))
            assert (await communicator.connect())[0]
            sockets[(game.pk, user.pk)] = communicator
    return sockets


async def play_live(
    game: Game, moves: int, think: float, sockets: dict, latencies: list[float]
) -> None:
    """``moves`` random moves of ``game``, a think of up to ``think`` seconds before each; the
    time from each move to its push on the opponent's socket added to ``latencies``."""
    rng = random.Random(game.pk)
    for _ in range(moves):
        await asyncio.sleep(rng.uniform(think / 3, think))
        user, action = await database_sync_to_async(any_move)(game, rng)
        opponent = game.seat1 if user.pk == game.seat0_id else game.seat0
        start = time.perf_counter()
        game = await database_sync_to_async(services.submit_action)(game, user, action, game.seq)
        await push_of(sockets[(game.pk, opponent.pk)], game.seq)
        latencies.append(time.perf_counter() - start)


class Command(BaseCommand):
    help = "The load figures of issue 10, in this process (make load uses a throwaway database)."

    def add_arguments(self, parser):
        parser.add_argument("--live-games", type=int, default=200)
        parser.add_argument("--spectators", type=int, default=100)
        parser.add_argument("--memory-games", type=int, default=500)
        parser.add_argument("--memory-moves", type=int, default=10_000)
        parser.add_argument("--growth-games", type=int, default=6, help="long games timed")
        parser.add_argument(
            "--think", type=float, default=6, help="players think a third of this to all of it"
        )
        parser.add_argument("--chat-games", type=int, default=50, help="games beside the flood")
        parser.add_argument(
            "--chat-flooders", type=int, default=5, help="of those games, how many are flooded"
        )
        parser.add_argument(
            "--chat-every", type=float, default=0.05, help="seconds between a flooder's posts"
        )
        parser.add_argument(
            "--chat-moves", type=int, default=10, help="moves of each game, with and without"
        )
        parser.add_argument(
            "--chat-rounds",
            type=int,
            default=3,
            help="rounds of the flood's comparison, each a quiet and a flooded phase in turns",
        )

    @without_move_lines
    def handle(self, *args, **options):
        from django.conf import settings

        settings.DEBUG = False  # DEBUG would log every query: production does not
        self.say("machine", machine())
        self.move_cost_growth(options["growth_games"])
        asyncio.run(self.live_games(options["live_games"], options["think"]))
        asyncio.run(self.spectators(options["spectators"]))
        asyncio.run(
            self.chat_flood(
                options["chat_games"],
                options["think"],
                options["chat_every"],
                options["chat_flooders"],
                options["chat_moves"],
                options["chat_rounds"],
            )
        )
        self.memory(options["memory_games"], options["memory_moves"])

    def say(self, name: str, text: str) -> None:
        self.stdout.write(f"{name:34} {text}")
        self.stdout.flush()

    # -- a move's cost along a long game ---------------------------------------------------------

    def move_cost_growth(self, games: int = 6, window: int = 10) -> None:
        """HTMX POST latency at actions 5-15 and at the last actions of 130+ action games.

        Each game is played twice from one seed: one copy stands early, the other near its end
        (its log written at once), and their moves are timed in turns, so that whatever else
        the machine does weighs on both figures alike.
        """
        pairs = []
        for number in itertools.count():
            if len(pairs) == games or number == games * 10:
                break
            seed, actions = number + 1, []
            early = new_game(f"growth{number}e", expansion=True, seed=seed)
            state, rng = states.load_state(early), random.Random(number)
            while not state.finished:
                actions.append(random_action(state, rng))
                state = engine.apply_action(state, actions[-1])
            if len(actions) < 120 + window:
                continue
            late = new_game(f"growth{number}l", expansion=True, seed=seed)
            late = with_log(late, actions[: -window - 1])
            early = with_log(early, actions[:4])
            pairs.append(
                (mover(early, 4, actions), mover(late, len(actions) - window - 1, actions))
            )
        early_times, late_times = [], []
        for _ in range(1 + window):  # the first move of each copy warms its caches: not timed
            for early_move, late_move in pairs:
                early_times.append(early_move())
                late_times.append(late_move())
        early_times = [t for i, t in enumerate(early_times) if i >= len(pairs)]
        late_times = [t for i, t in enumerate(late_times) if i >= len(pairs)]
        early, late = statistics.median(early_times), statistics.median(late_times)
        self.say(
            "move POST late ÷ early",
            f"{late / early:.2f} (target ≤ 1.2; early median {early * 1000:.1f} ms, "
            f"late {late * 1000:.1f} ms, {len(pairs)} games of 130+ actions, moves interleaved)",
        )

    # -- pushes ------------------------------------------------------------------------------

    async def live_games(self, count: int, think: float, moves_each: int = 5) -> None:
        """Move → opponent's push, with ``count`` games being played at once.

        Players think ``think`` / 3 to ``think`` seconds between moves (by default 2 to 6: about
        ``count`` / 4 moves a second in all);
        without it, every game would move at the same instant and the figure would measure the
        queue of one burst instead of a site in play.
        """
        games = [await database_sync_to_async(new_game)(f"live{i}") for i in range(count)]
        sockets = await players_sockets(games)
        latencies: list[float] = []

        await asyncio.gather(*(play_live(g, moves_each, think, sockets, latencies) for g in games))
        for communicator in sockets.values():
            await communicator.disconnect()
        self.say(
            f"move → push, {count} games at once",
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms (target < 50 ms; median "
            f"{statistics.median(latencies) * 1000:.0f} ms, {len(latencies)} moves)",
        )

    async def spectators(self, count: int, moves: int = 40) -> None:
        """Move → the push reaching the last of ``count`` spectators of one game."""
        game = await database_sync_to_async(new_game)("watched")
        watchers = []
        for i in range(count):
            user = await database_sync_to_async(User.objects.create_user)(f"watcher{i}")
            communicator = socket(game, await database_sync_to_async(cookie_for)(user))
            assert (await communicator.connect())[0]
            watchers.append(communicator)
        rng, latencies = random.Random(1), []
        for _ in range(moves):
            user, action = await database_sync_to_async(any_move)(game, rng)
            start = time.perf_counter()
            game = await database_sync_to_async(services.submit_action)(
                game, user, action, game.seq
            )
            await asyncio.gather(*(push_of(w, game.seq) for w in watchers))
            latencies.append(time.perf_counter() - start)
        for communicator in watchers:
            await communicator.disconnect()
        self.say(
            f"move → last of {count} spectators",
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms (target < 150 ms; median "
            f"{statistics.median(latencies) * 1000:.0f} ms, {moves} moves)",
        )

    # -- a flood of chat beside the moves ------------------------------------------------------

    async def chat_flood(
        self, count: int, think: float, every: float, flooded: int, moves: int, rounds: int = 3
    ) -> None:
        """Move → opponent's push in ``count`` games of ``moves`` moves, without and with a flood
        of chat in ``flooded`` of them: in each, a player posting every ``every`` seconds by
        HTMX POST, against the site's limits as they stand (what they let through is stored and
        pushed to both players' sockets, the rest refused), and a script opening a socket of
        that game's other player and sending text up it, over and over.

        The two are played in ``rounds`` rounds, in turns (quiet then flooded, then flooded then
        quiet, ...), and each side's moves pooled: this machine's speed drifts by a third or more
        within minutes, and a single quiet phase before a single flooded one measured the drift
        as much as the flood."""
        quiet: list[float] = []
        loud: list[float] = []
        each_round: list[str] = []
        sent: dict[str, int] = defaultdict(int)
        for number in range(rounds):
            order = ("quiet", "flood") if number % 2 == 0 else ("flood", "quiet")
            got: dict[str, list[float]] = {}
            for side in order:
                got[side], counts = await self.moves_beside_chat(
                    f"{side}{number}-",
                    count,
                    think,
                    every,
                    flooded if side == "flood" else 0,
                    moves,
                )
                for name, value in counts.items():
                    sent[name] += value
            quiet += got["quiet"]
            loud += got["flood"]
            each_round.append(
                f"{percentile(got['flood'], 0.99) / percentile(got['quiet'], 0.99):.2f}"
            )
        self.say(
            f"move → push, {count} games, no chat",
            f"p99 {percentile(quiet, 0.99) * 1000:.0f} ms (median "
            f"{statistics.median(quiet) * 1000:.0f} ms, {len(quiet)} moves in {rounds} rounds)",
        )
        self.say(
            f"move → push, {count} games, {flooded} flooded",
            f"p99 {percentile(loud, 0.99) * 1000:.0f} ms (target: at most 1.5 times the quiet p99; "
            f"{percentile(loud, 0.99) / percentile(quiet, 0.99):.2f} times; "
            f"median {statistics.median(loud) * 1000:.0f} ms, {len(loud)} moves; "
            f"each round's ratio {', '.join(each_round)}; "
            f"{sent['posts']} chat posts, {sent['refused']} of them refused by the limits "
            f"({sent['gated']} at the gate), "
            f"{sent['socket']} messages up sockets, {sent['handshakes']} handshakes of which "
            f"{sent['shut out']} refused at the gate)",
        )

    async def moves_beside_chat(
        self, name: str, count: int, think: float, every: float, flooded: int, moves: int
    ) -> tuple[list[float], dict]:
        games = [await database_sync_to_async(new_game)(f"{name}{i}") for i in range(count)]
        sockets = await players_sockets(games)
        latencies: list[float] = []
        sent = {"posts": 0, "refused": 0, "gated": 0, "socket": 0, "handshakes": 0, "shut out": 0}
        playing = asyncio.Event()

        async def post_chat(game: Game) -> None:
            # Through the site's ASGI application, as daphne hands it a post: its token checked,
            # and past the gate that answers a session told to wait (ChatFloodGate).
            from basilica_site.asgi import application

            session = await database_sync_to_async(session_for)(game.seat0)
            headers = [
                (b"host", b"localhost"),
                (b"cookie", f"sessionid={session}; csrftoken={CSRF_SECRET}".encode()),
                (b"x-csrftoken", CSRF_SECRET.encode()),
                (b"hx-request", b"true"),
                (b"content-type", b"application/x-www-form-urlencoded"),
            ]
            body = urlencode({"room": "players", "text": "a" * 200}).encode()
            path = f"/games/{game.pk}/chat/"
            while not playing.is_set():
                await asyncio.sleep(every)
                post = HttpCommunicator(application, "POST", path, body=body, headers=headers)
                response = await post.get_response(timeout=30)
                await post.wait()
                status = response["status"]
                # A limit reached answers htmx 400 with its reason (games.web.chat._refused), and
                # then 204 at once, at the gate, while the player is told to wait.
                assert status in (200, 204, 400), (status, response["headers"])
                sent["posts"] += 1
                sent["refused"] += status != 200
                sent["gated"] += status == 204

        async def talk_up_socket(game: Game) -> None:
            cookie = await database_sync_to_async(cookie_for)(game.seat1)
            while not playing.is_set():
                await asyncio.sleep(every)
                spammer = socket(game, cookie)
                connected, _ = await spammer.connect(timeout=30)  # the flood slows the handshake
                sent["handshakes"] += 1
                sent["shut out"] += not connected  # refused at the gate, as a talker
                if connected:
                    await spammer.send_to(text_data='{"chat": "spam"}')
                    sent["socket"] += 1
                    while (await spammer.receive_output(timeout=30))["type"] != "websocket.close":
                        pass  # its greeting; then the server cuts it off
                await spammer.disconnect()

        flooders = [asyncio.create_task(post_chat(g)) for g in games[:flooded]]
        flooders += [asyncio.create_task(talk_up_socket(g)) for g in games[:flooded]]
        await asyncio.gather(*(play_live(g, moves, think, sockets, latencies) for g in games))
        playing.set()
        await asyncio.gather(*flooders)
        for communicator in sockets.values():
            await communicator.disconnect()
        return latencies, sent

    # -- memory ------------------------------------------------------------------------------

    def memory(self, game_count: int, moves: int) -> None:
        """Resident memory after 20% of ``moves`` (warm) and at the end, round-robin over games."""
        games = [new_game(f"memory{i}") for i in range(game_count)]
        rng, played, warm = random.Random(3), 0, None
        while played < moves:
            for i, game in enumerate(games):
                if game.status != Game.Status.ACTIVE:
                    games[i] = game = new_game(f"memory{game_count + played}")
                user, action = any_move(game, rng)
                games[i] = services.submit_action(game, user, action, game.seq)
                played += 1
                if played == moves // 5:
                    warm = resident_mb()
                if played >= moves:
                    break
        end = resident_mb()
        self.say(
            f"memory over {moves} moves",
            f"{end / warm:.2f} of the warm figure (target 0.9-1.1; {warm:.0f} MB after {moves // 5} moves, "
            f"{end:.0f} MB after {moves}, {game_count} games at a time)",
        )


def machine() -> str:
    import os
    import platform

    with open("/proc/meminfo") as meminfo:
        total = int(meminfo.readline().split()[1]) / 2**20
    return f"{os.cpu_count()} cores, {total:.0f} GiB, Python {platform.python_version()}"
