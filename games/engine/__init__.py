"""The Basilica rules engine: pure Python, no Django. See ``basilica.py`` for the interface."""

from .basilica import (
    Action,
    IllegalAction,
    Options,
    ScoreReport,
    State,
    apply_action,
    describe_action,
    legal_actions,
    new_game,
    replay,
    score_cathedral,
    view,
)
from .state import Outcome

__all__ = [
    "Action",
    "IllegalAction",
    "Options",
    "Outcome",
    "ScoreReport",
    "State",
    "apply_action",
    "describe_action",
    "legal_actions",
    "new_game",
    "replay",
    "score_cathedral",
    "view",
]
