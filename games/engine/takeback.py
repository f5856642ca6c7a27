"""Takebacks, the same for every game: an entry of the log that takes back the action before it.

A takeback is appended to the log like an action, never by removing the action it takes back:
``{"kind": "takeback", "seq": n}`` takes back action ``n``, the last action still in force,
which must be the entry just before it. It is stored as the decision of the seat that was to
decide when it was agreed (whose clock was running), whoever of the two agreed to it. Each engine's ``replay`` meets it in the log and rebuilds the game from the
start without the action taken back (``rebuilt``); the state keeps every entry of the log in
its ``history`` (the action taken back marked ``"taken_back": True``, the takeback as its own
entry), so that the state after ``n`` log entries is still the state after ``n`` entries.
A log without takebacks replays exactly as before. Whether a takeback may be made is each
engine's ``takeback_refusal``: a game with hidden information refuses to take back an action
that showed any of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .interface import IllegalAction, Reason

TAKEBACK = "takeback"

NOTHING_TO_TAKE_BACK = Reason("there is no action to take back")
OPPONENT_ACTED = Reason("your opponent has acted since your last action: it cannot be taken back")
GAME_OVER = Reason("the game is over: nothing can be taken back")


def is_takeback(data: object) -> bool:
    """Whether ``data`` (a log entry's action JSON) is a takeback."""
    return isinstance(data, dict) and data.get("kind") == TAKEBACK


def marker(seq: int) -> dict:
    """The log entry that takes back action ``seq``."""
    return {"kind": TAKEBACK, "seq": seq}


def generic_refusal(state: Any, player: int | None = None) -> Reason | None:
    """Why the last entry of ``state``'s history cannot be taken back (by ``player``, if
    given), before the game's own reasons: None if nothing general stands in the way."""
    if state.finished:
        return GAME_OVER
    if not state.history:
        return NOTHING_TO_TAKE_BACK
    last = state.history[-1]
    if is_takeback(last["action"]) or last.get("taken_back"):
        # The other player agreed to a takeback since: that was their decision.
        return OPPONENT_ACTED
    if player is not None and last["player"] != player:
        return OPPONENT_ACTED
    return None


def in_force(actions: list[dict]) -> list[bool]:
    """For each entry of a log (the actions' JSON), whether it is an action still in force:
    a takeback takes back the last action in force before it, and is never in force itself."""
    kept = [False] * len(actions)
    standing: list[int] = []
    for index, data in enumerate(actions):
        if is_takeback(data):
            if standing:
                kept[standing.pop()] = False
        else:
            kept[index] = True
            standing.append(index)
    return kept


def rebuilt(
    state: Any,
    data: dict,
    new_game: Callable[[], Any],
    perform: Callable[[Any, dict], None],
    refusal: Callable[[Any, Any], Reason | None],
    check: bool,
) -> Any:
    """The state after the takeback ``data`` is appended to ``state``'s log: a new game
    (``new_game()``) on which every action still in force is performed again (``perform``).
    With ``check``, ``refusal(before, after)`` (the game's reasons) is asked first and
    IllegalAction raised as a move's would be."""
    number = len(state.history) + 1
    problem = generic_refusal(state)
    if problem is None and data.get("seq") != len(state.history):
        problem = Reason("a takeback takes back the action just before it")
    entries = [entry["action"] for entry in state.history] + [data]
    kept = in_force(entries)
    following = new_game()
    for entry, action, keep in zip(state.history, entries, kept, strict=False):
        if keep:
            perform(following, action)
        elif is_takeback(action):
            following.history.append(dict(entry))
        else:
            following.history.append({**entry, "taken_back": True})
    if check:
        problem = problem or refusal(following, state)
        if problem:
            raise IllegalAction(Reason("action {number}: {rule}", number=number, rule=problem))
    # The decision is the seat's whose clock was running when it was agreed (the opponent's,
    # mostly; the asker's own in the middle of their turn): the clock charges them the time.
    seat = state.to_decide if state.to_decide is not None else 0
    last = state.history[-1] if state.history else {}
    following.history.append({**_extra(last), "player": seat, "action": dict(data)})
    return following


def _extra(entry: dict) -> dict:
    """What a game keeps beside each entry (Basilica: its turn), copied onto the takeback's."""
    return {key: value for key, value in entry.items() if key == "turn"}
