"""Reading map data files (``maps/<name>/<name>.toml``) into engine boards."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from ..engine.board import Board, BoardError
from ..resources import map_file


def read_board(path: Path) -> Board:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise BoardError(f"cannot read map data {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"map data {path} is not valid TOML: {exc}") from exc
    return Board.from_mapping(data)


def load_board(name: str = "standard") -> Board:
    """The shipped board called ``name`` (read once, then cached)."""
    return _load_board(name)


@lru_cache(maxsize=8)
def _load_board(name: str) -> Board:
    return read_board(map_file(name, f"{name}.toml"))
