"""The table host on a long game (issue 21, "as fast in 1965 as in 1901").

    python bench/bench_long_game.py [--phases 190] [--edits 700] [--spectators 50]

A game of about 190 phases (``bench/long_game.py``: 1901 to about 1980) is written to a temporary
folder and served by a ``diplomacy-desktop serve`` subprocess on 127.0.0.1.  Two figures:

* opening: from starting the command until it prints its join links (Python's start-up and the
  game opened, i.e. read, checked and its phases rebuilt); the first start of a game file and a
  restart of the same game (``serve`` stopped and started again) are measured apart;
* order edits: seven phone sessions (one per power) and fifty spectators connected, each phone
  alternating two legal orders for one of its units as fast as the host answers; the round trip
  of each POST (parsed, filed, saved, answered).  Target: p95 <= 50 ms.

Compare with a new game in the same run: ``--phases 0``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "host"))
sys.path.insert(0, str(ROOT / "bench"))

import aiohttp
from long_game import long_game
from serving import ServeProcess, free_port

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.options import all_options
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.savefile import save_game


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def edits_for(game: Game) -> dict[str, tuple[str, str]]:
    """Per power with units: two legal moves of one unit, as a phone would type them."""
    out = {}
    for power, by_unit in all_options(game.state).items():
        for options in by_unit.values():
            moves = [o for o in options if isinstance(o, Move)]
            if len(moves) >= 2:
                out[power] = (format_order(moves[0]), format_order(moves[1]))
                break
    return out


async def spectator(session: aiohttp.ClientSession, base: str, ready: asyncio.Event, counts: list[int]) -> None:
    async with session.ws_connect(f"{base}/ws") as ws:
        await ws.send_json({"spectator": True})
        await ws.receive(timeout=60)
        counts[0] += 1
        await ready.wait()


async def phone(session: aiohttp.ClientSession, base: str, power: str, token: str, phase: str,
                texts: tuple[str, str] | None, edits: int, go: asyncio.Event, trips: list[float]) -> None:
    async with session.ws_connect(f"{base}/ws") as ws:
        await ws.send_json({"token": token})
        await ws.receive(timeout=60)
        await go.wait()
        if texts is None:
            return
        for i in range(edits):
            t0 = time.perf_counter()
            async with session.post(f"{base}/api/order", headers={"X-Token": token},
                                    json={"power": power, "phase": phase, "text": texts[i % 2]}) as r:
                answer = await r.json()
                assert r.status == 200, answer
            trips.append(time.perf_counter() - t0)


async def run(base: str, tokens: dict[str, str], phase: str, edits: dict[str, tuple[str, str]], count: int,
              spectators: int) -> list[float]:
    trips: list[float] = []
    go, done = asyncio.Event(), asyncio.Event()
    counts = [0]
    per_phone = count // max(1, len(edits))
    # every device its own loopback address (127.0.0.2, .3, ...), as every phone is its own device:
    # the host limits the connections of any one address (with one address this benchmark hung)
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{2 + i}", 0)),
                                      timeout=aiohttp.ClientTimeout(total=900)) for i in range(spectators + 7)]
    async with contextlib.AsyncExitStack() as stack:
        for s in sessions:
            await stack.enter_async_context(s)
        watchers = [asyncio.create_task(spectator(sessions[7 + i], base, done, counts)) for i in range(spectators)]
        phones = [asyncio.create_task(phone(sessions[i], base, p, tokens[p], phase, edits.get(p), per_phone, go,
                                            trips)) for i, p in enumerate(tokens)]
        while counts[0] < spectators:
            await asyncio.sleep(0.01)
        go.set()
        await asyncio.gather(*phones)
        done.set()
        await asyncio.gather(*watchers)
    return trips


def opening(path: Path) -> tuple[float, ServeProcess]:
    t0 = time.perf_counter()
    host = ServeProcess(path, free_port(), "--no-passphrase", timeout=300, passphrase=None)
    return time.perf_counter() - t0, host


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=190)
    ap.add_argument("--edits", type=int, default=700)
    ap.add_argument("--spectators", type=int, default=50)
    args = ap.parse_args()
    game = long_game(args.phases)
    edits = edits_for(game)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.dipl"
        save_game(path, game)
        size = path.stat().st_size
        first, host = opening(path)
        host.stop()
        host.kill()
        again, host = opening(path)
        try:
            t0 = time.perf_counter()
            trips = asyncio.run(run(host.base, host.tokens, game.state.phase.short, edits, args.edits,
                                    args.spectators))
            wall = time.perf_counter() - t0
        finally:
            host.stop()
            host.kill()
    ms = [t * 1000 for t in trips]
    print(f"a game of {len(game.history)} phases (now {game.state.phase.label}), {size // 1024} KB saved")
    print(f"opening (the command until its links): first {first:.2f} s, again {again:.2f} s  (target <= 1 s)")
    print(f"{len(ms)} order edits from {len(edits)} phones with units (7 connected) and {args.spectators} spectators, "
          f"{wall:.1f} s ({len(ms) / wall:.0f} edits/s)")
    print(f"round trip: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
          f"p99 {percentile(ms, 99):.1f} ms  (target p95 <= 50 ms: {'met' if percentile(ms, 95) <= 50 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
