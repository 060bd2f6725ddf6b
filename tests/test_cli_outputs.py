"""Issue 21, "the command line's outputs": ``convert`` and ``render -o`` write only regular
files (a device, a FIFO or a folder is refused with one line and left as it is), ``-`` and
``/dev/stdout`` mean the standard output, a full disk is "cannot write OUT: no space left" with
exit 1 and the input untouched, and JSON nested 100,000 deep is refused without a traceback."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from diplomacy_desktop import cli
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.io import savefile
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import SaveFileError, load_game, save_game

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "bad_cases"


def _game_file(tmp_path: Path) -> Path:
    game = Game.new(load_board())
    game.set_order(Move("france", "A", "par", "bur"))
    game.adjudicate()
    path = tmp_path / "game.dipl"
    save_game(path, game)
    return path


def run(*args: str, stdout: object = subprocess.PIPE, cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "diplomacy_desktop", *args], check=False, env=env, cwd=cwd,
                          stdout=stdout, stderr=subprocess.PIPE, timeout=120)


def _no_traceback(proc: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in proc.stderr and b"Error:" not in proc.stderr, proc.stderr


# -- what is not a regular file -----------------------------------------------------------------


def test_cli_outputs_convert_refuses_a_fifo_and_leaves_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert cli.main(["convert", str(_game_file(tmp_path)), str(fifo)]) == 1
    assert capsys.readouterr().err == (f"diplomacy-desktop: cannot write {fifo}: it is a FIFO (named pipe); name a "
                                       "regular file, or - for the standard output\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_cli_outputs_convert_refuses_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    assert cli.main(["convert", str(_game_file(tmp_path)), str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot write {folder}: it is a folder" in err
    assert folder.is_dir() and not any(folder.iterdir())


def test_cli_outputs_convert_and_render_refuse_a_device_node_and_leave_it(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A copy of /dev/full made in the test's folder (as root may): an atomic write would have
    replaced it with a regular file, as it would have replaced /dev/full itself."""
    device = tmp_path / "full"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot make a device node here")
    assert cli.main(["convert", str(_game_file(tmp_path)), str(device)]) == 1
    assert "it is a device; name a regular file" in capsys.readouterr().err
    link = tmp_path / "full.png"
    link.symlink_to(device)  # render decides the format by the name: a .png name pointing at the device
    assert cli.main(["render", str(BAD / "bom.txt"), "-o", str(link), "--size", "200x150"]) == 1
    assert "it is a device" in capsys.readouterr().err
    assert stat.S_ISCHR(os.stat(device).st_mode) and stat.S_ISLNK(os.lstat(link).st_mode)


def test_cli_outputs_render_refuses_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    assert cli.main(["render", str(BAD / "bom.txt"), "-o", str(fifo), "--size", "200x150"]) == 1
    assert "it is a FIFO (named pipe)" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# -- the standard output --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_cli_outputs_convert_to_the_standard_output(tmp_path: Path, name: str) -> None:
    src = _game_file(tmp_path)
    proc = run("convert", str(src), name, "--to", "text")
    _no_traceback(proc)
    assert proc.returncode == 0
    assert b"A Paris - Burgundy" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dipl"]  # no file called "-", no temporary file
    game_json = run("convert", str(src), name, "--to", "game")
    assert game_json.returncode == 0 and json.loads(game_json.stdout)["format"] == "diplomacy-desktop-game"


def test_cli_outputs_render_to_the_standard_output_is_a_png(tmp_path: Path) -> None:
    proc = run("render", str(BAD / "bom.txt"), "-o", "-", "--size", "200x150")
    _no_traceback(proc)
    assert proc.returncode == 0 and proc.stdout.startswith(b"\x89PNG\r\n")
    assert b"wrote the standard output" in proc.stderr


def test_cli_outputs_convert_to_a_full_standard_output_is_exit_1(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "wb") as full:
        proc = run("convert", str(_game_file(tmp_path)), "-", "--to", "text", stdout=full)
    assert proc.returncode == 1
    assert proc.stderr == b"diplomacy-desktop: cannot write the standard output: no space left\n"


