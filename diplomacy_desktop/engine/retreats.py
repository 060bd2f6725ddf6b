"""Retreat adjudication (rules XI): retreat, disband, bounce, unordered -> disband."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .board import province_of
from .errors import OrderError
from .orders import Disband, Order, Retreat
from .results import OrderResult, Outcome, ResultCode, Say, Why, with_repeats
from .rules import CLASSIC, RuleSet
from .state import GameState, Unit
from .validation import check_order, describe


@dataclass(frozen=True, slots=True)
class RetreatOutcome:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]  # every unit on the board after the retreats


def _illegal(state: GameState, written: Order, exc: OrderError, refused: set[str]) -> OrderResult:
    """The result of an illegal retreat order; its dislodged unit, if it names one of its power's,
    goes into ``refused`` (disbanded unless another order for it was legal)."""
    where = written.province
    d = state.dislodged_in(where) if where is not None and where in state.board.spaces else None
    if d is not None and d.unit.power == written.power:
        refused.add(d.province)
    return OrderResult(written, Outcome.ILLEGAL, ResultCode(getattr(exc, "code", "illegal")),
                       Why(Say.ILLEGAL, state.board, detail=str(exc)), rule=getattr(exc, "rule", "XI"))


def adjudicate_retreats(state: GameState, orders: Iterable[Order], rules: RuleSet = CLASSIC) -> RetreatOutcome:
    board = state.board
    results: list[OrderResult] = []
    chosen: dict[str, list[tuple[Order, Order]]] = {}
    refused: set[str] = set()  # dislodged units whose only orders were illegal
    for written in orders:
        try:
            norm = check_order(state, written)
        except OrderError as exc:
            results.append(_illegal(state, written, exc, refused))
            continue
        chosen.setdefault(norm.province, []).append((written, norm))  # type: ignore[arg-type]
    retreating: dict[str, tuple[Order, Retreat]] = {}
    repeats: dict[Order, list[Order]] = {}  # an order given again for its unit: the copies
    decided: set[str] = set()
    for prov, pairs in chosen.items():
        if len({n for _, n in pairs}) > 1:
            for written, _ in pairs:
                results.append(OrderResult(written, Outcome.ILLEGAL, ResultCode.CONFLICTING,
                                           Why(Say.CONFLICTING_RETREAT), rule="XI.2"))
            continue
        written, norm = pairs[-1]
        decided.add(prov)
        if len(pairs) > 1:
            repeats[written] = [w for w, _ in pairs[:-1]]
        if isinstance(norm, Retreat):
            retreating[prov] = (written, norm)
        else:
            # a unit with nowhere to go is disbanded by XI whatever it was ordered; one that could
            # retreat was disbanded by its player's choice (XI.2)
            rule = "XI.2" if _has_retreat(state, prov) else "XI"
            results.append(OrderResult(written, Outcome.SUCCESS, ResultCode.DISBANDED, Why(Say.DISBANDED),
                                       rule=rule))
    targets: dict[str, list[str]] = {}
    for prov, (_, norm) in retreating.items():
        targets.setdefault(norm.target_province, []).append(prov)
    units = list(state.units.values())
    for prov, (written, norm) in sorted(retreating.items()):
        rivals = sorted(p for p in targets[norm.target_province] if p != prov)
        if rivals:
            results.append(OrderResult(written, Outcome.FAILURE, ResultCode.BOUNCED,
                                       Why(Say.RETREAT_BOUNCED, board, spaces=tuple(rivals)),
                                       tuple(rivals), rule="XI.2"))
        else:
            d = state.dislodged_in(prov)
            assert d is not None
            units.append(Unit(d.unit.power, d.unit.kind, norm.destination))
            results.append(OrderResult(written, Outcome.SUCCESS, ResultCode.RETREATED,
                                       Why(Say.RETREATED, board, spaces=(norm.destination,)), rule="XI"))
    for d in state.dislodged:
        if d.province in decided or d.province in chosen:
            continue
        if not _has_retreat(state, d.province):
            why, rule = Why(Say.NO_RETREAT), "XI"
        elif d.province in refused:
            why, rule = Why(Say.RETREAT_REFUSED), "XI.2"
        else:
            why, rule = Why(Say.RETREAT_UNORDERED), "XI.2"
        results.append(OrderResult(Disband(d.unit.power, d.unit.kind, d.unit.location), Outcome.SUCCESS,
                                   ResultCode.UNORDERED, why, rule=rule))
    units.sort(key=lambda u: province_of(u.location))
    return RetreatOutcome(tuple(with_repeats(results, repeats)), tuple(units))


def _has_retreat(state: GameState, province: str) -> bool:
    from .validation import retreat_destinations

    return bool(retreat_destinations(state, province))


__all__ = ["RetreatOutcome", "adjudicate_retreats", "describe"]
