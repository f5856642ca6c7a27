"""What a server process does once it is set up, before its first request."""

from __future__ import annotations

import gc
from pathlib import Path


def ready_to_serve() -> None:
    """Load what a first request would, then put it all out of the collector's sight."""
    warm_up()
    freeze_startup_objects()


def warm_up() -> None:
    """Do now what the first request of a new process would do at its player's expense (some
    130-150 ms on the first move after a start, while every move behind it waits): import the
    URLconf and with it every view's module, compile the site's templates, read each language's
    catalog."""
    from django.conf import settings
    from django.template import TemplateSyntaxError, engines
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().reverse_dict  # noqa: B018 - reading it imports and indexes every URL
    engine = engines["django"]
    for folder in engine.engine.dirs:
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix in (".html", ".txt"):
                try:
                    engine.get_template(str(path.relative_to(folder)))
                except TemplateSyntaxError:  # shown to whoever asks for it, as it would be
                    continue
    for code, _name in settings.LANGUAGES:
        with translation.override(code):  # activating a language reads its catalog
            pass


def freeze_startup_objects() -> None:
    """Move everything alive after start-up (modules, URL patterns, templates, settings) out of
    the garbage collector's sight: none of it ever becomes garbage, and a full collection, which
    stops the process while it walks every tracked object, then has a third fewer to walk."""
    gc.collect()
    gc.freeze()
