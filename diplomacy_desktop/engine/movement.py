"""Movement adjudication: the DATC equations solved by the partial-information algorithm.

See DATC v3.0 section 5.  Every unit gets exactly one decision-bearing order (hold when it
had none or only illegal ones).  MOVE, SUPPORT and CONVOY orders are decisions; strengths are
computed from them.  ``resolve(i, optimistic)`` settles decision ``i``; circular movement and
convoy paradoxes (Szykman rule) are handled by the backup rule.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .board import ARMY, FLEET, province_of
from .boardindex import board_index
from .errors import OrderError
from .formal import (ALLIANCE, NEUTRAL, RULE_ALLIED, RULE_INTERNED, RULE_NEUTRAL, WAR, interned_units,
                     territory_phrase)
from .orders import Convoy, Disband, Hold, Move, Order, SupportHold, SupportMove, UnitOrder
from .results import (Decision, DecisionTable, LeftOut, LeftOutWhy, NotCut, NotCutWhy, OrderResult, Outcome,
                      ResultCode, RivalFate, Say, Strength, StrengthKind, Why, with_repeats)
from .rules import CLASSIC, RuleSet
from .state import MOVEMENT, RETREAT, DislodgedUnit, GameState, Phase, Unit
from .validation import MOVEMENT_CHECKS, check_order

# enum members looked up once: reading a member off an Enum class costs about ten times a global
# (Python 3.11), and an adjudication reads them for every order
_LW_ALLIED_UNIT = LeftOutWhy.ALLIED_UNIT
_LW_CUT = LeftOutWhy.CUT
_LW_DISLODGED = LeftOutWhy.DISLODGED
_LW_NOT_MATCHING = LeftOutWhy.NOT_MATCHING
_LW_OWN_UNIT = LeftOutWhy.OWN_UNIT
_LW_UNIT_HELD = LeftOutWhy.UNIT_HELD
_LW_UNIT_MOVED = LeftOutWhy.UNIT_MOVED
_OC_FAILURE = Outcome.FAILURE
_OC_ILLEGAL = Outcome.ILLEGAL
_OC_SUCCESS = Outcome.SUCCESS
_OC_VOID = Outcome.VOID
_RC_BOUNCED = ResultCode.BOUNCED
_RC_CONFLICTING = ResultCode.CONFLICTING
_RC_CONVOYED = ResultCode.CONVOYED
_RC_CONVOY_UNUSED = ResultCode.CONVOY_UNUSED
_RC_CUT = ResultCode.CUT
_RC_DISLODGED = ResultCode.DISLODGED
_RC_DISRUPTED = ResultCode.DISRUPTED
_RC_FORMAL_ALLIED = ResultCode.FORMAL_ALLIED
_RC_FORMAL_NEUTRAL = ResultCode.FORMAL_NEUTRAL
_RC_HEAD_TO_HEAD = ResultCode.HEAD_TO_HEAD
_RC_HOLDS = ResultCode.HOLDS
_RC_INTERNED = ResultCode.INTERNED
_RC_MOVED = ResultCode.MOVED
_RC_NO_CONVOY = ResultCode.NO_CONVOY
_RC_OWN_UNIT = ResultCode.OWN_UNIT
_RC_PARADOX = ResultCode.PARADOX
_RC_SUPPORTED = ResultCode.SUPPORTED
_RC_UNORDERED = ResultCode.UNORDERED
_RC_VOID = ResultCode.VOID
_SK_ATTACK = StrengthKind.ATTACK
_SK_DEFEND = StrengthKind.DEFEND
_SK_HOLD = StrengthKind.HOLD
_SK_PREVENT = StrengthKind.PREVENT

#: ``_result(OrderResult, (every field, in order))``: an OrderResult made without the named
#: tuple's Python-level ``__new__``, for the results every adjudication makes (one per order);
#: tests/engine/test_result_rules.py holds the field order it relies on
_result = tuple.__new__
#: the same for a result's facts: ``_why(Why, (say, board, units, spaces, numbers, powers, mode,
#: detail, then))`` (tests/engine/test_reasons.py holds the field order)
_why = tuple.__new__
_SAY_MOVED = Say.MOVED
_SAY_MOVED_AGAINST = Say.MOVED_AGAINST
_SAY_DISLODGING = Say.DISLODGING
_SAY_DISLODGED_BY = Say.DISLODGED_BY

HOLD, MOVE, SUPPORT, CONVOY = 0, 1, 2, 3
LAND, VIA = 0, 1  # how a move travels: over land, or by convoy


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    results: tuple[OrderResult, ...]
    state: GameState  # the retreat phase that follows (dislodged units and standoffs recorded)
    #: Formal Diplomacy: the units interned (and disbanded) at the end of the phase for
    #: violating neutrality; they are not in ``state``
    interned: tuple[Unit, ...] = ()


class _Resolver:
    """One adjudication.  Indices are units in province order."""

    #: Formal Diplomacy: relations, not only powers, decide who may dislodge whom and whose
    #: supports count (the hot paths ask the hooks only then)
    _formal = False

    def __init__(self, state: GameState, orders: Iterable[Order], rules: RuleSet) -> None:
        self.state = state
        self.board = state.board
        self.rules = rules
        self.names = board_index(state.board)
        units = list(state.units.values())
        self.units = units
        n = len(units)
        self.n = n
        self.prov = list(state.units)  # the units are filed by province
        self.index = {p: i for i, p in enumerate(self.prov)}
        self.power = [u.power for u in units]
        self.ot = [HOLD] * n
        self.order: list[Order | None] = [None] * n
        self.dst: list[str | None] = [None] * n
        self.dst_loc: list[str | None] = [None] * n
        self.mode = [LAND] * n
        self.sup_target = [-1] * n
        self.sup_dst: list[str | None] = [None] * n
        self.matched = [False] * n
        self.move_sups: list[list[int]] = [[] for _ in range(n)]
        self.hold_sups: list[list[int]] = [[] for _ in range(n)]
        self.convoyers: list[list[int]] = [[] for _ in range(n)]
        self.attackers: dict[str, list[int]] = {}
        self.illegal: list[OrderResult] = []
        self.illegal_by_unit: dict[int, list[OrderResult]] = {}
        self.repeats: dict[Order, list[Order]] = {}  # an order given again for its unit: the copies
        self._read_orders(orders)
        self._link()
        # resolution administration
        self.result = [False] * n
        self.resolved = [False] * n
        self.visited = [False] * n
        self.cycle: list[int] = []
        self.recursion_hits = 0
        self.uncertain = False
        self.paradox: set[int] = set()
        self.circular: set[int] = set()
        self._voids: dict[int, list[int]] | None = None  # the void supports ordered for each unit
        self._routes: dict[int, tuple[str, ...]] = {}  # the convoy route each army took, once asked
        self._table: DecisionTable | None = None  # the decision records, once every decision is settled
        self.by: list[int | None] = []  # who dislodged each unit, once every decision is settled
        # each order kind's equation (HOLD, MOVE, SUPPORT, CONVOY), as this class defines it: the
        # functions, not bound methods (those would make the resolver a reference cycle)
        cls = type(self)
        self._equations: tuple[Callable[[Any, int, bool], bool], ...] = (
            cls._convoy_holds, cls._move_succeeds, cls._support_given, cls._convoy_holds)

    # -- reading orders ----------------------------------------------------------------------

    def _read_orders(self, orders: Iterable[Order]) -> None:
        per_unit: dict[int, list[tuple[Order, Order]]] = {}
        index, state = self.index, self.state
        # check_order's own dispatch, looked up once: the checks of a movement phase by order type
        # (Formal Diplomacy: every order through check_order, which adds what the relations forbid)
        checks = MOVEMENT_CHECKS if state.phase.kind == MOVEMENT and state.relations is None else {}
        powers = self.names.power_ids
        for written in orders:
            check = checks.get(type(written)) if written.power in powers else None
            try:
                norm = check(state, written) if check is not None else check_order(state, written)
            except OrderError as exc:
                overland = self._overland(written)
                if overland is not None:
                    norm = overland
                else:
                    self._illegal(written, exc)
                    continue
            i = index[norm.location.partition("/")[0]]  # type: ignore[attr-defined]
            pairs = per_unit.get(i)
            if pairs is None:
                per_unit[i] = [(written, norm)]
            else:
                pairs.append((written, norm))
        self._file_orders(per_unit)

    def _overland(self, written: Order) -> Move | None:
        """Classic rules (DATC v2.4 6.G.8): an army ordered "via convoy" to a neighbouring space
        that no fleets could convoy it to moves over land, as if the words were not there."""
        if not (self.rules.convoy_falls_back_to_land and type(written) is Move and written.via_convoy):
            return None
        try:
            norm = check_order(self.state, replace(written, via_convoy=False))
        except OrderError:
            return None
        return norm if isinstance(norm, Move) and self.state.units[norm.province].kind == ARMY else None

    def _illegal(self, written: Order, exc: OrderError) -> None:
        """File the result of an illegal order: under its unit when it is the power's own."""
        index = self.index
        say = Say.ILLEGAL_HOLDS if written.province in index else Say.ILLEGAL
        res = OrderResult(written, _OC_ILLEGAL, ResultCode(getattr(exc, "code", "illegal")),
                          Why(say, self.board, detail=str(exc)), rule=getattr(exc, "rule", "VII.4"))
        i = index.get(written.province or "")
        if i is not None and self.power[i] == written.power:
            self.illegal_by_unit.setdefault(i, []).append(res)
        else:
            self.illegal.append(res)

    def _file_orders(self, per_unit: dict[int, list[tuple[Order, Order]]]) -> None:
        index = self.index
        for i, pairs in per_unit.items():
            if len(pairs) > 1 and len({norm for _, norm in pairs}) > 1:
                for written, _ in pairs:
                    self.illegal_by_unit.setdefault(i, []).append(OrderResult(
                        written, _OC_ILLEGAL, _RC_CONFLICTING, Why(Say.CONFLICTING), rule="VII.1"))
                continue
            written, norm = pairs[-1]
            self.order[i] = written
            if len(pairs) > 1:
                self.repeats[written] = [w for w, _ in pairs[:-1]]
            if i in self.illegal_by_unit:  # the unit's illegal orders are not what it does
                self.illegal_by_unit[i] = [
                    _with(r, why=r.why._replace(say=Say.ILLEGAL_STANDS)) if r.why.say is Say.ILLEGAL_HOLDS else r
                    for r in self.illegal_by_unit[i]]
            kind = type(norm)
            if kind is Move:
                dst = norm.destination.partition("/")[0]  # type: ignore[attr-defined]
                self.ot[i] = MOVE
                self.dst[i] = dst
                self.dst_loc[i] = norm.destination  # type: ignore[attr-defined]
                self.attackers.setdefault(dst, []).append(i)
                self.mode[i] = VIA if norm.via_convoy else LAND  # type: ignore[attr-defined]  # refined in _link
            elif kind is SupportHold:
                self.ot[i] = SUPPORT
                self.sup_target[i] = index[norm.target.partition("/")[0]]  # type: ignore[attr-defined]
            elif kind is SupportMove:
                self.ot[i] = SUPPORT
                self.sup_target[i] = index[norm.target.partition("/")[0]]  # type: ignore[attr-defined]
                self.sup_dst[i] = norm.destination  # type: ignore[attr-defined]  # may carry a coast
            elif kind is Convoy:
                self.ot[i] = CONVOY
                self.sup_target[i] = index[norm.target.partition("/")[0]]  # type: ignore[attr-defined]
                self.sup_dst[i] = province_of(norm.destination)  # type: ignore[attr-defined]
        # the units moving into each space in province order, not in the order the orders were
        # given: resolution and explanations must not depend on how the orders were listed
        for movers in self.attackers.values():
            movers.sort()

    def _link(self) -> None:
        """Match the convoys and supports to the orders they name, and settle how each army goes."""
        n, ot = self.n, self.ot
        # convoy orders that match an army move to the same destination
        for c in range(n):
            if ot[c] == CONVOY:
                a = self.sup_target[c]
                if ot[a] == MOVE and self.dst[a] == self.sup_dst[c]:
                    self.convoyers[a].append(c)
        for i in range(n):
            if ot[i] == MOVE and self.units[i].kind == ARMY:
                self.mode[i] = self._army_mode(i)
        for c in range(n):
            if ot[c] == CONVOY:
                a = self.sup_target[c]
                self.matched[c] = c in self.convoyers[a] and self.mode[a] != LAND
        for a in range(n):
            if self.mode[a] == LAND:
                self.convoyers[a] = []
        for s in range(n):
            if ot[s] == SUPPORT:
                self._link_support(s)

    def _army_mode(self, i: int) -> int:
        """Whether army ``i``'s move goes over land or by convoy."""
        if self.dst[i] not in self.board.army_moves[self.prov[i]]:
            return VIA
        own_fleet = any(self.power[c] == self.power[i] for c in self.convoyers[i])
        if self.mode[i] == VIA or own_fleet:
            # 2023: the convoy is used, fallback or not.  Classic (DATC v2.4): the convoy is
            # used when a full chain of fleets was ordered to convoy; otherwise over land.
            if self.rules.convoy_falls_back_to_land and not self._ordered_chain(i):
                return LAND
            return VIA
        return LAND

    def _link_support(self, s: int) -> None:
        """Support ``s`` counts for the order it names when that order is what it supports."""
        t = self.sup_target[s]
        sd = self.sup_dst[s]
        if sd is None:
            if self.ot[t] != MOVE:
                self.matched[s] = True
                self.hold_sups[t].append(s)
        elif self.ot[t] == MOVE and self.dst[t] == province_of(sd):
            coast_ok = "/" not in sd or self.units[t].kind == ARMY or self.dst_loc[t] == sd
            if coast_ok:
                self.matched[s] = True
                self.move_sups[t].append(s)

    def _chain(self, i: int, seas: set[str]) -> bool:
        """Whether fleets in ``seas`` link army ``i``'s province to its destination."""
        nb = self.board.province_neighbours
        target = nb[self.dst[i]]  # type: ignore[index]
        frontier = [p for p in nb[self.prov[i]] if p in seas]
        seen = set(frontier)
        while frontier:
            p = frontier.pop()
            if p in target:
                return True
            for q in nb[p]:
                if q in seas and q not in seen:
                    seen.add(q)
                    frontier.append(q)
        return False

    def _route(self, i: int) -> tuple[str, ...]:
        """The seas, in order from army ``i`` to its destination, of the shortest chain of the
        fleets whose convoy succeeded (the way the army went)."""
        routes = self._routes
        route = routes.get(i)
        if route is None:
            seas = [self.prov[c] for c in self.convoyers[i] if self.resolve(c, True)]
            route = routes[i] = self.board.convoy_chain(self.prov[i], self.dst[i], seas)  # type: ignore[arg-type]
        return route

    def _ordered_chain(self, i: int) -> bool:
        """Whether the fleets ordered to convoy army ``i`` form a chain to its destination."""
        return self._chain(i, {self.prov[c] for c in self.convoyers[i]})

    # -- the equations -----------------------------------------------------------------------

    def convoy_path(self, i: int, opt: bool) -> bool:
        fleets = self.convoyers[i]
        if not fleets:
            return False
        ok = {self.prov[c] for c in fleets if self.resolve(c, opt)}
        return bool(ok) and self._chain(i, ok)

    def path(self, i: int, opt: bool) -> bool:
        if self.mode[i] == VIA:
            return self.convoy_path(i, opt)
        return True

    def convoyed(self, i: int) -> bool:
        return self.mode[i] == VIA

    def head_to_head(self, i: int, j: int) -> bool:
        return (self.ot[j] == MOVE and self.dst[j] == self.prov[i]
                and self.mode[i] == LAND and self.mode[j] == LAND)

    def count(self, sups: list[int], hi: bool, exclude_power: str | None = None) -> int:
        n = 0
        for s in sups:  # most lists are short or empty: a plain loop, settled decisions read directly
            if self.power[s] != exclude_power and (self.result[s] if self.resolved[s] else self.resolve(s, hi)):
                n += 1
        return n

    def attack(self, i: int, hi: bool) -> int:
        if not self.path(i, hi):
            return 0
        j = self.index.get(self.dst[i])  # type: ignore[arg-type]
        if j is None:
            return 1 + self.count(self.move_sups[i], hi)
        if self.ot[j] == MOVE and not self.head_to_head(i, j) and self.resolve(j, hi):
            return 1 + self.count(self.move_sups[i], hi)
        return self._attack_on(i, j, hi)

    def _attack_on(self, i: int, j: int, hi: bool) -> int:
        """The attack strength of move ``i`` on unit ``j``, which stays in the destination: nothing
        against one's own unit (IX.3), and no support from the power whose unit it is."""
        if self.power[j] == self.power[i]:
            return 0
        return 1 + self.count(self.move_sups[i], hi, self.power[j])

    def hold(self, p: str, hi: bool) -> int:
        j = self.index.get(p)
        if j is None:
            return 0
        if self.ot[j] == MOVE:
            return 0 if self.resolve(j, not hi) else 1
        return 1 + self.count(self.hold_sups[j], hi)

    def defend(self, j: int, hi: bool) -> int:
        return 1 + self.count(self.move_sups[j], hi)

    def prevent(self, k: int, hi: bool) -> int:
        if not self.path(k, hi):
            return 0
        m = self.index.get(self.dst[k])  # type: ignore[arg-type]
        if m is not None and self.head_to_head(k, m) and self.resolve(m, not hi):
            return 0
        return 1 + self.count(self.move_sups[k], hi)

    def adjudicate(self, i: int, opt: bool) -> bool:
        """Order ``i``'s decision, by the equation of its kind (a move's, a support's, a convoy's)."""
        return self._equations[self.ot[i]](self, i, opt)

    def _move_succeeds(self, i: int, opt: bool) -> bool:
        d = self.dst[i]
        a = self.attack(i, opt)
        if a == 0:
            return False
        j = self.index.get(d)  # type: ignore[arg-type]
        if j is not None and self.head_to_head(i, j):
            if self.defend(j, not opt) >= a:
                return False
        elif self.hold(d, not opt) >= a:  # type: ignore[arg-type]
            return False
        for k in self.attackers[d]:  # type: ignore[index]  # noqa: SIM110 (a loop: the hot path, no generator)
            if k != i and self.prevent(k, not opt) >= a:
                return False
        return True

    def _support_given(self, i: int, opt: bool) -> bool:
        attackers = self.attackers.get(self.prov[i])
        if not attackers:
            return True  # the usual case: nobody attacks the supporting unit
        sd = self.sup_dst[i]
        sd_prov = province_of(sd) if sd is not None else None
        for a in attackers:
            if not self._may_cut(a, i):
                continue
            if self.prov[a] == sd_prov:
                if self.resolve(a, not opt):
                    return False
            elif self.path(a, not opt):
                return False
        return True

    def _convoy_holds(self, i: int, opt: bool) -> bool:
        """A convoy succeeds unless the fleet is dislodged."""
        for a in self.attackers.get(self.prov[i], ()):  # noqa: SIM110 (a loop: the hot path, no generator)
            if self.resolve(a, not opt):
                return False
        return True

    def resolve(self, i: int, optimistic: bool) -> bool:
        if self.resolved[i]:
            return self.result[i]
        cycle = self.cycle
        if i in cycle:
            self.uncertain = True
            return optimistic
        if self.visited[i]:
            cycle.append(i)
            self.recursion_hits += 1
            self.uncertain = True
            return optimistic
        self.visited[i] = True
        old_cycle_len = len(cycle)
        old_hits = self.recursion_hits
        old_uncertain = self.uncertain
        self.uncertain = False
        decide = self._equations[self.ot[i]]  # what adjudicate does, without its call on this hot path
        opt_result = decide(self, i, True)
        pes_result = decide(self, i, False) if (self.uncertain and opt_result) else opt_result
        self.visited[i] = False
        if opt_result == pes_result:
            del cycle[old_cycle_len:]
            self.recursion_hits = old_hits
            self.uncertain = old_uncertain
            self.result[i] = opt_result
            self.resolved[i] = True
            return opt_result
        if i in cycle:
            self.recursion_hits -= 1
        if self.recursion_hits == old_hits:
            self.backup_rule(cycle[old_cycle_len:])
            del cycle[old_cycle_len:]
            self.uncertain = old_uncertain
            return self.resolve(i, optimistic)
        if i not in cycle:
            cycle.append(i)
        return optimistic

    def backup_rule(self, members: list[int]) -> None:
        ot = self.ot
        if any(ot[m] == CONVOY for m in members):
            for m in members:  # Szykman: the convoying fleets in the paradox do not convoy
                if ot[m] == CONVOY:
                    self.result[m] = False
                    self.resolved[m] = True
                    self.paradox.add(m)
        elif all(ot[m] == MOVE for m in members):
            for m in members:  # circular movement: every move succeeds
                self.result[m] = True
                self.resolved[m] = True
                self.circular.add(m)
        else:
            for m in members:
                self.result[m] = False
                self.resolved[m] = True

    # -- running and explaining --------------------------------------------------------------

    def run(self) -> MovementOutcome:
        limit = sys.getrecursionlimit()
        if limit < 10000:
            sys.setrecursionlimit(10000)
        for i in range(self.n):
            if self.ot[i] == MOVE or ((self.ot[i] in (SUPPORT, CONVOY)) and self.matched[i]):
                self.resolve(i, False)
        return self._outcome()

    def _unit(self, i: int) -> tuple[str, str]:
        """Unit ``i`` as a reason names it: its kind and location."""
        u = self.units[i]
        return (u.kind, u.location)

    def _outcome(self) -> MovementOutcome:
        n = self.n
        prov = self.prov
        self.by = self._dislodgers()
        new_units: dict[str, Unit] = {}
        dislodged: list[DislodgedUnit] = []
        for i in range(n):
            u = self.units[i]
            b = self.by[i]
            if b is not None:
                dislodged.append(DislodgedUnit(u, prov[b], self.convoyed(b), self.power[b]))
            elif self.ot[i] == MOVE and self.result[i]:
                new_units[self.dst[i]] = Unit(u.power, u.kind, self.dst_loc[i])  # type: ignore[arg-type,index]
            else:
                new_units[prov[i]] = u
        if len(new_units) + len(dislodged) != n:
            raise AssertionError("adjudication left two units in one space")  # never: the rules forbid it
        self._table = DecisionTable(self._decision_of, tuple(prov))
        contested = self._contested(new_units)
        results: list[OrderResult] = []
        for i in range(n):
            illegal = self.illegal_by_unit.get(i)
            if illegal:  # a unit's illegal orders, each with what became of the unit
                b = self.by[i]
                results.extend(_with(r, dislodged=b is not None, dislodged_by=prov[b] if b is not None else None)
                               for r in illegal)
            result = self._result_of(i)
            if result is not None:
                results.append(result)
        results.extend(self.illegal)
        results = with_repeats(results, self.repeats)
        # the results hold the table and the table this resolver (to build a record when it is
        # read); the resolver lets go of the table, or the three would make a reference cycle
        # that only the cycle collector frees, with every list of the adjudication in it
        self._table = None
        phase = Phase(self.state.phase.year, self.state.phase.season, RETREAT)
        # what GameState.build would make of these units, without re-checking every one of them
        after = self.state.evolve(phase=phase, units=new_units,
                                  dislodged=tuple(sorted(dislodged, key=lambda d: d.unit.location)),
                                  contested=frozenset(contested))
        return MovementOutcome(tuple(results), after)

    def _dislodgers(self) -> list[int | None]:
        """Who dislodged whom: at most one move into a space succeeds, and it dislodges the unit
        there unless that unit moved away."""
        by: list[int | None] = [None] * self.n
        for dst, movers in self.attackers.items():
            j = self.index.get(dst)
            if j is not None and not (self.ot[j] == MOVE and self.result[j]):
                for a in movers:
                    if self.result[a]:
                        by[j] = a
                        break
        return by

    def _contested(self, new_units: Mapping[str, Unit]) -> set[str]:
        """The provinces a standoff left empty (no dislodged unit may retreat there)."""
        contested: set[str] = set()
        for p, movers in self.attackers.items():
            if p not in new_units:
                for k in movers:
                    if not self.result[k] and self.prevent(k, True) > 0:
                        contested.add(p)
                        break
        return contested

    def _result_of(self, i: int) -> OrderResult | None:
        """The result of unit ``i``'s order (an unordered unit holds); None when its only orders were illegal."""
        b = self.by[i]
        order = self.order[i]
        if order is None:
            if i in self.illegal_by_unit:
                return None
            u = self.units[i]
            return self._explain_hold(i, Hold(u.power, u.kind, u.location), b, _RC_UNORDERED)
        ot = self.ot[i]
        if ot == MOVE:
            return self._explain_move(i, b)
        if ot == SUPPORT:
            return self._explain_support(i, b)
        if ot == CONVOY:
            return self._explain_convoy(i, b)
        return self._explain_hold(i, order, b, _RC_HOLDS)

    # -- the decision records: the DATC's strengths (section 5), read from the settled decisions --
    #
    # Every figure an explanation quotes comes from here.  The strengths are rebuilt from the
    # settled decisions with the same equations ``attack``, ``hold``, ``defend`` and ``prevent``
    # use, but keep the names of the supports in them and of those left out, and why.

    def _void_supports(self, t: int) -> list[LeftOut]:
        """The supports ordered for unit ``t`` that do not match what it was ordered to do."""
        voids = self._voids
        if voids is None:
            voids = self._voids = {}
            for s in range(self.n):
                if self.ot[s] == SUPPORT and not self.matched[s]:
                    voids.setdefault(self.sup_target[s], []).append(s)
        out = []
        for s in voids.get(t, ()):
            if self.sup_dst[s] is None:
                why = _LW_UNIT_MOVED
            elif self.ot[t] == MOVE:
                why = _LW_NOT_MATCHING
            else:
                why = _LW_UNIT_HELD
            out.append(LeftOut(self.prov[s], why))
        return out

    def _cutters(self, s: int) -> list[int]:
        """The units whose attacks cut support ``s`` (rules X): from any space but the one it
        supports into, by another power, with a route there."""
        sd = self.sup_dst[s]
        sd_prov = province_of(sd) if sd else None
        return [a for a in self.attackers.get(self.prov[s], ())
                if self._may_cut(a, s) and self.prov[a] != sd_prov and self.path(a, True)]

    def _lost_support(self, s: int) -> LeftOut:
        b = self.by[s]
        if b is not None:
            return LeftOut(self.prov[s], _LW_DISLODGED, (self.prov[b],))
        return LeftOut(self.prov[s], _LW_CUT, tuple(self.prov[a] for a in self._cutters(s)))

    def _excluded(self, s: int, victim: int) -> LeftOutWhy | None:
        """Why support ``s`` does not count in an attack on unit ``victim`` that stays, if it
        does not: its own power's unit (rules IX.3)."""
        return _LW_OWN_UNIT if self.power[s] == self.power[victim] else None

    def _shield(self, i: int, j: int) -> str:
        """Why move ``i`` cannot dislodge unit ``j`` whatever its strength ("own_unit"), or ""."""
        return "own_unit" if self.power[i] == self.power[j] else ""

    def _prevent_shield(self, k: int) -> str:
        return ""

    def _supports_in(self, sups: list[int], victim: int | None) -> tuple[tuple[str, ...], list[LeftOut]]:
        counted: list[str] = []
        left: list[LeftOut] = []
        for s in sups:
            if not self.result[s]:
                left.append(self._lost_support(s))
                continue
            why = self._excluded(s, victim) if victim is not None else None
            if why is not None:
                left.append(LeftOut(self.prov[s], why, victim=self.prov[victim]))  # type: ignore[index]
            else:
                counted.append(self.prov[s])
        return tuple(counted), left

    def _attack_strength(self, i: int) -> Strength:
        d: str = self.dst[i]  # type: ignore[assignment]
        j = self.index.get(d)
        stays = j is not None and not (self.ot[j] == MOVE and not self.head_to_head(i, j) and self.result[j])
        counted, left = self._supports_in(self.move_sups[i], j if stays else None)
        left.extend(self._void_supports(i))
        note = ""
        if not self.path(i, True):
            note = "no_route"
        elif stays:
            note = self._shield(i, j)  # type: ignore[arg-type]
        return Strength(_SK_ATTACK, self.prov[i], 0 if note else 1 + len(counted), counted, tuple(left),
                        note, d)

    def _hold_strength(self, d: str) -> Strength:
        j = self.index.get(d)
        if j is None:
            return Strength(_SK_HOLD, "", 0, note="empty", space=d)
        if self.ot[j] == MOVE:
            left = self.result[j]
            return Strength(_SK_HOLD, d, 0 if left else 1, note="left" if left else "failed_to_leave",
                            space=d)
        counted, lost = self._supports_in(self.hold_sups[j], None)
        lost.extend(self._void_supports(j))
        return Strength(_SK_HOLD, d, 1 + len(counted), counted, tuple(lost), "", d)

    def _defend_strength(self, j: int) -> Strength:
        counted, left = self._supports_in(self.move_sups[j], None)
        left.extend(self._void_supports(j))
        return Strength(_SK_DEFEND, self.prov[j], 1 + len(counted), counted, tuple(left), "",
                        self.dst[j] or "")

    def _prevent_strength(self, k: int) -> Strength:
        d: str = self.dst[k]  # type: ignore[assignment]
        counted, left = self._supports_in(self.move_sups[k], None)
        left.extend(self._void_supports(k))
        note = self._prevent_shield(k)
        if not note:
            m = self.index.get(d)
            if not self.path(k, True):
                note = "no_route"
            elif m is not None and self.head_to_head(k, m) and self.result[m]:
                note = "lost_head_to_head"
        return Strength(_SK_PREVENT, self.prov[k], 0 if note else 1 + len(counted), counted, tuple(left),
                        note, d)

    def _decision_of(self, province: str) -> Decision | None:
        """The record of the unit in ``province``: what its order's result shares."""
        i = self.index[province]
        ot = self.ot[i]
        if ot == MOVE:
            if not self.path(i, True):
                return self._why_no_convoy(i)[2]
            decision = self._move_decision(i)
            return decision._replace(route=self._route(i)) if self.mode[i] == VIA else decision
        if ot == SUPPORT:
            if not self.matched[i]:
                return None
            if not self.result[i]:
                kind = _SK_ATTACK if self.ot[self.sup_target[i]] == MOVE else _SK_HOLD
                return Decision(left_out_of=((kind, self._lost_support(i)),))
            return self._support_decision(i)
        if ot == CONVOY:
            return None
        return self._hold_decision(i)

    def _move_decision(self, i: int) -> Decision:
        d: str = self.dst[i]  # type: ignore[assignment]
        j = self.index.get(d)
        opposing = [self._defend_strength(j) if j is not None and self.head_to_head(i, j) else self._hold_strength(d)]
        opposing.extend(self._prevent_strength(k) for k in self.attackers[d] if k != i)
        swap = False
        if i in self.circular and j is not None and self.dst[j] == self.prov[i]:
            swap = True  # two units exchanging places, one or both by convoy (XIV.3)
        prevent = self._prevent_strength(i) if len(opposing) > 1 else None
        rival, ring = "", ""
        if not self.result[i] and j is not None and self._shield(i, j) == "own_unit" and not (
                self.ot[j] == MOVE and not self.head_to_head(i, j) and self.result[j]):
            k = self._deciding_rival(i, j)[0]
            rival = self.prov[k] if k is not None else ""
            ring = self._ring_broken_at(i) if not rival else ""
        fates = tuple(RivalFate(self.prov[k], self.prov[b], self.prov[b] == d, self.head_to_head(k, b))
                      for k in self.attackers[d] if k != i and (b := self.by[k]) is not None)
        return Decision(self._attack_strength(i), tuple(opposing), prevent=prevent, circular=i in self.circular,
                        swap_by_convoy=swap, decided_by_rival=rival, ring_broken_at=ring, rival_fates=fates)

    def _hold_decision(self, i: int) -> Decision:
        opposing = tuple(self._attack_strength(k) for k in self.attackers.get(self.prov[i], ()))
        return Decision(self._hold_strength(self.prov[i]), opposing)

    def _no_route(self, i: int) -> tuple[str, tuple[int, ...]]:
        """Why convoyed move ``i`` has no route, and the fleets that say so."""
        fleets = self.convoyers[i]
        if not fleets:
            elsewhere = tuple(c for c in range(self.n) if self.ot[c] == CONVOY and self.sup_target[c] == i
                              and not self.matched[c])
            if elsewhere:
                return "other_destination", elsewhere
            refused = self._refused_convoys(i)
            return ("refused", refused) if refused else ("no_fleets", ())
        para = tuple(c for c in fleets if c in self.paradox)
        if para:
            # Szykman's rule took these fleets out; where the army attacked the support of the
            # attack that dislodged its own convoying fleet, the seed's own rule decides the same
            # (XII.5: that convoyed attack does not cut that support)
            return ("xii5" if self._xii5_support(i, para) is not None else "paradox"), para
        lost = tuple(c for c in fleets if not self.result[c])
        if lost:
            return "dislodged", lost
        return "no_chain", tuple(fleets)

    def _xii5_support(self, i: int, fleets: tuple[int, ...]) -> int | None:
        """The unit convoyed army ``i`` attacks, when it supports the attack that dislodged one
        of ``fleets`` (its own convoy): rules XII.5's case; else None."""
        s = self.index.get(self.dst[i])  # type: ignore[arg-type]
        if s is None or self.ot[s] != SUPPORT or self.sup_dst[s] is None:
            return None
        sd = province_of(self.sup_dst[s])  # type: ignore[arg-type]
        for c in fleets:
            b = self.by[c]
            if self.prov[c] == sd and b is not None and self.sup_target[s] == b:
                return s
        return None

    def _refused_convoys(self, i: int) -> tuple[int, ...]:
        """The fleets ordered to convoy army ``i``'s very move whose convoy order was illegal
        (not followed, rules VII.4: a fleet on a coast, or Formal Diplomacy's relations)."""
        army, dst = self.prov[i], self.dst[i]
        return tuple(sorted(c for c, refused in self.illegal_by_unit.items() if any(
            type(r.order) is Convoy and province_of(r.order.target) == army
            and province_of(r.order.destination) == dst for r in refused)))

    def _no_route_rule(self, i: int, why: str, fleets: tuple[int, ...]) -> str:
        """The rule that decides why convoyed move ``i`` had no route: a convoy refused by Formal
        Diplomacy's relations is theirs to decide; otherwise the convoy rules."""
        if why == "refused":
            rule = next(r.rule for r in self.illegal_by_unit[fleets[0]] if type(r.order) is Convoy)
            if rule.startswith("Formal Diplomacy"):
                return rule
        if why in ("no_fleets", "refused") and self.board.can_move(ARMY, self.prov[i], self.dst[i]):  # type: ignore[arg-type]
            # it could have gone over land: its "via convoy" kept it to the convoy route (DATC 4.A.3)
            return "DATC 4.A.3"
        return "XII.1" if why == "refused" else _NO_ROUTE_RULES[why]

    def _why_no_convoy(self, i: int) -> tuple[Why, str, Decision]:
        """Why convoyed move ``i`` found no route, the rule that says so, and the record."""
        why, fleets = self._no_route(i)
        spaces = tuple(self.prov[c] for c in fleets)
        if why == "other_destination":
            spaces += tuple(self.sup_dst[c] for c in fleets) + (self.dst[i],)  # type: ignore[operator]
        text = Why(_NO_ROUTE_SAY[why], self.board, spaces=spaces)
        xii5 = self._xii5_support(i, fleets) if why == "xii5" else None
        decision = Decision(self._attack_strength(i), (), no_route=why,
                            fleets=tuple(self.prov[c] for c in self.convoyers[i]),
                            attacked_support=self.prov[xii5] if xii5 is not None else "",
                            other_fleets=tuple(self.prov[c] for c in fleets) if why == "other_destination" else (),
                            refused=tuple(self.prov[c] for c in fleets) if why == "refused" else ())
        return text, self._no_route_rule(i, why, fleets), decision

    @staticmethod
    def _legacy(left: tuple[LeftOut, ...]) -> tuple[tuple[str, str], ...]:
        """``OrderResult.not_counted``: the supports lost (cut or dislodged: "cut") or kept out."""
        return tuple((lo.support, "cut" if lo.why in (_LW_CUT, _LW_DISLODGED) else lo.why.value)
                     for lo in left if lo.why not in _VOID_REASONS)

    def _explain_move(self, i: int, by: int | None) -> OrderResult:
        order: Order = self.order[i]  # type: ignore[assignment]
        d: str = self.dst[i]  # type: ignore[assignment]
        prov = self.prov
        lost, lost_to = by is not None, prov[by] if by is not None else None
        if not self.result[i] and not self.path(i, True):
            text, rule, decision = self._why_no_convoy(i)
            return OrderResult(order, _OC_FAILURE, _RC_NO_CONVOY, text, (), None, None, lost, lost_to,
                               rule, record=decision)
        j = self.index.get(d)
        if not self.result[i]:
            stays = j is not None and not (self.ot[j] == MOVE and not self.head_to_head(i, j) and self.result[j])
            shield = self._shield(i, j) if stays else ""  # type: ignore[arg-type]
            if not shield:
                return self._explain_bounce(i, order, lost, lost_to)
            rival, how = self._deciding_rival(i, j) if shield == "own_unit" else (None, "")  # type: ignore[arg-type]
            if rival is not None:
                return self._explain_rival(i, order, rival, how, lost, lost_to)
            code, outcome, rule = _SHIELD_RESULTS[shield]
            text = Why(_SHIELD_SAY[shield], self.board, (self._unit(j),),  # type: ignore[arg-type]
                       powers=(self.power[i], self.power[j]))  # type: ignore[index]
            counted, other = self._move_supports(i)
            return OrderResult(order, outcome, code, text, (prov[j],), None, None, lost, lost_to,  # type: ignore[index]
                               rule, counted, other, record=self._table)
        return self._explain_success(i, j, order, lost, lost_to)

    def _explain_success(self, i: int, j: int | None, order: Order, lost: bool, lost_to: str | None) -> OrderResult:
        """A move that succeeded: the figures from the settled decisions, the record when read.  Its
        attack strength is the unit and the supports that counted (a move that succeeded had a
        route and was not kept from the unit there, DATC 5)."""
        counted, other = self._move_supports(i)
        a = 1 + len(counted)
        opp, who = self._opposition_value(i)
        where = (self.dst_loc[i],)
        circular = i in self.circular
        # how it went, said right after where: "moves to Belgium by convoy, dislodging ..."
        route: tuple[str, ...] = ()
        if self.mode[i] == VIA:
            route = self._route(i)
            how = "convoy"
        elif getattr(order, "via_convoy", False):
            how = "overland"
        else:
            how = ""
        board = self.board
        if circular and j is not None and self.dst[j] == self.prov[i]:
            # the exchange is by convoy (one or both ways): said once
            text = Why(Say.SWAPPED_BY_CONVOY, board, (self._unit(j),), where,  # type: ignore[arg-type]
                       mode="convoy" if self.mode[i] == VIA else "other")
            rule = "XIV.3"
        elif circular:
            text = Why(Say.RING, board, (), where, mode=how)  # type: ignore[arg-type]
            rule = "XIV.3"
        elif j is not None and self.by[j] == i:
            u = self.units[j]
            text = _why(Why, (_SAY_DISLODGING, board, ((u.kind, u.location),), where, (a, opp), (), how, "", None))
            rule = "IX.2"
        elif opp > 0:
            text = _why(Why, (_SAY_MOVED_AGAINST, board, (), where, (a, opp), (), how, "", None))
            rule = "IX.2"
        else:
            text = _why(Why, (_SAY_MOVED, board, (), where, (), (), how, "", None))
            rule = "VII.3.2" if "/" in self.dst_loc[i] else "VII.1"  # type: ignore[operator]
        if not circular and self._beat_dislodged_rival(i):
            rule = "IX.7"
        if self.mode[i] == VIA:
            if rule in ("VII.1", "VII.3.2"):
                lost_fleets = any(not self.result[c] for c in self.convoyers[i])
                rule = "XII.4" if lost_fleets else ("XII.2" if len(route) > 1 else "XII.1")
        elif how:
            rule = "DATC 4.A.3"  # ordered "via convoy", no convoy ordered: the classic fallback over land
        return _result(OrderResult, (order, _OC_SUCCESS, _RC_MOVED, text, who, a, opp, lost, lost_to, rule,
                                     counted, other, route, self._table))

    def _opposition_value(self, i: int) -> tuple[int, tuple[str, ...]]:
        """The strongest strength against move ``i`` (DATC 5: the hold or defend strength of its
        destination, the prevent strengths of the other moves there), and whose it is."""
        d: str = self.dst[i]  # type: ignore[assignment]
        j = self.index.get(d)
        if j is not None and self.head_to_head(i, j):
            best, who = self.defend(j, True), [j]
        else:
            best, who = self.hold(d, True), ([j] if j is not None else [])
        for k in self.attackers[d]:
            if k != i:
                p = self.prevent(k, True)
                if p > best:
                    best, who = p, [k]
                elif p == best:
                    who.append(k)
        prov = self.prov
        return best, (tuple([prov[k] for k in who]) if best > 0 else ())

    def _move_supports(self, i: int) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        """``supports`` and ``not_counted`` of move ``i``'s result, without building its record."""
        sups = self.move_sups[i]
        if not sups:
            return (), ()
        prov, result = self.prov, self.result
        j = self.index.get(self.dst[i])  # type: ignore[arg-type]
        stays = j is not None and not (self.ot[j] == MOVE and not self.head_to_head(i, j) and result[j])
        counted: list[str] = []
        other: list[tuple[str, str]] = []
        for s in sups:
            if not result[s]:
                other.append((prov[s], "cut"))
            elif stays and (why := self._excluded(s, j)) is not None:  # type: ignore[arg-type]
                other.append((prov[s], why.value))
            else:
                counted.append(prov[s])
        return tuple(counted), tuple(other)

    def _deciding_rival(self, i: int, j: int) -> tuple[int | None, str]:
        """For move ``i``, which failed into a space where unit ``j`` (that it may not dislodge)
        stayed: the other move to that space that decided it, if one did, and how ("beaten": it
        was stronger, so ``i`` fails whatever ``j`` does, rules IX.2; "equal": equal, and
        ``j`` stayed only because ``i`` failed (a ring of moves), rules VIII)."""
        rivals = [k for k in self.attackers[self.dst[i]] if k != i]  # type: ignore[index]
        if not rivals:
            return None, ""
        mine = self.prevent(i, True)
        best_k = max(rivals, key=lambda k: self.prevent(k, True))
        best = self.prevent(best_k, True)
        if best > mine:
            return best_k, "beaten"
        if best == mine > 0 and self._waits_on(j, i):
            return best_k, "equal"
        return None, ""

    def _waits_on(self, j: int, i: int) -> bool:
        """Whether unit ``j`` failed to leave only because move ``i`` failed: its failed move
        leads, from failed move to failed move, back to ``i``'s space (a ring)."""
        seen: set[int] = set()
        p: int | None = j
        while p is not None and p not in seen and self.ot[p] == MOVE and not self.result[p]:
            seen.add(p)
            p = self.index.get(self.dst[p])  # type: ignore[arg-type]
            if p == i:
                return True
        return False

    def _ring_broken_at(self, i: int) -> str:
        """For a move that failed because its own power's unit did not leave its destination, in a
        ring of moves: the province of the ring's move that another move beat or stood off."""
        seen: set[int] = set()
        p: int | None = i
        while p is not None and p not in seen and self.ot[p] == MOVE and not self.result[p]:
            seen.add(p)
            j = self.index.get(self.dst[p])  # type: ignore[arg-type]
            if j is not None and self._shield(p, j) == "own_unit" and self._deciding_rival(p, j)[0] is not None:
                return self.prov[p]
            p = j
        return ""

    def _explain_rival(self, i: int, order: Order, k: int, how: str, lost: bool,
                       lost_to: str | None) -> OrderResult:
        """A move into a space its own power's unit did not leave, decided by another move there:
        beaten by a stronger one (IX.2), or stood off by an equal one in a ring (VIII)."""
        mine, theirs = self.prevent(i, True), self.prevent(k, True)
        say, rule = (Say.RIVAL_STRONGER, "IX.2") if how == "beaten" else (Say.RIVAL_STANDOFF, "VIII")
        text = Why(say, self.board, (self._unit(k),), (self.dst[i],), (mine, theirs))  # type: ignore[arg-type]
        counted, other = self._move_supports(i)
        return OrderResult(order, _OC_FAILURE, _RC_BOUNCED, text, (self.prov[k],), mine, theirs, lost, lost_to,
                           rule, counted, other, record=self._table)

    def _beat_dislodged_rival(self, i: int) -> bool:
        """Whether another move to the same space failed to stand move ``i`` off only because the
        unit it came from was dislodged by the unit leaving that space (rules IX.7)."""
        d = self.dst[i]
        if len(self.attackers[d]) < 2:  # type: ignore[index]
            return False
        m = self.index.get(d)  # type: ignore[arg-type]
        if m is None or not (self.ot[m] == MOVE and self.result[m]):
            return False
        return any(k != i and self.head_to_head(k, m) and self.by[k] == m
                   for k in self.attackers[d])  # type: ignore[index]

    def _explain_bounce(self, i: int, order: Order, lost: bool, lost_to: str | None) -> OrderResult:
        """A move that failed against the opposition in its destination: the figures from the
        settled decisions (the DATC's equations), the record when it is read."""
        a = self.attack(i, True)
        d: str = self.dst[i]  # type: ignore[assignment]
        j = self.index.get(d)
        # the strength of the destination (defend, head to head; else hold), then the prevent
        # strengths of the other moves there; a failed move always meets one at least as strong
        if j is not None and self.head_to_head(i, j):
            kind, value = _SK_DEFEND, self.defend(j, True)
        else:
            kind, value = _SK_HOLD, self.hold(d, True)
        opp, first = value, j  # the headline names the first of the strongest
        who = [j] if j is not None and value >= a else []
        rivals: list[int] = []  # the other moves there that stood it off
        for k in self.attackers[d]:
            if k != i:
                p = self.prevent(k, True)
                if p >= a:
                    rivals.append(k)
                    who.append(k)
                    if p > opp or (p == opp and kind is _SK_HOLD and j is not None and self.ot[j] == MOVE):
                        # a standoff decides it (VIII) before the unit there that failed to leave,
                        # which may have stayed only because of this very standoff (a ring)
                        opp, first, kind = p, k, _SK_PREVENT
        code, text = self._bounce_text(d, a, opp, kind, first)
        counted, other = self._move_supports(i)
        rule = self._bounce_rule(i, a, opp, other, rivals, who)
        prov = self.prov
        route = self._route(i) if self.mode[i] == VIA else ()  # the convoy worked: the army bounced there
        return _result(OrderResult, (order, _OC_FAILURE, code, text, tuple([prov[k] for k in who]), a, opp,
                                     lost, lost_to, rule, counted, other, route, self._table))

    def _bounce_text(self, d: str, a: int, opp: int, kind: Any, first: int | None) -> tuple[str, Why]:
        """The result code and the facts of a move into ``d`` that failed against the strongest opposition."""
        code = _RC_BOUNCED
        if kind is _SK_DEFEND:
            code = _RC_HEAD_TO_HEAD
            say = _BOUNCE_SAY[0 if opp > a else 1]
        elif kind is _SK_HOLD:
            if first is not None and self.ot[first] == MOVE:
                say = _BOUNCE_SAY[2]
            else:
                say = _BOUNCE_SAY[3 if opp > a else 4]
        else:
            say = _BOUNCE_SAY[5 if opp > a else 6]
        if first is not None:
            u = self.units[first]
            units: tuple[tuple[str, str], ...] = ((u.kind, u.location),)
        else:
            units = ()
        return code, _why(Why, (say, self.board, units, (d,), (a, opp), (), "", "", None))

    def _bounce_rule(self, i: int, a: int, opp: int, other: Any, rivals: list[int], who: list[int]) -> str:
        """The rule that decided a failed move: what kept the winning strength from it, else how it failed."""
        rule = ""
        if other:
            shielded = [why for _, why in other if why != "cut"]
            cut = len(other) - len(shielded)
            if shielded and a + len(shielded) > opp:
                # the support that would have won does not count against its own power's unit
                rule = RULE_ALLIED if _LW_ALLIED_UNIT.value in shielded else "IX.3"
            elif cut and a + cut > opp:
                rule = "X"  # the support that was cut would have carried the move
        if rule:
            return rule
        if rivals and len(rivals) == len(who) and all(self.power[k] == self.power[i] for k in rivals):
            return "IX.4"  # a power may stand itself off (or be beaten by its own better supported move)
        if any(self.by[k] is not None for k in rivals):
            return "IX.7"  # a dislodged unit still stands off the others moving where it moved
        return "VIII" if opp == a else "IX.2"

    def _explain_support(self, s: int, by: int | None) -> OrderResult:
        order: Order = self.order[s]  # type: ignore[assignment]
        t = self.sup_target[s]
        lost, lost_to = by is not None, self.prov[by] if by is not None else None
        if not self.matched[s]:
            return self._explain_void_support(s, t, order, lost, lost_to)
        if not self.result[s]:
            return self._explain_cut_support(s, by, order, lost, lost_to)
        attackers = self.attackers.get(self.prov[s], ())
        plain = self._plain_use(s, t)
        attacked = self._not_cut_rule(s) if attackers else ""
        if plain:
            text = _SUPPORT_GIVEN if plain == "counted" else _SUPPORT_IDLE
            rule = attacked or ("VII.3.2" if self._support_past_coast(s, t) else "IX.2")
            return _result(OrderResult, (order, _OC_SUCCESS, _RC_SUPPORTED, text, (self.prov[t],), None, None,
                                         lost, lost_to, rule, (), (), (), self._table))
        text, rule = self._support_use_words(s, t, attacked)
        if attacked in _PARADOX_RULES:
            rule = attacked
        return OrderResult(order, _OC_SUCCESS, _RC_SUPPORTED, text, (self.prov[t],), None, None, lost,
                           lost_to, rule, record=self._table)

    def _support_past_coast(self, s: int, t: int) -> bool:
        """Whether fleet ``s`` supports unit ``t`` on (or into) a coast it could not move to itself,
        which VII.3.2 allows: it may support anywhere in a province it can move to."""
        if self.units[s].kind == ARMY or self.units[t].kind == ARMY:
            return False
        where = self.dst_loc[t] if self.ot[t] == MOVE else self.units[t].location
        return where is not None and "/" in where and not self.board.can_move(
            FLEET, self.units[s].location, where)

    def _explain_void_support(self, s: int, t: int, order: Order, lost: bool, lost_to: str | None) -> OrderResult:
        """A support that does not match what the supported unit was ordered to do."""
        unit = (self._unit(t),)
        if self.sup_dst[s] is None:
            text = Why(Say.VOID_HOLD_SUPPORT, self.board, unit)
        elif self.ot[t] == MOVE:
            # a move that failed did not move at all: then the reason says what it was ordered
            text = Why(Say.VOID_OTHER_MOVE, self.board, unit, (self.dst_loc[t],),  # type: ignore[arg-type]
                       mode="" if self.result[t] else "failed")
        else:
            text = Why(Say.VOID_NOT_MOVING, self.board, unit)
        # a unit ordered to move may be supported only in that move (IX.6); a support must
        # name the move the unit makes (IX.1)
        rule = "IX.6" if self.sup_dst[s] is None else "IX.1"
        return OrderResult(order, _OC_VOID, _RC_VOID, text, (self.prov[t],), None, None, lost,
                           lost_to, rule)

    def _explain_cut_support(self, s: int, by: int | None, order: Order, lost: bool,
                             lost_to: str | None) -> OrderResult:
        """A support that was cut, or whose unit was dislodged (rule X)."""
        lo = self._lost_support(s)
        if lo.why is _LW_DISLODGED:
            text = Why(Say.CUT_DISLODGED, self.board, (self._unit(by),))  # type: ignore[arg-type]
        else:
            text = Why(Say.CUT_BY, self.board, tuple(self._unit(self.index[p]) for p in lo.by))
        return OrderResult(order, _OC_FAILURE, _RC_CUT, text, lo.by, None, None, lost, lost_to, "X",
                           record=self._table)

    def _plain_use(self, s: int, t: int) -> str:
        """The usual cases first: support ``s`` is in the attack strength of the move (or the hold
        strength of the unit) it supports ("counted"), or supports a unit nobody attacked ("idle");
        "" when the record must be worked out (what _counts_plainly works out, without the calls on
        this hot path)."""
        ot = self.ot
        if ot[t] != MOVE:
            held = self.attackers.get(self.prov[t])
            if not held:
                return "idle"
            return "counted" if any(self.mode[k] == LAND or self.convoy_path(k, True) for k in held) else ""
        if not (self.mode[t] == LAND or self.convoy_path(t, True)):
            return ""
        j = self.index.get(self.dst[t])  # type: ignore[arg-type]
        if j is None or (ot[j] == MOVE and self.result[j]
                         and not (self.dst[j] == self.prov[t] and self.mode[t] == LAND and self.mode[j] == LAND)):
            return "counted"  # into an empty space, or one its unit left
        if self._formal:
            return self._counts_plainly(s, t)
        power = self.power
        return "counted" if power[t] != power[j] and power[s] != power[j] else ""

    def _support_use_words(self, s: int, t: int, attacked: str) -> tuple[Why, str]:
        """What a support that was not cut did, from its record, with the rule that decides it."""
        kinds, excluded = self._support_use(s, t)
        if _SK_ATTACK in kinds or _SK_HOLD in kinds:
            return _SUPPORT_GIVEN, attacked or "IX.2"
        if excluded:
            rule = RULE_ALLIED if excluded[0] is _LW_ALLIED_UNIT else "IX.3"
            return Why(Say.SUPPORT_PREVENT_ONLY if kinds else Say.SUPPORT_SHUT_OUT), rule
        if kinds:
            return _SUPPORT_GIVEN, attacked or "IX.2"
        rule = "IX.2"
        if self.ot[t] == MOVE and not self.path(t, True):
            rule = self._no_route_rule(t, *self._no_route(t))
        elif self.ot[t] == MOVE:
            j = self.index.get(self.dst[t])  # type: ignore[arg-type]
            shield = self._shield(t, j) if j is not None and not (
                self.ot[j] == MOVE and not self.head_to_head(t, j) and self.result[j]) else ""
            if shield:
                rule = _SHIELD_RESULTS[shield][2]  # the move it supports cannot dislodge that unit
        return _SUPPORT_IDLE, rule

    def _not_cut(self, s: int) -> tuple[NotCut, ...]:
        """Every move into the space of support ``s`` (which was not cut), and why it did not cut
        it: the facts the explanation names, each with the rule that decides it."""
        sd = self.sup_dst[s]
        sd_prov = province_of(sd) if sd is not None else None
        out = []
        for a in self.attackers.get(self.prov[s], ()):
            seas: tuple[str, ...] = ()
            if not self._may_cut(a, s):
                why = self._not_cut_by_relation(a, s)
            elif self.prov[a] == sd_prov:
                why = NotCutWhy.FROM_TARGET
            else:  # a convoyed army without a route: why it had none
                seas = tuple(self.prov[c] for c in self.convoyers[a])
                para = [c for c in self.convoyers[a] if c in self.paradox]
                if para and sd_prov is not None and any(self.prov[c] == sd_prov for c in para):
                    why, seas = NotCutWhy.CONVOY_ATTACKED, (sd_prov,)
                elif para:
                    why = NotCutWhy.SZYKMAN
                else:
                    why = NotCutWhy.NO_ROUTE
            out.append(NotCut(self.prov[a], why, seas))
        return tuple(out)

    def _not_cut_by_relation(self, a: int, s: int) -> NotCutWhy:
        """Why move ``a`` may not cut support ``s``: its own power's (the note to IX.6)."""
        return NotCutWhy.OWN_POWER

    def _not_cut_rule(self, s: int) -> str:
        """The rule that decides why support ``s``, attacked, was not cut: the most particular
        of the reasons of the moves against it."""
        whys = {nc.why for nc in self._not_cut(s)}
        return next(rule for why, rule in _NOT_CUT_RULES if why in whys)

    def _support_use(self, s: int, t: int) -> tuple[set[StrengthKind], list[LeftOutWhy]]:
        """The strengths of unit ``t``'s move that support ``s`` (not cut, not plainly in its
        attack) is part of, as :meth:`_support_decision` records them, and why it is kept out of
        the attack strength, if it is."""
        kinds: set[StrengthKind] = set()
        if self.ot[t] != MOVE:
            return kinds, []
        j = self.index.get(self.dst[t])  # type: ignore[arg-type]
        excluded: list[LeftOutWhy] = []
        if j is not None and not (self.ot[j] == MOVE and not self.head_to_head(t, j) and self.result[j]):
            why = self._excluded(s, j)
            if why is not None:
                excluded.append(why)
        if not self.path(t, True):
            return kinds, excluded
        if any(k != t for k in self.attackers[self.dst[t]]) and self.prevent(t, True) > 0:  # type: ignore[index]
            kinds.add(_SK_PREVENT)
        if any(self.head_to_head(k, t) for k in self.attackers.get(self.prov[t], ())):
            kinds.add(_SK_DEFEND)
        return kinds, excluded

    def _counts_plainly(self, s: int, t: int) -> str:
        """"counted" when support ``s`` (not cut) is in the attack strength of the move of unit
        ``t`` it supports, or in the hold strength of unit ``t`` while a move with a route
        attacks it; "idle" when it supports the hold of a unit nothing attacks; else ""."""
        if self.ot[t] == MOVE:
            if not self.path(t, True):
                return ""
            j = self.index.get(self.dst[t])  # type: ignore[arg-type]
            if j is None or (self.ot[j] == MOVE and not self.head_to_head(t, j) and self.result[j]):
                return "counted"
            return "counted" if not self._shield(t, j) and self._excluded(s, j) is None else ""
        attackers = self.attackers.get(self.prov[t])
        if not attackers:
            return "idle"
        return "counted" if any(self.path(k, True) for k in attackers) else ""

    def _support_decision(self, s: int) -> Decision:
        """Which of the supported unit's strengths support ``s`` is part of (those compared with
        something), and which it is kept out of."""
        t = self.sup_target[s]
        p = self.prov[s]
        counted_in: list[Strength] = []
        left_out_of: list[tuple[StrengthKind, LeftOut]] = []
        if self.ot[t] == MOVE:
            d: str = self.dst[t]  # type: ignore[assignment]
            attack = self._attack_strength(t)
            if attack.note == "" and p in attack.counted:
                counted_in.append(attack)
            for lo in attack.left_out:
                if lo.support == p:
                    left_out_of.append((_SK_ATTACK, lo))
            if any(k != t for k in self.attackers[d]):
                prevent = self._prevent_strength(t)
                if prevent.note == "" and p in prevent.counted:
                    counted_in.append(prevent)
            if any(self.head_to_head(k, t) for k in self.attackers.get(self.prov[t], ())):
                defend = self._defend_strength(t)
                if p in defend.counted:
                    counted_in.append(defend)
        elif any(self.path(k, True) for k in self.attackers.get(self.prov[t], ())):
            counted_in.append(self._hold_strength(self.prov[t]))
        return Decision(counted_in=tuple(counted_in), left_out_of=tuple(left_out_of), not_cut=self._not_cut(s))

    def _garrison(self, i: int, attackers: list[int], values: list[int], h: int, code: ResultCode
                  ) -> tuple[Why, str]:
        """Why unit ``i`` held although an attack on it was stronger than its hold: the attacks stood
        each other off (IX.5), or a move that may not dislodge it (its own power's, IX.3) stood the
        stronger one off."""
        mode = "holds" if code == _RC_HOLDS else "no_order"
        strongest = max(values)
        strong = [k for k, v in zip(attackers, values, strict=True) if v > h]
        prevents = sorted((self.prevent(k, True) for k in attackers), reverse=True)
        blockers = [k for k, v in zip(attackers, values, strict=True)
                    if v <= h and self.prevent(k, True) >= strongest]
        if len(strong) == 1 and blockers and prevents[0] != prevents[1]:
            # one attack would have dislodged it; a better supported move that may not dislodge it
            # (its own power's, or kept from it by its supports' power) stood that attack off
            zero = [k for k, v in zip(attackers, values, strict=True) if k in blockers and v == 0]
            notes = {self._shield(k, i) for k in zero}
            rule = "IX.3" if "own_unit" in notes or not notes else _SHIELD_RESULTS[
                "neutral" if "neutral" in notes else "allied"][2]
            return Why(Say.GARRISON_SHIELDED, self.board, tuple(self._unit(k) for k in strong + blockers),
                       numbers=(len(strong), len(zero)), mode=mode), rule
        # attacks that would have dislodged it stood each other off (beleaguered garrison)
        return Why(Say.BELEAGUERED, self.board, tuple(self._unit(k) for k in attackers), mode=mode), "IX.5"

    def _may_cut(self, a: int, s: int) -> bool:
        """Whether a move of unit ``a`` into the space of supporting unit ``s`` can cut its
        support (as ``adjudicate`` decides it): not a move by the supporter's own power."""
        return self.power[a] != self.power[s]

    def _explain_convoy(self, c: int, by: int | None) -> OrderResult:
        order: Order = self.order[c]  # type: ignore[assignment]
        a = self.sup_target[c]
        lost, lost_to = by is not None, self.prov[by] if by is not None else None
        army = (self.prov[a],)
        if not self.matched[c]:
            rule = "XII.1"
            if self.ot[a] == MOVE and self.dst[a] == self.sup_dst[c]:
                # the army could go over land or by convoy, and its orders do not ask for this
                # convoy: intent decides (XII.6; DATC 4.A.3)
                rule = "XII.6"
                own = any(self.power[f] == self.power[a] for f in range(self.n)
                          if self.ot[f] == CONVOY and self.sup_target[f] == a)
                text = Why(Say.CONVOY_OVERLAND if own else Say.CONVOY_UNWANTED, self.board, (self._unit(a),))
            else:
                text = Why(Say.CONVOY_NOT_ORDERED, self.board, (self._unit(a),))
            return OrderResult(order, _OC_VOID, _RC_VOID, text, army, None, None, lost, lost_to, rule)
        if c in self.paradox and by is None:
            return OrderResult(order, _OC_FAILURE, _RC_PARADOX, Why(Say.CONVOY_PARADOX), army,
                               None, None, lost, lost_to, "DATC 4.A.2")
        if not self.result[c]:
            rule = "XII.3"
            other_route: tuple[str, ...] = ()
            if self.ot[a] == MOVE and self.mode[a] == VIA and self.path(a, True):
                # the army had another route: this fleet's loss did not stop it (XII.4), and
                # XII.3's "the army stays" would be false here
                other_route = self._route(a)
                rule = "XII.4"
            text = Why(Say.CONVOY_DISRUPTED, self.board, (self._unit(by),) if by is not None else (), other_route)
            return OrderResult(order, _OC_FAILURE, _RC_DISRUPTED, text,
                               (self.prov[by],) if by is not None else (), None, None, lost, lost_to, rule)
        if not self.path(a, True):
            _, rule, decision = self._why_no_convoy(a)
            why, fleets = self._no_route(a)
            unused = Why(Say.CONVOY_UNUSED, self.board, spaces=tuple(self.prov[f] for f in fleets), mode=why)
            return OrderResult(order, _OC_FAILURE, _RC_CONVOY_UNUSED, unused, army, None, None,
                               lost, lost_to, rule, record=decision)
        route = self._route(a)
        spaces = (self.dst[a], *route)
        if self.prov[c] in route:
            text = Why(Say.CONVOYS, self.board, (), spaces, mode="" if self.result[a] else "failed")  # type: ignore[arg-type]
            rule = "XII.2" if len(route) > 1 else "XII.1"
        else:
            text = Why(Say.CONVOYS_ELSEWHERE, self.board, (), spaces)  # type: ignore[arg-type]
            rule = "XII.4"
        return OrderResult(order, _OC_SUCCESS, _RC_CONVOYED, text, army, None, None, lost, lost_to,
                           rule, route=route)

    def _explain_hold(self, i: int, order: Order, by: int | None, code: ResultCode) -> OrderResult:
        prov = self.prov
        sups = self.hold_sups[i]
        counted: tuple[str, ...] = ()
        other: tuple[tuple[str, str], ...] = ()
        if sups:
            counted = tuple([prov[x] for x in sups if self.result[x]])
            other = tuple([(prov[x], "cut") for x in sups if not self.result[x]])
        record = self._table
        h = 1 + len(counted)
        if by is not None:
            a = self.attack(by, True)
            rule = "X" if other and h + len(other) >= a else "IX.2"  # a cut support would have held it
            return OrderResult(order, _OC_FAILURE, _RC_DISLODGED,
                               _why(Why, (_SAY_DISLODGED_BY, self.board, (self._unit(by),), (), (a, h), (), "", "",
                                          None)),
                               (prov[by],), a, h, True, prov[by], rule, counted, other, record=record)
        text = _HOLDS if code == _RC_HOLDS else _NO_ORDER
        attackers = [k for k in self.attackers.get(prov[i], ()) if self.path(k, True)]
        if not attackers:
            # not attacked (the usual case)
            return _result(OrderResult, (order, _OC_SUCCESS, code, text, (), None, None, False, None, "VII.1",
                                         counted, other, (), record))
        values = [self.attack(k, True) for k in attackers]
        strongest = max(values)
        involved = tuple(prov[k] for k in attackers)
        if strongest > h:
            text, rule = self._garrison(i, attackers, values, h, code)
        elif strongest == 0:
            notes = {self._shield(k, i) for k in attackers}
            rule = _SHIELD_RESULTS["own_unit" if "own_unit" in notes else ("neutral" if "neutral" in notes
                                                                         else "allied")][2]
        else:
            rule = "VIII" if strongest == h else "IX.2"
        return OrderResult(order, _OC_SUCCESS, code, text, involved, h, strongest, False, None, rule, counted,
                           other, record=record)


