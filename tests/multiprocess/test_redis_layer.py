"""The channel layer as production configures it (REDIS_URL set): a process that falls behind
still gets every push meant for its sockets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .services_up import ensure_redis

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.multiprocess

# One daphne's sockets (three channels of this process) in a game's group; 300 moves' pushes sent
# to the group while the process reads nothing (a busy daphne), then read. All of a process's
# channels share one Redis list, so its capacity bounds the pushes waiting for the whole process.
BEHIND = """
import asyncio, json, django
django.setup()
from channels.layers import get_channel_layer

async def main():
    layer = get_channel_layer()
    await layer.flush()
    sockets = [await layer.new_channel() for _ in range(3)]
    for name in sockets:
        await layer.group_add("game-1", name)
    for seq in range(1, 301):
        await layer.group_send("game-1", {"type": "game.changed", "seq": seq})
    heard = {name: [] for name in sockets}
    for name in sockets:
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(name), 1)
            except asyncio.TimeoutError:
                break
            heard[name].append(message["seq"])
    await layer.flush()
    print(json.dumps(list(heard.values())))

asyncio.run(main())
"""


def test_a_process_three_hundred_pushes_behind_loses_none():
    problem = ensure_redis()
    if problem:
        pytest.skip(problem)
    probe = subprocess.run(
        [sys.executable, "-c", BEHIND],
        env={
            **os.environ,
            "REDIS_URL": "redis://127.0.0.1:6379/8",
            "DJANGO_SETTINGS_MODULE": "basilica_site.settings",
            "DJANGO_DEBUG": "1",
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    heard = json.loads(probe.stdout.strip().splitlines()[-1])
    assert heard == [list(range(1, 301))] * 3
