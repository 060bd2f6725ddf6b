"""The cache folder and its one writer (``resources.cache_dir``, ``resources.write_cache``): the
parsed board, the map's shapes, the board picture and the names' images and places all go
through it."""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.resources import cache_dir, write_cache


def test_the_cache_folder_follows_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "diplomacy-desktop" / "maps"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "diplomacy-desktop" / "maps"


def test_a_cache_file_is_written_whole_text_or_bytes(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "kept.json"
    assert write_cache(path, '{"name": "Münster"}') is True
    assert path.read_bytes() == '{"name": "Münster"}'.encode()
    assert write_cache(path, b"\x00\x01raw") is True
    assert path.read_bytes() == b"\x00\x01raw"
    assert sorted(p.name for p in path.parent.iterdir()) == ["kept.json"]  # no temporary file left


def test_a_cache_that_cannot_be_written_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("x", encoding="utf-8")
    assert write_cache(blocked / "kept.json", "data") is False  # its folder is a file
    folder = tmp_path / "folder"
    (folder / "kept.json").mkdir(parents=True)  # the cache file's place is a folder: the rename fails
    assert write_cache(folder / "kept.json", "data") is False
    assert sorted(p.name for p in folder.iterdir()) == ["kept.json"]  # the temporary file is gone
