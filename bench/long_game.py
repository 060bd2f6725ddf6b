"""A long game for the benchmarks (issue 21): a deterministic, lively game of about 190 phases.

    python bench/long_game.py OUT.dipl [--phases 190]

Every unit is given a random legal order each phase (a fixed seed), moves only now and then so
that every power lives long; builds and removals as the rules ask.  The game is written as a saved
game (``io.savefile``), so ``serve`` and the window open it as they open any other.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.options import all_options
from diplomacy_desktop.engine.orders import Hold
from diplomacy_desktop.engine.state import MOVEMENT
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import save_game


def long_game(phases: int = 190, seed: int = 1901) -> Game:
    rng = random.Random(seed)
    game = Game.new(load_board())
    while len(game.history) < phases and not game.is_over:
        state = game.state
        for by_unit in all_options(state).values():
            for options in by_unit.values():
                if not options:
                    continue
                if state.phase.kind == MOVEMENT and rng.random() < 0.75:
                    holds = [o for o in options if isinstance(o, Hold)]
                    if holds:
                        game.set_order(holds[0])
                        continue
                game.set_order(rng.choice(options))
        game.adjudicate()
    return game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--phases", type=int, default=190)
    args = ap.parse_args()
    game = long_game(args.phases)
    save_game(Path(args.out), game)
    alive = [p for p in game.board.power_ids if game.state.units_of(p)]
    print(f"{args.out}: {len(game.history)} phases, now {game.state.phase.label}, {len(alive)} powers with units")
    return 0


if __name__ == "__main__":
    sys.exit(main())
