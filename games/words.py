"""The engines' words in the player's language: an engine speaks English (``Reason``, ``N_``);
the site says them in the active language, looked up in the catalogue where they are shown."""

from __future__ import annotations

from django.utils.translation import gettext

from games.engine.interface import Reason, Words


def say(words: str) -> str:
    """``words`` in the active language if the engine marked them (``N_`` or a ``Reason``, whose
    marked values are said in turn); anything else (a name, a cell) as it is."""
    if isinstance(words, Reason):
        values = {name: say(value) for name, value in words.values.items()}
        return gettext(words.message).format(**values)
    if isinstance(words, Words):
        return gettext(words)
    return words
