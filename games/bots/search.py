"""The search bot: single-observer information-set Monte Carlo tree search (Cowling, Powley
and Whitehouse, 2012).

One tree of the bot's own information set: each iteration draws a new determinization (a full
state the bot cannot tell from the one it sees), walks the tree by UCB among the actions legal
in that determinization (counting how often each was available, as the method asks), adds one
node, and reads it through the game's heuristic as a chance of winning (or, given a playout
depth, the position a few random actions later). Whoever decides at a node, the bot or its
opponent, in the turn or outside it (a paid order's answer, a Jester's colour), picks what is
best for themselves, among the few actions the heuristic ranks best there: with some fifty
actions a decision in Basilica and over a thousand in Cathedral's openings, a search that tried
them all would spend its budget on moves nobody would make, and read the opponent as random.
The move is the root's most visited action.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .heuristics import EVALUATE, SCALE

EXPLORATION = 0.3


@dataclass(frozen=True)
class Budget:
    """How much one decision may think: ``simulations`` iterations, never a time, so that
    a busy machine plays as well as a quiet one, only more slowly; playouts stop after ``depth`` actions (0: the heuristic reads the
    new node itself). Only the ``width`` best root actions by the heuristic are searched, and
    below the root the ``reply_width`` best, ranked when a node is first passed through (among
    ``sample`` of them drawn at random where there are more, as in Cathedral's openings)."""

    simulations: int
    depth: int = 0
    width: int = 10
    reply_width: int = 5
    sample: int = 150


class Node:
    __slots__ = ("available", "children", "shortlist", "total", "visits")

    def __init__(self) -> None:
        self.children: dict = {}
        self.shortlist: list | None = None  # the actions worth trying here, best first
        self.visits = 0
        self.total = 0.0  # the rewards of the player who took the action leading here
        self.available = 0  # how often that action was legal when its parent was visited


def search(engine, kind: str, seen, seat: int, budget: Budget, rng: random.Random):
    """The action the search advises ``seat`` to take; ``seen`` is a determinization of what
    the seat sees (each iteration draws another from it, never from the real secrets)."""
    # The root's actions are all ranked: it is the one decision that is made for real.
    first = shortlist(engine, kind, seen, seat, budget.width, None, rng)
    if len(first) == 1:
        return first[0]
    root = grow(engine, kind, seen, seat, budget, rng, first)
    best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))
    return best[0]


def grow(engine, kind: str, seen, seat: int, budget: Budget, rng: random.Random, first: list):
    """The tree of ``seat``'s information set after ``budget.simulations`` iterations, its
    root's actions ``first``: each root child's ``total / visits`` is the seat's chance of
    winning after that action, as the search reads it."""
    evaluate, scale = EVALUATE[kind], SCALE[kind]
    root = Node()
    root.shortlist = first
    for _ in range(budget.simulations):
        state = engine.determinize(seen, seat, rng)
        path = _descend(engine, kind, root, state, budget, rng)
        state = path[-1][2]
        for _ in range(budget.depth):
            if state.finished:
                break
            state = engine.apply_action(state, rollout_action(engine.legal_actions(state), rng))
        reward = _reward(state, evaluate, scale)
        for node, mover, _ in path:
            node.visits += 1
            node.total += reward if mover == 0 else 1.0 - reward
    return root


def _descend(engine, kind: str, root: Node, state, budget: Budget, rng: random.Random) -> list:
    """Select down the tree and expand one node: [(node, the seat that moved into it, the
    state there)], the root first."""
    path = [(root, None, state)]
    node = root
    while not state.finished:
        legal = engine.legal_actions(state)
        mover = state.to_decide
        if node.shortlist is None:
            node.shortlist = shortlist(
                engine, kind, state, mover, budget.reply_width, budget.sample, rng, legal
            )
        # What another determinization made legal here may not be now (a tile drawn in one
        # is still in the stack in another): the shortlist's actions legal now, else any.
        allowed = set(legal)
        legal = [action for action in node.shortlist if action in allowed] or list(legal)
        untried = None
        for action in legal:
            child = node.children.get(action)
            if child is None:
                untried = untried or action
            else:
                child.available += 1
        if untried is not None:
            child = node.children[untried] = Node()
            child.available = 1
            state = engine.apply_action(state, untried)
            path.append((child, mover, state))
            return path
        action = max(legal, key=lambda a: _ucb(node.children[a]))
        node = node.children[action]
        state = engine.apply_action(state, action)
        path.append((node, mover, state))
    return path


def _ucb(node: Node) -> float:
    return node.total / node.visits + EXPLORATION * math.sqrt(
        math.log(node.available) / node.visits
    )


def _reward(state, evaluate, scale: float) -> float:
    """Seat 0's chance of winning from ``state``: the result if it is over, else its lead as
    the heuristic reads it, through a logistic curve."""
    if state.finished:
        winners = state.outcome.winners
        return 0.5 if len(winners) == 2 else float(winners == (0,))
    lead = evaluate(state, 0) / scale
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, lead))))


def rollout_action(legal: list, rng: random.Random):
    """A kind of action at random, then one of that kind: in Basilica a vault has a dozen cells
    and an order a few targets, so uniform play would hardly ever take an order."""
    kinds = {}
    for action in legal:
        kinds.setdefault(action.kind, []).append(action)
    if len(kinds) == 1:
        return rng.choice(legal)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def shortlist(
    engine,
    kind: str,
    state,
    seat: int,
    width: int,
    sample: int | None,
    rng: random.Random,
    legal=None,
) -> list:
    """The ``width`` legal actions that look best to ``seat`` one action ahead, best first;
    where there are more than ``sample``, the best of ``sample`` drawn at random."""
    legal = list(engine.legal_actions(state) if legal is None else legal)
    if len(legal) <= width:
        rng.shuffle(legal)
        return legal
    if sample is not None and len(legal) > sample:
        legal = rng.sample(legal, sample)
    return [action for _, action in ranked(engine, kind, state, seat, legal, rng)[:width]]


def ranked(engine, kind: str, state, seat: int, legal: list, rng: random.Random) -> list:
    """(value, action) for every action of ``legal``, best first; ties in a random order."""
    evaluate = EVALUATE[kind]
    scored = [
        (evaluate(engine.apply_action(state, action), seat), rng.random(), action)
        for action in legal
    ]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(value, action) for value, _, action in scored]
