"""Engine benchmarks, side by side with the ``diplomacy`` package from PyPI (issue 2, point 11).

    pip install -r bench/requirements.txt
    python bench/bench_engine.py [--positions 8] [--cases 1000] [--runs 5]

Three measurements, each against the ``diplomacy`` package doing the same work in the same run:

a. a full-board movement phase (34 units, every unit ordered: moves, supports, convoys,
   bounces): ``engine.movement.adjudicate_movement`` with the orders already parsed, against
   ``Game.process()`` alone with the orders already set.  Target: 4x faster (median per phase).
b. the legal options of a full-board position: ``engine.options.all_options`` against
   ``Game.get_all_possible_orders()``.  Target: 10x faster.  Also shown, without a target: our
   first call on a position never seen before (the per-board order pool then has to build the
   orders it has not handed out yet).
c. the command line: 1,000 mid-game positions with their orders in one DATC-format file,
   ``python -m diplomacy_desktop.cli adjudicate FILE --json`` against
   ``bench/diplomacy_adjudicate.py FILE`` (whole processes, start-up included, each run once
   untimed first so that both have their bytecode compiled, as installed packages do).
   Target: 10x faster.

Both engines get identical positions and orders, and the run checks that they agree on the
resulting positions before it reports a time (c. explains every case where they differ).  Each
of our timed calls gets a freshly built ``GameState``, so nothing cached on a position object
can flatter the figures; ours and theirs are timed in alternation, so both see the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from importlib.metadata import version
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

import diplomacy
from positions import BenchCase, as_scenarios, diplomacy_order, full_board_cases, mid_game_cases

from diplomacy_desktop.engine.movement import adjudicate_movement
from diplomacy_desktop.engine.options import all_options
from diplomacy_desktop.engine.orders import Move, SupportMove
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.rules import CLASSIC
from diplomacy_desktop.engine.state import GameState
from diplomacy_desktop.engine.validation import retreat_destinations
from diplomacy_desktop.io.boardfile import load_board

UnitKey = tuple[str, str, str]
Position = tuple[set[UnitKey], set[UnitKey]]  # units on the board, dislodged units


# -- the other engine -----------------------------------------------------------------------


def load_diplomacy(case: BenchCase) -> diplomacy.Game:
    """A ``diplomacy.Game`` holding the case's position with its orders set."""
    game = diplomacy.Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(case.state.phase.short)
    for power in case.state.board.power_ids:
        game.set_units(power.upper(), [f"{u.kind} {u.location.upper()}"
                                       for u in case.state.units.values() if u.power == power])
        game.set_centers(power.upper(), [c.upper() for c, p in case.state.owners.items() if p == power])
    for power in case.state.board.power_ids:
        game.set_orders(power.upper(), [diplomacy_order(o) for o in case.orders if o.power == power])
    return game


def diplomacy_position(game: diplomacy.Game) -> Position:
    units = {(name.lower(), u[0], u[2:].lower()) for name, p in game.powers.items() for u in p.units}
    dislodged = {(name.lower(), u[0], u[2:].lower()) for name, p in game.powers.items() for u in p.retreats}
    return units, dislodged


def fresh(state: GameState) -> GameState:
    return GameState.build(state.board, state.phase, state.units.values(), state.owners)


# -- do the engines agree? --------------------------------------------------------------------


def difference(case: BenchCase, theirs: Position) -> str | None:
    """None when the engines agree on the position after ``case``, else why they differ."""
    after = adjudicate_movement(case.state, case.orders, CLASSIC)
    units = {(u.power, u.kind, u.location) for u in after.state.units.values()}
    dislodged = {(d.unit.power, d.unit.kind, d.unit.location) for d in after.state.dislodged}
    if (units, dislodged) == theirs:
        return None
    # the diplomacy package disbands at once a dislodged unit that has nowhere to retreat
    doomed = {(d.unit.power, d.unit.kind, d.unit.location) for d in after.state.dislodged
              if not retreat_destinations(after.state, d.province)}
    if units == theirs[0] and dislodged - doomed == theirs[1] - doomed:
        return None
    if _own_support_counted(case, after.results, units ^ theirs[0]):
        return "own_support"
    return "unexplained"


