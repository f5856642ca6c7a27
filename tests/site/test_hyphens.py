"""A market tile's order name fits a phone's tile in French and Polish: its long words carry soft
hyphens at their syllables, so the browser breaks them with a hyphen instead of cutting them."""

from __future__ import annotations

from django.utils import translation

from games.templatetags.hyphens import hyphenated

SOFT = "\u00ad"


def test_polish_and_french_order_names_break_at_their_syllables():
    with translation.override("pl"):
        assert hyphenated("Rusztowanie") == f"Rusz{SOFT}to{SOFT}wa{SOFT}nie"
        assert hyphenated("Przemieszczenie Budowniczego").split(" ")[1] == (
            f"Bu{SOFT}dow{SOFT}ni{SOFT}cze{SOFT}go"
        )
    with translation.override("fr"):
        assert hyphenated("Échafaudage").replace(SOFT, "") == "Échafaudage"
        assert SOFT in hyphenated("Échafaudage")


def test_english_names_are_left_as_they_are():
    with translation.override("en"):
        assert hyphenated("Scaffolding") == "Scaffolding"
