"""Phones hosted by the window while the window redraws (issue 16, point 5).

    python bench/bench_window_host.py [--edits 1000] [--spectators 20] [--redraw map|views] [--redraw-ms 16]

The window (MainWindow with the table installed, offscreen unless a display is set) turns
hosting on (Table ▸ Phones) on 127.0.0.1 and a free port; a second process plays seven phones
(one per power: a WebSocket and HTTP requests with the power's token) and twenty spectators
(WebSockets with no token); once all are connected the seven phones make 1,000 order edits
between them, all at once (each phone one edit after another, alternating two legal orders for
one of its units, so every edit changes the game and is saved).  Meanwhile the window redraws
every ``--redraw-ms``, besides what the phones' own edits make it redraw: ``--redraw map`` (the
default) paints the whole map, as while the map is panned or zoomed; ``--redraw views`` also
refreshes every view first (the map's picture, the panels), as after a seal -- sixty times a second,
far more than a table ever asks of it.

Figures, from the phones' side:
* round trip: an order POSTed until the host's answer arrives (the order parsed, filed in the
  window's game on the window's thread, autosaved, answered);
* pushed: the same POST until the phone's WebSocket delivers the new state holding the order.
And from the window's side: how long each of its full redraws took, and how many it made.
Target: p95 round trip <= 50 ms.  Everything runs on this machine (127.0.0.1), the phones'
process and the window sharing its cores; the run is bounded (``--timeout``) and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


# -- the phones (a process of their own, as the phones are other devices) ----------------------------


async def _spectator(session: Any, base: str, done: asyncio.Event, counts: list[int]) -> None:
    async with session.ws_connect(f"{base}/ws") as ws:
        await ws.send_json({"spectator": True})
        await ws.receive(timeout=30)
        counts[0] += 1
        while not done.is_set():  # read the pushes as a phone's browser does
            try:
                await ws.receive(timeout=0.5)
            except TimeoutError:
                pass


async def _phone(session: Any, base: str, power: str, token: str, edits: int, go: asyncio.Event,
                 trips: list[float], pushes: list[float]) -> None:
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
                if r.status != 200:
                    raise RuntimeError(f"{power}: {r.status} {answer}")
            trips.append(time.perf_counter() - t0)
            while True:  # the push carrying this very order
                msg = await ws.receive(timeout=30)
                state = json.loads(msg.data)["state"]
                if any(o["text"] == text for o in state["mine"][power]["orders"]):
                    pushes.append(time.perf_counter() - t0)
                    break


async def _clients(base: str, tokens: dict[str, str], edits: int, spectators: int) -> dict[str, Any]:
    import aiohttp

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
        for session in sessions:
            await stack.enter_async_context(session)
        watchers = [asyncio.create_task(_spectator(sessions[7 + i], base, done, counts)) for i in range(spectators)]
        while counts[0] < spectators:
            failed = [w for w in watchers if w.done() and w.exception() is not None]
            if failed:
                raise RuntimeError(f"a spectator could not connect: {failed[0].exception()!r}")
            await asyncio.sleep(0.01)
        phones = [asyncio.create_task(_phone(sessions[i], base, p, tokens[p], n, go, trips, pushes))
                  for i, (p, n) in enumerate(zip(EDITS, per_phone, strict=True))]
        await asyncio.sleep(0.5)  # every phone's WebSocket says hello first
        t0 = time.perf_counter()
        go.set()
        await asyncio.gather(*phones)
        wall = time.perf_counter() - t0
        done.set()
        await asyncio.gather(*watchers)
    return {"trips": trips, "pushes": pushes, "wall": wall}


def clients_main(base: str, tokens_json: str, edits: int, spectators: int) -> int:
    out = asyncio.run(_clients(base, json.loads(tokens_json), edits, spectators))
    print(json.dumps(out), flush=True)
    return 0


# -- the window ---------------------------------------------------------------------------------------


def window_main(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings, QTimer

    from diplomacy_desktop.gui.app import make_application
    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.gui.table.features import install_table_features
    from diplomacy_desktop.gui.table.persistence import Autosave

    app = make_application()
    with tempfile.TemporaryDirectory() as folder:
        controller = GameController()
        window = MainWindow(controller, settings=QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat))
        window.ask_before_closing = False
        features = install_table_features(window, autosave=Autosave(Path(folder) / "data"), rng=random.Random(1901),
                                          review=lambda d: True, confirm=lambda *a: True, message=lambda *a: None)
        window.resize(1280, 800)
        window.show()
        app.processEvents()
        hosting = features.turn_on(0, "127.0.0.1")  # loopback only
        assert features.phones is not None
        host = features.phones.host
        base = f"http://127.0.0.1:{hosting.bound_port}"
        tokens = {p: host.token_of(p) for p in EDITS}

        redraws: list[float] = []

        def redraw() -> None:
            """The whole map painted now (and with ``--redraw views``, every view refreshed first)."""
            t = time.perf_counter()
            if args.redraw == "views":
                controller.notify_access_changed()
            window.view.viewport().repaint()
            redraws.append(time.perf_counter() - t)

        ticker = QTimer()
        ticker.setInterval(args.redraw_ms)
        ticker.timeout.connect(redraw)
        proc = subprocess.Popen([sys.executable, __file__, "--clients", base, json.dumps(tokens),
                                 "--edits", str(args.edits), "--spectators", str(args.spectators)],
                                cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + args.timeout

        def poll() -> None:
            if proc.poll() is not None or time.monotonic() > deadline:
                app.quit()

        watcher = QTimer()
        watcher.setInterval(50)
        watcher.timeout.connect(poll)
        watcher.start()
        ticker.start()
        app.exec()
        ticker.stop()
        watcher.stop()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
            features.turn_off()
            print(f"the phones did not finish within {args.timeout:.0f} s", file=sys.stderr)
            return 2
        stdout, stderr = proc.communicate()
        features.turn_off()
        window.close()
    if proc.returncode != 0:
        print(stderr[-3000:], file=sys.stderr)
        return 2
    out = json.loads(stdout.strip().splitlines()[-1])
    ms = [t * 1000 for t in out["trips"]]
    pushed = [t * 1000 for t in out["pushes"]]
    frames = [t * 1000 for t in redraws]
    wall = out["wall"]
    print(f"{len(ms)} order edits from 7 phones with {args.spectators} spectators connected to the window, "
          f"{wall:.1f} s ({len(ms) / wall:.0f} edits/s)")
    print(f"round trip: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
          f"max {max(ms):.1f} ms  (target p95 <= 50 ms: {'met' if percentile(ms, 95) <= 50 else 'NOT met'})")
    print(f"pushed to the phone: median {statistics.median(pushed):.1f} ms, p95 {percentile(pushed, 95):.1f} ms")
    if frames:
        print(f"the window meanwhile: {len(frames)} redraws ({args.redraw}), median {statistics.median(frames):.1f} ms, "
              f"p95 {percentile(frames, 95):.1f} ms")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=1000)
    ap.add_argument("--spectators", type=int, default=20)
    ap.add_argument("--redraw", choices=("map", "views"), default="map",
                    help="what the window redraws meanwhile: the whole map, or every view and the map")
    ap.add_argument("--redraw-ms", type=int, default=16, help="the window redraws this often (ms)")
    ap.add_argument("--timeout", type=float, default=300.0, help="the whole run stops after this long (s)")
    ap.add_argument("--clients", nargs=2, metavar=("BASE", "TOKENS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.clients:
        return clients_main(args.clients[0], args.clients[1], args.edits, args.spectators)
    return window_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
