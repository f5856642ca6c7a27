"""The interface every game's rules engine implements, written down once.

A game kind is a pure-Python package (no Django) under ``games.engine`` whose top-level module
exposes the names below; the platform (lobby, the service that applies moves, pushes, clocks,
notifications, admin review, replays, bots, ratings) knows a game only through them, by way of
``games.engine.engine_for(kind)``. The shape follows OpenSpiel: a state answers who must decide
now, the legal actions come in a stable order (never empty while the game is not over), a saved
game is its options, seed and list of actions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``termination`` is in the game's own words ("third scoring", "no more placements");
    ``winners`` holds both seats for a shared win or a draw; ``scores`` are the game's final
    figures, read in the game's own sense (Basilica: points, most wins; Cathedral: unplaced
    squares, fewest wins).
    """

    termination: str
    winners: tuple[int, ...]
    scores: tuple[int, int]


class Words(str):
    """English words that the site translates where it shows them (a building's name, a
    termination). They are the plain string to the engine and its tests."""


def N_(message: str) -> Words:
    """Marks ``message`` as words to translate: the catalogue finds them by this name."""
    return Words(message)


class Reason(Words):
    """A rule's words in English, as the engine and its tests read them, that also keep the
    message with its ``{placeholders}`` and their values, so that the site can say it in a
    player's language (``games.words.say``). A value that is itself marked words (``N_``, or a
    ``Reason``) is translated there too."""

    message: str
    values: dict[str, Any]

    def __new__(cls, message: str, **values: Any) -> Reason:
        said = super().__new__(cls, message.format(**values) if values else message)
        said.message = message
        said.values = values
        return said


class MalformedAction(ValueError):
    """Data that is not an action of the game at all, whatever the position: not a JSON object,
    an unknown kind, a field the game does not have or of the wrong type, a value outside the
    game's bounds (off the board, no such building). ``Action.from_json`` raises it."""


class IllegalAction(ValueError):
    """A well-formed action that the rules refuse now; the message names the rule in a
    player's words. ``apply_action`` raises it (and ``replay`` with ``check=True``)."""


@runtime_checkable
class GameState(Protocol):
    """What the platform reads of a state. Everything else stays inside the engine."""

    # Each entry is a dict with at least "player" (the seat that decided) and "action" (its JSON).
    history: list[dict]
    finished: bool
    outcome: Outcome | None

    @property
    def to_decide(self) -> int | None:
        """The seat (0 or 1) that must decide now; None once the game is over."""

    def returns(self) -> tuple[int, int]:
        """Each seat's current figure (the score so far), as the site shows it."""

    def copy(self) -> GameState: ...


@runtime_checkable
class GameAction(Protocol):
    kind: str

    def to_json(self) -> dict: ...


class GameEngine(Protocol):
    """The module of a game kind, as the platform uses it.

    ``Action.from_json`` validates completely (known kind, known fields, values within the
    game's bounds) and raises ``MalformedAction`` before anything is kept; ``apply_action``
    raises ``IllegalAction`` for a well-formed action the rules refuse now (both are the
    interface's classes, both ``ValueError``). ``Action.from_log`` reads a stored log entry,
    which was checked when it was written.
    """

    NAME: str  # the registry key, stored on every game ("basilica")
    TITLE: str  # what players call it ("Basilica")
    # The rules version of new games, bumped when a rule changes; a stored game replays and
    # goes on by its own version (``games.engine.engine_for(kind, version)``).
    VERSION: str
    # Whether every player sees everything and nothing is random: a player may then prepare
    # replies to the opponent's moves (``games.play.conditional``).
    PERFECT_INFORMATION: bool
    Options: Any  # a frozen dataclass with to_json() and from_json(data)
    Action: Any
    MalformedAction: type[ValueError]
    IllegalAction: type[ValueError]

    def new_game(self, options: Any, seed: int, version: str = ...) -> GameState:
        """A new game played by the rules of ``version`` (the current ``VERSION`` by default).
        The state carries its version: every other function reads it off the state."""

    def legal_actions(self, state: Any) -> Sequence[GameAction]: ...

    def apply_action(self, state: Any, action: Any) -> GameState: ...

    def replay(
        self,
        options: Any,
        seed: int,
        actions: Iterable[Any],
        check: bool = False,
        start: Any = None,
        version: str = ...,
    ) -> GameState:
        """The fold of ``actions`` over the new game of ``version``, or over a copy of
        ``start`` (which carries its own version)."""

    def take_back(self, state: Any) -> GameState:
        """The state after the last action of ``state`` is taken back by agreement (the log
        entry of ``games.engine.takeback``, which ``replay`` reads too); ``IllegalAction``
        saying why not, as ``takeback_refusal`` would."""

    def takeback_refusal(self, before: Any, state: Any, player: int | None = None) -> Any:
        """Why the last action of ``state`` (``before`` it, the state before that action)
        may not be taken back by ``player``: a ``Reason``, or None if it may. A pure function
        of the two states: the other player acted since, or the action showed something
        hidden."""

    def view(self, state: Any, player: int | None) -> dict:
        """What ``player`` (0, 1, or None for a spectator) may see: JSON-safe, nothing hidden."""

    def determinize(self, state: Any, player: int | None, rng: random.Random) -> GameState:
        """A full state that ``player`` cannot tell from ``state``, each secret drawn with
        ``rng``: what a bot of that seat plans on. It depends only on what ``player`` sees
        (``view`` and the public log) and on ``rng``, never on the secrets themselves."""

    def reveal(self, state: Any) -> dict:
        """The view with every secret shown, for the replay of a game that is over."""

    def describe_action(self, state: Any, action: Any) -> str: ...