#: why a convoyed move had no route: the reason that says so
_NO_ROUTE_SAY = {"no_fleets": Say.NO_FLEETS, "refused": Say.CONVOY_REFUSED, "other_destination": Say.CONVOY_ELSEWHERE,
                 "paradox": Say.NO_CONVOY_PARADOX, "xii5": Say.NO_CONVOY_DISRUPTED,
                 "dislodged": Say.NO_CONVOY_DISRUPTED, "no_chain": Say.NO_CHAIN}
#: a move into a space whose unit stayed and which it may not dislodge: the reason
_SHIELD_SAY = {"own_unit": Say.OWN_UNIT_STAYED, "allied": Say.ALLY_STAYED, "neutral": Say.NEUTRAL_STAYED}
#: a failed move's reasons, by how it failed (read by index on the hot path: see _bounce_text)
_BOUNCE_SAY = (Say.LOST_HEAD_TO_HEAD, Say.HEAD_TO_HEAD_STANDOFF, Say.FAILED_TO_LEAVE, Say.HELD_STRONGER,
               Say.BOUNCED_OFF, Say.BEATEN_BY_RIVAL, Say.STOOD_OFF)
#: the reasons with no facts to name, made once
_SUPPORT_GIVEN = Why(Say.SUPPORT_GIVEN)
_SUPPORT_IDLE = Why(Say.SUPPORT_IDLE)
_HOLDS = Why(Say.HOLDS)
_NO_ORDER = Why(Say.NO_ORDER)

