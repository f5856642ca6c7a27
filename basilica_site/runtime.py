"""What a server process does once it is set up, before its first request."""

from __future__ import annotations

import gc


def freeze_startup_objects() -> None:
    """Move everything alive after start-up (modules, URL patterns, templates, settings) out of
    the garbage collector's sight: none of it ever becomes garbage, and a full collection, which
    stops the process while it walks every tracked object, then has a third fewer to walk."""
    gc.collect()
    gc.freeze()
