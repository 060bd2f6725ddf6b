"""Where the shipped map and asset files are, installed or in a source checkout, and where the
app keeps what it works out from them (the user's cache folder)."""

from __future__ import annotations

import os
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


def cache_dir() -> Path:
    """Where what is worked out from the maps is kept between starts (the parsed board data, the
    map's shapes, its pictures and the names' places): ``$XDG_CACHE_HOME/diplomacy-desktop/maps``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "diplomacy-desktop" / "maps"


def write_cache(path: Path, text: str) -> None:
    """Keep ``text`` as the cache file ``path`` (written whole, then renamed into place); a cache
    that cannot be written is simply not kept."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
