"""Move the pieces: what a piece pusher does on a physical board after each adjudication.

After a movement phase the list says, in this order: which dislodged units to lift off and stand
beside their province (they wait there for the retreat phase, rules XI), which units are taken off
the board for good (a power in civil disorder, rules XIV.1, or a unit interned under Formal
Diplomacy), then every unit that moved, in an order in which no piece is ever put on an occupied
space.  Moves form chains (A Bur - Mun while A Mun - Kie while A Kie - Den: Kiel first) and rings
(three units moving round in a circle, rules IX.4; two units swapping places by convoy, rules
XII.3): a ring cannot be done one piece at a time, so the list says so and lifts one piece into the
hand first, moves the rest round, and puts the lifted piece down last.

After retreats: the dislodged units that did not retreat come off, then the retreats.  After
adjustments: removals first, then builds.  Whenever supply centres change hands (end of a Fall turn,
rules XIII.1) the list ends with the centres to re-mark.

The plan is computed from the engine's record (the results of the phase and the positions before
and after it), never by re-adjudicating; :func:`replay` carries it out on a model of the physical
board and raises if a step would put two pieces in one space, which the tests check on every DATC
case and on whole games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..engine.board import Board, province_of
from ..engine.game import HistoryEntry
from ..engine.orders import Move, Retreat, UnitOrder
from ..engine.results import OrderResult
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Phase, Unit
from ..engine.validation import space_name

#: the kinds of step, in the order a list uses them
ASIDE = "aside"  # a dislodged unit: lift it off, stand it beside its province
REMOVE = "remove"  # off the board for good (disbanded, removed, interned)
LIFT = "lift"  # a ring: lift this piece into the hand first
MOVE = "move"  # from one space to an empty one
PLACE = "place"  # a ring: put the piece in the hand down
RETREAT_STEP = "retreat"  # from beside its province onto an empty space
BUILD = "build"
CENTRE = "centre"  # a supply centre changes hands: re-mark it
ACTIONS = (ASIDE, REMOVE, LIFT, MOVE, PLACE, RETREAT_STEP, BUILD, CENTRE)

_KIND_WORDS = {"A": "army", "F": "fleet"}


@dataclass(frozen=True, slots=True)
class PieceStep:
    """One thing the piece pusher does.  ``source``/``target`` are locations (``stp/nc``);
    a centre step has the centre in ``target``, its new owner in ``power`` and the old one in
    ``previous_owner`` ("" for a neutral centre)."""

    action: str
    power: str
    unit_kind: str = ""
    source: str | None = None
    target: str | None = None
    note: str = ""
    previous_owner: str = ""
    #: the ring this step belongs to (1, 2, ... in the list), 0 outside rings
    ring: int = 0
    #: the piece stands beside its province (dislodged), not in it: a removal says so, and takes
    #: that piece, never the one standing in the province
    beside: bool = False

    def text(self, board: Board) -> str:
        """The step in words: ``Move Germany's army from Munich to Burgundy``."""
        whose = _whose(board, self.power)
        what = f"{whose} {_KIND_WORDS.get(self.unit_kind, 'unit')}"
        src = space_name(board, self.source) if self.source else ""
        dst = space_name(board, self.target) if self.target else ""
        note = f" ({self.note})" if self.note else ""
        if self.action == ASIDE:
            return f"Lift {what} off {src} and stand it beside {src}{note}"
        if self.action == REMOVE:
            where = "standing beside" if self.beside else "in"
            return f"Take {what} {where} {src} off the board{note}"
        if self.action == LIFT:
            return f"Lift {what} in {src} into your hand{note}"
        if self.action == MOVE:
            return f"Move {what} from {src} to {dst}{note}"
        if self.action == PLACE:
            return f"Put {what} from your hand down in {dst}{note}"
        if self.action == RETREAT_STEP:
            return f"Retreat {what} from beside {src} to {dst}{note}"
        if self.action == BUILD:
            return f"Build a new {_KIND_WORDS.get(self.unit_kind, 'unit')} for {_name(board, self.power)} in {dst}"
        old = _adjective(board, self.previous_owner) if self.previous_owner else "neutral"
        return f"Mark {dst} as {_adjective(board, self.power)} (was {old})"

    def as_dict(self, board: Board) -> dict[str, object]:
        """The step as plain data (the phones' list, the results files)."""
        return {"action": self.action, "power": self.power, "unit": self.unit_kind, "from": self.source,
                "to": self.target, "note": self.note, "ring": self.ring, "beside": self.beside,
                "text": self.text(board)}


