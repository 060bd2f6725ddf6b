"""Diplomacy Desktop: play Diplomacy face to face on one laptop."""

from __future__ import annotations

__version__ = "0.1.0"
