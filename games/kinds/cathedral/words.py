"""Cathedral's words in the viewer's language, translated once per language and kept: the city
is drawn for every move, and its hundred cells, the hands and the log reuse them.

A building is named two ways: plainly ("Tower": a hand, a prompt, a cell's label; context
"cathedral", as the glossary has it, so that the Square is no square of the board and the
Cathedral no game) and as the object of a verb ("placed the Tower", "captured Dark's Tower"),
where French puts its article and Polish its accusative (context "cathedral: object of a verb");
English reads the plain name in both, the sentence giving the article.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.text import get_text_list
from django.utils.translation import get_language, gettext, ngettext, pgettext

from games.engine.cathedral.buildings import ALL_KEYS, CATHEDRAL

LIGHT, DARK = "light", "dark"


def _names() -> dict[str, str]:
    return {
        "tavern": pgettext("cathedral", "Tavern"),
        "stable": pgettext("cathedral", "Stable"),
        "inn": pgettext("cathedral", "Inn"),
        "bridge": pgettext("cathedral", "Bridge"),
        "square": pgettext("cathedral", "Square"),
        "manor": pgettext("cathedral", "Manor"),
        "abbey": pgettext("cathedral", "Abbey"),
        "infirmary": pgettext("cathedral", "Infirmary"),
        "castle": pgettext("cathedral", "Castle"),
        "tower": pgettext("cathedral", "Tower"),
        "academy": pgettext("cathedral", "Academy"),
        "cathedral": pgettext("cathedral", "Cathedral"),
    }


def _objects() -> dict[str, str]:
    return {
        "tavern": pgettext("cathedral: object of a verb", "Tavern"),
        "stable": pgettext("cathedral: object of a verb", "Stable"),
        "inn": pgettext("cathedral: object of a verb", "Inn"),
        "bridge": pgettext("cathedral: object of a verb", "Bridge"),
        "square": pgettext("cathedral: object of a verb", "Square"),
        "manor": pgettext("cathedral: object of a verb", "Manor"),
        "abbey": pgettext("cathedral: object of a verb", "Abbey"),
        "infirmary": pgettext("cathedral: object of a verb", "Infirmary"),
        "castle": pgettext("cathedral: object of a verb", "Castle"),
        "tower": pgettext("cathedral: object of a verb", "Tower"),
        "academy": pgettext("cathedral: object of a verb", "Academy"),
        "cathedral": pgettext("cathedral: object of a verb", "Cathedral"),
    }


class Words:
    """Everything of Cathedral's that a page says, in the language active when it was made."""

    def __init__(self) -> None:
        self.name = _names()
        self.thing = _objects()
        self.side = {
            LIGHT: pgettext("Cathedral: a player's side", "Light"),
            DARK: pgettext("Cathedral: a player's side", "Dark"),
        }
        self.player_as = {LIGHT: gettext("%(name)s (Light)"), DARK: gettext("%(name)s (Dark)")}
        self._cells(self.name, self.thing)
        self._log(self.thing)
        self.choose_it = gettext("%(piece)s: choose it")
        self.choose_copies = gettext("%(piece)s (×%(count)d): choose it")  # noqa: RUF001
        self.placed = gettext("%(player)s placed the %(piece)s on %(span)s")
        self.place = gettext("place the %(piece)s on %(span)s")
        self.and_word = gettext("and")
        self._claims: dict[tuple[bool, bool, int], str] = {}
        self._sentences: dict[tuple, str] = {}

    def _cells(self, name: dict, thing: dict) -> None:
        owned = {
            LIGHT: gettext("Light's %(piece)s"),
            DARK: gettext("Dark's %(piece)s"),
        }
        self.owned = {
            (side, key): owned[side] % {"piece": name[key]}
            for side in (LIGHT, DARK)
            for key in ALL_KEYS
        }
        self.land = {LIGHT: gettext("Light's territory"), DARK: gettext("Dark's territory")}
        self.emptied = gettext("emptied by a capture in the last move")
        self.empty = gettext("empty")
        ghost = gettext("the %(piece)s would go here")
        self.ghost = {key: ghost % {"piece": thing[key]} for key in ALL_KEYS}
        self.cell = gettext("%(cell)s: %(what)s")
        self.target = gettext("%(cell)s: %(what)s (place the centre here)")

    def _log(self, thing: dict) -> None:
        back = {
            LIGHT: gettext("Light's %(piece)s (back to Light's hand)"),
            DARK: gettext("Dark's %(piece)s (back to Dark's hand)"),
        }
        self.captured = {
            (side, key): back[side] % {"piece": thing[key]}
            for side in (LIGHT, DARK)
            for key in ALL_KEYS
            if key != CATHEDRAL
        }
        self.cathedral_out = gettext("the Cathedral (out of the game)")

    def claimed(self, count: int, capturing: bool, ahead: bool = False) -> str:
        """The sentence of a placement that claimed ``count`` squares (and captured), its
        plural form chosen for ``count`` in this language; kept once made."""
        key = (ahead, capturing, count)
        found = self._claims.get(key)
        if found is None:
            found = self._claims[key] = _claim_sentence(count, capturing, ahead)
        return found

    def listed(self, phrases: list[str]) -> str:
        return get_text_list(phrases, self.and_word)

    def remembered(self, key: tuple, make) -> str:
        """A sentence kept by ``key`` (a log entry's English text and the player's name): a log
        of a hundred entries is said again for every move."""
        found = self._sentences.get(key)
        if found is None:
            if len(self._sentences) >= 20_000:
                self._sentences.clear()
            found = self._sentences[key] = make()
        return found


def _claim_sentence(count: int, capturing: bool, ahead: bool) -> str:
    if ahead and capturing:
        return ngettext(
            "place the %(piece)s on %(span)s, claiming %(count)d square and capturing %(taken)s",
            "place the %(piece)s on %(span)s, claiming %(count)d squares and capturing %(taken)s",
            count,
        )
    if ahead:
        return ngettext(
            "place the %(piece)s on %(span)s, claiming %(count)d square",
            "place the %(piece)s on %(span)s, claiming %(count)d squares",
            count,
        )
    if capturing:
        return ngettext(
            "%(player)s placed the %(piece)s on %(span)s, claimed %(count)d square and "
            "captured %(taken)s",
            "%(player)s placed the %(piece)s on %(span)s, claimed %(count)d squares and "
            "captured %(taken)s",
            count,
        )
    return ngettext(
        "%(player)s placed the %(piece)s on %(span)s, claimed %(count)d square",
        "%(player)s placed the %(piece)s on %(span)s, claimed %(count)d squares",
        count,
    )


@lru_cache(maxsize=8)
def _words_in(language: str | None) -> Words:
    return Words()


def words() -> Words:
    """Cathedral's words in the active language (looked up once per call, made once)."""
    return _words_in(get_language())