def _own_support_counted(case: BenchCase, results: tuple, changed: set[UnitKey]) -> bool:
    """Whether a convoyed army bounced off a unit whose own power supported the attack.

    DATC 6.D.12: support from the attacked unit's own power does not count towards dislodging
    it.  The ``diplomacy`` package counts it when the attacker comes by convoy, so it moves the
    army in; the difference is then in the attacked space.
    """
    board = case.state.board
    changed_provinces = {loc.split("/")[0] for _, _, loc in changed}
    for r in results:
        move = r.order
        if not isinstance(move, Move) or r.outcome is not Outcome.FAILURE:
            continue
        convoyed = move.via_convoy or move.target_province not in board.army_moves.get(move.province, ())
        defender = case.state.units.get(move.target_province)
        if not convoyed or defender is None or move.target_province not in changed_provinces:
            continue
        if any(isinstance(o, SupportMove) and o.power == defender.power and o.target_province == move.province
               and o.destination_province == move.target_province for o in case.orders):
            return True
    return False


# -- timing -----------------------------------------------------------------------------------


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bench_movement(cases: list[BenchCase], rounds: int) -> tuple[float, float]:
    """Median ms per full-board phase: ours, theirs (five of ours to one of theirs per round)."""
    ours: list[float] = []
    theirs: list[float] = []
    for case in cases:
        game = load_diplomacy(case)
        game.process()
        why = difference(case, diplomacy_position(game))
        if why is not None:
            raise SystemExit(f"{case.name}: the engines disagree ({why}); choose other positions")
        for _ in range(rounds):
            for _ in range(5):
                ours.append(timed(partial(adjudicate_movement, fresh(case.state), case.orders, CLASSIC)))
            game = load_diplomacy(case)
            theirs.append(timed(game.process))
    return median_ms(ours), median_ms(theirs)


def bench_options(cases: list[BenchCase], rounds: int) -> tuple[float, float]:
    """Median ms for all legal options of a full-board position: ours, theirs."""
    ours: list[float] = []
    theirs: list[float] = []
    for case in cases:
        game = load_diplomacy(case)
        all_options(case.state)  # as in a running app: this board's orders have been offered before
        game.get_all_possible_orders()  # and its caches warm, to be fair to it
        for _ in range(rounds):
            for _ in range(5):
                ours.append(timed(partial(all_options, fresh(case.state))))
            theirs.append(timed(game.get_all_possible_orders))
    return median_ms(ours), median_ms(theirs)


def bench_options_first(cases: list[BenchCase]) -> tuple[float, float]:
    """Median ms of the first call on positions never seen before: ours, theirs."""
    ours: list[float] = []
    theirs: list[float] = []
    for case in cases:
        ours.append(timed(partial(all_options, fresh(case.state))))
        theirs.append(timed(load_diplomacy(case).get_all_possible_orders))
    return median_ms(ours), median_ms(theirs)


