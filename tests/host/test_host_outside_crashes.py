"""Issue 30, "nothing lost outside crashes": each finding against a real ``serve`` on 127.0.0.1
and a real file system (a small tmpfs for the full disk).

* a note (or an order) holding a lone UTF-16 surrogate is refused at the door with a reason and
  never saved (it used to be answered "sent" and made the saved game unreadable);
* a second ``serve`` of the same game under another name (a symlink, a hard link) is refused;
* a full disk is called a full disk, on the phone and at once on ``serve``'s terminal (SQLite's
  rollback used to replace the real error by "cannot rollback - no transaction is active");
* malformed HTTP gets a 4xx and one log line, never a traceback;
* a live database that is damaged (SQLite's integrity check, or the app's record checks: a phase
  missing) is set aside with a message naming it, and the intact saved game is read instead;
* nothing is shown to a phone before it is on disk (the console's ``reveal``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import ROOT, ServeProcess, call, free_port

from diplomacy_desktop.io.gamestore import store_path
from diplomacy_desktop.io.savefile import load_game


def stderr_of(serve: ServeProcess) -> str:
    assert serve.proc.stderr is not None
    return serve.proc.stderr.read()


# -- text the save cannot hold ------------------------------------------------------------------------


def test_outside_a_lone_surrogate_in_a_note_or_an_order_is_refused_at_the_door(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    serve = ServeProcess(game, free_port(), "--notes", "--no-passphrase", passphrase=None)
    try:
        fr = serve.tokens["france"]
        half_emoji = b'{"power": "france", "to": ["england"], "text": "see you \\ud83d"}'
        status, out = call(serve, "/api/note", token=fr, raw=half_emoji)
        assert status == 400 and "cannot be saved" in out["error"] and "half" in out["error"]
        status, out = call(serve, "/api/order", token=fr,
                           raw=b'{"power": "france", "phase": "S1901M", "text": "A Par - Bur \\udc00"}')
        assert status == 400 and "cannot be saved" in out["error"]
        status, _ = call(serve, "/api/note", {"power": "france", "to": ["england"], "text": "a whole \U0001F600"},
                         token=fr)
        assert status == 200  # a whole emoji is fine
        assert serve.stop() == 0
    finally:
        serve.kill()
    _game, table = load_game(game)  # the saved game opens, with the one whole note
    assert [n["text"] for n in table["notes"]] == ["a whole \U0001F600"]


# -- one host per game, whatever its name ------------------------------------------------------------


@pytest.mark.parametrize("how", ["symlink", "hard link", "dot-dot path"])
def test_outside_a_second_serve_under_another_name_is_refused(tmp_path: Path, how: str) -> None:
    game = tmp_path / "g.dipl"
    first = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        other = tmp_path / "elsewhere"
        other.mkdir()
        if how == "symlink":
            alias = other / "link.dipl"
            alias.symlink_to(game)
        elif how == "hard link":
            alias = other / "same.dipl"
            os.link(game, alias)
        else:
            alias = other / ".." / "g.dipl"
        proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "serve", str(alias), "--no-passphrase",
                               "--host", "127.0.0.1", "--port", str(free_port())], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "is already open in " in proc.stderr and "close it there first" in proc.stderr
        if how != "hard link":  # (another folder's hard link: its holder is not named)
            assert "is already open in serve (process " + str(first.proc.pid) in proc.stderr
        assert "Serving" not in proc.stdout
        assert first.stop() == 0
    finally:
        first.kill()


# -- a full disk ------------------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MiB tmpfs (a real file system that fills up), or skip where one cannot be mounted."""
    where = tmp_path / "disk"
    where.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m,mode=0700", "tmpfs", str(where)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + done.stderr.decode(errors="replace"))
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def test_outside_a_full_disk_is_called_a_full_disk_on_the_phone_and_at_once_on_the_terminal(
        small_disk: Path) -> None:
    game = small_disk / "g.dipl"
    serve = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        fr = serve.tokens["france"]
        assert call(serve, "/api/order", {"power": "france", "phase": "S1901M", "text": "A Par - Bur"}, fr)[0] == 200
        filler = fill(small_disk)
        answers = [call(serve, "/api/order", {"power": "france", "phase": "S1901M", "text": f"{u} H"}, fr)
                   for u in ("A Mar", "F Bre")]
        answers.append(call(serve, "/api/seal", {"power": "france", "phase": "S1901M"}, fr))
        for status, out in answers:
            assert status == 507, out
            assert "no space left" in out["error"] or "full" in out["error"], out
            assert "rollback" not in out["error"] and "transaction" not in out["error"]
        line = serve.next_line(timeout=15)  # at once, on the terminal (stdout), while serving
        assert "could not be saved (the disk is full)" in line, line
        filler.unlink()
        assert call(serve, "/api/seal", {"power": "france", "phase": "S1901M"}, fr)[0] == 200
        assert serve.stop() == 1
        err = stderr_of(serve)
        assert "rollback" not in err and "transaction" not in err
    finally:
        serve.kill()
    _game, table = load_game(game)
    assert table["phones"]["sealed"] == ["france"]


