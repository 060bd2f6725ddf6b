"""Autosave and resume after a crash, recent files, and opening broken files safely."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from new_game import no_pins_and_a_passphrase
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMenu, QWidget

from diplomacy_desktop.engine.orders import Move, SupportMove
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.table.persistence import (DATA_DIR_ENV, Autosave, Autosaver, RecentFiles,
                                                     app_data_dir, open_game_file, resume_from_autosave,
                                                     save_game_file)
from diplomacy_desktop.table.autosave import AUTOSAVE_NAME
from diplomacy_desktop.io.savefile import game_to_dict

SPRING = [Move("france", "A", "par", "bur"), Move("germany", "A", "mun", "bur"),
          Move("england", "F", "lon", "nth"), Move("russia", "A", "war", "gal"),
          Move("austria", "A", "vie", "gal"), SupportMove("austria", "A", "bud", "A", "vie", "gal")]


class Messages:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def __call__(self, parent: QWidget | None, title: str, text: str) -> None:
        self.seen.append((title, text))


def _play(controller: GameController) -> None:
    for o in SPRING:
        controller.set_order(o)
    controller.adjudicate()
    controller.view_phase(None)  # from the results back to the current phase
    controller.set_order(Move("france", "A", "par", "pic"))  # the fall, half ordered


def _same_game(a: GameController, b: GameController) -> None:
    assert game_to_dict(b.game, b.table) == game_to_dict(a.game, a.table)
    assert b.game.state == a.game.state
    assert [h.results for h in b.game.history] == [h.results for h in a.game.history]


def test_persistence_data_dir_follows_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    assert app_data_dir() == tmp_path / "data"
    assert Autosave().path == tmp_path / "data" / AUTOSAVE_NAME
    monkeypatch.delenv(DATA_DIR_ENV)
    assert app_data_dir().name  # Qt's AppDataLocation


def test_persistence_autosave_after_every_phase(qtbot, tmp_path: Path) -> None:
    c = GameController(table={"players": {"france": "Anna"}})
    saver = Autosaver(c, Autosave(tmp_path))
    assert not saver.autosave.exists()
    for o in SPRING:
        c.set_order(o)
    c.adjudicate()
    assert saver.autosave.exists() and saver.writes >= 1
    game, table = saver.autosave.load()
    assert game.state == c.game.state and len(game.history) == 1 and table["players"] == {"france": "Anna"}
    # orders are saved a moment later (debounced), not lost
    c.view_phase(None)
    c.set_order(Move("france", "A", "par", "pic"))
    qtbot.waitUntil(lambda: bool(saver.autosave.load()[0].all_orders()), timeout=5000)
    assert not list(tmp_path.glob("*.tmp"))  # atomic: no temporary file left behind


def test_persistence_autosave_is_private_whatever_the_umask(tmp_path: Path) -> None:
    """The autosave holds every unrevealed order in the clear: 0600, new or rewritten, even when
    an earlier version (or a copy) left it readable by others."""
    c = GameController(table={"secrecy": True})
    c.set_order(Move("france", "A", "par", "pic"))
    autosave = Autosave(tmp_path)
    old_umask = os.umask(0o022)
    try:
        autosave.write(c.game, c.table)
        assert stat.S_IMODE(autosave.path.stat().st_mode) == 0o600
        autosave.path.chmod(0o644)
        autosave.write(c.game, c.table)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(autosave.path.stat().st_mode) == 0o600
    assert autosave.load()[0].all_orders()


def test_persistence_autosave_then_crash_then_resume_gives_the_same_game(qtbot, tmp_path: Path) -> None:
    """A separate process plays, autosaves and dies without any clean-up; a new one resumes."""
    script = textwrap.dedent(f"""
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from diplomacy_desktop.engine.orders import Move, SupportMove
        from diplomacy_desktop.gui.controller import GameController
        from diplomacy_desktop.gui.table.persistence import Autosave, Autosaver
        from diplomacy_desktop.io.savefile import dumps
        c = GameController(table={{"players": {{"england": "Bea"}}, "secrecy": True}})
        saver = Autosaver(c, Autosave({str(tmp_path)!r}))
        for o in {SPRING!r}:
            c.set_order(o)
        c.adjudicate()
        c.view_phase(None)
        c.set_order(Move("france", "A", "par", "pic"))
        saver.save_now()
        open({str(tmp_path / "expected.json")!r}, "w").write(dumps(c.game, c.table))
        os._exit(9)  # the pulled plug: no atexit, no Qt shutdown, no flushing
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120,
                         check=False)
    assert run.returncode == 9, run.stderr
    autosave = Autosave(tmp_path)
    info = autosave.info()
    assert info is not None and info.phases_played == 1 and "Fall 1901" in info.phase
    fresh = GameController()
    messages = Messages()
    assert resume_from_autosave(fresh, autosave, message=messages)
    assert not messages.seen
    expected = json.loads((tmp_path / "expected.json").read_text())
    assert game_to_dict(fresh.game, fresh.table) == expected
    assert fresh.table["players"] == {"england": "Bea"}
    assert [str(o) for o in fresh.game.all_orders()] == ["A par - pic"]


