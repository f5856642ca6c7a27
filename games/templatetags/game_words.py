"""A game in a few words, in its kind's own terms, for templates: ``{{ game|summary }}``
("Basilica, 2022 edition, with Festum…"), ``{{ game|first_role }}`` ("ann moves first"),
``{{ game.termination|ending }}`` (how it ended), ``{{ result|result_words }}`` ("won") and
``{{ moment|ago }}`` ("3 hours ago"), in the reader's language."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import kinds
from games.models import result_words, termination_words

register = template.Library()

register.filter("summary", kinds.summary)
register.filter("first_role", kinds.first_role)
register.filter("ending", termination_words)
register.filter("result_words", result_words)


@register.filter
def ago(moment: datetime | None, now: datetime | None = None) -> str:
    """How long ago ``moment`` was, in its largest whole unit: "3 hours ago". Each unit's
    sentence is translated whole, as some languages decline the count there ("3 godziny temu",
    "1 minutę temu")."""
    if moment is None:
        return ""
    seconds = max(int(((now or timezone.now()) - moment).total_seconds()), 0)
    if seconds < 60:
        return gettext("just now")
    minutes, hours, days = seconds // 60, seconds // 3600, seconds // 86400
    if days:
        return ngettext("%(count)d day ago", "%(count)d days ago", days) % {"count": days}
    if hours:
        return ngettext("%(count)d hour ago", "%(count)d hours ago", hours) % {"count": hours}
    return ngettext("%(count)d minute ago", "%(count)d minutes ago", minutes) % {"count": minutes}
