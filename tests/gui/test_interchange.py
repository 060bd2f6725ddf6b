"""Games in and out through the window (gui/interchange.py): Game ▸ Import ▸ Game from the
diplomacy package, Game ▸ Export game ▸ ..., and the history browser's DATC case entries."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from widget_text import shows
from window_harness import Table

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.gui.interchange import DifferencesDialog
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.dipjson import export_saved_game
from diplomacy_desktop.io.savefile import game_to_dict
from diplomacy_desktop.io.scenario import read_scenarios


def _state(name: str, moved: dict[str, str] | None = None) -> dict[str, Any]:
    state = export_saved_game(Game.new(load_board()))["phases"][0]["state"]
    state["name"] = name
    for power, units in state["units"].items():
        state["units"][power] = [(moved or {}).get(u, u) for u in units]
    return state


def _recorded(bounce: bool) -> dict[str, Any]:
    """Spring 1901: A PAR - BUR; the record says it bounced (off nothing) when ``bounce``."""
    return {"id": "g", "map": "standard", "rules": ["NO_PRESS"], "phases": [
        {"name": "S1901M", "state": _state("S1901M"), "orders": {"FRANCE": ["A PAR - BUR"], "ENGLAND": ["F LON - NTH"]},
         "results": {"A PAR": ["bounce"] if bounce else [], "F LON": []}},
        {"name": "F1901M", "state": _state("F1901M", {"F LON": "F NTH"} if bounce else
                                           {"F LON": "F NTH", "A PAR": "A BUR"}),
         "orders": {"FRANCE": ["A BUR - MUN"]}, "results": {}}]}


@pytest.fixture
def dialogs(monkeypatch: pytest.MonkeyPatch) -> list[DifferencesDialog]:
    """The differences dialogs shown (not run modally)."""
    shown: list[DifferencesDialog] = []

    def exec_(self: DifferencesDialog) -> int:
        shown.append(self)
        return 0

    monkeypatch.setattr(DifferencesDialog, "exec", exec_)
    return shown


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, title, text, *a: seen.append(f"{title}: {text}")))
    return seen


def _open_with(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))


def _save_to(monkeypatch: pytest.MonkeyPatch, path: Path) -> list[str]:
    titles: list[str] = []

    def choose(_parent: object, title: str, *_a: object, **_k: object) -> tuple[str, str]:
        titles.append(title)
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(choose))
    return titles


def test_interchange_import_opens_the_game_in_the_history_browser(table: Table, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  dialogs: list[DifferencesDialog]) -> None:
    t = table
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_recorded(bounce=True)))
    _open_with(monkeypatch, path)
    t.window.act_import_dipjson.trigger()
    c = t.controller
    assert len(c.game.history) == 1
    assert c.viewing == 0 and t.window.banner.isVisible()  # the history browser, at the first phase
    assert c.state.phase.short == "F1901M"
    assert c.game.orders == {}  # the last phase's orders are not adjudicated: not imported
    assert c.modified  # a new game, not saved yet
    (dialog,) = dialogs
    rows = dialog.rows()
    assert ["S1901M", "France", "A PAR - BUR", "bounce", "moves"] == rows[0][:5]
    assert "rule" in rows[0][5]
    assert any(r[2] == "(position)" and "France A BUR" in r[4] for r in rows)
    assert dialog.table.isVisibleTo(dialog)
    assert "1 phase" in dialog.summary.text() or "in 1 phase" in dialog.summary.text()
    assert t.window.last_import is not None and t.window.last_import.differences


def test_interchange_import_without_differences_says_so(table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        dialogs: list[DifferencesDialog]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_recorded(bounce=False)))
    _open_with(monkeypatch, path)
    table.window.act_import_dipjson.trigger()
    (dialog,) = dialogs
    assert "every result agrees" in dialog.summary.text()
    assert dialog.rows() == [] and not dialog.table.isVisibleTo(dialog)
    assert table.controller.game.state.unit_in("bur") is not None


@pytest.mark.parametrize(("content", "words"), [
    (b"not json at all", "not JSON"),
    (json.dumps({"id": "g", "map": "ancmed", "phases": []}).encode(), "'ancmed'"),
    (json.dumps({"id": "g", "map": "standard"}).encode(), "no 'phases'"),
    (json.dumps(_recorded(True))[:300].encode(), "truncated"),
])
def test_interchange_bad_file_refused_and_the_open_game_survives(table: Table, tmp_path: Path, content: bytes,
                                                                 words: str, monkeypatch: pytest.MonkeyPatch,
                                                                 warnings: list[str],
                                                                 dialogs: list[DifferencesDialog]) -> None:
    t = table
    _mid_game(t)
    before = game_to_dict(t.controller.game, t.controller.table)
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    _open_with(monkeypatch, path)
    t.window.act_import_dipjson.trigger()
    assert len(warnings) == 1 and words in warnings[0] and "bad.json" in warnings[0]
    assert dialogs == []
    assert game_to_dict(t.controller.game, t.controller.table) == before
    assert path.read_bytes() == content


def _mid_game(t: Table) -> None:
    """Spring 1901 adjudicated; Fall 1901 orders filed, not yet adjudicated."""
    c = t.controller
    c.set_order(Move("france", "A", "par", "bur"))
    c.set_order(Move("germany", "A", "mun", "ruh"))
    c.adjudicate()
    c.view_phase(None)
    c.set_order(Move("france", "A", "bur", "bel"))
    c.set_order(Move("germany", "A", "ruh", "hol"))


def test_interchange_exports_write_adjudicated_history_only(table: Table, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    _mid_game(t)
    w = t.window
    out = tmp_path / "game.json"
    _save_to(monkeypatch, out)
    w.act_export_dipjson.trigger()
    data = json.loads(out.read_text())
    assert [p["name"] for p in data["phases"]] == ["S1901M", "F1901M"]
    assert data["phases"][0]["orders"]["FRANCE"] == ["A PAR - BUR"]
    assert all(v == [] for v in data["phases"][1]["orders"].values())
    assert "BEL" not in json.dumps(data["phases"][1]["orders"]) and "HOL" not in out.read_text().split('"F1901M"')[-1]
    text_out = tmp_path / "orders.txt"
    _save_to(monkeypatch, text_out)
    w.act_export_text.trigger()
    text = text_out.read_text()
    assert "Spring 1901 movement" in text and "A Paris - Burgundy" in text
    assert "Belgium" not in text and "Holland" not in text
    assert text.rstrip().endswith("Fall 1901 movement: orders not yet adjudicated")
    case_out = tmp_path / "now.txt"
    _save_to(monkeypatch, case_out)
    w.act_export_case.trigger()  # the phase being played: its position only
    (sc,) = read_scenarios(case_out.read_text(), t.controller.board)
    assert sc.orders == [] and sc.phase == t.controller.state.phase  # type: ignore[union-attr]


def test_interchange_history_browser_exports_a_phase_as_a_case(table: Table, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    _mid_game(t)
    t.controller.view_phase(0)
    assert t.window.act_export_case in t.window.phase_menu.actions()
    assert t.window.act_import_case in t.window.phase_menu.actions()
    out = tmp_path / "case"
    titles = _save_to(monkeypatch, out)
    t.window.act_export_case.trigger()
    assert titles == ["Export this phase as a DATC case"]
    written = out.with_suffix(".txt")
    (sc,) = read_scenarios(written.read_text(), t.controller.board)
    assert sc.phase.short == "S1901M"  # type: ignore[union-attr]
    assert sorted(o.text for o in sc.orders) == ["A Mun - Ruh", "A Par - Bur"]  # type: ignore[union-attr]
    assert {u.location for u in sc.post_units or ()} >= {"bur", "ruh"}  # type: ignore[union-attr]


def test_interchange_import_case_opens_a_sandbox(table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phase exported from the history browser comes back as a case in a sandbox."""
    from diplomacy_desktop.gui.interchange import export_text

    t = table
    _mid_game(t)
    t.controller.view_phase(0)
    case = tmp_path / "s1901.txt"
    case.write_text(export_text(t.window, "case", "s1901"))
    t.controller.view_phase(None)
    before = game_to_dict(t.controller.game, t.controller.table)
    _open_with(monkeypatch, case)
    opened: list[object] = []
    from diplomacy_desktop.gui.teach import sandbox

    real = sandbox.open_sandbox_window

    def spy(*a: Any, **k: Any) -> Any:
        mode = real(*a, **k)
        opened.append(mode)
        mode.ask_before_closing = False
        return mode

    monkeypatch.setattr(sandbox, "open_sandbox_window", spy)
    t.window.act_import_case.trigger()
    assert len(opened) == 1
    sandbox_game = opened[0].controller.game  # type: ignore[attr-defined]
    assert sandbox_game.state.phase.short == "S1901M"
    assert {o.province for o in sandbox_game.all_orders()} == {"par", "mun"}
    assert game_to_dict(t.controller.game, t.controller.table) == before  # the game is not touched
    opened[0].window.close()  # type: ignore[attr-defined]