def test_persistence_resume_in_the_same_process_is_identical(qtbot, tmp_path: Path) -> None:
    a = GameController(table={"clock": {"spring_minutes": 17}})
    saver = Autosaver(a, Autosave(tmp_path))
    _play(a)
    saver.save_now()
    b = GameController()
    assert resume_from_autosave(b, Autosave(tmp_path))
    _same_game(a, b)


def test_persistence_nothing_to_resume_for_an_untouched_game(qtbot, tmp_path: Path) -> None:
    c = GameController()
    auto = Autosave(tmp_path)
    assert auto.info() is None
    auto.write(c.game, c.table)
    assert auto.info() is None  # a fresh game: no offer
    auto.close()  # (the app stopped; issue 21: the autosave is a database, damaged while nobody has it open)
    (tmp_path / AUTOSAVE_NAME).write_text("{ half a file")
    assert auto.info() is None  # unreadable: no offer, no crash
    messages = Messages()
    assert not resume_from_autosave(c, auto, message=messages)
    assert messages.seen and messages.seen[0][0] == "Cannot resume"


def test_persistence_autosave_failure_is_reported_once(qtbot, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    c = GameController()
    messages = Messages()
    saver = Autosaver(c, Autosave(blocker), message=messages)
    assert not saver.save_now() and not saver.save_now()
    assert len(messages.seen) == 1 and "Autosave failed" in messages.seen[0][0]


def _broken_files(tmp_path: Path) -> list[Path]:
    files = {
        "truncated.json": '{"format": "diplomacy-desktop-game", "version": 1, "hist',
        "foreign.json": json.dumps({"name": "a spreadsheet", "rows": [1, 2, 3]}),
        "newer.json": json.dumps({"format": "diplomacy-desktop-game", "version": 99}),
        "tampered.json": "",
        "binary.dipl": "",
    }
    out = []
    for name, text in files.items():
        p = tmp_path / name
        p.write_text(text)
        out.append(p)
    (tmp_path / "binary.dipl").write_bytes(bytes(range(256)) * 4)
    # a real save with one unit moved by hand: its replay does not arrive at the stored position
    c = GameController()
    _play(c)
    c.save(tmp_path / "real.json")
    data = json.loads((tmp_path / "real.json").read_text())
    data["current"]["state"]["units"][0]["location"] = "tyr"
    (tmp_path / "tampered.json").write_text(json.dumps(data))
    return out


def test_persistence_open_broken_file_gives_a_message_and_changes_nothing(qtbot, tmp_path: Path) -> None:
    c = GameController(table={"players": {"italy": "Cy"}})
    _play(c)
    before = game_to_dict(c.game, c.table)
    game_object = c.game
    recent = RecentFiles(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    for path in _broken_files(tmp_path):
        content = path.read_bytes()
        mtime = path.stat().st_mtime_ns
        messages = Messages()
        assert not open_game_file(c, path, message=messages, recent=recent)
        (title, text) = messages.seen[0]
        assert title == "Cannot open the game" and path.name in text and "Traceback" not in text
        assert c.game is game_object and game_to_dict(c.game, c.table) == before
        assert path.read_bytes() == content and path.stat().st_mtime_ns == mtime
    assert recent.paths() == []


def test_persistence_open_missing_file_says_so(qtbot, tmp_path: Path) -> None:
    c = GameController()
    messages = Messages()
    assert not open_game_file(c, tmp_path / "gone.json", message=messages)
    assert "cannot open" in messages.seen[0][1].lower()


def test_persistence_save_and_open_round_trip_with_recent_files(qtbot, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    recent = RecentFiles(settings)
    a = GameController(table={"secrecy": False})
    _play(a)
    path = tmp_path / "game.json"
    assert save_game_file(a, path, recent=recent)
    b = GameController()
    assert open_game_file(b, path, recent=recent)
    _same_game(a, b)
    assert recent.paths() == [path.resolve()]
    other = tmp_path / "other.json"
    assert save_game_file(b, other, recent=recent)
    assert recent.paths() == [other.resolve(), path.resolve()]
    recent.add(path)
    assert recent.paths()[0] == path.resolve()
    opened: list[Path] = []
    menu = QMenu()
    recent.fill_menu(menu, opened.append)
    actions = [a for a in menu.actions() if not a.isSeparator()]
    assert "game.json" in actions[0].text() and actions[-1].text() == "Clear the list"
    actions[0].trigger()
    assert opened == [path.resolve()]
    actions[-1].trigger()
    assert recent.paths() == [] and not menu.isEnabled()
    qtbot.waitUntil(lambda: not menu.actions(), timeout=2000)


def test_persistence_save_failure_gives_a_message(qtbot, tmp_path: Path) -> None:
    c = GameController()
    messages = Messages()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert not save_game_file(c, blocker / "game.json", message=messages)
    assert messages.seen and messages.seen[0][0] == "Cannot save the game"


@pytest.mark.parametrize("count", [12])
def test_persistence_recent_files_are_limited(tmp_path: Path, count: int) -> None:
    recent = RecentFiles(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    for i in range(count):
        p = tmp_path / f"g{i}.json"
        p.write_text("{}")
        recent.add(p)
    assert len(recent.paths()) == RecentFiles.LIMIT
    assert recent.paths()[0].name == f"g{count - 1}.json"


# -- in the real main window ----------------------------------------------------------------------


def _features(window, tmp_path: Path, **kw):  # type: ignore[no-untyped-def]
    import random

    from diplomacy_desktop.gui.table.features import install_table_features

    options = {"autosave": Autosave(tmp_path / "data"), "rng": random.Random(5), "review": lambda d: True,
                   "confirm": lambda *a: True, "message": Messages()}
    options.update(kw)
    return install_table_features(window, **options)


def test_persistence_main_window_autosaves_then_resumes_after_a_crash(qtbot, table, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from window_harness import shared_geometry

    from diplomacy_desktop.gui.main_window import MainWindow

    t = table
    f = _features(t.window, tmp_path)
    f.act_write.trigger()
    first = f.flow.session.next_power
    f.flow.curtain.open_button.click()
    f.strip.seal_button.click()  # the first power seals at once (its units hold)
    t.adjudicate()  # Ctrl+Return: the host's forced reveal
    assert t.controller.state.phase.short == "F1901M" and f.autosaver.writes >= 1
    f.clock.start_button.click()  # the fall talks begin
    f.act_write.trigger()
    nxt = f.flow.session.next_power
    f.flow.curtain.open_button.click()
    t.key(Qt.Key.Key_End)
    f.strip.seal_button.click()
    f.autosaver.save_now()  # (the debounced save, without waiting for it)
    expected = game_to_dict(t.controller.game, t.controller.table)

    # the crash: a new controller and window, same data folder, same settings file
    c2 = GameController()
    w2 = MainWindow(c2, geometry=shared_geometry(c2), settings=t.window.settings, sharpen=False)
    w2.ask_before_closing = False
    qtbot.addWidget(w2)
    f2 = _features(w2, tmp_path)
    f2.first_start()
    box = f2.resume_offer
    assert box is not None and "Fall 1901" in box.text()
    box.resume_button.click()
    got = game_to_dict(c2.game, c2.table)
    clock_then, clock_now = expected["table"].pop("clock_state"), got["table"].pop("clock_state")
    assert got == expected  # the game, its history, the orders and the table
    assert clock_now["status"] == clock_then["status"] == "running"
    assert abs(clock_now["remaining"] - clock_then["remaining"]) < 5  # only the seconds of the test passed
    assert c2.game.history[0].orders == t.controller.game.history[0].orders
    # the table picks up where it was: same writing order, the same powers sealed, curtain up
    assert f2.flow.session.order == f.flow.session.order and f2.flow.session.sealed == {nxt}
    assert not f2.flow.curtain.isHidden() and f2.secrecy  # (this window was never shown)
    # F6 ended the running talks: the writing clock runs (it used to keep the talks' period going)
    assert f2.clock.model.status == "running" and f2.clock.model.period.kind == "writing"
    assert first is not None


def test_persistence_main_window_first_start_offers_the_standard_game(qtbot, table, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = _features(table.window, tmp_path)
    f.first_start()
    assert f.resume_offer is None  # nothing to resume
    qtbot.waitUntil(lambda: f.new_game_dialog is not None, timeout=3000)
    # the standard game; secrecy asks for PINs (or "no PINs") and the host's passphrase (issue 20)
    no_pins_and_a_passphrase(f.new_game_dialog).start_button.click()
    c = table.controller
    assert c.game.rules.edition.value == "classic" and c.game.end_year is None
    assert c.table["secrecy"] is True and c.table["clock"]["spring_minutes"] == 15
    f2 = _features(table.window, tmp_path)
    f2.first_start()  # only the very first start asks
    qtbot.wait(50)
    assert f2.new_game_dialog is None


def test_persistence_main_window_recent_files_menu(qtbot, table, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    t = table
    f = _features(t.window, tmp_path)
    path = tmp_path / "saved.json"
    t.controller.save(path)
    names = [a.text() for a in t.window.recent_menu.actions()]
    assert t.window.recent_menu.isEnabled() and any("saved.json" in n for n in names)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    before = game_to_dict(t.controller.game, t.controller.table)
    assert not f.open_recent(broken)
    assert game_to_dict(t.controller.game, t.controller.table) == before
    assert f.message.seen and f.message.seen[-1][0] == "Cannot open the game"
    assert f.open_recent(path)


def test_persistence_main_window_waits_for_the_answer_before_autosaving(qtbot, table, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    played = GameController()
    _play(played)
    Autosave(tmp_path / "data").write(played.game, played.table)
    f = _features(table.window, tmp_path)
    f.autosaver._timer.setInterval(5)
    f.first_start()
    assert f.resume_offer is not None
    f.autosaver.schedule()  # whatever happens meanwhile must not overwrite the unfinished game
    qtbot.wait(100)
    f.resume_offer.resume_button.click()
    assert game_to_dict(table.controller.game) == game_to_dict(played.game)
