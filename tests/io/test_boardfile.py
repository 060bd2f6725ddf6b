"""The board's map data read from its TOML file, and kept parsed in the cache folder (io/boardfile.py)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from diplomacy_desktop.engine.board import Board, BoardError
from diplomacy_desktop.io.boardfile import read_board
from diplomacy_desktop.resources import map_file

STANDARD = map_file("standard", "standard.toml")


def _data(board: Board) -> dict[str, object]:
    """A board's fields (a board compares by identity)."""
    return {f.name: getattr(board, f.name) for f in dataclasses.fields(board)}


def _kept(cache: Path) -> list[Path]:
    return sorted(cache.glob("*-board-v*.json"))


def test_the_cached_board_is_the_same_board(tmp_path: Path) -> None:
    plain = read_board(STANDARD)
    first = read_board(STANDARD, cache=tmp_path)
    (kept,) = _kept(tmp_path)
    again = read_board(STANDARD, cache=tmp_path)
    assert _data(first) == _data(plain) and _data(again) == _data(plain)
    import tomllib

    assert json.loads(kept.read_text(encoding="utf-8")) == tomllib.loads(STANDARD.read_text(encoding="utf-8"))


def test_the_second_read_takes_the_cache_not_the_file(tmp_path: Path) -> None:
    read_board(STANDARD, cache=tmp_path)
    (kept,) = _kept(tmp_path)
    data = json.loads(kept.read_text(encoding="utf-8"))
    data["title"] = "Kept Title"
    kept.write_text(json.dumps(data), encoding="utf-8")
    assert read_board(STANDARD, cache=tmp_path).title == "Kept Title"
    assert read_board(STANDARD).title != "Kept Title"


def test_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    copy = tmp_path / "board.toml"
    text = STANDARD.read_text(encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    cache = tmp_path / "cache"
    read_board(copy, cache=cache)
    copy.write_text(text + "\n# a comment: another file, another hash\n", encoding="utf-8")
    read_board(copy, cache=cache)
    assert len(_kept(cache)) == 2


@pytest.mark.parametrize("damage", ["not json {", "[1, 2]", '{"powers": 5}', ""])
def test_a_damaged_cache_file_is_not_used_and_is_mended(tmp_path: Path, damage: str) -> None:
    plain = read_board(STANDARD)
    read_board(STANDARD, cache=tmp_path)
    (kept,) = _kept(tmp_path)
    kept.write_text(damage, encoding="utf-8")
    assert _data(read_board(STANDARD, cache=tmp_path)) == _data(plain)
    assert json.loads(kept.read_text(encoding="utf-8"))["powers"]  # written again, whole


def test_a_cache_that_cannot_be_written_is_not_kept(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", encoding="utf-8")
    assert _data(read_board(STANDARD, cache=blocked)) == _data(read_board(STANDARD))


def test_bad_map_data_says_why_with_or_without_a_cache(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[powers\nname = 1\n", encoding="utf-8")
    for cache in (None, tmp_path / "cache"):
        with pytest.raises(BoardError, match=r"not valid TOML.*line 1"):
            read_board(broken, cache=cache)
    latin = tmp_path / "latin.toml"
    latin.write_bytes("name = 'Münster'\n".encode("latin-1"))
    with pytest.raises(BoardError, match="not UTF-8"):
        read_board(latin, cache=tmp_path / "cache")
    assert _kept(tmp_path / "cache") == []
    with pytest.raises(BoardError, match="cannot read map data"):
        read_board(tmp_path / "missing.toml", cache=tmp_path / "cache")


def test_a_warm_start_does_not_load_the_toml_parser(tmp_path: Path) -> None:
    code = ("import sys; from diplomacy_desktop.io.boardfile import load_board; load_board(); "
            "print('tomllib' in sys.modules)")
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).parents[2])}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                           check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]  # parsed at the first start, taken from the cache at the next
