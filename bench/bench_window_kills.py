"""``kill -9`` of the game window while it hosts phones (issue 21: "acknowledged means durable").

    python bench/bench_window_kills.py [--kills 100]

Each round starts the real window (``bench/window_host_driver.py``: offscreen, its autosave in a
temporary folder, the autosaved game resumed as at every start after the first), seven phones
(threads on 127.0.0.1) write orders as fast as the window answers, now and then seal or unseal,
and after a random 0.3 to 2 s the window is killed with SIGKILL.  Then the autosave is read and
checked: every order a phone was told was "Given" is there (or an order sent after it, whose
answer never came), and every power a phone was told was "sealed" is sealed.  Prints the
acknowledged drafts and seals and how many were lost (the target: none).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "host"))

from serving import free_port

from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.table.autosave import Autosave

EDITS = {
    "austria": ("A Vie - Gal", "A Vie - Tyr"), "england": ("F Lon - Nth", "F Lon - Eng"),
    "france": ("A Par - Bur", "A Par - Pic"), "germany": ("A Mun - Bur", "A Mun - Ruh"),
    "italy": ("A Ven - Tyr", "A Ven - Pie"), "russia": ("A War - Gal", "A War - Ukr"),
    "turkey": ("A Con - Bul", "F Ank - Bla"),
}
UNIT = {"austria": "vie", "england": "lon", "france": "par", "germany": "mun", "italy": "ven", "russia": "war",
        "turkey": None}


def post(base: str, path: str, token: str, body: dict[str, Any]) -> int:
    req = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Token": token})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            r.read()
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


class Phone:
    """One power's phone: what it sent and what it was told."""

    def __init__(self, power: str) -> None:
        self.power = power
        self.sent: list[tuple[str, bool]] = []  # (order text, acknowledged)
        self.sealed = False  # the last seal or unseal acknowledged
        self.unsealing = False  # an unseal was sent after it, and its answer never came
        self.acked_drafts = 0
        self.acked_seals = 0

    def run(self, base: str, token: str, phase: str, stop: threading.Event, rng: random.Random) -> None:
        texts = EDITS[self.power]
        i = 0
        try:
            if self.sealed:
                self.unseal(base, token, phase)
            while not stop.is_set():
                if not self.sealed and rng.random() < 0.1:
                    if post(base, "/api/seal", token, {"power": self.power, "phase": phase}) == 200:
                        self.sealed = True
                        self.acked_seals += 1
                    continue
                if self.sealed:
                    self.unseal(base, token, phase)
                    continue
                text = texts[i % 2]
                i += 1
                self.sent.append((text, False))
                if post(base, "/api/order", token, {"power": self.power, "phase": phase, "text": text}) == 200:
                    self.sent[-1] = (text, True)
                    self.acked_drafts += 1
        except (OSError, urllib.error.URLError):
            pass  # the window was killed (an unseal in flight stays "unsealing")

    def unseal(self, base: str, token: str, phase: str) -> None:
        self.unsealing = True
        if post(base, "/api/unseal", token, {"power": self.power, "phase": phase}) == 200:
            self.sealed = False
        self.unsealing = False

    def lost(self, saved_orders: list[str], saved_sealed: bool) -> list[str]:
        out = []
        acked = [k for k, (_, ok) in enumerate(self.sent) if ok]
        if acked:
            last = acked[-1]
            allowed = {t for t, _ in self.sent[last:]}  # the acknowledged one, or one sent after it
            if not allowed & set(saved_orders):
                out.append(f"{self.power}: given {self.sent[last][0]!r}, the autosave has {saved_orders}")
        if self.sealed and not self.unsealing and not saved_sealed:
            out.append(f"{self.power}: told 'sealed', not sealed in the autosave")
        return out


def one_round(data: Path, phones: dict[str, Phone], rng: random.Random) -> tuple[list[str], float]:
    port = free_port()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "window_host_driver.py"), str(data), str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = ""
    t0 = time.perf_counter()
    while not line.startswith("READY"):
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the window did not start")
    started = time.perf_counter() - t0
    _, base, phase, *pairs = line.split()
    tokens = dict(p.split("=", 1) for p in pairs)
    stop = threading.Event()
    threads = [threading.Thread(target=ph.run, args=(base, tokens[p], phase, stop, random.Random(rng.random())),
                                daemon=True) for p, ph in phones.items()]
    for t in threads:
        t.start()
    time.sleep(rng.uniform(0.3, 2.0))
    os.kill(proc.pid, signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join(15)
    proc.wait(15)
    game, table = Autosave(data).load()  # the live game in SQLite, as a restart finds it
    sealed = set(table.get("hotseat", {}).get("sealed", []))  # the window's one record of who sealed
    lost = []
    for p, ph in phones.items():
        saved = [format_order(o) for o in game.orders_of(p)]
        lost += ph.lost(saved, p in sealed)
    return lost, started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    phones = {p: Phone(p) for p in EDITS}
    losses: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        data.mkdir()
        for k in range(args.kills):
            lost, started = one_round(data, phones, rng)
            losses += lost
            for ph in phones.values():  # the next round starts from what the autosave holds
                ph.sent = [(t, ok) for t, ok in ph.sent[-1:]] if ph.sent else []
            print(f"kill {k + 1}: window up in {started:.1f} s; lost so far {len(losses)}", flush=True)
            for line in lost:
                print("  LOST", line, flush=True)
    drafts = sum(ph.acked_drafts for ph in phones.values())
    seals = sum(ph.acked_seals for ph in phones.values())
    print(f"{args.kills} kill -9s of the window hosting 7 phones: {drafts} drafts and {seals} seals acknowledged, "
          f"{len(losses)} lost")
    for line in losses[:20]:
        print("  LOST", line)
    return 1 if losses else 0


if __name__ == "__main__":
    raise SystemExit(main())
