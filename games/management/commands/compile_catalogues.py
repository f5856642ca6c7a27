"""Compiles the translation catalogues (``locale/*/LC_MESSAGES/*.po``) into the ``.mo`` files
gettext reads, with polib: no system package needed (Django's ``compilemessages`` needs GNU
gettext's ``msgfmt``). ``make install`` runs it when a catalogue changed."""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (fuzzy entries left out)."

    def handle(self, *args, **options):
        for folder in settings.LOCALE_PATHS:
            for source in sorted(Path(folder).glob("*/LC_MESSAGES/*.po")):
                catalogue = polib.pofile(str(source))
                catalogue.save_as_mofile(str(source.with_suffix(".mo")))
                done = catalogue.percent_translated()
                self.stdout.write(f"{source}: {len(catalogue)} entries, {done}% translated")
