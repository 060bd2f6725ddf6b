"""How long an order given at the laptop waits for the autosave (issue 21, build 2).

    python bench/bench_autosave.py

The window writes the game to its autosave as soon as an order is given (before the next can be
given), so that a crash a second later loses nothing.  The autosave is the live game in SQLite
(``table.autosave.Autosave`` over ``io.gamestore``): the first write after a start writes the
game whole, and each order given after it writes one row, committed before ``write`` returns.
This times both, as the window does them (``Autosave.write`` with the whole game and table: the
difference is found and written), for a new game, a game with a 1901-1910 history, one of 190
phases, and the 1901-1910 one played in secret (its rows encrypted under a passphrase's key):
forty orders given each.  Target: under 200 ms for the 1901-1910 game.  (The window writes every
operation of the table service at once, before its views or the phones hear of it, as ``serve``
does: this is what an order given costs the table.)
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

from diplomacy_desktop.engine.options import all_options
from diplomacy_desktop.engine.orders import Order
from diplomacy_desktop.gui.table.persistence import Autosave
from diplomacy_desktop.io import vault as vault_module
from diplomacy_desktop.io.vault import Vault


def _orders(game: object) -> list[Order]:
    """Legal orders of the phase being played, two per unit where there are two, alternating."""
    out: list[Order] = []
    for by_unit in all_options(game.state).values():  # type: ignore[attr-defined]
        for options in by_unit.values():
            out += list(options[:2])
    return out


def main() -> int:
    vault_module.KDF_N = 2 ** 12  # the passphrase's key derivation is not what is timed
    for phases, secret in ((0, False), (30, False), (30, True), (190, False)):
        game = long_game(phases)
        vault = Vault.create("correct horse battery") if secret else None
        orders = _orders(game)
        table = {"phones": {}}
        with tempfile.TemporaryDirectory() as folder:
            autosave = Autosave(Path(folder))
            t0 = time.perf_counter()
            autosave.write(game, table, None, vault=vault)
            whole = (time.perf_counter() - t0) * 1000
            times = []
            for i in range(40):
                game.set_order(orders[i % len(orders)])
                t0 = time.perf_counter()
                autosave.write(game, table, None, vault=vault)
                times.append((time.perf_counter() - t0) * 1000)
            autosave.close()
            kept = Autosave(Path(folder)).open(vault=vault).game
            assert kept.all_orders() == game.all_orders(), "the autosave does not hold the orders given"
        times.sort()
        p95 = times[round(0.95 * (len(times) - 1))]
        last = game.history[-1].state.phase.label if game.history else "none"
        print(f"{len(game.history):>3} phases (last adjudicated: {last}){' secret' if secret else ''}: "
              f"an order given: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, "
              f"max {times[-1]:.1f} ms; the first write (the game whole) {whole:.0f} ms"
              + (f"  (target < 200 ms: {'met' if p95 < 200 else 'NOT met'})" if phases == 30 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
