"""Issue 21, "acknowledged means durable", for ``serve`` and the table host: a change is
answered, and shown to any phone, only once it is on disk; a change that cannot be written
(a full disk) is answered 507 and taken back, so every phone shows what the file holds; ``serve``
on a full disk says so and exits 1, never "the game is in ..." for a game it could not write."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from serving import ROOT, free_port, running

from diplomacy_desktop.host import table as host_table
from diplomacy_desktop.host.server import HostServer
from diplomacy_desktop.host.table import SaveFailedError, TableHost
from diplomacy_desktop.io.savefile import load_game

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
TIMEOUT = aiohttp.ClientTimeout(total=20)
WRAPPER = Path(__file__).with_name("full_disk_serve.py")


class Disk:
    """The host's writes: fail as on a full disk while ``full``; wait for ``gate`` when set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.gate: threading.Event | None = None
        self.writes = 0
        real = host_table.write_atomic

        def write_atomic(path: Path, text: Any, **kw: Any) -> None:
            if self.gate is not None:
                self.gate.wait(20)
            if self.full:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            real(path, text, **kw)
            self.writes += 1

        monkeypatch.setattr(host_table, "write_atomic", write_atomic)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableHost, HostServer]]:
    host = TableHost.open_or_new(tmp_path / "g.dipl")
    with running(host) as server:
        yield host, server


def post(server: HostServer, path: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    async def go() -> tuple[int, Any]:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as s, \
                s.post(server.base_url + path, headers={"X-Token": token}, json=body) as r:
            return r.status, json.loads(await r.text())

    return asyncio.run(go())


def test_host_durable_a_seal_that_cannot_be_written_is_507_and_no_phone_shows_it(
        served: tuple[TableHost, HostServer], monkeypatch: pytest.MonkeyPatch) -> None:
    host, server = served
    disk = Disk(monkeypatch)
    fr = host.token_of("france")
    assert post(server, "/api/order", fr, {"power": "france", "phase": "S1901M", "text": "A Par - Bur"})[0] == 200
    disk.full = True
    status, out = post(server, "/api/seal", fr, {"power": "france", "phase": "S1901M"})
    assert status == 507 and "not saved" in out["error"] and "no space left" in out["error"]
    assert host.sealed == [] and host.save_failures == 1
    assert host.state_for(host.token_of("england"))["sealed"] == []  # what every phone reads
    status, out = post(server, "/api/order", fr, {"power": "france", "phase": "S1901M", "text": "A Mar - Spa"})
    assert status == 507
    assert [str(o) for o in host.game.orders_of("france")] == ["A par - bur"]  # as on disk
    disk.full = False
    assert post(server, "/api/seal", fr, {"power": "france", "phase": "S1901M"})[0] == 200
    _game, saved = load_game(host.path)  # type: ignore[arg-type]
    assert saved["phones"]["sealed"] == ["france"]


def test_host_durable_a_reveal_reaches_the_phones_only_once_it_is_on_disk(
        served: tuple[TableHost, HostServer], monkeypatch: pytest.MonkeyPatch) -> None:
    host, server = served
    disk = Disk(monkeypatch)

    async def go() -> None:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as s, s.ws_connect(server.base_url + "/ws") as watcher:
            await watcher.send_json({"spectator": True})
            first = json.loads((await watcher.receive(timeout=15)).data)
            assert first["state"]["phase"]["short"] == "S1901M"
            for p in POWERS[:-1]:
                async with s.post(server.base_url + "/api/seal", headers={"X-Token": host.token_of(p)},
                                  json={"power": p, "phase": "S1901M"}) as r:
                    assert r.status == 200
            disk.gate = threading.Event()  # the last seal's write hangs until the gate opens
            last = asyncio.ensure_future(s.post(server.base_url + "/api/seal",
                                                headers={"X-Token": host.token_of("turkey")},
                                                json={"power": "turkey", "phase": "S1901M"}))
            seen: list[str] = []
            try:
                while True:  # nothing about the new phase while it is not written
                    msg = await watcher.receive(timeout=1.5)
                    seen.append(json.loads(msg.data)["state"]["phase"]["short"])
            except TimeoutError:
                pass
            assert host.game.state.phase.short == "F1901M"  # adjudicated in memory...
            assert "F1901M" not in seen  # ...but no phone has heard of it
            disk.gate.set()
            async with await last as r:
                assert r.status == 200
            while True:
                state = json.loads((await watcher.receive(timeout=15)).data)["state"]
                if state["phase"]["short"] == "F1901M":
                    break

    asyncio.run(go())


def test_host_durable_without_a_server_a_failed_save_takes_the_change_back(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    host = TableHost.open_or_new(tmp_path / "g.dipl")
    disk = Disk(monkeypatch)

    disk.full = True
    heard: list[str] = []
    host.add_listener(lambda c: heard.append(c.kind), on_disk=True)
    with pytest.raises(SaveFailedError):
        host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven - Tyr")
    assert host.game.orders_of("italy") == [] and heard == ["restored"]
    assert disk.writes == 0
    assert errno.ENOSPC and os.strerror  # (the fault: Disk's full write)


def _serve(tmp_path: Path, game: Path, flag: Path, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "FULL_DISK_FLAG": str(flag)}
    return subprocess.Popen([sys.executable, str(WRAPPER), "serve", str(game), "--no-passphrase", "--host", "127.0.0.1",
                             "--port", str(port)], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_host_durable_serve_a_new_game_on_a_full_disk_is_one_line_and_exit_1(tmp_path: Path) -> None:
    flag = tmp_path / "full"
    flag.touch()
    proc = _serve(tmp_path, tmp_path / "new.dipl", flag, free_port())
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (out, err)
    assert err.splitlines()[-1] == (f"diplomacy-desktop serve: cannot write {tmp_path / 'new.dipl'}: no space left; "
                                    "nothing is served")
    assert "Traceback" not in out + err and not (tmp_path / "new.dipl").exists()


def test_host_durable_serve_stopped_after_a_failed_save_says_so_and_exits_1(tmp_path: Path) -> None:
    import signal

    from serving import LINK

    flag = tmp_path / "full"
    game = tmp_path / "g.dipl"
    port = free_port()
    proc = _serve(tmp_path, game, flag, port)
    try:
        tokens = {}
        assert proc.stdout is not None
        for line in proc.stdout:
            m = LINK.match(line)
            if m:
                tokens[m.group(1).lower()] = m.group(3)
            if line.startswith("Commands:"):
                break
        base = f"http://127.0.0.1:{port}"

        async def seal() -> int:
            async with aiohttp.ClientSession(timeout=TIMEOUT) as s, \
                    s.post(base + "/api/seal", headers={"X-Token": tokens["france"]},
                           json={"power": "france", "phase": "S1901M"}) as r:
                return r.status

        flag.touch()
        assert asyncio.run(seal()) == 507
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1, (out, err)
    assert "Stopped; the game is in" not in out
    assert "1 change could not be saved (no space left) and was taken back" in err
    assert "Traceback" not in out + err
    flag.unlink()
    _g, saved = load_game(game)
    assert saved["phones"]["sealed"] == []
