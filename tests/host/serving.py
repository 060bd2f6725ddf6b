"""A ``diplomacy-desktop serve`` subprocess on 127.0.0.1, for the tests and the benchmark."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: the passphrase every test host uses unless told otherwise
PASSPHRASE = "the table's test passphrase"
LINK = re.compile(r"^\s+(\w+)\s+(http://\S+/t/(\S+))")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """``serve`` running in a subprocess; ``links`` maps a power's name to its join URL."""

    def __init__(self, game: Path, port: int, *extra: str, timeout: float = 60.0,
                 passphrase: str | None = PASSPHRASE) -> None:
        self.game, self.port = game, port
        self.passphrase = passphrase
        # PYTHONFAULTHANDLER: a host that does not stop is aborted and prints where each thread was
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"}
        if passphrase is not None:  # kept outside the game's folder
            folder = Path(tempfile.mkdtemp(prefix="serve-pass-"))
            (folder / "passphrase").write_text(passphrase + "\n", encoding="utf-8")
            extra = ("--passphrase-file", str(folder / "passphrase"), *extra)
        self.proc = subprocess.Popen([sys.executable, "-m", "diplomacy_desktop", "serve", str(game),
                                      "--host", "127.0.0.1", "--port", str(port), *extra],
                                     cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.links: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                self.kill()
                raise RuntimeError("serve did not start: " + "".join(self.output)) from None
            if line is None:
                raise RuntimeError("serve stopped: " + "".join(self.output) + self.proc.stderr.read())
            m = LINK.match(line)
            if m:
                self.links[m.group(1).lower()] = m.group(2)
                self.tokens[m.group(1).lower()] = m.group(3)
            if line.startswith("Commands:"):
                break
        self.base = f"http://127.0.0.1:{port}"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def next_line(self, timeout: float = 30.0) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "serve stopped"
        return line

    def stop(self, sig: int = signal.SIGINT, timeout: float = 60.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGABRT)  # the fault handler prints every thread's stack
            self.proc.wait(30)
            err = self.proc.stderr.read() if self.proc.stderr is not None else ""
            raise AssertionError(f"serve did not stop within {timeout:g} s of signal {sig}; its threads:\n{err}") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)


def call(serve: ServeProcess, path: str, body: dict[str, Any] | None = None, token: str = "",
         raw: bytes | None = None) -> tuple[int, Any]:
    """A request to the running ``serve``: its HTTP status and the JSON it answered."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(serve.base + path, data=data,
                                 headers={"X-Token": token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@contextlib.contextmanager
def running(host: Any) -> Iterator[Any]:
    """``host`` (a ``TableHost``) served on 127.0.0.1 by an in-process ``HostServer`` on a free port,
    stopped on leaving."""
    from diplomacy_desktop.host.server import HostServer

    server = HostServer(host, "127.0.0.1", 0)
    server.start()
    try:
        yield server
    finally:
        server.stop()