@dataclass(frozen=True, slots=True)
class PiecePlan:
    """The list for one adjudicated phase."""

    phase: Phase
    steps: tuple[PieceStep, ...]
    #: how many rings of moves the list breaks by lifting one piece
    rings: int = 0

    @property
    def empty(self) -> bool:
        return not self.steps

    def lines(self, board: Board) -> list[str]:
        return [s.text(board) for s in self.steps]

    def as_dict(self, board: Board) -> dict[str, object]:
        return {"phase": self.phase.short, "label": self.phase.label, "rings": self.rings,
                "steps": [s.as_dict(board) for s in self.steps]}


def _name(board: Board, power: str) -> str:
    return board.power(power).name if power in board.power_ids else power


def _adjective(board: Board, power: str) -> str:
    return board.power(power).adjective if power in board.power_ids else power


def _whose(board: Board, power: str) -> str:
    name = _name(board, power)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# -- planning ------------------------------------------------------------------------------------------


def plan_pieces(before: GameState, results: Iterable[OrderResult], after: GameState,
                next_state: GameState | None = None, interned: Iterable[Unit] = ()) -> PiecePlan:
    """The list for the phase adjudicated from ``before`` (``HistoryEntry.state``) with
    ``results`` to ``after`` (``HistoryEntry.after``: after a movement phase, with its dislodged
    units).  ``next_state`` (``HistoryEntry.next_state``), when given, adds the centres that
    changed hands by the time the next phase is played; ``interned``: the units Formal Diplomacy
    interned and disbanded at the end of the movement phase."""
    kind = before.phase.kind
    rs = list(results)
    if kind == MOVEMENT:
        steps, rings = _movement_steps(before, rs, after, frozenset(interned))
    elif kind == RETREAT:
        steps, rings = _retreat_steps(before, rs, after), 0
    elif kind == ADJUSTMENT:
        steps, rings = _adjustment_steps(before, after), 0
    else:  # pragma: no cover - Phase allows no other kind
        raise ValueError(f"no pieces move in a {kind} phase")
    if next_state is not None:
        steps.extend(_centre_steps(before.owners, next_state.owners))
    return PiecePlan(before.phase, tuple(steps), rings)


def plan_entry(entry: HistoryEntry) -> PiecePlan:
    """:func:`plan_pieces` for one adjudicated phase of a game's history."""
    return plan_pieces(entry.state, entry.results, entry.after, entry.next_state, entry.interned)


def _same(a: Unit | None, b: Unit | None) -> bool:
    return a is not None and b is not None and a.power == b.power and a.kind == b.kind and a.location == b.location


def _successful_moves(before: GameState, results: Sequence[OrderResult], after: GameState,
                      kind: type) -> dict[str, tuple[Unit, str]]:
    """{source province: (unit, destination location)} for every order of ``kind`` that
    succeeded, checked against the position after it (the engine's record decides, not the
    order as written: the destination's coast is the one the unit stands on)."""
    moves: dict[str, tuple[Unit, str]] = {}
    for r in results:
        o = r.order
        if not r.succeeded or not isinstance(o, (Move, Retreat)) or not isinstance(o, kind):
            continue
        src = o.province
        dst_prov = province_of(o.destination)
        landed = after.units.get(dst_prov)
        if kind is Move:
            unit = before.units.get(src)
        else:
            found = before.dislodged_in(src)
            unit = found.unit if found else None
        if unit is None or landed is None or landed.power != unit.power or landed.kind != unit.kind:
            continue
        moves[src] = (unit, landed.location)
    return moves


