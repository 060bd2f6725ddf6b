"""Issue 21, findings 2 and 8: one host per game.  A second ``serve`` of the same game (which
used to start with the same tokens and write over the first one's fsynced seals) is refused with
a message naming the one that holds it; a lock left by a killed host is no lock; temporary files
a kill left behind are removed when the next host starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from serving import ROOT, ServeProcess, free_port

from diplomacy_desktop.io.gamelock import GameLock, GameLockedError


def test_one_per_game_a_second_serve_of_the_same_game_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    first = ServeProcess(game, free_port())
    try:
        proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "serve", str(game), "--no-passphrase", "--host", "127.0.0.1",
                               "--port", str(free_port())], cwd=ROOT, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
        assert proc.returncode == 2
        assert proc.stderr.startswith(f"diplomacy-desktop serve: g.dipl is already open in serve (process "
                                      f"{first.proc.pid}, since ")
        assert "close it there first" in proc.stderr and proc.stderr.count("\n") == 1
        assert first.stop(signal.SIGINT) == 0
    finally:
        first.kill()


def test_one_per_game_a_killed_hosts_lock_is_no_lock_and_its_temp_files_go(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    first = ServeProcess(game, free_port())
    first.kill()  # kill -9: no clean-up at all
    left = [tmp_path / ".g.dipl.abc123.tmp", tmp_path / ".g.dipl.zz9.tmp"]
    for p in left:
        p.write_text("half a game")
    other = tmp_path / ".other.dipl.x.tmp"  # another game's: not ours to remove
    other.write_text("x")
    second = ServeProcess(game, free_port())
    try:
        assert not any(p.exists() for p in left) and other.exists()
        assert second.stop(signal.SIGINT) == 0
    finally:
        second.kill()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == [other.name]


def test_one_per_game_lock_names_its_holder_and_is_released(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    with GameLock(game, "serve"):
        with pytest.raises(GameLockedError) as info:
            GameLock(game, "a Diplomacy Desktop window").acquire()
        assert str(info.value).startswith(f"g.dipl is already open in serve (process {os.getpid()}, since ")
        assert info.value.holder["program"] == "serve"
    again = GameLock(game, "a Diplomacy Desktop window")
    again.acquire()  # released: free again
    again.release()


def test_one_per_game_a_second_window_on_the_same_autosave_is_refused(tmp_path: Path, qapp,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from diplomacy_desktop.gui import app as app_module

    monkeypatch.setenv("DIPLOMACY_DESKTOP_DATA", str(tmp_path))
    shown: list[str] = []
    monkeypatch.setattr(app_module.QMessageBox, "critical", lambda _p, _t, text: shown.append(text))
    with GameLock(tmp_path / "autosave.sqlite", "a Diplomacy Desktop window"):  # (issue 21: the database)
        code = app_module.run_app(argparse.Namespace(file=None))
    assert code == 2
    assert shown and shown[0].startswith("The table's game is already open: autosave.sqlite is already open in a "
                                         "Diplomacy Desktop window (process ")


def test_one_per_game_the_window_does_not_save_over_a_game_being_served(tmp_path: Path, qapp) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.gui.controller import GameController

    game = tmp_path / "g.dipl"
    controller = GameController()
    with GameLock(game, "serve"), pytest.raises(GameLockedError, match="g.dipl is already open in serve"):
        controller.save(game)
    assert not game.exists()
    controller.save(game)  # nobody serves it now
    assert game.exists()
