"""The rules engines of the games the site hosts: one pure-Python package per game kind, each
implementing the interface of ``interface.py``, and the registry the platform looks them up in.
Nothing here imports Django or the site (a test enforces it)."""

from __future__ import annotations

from importlib import import_module

from .interface import GameEngine, IllegalAction, MalformedAction, Outcome

# The registry: a game kind's key (stored on every game) and the package of its engine.
KINDS = {"basilica": "games.engine.basilica", "cathedral": "games.engine.cathedral"}

# Earlier rules versions, so that the games played on them keep replaying and finish as they
# were played: (kind, version) -> module. Each starts and replays games on its version; the rules
# that changed read the version off the state (each engine's README, "Versions").
EARLIER_VERSIONS: dict[tuple[str, str], str] = {
    ("basilica", "1"): "games.engine.basilica.v1",
    ("cathedral", "1"): "games.engine.cathedral.v1",
}


def engine_for(kind: str, version: str | None = None) -> GameEngine:
    """The engine module of ``kind``, at ``version`` (the current one if None).

    KeyError for a kind the site does not host; LookupError for a version it does not have, so
    that a stored game is never replayed by rules other than the ones it was played by.
    """
    engine = import_module(KINDS[kind])
    if version is None or version == engine.VERSION:
        return engine
    earlier = EARLIER_VERSIONS.get((kind, version))
    if earlier is None:
        raise LookupError(
            f"the {kind} engine of version {version!r} is not installed "
            f"(this site has version {engine.VERSION}): the games played on it cannot be replayed"
        )
    return import_module(earlier)


def versions(kind: str) -> list[str]:
    """The rules versions of ``kind`` this site can play and replay, the oldest first."""
    earlier = sorted(v for k, v in EARLIER_VERSIONS if k == kind)
    return [*earlier, import_module(KINDS[kind]).VERSION]


__all__ = [
    "EARLIER_VERSIONS",
    "KINDS",
    "GameEngine",
    "IllegalAction",
    "MalformedAction",
    "Outcome",
    "engine_for",
    "versions",
]
