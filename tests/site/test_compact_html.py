"""Pages are sent without the templates' indentation, except where spaces are the content."""

from __future__ import annotations

import re

import pytest
from factories import client_for, started_game

from games.live import pushes

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


def test_a_text_box_keeps_its_spaces_and_the_rest_of_its_page_loses_them():
    game = started_game()
    client = client_for(game.seat0)
    written = "Plan:\n    wall off the north\n\tthen the east"
    client.post(f"{game.get_absolute_url()}notes/", {"text": written})
    page = client.get(game.get_absolute_url())
    box = re.search(r"<textarea[^>]*>\n(.*?)</textarea>", page.text, re.DOTALL)
    assert box.group(1) == written
    outside = page.text.replace(box.group(0), "")
    assert not INDENTED_LINE.search(outside)


def words_of(html: str) -> str:
    """What a reader of the HTML is shown: its text and its attributes' values, the spaces
    between them as a browser counts them (any run of them is one)."""
    return " ".join(html.split())


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_a_push_comes_without_indentation_and_shows_all_it_showed(monkeypatch, kind):
    game = started_game(kind=kind)
    deciding = game.player(game.to_decide)
    push = pushes.render_push(game.pk, deciding, game.to_decide, "a" * 64)
    assert not INDENTED_LINE.search(push)
    monkeypatch.setattr(pushes, "compacted", lambda html: html)  # as it was drawn
    drawn = pushes.render_push(game.pk, deciding, game.to_decide, "b" * 64)
    assert INDENTED_LINE.search(drawn)
    assert len(push) < len(drawn)
    assert words_of(push) == words_of(drawn.replace("b" * 64, "a" * 64))