# -- secrecy: the table game ---------------------------------------------------------------------


def test_interchange_exports_mid_writing_never_reveal_sealed_orders(table: Table, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A power has sealed its orders: every export comes behind the curtain and writes none of
    them (only the adjudicated history)."""
    from diplomacy_desktop.gui.table.dialogs import TableSettings
    from diplomacy_desktop.gui.table.features import install_table_features
    from diplomacy_desktop.table.hotseat import ENTERING
    from diplomacy_desktop.gui.table.persistence import Autosave

    t = table
    f = install_table_features(t.window, autosave=Autosave(tmp_path / "data"), rng=random.Random(1901),
                               review=lambda d: True, confirm=lambda *a: True, message=lambda *a: None)
    f.start_new_game(TableSettings())
    f.act_write.trigger()
    power = f.flow.session.next_power
    f.flow.curtain.open_button.click()
    assert f.flow.session.stage == ENTERING and f.flow.session.current == power
    unit = t.controller.state.units_of(power)[0]
    t.hold(unit.province)
    assert t.controller.game.orders_of(power)
    f.strip.seal_button.click()
    assert power in f.flow.session.sealed
    curtain: list[bool] = []
    for action, name in (("act_export_dipjson", "g.json"), ("act_export_text", "g.txt"), ("act_export_case", "c.txt")):
        out = tmp_path / name

        def choose(*_a: object, _out: Path = out, **_k: object) -> tuple[str, str]:
            curtain.append(f.flow.curtain_up)
            return str(_out), ""

        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(choose))
        getattr(t.window, action).trigger()
        text = out.read_text()
        assert f"{unit.kind} {unit.location.upper()} H" not in text
        assert "holds" not in text
        if name == "c.txt":  # the phase being played: the position, no orders
            (sc,) = read_scenarios(text, t.controller.board)
            assert sc.orders == []  # type: ignore[union-attr]
    assert curtain == [True, True, True]
    assert not shows(t.window, f"{unit.kind} {unit.location.upper()} H")
