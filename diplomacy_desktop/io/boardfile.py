"""Reading map data files (``maps/<name>/<name>.toml``) into engine boards.

The shipped board is read at every start of the window, and the standard library's TOML parser
is pure Python: importing it and parsing the standard board took some 9 ms of the window's
start.  So :func:`load_board` keeps the parsed data in the user's cache folder as JSON (whose
parser is C) under the TOML file's SHA-256, and a later start reads that instead; a changed
file has another hash, and a cache file that cannot be read or written is not used.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.board import Board, BoardError
from ..resources import cache_dir, map_file, write_cache

#: the cache file's format (bump when what is kept changes)
CACHE_FORMAT = 1


def read_board(path: Path, *, cache: Path | None = None) -> Board:
    """The board in the map data file ``path``.  With ``cache`` (a folder), its parsed data is
    taken from there when the same file was parsed before, and kept there when not."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BoardError(f"cannot read map data {path}: {exc.strerror}") from exc
    kept = None
    if cache is not None:
        kept = cache / f"{path.stem}-{hashlib.sha256(data).hexdigest()[:32]}-board-v{CACHE_FORMAT}.json"
        parsed = _read_kept(kept)
        if parsed is not None:
            try:
                return Board.from_mapping(parsed)
            except BoardError:
                pass  # (a cache file that is not this file's data: parsed again below)
    parsed = _parse_toml(path, data)
    board = Board.from_mapping(parsed)
    if kept is not None:
        # (a TOML value JSON cannot hold, a date, is not kept: that file is parsed at every start)
        with contextlib.suppress(TypeError, ValueError):
            write_cache(kept, json.dumps(parsed))
    return board


def _parse_toml(path: Path, data: bytes) -> dict[str, Any]:
    import tomllib  # (loaded only when the parsed data is not in the cache: see the module's doc)

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise BoardError(f"map data {path} is not valid TOML: it is not UTF-8 text ({exc.reason} "
                         f"at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"map data {path} is not valid TOML: {exc}") from exc


def _read_kept(kept: Path) -> dict[str, Any] | None:
    try:
        parsed = json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return parsed if isinstance(parsed, dict) else None


def load_board(name: str = "standard") -> Board:
    """The shipped board called ``name`` (read once, then cached)."""
    return _load_board(name)


@lru_cache(maxsize=8)
def _load_board(name: str) -> Board:
    return read_board(map_file(name, f"{name}.toml"), cache=cache_dir())
