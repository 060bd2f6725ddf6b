"""Issue 32: the explanation checker over random whole games, every phase, both editions.

Seeded games played for several years by the computer players and by seats that give random
legal orders (the mix makes supports, convoys, cuts and rings the lessons never wrote); every
result of every phase (movement, retreats, adjustments) is explained and the explanation held
against the position and the outcomes by :mod:`explanation_check`.  The short variant runs in
every test run; the longer one is marked slow."""

from __future__ import annotations

import pytest
from explanation_check import check_adjudication

from diplomacy_desktop.bots.seats import seat_orders
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.rules import Edition
from diplomacy_desktop.io.boardfile import load_board

BOARD = load_board()
EDITIONS = [Edition.CLASSIC, Edition.Y2023]


def _seats(seed: int) -> dict[str, str]:
    """Half the powers random, half the computer, which half by the seed."""
    powers = sorted(BOARD.power_ids)
    return {p: ("random" if (n + seed) % 2 else "bot") for n, p in enumerate(powers)}


def _problems_of_a_game(seed: int, edition: Edition, years: int) -> tuple[list[str], int, set[str]]:
    """Play one seeded game for ``years`` years, checking every phase's explanations: the problems
    found, the number of results explained and the kinds of phases seen."""
    game = Game.new(BOARD, edition)
    seats = _seats(seed)
    problems: list[str] = []
    explained = 0
    kinds: set[str] = set()
    last = game.state.phase.year + years - 1
    while not game.is_over and game.state.phase.year <= last:
        state = game.state
        for power in BOARD.power_ids:
            for order in seat_orders(seats[power], state, power, level="beginner", seed=seed):
                game.set_order(order)
        entry = game.adjudicate()
        kinds.add(entry.state.phase.kind)
        for r in entry.results:
            assert r.reason  # every result says why in words
        explained += len(entry.results)
        problems.extend(f"{edition.value} seed {seed} {entry.state.phase}: {p}"
                        for p in check_adjudication(entry.state, entry.results))
    return problems, explained, kinds


@pytest.mark.parametrize("edition", EDITIONS, ids=[e.value for e in EDITIONS])
def test_explanations_hold_over_random_whole_games(edition: Edition) -> None:
    problems: list[str] = []
    explained = 0
    kinds: set[str] = set()
    for seed in (1, 2, 3):
        found, n, seen = _problems_of_a_game(seed, edition, years=5)
        problems.extend(found)
        explained += n
        kinds |= seen
    assert kinds == {"movement", "retreat", "adjustment"}, kinds  # every kind of phase was checked
    assert explained > 300
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:20])


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS, ids=[e.value for e in EDITIONS])
def test_explanations_hold_over_longer_random_whole_games(edition: Edition) -> None:
    problems: list[str] = []
    for seed in range(4, 14):
        found, _, _ = _problems_of_a_game(seed, edition, years=10)
        problems.extend(found)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:20])
