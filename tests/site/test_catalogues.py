"""The translations are whole: every message of the site has its French and Polish words, none is
left fuzzy, each plural has its language's forms, a translation keeps its message's placeholders,
and no template holds English outside a translation tag."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = {"fr": 2, "pl": 3}  # plural forms
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|%[sd]")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def problems_of(po: polib.POFile, forms: int) -> list[str]:
    """What keeps a catalogue from being whole, one line per entry."""
    found = []
    for entry in po:
        if entry.obsolete:
            continue
        name = repr(entry.msgid[:60])
        if entry.fuzzy:
            found.append(f"fuzzy: {name}")
            continue
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        if entry.msgid_plural:
            texts = [entry.msgstr_plural.get(i, "") for i in range(forms)]
            wanted |= set(PLACEHOLDER.findall(entry.msgid_plural))
        else:
            texts = [entry.msgstr]
        if not all(text.strip() for text in texts) or len(entry.msgstr_plural or {0: 0}) < (
            forms if entry.msgid_plural else 1
        ):
            found.append(f"untranslated: {name}")
            continue
        for text in texts:
            if not set(PLACEHOLDER.findall(text)) <= wanted:
                found.append(f"placeholder not in the English: {name} -> {text[:60]!r}")
    return found


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_message_is_translated(language):
    po = catalogue(language)
    assert len(po) > 200
    assert problems_of(po, LANGUAGES[language]) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_plural_forms_are_the_languages_own(language):
    header = catalogue(language).metadata["Plural-Forms"]
    assert header.startswith(f"nplurals={LANGUAGES[language]};")


def test_a_catalogue_with_a_gap_is_caught(tmp_path):
    """The check above can fail: a fuzzy entry, an empty plural form and a lost placeholder."""
    source = tmp_path / "django.po"
    source.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\nmsgid "Save"\nmsgstr "Enregistrer"\n\n'
        'msgid "%(count)s builder"\nmsgid_plural "%(count)s builders"\n'
        'msgstr[0] "%(count)s budowniczy"\nmsgstr[1] "%(count)s budowniczych"\nmsgstr[2] ""\n\n'
        'msgid "Game {number}"\nmsgstr "Partie {numero}"\n',
        encoding="utf-8",
    )
    found = problems_of(polib.pofile(str(source)), 3)
    assert found == [
        "fuzzy: 'Save'",
        "untranslated: '%(count)s builder'",
        "placeholder not in the English: 'Game {number}' -> 'Partie {numero}'",
    ]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext's xgettext")
def test_the_catalogues_hold_every_message_of_the_code(tmp_path):
    """``make messages`` was run after the code last changed its words: the catalogue extracted
    afresh has no message the stored one lacks."""
    copy = tmp_path / "site"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", "node_modules", "staticfiles", "test-artifacts", ".git", "*.sqlite3*", "tests"
        ),
    )
    subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "makemessages", "--locale", "fr",
         "--no-wrap", "--ignore", "build/*"],
        cwd=copy, check=True, capture_output=True, env={"DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    fresh = {
        (e.msgctxt, e.msgid)
        for e in polib.pofile(str(copy / "locale/fr/LC_MESSAGES/django.po"))
        if not e.obsolete
    }
    stored = {(e.msgctxt, e.msgid) for e in catalogue("fr") if not e.obsolete}  # fmt: skip
    assert sorted(fresh - stored, key=str) == [], "run `make messages` and translate what is new"


# -- templates: no English outside a translation tag -----------------------------------------

WORDS = re.compile(r"[A-Za-z]{2,}")
NAMES = {"Basilica"}  # the site's name, the same in every language
SPOKEN_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description", "label"}
TEMPLATE_PARTS = [
    re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S),
    re.compile(r"\{%\s*blocktrans(late)?\b.*?\{%\s*endblocktrans(late)?\s*%\}", re.S),
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"<(script|style)\b.*?</\1>", re.S),
    re.compile(r"\{%.*?%\}", re.S),
    re.compile(r"\{\{.*?\}\}", re.S),
]


class SpokenText(HTMLParser):
    """The text of a page a reader sees or hears: its text and its spoken attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.spoken: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.spoken += [value or "" for name, value in attrs if name in SPOKEN_ATTRIBUTES]
        if tag == "input" and dict(attrs).get("type") in {"submit", "button"}:
            self.spoken.append(dict(attrs).get("value") or "")

    def handle_data(self, data):
        self.spoken.append(data)


def english_outside_tags(source: str, html: bool = True) -> list[str]:
    for part in TEMPLATE_PARTS:
        source = part.sub(" ", source)
    if html:
        reader = SpokenText()
        reader.feed(source)
        texts = reader.spoken
    else:
        texts = [source]
    return [word for text in texts for word in WORDS.findall(text) if word not in NAMES]


def template_files() -> list[Path]:
    return sorted(
        path for path in (ROOT / "templates").rglob("*") if path.suffix in {".html", ".txt"}
    )


@pytest.mark.parametrize("path", template_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_template_speaks_only_through_translation_tags(path):
    source = path.read_text(encoding="utf-8")
    assert english_outside_tags(source, html=path.suffix == ".html") == []


def test_the_scan_finds_english_left_outside(tmp_path):
    page = (
        '{% load i18n %}<h1>{% translate "Lobby" %}</h1><p title="Your move">'
        "{% blocktranslate %}Hello {{ name }}{% endblocktranslate %} Waiting for {{ x }}</p>"
        "<script>const words = 'not read';</script>"
    )
    assert english_outside_tags(page) == ["Your", "move", "Waiting", "for"]
