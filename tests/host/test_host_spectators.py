"""Issue 31, finding 5, against a real server on 127.0.0.1: token-less spectators have a small
budget of their own (a count and an idle time) and never crowd out the seats; a phone with a
valid token always gets through, even with every other connection slot held.  The server's
budgets are made small here so the test needs a few dozen sockets, not five hundred."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.server import HostServer
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board

TIMEOUT = aiohttp.ClientTimeout(total=10)
PER_CLIENT, TOTAL, SPECTATORS, SPECTATORS_PER_CLIENT = 6, 30, 8, 2


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableHost, HostServer]]:
    host = TableHost(Game.new(load_board("standard")), {}, tmp_path / "g.dipl")
    server = HostServer(host, "127.0.0.1", 0)
    gate: Any = server.gate
    gate.per_client, gate.total = PER_CLIENT, TOTAL
    gate.spectators, gate.spectators_per_client = SPECTATORS, SPECTATORS_PER_CLIENT
    server.start()
    try:
        yield host, server
    finally:
        server.stop()


def _general(server: HostServer) -> int:
    return sum(server.gate.open.values())


def _wait_until(check: Any, seconds: float = 4.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())


async def _spectate(s: aiohttp.ClientSession, base: str) -> aiohttp.ClientWebSocketResponse | None:
    """A spectator's socket if the host keeps it (its first message is the state), else None."""
    try:
        ws = await s.ws_connect(base + "/ws")
    except (aiohttp.ClientError, ConnectionError):
        return None  # cut at the door
    try:
        await ws.send_json({"spectator": True})
        msg = await ws.receive(timeout=5)
    except (aiohttp.ClientError, ConnectionError, TimeoutError):
        await ws.close()
        return None
    if msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data).get("type") == "state":
        return ws
    await ws.close()
    return None


async def _phone(base: str, token: str) -> tuple[int, dict[str, Any]]:
    """A phone on an address of its own: its state over HTTP, then its first message on a socket."""
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.60", 0), force_close=True)
    async with aiohttp.ClientSession(timeout=TIMEOUT, connector=connector) as s:
        async with s.get(base + "/api/state", headers={"X-Token": token}) as r:
            status = r.status
            await r.read()
        async with s.ws_connect(base + "/ws") as ws:
            await ws.send_json({"token": token})
            msg = await ws.receive(timeout=5)
            return status, json.loads(msg.data)


def test_spectators_have_a_budget_of_their_own_and_a_phone_always_gets_through(
        served: tuple[TableHost, HostServer]) -> None:
    host, server = served

    async def go() -> tuple[dict[str, int], tuple[int, dict[str, Any]]]:
        held: dict[str, int] = {}
        sessions, sockets = [], []
        try:
            for i in range(2, 8):  # six addresses, each as many sockets as the host lets one device hold
                address = f"127.0.0.{i}"
                s = aiohttp.ClientSession(timeout=TIMEOUT, connector=aiohttp.TCPConnector(local_addr=(address, 0)))
                sessions.append(s)
                for _ in range(PER_CLIENT):
                    ws = await _spectate(s, server.base_url)
                    if ws is not None:
                        sockets.append(ws)
                        held[address] = held.get(address, 0) + 1
            phone = await _phone(server.base_url, host.token_of("england"))
            return held, phone
        finally:
            for ws in sockets:
                await ws.close()
            for s in sessions:
                await s.close()

    held, (status, first) = asyncio.run(go())
    assert sum(held.values()) <= SPECTATORS, held
    assert max(held.values()) <= SPECTATORS_PER_CLIENT, held
    assert status == 200
    assert first["type"] == "state" and set(first["state"]["mine"]) == {"england"}


def test_held_connection_slots_never_keep_a_phone_out(served: tuple[TableHost, HostServer]) -> None:
    host, server = served
    idle: list[socket.socket] = []
    try:
        for i in range(2, 2 + TOTAL // PER_CLIENT):  # every slot held by connections that say nothing
            for _ in range(PER_CLIENT):
                idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                                     source_address=(f"127.0.0.{i}", 0)))
        assert _wait_until(lambda: _general(server) >= TOTAL), server.gate.open
        status, first = asyncio.run(_phone(server.base_url, host.token_of("france")))
    finally:
        for s in idle:
            s.close()
    assert status == 200
    assert first["type"] == "state" and set(first["state"]["mine"]) == {"france"}


def test_an_idle_spectator_is_let_go_and_its_place_freed(served: tuple[TableHost, HostServer]) -> None:
    _host, server = served
    app: Any = server.app
    app.spectator_idle = 0.3

    async def go() -> tuple[aiohttp.WSMsgType, aiohttp.WSMsgType]:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as s:
            quiet = await _spectate(s, server.base_url)
            talking = await _spectate(s, server.base_url)
            assert quiet is not None and talking is not None
            deadline = time.monotonic() + 5
            end = aiohttp.WSMsgType.TEXT
            while time.monotonic() < deadline and end == aiohttp.WSMsgType.TEXT:
                end = (await quiet.receive(timeout=max(0.1, deadline - time.monotonic()))).type
            # one that says something now and then (a keep-alive) stays
            for _ in range(4):
                await talking.send_str("{}")
                await asyncio.sleep(0.1)
            kept = aiohttp.WSMsgType.TEXT if not talking.closed else aiohttp.WSMsgType.CLOSED
            await talking.close()
            return end, kept

    end, kept = asyncio.run(go())
    assert end in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING), end
    assert kept == aiohttp.WSMsgType.TEXT
    assert _wait_until(lambda: not any(getattr(server.gate, "watching", {}).values()) and _general(server) == 0)
