"""Pages are sent without the templates' indentation, except where spaces are the content."""

from __future__ import annotations

import re

import pytest
from factories import client_for, started_game

pytestmark = pytest.mark.django_db

INDENTED_LINE = re.compile(r"\n[ \t]+\S")


def test_a_game_page_and_a_moves_answer_come_without_indentation():
    game = started_game()
    client = client_for(game.seat0)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert not INDENTED_LINE.search(page.text)
    assert int(page.get("Content-Length", len(page.content))) == len(page.content)
    partial = client.get(f"{game.get_absolute_url()}?partial=board", HTTP_HX_REQUEST="true")
    assert not INDENTED_LINE.search(partial.text)
    # the words a player reads keep their spaces
    assert "Your turn" in page.text


def test_a_page_with_a_text_box_keeps_its_spaces():
    game = started_game()
    page = client_for(game.seat0).get("/games/import/")
    assert "<textarea" in page.text
    assert INDENTED_LINE.search(page.text)
