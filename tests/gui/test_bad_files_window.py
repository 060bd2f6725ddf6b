"""Damaged files in the window (issue 8, "Bad files and faults"): opening one gives one clear
message and the open game survives; a damaged autosave is kept aside at start and the app
always starts; temporary files a kill left behind are removed."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from window_harness import Table

from diplomacy_desktop.gui.table.persistence import Autosave
from diplomacy_desktop.table.autosave import AUTOSAVE_NAME, LEGACY_AUTOSAVE_NAME
from diplomacy_desktop.io.savefile import game_to_dict

BAD = Path(__file__).resolve().parents[1] / "io" / "bad_saves"


class Messages:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def __call__(self, _parent: object, title: str, text: str) -> None:
        self.seen.append((title, text))


@pytest.fixture
def boxes(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Every message box the window shows: warnings (clear messages) and crash boxes."""
    shown: dict[str, list[str]] = {"warning": [], "critical": []}
    for kind in shown:
        monkeypatch.setattr(QMessageBox, kind, staticmethod(
            lambda _p, _title, text, *a, _k=kind: shown[_k].append(text)))
    return shown


def _features(window: object, data: Path, **kw: object):  # type: ignore[no-untyped-def]
    import random

    from diplomacy_desktop.gui.table.features import install_table_features

    options = {"autosave": Autosave(data), "rng": random.Random(5), "review": lambda d: True,
               "confirm": lambda *a: True, "message": Messages()}
    options.update(kw)
    return install_table_features(window, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.json") if p.name != "good.json"))
def test_bad_files_window_refuses_a_damaged_game_and_keeps_the_open_one(name: str, table: Table, tmp_path: Path,
                                                                        boxes: dict[str, list[str]]) -> None:
    t = table
    t.move("par", "bur")
    before = game_to_dict(t.controller.game, t.controller.table)
    path = tmp_path / name
    shutil.copyfile(BAD / name, path)
    content = path.read_bytes()
    assert not t.window.open_file(path)
    [text] = boxes["warning"]
    assert text.startswith(f"{name}: the saved game is damaged: $.") and text.count(name) == 1
    assert "Traceback" not in text and "\n" not in text
    assert boxes["critical"] == []
    assert game_to_dict(t.controller.game, t.controller.table) == before
    assert t.orders("france") == {"A Par - Bur"}
    assert path.read_bytes() == content
    t.adjudicate()  # the game on the table plays on
    assert t.controller.state.phase.short == "F1901M" and boxes["critical"] == []


@pytest.mark.parametrize(("content", "says"), [
    (b"", "picture.dipl: the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "picture.dipl: this is not a saved game: it is not a text file"),
    (b"CASE 6.A.1\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  England: F nth\nORDERS\nEND\n",
     'picture.dipl: this is a DATC scenario file, not a saved game: check it with "diplomacy-desktop adjudicate'),
], ids=["empty", "binary", "scenario"])
def test_bad_files_window_names_a_foreign_file_once(content: bytes, says: str, table: Table, tmp_path: Path,
                                                   boxes: dict[str, list[str]]) -> None:
    path = tmp_path / "picture.dipl"
    path.write_bytes(content)
    assert not table.window.open_file(path)
    [text] = boxes["warning"]
    assert text.startswith(says) and text.count("picture.dipl") == 1
    assert path.read_bytes() == content and boxes["critical"] == []


def test_bad_files_the_good_one_opens_in_the_window(table: Table, tmp_path: Path, boxes: dict[str, list[str]]) -> None:
    assert table.window.open_file(BAD / "good.json")
    assert table.controller.state.phase.short == "F1901M" and boxes == {"warning": [], "critical": []}


# -- a damaged autosave ---------------------------------------------------------------------------


def _good_autosave_text() -> str:
    return (BAD / "good.json").read_text(encoding="utf-8")


def _listing(data: Path) -> list[str]:
    """The folder's files, without SQLite's own beside an open database (its log and index)."""
    return sorted(n for n in os.listdir(data) if not n.endswith(("-wal", "-shm")))


# (issue 21: the autosave is a SQLite database now; "truncated", "year_1e400" and "binary" are an
# earlier version's JSON autosave, "database" a damaged database)
@pytest.mark.parametrize("damage", ["truncated", "year_1e400", "binary", "database"])
def test_bad_files_damaged_autosave_is_kept_aside_and_the_app_starts(damage: str, table: Table, tmp_path: Path,
                                                                     boxes: dict[str, list[str]]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    content = {"truncated": _good_autosave_text()[:3000].encode("utf-8"),
               "year_1e400": (BAD / "year_1e400.json").read_bytes(),
               "binary": os.urandom(2000) + b"\x00",
               "database": b"SQLite format 3\x00" + os.urandom(4000)}[damage]
    name, suffix = (AUTOSAVE_NAME, ".sqlite") if damage == "database" else (LEGACY_AUTOSAVE_NAME, ".json")
    (data / name).write_bytes(content)
    messages = Messages()
    f = _features(table.window, data, message=messages)
    damaged = f.check_autosave()
    assert damaged is not None
    kept = damaged.kept
    assert kept.parent == data and kept.name.startswith("autosave.damaged-") and kept.suffix == suffix
    assert kept.read_bytes() == content and not (data / name).exists()
    [(title, text)] = messages.seen
    assert title == "The autosave is damaged" and str(kept) in text and "will not be overwritten" in text
    f.first_start()
    assert f.resume_offer is None  # nothing readable to resume: a new game, at once
    table.move("par", "bur")
    table.adjudicate()
    assert f.autosaver.writes >= 1 and (data / AUTOSAVE_NAME).exists()
    assert kept.read_bytes() == content  # the new game's autosave went elsewhere
    assert boxes["critical"] == []
    # a second damaged autosave (after the app stopped) is kept under another name, never over the first
    f.autosaver.autosave.close()
    (data / name).write_bytes(content)
    again = _features(table.window, data, message=Messages()).check_autosave()
    assert again is not None and again.kept != kept and kept.read_bytes() == content


def test_bad_files_a_readable_autosave_is_left_where_it_is(table: Table, tmp_path: Path) -> None:
    """An earlier version's readable autosave is migrated into the database (issue 21), not set aside."""
    data = tmp_path / "data"
    data.mkdir()
    (data / LEGACY_AUTOSAVE_NAME).write_text(_good_autosave_text(), encoding="utf-8")
    messages = Messages()
    f = _features(table.window, data, message=messages)
    assert f.check_autosave() is None and messages.seen == []
    assert _listing(data) == [AUTOSAVE_NAME]
    assert f.autosaver.autosave.info() is not None and f.check_autosave() is None


def test_bad_files_temp_files_of_a_killed_autosave_are_removed_at_start(table: Table, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    stale = data / f".{LEGACY_AUTOSAVE_NAME}.k9x2q.tmp"  # an earlier version's (JSON) autosave's
    writing = data / f".{LEGACY_AUTOSAVE_NAME}.w8y3r.tmp"  # another instance writing right now
    theirs = data / ".notes.json.a1b2.tmp"
    for p in (stale, writing, theirs):
        p.write_text("{", encoding="utf-8")
    past = time.time() - 3600
    os.utime(stale, (past, past))
    os.utime(theirs, (past, past))
    f = _features(table.window, data, message=Messages())
    f.check_autosave()
    assert _listing(data) == sorted([writing.name, theirs.name])
    assert f.autosaver.save_now()
    assert _listing(data) == sorted([AUTOSAVE_NAME, writing.name, theirs.name])
