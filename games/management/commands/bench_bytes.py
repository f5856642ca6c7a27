"""`manage.py bench_bytes`: what a game page weighs, beside what it weighed before its pieces were
drawn (issue 25, "no heavier").

For a mid-game Basilica and Cathedral position (the same deal and moves every run, on a
throwaway database) it prints the bytes, uncompressed, of: the game page's HTML as the player to
move first loads it, the static files it links (stylesheets, scripts, the favicon, the pieces'
sprite), a move's answer (the HTMX response to a POST to the act view) and the websocket push the
opponent then gets.

Then, as they are sent (``basilica_site.compression``): the game page, a move's answer and the
game's rules page, raw, in gzip (a browser that offers only gzip) and in brotli (one that sends
``Accept-Encoding: gzip, deflate, br``, as Chrome and Firefox do), each with its 1 to 100 random
bytes, so a figure moves by a few bytes from run to run; and the static files' brotli copies,
as collectstatic makes them.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import zlib

import brotli
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse
from django.utils.text import compress_string

from basilica_site.compression import CompressedResponses
from basilica_site.storage import minified
from games.live import pushes
from games.play import services, states

# Measured on 26 November 2026 with this command on the branch's start (4217f28), before the
# pieces were drawn as SVG: DJANGO_DEBUG=1, SQLite, the same positions as below.
BEFORE_ISSUE_25 = {
    "basilica": {"page": 32_432, "static": 100_054, "move": 21_583, "push": 29_472},
    "cathedral": {"page": 27_685, "static": 109_248, "move": 21_054, "push": 24_915},
}

POSITIONS = {
    # kind: (options, actions played before measuring)
    "basilica": ({"expansion": True}, 40),
    "cathedral": ({}, 14),
}

STATIC_LINK = re.compile(r'(?:href|src)="/static/([^"#?]+)')
BROWSER = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
RULES = {"basilica": ("rules", []), "cathedral": ("rules-kind", ["cathedral"])}


def static_bytes(html: str, served: bool = False, compressed: str = "") -> int:
    """The bytes of every distinct static file the page links, each fetched once: as the sources
    are, or ``served`` as production serves them (the site's own stylesheets and scripts
    minified by its static files storage, basilica_site.storage), then ``compressed`` ("br" or
    "gzip") as the copies that collectstatic writes beside them (whitenoise: brotli's quality
    11, gzip's level 9; a file that they do not make smaller is sent as it is)."""
    total = 0
    for path in sorted(set(STATIC_LINK.findall(html))):
        found = finders.find(path)
        if found is None:
            raise LookupError(f"the page links a static file that does not exist: {path}")
        with open(found, "rb") as file:
            content = file.read()
        small = (
            minified(path, content.decode("utf-8"))
            if served and path.endswith((".css", ".js"))
            else None
        )
        content = content if small is None else small.encode("utf-8")
        if compressed == "br":
            total += min(len(content), len(brotli.compress(content)))
        elif compressed == "gzip":
            total += min(len(content), len(gzip.compress(content, compresslevel=9, mtime=0)))
        else:
            total += len(content)
    return total


def as_sent(response) -> dict[str, int]:
    """A response to a browser that offers brotli: its bytes raw, in gzip and in brotli."""
    assert response.get("Content-Encoding") == "br", response.get("Content-Encoding")
    raw = brotli.decompress(response.content)
    sent_gzip = compress_string(raw, max_random_bytes=CompressedResponses.max_random_bytes)
    assert gzip.decompress(sent_gzip) == raw
    return {"raw": len(raw), "gzip": len(sent_gzip), "br": len(response.content)}


class Command(BaseCommand):
    help = "Print the bytes of a game page, its static files, a move and a push, beside before."

    def handle(self, *args, **options):
        from django.db import connection

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            ann = User.objects.create_user("bytes-ann", password="a long enough password 1")
            bob = User.objects.create_user("bytes-bob", password="a long enough password 2")
            self.stdout.write("bytes, uncompressed: now (before issue 25's pieces)")
            sent = {}
            for kind in POSITIONS:
                now, sent[kind] = self.measure(kind, ann, bob)
                self.report(kind, now)
            self.stdout.write("bytes as sent: raw · gzip · brotli")
            for kind, figures in sent.items():
                self.report_sent(kind, figures)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def mid_game(self, kind: str, ann, bob):
        options, actions = POSITIONS[kind]
        settings = services.GameSettings(options=options, first="me", kind=kind)
        game = services.create_game(ann, settings)
        game.seed = 7
        game.save(update_fields=["seed"])
        game = services.accept_game(game, bob)
        rng = random.Random(7)
        for _ in range(actions):
            state = states.load_state(game)
            action = rng.choice(game.engine.legal_actions(state)).to_json()
            game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
        return game, rng

    def measure(self, kind: str, ann, bob) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
        """The bytes uncompressed (beside before issue 25), and as sent to a browser."""
        game, rng = self.mid_game(kind, ann, bob)
        state = states.load_state(game)
        mover, waiting = state.to_decide, 1 - state.to_decide
        client = Client()
        client.force_login(game.player(mover))
        url = game.get_absolute_url()
        html = client.get(url).text
        page_sent = as_sent(client.get(url, **BROWSER))
        action = rng.choice(game.engine.legal_actions(state)).to_json()
        answer = client.post(
            f"{url}act/",
            {"action": json.dumps(action), "seq": game.seq},
            HTTP_HX_REQUEST="true",
            **BROWSER,
        )
        assert answer.status_code == 200, answer.status_code
        move_sent = as_sent(answer)
        game.refresh_from_db()
        push = pushes.render_partials(game, game.player(waiting), "x" * 64)
        name, args = RULES[kind]
        rules_sent = as_sent(Client().get(reverse(name, args=args), **BROWSER))
        served = static_bytes(html, served=True)
        now = {
            "page": len(html.encode()),
            "static": static_bytes(html),
            "served": served,
            "move": move_sent["raw"],
            "push": len(push.encode()),
        }
        static = {
            "raw": served,
            "gzip": static_bytes(html, served=True, compressed="gzip"),
            "br": static_bytes(html, served=True, compressed="br"),
        }
        # What a push would weigh if the socket deflated it (permessage-deflate, no context
        # kept between messages): the sockets send it as it is (see the README).
        deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
        deflated = deflater.compress(push.encode()) + deflater.flush(zlib.Z_SYNC_FLUSH)
        sent = {
            "page": page_sent,
            "move": move_sent,
            "rules": rules_sent,
            "static": static,
            "first visit": {coding: page_sent[coding] + static[coding] for coding in static},
            "push, raw and if deflated": {"raw": len(push.encode()), "deflate": len(deflated)},
        }
        return now, sent

    def report(self, kind: str, now: dict[str, int]) -> None:
        # Before issue 25 production served the sources as they were: "served" compares with them.
        before = {**BEFORE_ISSUE_25[kind], "served": BEFORE_ISSUE_25[kind]["static"]}
        first_before = before["page"] + before["static"]
        figures = [
            *(f"{name} {now[name]:,} ({before[name]:,})" for name in now),
            f"first visit {now['page'] + now['static']:,} ({first_before:,})",
            f"as served {now['page'] + now['served']:,} ({first_before:,})",
        ]
        self.stdout.write(f"{kind:10} " + " · ".join(figures))

    def report_sent(self, kind: str, sent: dict[str, dict[str, int]]) -> None:
        figures = [
            f"{name} "
            + " · ".join(
                f"{sizes[coding]:,}"
                for coding in ("raw", "gzip", "br", "deflate")
                if coding in sizes
            )
            for name, sizes in sent.items()
        ]
        self.stdout.write(f"{kind:10} " + "; ".join(figures))
