"""Red team (issue 31, second pass): the interface the phones' host listens on.  Listening on the
table's Wi-Fi address alone did not keep other networks out: Linux takes a packet for any of its
addresses on any interface, so a device on another network of the laptop's (a second card, a
VPN, a hotspot) that routes to that address reached the table (by hand: serve --host 192.0.2.2,
a client whose packets came in on another interface, lo, from 127.0.0.5, got /api/public and
/api/state with France's token, 200).  Now only the chosen interface's network is served."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest
from serving import running

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.server import HostServer, own_networks
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.pins import hash_pin


def _adapters(*ips: tuple[str, int]) -> list[SimpleNamespace]:
    return [SimpleNamespace(nice_name="test", ips=[SimpleNamespace(ip=ip, network_prefix=prefix) for ip, prefix in ips])]


def test_interface_the_networks_are_the_chosen_interfaces_own() -> None:
    nets = own_networks("192.0.2.2", _adapters(("192.0.2.2", 24), ("10.8.0.5", 24)))
    assert nets is not None
    assert any(ipaddress.ip_address("192.0.2.77") in n for n in nets)
    assert not any(ipaddress.ip_address("10.8.0.9") in n for n in nets)  # the laptop's other network
    assert not any(ipaddress.ip_address("127.0.0.5") in n for n in nets)
    assert own_networks("0.0.0.0") is None  # every interface: chosen, and said so
    loop = own_networks("127.0.0.1")
    assert loop is not None and ipaddress.ip_address("127.0.0.5") in loop[0]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableHost, HostServer]]:
    host = TableHost(Game.new(load_board("standard")), {"pins": {"france": hash_pin("5831")}}, tmp_path / "g.dipl")
    with running(host) as server:
        yield host, server


async def _get(port: int, source: str, path: str, token: str = "") -> tuple[int, str]:
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as s, \
            s.get(f"http://127.0.0.1:{port}{path}", headers={"X-Token": token}) as r:
        return r.status, await r.text()


def test_interface_a_device_on_another_network_is_refused(served: tuple[TableHost, HostServer]) -> None:
    """The chosen interface's network stands in as 127.0.0.1/32 (tests bind 127.0.0.1 only): a
    device whose address is outside it is refused at every door, the table's own network is not."""
    host, server = served
    server.app.networks = [ipaddress.ip_network("127.0.0.1/32")]
    token = next(url.rsplit("/t/", 1)[1] for power, _player, url in host.join_links("http://x") if power == "france")
    port = server.port

    async def tries() -> list[tuple[int, str]]:
        return [await _get(port, "127.0.0.9", "/api/public"),
                await _get(port, "127.0.0.9", "/api/state", token),
                await _get(port, "127.0.0.9", "/"),
                await _get(port, "127.0.0.1", "/api/public")]

    outside_public, outside_state, outside_page, inside = asyncio.run(tries())
    for status, text in (outside_public, outside_state, outside_page):
        assert status == 403 and "another network" in text, (status, text)
    assert inside[0] == 200, inside
