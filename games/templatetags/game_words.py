"""A game in a few words, in its kind's own terms, for templates: ``{{ game|summary }}``
("Basilica, 2022 edition, with Festum…") and ``{{ game|first_role }}`` ("ann moves first")."""

from __future__ import annotations

from django import template

from games import kinds

register = template.Library()

register.filter("summary", kinds.summary)
register.filter("first_role", kinds.first_role)
