"""Django's ``makemessages``, also finding the engines' marked words: an engine speaks English
through ``N_("...")`` and ``Reason("...", **values)`` (games.engine.interface), which the site
translates where it shows them (games.words.say)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        "--keyword=Reason",
    ]
    # A new message is left empty for a translator, never filled with a near one's words.
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
