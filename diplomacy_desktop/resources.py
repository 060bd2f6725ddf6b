"""Where the shipped map and asset files are, installed or in a source checkout, and where the
app keeps what it works out from them (the user's cache folder)."""

from __future__ import annotations

import contextlib
import os
import tempfile
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


def write_cache(path: Path, data: str | bytes) -> bool:
    """Replace the cache file ``path`` with ``data`` (text as UTF-8) whole: written to a temporary
    file in its folder, then renamed into place, so a reader sees the old file or the new one,
    never a part; whether it was written.  A failure leaves no partial file and is ignored: a
    cache is only a cache (no fsync either: the saves' ``io.savefile.write_atomic`` is for what
    must survive a power cut)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    return True
