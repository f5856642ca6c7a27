"""The audit log: every staff action (a referee's decision, a moderator's, a second factor
reset) and every account closed, in one append-only table (``AuditEntry``).

One function writes it, so that every concern records the same facts the same way:
``record(actor, "referee.abort", game=game, reason="...", status_before="active")``.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from games.models import AuditEntry, Game


def record(
    actor, action: str, *, user=None, game: Game | None = None, reason: str = "", **details: Any
) -> AuditEntry:
    """Write one entry: ``actor`` (a user, or None for the site itself) did ``action`` (a short
    dotted name, e.g. ``"moderation.mute"``) to ``user`` and/or ``game``, for ``reason``;
    ``details`` are kept as JSON (dates and decimals as text)."""
    if actor is not None and not actor.is_authenticated:
        actor = None
    return AuditEntry.objects.create(
        actor=actor,
        action=action,
        user=user,
        game=game,
        reason=reason or "",
        details=json.loads(json.dumps(details, cls=DjangoJSONEncoder)),
    )
