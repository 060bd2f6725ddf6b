"""Run a DATC-format scenario: set up the position, adjudicate its one phase, compare."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine.board import Board
from ..engine.errors import OrderError
from ..engine.explain import explain as explain_result
from ..engine.movement import adjudicate_movement
from ..engine.orders import Order, Waive
from ..engine.results import OrderResult, Outcome, ResultCode, Say, Why
from ..engine.rules import RuleSet
from ..engine.state import MOVEMENT, GameState, Unit
from ..engine.turns import adjudicate_phase
from ..engine.validation import retreat_destinations
from .notation import format_order, parse_order
from .scenario import Scenario, ScenarioError, scenario_state


@dataclass(frozen=True, slots=True)
class CaseRun:
    scenario: Scenario
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]
    dislodged: tuple[Unit, ...]
    unreadable: tuple[tuple[str, str, str], ...] = ()  # (power, text, why)
    mismatches: tuple[str, ...] = field(default=())
    state: GameState | None = None  # the position the orders were given in
    #: Formal Diplomacy: units interned and disbanded at the end of the movement phase
    interned: tuple[Unit, ...] = ()

    @property
    def formal(self) -> bool:
        """Whether the case is adjudicated under Formal Diplomacy (it has PRESTATE_RELATIONS)."""
        return self.scenario.relations is not None

    @property
    def checked(self) -> bool:
        return self.scenario.has_expectation

    @property
    def matched(self) -> bool:
        return not self.mismatches


def _key(u: Unit) -> tuple[str, str, str]:
    return (u.power, u.kind, u.location)


def _compare(label: str, got: list[Unit], want: list[Unit] | None) -> list[str]:
    if want is None:
        return []
    g = {_key(u) for u in got}
    w = {_key(u) for u in want}
    out = []
    for p, k, loc in sorted(w - g):
        out.append(f"{label}: expected {p} {k} {loc}, not there")
    for p, k, loc in sorted(g - w):
        out.append(f"{label}: {p} {k} {loc} is there but not expected")
    return out


def run_case(sc: Scenario, board: Board, rules: RuleSet) -> CaseRun:
    """Adjudicate the scenario's phase.  Raises ScenarioError if the position is impossible."""
    state: GameState = scenario_state(sc, board)
    orders: list[Order] = []
    unreadable: list[tuple[str, str, str]] = []
    for ol in sc.orders:
        try:
            orders.append(parse_order(ol.text, ol.power, state, case_file=True))
        except OrderError as exc:
            unreadable.append((ol.power, ol.text, f"line {ol.line}: {exc}"))
    if state.phase.kind == MOVEMENT:
        # the position right after the phase is all a case needs, not the phase after it
        moved = adjudicate_movement(state, orders, rules)
        results, after, interned = moved.results, moved.state, moved.interned
    else:
        outcome = adjudicate_phase(state, orders, rules)
        results, after, interned = outcome.results, outcome.after, outcome.interned
    extra = tuple(
        OrderResult(Waive(p), Outcome.ILLEGAL, exc_kind(why), Why(Say.NOT_FOLLOWED, detail=why),
                    rule="VII.4")
        for p, _, why in unreadable
    )
    units = tuple(after.units.values())
    dislodged = tuple(d.unit for d in after.dislodged) if state.phase.kind == MOVEMENT else ()
    mism = expectation_mismatches(sc, state, after)
    return CaseRun(sc, results + extra, units, dislodged, tuple(unreadable), mism, state, interned)


def expectation_mismatches(sc: Scenario, before: GameState, after: GameState) -> tuple[str, ...]:
    """How the position ``after`` the scenario's phase differs from its POSTSTATE (empty: it agrees,
    or the case expects nothing).  ``after`` is the position right after the phase (after a
    movement phase: with its dislodged units), as ``HistoryEntry.after`` is."""
    units = list(after.units.values())
    dislodged = [d.unit for d in after.dislodged] if before.phase.kind == MOVEMENT else []
    mism = _compare("units", units, sc.expected_units())
    want_dislodged = sc.expected_dislodged()
    if want_dislodged is not None:
        # jDip convention: a dislodged unit with nowhere to retreat is destroyed at once and
        # may be left out of POSTSTATE_DISLODGED.
        wanted = {_key(u) for u in want_dislodged}
        doomed = [u for u in dislodged if _key(u) not in wanted and not retreat_destinations(after, u.province)]
        mism += _compare("dislodged", [u for u in dislodged if u not in doomed], want_dislodged)
    return tuple(mism)


def exc_kind(why: str) -> ResultCode:
    return ResultCode.UNREADABLE


class ResultRow(NamedTuple):
    """One order of a case as the command line prints it."""

    power: str
    order: str  # rulebook notation, or the text as written when it could not be read
    result: str  # "success", "failure", "illegal" or "void"
    reason: str
    code: str = ""  # the engine's reason code ("bounced", "cut", ...)
    rule: str = ""  # the section of the rules that decides it ("IX.5"), or "DATC 4.A.2"
    strength: int | None = None
    opposition: int | None = None
    involved: tuple[str, ...] = ()  # canonical province ids of the units that caused it
    explanation: str = ""  # with ``explain=True``: the result in plain words


def result_rows(run: CaseRun, board: Board, *, explain: bool = False) -> list[ResultRow]:
    rows = []
    unreadable_iter = iter(run.unreadable)
    for r in run.results:
        if r.code == "unreadable":
            power, text, why = next(unreadable_iter)
            rows.append(ResultRow(power, text, Outcome.ILLEGAL.value, why, r.code, r.rule,
                                  explanation=f"{text}: is illegal — {why}." if explain else ""))
            continue
        written = format_order(r.order, board)
        said = ""
        if explain and run.state is not None:
            said = explain_result(r, run.state, run.results).text(written)
        rows.append(ResultRow(r.order.power, written, _OUTCOME_WORDS[r.outcome], r.reason, r.code, r.rule,
                              r.strength, r.opposition, r.involved, said))
    return rows


_OUTCOME_WORDS = {o: o.value for o in Outcome}  # quicker than asking each member for its value


__all__ = ["CaseRun", "ResultRow", "ScenarioError", "expectation_mismatches", "result_rows", "run_case"]