def _movement_steps(before: GameState, results: Sequence[OrderResult], after: GameState,
                    interned: frozenset[Unit] = frozenset()) -> tuple[list[PieceStep], int]:
    steps: list[PieceStep] = []
    moves = _successful_moves(before, results, after, Move)
    aside = {d.province: d for d in after.dislodged}
    for prov in sorted(aside):
        d = aside[prov]
        by = (f"dislodged by the attack from {space_name(before.board, d.attacker_from)}" if d.attacker_from
              else "dislodged")  # (by whom: "dislodged from X" reads as the unit's own old place)
        steps.append(PieceStep(ASIDE, d.unit.power, d.unit.kind, d.unit.location, None,
                               f"{by}; it waits there for the retreat phase"))
    occupied = set(before.units)
    for prov, unit in before.units.items():
        if prov in moves or prov in aside:
            continue
        if not _same(after.units.get(prov), unit):
            why = _removed_why(results, unit, interned)
            steps.append(PieceStep(REMOVE, unit.power, unit.kind, unit.location, None, why))
            occupied.discard(prov)
    occupied -= set(aside)
    move_steps, rings = _order_moves(before.board, moves, occupied)
    steps.extend(move_steps)
    return steps, rings


def _removed_why(results: Sequence[OrderResult], unit: Unit, interned: frozenset[Unit]) -> str:
    if any(u.power == unit.power and u.kind == unit.kind for u in interned):
        return "interned and disbanded (Formal Diplomacy, seed 003)"
    for r in results:
        o = r.order
        if (isinstance(o, UnitOrder) and o.province == unit.province and o.power == unit.power
                and r.code in ("disorder_disbanded", "civil_disorder")):
            return "dislodged while its power is in civil disorder: disbanded (rules XIV.1)"
    return "disbanded"


def _order_moves(board: Board, moves: Mapping[str, tuple[Unit, str]], occupied: set[str]
                 ) -> tuple[list[PieceStep], int]:
    """The moves in an order that never puts a piece on an occupied space: each chain from its
    free end backwards; each ring broken by lifting its first piece (by province id)."""
    pending = dict(moves)
    into = {province_of(dst): src for src, (_, dst) in pending.items()}
    out: list[PieceStep] = []
    rings = 0

    def follow(freed: str, stop: str | None, ring: int) -> None:
        # the move into the province just vacated can go now; then the one into its source ...
        while freed in into and into[freed] in pending and into[freed] != stop:
            src = into[freed]
            unit, dst = pending.pop(src)
            out.append(PieceStep(MOVE, unit.power, unit.kind, unit.location, dst, ring=ring))
            occupied.discard(src)
            occupied.add(province_of(dst))
            freed = src

    while pending:
        ready = sorted(src for src, (_, dst) in pending.items() if province_of(dst) not in occupied)
        if ready:
            src = ready[0]
            unit, dst = pending.pop(src)
            out.append(PieceStep(MOVE, unit.power, unit.kind, unit.location, dst))
            occupied.discard(src)
            occupied.add(province_of(dst))
            follow(src, None, 0)
            continue
        # every move left waits for another: they go round in rings
        rings += 1
        first = min(pending)
        cycle = [first]
        while province_of(pending[cycle[-1]][1]) != first:
            cycle.append(province_of(pending[cycle[-1]][1]))
        unit, dst = pending.pop(first)
        names = " → ".join(space_name(board, c) for c in [*cycle, first])
        what = "swap" if len(cycle) == 2 else f"ring of {len(cycle)} moves"
        out.append(PieceStep(LIFT, unit.power, unit.kind, unit.location, dst,
                             f"a {what}: {names}; no piece can move first, so lift this one", ring=rings))
        occupied.discard(first)
        follow(first, None, rings)
        out.append(PieceStep(PLACE, unit.power, unit.kind, unit.location, dst, "the piece lifted to start the "
                             + ("swap" if len(cycle) == 2 else "ring"), ring=rings))
        occupied.add(province_of(dst))
    return out, rings


def _retreat_steps(before: GameState, results: Sequence[OrderResult], after: GameState) -> list[PieceStep]:
    retreats = _successful_moves(before, results, after, Retreat)
    steps: list[PieceStep] = []
    for d in sorted(before.dislodged, key=lambda d: d.province):
        if d.province not in retreats:
            steps.append(PieceStep(REMOVE, d.unit.power, d.unit.kind, d.unit.location, None,
                                   "dislodged and not retreated: disbanded", beside=True))
    for src in sorted(retreats):
        unit, dst = retreats[src]
        steps.append(PieceStep(RETREAT_STEP, unit.power, unit.kind, unit.location, dst))
    return steps


