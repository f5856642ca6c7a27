"""Soft hyphens in long words, for the narrow places a French or Polish word must fit (a market
tile's order name on a phone): the browser breaks the word at a syllable, with a hyphen, only
where it must. The hyphenation patterns are pyphen's (LibreOffice's dictionaries); Chromium on
Linux has none of its own."""

from __future__ import annotations

from functools import lru_cache

import pyphen
from django import template
from django.utils.translation import get_language

register = template.Library()

SOFT_HYPHEN = "\u00ad"


HYPHENATED = ("fr", "pl")  # English's order names fit as they are


@lru_cache(maxsize=4)
def _dictionary(language: str) -> pyphen.Pyphen | None:
    return pyphen.Pyphen(lang=language) if language in HYPHENATED else None


@lru_cache(maxsize=512)
def _hyphenated(language: str, text: str) -> str:
    dictionary = _dictionary(language)
    if dictionary is None:
        return text
    return " ".join(dictionary.inserted(word, hyphen=SOFT_HYPHEN) for word in text.split(" "))


@register.filter
def hyphenated(text: str) -> str:
    """``text`` with soft hyphens at its words' syllables, in the active language."""
    return _hyphenated(get_language() or "en", str(text))
