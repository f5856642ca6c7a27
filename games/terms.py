"""The terms a game is offered on, as the lobby's forms read them and the services take them:
below both, so that neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass, field

RATING_RANGES = (100, 200, 300)  # a seek's "±" choices, besides any strength


@dataclass(frozen=True)
class GameSettings:
    """What a creator chooses in the lobby: the game kind and its own options (as its form
    reads them), which seat takes the kind's first role, the clock, seek or invitation."""

    kind: str = "basilica"
    options: dict = field(default_factory=dict)
    first: str = "random"  # "me", "opponent" or "random"
    private: bool = False
    time_control: str = "none"  # see games.clock.TimeControl
    series: int = 0  # games in a series (one of the kind's series_lengths), or 0 for one game
    rated: bool = False
    rating_range: int = 0  # a seek for opponents rated within ± this of the creator; 0: anyone
    hints: bool = False  # either player may ask the search bot for a move (casual games only)


class UnplayableSettings(ValueError):
    """Settings no game can be created with; the message says why, in a sentence for a player."""