# -- a full disk ----------------------------------------------------------------------------------------


def test_cli_outputs_convert_on_a_full_disk_is_one_line_exit_1_and_the_input_untouched(
        tmp_path: Path, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]) -> None:
    src = _game_file(tmp_path)
    request.getfixturevalue("full_disk")  # from here on
    before = src.read_bytes()
    for out in (tmp_path / "new.json", tmp_path / "game.txt"):
        assert cli.main(["convert", str(src), str(out)]) == 1
        assert capsys.readouterr().err == f"diplomacy-desktop: cannot write {out}: no space left\n"
        assert not out.exists()
    assert src.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dipl"]  # no temporary file either


def test_cli_outputs_convert_onto_its_own_input_on_a_full_disk_keeps_it(
        tmp_path: Path, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]) -> None:
    src = _game_file(tmp_path)
    request.getfixturevalue("full_disk")  # from here on
    before = src.read_bytes()
    assert cli.main(["convert", str(src), str(src), "--to", "game"]) == 1
    assert src.read_bytes() == before
    assert "no space left" in capsys.readouterr().err


def test_cli_outputs_convert_on_a_real_small_tmpfs(tmp_path: Path) -> None:
    """The same on a real full disk: a 64 KB tmpfs in a private mount namespace (where the
    system allows one; a fault-injecting writer covers the rest above)."""
    if not shutil.which("unshare"):
        pytest.skip("no unshare here")
    src = _game_file(tmp_path)
    for _ in range(4):  # a longer game: its text is bigger than the disk
        game, _table = load_game(src)
        game.adjudicate()
        save_game(src, game)
    mnt = tmp_path / "small"
    mnt.mkdir()
    (tmp_path / "old.json").write_text("the previous file")
    script = (f"mount -t tmpfs -o size=16k none {mnt} && cp {tmp_path / 'old.json'} {mnt}/out.json && "
              f"{sys.executable} -m diplomacy_desktop convert {src} {mnt}/out.json --to dipjson; echo rc=$?; "
              f"cat {mnt}/out.json; echo; ls -a {mnt}")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", script], check=False, env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    if "rc=" not in proc.stdout:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()[:200]}")
    assert "rc=1" in proc.stdout, proc.stdout + proc.stderr
    assert proc.stderr == f"diplomacy-desktop: cannot write {mnt}/out.json: no space left\n"
    assert "the previous file" in proc.stdout  # the old file is still whole
    assert ".tmp" not in proc.stdout  # and no temporary file is left


# -- nesting ------------------------------------------------------------------------------------------


def test_cli_outputs_json_nested_100000_deep_is_refused_without_a_traceback(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    proc = run("convert", str(deep), str(tmp_path / "out.dipl"))
    _no_traceback(proc)
    assert proc.returncode == 2
    assert proc.stderr == b"diplomacy-desktop: deep.json: the file is not a saved game: its brackets are nested too deeply\n"
    nested_game = tmp_path / "nested.dipl"
    nested_game.write_text('{"format": "diplomacy-desktop-game", "version": 1, "table": {"x": ' + "[" * 100_000
                           + "]" * 100_000 + '}, "current": {}}')
    with pytest.raises(SaveFileError, match="nested too deeply"):
        load_game(nested_game)


def test_cli_outputs_a_save_folder_is_synced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A power cut after ``write_atomic`` returns keeps the new file: the rename is synced too."""
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.append(-1)
        real_fsync(fd)

    monkeypatch.setattr(savefile.os, "fsync", fsync)
    savefile.write_atomic(tmp_path / "g.dipl", "{}")
    assert -1 in synced  # the folder, after the file
    synced.clear()
    savefile.write_atomic(tmp_path / "g.dipl", "{}", sync=False)
    assert synced == []
    assert errno.ENOSPC  # (the module's own fault injection is in conftest.full_disk)
