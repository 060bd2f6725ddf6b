"""Formal Diplomacy (seed 003, by Edi Birsan): relations between the powers and what they forbid.

Every pair of powers is allied, neutral (the default) or at war.  The relations are a value
carried by the game state (:attr:`GameState.relations`; ``None`` is the standard game) and
change only through :func:`declare`, which applies one declaration period.

What the relations forbid is decided here and read by the order checks
(:func:`check_formal`, called by ``validation.check_order``), the adjudicator (the
``_FormalResolver`` in ``movement``) and the centre update (``turns.update_ownership``):

* a power may not enter a neutral's *territory*: the supply centres it owns and the home
  provinces that are its own by the seed's ownership rule (:func:`territory`), unless a unit of
  a power it is at war with stands there (the war clause);
* a move into a space holding a neutral's unit is void, treated as a hold, unless that unit
  leaves; allies and neutrals never dislodge each other nor cut each other's support;
* supports and convoys are only for one's own and one's allies' units;
* an ally or a neutral does not take a centre by standing in it;
* at the end of a movement phase a unit standing in a neutral's territory is interned and
  disbanded (:func:`interned_units`).

The choices made where the seed is silent are listed in docs/guide/variants-and-fewer-players.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .board import ARMY, Board, province_of
from .errors import IllegalOrderError
from .orders import Convoy, Move, Order, SupportHold, SupportMove
from .relations import (  # the relations value lives in its own leaf module: importable here too
    ALLIANCE,
    NEUTRAL,
    NO_RELATIONS,
    RELATIONS,
    WAR,
    Relations,
    declare,
    pair_outcome,
    relation_word,
)
from .state import GameState, Unit

#: the rule names results cite (see ``explain.RULES``)
RULE_ALLIED = "Formal Diplomacy: allied powers"
RULE_NEUTRAL = "Formal Diplomacy: neutral powers"
RULE_WAR = "Formal Diplomacy: powers at war"
RULE_INTERNED = "Formal Diplomacy: neutrality violations"
RULE_HOME = "Formal Diplomacy: home non-supply-centre provinces"
RULE_DECLARATIONS = "Formal Diplomacy: declarations"

_RULE_OF = {ALLIANCE: RULE_ALLIED, NEUTRAL: RULE_NEUTRAL, WAR: RULE_WAR}
_CODE_OF = {ALLIANCE: "formal_allied", NEUTRAL: "formal_neutral", WAR: "formal_war"}
# -- territory: owned centres and home provinces --------------------------------------------------


def home_provinces(board: Board, power: str) -> list[str]:
    """``power``'s home provinces that are not supply centres (seed 003: England's Clyde,
    Yorkshire and Wales ...), from the board data (the spaces of its country that are no centre)."""
    return sorted(p for p, s in board.spaces.items() if s.country == power and not s.centre)


def home_province_owner(state: GameState, province: str) -> str | None:
    """Who owns the home non-supply-centre ``province`` (seed 003):

    "These provinces are considered owned by the original power unless they do not have an
    equal or greater number of owned home supply centers adjacent to it compared with enemy
    occupied home centers."  The original power keeps it while the home centres next to it that
    it still holds (owns, with no other power's unit in them) are at least as many as those next
    to it that another power holds (stands in or owns).  Otherwise it goes to the power holding
    most of those centres (a tie between several: to nobody, an un-owned province).  Seed's
    example: Russia occupies Berlin; Prussia (next to Berlin) is Russia's, Silesia (next to Berlin
    and Munich) stays Germany's while Germany owns Munich.
    """
    counted = home_centres_held(state, province)
    if counted is None:
        return None
    home, kept, lost = counted
    if len(kept) >= sum(len(v) for v in lost.values()):
        return home
    best = max(len(v) for v in lost.values())
    leaders = [p for p, v in lost.items() if len(v) == best]
    return leaders[0] if len(leaders) == 1 else None


def home_centres_held(state: GameState, province: str) -> tuple[str, list[str], dict[str, list[str]]] | None:
    """For a home non-supply-centre ``province``: its home power, the home centres next to it
    that power still holds, and those another power holds (by power); None for any other space.
    What :func:`home_province_owner` counts."""
    board = state.board
    space = board.spaces[province]
    home = space.country
    if home is None or space.centre:
        return None
    kept: list[str] = []
    lost: dict[str, list[str]] = {}
    for c in sorted(board.province_neighbours[province]):
        if c not in board.centres or board.spaces[c].home != home:
            continue
        unit = state.units.get(c)
        holder = unit.power if unit is not None and unit.power != home else state.owners.get(c)
        if holder == home:
            kept.append(c)
        elif holder is not None:
            lost.setdefault(holder, []).append(c)
    return home, kept, lost


def territory_phrase(state: GameState, province: str, owner: str) -> str:
    """What makes ``province`` territory of ``owner``, as what follows its name: "a supply centre
    owned by Germany", "part of the home country of Germany", or for a home province gone over to
    another power (or kept against others), the count of seed 003 that decided it."""
    n = _Names(state.board)
    space = state.board.spaces[province]
    if province in state.board.centres:
        return f"a supply centre owned by {n.power(owner)}"
    counted = home_centres_held(state, province)
    if counted is None:
        return f"territory of {n.power(owner)}"
    home, kept, lost = counted
    held = _and([f"{_and([n.space(c) for c in cs])}, by {n.power(p)}" for p, cs in sorted(lost.items())])
    mine = _and([n.space(c) for c in kept]) or "none"
    if space.country == owner:
        if not lost:
            return f"part of the home country of {n.power(owner)}"
        return (f"part of the home country of {n.power(owner)} (of the {n.adjective(home)} home centres next to it, "
                f"{n.power(home)} still holds as many, {mine}, as other powers hold: {held})")
    return (f"a home province of {n.power(home)} that counts as {n.power(owner)}'s (of the {n.adjective(home)} "
            f"home centres next to it, {n.power(home)} holds fewer, {mine}, than other powers hold: {held})")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


_last_territory: tuple[GameState, dict[str, str]] | None = None


def territory(state: GameState) -> Mapping[str, str]:
    """Province -> the power whose territory it is: the supply centres each power owns and the
    home provinces each owns by :func:`home_province_owner`.  Seas, un-owned centres, Albania and
    North Africa are nobody's.  (Positions are immutable: the last one asked about is remembered.)"""
    global _last_territory
    last = _last_territory
    if last is not None and last[0] is state:
        return last[1]
    found = _territory(state)
    _last_territory = (state, found)
    return found


