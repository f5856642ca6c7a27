"""Presenters' values that never change once made, so that what is worked out from them is
worked out once, however many pages show them: a ``Settled`` dict (the key of a template
fragment that draws it: ``games.templatetags.fragments``), and what ``KeptFor`` keeps of an
object that never changes (a game's state)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


class Settled(dict):
    """A dict that nobody changes after it is made (a turn of a game's log, kept from one page
    to the next): ``known`` holds whatever is worked out of it once, by its reader."""

    __slots__ = ("known",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.known: bytes | None = None


class SettledList(list):
    """A list of ``Settled`` values that nobody changes after it is made (a board's rows, a
    market's columns, kept with the state they show): a fragment that draws it knows it by
    what each of its items is known by."""

    __slots__ = ()


class KeptFor:
    """Values worked out of objects that never change (a game's state, a scoring's areas), by
    the object and whatever else the value depends on (the language, the viewer's marks). The
    object is kept alive beside its value, so that its id is not reused while it is here; the
    values are shared between their readers, who never change them. At ``bound`` values, all
    are forgotten."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._kept: dict[tuple, tuple[object, Any]] = {}

    def get(self, owner: object, extra: tuple[Hashable, ...], make: Callable[[], Any]) -> Any:
        key = (id(owner), *extra)
        kept = self._kept.get(key)
        if kept is not None and kept[0] is owner:
            return kept[1]
        value = make()
        if len(self._kept) >= self.bound:
            self._kept.clear()
        self._kept[key] = (owner, value)
        return value
