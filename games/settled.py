"""A presenter's value that never changes once made, so that what is worked out from it (the
key of a template fragment that draws it: ``games.templatetags.fragments``) is worked out once,
however many pages show it."""

from __future__ import annotations


class Settled(dict):
    """A dict that nobody changes after it is made (a turn of a game's log, kept from one page
    to the next): ``known`` holds whatever is worked out of it once, by its reader."""

    __slots__ = ("known",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.known: bytes | None = None