def run_process(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or not proc.stdout.startswith("["):
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed, proc.stdout


def bench_cli(cases: list[BenchCase], runs: int, workdir: Path) -> tuple[float, float, dict[str, list[str]]]:
    """Median seconds per whole process: ours, theirs; and the cases where the engines differ."""
    board = cases[0].state.board
    path = workdir / "bench_positions.txt"
    path.write_text(as_scenarios(cases, board), encoding="utf-8")
    ours_cmd = [sys.executable, "-m", "diplomacy_desktop.cli", "adjudicate", str(path), "--json"]
    theirs_cmd = [sys.executable, str(BENCH / "diplomacy_adjudicate.py"), str(path)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    _, ours_out = run_process(ours_cmd, env)  # untimed: compiles our bytecode, as an install does
    _, theirs_out = run_process(theirs_cmd, env)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        ours.append(run_process(ours_cmd, env)[0])
        theirs.append(run_process(theirs_cmd, env)[0])
    return statistics.median(ours), statistics.median(theirs), _compare(cases, ours_out, theirs_out)


def _compare(cases: list[BenchCase], ours_out: str, theirs_out: str) -> dict[str, list[str]]:
    ours, theirs = json.loads(ours_out), json.loads(theirs_out)
    if not len(ours) == len(theirs) == len(cases):
        raise SystemExit(f"expected {len(cases)} cases, got {len(ours)} (ours) and {len(theirs)} (theirs)")
    differ: dict[str, list[str]] = {}
    for case, a, b in zip(cases, ours, theirs):
        if "error" in a:
            raise SystemExit(f"case {a['case']}: {a['error']}")

        def keys(units: list[dict[str, str]]) -> set[UnitKey]:
            return {(u["power"], "A" if u["type"] == "army" else "F", u["location"]) for u in units}

        if (keys(a["units"]), keys(a["dislodged"])) == (keys(b["units"]), keys(b["dislodged"])):
            continue
        why = difference(case, (keys(b["units"]), keys(b["dislodged"])))
        if why is not None:
            differ.setdefault(why, []).append(case.name)
    return differ


# -- report -----------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, diplomacy {version('diplomacy')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=8, help="full-board positions for a. and b.")
    parser.add_argument("--cases", type=int, default=1000, help="positions in the command-line file for c.")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command for c.")
    args = parser.parse_args()

    board = load_board("standard")
    print(f"machine: {machine()}")
    full = full_board_cases(board, args.positions)
    unseen = full_board_cases(board, 40, seed=1001)
    mid = mid_game_cases(board, args.cases)
    print(f"a./b.: {len(full)} full-board positions (34 units, {sum(len(c.orders) for c in full)} orders); "
          "the engines agree on every result")
    move_ours, move_theirs = bench_movement(full, rounds=60)
    opt_ours, opt_theirs = bench_options(full, rounds=40)
    first_ours, first_theirs = bench_options_first(unseen)
    with tempfile.TemporaryDirectory() as tmp:
        cli_ours, cli_theirs, differ = bench_cli(mid, args.runs, Path(tmp))
    explained = len(differ.get("own_support", []))
    print(f"c.: {len(mid)} mid-game positions, {sum(len(c.orders) for c in mid)} orders; the engines agree on "
          f"{len(mid) - sum(len(v) for v in differ.values())}; {explained} differ because the diplomacy package "
          "counts a power's support for a convoyed attack on its own unit (DATC 6.D.12)")
    for name in differ.get("unexplained", []):
        print(f"  {name}: the engines differ, reason unknown")

    rows = [
        ("a. full-board movement phase", move_ours, move_theirs, "ms", 4.0),
        ("b. legal options, full board", opt_ours, opt_theirs, "ms", 10.0),
        ("   first call, unseen position", first_ours, first_theirs, "ms", None),
        (f"c. CLI, {len(mid)} positions", cli_ours, cli_theirs, "s", 10.0),
    ]
    print()
    print("| benchmark | ours | diplomacy | ratio | target | result |")
    print("|---|---:|---:|---:|---:|---|")
    failed = 0
    for name, ours, theirs, unit, target in rows:
        ratio = theirs / ours
        if target is None:
            verdict, goal = "(no target)", "-"
        else:
            verdict, goal = ("PASS" if ratio >= target else "FAIL"), f"{target:.0f}x"
            failed += ratio < target
        print(f"| {name.strip()} | {ours:.3f} {unit} | {theirs:.3f} {unit} | {ratio:.1f}x | {goal} | {verdict} |")
    if differ.get("unexplained"):
        print("FAIL: the engines disagree on some positions for an unknown reason")
        failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