#: why a convoyed move had no route: the rule that says so
_NO_ROUTE_RULES = {"no_fleets": "XII.1", "other_destination": "XII.1", "xii5": "XII.3", "paradox": "DATC 4.A.2",
                   "dislodged": "XII.3", "no_chain": "XII.2"}

#: why an attacked support was not cut, most particular first: the rule that decides it
_NOT_CUT_RULES = (
    (NotCutWhy.SZYKMAN, "DATC 4.A.2"),
    (NotCutWhy.CONVOY_ATTACKED, "XII.5"),
    (NotCutWhy.NEUTRAL, RULE_NEUTRAL),
    (NotCutWhy.ALLIED, RULE_ALLIED),
    (NotCutWhy.OWN_POWER, "note to IX.6"),
    (NotCutWhy.NO_ROUTE, "X"),
    (NotCutWhy.FROM_TARGET, "X"),
)
_PARADOX_RULES = frozenset({"DATC 4.A.2", "XII.5"})

#: supports that were never given for what the unit did (void): not ``not_counted``
_VOID_REASONS = frozenset({_LW_NOT_MATCHING, _LW_UNIT_MOVED, _LW_UNIT_HELD})

#: an attack on a unit it may not dislodge whatever its strength: the result's code, outcome and rule
_SHIELD_RESULTS = {
    "own_unit": (_RC_OWN_UNIT, _OC_FAILURE, "IX.3"),
    "allied": (_RC_FORMAL_ALLIED, _OC_FAILURE, RULE_ALLIED),
    "neutral": (_RC_FORMAL_NEUTRAL, _OC_VOID, RULE_NEUTRAL),
}


