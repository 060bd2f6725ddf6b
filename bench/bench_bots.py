"""The computer players' strength and speed (issue 33).

    PYTHONPATH=. python bench/bench_bots.py [--seeds 20] [--level-seeds 2] [--only hold,random,levels,time]

Tables (markdown, to paste into bench/RESULTS.md):

1. each power as the bot (club) against six holding powers, then six random powers: solos out
   of the seeds and the median year of the solo (games to 1912 against holding, 1915 random);
2. the levels 1 against 6 (every power in turn, centres at the end of 1910): a level alone
   against six of another, and the other way round;
3. time per power per phase (movement, retreats and adjustments together) per level: median and
   95th percentile, on one core.

Every order of every game is checked against the engine's legal options as it is played.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from diplomacy_desktop.bots import Bot, seat_orders
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.options import power_options
from diplomacy_desktop.io.boardfile import load_board

BOARD = load_board()
POWERS = BOARD.power_ids
TIMES: dict[str, list[float]] = {}
CHECKED = [0]


def _legal(game: Game, power: str, orders: list) -> None:  # type: ignore[type-arg]
    legal = {o for os in power_options(game.state, power).values() for o in os}
    for o in orders:
        if o not in legal:
            raise SystemExit(f"ILLEGAL {game.state.phase.short} {power}: {o}")
        CHECKED[0] += 1


def play(seats: dict[str, str], levels: dict[str, str], until: int, seed: int) -> Game:
    game = Game.new(BOARD)
    while not game.is_over and game.state.phase.year <= until:
        state = game.state
        for power in POWERS:
            kind = seats[power]
            started = time.perf_counter()
            orders = seat_orders(kind, state, power, level=levels.get(power, "club"), seed=seed)
            if kind == "bot" and state.units_of(power) + [d.unit for d in state.dislodged if d.unit.power == power]:
                TIMES.setdefault(levels.get(power, "club"), []).append(time.perf_counter() - started)
            _legal(game, power, orders)
            for o in orders:
                game.set_order(o)
        game.adjudicate()
    return game


def solo_table(others: str, until: int, seeds: int) -> list[str]:
    rows = [f"| bot (club) vs 6 {others}, to {until} | solos / {seeds} | median solo year | mean centres |",
            "|---|---|---|---|"]
    for power in POWERS:
        years, centres = [], []
        for seed in range(seeds):
            seats = {p: others for p in POWERS} | {power: "bot"}
            game = play(seats, {}, until, seed)
            end = game.ended
            centres.append(game.state.centre_counts().get(power, 0))
            if end is not None and end.kind == "victory" and end.winners == (power,):
                years.append(game.history[-1].state.phase.year)
        med = statistics.median(years) if years else "-"
        rows.append(f"| {BOARD.power(power).name} | {len(years)} | {med} | {statistics.mean(centres):.1f} |")
    return rows


def levels_table(pairs: list[tuple[str, str]], seeds: int) -> list[str]:
    rows = ["| one | against six | games | mean centres of the one at 1910 |", "|---|---|---|---|"]
    for one, six in pairs:
        for a, b in ((one, six), (six, one)):
            centres = []
            for power in POWERS:
                for seed in range(seeds):
                    levels = {p: b for p in POWERS} | {power: a}
                    game = play({p: "bot" for p in POWERS}, levels, 1910, seed)
                    centres.append(game.state.centre_counts().get(power, 0))
            rows.append(f"| {a} | {b} | {len(centres)} | {statistics.mean(centres):.2f} |")
    return rows


def time_table() -> list[str]:
    rows = ["| level | phases timed | median ms | p95 ms | max ms |", "|---|---|---|---|---|"]
    for level, ts in sorted(TIMES.items()):
        ts = sorted(ts)
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        rows.append(f"| {level} | {len(ts)} | {1000 * statistics.median(ts):.1f} | {1000 * p95:.1f} | "
                    f"{1000 * ts[-1]:.1f} |")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--level-seeds", type=int, default=2)
    ap.add_argument("--only", default="hold,random,levels,time")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    print(f"bench_bots.py, {date.today()}, {platform.machine()} {platform.processor() or ''} "
          f"Python {platform.python_version()}, seeds {args.seeds}, level seeds {args.level_seeds}\n")
    started = time.time()
    if "hold" in parts:
        print("\n".join(solo_table("hold", 1912, args.seeds)) + "\n", flush=True)
    if "random" in parts:
        print("\n".join(solo_table("random", 1915, args.seeds)) + "\n", flush=True)
    if "levels" in parts:
        print("\n".join(levels_table([("club", "beginner"), ("strong", "club")], args.level_seeds)) + "\n",
              flush=True)
    if "time" in parts:
        Bot("strong", 0)  # the strong level is timed in the levels games
        print("\n".join(time_table()) + "\n")
    print(f"{CHECKED[0]} orders checked legal; {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
