"""The rules: which placements are legal, what a placement claims and captures, who places
next (passing a player who cannot), and the end.

``legal_actions`` and ``why_illegal`` agree (a test checks it); ``perform`` applies an action
known to be legal, changing the state in place.
"""

from __future__ import annotations

from ..interface import N_, Reason
from .actions import ACTIONS, Action
from .buildings import (
    BY_SIZE,
    CATHEDRAL,
    COPIES,
    FULL,
    INDEX,
    KEYS,
    LIGHT,
    NAMES,
    SHAPES,
    SIZE,
    TURNS,
    cell_label,
    fitting,
    flood,
    grow,
)
from .state import Outcome, Piece, State

# Termination, in the rulebook's words: someone placed every building, or nobody can go on.
ALL_PLACED = N_("all placed")
NO_MORE_PLACEMENTS = N_("no more placements")


def free_for(state: State, seat: int) -> int:
    """The squares ``seat`` may build on: empty, and not the opponent's territory."""
    return FULL & ~(state.own[0] | state.own[1] | state.cathedral | state.territory[1 - seat])


# -- legal placements --------------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """Every legal placement for ``state.to_decide``: by building (smallest first), then pivot
    square in reading order, then turn. Never empty while the game is not over."""
    if state.finished:
        return []
    seat = state.current
    placements = SHAPES[state.version][state.options.colour(seat)]
    if state.cathedral_due:  # anywhere on the empty squares (dark's first one in Tom Lehman's)
        return _fitting_actions(FULL & ~state.occupied, placements, CATHEDRAL)
    free = free_for(state, seat)
    actions: list[Action] = []
    for i, count in enumerate(state.hands[seat]):
        if count:
            actions += _fitting_actions(free, placements, KEYS[i])
    return actions


def _fitting_actions(free: int, placements: dict, key: str) -> list[Action]:
    fits = [fitting(free, o) for o in placements[key]]
    anywhere = 0
    for f in fits:
        anywhere |= f
    by_square = ACTIONS[key]
    actions = []
    while anywhere:
        low = anywhere & -anywhere
        anywhere ^= low
        turns = by_square[low.bit_length() - 1]
        for turn, f in enumerate(fits):
            if f & low:
                actions.append(turns[turn])
    return actions


def can_place(state: State, seat: int) -> bool:
    """Whether ``seat`` has a building in hand that fits somewhere it may build."""
    hand = state.hands[seat]
    free = free_for(state, seat)
    if not free:
        return False
    placements = SHAPES[state.version][state.options.colour(seat)]
    for i in BY_SIZE:  # a small building fits if anything does, most of the time
        if hand[i]:
            for o in placements[KEYS[i]]:
                if fitting(free, o):
                    return True
    return False


def placement_mask(state: State, action: Action) -> int:
    """The squares ``action`` covers for the seat placing now; 0 if it sticks out of the city."""
    colour = state.options.colour(state.current)
    return SHAPES[state.version][colour][action.building][action.turn].masks[action.index]


def why_illegal(state: State, action: Action) -> Reason | None:
    """The rule that forbids ``action`` now, in a player's words (a ``Reason``, which the site
    says in the player's language); None if it is legal."""
    if state.finished:
        return Reason("the game is over")
    key = action.building
    if key not in TURNS or not 0 <= action.turn < TURNS[key]:
        return Reason("that is no placement of any building")
    if not (0 <= action.col < SIZE and 0 <= action.row < SIZE):
        return Reason("that square is outside the city")
    name = NAMES[key]
    seat = state.current
    if state.cathedral_due:
        if key != CATHEDRAL:
            return Reason("Light places the Cathedral now")
    elif key == CATHEDRAL:
        if state.cathedral_out:
            return Reason("the Cathedral was captured: it is out of the game")
        if state.cathedral:
            return Reason("the Cathedral is already in the city")
        return Reason("Dark places a building first; Light places the Cathedral after it")
    elif not state.hands[seat][INDEX[key]]:
        if COPIES[key] > 1:
            return Reason("both your {name}s are already in the city", name=name)
        return Reason("your {name} is already in the city", name=name)
    mask = placement_mask(state, action)
    if not mask:
        return Reason(
            "the {name} does not fit there: it would stick out past the city wall", name=name
        )
    taken = mask & (state.own[0] | state.own[1] | state.cathedral)
    if taken:
        return Reason(
            "the {name} does not fit there: {cell} is already built on",
            name=name,
            cell=_first(taken),
        )
    theirs = mask & state.territory[1 - seat]
    if theirs:
        # One sentence for each colour: a language may say "Light's" and "Dark's" differently.
        cell = _first(theirs)
        if state.options.colour(1 - seat) == LIGHT:
            return Reason(
                "the {name} cannot go there: {cell} is Light's territory", name=name, cell=cell
            )
        return Reason(
            "the {name} cannot go there: {cell} is Dark's territory", name=name, cell=cell
        )
    return None


