"""The rules engines of the games the site hosts: one pure-Python package per game kind, each
implementing the interface of ``interface.py``, and the registry the platform looks them up in.
Nothing here imports Django or the site (a test enforces it)."""

from __future__ import annotations

from importlib import import_module

from .interface import GameEngine, Outcome

# The registry: a game kind's key (stored on every game) and the package of its engine.
KINDS = {"basilica": "games.engine.basilica", "cathedral": "games.engine.cathedral"}


def engine_for(kind: str) -> GameEngine:
    """The engine module of ``kind``; KeyError for a kind the site does not host."""
    return import_module(KINDS[kind])


__all__ = ["KINDS", "GameEngine", "Outcome", "engine_for"]
