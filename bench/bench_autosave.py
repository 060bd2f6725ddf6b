"""How long an order given at the laptop waits for the autosave (issue 21, build 2).

    python bench/bench_autosave.py

The window saves the game to its autosave as soon as an order is given (before the next can be
given), so that a crash a second later loses nothing.  This times that write (the whole game
and table, as ``Autosave.write`` does it, fsync included) for a game with a 1901-1910 history and
for one of 190 phases, twenty writes each.  Target: under 200 ms for the 1901-1910 game.  (The
window saves at once only while a save takes at most ``Autosaver.ORDER_SAVE_BUDGET``; longer games
are saved a moment later, so that writing orders does not slow down.)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from long_game import long_game

from diplomacy_desktop.gui.table.persistence import Autosave, Autosaver


def main() -> int:
    for phases in (0, 30, 190):
        game = long_game(phases)
        with tempfile.TemporaryDirectory() as folder:
            autosave = Autosave(Path(folder))
            times = []
            for _ in range(20):
                t0 = time.perf_counter()
                autosave.write(game, {"phones": {}}, None)
                times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        last = game.history[-1].state.phase.label if game.history else "none"
        print(f"{len(game.history):>3} phases (last adjudicated: {last}): median {statistics.median(times):.1f} ms, "
              f"p95 {times[18]:.1f} ms, max {times[-1]:.1f} ms"
              + (f"  (target < 200 ms: {'met' if times[18] < 200 else 'NOT met'})" if phases == 30 else "")
              + (f"  (above the {Autosaver.ORDER_SAVE_BUDGET * 1000:.0f} ms budget: saved a moment later)"
                 if times[10] > Autosaver.ORDER_SAVE_BUDGET * 1000 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
