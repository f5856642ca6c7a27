"""The Cathedral rules engine (Robert P. Moore's game): the buildings so far."""

from __future__ import annotations

from .buildings import BUILDINGS, cell_label, parse_label

__all__ = ["BUILDINGS", "cell_label", "parse_label"]