def _first(mask: int) -> str:
    index = (mask & -mask).bit_length() - 1
    return cell_label(index % SIZE, index // SIZE)


# -- a placement and what follows --------------------------------------------------------------


def perform(state: State, action: Action) -> None:
    """Place the building ``action`` names for ``state.to_decide``; then claims and captures,
    and the next player (or the end). ``action`` must be legal."""
    seat = state.current
    seq = len(state.history) + 1
    key = action.building
    mask = placement_mask(state, action)
    claimed, captures = 0, ()
    if key == CATHEDRAL:
        owner = None
        state.cathedral = mask
    else:
        owner = seat
        state.own[seat] |= mask
        state.territory[seat] &= ~mask
        state.hands[seat][INDEX[key]] -= 1
        state.placed[seat] += 1
        if state.placed[seat] > 1:  # nothing is claimed with a player's first building
            claimed, captures = enclose(state, seat, mask)
    state.pieces[seq] = Piece(seq, key, owner, action.col, action.row, action.turn, mask)
    state.history.append({"player": seat, "action": action.to_json()})
    state.events.append(("place", seq, seat, key, mask, claimed, captures))
    _next(state, seat, key == CATHEDRAL)


def enclose(state: State, seat: int, placed: int) -> tuple[int, tuple]:
    """Claims and captures of the building just placed on ``placed``: (squares newly claimed,
    captures as ``(building, owner, squares)``).

    The squares not covered by the mover's buildings fall into regions (edges and corners
    connect, so only edge-to-edge contact seals). A region the new building borders was
    enclosed by this move, and each is judged on its own (RULINGS.md §6): if it holds no
    foreign piece (an opponent's building or the Cathedral) it becomes the mover's; if it holds
    exactly one, that piece is captured and the region claimed; with two or more it stays open.
    So one move may capture in two regions. Version 1 counted the isolated pieces over the
    whole move: two or more in all, each alone in its region or together in one, and nothing
    was captured. Regions the new building does not border are as the mover's earlier moves
    left them (README, Decisions 1).
    """
    opponent = 1 - seat
    room = FULL & ~state.own[seat]
    frontier = grow(placed) & room
    empty = 0
    alone = []  # (region, the one foreign piece in it)
    while frontier:
        region = flood(frontier & -frontier, room)
        frontier &= ~region
        if region & (state.own[opponent] | state.cathedral):
            inside = [p for p in state.pieces.values() if p.owner != seat and p.mask & region]
            if len(inside) == 1:
                alone.append((region, inside[0]))
        else:
            empty |= region
    captures = []
    # Version 1 read rule 5 ("if you surround two or more buildings ... neither may be
    # removed") over the whole move: two pieces isolated, even each in a region of its own,
    # and neither was captured (README, Decisions 2).
    if state.version != "1" or len(alone) == 1:
        for region, piece in alone:
            captures.append(_capture(state, piece))
            empty |= region
    territory = state.territory[seat]
    claimed = empty & ~territory
    state.territory[seat] = territory | empty
    state.territory[opponent] &= ~claimed
    return claimed, tuple(captures)


def _capture(state: State, piece: Piece) -> tuple:
    """Take ``piece`` off the board: a building back to its owner's hand, the Cathedral out."""
    del state.pieces[piece.id]
    if piece.owner is None:
        state.cathedral = 0
        state.cathedral_out = True
    else:
        state.own[piece.owner] &= ~piece.mask
        state.hands[piece.owner][INDEX[piece.building]] += 1
    return (piece.building, piece.owner, piece.mask)


def _next(state: State, mover: int, cathedral: bool) -> None:
    """Who places next: the opponent, or the mover again if the opponent cannot (an automatic
    pass, logged), or nobody (the end)."""
    options = state.options
    if state.cathedral_due:  # Tom Lehman: dark has opened, light places the Cathedral
        state.current = options.light
        return
    if cathedral:  # then dark, or light's first building after its Cathedral (Tom Lehman)
        state.current = options.light if options.lehman else options.dark
        return
    other = 1 - mover
    if can_place(state, other):
        state.current = other
    elif can_place(state, mover):
        state.events.append(("pass", len(state.history), other, not any(state.hands[other])))
        state.current = mover
    else:
        finish(state)


def finish(state: State) -> None:
    """Neither player can place: fewer unplaced squares wins; equal figures are a draw."""
    scores = state.returns()
    best = min(scores)
    state.finished = True
    state.current = None
    state.outcome = Outcome(
        ALL_PLACED if best == 0 else NO_MORE_PLACEMENTS,
        tuple(seat for seat in (0, 1) if scores[seat] == best),
        scores,
    )
