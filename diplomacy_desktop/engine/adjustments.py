"""Adjustment adjudication (rules XIII.2, XIV.2): builds, removals, waives, civil disorder."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .board import FLEET, Board
from .boardindex import BoardIndex, board_index
from .errors import OrderError
from .orders import Build, Order, Remove, Waive
from .results import OrderResult, Outcome, ResultCode
from .rules import CLASSIC, RuleSet
from .state import GameState, Unit
from .validation import check_order, describe

FAR = 10**6


@dataclass(frozen=True, slots=True)
class AdjustmentOutcome:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]


def _combined_graph(board: Board) -> Mapping[str, frozenset[str]]:
    return board.province_neighbours


def _fleet_graph(board: Board) -> dict[str, frozenset[str]]:
    return dict(board.fleet_moves)


def disorder_distance(state: GameState, unit: Unit, rules: RuleSet) -> int:
    """How far ``unit`` is from home for civil-disorder removals (XIV.2; 2023 rulebook)."""
    board = state.board
    if rules.disorder_to_owned_centres:
        targets = state.centres_of(unit.power)
    else:
        targets = list(board.home_centres.get(unit.power, ()))
    if not targets:
        return FAR
    if rules.disorder_any_terrain or unit.kind != FLEET:
        dist = board.distances_from(targets, _combined_graph(board))
        return dist.get(unit.province, FAR)
    # classic fleets move as fleets: from any coast of a target centre
    sources = [loc for c in targets for loc in board.fleet_locations(c)]
    dist = board.distances_from(sources, _fleet_graph(board))
    return dist.get(unit.location, FAR)


def civil_disorder_removals(state: GameState, power: str, count: int, rules: RuleSet,
                            exclude: Iterable[str] = ()) -> list[Unit]:
    """The ``count`` units removed when ``power`` orders too few removals."""
    board = state.board
    skip = set(exclude)
    candidates = [u for u in state.units.values() if u.power == power and u.province not in skip]

    def key(u: Unit) -> tuple[int, int, str]:
        return (-disorder_distance(state, u, rules), 0 if u.kind == FLEET else 1,
                board.spaces[u.province].name.lower())

    return sorted(candidates, key=key)[:count]


def adjudicate_adjustments(state: GameState, orders: Iterable[Order], rules: RuleSet = CLASSIC
                           ) -> AdjustmentOutcome:
    board = state.board
    results: list[OrderResult] = []
    units: dict[str, Unit] = dict(state.units)
    by_power: dict[str, list[Order]] = {}
    for o in orders:
        by_power.setdefault(o.power, []).append(o)
    for power in board.power_ids:
        delta = state.adjustment_delta(power)
        mine = by_power.pop(power, [])
        if delta > 0:
            _builds(state, power, delta, mine, units, results)
        elif delta < 0:
            _removals(state, power, -delta, mine, rules, units, results)
        else:
            for o in mine:
                results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL,
                                           f"illegal: {board.power(power).name} has no adjustments to make",
                                           rule="XIII.2"))
    for power, rest in by_power.items():
        for o in rest:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL, f"illegal: unknown power {power!r}",
                                       rule="VII.4"))
    return AdjustmentOutcome(tuple(results), tuple(sorted(units.values(), key=lambda u: u.province)))


def _builds(state: GameState, power: str, delta: int, mine: list[Order], units: dict[str, Unit],
            results: list[OrderResult]) -> None:
    """``power``'s build orders (up to ``delta`` of them) into ``units`` and ``results`` (XIII.2)."""
    board = state.board
    used = 0
    work = state
    for o in mine:
        if used >= delta:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.TOO_MANY,
                                       f"illegal: only {delta} build(s) allowed; extra order ignored",
                                       rule="XIII.2"))
            continue
        try:
            if not isinstance(o, (Build, Waive)):
                raise OrderError(f"{board.power(power).name} must build, not remove", rule="XIII.2")
            norm = check_order(work, o)
        except OrderError as exc:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL, f"illegal: {exc}", rule=exc.rule))
            continue
        used += 1
        if isinstance(norm, Waive):
            results.append(OrderResult(o, Outcome.SUCCESS, ResultCode.WAIVED, "build waived", rule="XIII.2"))
            continue
        assert isinstance(norm, Build)
        unit = Unit(power, norm.unit_kind or "A", norm.location)
        units[unit.province] = unit
        work = work.evolve(units=units)
        results.append(OrderResult(o, Outcome.SUCCESS, ResultCode.BUILT, f"builds an {describe(board, unit)}"
                                   .replace("an fleet", "a fleet"), rule="XIII.2"))