def _territory(state: GameState) -> dict[str, str]:
    found = dict(state.owners)
    board = state.board
    for p, s in board.spaces.items():
        if s.country is not None and not s.centre:
            owner = home_province_owner(state, p)
            if owner is not None:
                found[p] = owner
    return found


# -- restrictions on orders ----------------------------------------------------------------------


class FormalOrderError(IllegalOrderError):
    """An order Formal Diplomacy forbids; ``code`` names the relation (``formal_neutral`` ...)."""

    def __init__(self, message: str, relation: str) -> None:
        super().__init__(message, rule=_RULE_OF[relation])
        self.code = _CODE_OF[relation]
        self.relation = relation


class _Names:
    def __init__(self, board: Board) -> None:
        self.board = board

    def power(self, p: str) -> str:
        return self.board.power(p).name if p in self.board.power_ids else p

    def adjective(self, p: str) -> str:
        return self.board.power(p).adjective if p in self.board.power_ids else p

    def space(self, prov: str) -> str:
        return self.board.spaces[province_of(prov)].name


def entry_refusal(state: GameState, power: str, province: str, land: Mapping[str, str] | None = None
                  ) -> FormalOrderError | None:
    """Why ``power`` may not enter ``province`` at all (a neutral's territory without an enemy
    unit in it), or None.  A move into a space holding a neutral's unit is allowed to be written
    (it is void unless that unit leaves); see :func:`check_formal`."""
    rel = state.relations
    if rel is None:
        return None
    owner = (land if land is not None else territory(state)).get(province)
    if owner is None or owner == power or not rel.neutral(power, owner):
        return None
    occupant = state.units.get(province)
    if occupant is not None and rel.at_war(power, occupant.power):
        return None  # the war clause: an enemy unit may be attacked even in a neutral's home area
    n = _Names(state.board)
    what = territory_phrase(state, province, owner)
    return FormalOrderError(
        f"{n.space(province)} is {what}, and {n.power(owner)} is neutral towards {n.power(power)}: a power cannot "
        "enter a neutral power's home country or owned supply centres", NEUTRAL)


