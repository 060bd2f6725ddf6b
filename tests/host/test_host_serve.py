"""``diplomacy-desktop serve`` as a table runs it: a subprocess on 127.0.0.1, join links printed,
Ctrl+C and SIGTERM stop it cleanly, and a host killed mid-phase comes back with every sealed
order, the phones reconnecting to it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
from serving import PASSPHRASE, ROOT, ServeProcess, free_port

from diplomacy_desktop.io.savefile import load_game

TIMEOUT = aiohttp.ClientTimeout(total=20)


def request(method: str, url: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    async def go() -> tuple[int, Any]:
        headers = {"X-Token": token} if token else {}
        async with aiohttp.ClientSession(timeout=TIMEOUT) as s, \
                s.request(method, url, headers=headers, json=body) as r:
            text = await r.text()
            try:
                return r.status, json.loads(text)
            except json.JSONDecodeError:
                return r.status, text

    return asyncio.run(go())


def test_serve_new_game_prints_a_join_link_per_power_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    game = tmp_path / "table.dipl"
    host = ServeProcess(game, free_port())
    try:
        assert set(host.links) == {"austria", "england", "france", "germany", "italy", "russia", "turkey"}
        assert all(url.startswith(f"{host.base}/t/") for url in host.links.values())
        assert len(set(host.tokens.values())) == 7
        assert request("GET", host.links["france"])[0] == 200
        assert request("GET", f"{host.base}/t/{'x' * 24}")[0] == 404
        status, out = request("POST", f"{host.base}/api/order", host.tokens["france"],
                              {"power": "france", "phase": "S1901M", "text": "A Par - Bur"})
        assert status == 200, out
        assert host.stop(signal.SIGINT) == 0
    finally:
        host.kill()
    assert "Stopped" in "".join(host.output)
    assert stat.S_IMODE(os.stat(game).st_mode) == 0o600
    saved, table = load_game(game, passphrase=PASSPHRASE)
    assert [str(o) for o in saved.orders_of("france")] == ["A par - bur"]
    assert table["phones"]["tokens"] == host.tokens


def test_serve_stops_cleanly_on_sigterm_and_frees_the_port(tmp_path: Path) -> None:
    port = free_port()
    host = ServeProcess(tmp_path / "g.dipl", port)
    try:
        assert host.stop(signal.SIGTERM) == 0
    finally:
        host.kill()
    again = ServeProcess(tmp_path / "g.dipl", port)  # the same port, straight away
    try:
        assert again.tokens == host.tokens  # the same game, the same links
    finally:
        again.stop()
        again.kill()


def test_serve_refuses_a_file_that_is_not_a_saved_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dipl"
    bad.write_text("{not a game", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "serve", str(bad), "--host", "127.0.0.1",
                           "--port", "0"], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert "bad.dipl" in proc.stderr and "Traceback" not in proc.stderr
    assert bad.read_text(encoding="utf-8") == "{not a game"


def test_serve_killed_mid_phase_restarts_with_sealed_orders_and_phones_reconnect(tmp_path: Path) -> None:
    game, port = tmp_path / "g.dipl", free_port()
    host = ServeProcess(game, port)
    france, england = host.tokens["france"], host.tokens["england"]
    try:
        for text in ("A Par - Bur", "A Mar S A Par - Bur"):
            assert request("POST", f"{host.base}/api/order", france,
                           {"power": "france", "phase": "S1901M", "text": text})[0] == 200
        assert request("POST", f"{host.base}/api/seal", france, {"power": "france", "phase": "S1901M"})[0] == 200
        assert request("POST", f"{host.base}/api/order", england,
                       {"power": "england", "phase": "S1901M", "text": "F Lon - Nth"})[0] == 200
    finally:
        host.kill()  # SIGKILL: no goodbye, no last save
    assert host.proc.returncode == -signal.SIGKILL

    async def phone_sees_its_orders_after_the_restart() -> dict[str, Any]:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as s:
            for _ in range(600):  # the page's reconnect loop: until the host is back
                try:
                    async with s.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                        await ws.send_json({"token": france})
                        msg = await ws.receive(timeout=15)
                        return dict(json.loads(msg.data))
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
        raise AssertionError("the host did not come back")

    restarted = ServeProcess(game, port)
    try:
        msg = asyncio.run(phone_sees_its_orders_after_the_restart())
        assert msg["type"] == "state"
        mine = msg["state"]["mine"]["france"]
        assert mine["sealed"] is True
        assert sorted(o["text"] for o in mine["orders"]) == ["A Mar S A Par - Bur", "A Par - Bur"]
        assert msg["state"]["sealed"] == ["france"]
        status, state = request("GET", f"{restarted.base}/api/state", england)
        assert status == 200 and [o["text"] for o in state["mine"]["england"]["orders"]] == ["F Lon - Nth"]
        assert "Par - Bur" not in json.dumps(state)
        assert restarted.stop() == 0
    finally:
        restarted.kill()


def test_serve_console_kicks_a_phone_and_reveals(tmp_path: Path) -> None:
    host = ServeProcess(tmp_path / "g.dipl", free_port())
    try:
        old = host.tokens["italy"]
        assert host.proc.stdin is not None
        host.proc.stdin.write("kick italy\n")
        host.proc.stdin.flush()
        line = host.next_line()
        assert line.strip().startswith("Italy") and "cut off" in line
        new = line.split("/t/")[1].split()[0]
        assert new != old
        assert request("GET", f"{host.base}/api/state", old)[0] == 404
        assert request("GET", f"{host.base}/api/state", new)[0] == 200
        host.proc.stdin.write("reveal S1901M\n")
        host.proc.stdin.flush()
        assert "now Fall 1901 moves" in host.next_line()
        assert host.stop() == 0
    finally:
        host.kill()


def _console(host: ServeProcess, line: str) -> str:
    assert host.proc.stdin is not None
    host.proc.stdin.write(line + "\n")
    host.proc.stdin.flush()
    return host.next_line()


def test_serve_a_bare_reveal_in_a_new_game_leaves_it_in_spring_1901(tmp_path: Path) -> None:
    """Issue 30: ``reveal`` typed before anybody wrote anything adjudicates nothing (it could be
    the phase after the one the host meant); ``reveal PHASE`` forces it, and one named for a
    phase that has ended does nothing; ``undo`` takes an adjudication back."""
    host = ServeProcess(tmp_path / "g.dipl", free_port())
    try:
        said = _console(host, "reveal")
        assert said.startswith("Not done:") and "nothing has been written or sealed in Spring 1901" in said
        assert "reveal S1901M" in said
        status, state = request("GET", f"{host.base}/api/state", host.tokens["france"])
        assert status == 200 and state["phase"]["short"] == "S1901M"
        assert "now Fall 1901 moves" in _console(host, "reveal S1901M")
        said = _console(host, "reveal S1901M")  # typed twice: the phase has ended
        assert said.startswith("Not done:") and "nothing done" in said
        assert request("GET", f"{host.base}/api/state", host.tokens["france"])[1]["phase"]["short"] == "F1901M"
        said = _console(host, "undo")
        assert "Spring 1901" in said and "taken back" in said
        assert request("GET", f"{host.base}/api/state", host.tokens["france"])[1]["phase"]["short"] == "S1901M"
        assert host.stop() == 0
        assert load_game(tmp_path / "g.dipl", passphrase=PASSPHRASE)[0].state.phase.short == "S1901M"
    finally:
        host.kill()


def test_serve_console_runs_a_clock_for_the_phones(tmp_path: Path) -> None:
    host = ServeProcess(tmp_path / "g.dipl", free_port())
    try:
        assert host.proc.stdin is not None
        host.proc.stdin.write("clock 15 Talks\n")
        host.proc.stdin.flush()
        assert host.next_line().startswith("Talks: 15 min")
        clock = request("GET", f"{host.base}/api/public")[1]["clock"]
        assert clock["title"] == "Talks" and 880 < clock["remaining"] <= 900 and clock["running"]
        host.proc.stdin.write("pause\n")
        host.proc.stdin.flush()
        assert "stopped" in host.next_line()
        assert request("GET", f"{host.base}/api/public")[1]["clock"]["running"] is False
        host.proc.stdin.write("clock soon\n")
        host.proc.stdin.flush()
        assert host.next_line().startswith("Not done")
        assert host.stop() == 0
    finally:
        host.kill()