def _removals(state: GameState, power: str, need: int, mine: list[Order], rules: RuleSet,
              units: dict[str, Unit], results: list[OrderResult]) -> None:
    """``power``'s ``need`` removals: its own orders first, the rest by civil disorder (XIV.2)."""
    board = state.board
    removed: list[str] = []
    for o in mine:
        if len(removed) >= need:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.TOO_MANY,
                                       f"illegal: only {need} removal(s) needed; extra order ignored",
                                       rule="XIII.2"))
            continue
        try:
            if not isinstance(o, Remove):
                raise OrderError(f"{board.power(power).name} must remove units, not build", rule="XIII.2")
            norm = check_order(state, o)
        except OrderError as exc:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL, f"illegal: {exc}", rule=exc.rule))
            continue
        if norm.province in removed:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.DUPLICATE,
                                       "illegal: that unit is already removed", rule="XIII.2"))
            continue
        removed.append(norm.province)  # type: ignore[arg-type]
        results.append(OrderResult(o, Outcome.SUCCESS, ResultCode.REMOVED, "removed", rule="XIII.2"))
    if len(removed) < need:
        chosen = civil_disorder_removals(state, power, need - len(removed), rules, removed)
        kept = [u for u in state.units.values() if u.power == power and u.province not in removed
                and u not in chosen]
        for u in chosen:
            removed.append(u.province)
            results.append(OrderResult(Remove(power, u.kind, u.location), Outcome.SUCCESS, ResultCode.DISORDER,
                                       _disorder_reason(state, u, kept, rules), rule="XIV.2"))
    for p in removed:
        units.pop(p, None)


def _disorder_reason(state: GameState, unit: Unit, kept: list[Unit], rules: RuleSet) -> str:
    """Why the civil-disorder rule (XIV.2) chose ``unit``: its distance, and the tie-breaks that
    put it before the units ``kept`` (fleets before armies, then alphabetical order)."""
    board = state.board
    index = board_index(board)
    where = "owned" if rules.disorder_to_owned_centres else "home"
    d = disorder_distance(state, unit, rules)
    text = f"removed by the civil-disorder rule: {_moves(d)} from the nearest {where} centre"
    same = [k for k in kept if disorder_distance(state, k, rules) == d]
    if not kept:
        return text
    if not same:
        nearer = "; ".join(f"the {index.describe(k.kind, k.location)}: {_moves(disorder_distance(state, k, rules))}"
                           for k in sorted(kept, key=lambda k: k.province))
        return f"{text}, farther than every unit kept ({nearer})"
    armies = [k for k in same if k.kind != unit.kind]
    if unit.kind == FLEET and armies:
        text += (f"; as far as {_units(index, armies)}, but at the same distance a fleet is removed before "
                 "an army")
    same_kind = [k for k in same if k.kind == unit.kind]
    if same_kind:
        text += (f"; as far as {_units(index, same_kind)} ({_kind_word(unit.kind)} too), but "
                 f"{board.spaces[unit.province].name} comes first in alphabetical order")
    return text


def _units(index: BoardIndex, units: list[Unit]) -> str:
    names = [f"the {index.describe(u.kind, u.location)}" for u in sorted(units, key=lambda u: u.province)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _kind_word(kind: str) -> str:
    return "a fleet" if kind == FLEET else "an army"


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"
