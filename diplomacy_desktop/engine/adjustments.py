"""Adjustment adjudication (rules XIII.2, XIV.2): builds, removals, waives, civil disorder."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .board import FLEET, Board
from .errors import OrderError
from .orders import Build, Order, Remove, Waive
from .results import OrderResult, Outcome, ResultCode, Say, Why
from .rules import CLASSIC, RuleSet
from .state import GameState, Unit
from .validation import check_order

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
                                           Why(Say.NO_ADJUSTMENTS, board, powers=(power,)), rule="XIII.2"))
    for power, rest in by_power.items():
        for o in rest:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL,
                                       Why(Say.UNKNOWN_POWER, detail=power), rule="VII.4"))
    return AdjustmentOutcome(tuple(results), tuple(sorted(units.values(), key=lambda u: u.province)))


def _admitted(state: GameState, o: Order, power: str, enough: bool, kinds: tuple[type[Order], ...],
              too_many: Why, must: Say, results: list[OrderResult]) -> Order | None:
    """``o`` checked as one of ``power``'s adjustment orders (XIII.2), or None with its result filed:
    one too many (``enough`` already given), not of ``kinds`` (``must`` says which), or illegal."""
    board = state.board
    if enough:
        results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.TOO_MANY, too_many, rule="XIII.2"))
    elif not isinstance(o, kinds):
        results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL, Why(must, board, powers=(power,)),
                                   rule="XIII.2"))
    else:
        try:
            return check_order(state, o)
        except OrderError as exc:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.ILLEGAL,
                                       Why(Say.ILLEGAL, board, detail=str(exc)), rule=exc.rule))
    return None


def _builds(state: GameState, power: str, delta: int, mine: list[Order], units: dict[str, Unit],
            results: list[OrderResult]) -> None:
    """``power``'s build orders (up to ``delta`` of them) into ``units`` and ``results`` (XIII.2)."""
    board = state.board
    used = 0
    work = state
    for o in mine:
        norm = _admitted(work, o, power, used >= delta, (Build, Waive), Why(Say.TOO_MANY_BUILDS, numbers=(delta,)),
                         Say.MUST_BUILD, results)
        if norm is None:
            continue
        used += 1
        if isinstance(norm, Waive):
            results.append(OrderResult(o, Outcome.SUCCESS, ResultCode.WAIVED, Why(Say.WAIVED), rule="XIII.2"))
            continue
        assert isinstance(norm, Build)
        unit = Unit(power, norm.unit_kind or "A", norm.location)
        units[unit.province] = unit
        work = work.evolve(units=units)
        results.append(OrderResult(o, Outcome.SUCCESS, ResultCode.BUILT,
                                   Why(Say.BUILT, board, ((unit.kind, unit.location),)), rule="XIII.2"))


def _removals(state: GameState, power: str, need: int, mine: list[Order], rules: RuleSet,
              units: dict[str, Unit], results: list[OrderResult]) -> None:
    """``power``'s ``need`` removals: its own orders first, the rest by civil disorder (XIV.2)."""
    removed: list[str] = []
    for o in mine:
        norm = _admitted(state, o, power, len(removed) >= need, (Remove,), Why(Say.TOO_MANY_REMOVALS, numbers=(need,)),
                         Say.MUST_REMOVE, results)
        if norm is None:
            continue
        if norm.province in removed:
            results.append(OrderResult(o, Outcome.ILLEGAL, ResultCode.DUPLICATE,
                                       Why(Say.ALREADY_REMOVED), rule="XIII.2"))
            continue
        removed.append(norm.province)  # type: ignore[arg-type]
        results.append(OrderResult(o, Outcome.SUCCESS, ResultCode.REMOVED, Why(Say.REMOVED), rule="XIII.2"))
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


def _disorder_reason(state: GameState, unit: Unit, kept: list[Unit], rules: RuleSet) -> Why:
    """The facts of why the civil-disorder rule (XIV.2) chose ``unit``: its distance, and those
    of the units ``kept`` (the reason says which tie-break put it before them)."""
    kept = sorted(kept, key=lambda k: k.province)
    return Why(Say.DISORDER_REMOVED, state.board, tuple((u.kind, u.location) for u in (unit, *kept)),
               numbers=tuple(disorder_distance(state, u, rules) for u in (unit, *kept)),
               mode="owned" if rules.disorder_to_owned_centres else "home")