# -- malformed HTTP --------------------------------------------------------------------------------------


def raw_request(port: int, data: bytes, *, hang_up: bool = False) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as c:
        c.sendall(data)
        if hang_up:
            return b""
        out = b""
        try:
            while chunk := c.recv(65536):
                out += chunk
        except OSError:
            pass
        return out


def test_outside_malformed_http_is_a_4xx_and_one_log_line_never_a_traceback(tmp_path: Path) -> None:
    serve = ServeProcess(tmp_path / "g.dipl", free_port(), "--no-passphrase", passphrase=None)
    host = b"Host: 127.0.0.1\r\n"
    bad = [b"POST /api/note HTTP/1.1\r\n" + host + b"Content-Length: abc\r\n\r\n",
           b"POST /api/note HTTP/1.1\r\n" + host + b"Content-Length: -5\r\n\r\n",
           b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-H%d: v\r\n" % i for i in range(300)) + b"\r\n",
           b"NOT HTTP AT ALL\r\n\r\n"]
    try:
        for data in bad:
            answer = raw_request(serve.port, data)
            assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), answer[:60]
        raw_request(serve.port, b"POST /api/join HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
                    b"Content-Length: 200\r\n\r\n{\"power\": \"fr", hang_up=True)
        time.sleep(1.0)
        assert call(serve, "/api/public")[0] == 200  # still serving
        assert serve.stop() == 0
        err = stderr_of(serve)
    finally:
        serve.kill()
    assert "Traceback" not in err and "File \"" not in err, err
    refused = [ln for ln in err.splitlines() if ln.startswith("Refused a malformed request")]
    gone = [ln for ln in err.splitlines() if ln.startswith("A phone hung up")]
    assert len(refused) >= len(bad) - 1 and len(gone) == 1, err  # (aiohttp logs no line for a non-HTTP line)
    assert any("Content-Length" in ln for ln in refused) and any("headers" in ln for ln in refused)


# -- a damaged live database --------------------------------------------------------------------------------


def played_and_killed(game: Path) -> dict[str, Any]:
    """A game served, with an order and a seal, the host killed (kill -9); the saved game's text."""
    serve = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        fr = serve.tokens["france"]
        assert call(serve, "/api/order", {"power": "france", "phase": "S1901M", "text": "A Par - Bur"}, fr)[0] == 200
        assert call(serve, "/api/seal", {"power": "france", "phase": "S1901M"}, fr)[0] == 200
    finally:
        serve.kill()
    return json.loads(game.read_text(encoding="utf-8"))