def _with(result: OrderResult, **changes: Any) -> OrderResult:
    return result._replace(**changes)


class _FormalResolver(_Resolver):
    """The adjudicator under Formal Diplomacy (seed 003): the standard resolver, with the
    relations deciding who may dislodge whom, whose supports count and who cuts them, and with
    neutrality violations interned at the end.  The standard game never comes here."""

    _formal = True

    def __init__(self, state: GameState, orders: Iterable[Order], rules: RuleSet) -> None:
        rel = state.relations
        assert rel is not None
        self.relations = rel
        powers = sorted({u.power for u in state.units.values()})
        #: (a, b) -> their relation, for every pair of powers with units
        self.rel: dict[tuple[str, str], str] = {
            (a, b): rel.between(a, b) for a in powers for b in powers if a != b}
        super().__init__(state, orders, rules)

    def _shielded(self, i: int, j: int) -> str | None:
        """The relation that keeps unit ``i`` from dislodging unit ``j`` (its own power:
        "own"; an ally: "alliance"; a neutral: "neutral"), or None when it may (war)."""
        a, b = self.power[i], self.power[j]
        if a == b:
            return "own"
        r = self.rel[(a, b)]
        return None if r == WAR else r

    def _counts_against(self, s: int, target_power: str) -> bool:
        """Whether support ``s`` counts in an attack on a unit of ``target_power``: not from that
        power itself (rules IX.3) nor from its ally (an ally cannot help dislodge its ally)."""
        p = self.power[s]
        return p != target_power and self.rel.get((p, target_power)) != ALLIANCE

    def _count_against(self, sups: list[int], hi: bool, target_power: str) -> int:
        n = 0
        for s in sups:
            if self._counts_against(s, target_power) and (self.result[s] if self.resolved[s] else self.resolve(s, hi)):
                n += 1
        return n

    def _attack_on(self, i: int, j: int, hi: bool) -> int:
        if self._shielded(i, j) is not None:
            return 0  # its own, an ally's or a neutral's unit that stays is never dislodged
        return 1 + self._count_against(self.move_sups[i], hi, self.power[j])

    def prevent(self, k: int, hi: bool) -> int:
        m = self.index.get(self.dst[k])  # type: ignore[arg-type]
        # a move into a space holding a neutral's unit is void, treated as a hold, unless that
        # unit leaves: it stands nobody off there
        if m is not None and self._shielded(k, m) == NEUTRAL and not (
                self.ot[m] == MOVE and not self.head_to_head(k, m) and self.resolve(m, hi)):
            return 0
        return super().prevent(k, hi)

    def _may_cut(self, a: int, s: int) -> bool:
        # only an enemy cuts support: an ally does not, and a neutral cannot enter the space
        return self._shielded(a, s) is None

    def _not_cut_by_relation(self, a: int, s: int) -> NotCutWhy:
        shield = self._shielded(a, s)
        return NotCutWhy.ALLIED if shield == ALLIANCE else (NotCutWhy.NEUTRAL if shield == NEUTRAL
                                                            else NotCutWhy.OWN_POWER)

    def _excluded(self, s: int, victim: int) -> LeftOutWhy | None:
        if self.power[s] == self.power[victim]:
            return _LW_OWN_UNIT
        return None if self._counts_against(s, self.power[victim]) else _LW_ALLIED_UNIT

    def _shield(self, i: int, j: int) -> str:
        return _SHIELD_NOTES.get(self._shielded(i, j), "")

    def _prevent_shield(self, k: int) -> str:
        m = self.index.get(self.dst[k])  # type: ignore[arg-type]
        if m is not None and self._shielded(k, m) == NEUTRAL and not (
                self.ot[m] == MOVE and not self.head_to_head(k, m) and self.result[m]):
            return "neutral"
        return ""

    def _explain_support(self, s: int, by: int | None) -> OrderResult:
        result = super()._explain_support(s, by)
        if result.code == "supported":
            sd = self.sup_dst[s]
            sd_prov = province_of(sd) if sd is not None else None
            others = [a for a in self.attackers.get(self.prov[s], ()) if self.prov[a] != sd_prov]
            shields = {self._shielded(a, s) for a in others}
            if others and shields <= {ALLIANCE, NEUTRAL}:
                # attacked, but only by allies and neutrals, who do not cut support
                result = _with(result, rule=RULE_NEUTRAL if NEUTRAL in shields else RULE_ALLIED,
                               involved=result.involved + tuple(self.prov[a] for a in others))
        return result

    def _interned_why(self, unit: Unit, owner: str) -> Why:
        """Why ``unit`` is interned by ``owner``: it ended the movement phase in Munich, with what
        makes Munich ``owner``'s (the territory at the start of the phase, as
        :func:`interned_units` reads it, in :func:`territory_phrase`'s words), and ``owner`` is
        neutral towards the unit's power."""
        return Why(Say.INTERNED, self.board, ((unit.kind, unit.location),), powers=(owner, unit.power),
                   detail=territory_phrase(self.state, unit.province, owner))

    def _outcome(self) -> MovementOutcome:
        out = super()._outcome()
        # who arrived by dislodging an enemy: the war clause let them in (docs/guide/variants-and-fewer-players.md)
        excused = {self.dst[a] for a in self.by if a is not None}
        interned = interned_units(self.state, out.state.units.values(), excused)  # type: ignore[arg-type]
        if not interned:
            return out
        units = dict(out.state.units)
        extra: list[OrderResult] = []
        # the order of a unit that ends the phase where it is interned says so (seed 003,
        # neutrality violations): a move into that space, or the order of a unit that stayed there
        owner_at = {u.province: owner for u, owner in interned}
        unit_at = {u.province: u for u, _ in interned}
        why_at = {p: self._interned_why(unit_at[p], owner) for p, owner in owner_at.items()}
        results = list(out.results)
        for n, r in enumerate(results):
            o = r.order
            if not isinstance(o, UnitOrder) or r.dislodged:
                continue
            if r.code == _RC_MOVED and isinstance(o, Move):
                where = province_of(o.destination)
            elif r.code != _RC_MOVED and o.province in owner_at and unit_at[o.province].location == o.location:
                where = o.province
            else:
                continue
            if where in owner_at:
                results[n] = _with(r, why=r.why._replace(then=why_at[where]))
        out = replace(out, results=tuple(results))
        for u, owner in interned:
            del units[u.province]
            extra.append(OrderResult(
                Disband(u.power, u.kind, u.location), _OC_SUCCESS, _RC_INTERNED, self._interned_why(u, owner),
                (u.province,), rule=RULE_INTERNED))
        return MovementOutcome(out.results + tuple(extra), out.state.evolve(units=units),
                               tuple(u for u, _ in interned))


#: the relation that keeps a move from dislodging a unit: the note on its attack strength
_SHIELD_NOTES: dict[str | None, str] = {"own": "own_unit", ALLIANCE: "allied", NEUTRAL: "neutral"}


def adjudicate_movement(state: GameState, orders: Iterable[Order], rules: RuleSet = CLASSIC) -> MovementOutcome:
    """Adjudicate a movement phase: every order gets a result, and the retreat phase follows.
    With relations in the state (Formal Diplomacy), by the rules of seed 003."""
    if state.relations is not None:
        return _FormalResolver(state, orders, rules).run()
    return _Resolver(state, orders, rules).run()
