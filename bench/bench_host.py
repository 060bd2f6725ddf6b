"""The table host under a table's load, on loopback (issue 11, point 7).

    python bench/bench_host.py [--edits 1000] [--spectators 20]

A ``diplomacy-desktop serve`` subprocess (a new game in a temporary folder, 127.0.0.1), seven
phone sessions (one per power: a WebSocket and HTTP requests with the power's token) and twenty
spectators (WebSockets with no token) connected; the seven phones then make 1,000 order edits
between them, all at once (each phone one edit after another, alternating two legal orders for
one of its units, so that every edit changes something and is saved).

Two figures per edit:
* round trip: the order POSTed until the host's answer arrives (the order parsed by the window's
  parser, filed, the game saved to disk, the answer sent);
* pushed: the same POST until the phone's WebSocket delivers the new state holding the order (what
  a second device of the same player waits for).
Target: p95 round trip <= 50 ms.  The host and the clients share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "host"))

import aiohttp  # noqa: E402
from serving import ServeProcess, free_port  # noqa: E402

#: per power: a unit and two orders it alternates between
EDITS = {
    "austria": ("A Vie - Gal", "A Vie - Tyr"), "england": ("F Lon - Nth", "F Lon - Eng"),
    "france": ("A Par - Bur", "A Par - Pic"), "germany": ("A Mun - Bur", "A Mun - Ruh"),
    "italy": ("A Ven - Tyr", "A Ven - Pie"), "russia": ("A War - Gal", "A War - Ukr"),
    "turkey": ("A Con - Bul", "F Ank - Bla"),
}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def spectator(session: aiohttp.ClientSession, base: str, ready: asyncio.Event, counts: list[int]) -> None:
    async with session.ws_connect(f"{base}/ws") as ws:
        await ws.send_json({"spectator": True})
        await ws.receive(timeout=30)
        counts[0] += 1
        await ready.wait()


async def phone(session: aiohttp.ClientSession, base: str, power: str, token: str, edits: int,
                go: asyncio.Event, trips: list[float], pushes: list[float]) -> None:
    async with session.ws_connect(f"{base}/ws") as ws:
        await ws.send_json({"token": token})
        await ws.receive(timeout=30)
        await go.wait()
        texts = EDITS[power]
        for i in range(edits):
            text = texts[i % 2]
            t0 = time.perf_counter()
            async with session.post(f"{base}/api/order", headers={"X-Token": token},
                                    json={"power": power, "phase": "S1901M", "text": text}) as r:
                answer = await r.json()
                assert r.status == 200, answer
            trips.append(time.perf_counter() - t0)
            while True:  # the push carrying this very order
                msg = await ws.receive(timeout=30)
                state = json.loads(msg.data)["state"]
                if any(o["text"] == text for o in state["mine"][power]["orders"]):
                    pushes.append(time.perf_counter() - t0)
                    break


async def run(base: str, tokens: dict[str, str], edits: int, spectators: int) -> tuple[list[float], list[float]]:
    trips: list[float] = []
    pushes: list[float] = []
    go, done = asyncio.Event(), asyncio.Event()
    counts = [0]
    per_phone = [edits // 7 + (1 if i < edits % 7 else 0) for i in range(7)]
    # every device its own loopback address (127.0.0.2, .3, ...), as every phone is its own device:
    # the host limits the connections of any one address
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{2 + i}", 0)),
                                      timeout=aiohttp.ClientTimeout(total=600)) for i in range(spectators + 7)]
    async with contextlib.AsyncExitStack() as stack:
        for s in sessions:
            await stack.enter_async_context(s)
        watchers = [asyncio.create_task(spectator(sessions[7 + i], base, done, counts)) for i in range(spectators)]
        phones = [asyncio.create_task(phone(sessions[i], base, p, tokens[p], n, go, trips, pushes))
                  for i, (p, n) in enumerate(zip(EDITS, per_phone))]
        while counts[0] < spectators:
            await asyncio.sleep(0.01)
        go.set()
        await asyncio.gather(*phones)
        done.set()
        await asyncio.gather(*watchers)
    return trips, pushes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=1000)
    ap.add_argument("--spectators", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        host = ServeProcess(Path(folder) / "bench.dipl", free_port())
        try:
            t0 = time.perf_counter()
            trips, pushes = asyncio.run(run(host.base, host.tokens, args.edits, args.spectators))
            wall = time.perf_counter() - t0
        finally:
            host.stop()
            host.kill()
    ms = [t * 1000 for t in trips]
    pushed = [t * 1000 for t in pushes]
    print(f"{len(ms)} order edits from 7 phones with {args.spectators} spectators connected, {wall:.1f} s "
          f"({len(ms) / wall:.0f} edits/s)")
    print(f"round trip: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
          f"max {max(ms):.1f} ms  (target p95 <= 50 ms: {'met' if percentile(ms, 95) <= 50 else 'NOT met'})")
    print(f"pushed to the phone: median {statistics.median(pushed):.1f} ms, p95 {percentile(pushed, 95):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
