"""The engine is a game kind as the platform knows one: every name of the interface is there."""

from __future__ import annotations

import inspect

import games.engine.cathedral as cathedral
from games.engine.interface import GameAction, GameEngine, GameState, Outcome


def test_the_module_has_every_name_of_the_engine_interface():
    names = set(GameEngine.__annotations__) | {
        name for name in vars(GameEngine) if not name.startswith("_")
    }
    assert names >= {"NAME", "new_game", "view", "describe_action"}
    missing = [name for name in names if not hasattr(cathedral, name)]
    assert missing == []


def test_the_module_names_its_kind():
    assert cathedral.NAME == "cathedral"
    assert cathedral.TITLE == "Cathedral"
    assert cathedral.VERSION == "2"


def test_the_functions_take_the_interfaces_arguments():
    for name in ("new_game", "legal_actions", "apply_action", "replay", "view", "describe_action"):
        ours = list(inspect.signature(getattr(cathedral, name)).parameters)
        theirs = list(inspect.signature(getattr(GameEngine, name)).parameters)[1:]  # no self
        assert ours == theirs, name


def test_states_and_actions_are_what_the_platform_reads():
    state = cathedral.new_game(cathedral.Options(), 0)
    assert isinstance(state, GameState)
    assert isinstance(state.copy(), GameState)
    assert isinstance(cathedral.legal_actions(state)[0], GameAction)
    assert cathedral.legal_actions(state)[0].kind == "place"


def test_the_outcome_is_the_interfaces():
    assert cathedral.Outcome is Outcome


def test_illegal_action_is_a_value_error():
    assert issubclass(cathedral.IllegalAction, ValueError)