def _adjustment_steps(before: GameState, after: GameState) -> list[PieceStep]:
    steps: list[PieceStep] = []
    for prov, unit in before.units.items():
        if not _same(after.units.get(prov), unit):
            steps.append(PieceStep(REMOVE, unit.power, unit.kind, unit.location, None, "removed"))
    for prov, unit in after.units.items():
        if not _same(before.units.get(prov), unit):
            steps.append(PieceStep(BUILD, unit.power, unit.kind, None, unit.location))
    return steps


def _centre_steps(old: Mapping[str, str], new: Mapping[str, str]) -> list[PieceStep]:
    return [PieceStep(CENTRE, new[c], "", None, c, previous_owner=old.get(c, ""))
            for c in sorted(new) if new[c] != old.get(c)]


# -- carrying a plan out ---------------------------------------------------------------------------------


class PieceError(ValueError):
    """A step that cannot be done on the board as it stands (two pieces in one space, no piece there)."""


@dataclass(slots=True)
class PhysicalBoard:
    """The pieces on a table: one piece per province on the board, dislodged pieces standing
    beside their province, at most one piece in the hand, and the centre markers."""

    on_board: dict[str, Unit]
    beside: dict[str, Unit]
    owners: dict[str, str]
    hand: Unit | None = None

    @classmethod
    def of(cls, state: GameState) -> PhysicalBoard:
        return cls(dict(state.units), {d.province: d.unit for d in state.dislodged}, dict(state.owners))

    def _take(self, where: dict[str, Unit], loc: str | None, step: PieceStep) -> Unit:
        prov = province_of(loc or "")
        unit = where.get(prov)
        if unit is None or unit.power != step.power or unit.kind != step.unit_kind:
            raise PieceError(f"{step.action}: no {step.power} {step.unit_kind} at {loc}")
        del where[prov]
        return unit

    def _put(self, unit: Unit, loc: str | None, step: PieceStep) -> None:
        prov = province_of(loc or "")
        if prov in self.on_board:
            raise PieceError(f"{step.action}: {loc} already holds {self.on_board[prov]}")
        self.on_board[prov] = Unit(unit.power, unit.kind, loc or "")

    def apply(self, step: PieceStep) -> None:
        a = step.action
        if a == ASIDE:
            unit = self._take(self.on_board, step.source, step)
            if unit.province in self.beside:
                raise PieceError(f"{step.action}: a piece already stands beside {unit.province}")
            self.beside[unit.province] = unit
        elif a == REMOVE:
            self._take(self.beside if step.beside else self.on_board, step.source, step)
        elif a == LIFT:
            if self.hand is not None:
                raise PieceError("lift: a piece is already in the hand")
            self.hand = self._take(self.on_board, step.source, step)
        elif a == MOVE:
            self._put(self._take(self.on_board, step.source, step), step.target, step)
        elif a == PLACE:
            if self.hand is None:
                raise PieceError("place: no piece in the hand")
            self._put(self.hand, step.target, step)
            self.hand = None
        elif a == RETREAT_STEP:
            self._put(self._take(self.beside, step.source, step), step.target, step)
        elif a == BUILD:
            self._put(Unit(step.power, step.unit_kind, step.target or ""), step.target, step)
        elif a == CENTRE:
            self.owners[step.target or ""] = step.power
        else:
            raise PieceError(f"unknown step {a!r}")


def replay(start: GameState, plan: PiecePlan | Iterable[PieceStep]) -> PhysicalBoard:
    """Carry the plan out on the pieces of ``start``; raises :class:`PieceError` at the first step
    that cannot be done (a piece put on an occupied space, a piece that is not there)."""
    board = PhysicalBoard.of(start)
    for step in plan.steps if isinstance(plan, PiecePlan) else plan:
        board.apply(step)
    if board.hand is not None:
        raise PieceError(f"a piece is left in the hand: {board.hand}")
    return board


__all__ = ["ACTIONS", "ASIDE", "BUILD", "CENTRE", "LIFT", "MOVE", "PLACE", "REMOVE", "RETREAT_STEP",
           "PhysicalBoard", "PieceError", "PiecePlan", "PieceStep", "plan_entry", "plan_pieces", "replay"]