def damage_a_page(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    data = bytearray(db.read_bytes())
    data[4096 + 8: 4096 + 40] = os.urandom(32)  # a b-tree page's header and cell pointers
    db.write_bytes(bytes(data))


def drop_a_phase(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        con.execute("DELETE FROM phases WHERE idx = (SELECT max(idx) FROM phases)")
        con.commit()
    finally:
        con.close()


def test_outside_a_damaged_live_database_is_set_aside_and_named(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    played_and_killed(game)
    db = store_path(game)
    damage_a_page(db)
    before = game.read_bytes()
    serve = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        assert call(serve, "/api/public")[1]["phase"]["short"] == "S1901M"
        assert serve.stop() == 0
        err = stderr_of(serve)
    finally:
        serve.kill()
    aside = sorted(tmp_path.glob(".g.dipl.live.damaged-*.sqlite"))
    assert len(aside) == 1, sorted(p.name for p in tmp_path.iterdir())
    assert f"the live game {db.name} is damaged" in err and aside[0].name in err, err
    assert "Traceback" not in err
    load_game(game)  # the saved game was read instead, and is still a readable game
    assert json.loads(before)["current"]["state"] == json.loads(game.read_bytes())["current"]["state"]


def test_outside_a_live_database_missing_an_adjudicated_phase_is_set_aside(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    serve = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        for power, token in serve.tokens.items():
            assert call(serve, "/api/seal", {"power": power, "phase": "S1901M"}, token)[0] == 200
        assert call(serve, "/api/public")[1]["phase"]["short"] == "F1901M"
    finally:
        serve.kill()
    drop_a_phase(store_path(game))
    serve = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        assert call(serve, "/api/public")[1]["phase"]["short"] == "F1901M"
        assert serve.stop() == 0
        err = stderr_of(serve)
    finally:
        serve.kill()
    assert f"the live game {store_path(game).name} is damaged" in err, err
    game_now, _ = load_game(game)
    assert len(game_now.history) == 1 and game_now.state.phase.short == "F1901M"


# -- nothing shown before it is on disk ------------------------------------------------------------------


def test_outside_the_consoles_reveal_is_shown_to_no_phone_before_it_is_on_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host types ``reveal`` while the disk is slow: a phone asking /api/state meanwhile
    sees the phase that is on disk, and the new one only once it is written."""
    import threading

    from diplomacy_desktop.host.serve import _console
    from diplomacy_desktop.host.server import HostServer
    from diplomacy_desktop.host.table import TableHost
    from diplomacy_desktop.io import gamestore

    host = TableHost.open_live(tmp_path / "g.dipl")
    host.deferred_saves = True
    server = HostServer(host, "127.0.0.1", 0)
    server.start()
    gate = threading.Event()
    real = gamestore.GameStore.write

    def slow_write(self: Any, *args: Any, **kwargs: Any) -> None:
        gate.wait(20)
        real(self, *args, **kwargs)

    monkeypatch.setattr(gamestore.GameStore, "write", slow_write)
    try:
        import io

        console = threading.Thread(target=_console, args=(host, server.base_url, io.StringIO("reveal S1901M\n")),
                                   daemon=True)
        console.start()
        token = host.token_of("france")
        seen = []
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            req = urllib.request.Request(server.base_url + "/api/state", headers={"X-Token": token})
            try:
                with urllib.request.urlopen(req, timeout=0.5) as r:
                    seen.append(json.loads(r.read())["phase"]["short"])
            except (urllib.error.URLError, TimeoutError):
                seen.append("waited")
        assert "F1901M" not in seen, seen
        gate.set()
        console.join(20)
        with urllib.request.urlopen(urllib.request.Request(server.base_url + "/api/state",
                                                           headers={"X-Token": token}), timeout=20) as r:
            assert json.loads(r.read())["phase"]["short"] == "F1901M"
    finally:
        gate.set()
        server.stop()
        host.close()


# -- a window never writes over a game that changed on disk ------------------------------------------------


def test_outside_a_window_never_overwrites_a_game_serve_changed_after_it_opened_it(tmp_path: Path,
                                                                                    qapp: Any) -> None:
    from diplomacy_desktop.gui.controller import GameController

    game = tmp_path / "g.dipl"
    serve = ServeProcess(game, free_port(), "--no-passphrase", passphrase=None)
    try:
        controller = GameController()
        controller.load(game)  # the window opened the game serve is hosting
        fr = serve.tokens["france"]
        assert call(serve, "/api/order", {"power": "france", "phase": "S1901M", "text": "A Par - Bur"}, fr)[0] == 200
        assert call(serve, "/api/seal", {"power": "france", "phase": "S1901M"}, fr)[0] == 200
        assert serve.stop() == 0
    finally:
        serve.kill()
    saved = controller.save()
    assert saved == tmp_path / "g (from this window).dipl" and saved.exists()
    _g, table = load_game(game)
    assert table["phones"]["sealed"] == ["france"]  # what the phones were told is still there
    assert controller.save() == saved  # from now on the window's own file
