"""One phase at a time: adjudicate, then step to the next phase that has something to do."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from . import disorder as civil
from .adjustments import adjudicate_adjustments
from .movement import adjudicate_movement
from .orders import Order
from .results import OrderResult
from .retreats import adjudicate_retreats
from .rules import CLASSIC, RuleSet
from .state import ADJUSTMENT, FALL, MOVEMENT, RETREAT, SPRING, GameState, Phase, Unit


@dataclass(frozen=True, slots=True)
class PhaseOutcome:
    """What one adjudication did: the results, the board right after it, and the next phase."""

    results: tuple[OrderResult, ...]
    after: GameState  # the position right after this phase (movement: with dislodged units)
    next_state: GameState  # the next phase to play (empty phases skipped)
    #: Formal Diplomacy: units interned and disbanded at the end of a movement phase
    interned: tuple[Unit, ...] = ()


def update_ownership(state: GameState) -> GameState:
    """Centres occupied at the end of a Fall turn change hands (XIII.1).  Formal Diplomacy: not
    from an ally nor from a neutral (seed 003)."""
    owners = dict(state.owners)
    if state.relations is not None:
        from .formal import takes_centre

        for prov, unit in state.units.items():
            if prov in state.board.centres and takes_centre(state.relations, unit.power, owners.get(prov)):
                owners[prov] = unit.power
        return state.evolve(owners=owners)
    for prov, unit in state.units.items():
        if prov in state.board.centres:
            owners[prov] = unit.power
    return state.evolve(owners=owners)


def has_adjustments(state: GameState) -> bool:
    board = state.board
    for power in board.power_ids:
        delta = state.adjustment_delta(power)
        if delta < 0:
            return True
        if delta > 0 and any(c not in state.units and state.owners.get(c) == power
                             for c in board.home_centres.get(power, ())):
            return True
    return False


def settle(state: GameState) -> GameState:
    """Skip phases in which nobody has anything to do."""
    while True:
        ph = state.phase
        if ph.kind == RETREAT and not state.dislodged:
            state = _after_retreats(state.evolve(contested=frozenset()))
            continue
        if ph.kind == ADJUSTMENT and not has_adjustments(state):
            state = state.evolve(phase=Phase(ph.year + 1, SPRING, MOVEMENT))
            continue
        return state


def _after_retreats(state: GameState) -> GameState:
    ph = state.phase
    if ph.season == SPRING:
        return state.evolve(phase=Phase(ph.year, FALL, MOVEMENT), dislodged=(), contested=frozenset())
    owned = update_ownership(state)
    return owned.evolve(phase=Phase(ph.year, FALL, ADJUSTMENT), dislodged=(), contested=frozenset())


def adjudicate_phase(state: GameState, orders: Iterable[Order], rules: RuleSet = CLASSIC,
                     disorder: AbstractSet[str] = frozenset()) -> PhaseOutcome:
    """Adjudicate ``state``'s phase.  ``disorder``: the powers in civil disorder this phase
    (rules XIV.1): their orders are ignored, their units hold, their dislodged units are disbanded
    without a retreat, they build nothing and their removals follow XIV.2."""
    if disorder:
        return _in_disorder(state, orders, rules, disorder)
    kind = state.phase.kind
    if kind == MOVEMENT:
        m = adjudicate_movement(state, orders, rules)
        return PhaseOutcome(m.results, m.state, settle(m.state), m.interned)
    if kind == RETREAT:
        r = adjudicate_retreats(state, orders, rules)
        after = GameState.build(state.board, state.phase, r.units, state.owners, relations=state.relations)
        return PhaseOutcome(r.results, after, settle(_after_retreats(after)))
    a = adjudicate_adjustments(state, orders, rules)
    after = GameState.build(state.board, state.phase, a.units, state.owners, relations=state.relations)
    nxt = after.evolve(phase=Phase(state.phase.year + 1, SPRING, MOVEMENT))
    return PhaseOutcome(a.results, after, settle(nxt))


def _in_disorder(state: GameState, orders: Iterable[Order], rules: RuleSet, disorder: AbstractSet[str]
                 ) -> PhaseOutcome:
    """:func:`adjudicate_phase` with some powers in civil disorder (rules XIV.1)."""
    kept, ignored = civil.split_orders(state, orders, disorder)
    kind = state.phase.kind
    if kind == MOVEMENT:
        m = adjudicate_movement(state, kept, rules)
        after, disbanded = civil.disband_dislodged(m.state, disorder)
        return PhaseOutcome((*ignored, *m.results, *disbanded), after, settle(after), m.interned)
    if kind == RETREAT:
        before, disbanded = civil.disband_dislodged(state, disorder)
        r = adjudicate_retreats(before, kept, rules)
        after = GameState.build(state.board, state.phase, r.units, state.owners, relations=state.relations)
        return PhaseOutcome((*ignored, *r.results, *disbanded), after, settle(_after_retreats(after)))
    # adjustments: without their orders, nothing is built and the removals follow XIV.2
    out = adjudicate_phase(state, kept, rules)
    return PhaseOutcome((*ignored, *out.results), out.after, out.next_state)


def winner(state: GameState) -> str | None:
    """The power that controls enough centres to win, if any."""
    counts = state.centre_counts()
    best = max(counts.items(), key=lambda kv: kv[1], default=(None, 0))
    if best[0] is not None and best[1] >= state.board.victory_centres:
        return best[0]
    return None
