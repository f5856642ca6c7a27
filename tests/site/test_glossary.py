"""The French and Polish catalogues speak the games' own words, those of ``locale/glossary.csv``.

Each glossary row gives a term in English, in French (the 2010 French rulebook) and in Polish
(the 2022 Polish rulebook). A "|" ends the part of a word that all its forms share: "vault|"
(vault, vaults), "Sklepie|nie" (Sklepienie, Sklepienia, sklepień); in a term of several words each
word must appear, "Mistrz| Murars|ki" (Mistrza Murarskiego). For every translated entry (not
fuzzy) whose msgid or msgid_plural holds the English term as a whole word ("vault|" finds
"Vaults"), every msgstr must hold the French or Polish term, case aside.

Which entries a row is checked against:
- An entry belongs to a game when its msgctxt is the game's name or one of its source files lies
  in a folder named after it (``templates/games/cathedral/``) or is named after it
  (``basilica_help.py``). Rows of game ``site`` hold for every entry.
- The row's ``check`` column: ``yes``, every entry of its game; ``msgctxt``, only the entries
  whose msgctxt is the game's name, for a term that is also an everyday word in the game's texts
  (Cathedral's building "Square" among the board's "squares", the piece "Cathedral" beside the
  game's name): ``pgettext("cathedral", "Square")``; ``no``, a row kept for the translators only.
- A term shorter than 4 letters, or none, is not checked in that language: Polish "tur|a"
  (tura, w turze) or "mi|asto" (miasto, w mieście) share too little to look for.
- Where the English word is not the game's term ("in any order"), the entry says so with a
  translator comment, ``# glossary: not order``.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from pathlib import Path
from typing import NamedTuple

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "locale" / "glossary.csv"
GAMES = ("basilica", "cathedral")
LETTERS = r"[^\W\d_]*"


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def term_pattern(term: str) -> str:
    """The regex of a term: each word up to its "|" and then any letters, or the whole word."""
    words = [nfc(word).split("|") for word in term.split()]
    return r"[\s-]+".join(re.escape(w[0]) + (LETTERS if len(w) > 1 else "") for w in words)


def stem_letters(term: str) -> int:
    return sum(len(word.split("|")[0]) for word in term.split())


def load_glossary(path: Path = GLOSSARY) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def games_of(entry: polib.POEntry) -> set[str]:
    games = {"site"} | ({entry.msgctxt} & set(GAMES))
    for path, _line in entry.occurrences:
        source = Path(path)
        games |= {g for g in GAMES if g in source.parent.parts or source.name.startswith(g)}
    return games


class Miss(NamedTuple):
    """A translation that lacks the term its English calls for."""

    msgid: str
    english: str  # the glossary's English term, "|" taken out
    term: str  # the glossary's term in the catalogue's language
    translation: str


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def glossary_misses(po_path: Path, lang: str, glossary: Path = GLOSSARY) -> list[Miss]:
    """Every translation of the catalogue at ``po_path`` (in ``lang``) that misses a term."""
    rows = [
        (row, re.compile(rf"\b{term_pattern(row['en'])}\b", re.IGNORECASE))
        for row in load_glossary(glossary)
        if row["check"] != "no" and stem_letters(row[lang]) >= 4
    ]
    misses = []
    for entry in polib.pofile(str(po_path)).translated_entries():
        # A placeholder's name (%(order)s, {colour}) is no word of the sentence.
        english = PLACEHOLDER.sub(" ", nfc(f"{entry.msgid}\n{entry.msgid_plural}"))
        translations = list(entry.msgstr_plural.values()) or [entry.msgstr]
        games = games_of(entry)
        for row, english_term in rows:
            word = row["en"].replace("|", "")
            if (
                row["game"] not in games
                or (row["check"] == "msgctxt" and entry.msgctxt != row["game"])
                or f"glossary: not {word}".lower() in entry.tcomment.lower()
                or not english_term.search(english)
            ):
                continue
            wanted = re.compile(term_pattern(row[lang]), re.IGNORECASE)
            misses += [
                Miss(entry.msgid, word, row[lang], text)
                for text in translations
                if not wanted.search(nfc(text))
            ]
    return misses


def games_translated(po_path: Path) -> set[str]:
    entries = polib.pofile(str(po_path)).translated_entries()
    return set().union(*(games_of(entry) for entry in entries)) - {"site"}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_catalogues_use_the_glossary_terms(lang):
    po_path = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
    assert po_path.exists(), (
        f"{po_path.relative_to(ROOT)} is missing: make the {lang} catalogue "
        f"(manage.py makemessages -l {lang}) and translate it"
    )
    # Entries are told apart by their source files: a catalogue made with --no-location would
    # pass having checked nothing.
    untold = set(GAMES) - games_translated(po_path)
    assert not untold, f"no translated entry from the source files of {', '.join(sorted(untold))}"
    misses = glossary_misses(po_path, lang)
    assert not misses, f"translations that miss the glossary's term ({len(misses)}):\n" + "\n".join(
        f"  {m.msgid!r}: {m.translation!r} lacks {m.term!r} (where {m.english!r} is not the "
        f"game's word, the translator comment '# glossary: not {m.english}')"
        for m in misses
    )


SAMPLE = """
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

#: games/kinds/basilica/help.py:50
msgid "Put a builder from your supply on any vault that has no builder."
msgstr "Placez un bâtisseur de votre réserve sur une voûte sans bâtisseur."

#: games/kinds/basilica/help.py:70
msgid "Discard a vault that has no builder."
msgstr "Défaussez une arche sans bâtisseur."

#: templates/games/basilica/game.html:60
msgid "%(n)s vault in the cathedral"
msgid_plural "%(n)s vaults in the cathedral"
msgstr[0] "%(n)s voûte dans la cathédrale"
msgstr[1] "%(n)s arches dans la cathédrale"

# glossary: not order
#: templates/games/basilica/rules.html:29
msgid "Take three actions, in any order."
msgstr "Faites trois actions, dans n'importe quel ordre."

#: templates/games/basilica/rules.html:30
msgid "Execute Order: take an order tile."
msgstr "Exécuter un ordre : prenez une tuile ordre."

#: templates/games/cathedral/rules.html:12
msgid "A building covers 4 squares."
msgstr "Un bâtiment couvre 4 cases."

#: games/kinds/cathedral/presenters.py:40
msgctxt "cathedral"
msgid "Square"
msgstr "Carré"

#: templates/games/front.html:3
msgid "Vaults and squares"
msgstr "Arches et carrés"
"""


def test_a_wrong_word_is_caught_where_the_glossary_applies(tmp_path):
    po_path = tmp_path / "django.po"
    po_path.write_text(SAMPLE, encoding="utf-8")

    misses = {(miss.msgid, miss.term) for miss in glossary_misses(po_path, "fr")}

    # "arche" for voûte, in a message and in one plural form; "ordre" for consigne; the
    # building "Carré" for Place. The ordinary "in any order" is marked, the board's squares
    # are no building, and a page of no game is not held to a game's words.
    assert misses == {
        ("Discard a vault that has no builder.", "voûte|"),
        ("%(n)s vault in the cathedral", "voûte|"),
        ("Execute Order: take an order tile.", "Exécuter une consigne"),
        ("Execute Order: take an order tile.", "consigne|"),
        ("Square", "Place|"),
    }
    assert games_translated(po_path) == {"basilica", "cathedral"}