def support_refusal(state: GameState, power: str, supported: Unit, verb: str) -> FormalOrderError | None:
    """Why ``power`` may not support (``verb="support"``) or convoy (``"convoy"``) ``supported``."""
    rel = state.relations
    if rel is None or supported.power == power or rel.allied(power, supported.power):
        return None
    relation = rel.between(power, supported.power)
    n = _Names(state.board)
    unit = f"{n.adjective(supported.power)} {'army' if supported.kind == ARMY else 'fleet'} in {n.space(supported.location)}"
    if relation == WAR:
        return FormalOrderError(f"{n.power(power)} is at war with {n.power(supported.power)}: a power cannot "
                                f"{verb} a piece of a power it is at war with (the {unit})", WAR)
    return FormalOrderError(f"{n.power(power)} is neutral towards {n.power(supported.power)}: a power cannot "
                            f"{verb} a neutral power's piece (the {unit})", NEUTRAL)


def check_formal(state: GameState, order: Order) -> None:
    """Raise :class:`FormalOrderError` if the relations forbid ``order`` (already checked by the
    standard rules and normalised).  Nothing to check in the standard game."""
    if state.relations is None:
        return
    kind = type(order)
    if kind is Move:
        refusal = entry_refusal(state, order.power, order.target_province)  # type: ignore[attr-defined]
    elif kind in (SupportHold, SupportMove, Convoy):
        target = state.units.get(order.target_province)  # type: ignore[attr-defined]
        refusal = None if target is None else support_refusal(
            state, order.power, target, "convoy" if kind is Convoy else "support")
    else:
        return
    if refusal is not None:
        try:
            raise refusal
        finally:
            # the error's traceback holds this frame: without the name, no reference cycle
            # (error -> traceback -> frame -> error) that only the cycle collector would free
            del refusal


def allowed(state: GameState, order: Order) -> bool:
    """Whether the relations allow ``order`` (a legal order of the standard rules)."""
    try:
        check_formal(state, order)
    except FormalOrderError:
        return False
    return True


def retreat_allowed(state: GameState, power: str, province: str) -> bool:
    """Whether a dislodged unit of ``power`` may retreat into ``province``: not into a neutral's
    territory (it would stand there in violation of neutrality)."""
    rel = state.relations
    if rel is None:
        return True
    owner = territory(state).get(province)
    return owner is None or owner == power or not rel.neutral(power, owner)


# -- the end of a movement phase -----------------------------------------------------------------


def violates_neutrality(state: GameState, unit: Unit, land: Mapping[str, str] | None = None) -> str | None:
    """The neutral power whose territory ``unit`` stands in (a violation), or None."""
    rel = state.relations
    if rel is None:
        return None
    owner = (land if land is not None else territory(state)).get(unit.province)
    if owner is not None and owner != unit.power and rel.neutral(unit.power, owner):
        return owner
    return None


def interned_units(before: GameState, after_units: Iterable[Unit], excused: Iterable[str] = ()
                   ) -> list[tuple[Unit, str]]:
    """The units interned at the end of a movement phase (seed 003, "Neutrality violations"),
    each with the neutral power that interns it: every unit standing in the territory of a power
    neutral towards it, by the territory at the start of the phase.  ``excused`` are provinces
    where a unit arrived by dislodging a unit of a power it is at war with (the war clause
    allowed that; it is interned if it is still there at the end of the next movement phase)."""
    land = territory(before)
    skip = set(excused)
    found = []
    for u in after_units:
        if u.province in skip:
            continue
        owner = violates_neutrality(before, u, land)
        if owner is not None:
            found.append((u, owner))
    return found


def takes_centre(relations: Relations | None, power: str, owner: str | None) -> bool:
    """Whether ``power``'s unit standing in a centre owned by ``owner`` takes it at the end of a
    Fall turn: not from an ally (seed 003, allied powers: centres) nor from a neutral (neutral
    powers: ownership); from nobody, from an enemy, or in the standard game, yes."""
    if relations is None or owner is None or owner == power:
        return True
    return relations.at_war(power, owner)


__all__ = [
    "ALLIANCE",
    "NEUTRAL",
    "NO_RELATIONS",
    "RELATIONS",
    "RULE_ALLIED",
    "RULE_DECLARATIONS",
    "RULE_HOME",
    "RULE_INTERNED",
    "RULE_NEUTRAL",
    "RULE_WAR",
    "WAR",
    "FormalOrderError",
    "Relations",
    "allowed",
    "check_formal",
    "declare",
    "entry_refusal",
    "home_province_owner",
    "home_provinces",
    "interned_units",
    "pair_outcome",
    "relation_word",
    "retreat_allowed",
    "support_refusal",
    "takes_centre",
    "territory",
    "violates_neutrality",
]
