"""Issue 31 (Low): one token per device.  A join by PIN gives that device a token of its own (not
the power's one shared link), the host's terminal names the device, ``kick DEVICE`` cuts off that
device alone while the power's other device and its link go on, and the devices' tokens survive
a restart of ``serve`` (kept hashed: no device's token is written in the clear).  Against a real
``serve`` on 127.0.0.1; failed before the change (a join handed out the power's one token)."""

from __future__ import annotations

import re
import signal
from pathlib import Path

from serving import ServeProcess, free_port
from test_host_serve import request

from diplomacy_desktop.io.gamestore import store_path

PIN = "5831"
DEVICE = re.compile(r": device (\w+) ")


def _console(host: ServeProcess, line: str) -> str:
    assert host.proc.stdin is not None
    host.proc.stdin.write(line + "\n")
    host.proc.stdin.flush()
    return host.next_line()


def _join(host: ServeProcess, pin: str = PIN) -> tuple[int, dict[str, str] | str]:
    status, out = request("POST", f"{host.base}/api/join", None, {"power": "france", "pin": pin})
    return status, out


def _joined_device(host: ServeProcess) -> str:
    """The device the host's terminal announced for the last join."""
    line = host.next_line()
    assert line.startswith("A new device joined France"), line
    found = DEVICE.search(line)
    assert found is not None, line
    return found.group(1)


def _state(host: ServeProcess, token: str) -> int:
    return request("GET", f"{host.base}/api/state", token)[0]


def test_a_join_gives_each_device_its_own_token_revocable_alone_and_kept_over_a_restart(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    port = free_port()
    host = ServeProcess(game, port)
    try:
        assert "new PIN" in _console(host, f"pin france {PIN}")
        link = host.tokens["france"]
        status, first = _join(host)
        assert status == 200 and isinstance(first, dict), first
        first_device = _joined_device(host)
        status, second = _join(host)
        assert status == 200 and isinstance(second, dict), second
        second_device = _joined_device(host)
        one, two = first["token"], second["token"]
        assert len({one, two, link}) == 3, "a join handed out the power's one shared token"
        assert first_device != second_device
        assert _state(host, one) == _state(host, two) == 200
        # the first device alone is cut off: the second and the power's link go on
        line = _console(host, f"kick {first_device}")
        assert "cut off" in line and first_device in line, line
        assert _state(host, one) == 404
        assert _state(host, two) == 200 and _state(host, link) == 200
        # the PIN the cut-off device knew no longer joins (until the host gives a new one)
        status, out = _join(host)
        assert status == 409 and "new PIN" in str(out)
        assert host.stop(signal.SIGINT) == 0
    finally:
        host.kill()
    saved = game.read_bytes() + store_path(game).read_bytes()
    for token in (one, two):
        assert token.encode() not in saved  # never written in the clear
    again = ServeProcess(game, port)  # the host restarts: the devices keep their tokens
    try:
        assert _state(again, two) == 200
        assert _state(again, one) == 404
        assert again.tokens["france"] == link
        # kick FRANCE still cuts off every device of the power, and its link
        line = _console(again, "kick france")
        assert line.strip().startswith("France") and "cut off" in line
        assert _state(again, two) == 404 and _state(again, link) == 404
        assert again.stop(signal.SIGINT) == 0
    finally:
        again.kill()
