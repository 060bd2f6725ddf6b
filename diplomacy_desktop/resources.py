"""Where the shipped map and asset files are, installed or in a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def maps_dir() -> Path:
    """The folder holding one sub-folder per map (``standard/``)."""
    return _first_existing(_PACKAGE / "_maps", _PACKAGE.parent / "maps")


def assets_dir() -> Path:
    """The folder holding icons, sounds and fonts."""
    return _first_existing(_PACKAGE / "_assets", _PACKAGE.parent / "assets")


def map_file(map_name: str, file_name: str) -> Path:
    return maps_dir() / map_name / file_name


def lessons_dir() -> Path:
    """The folder holding the lesson library (the rulebook's examples and the DATC cases)."""
    return _first_existing(_PACKAGE / "_lessons", _PACKAGE.parent / "lessons")
