"""What a game page's notes box shows (templates/games/_notes.html), read for the page's own
viewer when the page is drawn, never from the context its partials and pushes are drawn from:

{% load game_notes %}{% notes_box as box %}
"""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

from games.correspondence import notes
from games.models import GameNote

register = template.Library()


@register.simple_tag(takes_context=True)
def notes_box(context) -> dict:
    """The viewer's own note on the page's game, or the text a refused save sent back
    (``notes_refused``: the text and why it was not kept) so that nothing typed is lost."""
    limits = {
        "max_length": GameNote.MAX_LENGTH,
        "most": number_format(GameNote.MAX_LENGTH, force_grouping=True),
    }
    refused = context.get("notes_refused")
    if refused:
        return {"text": refused["text"], "note": None, "error": refused["error"], **limits}
    note = notes.note_of(context["game"], context["user"])
    return {"text": note.text if note else "", "note": note, "error": "", **limits}
