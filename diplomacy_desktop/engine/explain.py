"""Why each order succeeded or failed, in plain words, with the rule that decides it.

Everything here is read from the adjudication's result records (:class:`OrderResult`: its code,
strengths, the supports that counted and those that did not, the units involved, the rule) and
from the position the orders were given in; nothing is adjudicated again.  The window's
explanation panel and ``adjudicate --explain`` print the same text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from .board import ARMY, province_of
from .boardindex import board_index
from .orders import Move, Order, SupportHold, SupportMove, UnitOrder
from .results import (Decision, LeftOutWhy, NotCut, NotCutWhy, OrderResult, Outcome, ResultCode, RivalFate,
                      Say, Strength, StrengthKind)
from .reasons import reason_without_verdict
from .state import GameState, Unit

# The sections of the rules (seed 000's numbering) an explanation may cite: title, and the rule
# in one plain sentence.  "DATC x" entries are the DATC's rulings where the rulebook is silent.
RULES: dict[str, tuple[str, str]] = {
    "VII.1": ("Movement",
              ("A unit moves to an adjacent space it can reach (armies over land, fleets by sea and along "
              "coasts), and only one unit may be in a space at a time.")),
    "VII.3.2": ("Provinces having two coasts",
                ("A fleet enters a province with two coasts along one of them and may then move only to spaces "
                 "next to that coast; when it could reach either coast, the order must say which. A fleet that "
                 "can move to such a province may support an action anywhere in it, whatever the coast.")),
    "VII.4": ("Mechanics of writing orders",
              "An illegal order is not followed: the unit simply stands in its place."),
    "VIII": ("Conflicts",
             ("Units of equal strength that try to enter the same space, or to swap places, stand each other "
             "off and none of them moves; a unit that stays keeps out an attack no stronger than itself.")),
    "IX.1": ("Ordering support",
             ("A unit may support only into a space it could itself move to, and only the move the supported "
             "unit is actually ordered to make.")),
    "IX.2": ("Effect of support",
             ("A unit moves with the strength of itself and all its valid supports; the stronger side wins, "
             "and a unit that stays where a stronger attack enters is dislodged.")),
    "IX.3": ("Self-dislodgement prohibited",
             ("A power cannot dislodge its own unit, and its support does not help another power dislodge "
             "one of its units.")),
    "IX.4": ("Self-standoff",
             "A power may stand itself off with two equally supported attacks on the same space."),
    "IX.5": ("Beleaguered garrison",
             ("When equally strong attacks on a space stand each other off, the unit already there is not "
             "dislodged, even if each attack alone would have been stronger.")),
    "IX.6": ("Holding and receiving support",
             "A unit ordered to move can be supported only in that move, not in holding."),
    "IX.7": ("Dislodgement of a piece participating in a standoff",
             ("Equally supported units ordered to the same space stand each other off even if one of them is "
             "dislodged on the same move; but a unit dislodged by a unit coming from the space it was ordered "
             "to has no effect on that space, so the other may move there.")),
    "note to IX.6": ("Holding and receiving support",
                     "A player may not, by an attack, cut support being given by one of his own units."),
    "X": ("Cutting support",
          ("A support is cut when the supporting unit is attacked from any space but the one it supports "
          "into, or is dislodged; a cut support adds nothing.")),
    "XI": ("Retreats",
           ("A dislodged unit retreats to an adjacent empty space, not to where its attacker came from nor "
           "to a space left empty by a standoff; with nowhere to go it is disbanded.")),
    "XI.1": ("Writing retreats", "Each player writes the retreats of their own dislodged units."),
    "XI.2": ("Other retreat rules",
             ("Units retreating to the same space are all disbanded; a unit may be disbanded instead of "
             "retreating, and one given no retreat order is disbanded. Retreats may neither be convoyed nor "
             "supported.")),
    "XII.1": ("Convoying an army across a body of water",
              ("A fleet at sea convoys an army from one coast to another when the army is ordered to move "
              "there and the fleet is ordered to convoy that same move.")),
    "XII.2": ("Convoying an army across several bodies of water",
              "Fleets in a chain of adjacent seas convoy an army through all of them in one move."),
    "XII.3": ("Disrupting a convoy",
              ("If a convoying fleet is dislodged, the army stays where it was and has no effect on its "
              "destination; an attack that does not dislodge the fleet does not matter.")),
    "XII.4": ("More than one convoy route",
              "An army with several convoy routes still moves unless every route is disrupted."),
    "XII.5": ("Convoyed attacks do not cut certain supports",
              "A convoyed army does not cut a support given against a fleet that convoys it."),
    "XII.6": ("Both a convoy route and an overland route",
              ("An army that could arrive over land or by convoy goes the way its player's orders show: by "
               "convoy when it is ordered \"via convoy\" or a fleet of its own power convoys it, otherwise over "
               "land, so another power cannot convoy it against its will (DATC 4.A.3).")),
    "XIII.2": ("Building and removing units",
               ("After Fall, each power builds in its empty, owned home centres or removes units until its "
               "units equal its supply centres.")),
    "XIV.2": ("Civil disorder removals",
              ("A power that does not order its removals loses first the unit farthest from its nearest home "
               "supply centre (under the 2023 rules: from its nearest owned supply centre), counted by the "
               "shortest route, fleets before armies, then in alphabetical order of their spaces.")),
    "XIV.3": ("Players should note that",
              ("Three or more units may move around a ring of spaces in rotation, and two units may exchange "
              "places if either or both are convoyed; fleets in coastal provinces may not convoy.")),
    "XIV.1": ("Civil disorder",
              ("A power whose player has left or gave no orders is in civil disorder: its units hold and do "
               "not support each other, a dislodged unit is disbanded, and it builds nothing.")),
    # Formal Diplomacy (seed 003, Edi Birsan), played only when the table chooses it
    "Formal Diplomacy: allied powers": (
        "Formal Diplomacy: allied powers",
        ("Allies may move through each other's home provinces and centres, support and convoy each other, "
         "but never dislodge each other's units nor cut each other's support, and an ally standing in a "
         "centre does not take it.")),
    "Formal Diplomacy: neutral powers": (
        "Formal Diplomacy: neutral powers",
        ("A power may not move into a space holding a neutral's piece (the move is void, treated as a hold, "
         "unless the neutral leaves), may not enter a neutral's home country or owned centres, and may not "
         "support or convoy a neutral's piece; neutrals may bounce each other in un-owned spaces but never "
         "dislodge each other.")),
    "Formal Diplomacy: powers at war": (
        "Formal Diplomacy: powers at war",
        ("A power may attack an enemy's piece anywhere, even in a neutral's home area, but may not support "
         "or convoy a piece of a power it is at war with.")),
    "Formal Diplomacy: neutrality violations": (
        "Formal Diplomacy: neutrality violations",
        ("A unit that ends a movement phase in the home country or an owned centre of a power neutral "
         "towards its own is interned by that power and disbanded.")),
    "Formal Diplomacy: home non-supply-centre provinces": (
        "Formal Diplomacy: home non-supply-centre provinces",
        ("A power's home provinces without a centre are its own while it holds at least as many of the home "
         "centres next to them as other powers occupy; Albania and North Africa are neutral when empty.")),
    "Formal Diplomacy: declarations": (
        "Formal Diplomacy: declarations",
        ("Before orders, declarations are written in secret and revealed together: an alliance needs both "
         "sides, war is unilateral, a war ends only when both declare neutrality or alliance, and one side "
         "may break an alliance; mismatched declarations leave the powers neutral.")),
    "DATC 4.A.3": ("Convoying to an adjacent province",
                   ("An army that can reach its destination over land goes by convoy only when it is ordered \"via "
                    "convoy\" or a fleet of its own power convoys it. Ordered \"via convoy\" with no complete "
                    "convoy ordered, it moves over land under the classic rules (DATC version 2.4) and stays where it is "
                    "under the 2023 rules (DATC version 3.0).")),
    "DATC 4.A.2": ("Convoy disruption paradoxes: the Szykman rule",
                   ("When a convoy's success depends on itself, the convoying fleets in the paradox do not "
                   "convoy, and everything else is settled as usual.")),
}


#: a rule of two halves: the text of the half that applies, by the fact that decides which
RULE_HALVES: dict[str, dict[str, str]] = {
    "IX.7": {
        "standoff": ("Equally supported units ordered to the same space stand each other off, even though one of "
                     "them has been dislodged by a supported attack on the same move."),
        "exception": ("If two units are ordered to the same space and one of them is dislodged by a unit coming "
                      "from that space, the other unit may move: the dislodged unit has no effect there."),
    },
}


class Cause(NamedTuple):
    """The fact one sentence of an explanation says, as the adjudicator recorded it: ``line`` is
    the sentence's index in :attr:`Explanation.details`, ``what`` names the kind of fact and
    ``fact`` is the record (a :class:`NotCut`, a :class:`RivalFate`, or the provinces it
    names).  A checker holds each against the position and the orders."""

    line: int
    what: str
    fact: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Explanation:
    """One order's result, explained: a verdict, the reason, the sentences that support it and the
    rule that decides it."""

    verdict: str  # "succeeds", "fails", "is illegal", "is void"
    reason: str
    details: tuple[str, ...]
    rule: str
    rule_title: str
    rule_text: str
    causes: tuple[Cause, ...] = ()

    def text(self, order_text: str = "") -> str:
        head = f"{order_text}: {self.verdict}" if order_text else _cap(self.verdict)
        lines = [f"{head} — {self.reason}."]
        lines.extend(self.details)
        if self.rule and self.rule == self.rule_title:  # a named rule (Formal Diplomacy's)
            lines.append(f"{self.rule_title} — {self.rule_text}")
        elif self.rule.startswith("note to "):
            lines.append(f"The {self.rule} ({self.rule_title}): {self.rule_text}")
        elif self.rule:
            lines.append(f"Rule {self.rule} ({self.rule_title}): {self.rule_text}")
        return "\n".join(lines)


_VERDICTS = {Outcome.SUCCESS: "succeeds", Outcome.FAILURE: "fails", Outcome.ILLEGAL: "is illegal",
             Outcome.VOID: "is void"}


class _Names:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.board = state.board
        self.index = board_index(state.board)

    def unit_at(self, province: str) -> Unit | None:
        unit = self.state.units.get(province)
        if unit is None:
            d = self.state.dislodged_in(province) if self.state.dislodged else None
            return d.unit if d is not None else None
        return unit

    def unit(self, province: str, *, nationality: bool = False) -> str:
        unit = self.unit_at(province)
        if unit is None:
            return f"the unit from {self.space(province)}"
        text = self.index.describe(unit.kind, unit.location)
        if nationality and unit.power in self.index.power_ids:
            text = f"{self.board.power(unit.power).adjective} {text}"
        return f"the {text}"

    def power_name(self, province: str) -> str:
        unit = self.unit_at(province)
        if unit is None or unit.power not in self.index.power_ids:
            return "its power"
        return self.board.power(unit.power).name

    def space(self, loc: str) -> str:
        return self.index.space_name(loc)

    def province(self, loc: str) -> str:
        """The name of the province, without a coast (what a move into it contests)."""
        return self.index.space_name(province_of(loc))

    def units(self, provinces: Iterable[str], *, nationality: bool = False) -> str:
        return _and([self.unit(p, nationality=nationality) for p in provinces])


class _Said(str):
    """A sentence that states a cause, carrying the fact it states (see :class:`Cause`)."""

    what: str
    fact: tuple[object, ...]


def _said(text: str, what: str, *fact: object) -> str:
    said = _Said(text)
    said.what, said.fact = what, fact
    return said


def _causes(details: list[str]) -> tuple[Cause, ...]:
    return tuple(Cause(n, d.what, d.fact) for n, d in enumerate(details) if isinstance(d, _Said))


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_KIND_WORDS = {StrengthKind.ATTACK: "attack strength", StrengthKind.HOLD: "hold strength",
               StrengthKind.DEFEND: "defend strength", StrengthKind.PREVENT: "prevent strength"}


def _made_of(names: _Names, s: Strength) -> str:
    """``attack strength 2 (itself and the support of the army in Budapest)``."""
    what = f"{_KIND_WORDS[s.kind]} {s.value}"
    if s.counted:
        return f"{what} (itself and the support of {names.units(s.counted)})"
    return f"{what} (itself alone)"


def _left_out(names: _Names, s: Strength, by_province: Mapping[str, OrderResult]) -> list[str]:
    """A sentence for every support ordered for the unit that is not in strength ``s``, and for
    every support in it that a move against the supporting unit did not cut because an ally or a
    neutral made it (Formal Diplomacy: where the standard game would cut it, FD.16-17)."""
    out = []
    for p in s.counted:
        given = by_province.get(p)
        attackers = given.involved[1:] if given is not None else ()
        if given is not None and given.code == ResultCode.SUPPORTED and given.rule in _NOT_CUT_BY and attackers:
            out.append(f"The support of {names.unit(p)} was not cut: {names.units(attackers, nationality=True)} "
                       f"moved against it, but {_NOT_CUT_BY[given.rule]} (Formal Diplomacy).")
    kind = _KIND_WORDS[s.kind]
    for lo in s.left_out:
        sup = names.unit(lo.support)
        if lo.why is LeftOutWhy.CUT:
            attacks = "attacks" if len(lo.by) > 1 else "attack"
            cutters = f" by the {attacks} of {names.units(lo.by)}" if lo.by else ""
            out.append(f"The support of {sup} is not in its {kind}: it was cut{cutters} (rule X).")
        elif lo.why is LeftOutWhy.DISLODGED:
            out.append(f"The support of {sup} is not in its {kind}: {sup} was dislodged by "
                       f"{names.unit(lo.by[0]) if lo.by else 'an attack'} (rule X).")
        elif lo.why is LeftOutWhy.OWN_UNIT:
            out.append(f"The support of {names.unit(lo.support, nationality=True)} is not in its {kind}: a power "
                       f"cannot help dislodge its own unit, and {names.unit(lo.victim, nationality=True)} is "
                       f"{names.power_name(lo.support)}'s (rule IX.3).")
        elif lo.why is LeftOutWhy.ALLIED_UNIT:
            out.append(f"The support of {names.unit(lo.support, nationality=True)} is not in its {kind}: it cannot "
                       f"help dislodge {names.unit(lo.victim, nationality=True)}, a unit of "
                       f"{names.power_name(lo.support)}'s ally {names.power_name(lo.victim)} (Formal Diplomacy: allied "
                       "powers).")
        elif lo.why is LeftOutWhy.NOT_MATCHING:
            given = by_province.get(lo.support)
            where = getattr(given.order, "destination", "") if given is not None else ""
            to = f" to {names.province(where)}" if where else ""
            out.append(f"The support of {sup} does not match: it supports a move{to}, which is not the move "
                       "ordered (rule IX.1).")
        elif lo.why is LeftOutWhy.UNIT_MOVED:
            out.append(f"The support of {sup} is for holding, but the unit was ordered to move, so it is void "
                       "(rule IX.6).")
        elif lo.why is LeftOutWhy.UNIT_HELD:
            out.append(f"The support of {sup} is for a move, but the unit was not ordered to make it, so it is "
                       "void (rule IX.1).")
    return out


def _opposing(names: _Names, s: Strength, by_province: Mapping[str, OrderResult]) -> list[str]:
    """Sentences for one strength opposing a move."""
    dest = names.province(s.space)
    if s.kind is StrengthKind.HOLD:
        if s.note == "empty":
            return [f"{dest} was empty, so nothing held it."]
        unit = names.unit(s.unit)
        mover = by_province.get(s.unit)
        away = getattr(mover.order, "destination", "") if mover is not None else ""
        if s.note == "left":
            return [f"{_cap(unit)} moved out of {dest} to {names.space(away)}, so it did not hold it."]
        if s.note == "failed_to_leave":
            return [(f"{_cap(unit)} tried to move to {names.space(away)} but could not, so it stayed in {dest}: "
                    f"hold strength {s.value} (a unit ordered to move gets no support for holding).")]
        return [f"{_cap(unit)} held {dest} with {_made_of(names, s)}.", *_left_out(names, s, by_province)]
    unit = names.unit(s.unit)
    if s.kind is StrengthKind.DEFEND:
        return [f"{_cap(unit)}, moving the other way, defended with {_made_of(names, s)}.",
                *_left_out(names, s, by_province)]
    # a prevent strength: another move into the same space
    if s.note == "lost_head_to_head":
        m = by_province.get(province_of(s.space))
        beaten_by = f" with {names.unit(m.order.province)}" if m is not None and isinstance(m.order, UnitOrder) \
            else ""
        return [(f"{_cap(unit)} also moved to {dest}, but it lost its head-to-head battle{beaten_by} coming from "
                f"{dest}, so it stands nobody off there (rule IX.7).")]
    if s.note == "no_route":
        return [(f"{_cap(unit)} also moved to {dest} by convoy, but it had no convoy route, so it stands nobody "
                "off there.")]
    if s.note == "neutral":
        return [(f"{_cap(unit)} also moved to {dest}, but a move into a space holding a neutral's piece is void, "
                "so it stands nobody off there (Formal Diplomacy: neutral powers).")]
    return [f"{_cap(unit)} also moved to {dest}: {_made_of(names, s)}.", *_left_out(names, s, by_province)]


def _conclusion(decision: Decision, result: OrderResult) -> str:
    attack: Strength = decision.subject  # type: ignore[assignment]
    a = attack.value
    opp = decision.strongest_opposition()
    if result.outcome is Outcome.SUCCESS:
        if decision.circular:
            # (_move_details says first whether it was stronger than every other move there)
            if decision.swap_by_convoy:
                return ("The two units exchange places, which they may do when either or both go by convoy (rule "
                        "XIV.3), so both moves succeed together.")
            return "The moves around the ring all depend on each other, so they all succeed together."
        if opp == 0:
            return "Nothing opposed it with any strength, so the move succeeds."
        return f"{a} is more than every strength against it (the strongest: {opp}), so the move succeeds."
    decisive = [s for s in decision.opposing if s.value >= a]
    if opp > a:
        return f"{a} is less than {opp}, so the move fails."
    kinds = {s.kind for s in decisive}
    if kinds == {StrengthKind.PREVENT} or (StrengthKind.PREVENT in kinds and result.why.say is Say.STOOD_OFF):
        # (a unit there that failed to leave, no stronger than the standoff, is not what decided it)
        return f"{a} against {opp}: equal strengths stand each other off, so none of them enters."
    if StrengthKind.DEFEND in kinds:
        return f"{a} against {opp}: equal strengths in a head-to-head battle, so neither unit moves."
    return f"{a} against {opp}: an attack must be stronger than the hold to enter, so the move fails."


def _standoff(names: _Names, mine: int, rivals: list[Strength], by_province: Mapping[str, OrderResult]) -> str:
    """How a move that could not enter still fared against the other moves to the space."""
    best = max(s.value for s in rivals)
    if best > mine:
        top = next(s for s in rivals if s.value == best)
        theirs = by_province.get(top.unit)
        entered = theirs is not None and theirs.code == ResultCode.MOVED
        there = names.province(top.space)
        after = f"so it entered {there}" if entered else f"but it did not enter {there} either"
        return _said(f"{best} is more than {mine}: {names.unit(top.unit)} was stronger, {after}.",
                     "rival_stronger", top.unit, entered)
    if best == mine:
        return f"{mine} against {best}: equal strengths, so it stood the other move off."
    return f"{mine} is more than {best}, so it stood the other moves off."


def _shielded_details(result: OrderResult, decision: Decision, names: _Names,
                      by_province: Mapping[str, OrderResult]) -> list[str]:
    """A move into a space whose unit stayed and which it may not dislodge (its own power's, an
    ally's, a neutral's), and what else decided it: a stronger or equal move there, a ring."""
    order = result.order
    assert isinstance(order, Move)
    attack: Strength = decision.subject  # type: ignore[assignment]
    there = province_of(order.destination)
    dest = names.province(order.destination)
    target = names.unit(there, nationality=True)
    mover = names.power_name(order.province)
    stayed = "stayed in"
    shield = ""
    blocker = by_province.get(there)
    if blocker is not None and isinstance(blocker.order, Move) and blocker.order.province == there:
        stayed = f"tried to move to {names.space(blocker.order.destination)} but could not, so it stayed in"
    out: list[str] = []
    if attack.note == "neutral":
        out.append(f"{_cap(target)} {stayed} {dest}, and {names.power_name(there)} is neutral towards {mover}: a "
                   "move into a space holding a neutral's piece is void while the piece stays, so this move is "
                   "treated as a hold.")
    elif attack.note == "allied":
        out.append(f"{_cap(target)} {stayed} {dest}; it is a unit of {mover}'s ally {names.power_name(there)}, and "
                   "allies never dislodge each other: this move cannot dislodge it whatever its strength.")
    elif decision.decided_by_rival:  # said after the move that decided it (the cause first)
        shield = _said(f"{_cap(target)} {stayed} {dest}, and it is {mover}'s own unit, which this move could not "
                       "have dislodged anyway (rule IX.3).", "own_unit_stayed", order.province, there)
    else:
        out.append(_said(f"{_cap(target)} {stayed} {dest}, and it is {mover}'s own unit: this move cannot dislodge it "
                         "whatever its strength (rule IX.3).", "own_unit_stayed", order.province, there))
    if decision.ring_broken_at:
        breaker = by_province.get(decision.ring_broken_at)
        into = names.province(getattr(breaker.order, "destination", "")) if breaker is not None else ""
        out.append(_said(f"It stayed because the ring of moves it was part of could not turn: "
                         f"{names.unit(decision.ring_broken_at)} failed to enter {into}, so each move of the ring "
                         "waited on the next.", "ring_broken_at", decision.ring_broken_at))
    rivals = [s for s in decision.opposing if s.kind is StrengthKind.PREVENT]
    if rivals and decision.prevent is not None and decision.prevent.value == 0:
        out.append(f"It stands nobody off in {dest} either: a move into a space holding a neutral's piece is void.")
    elif rivals and decision.prevent is not None:
        why = " (rule IX.3: \"valid for other purposes\")" if attack.note == "own_unit" else ""
        out.append(f"It still counts for standing off the other moves to {dest}{why}, with its "
                   f"{_made_of(names, decision.prevent)}.")
        for s in rivals:
            out.extend(_opposing(names, s, by_province))
        out.append(_standoff(names, decision.prevent.value, rivals, by_province))
        out.extend(_rival_decided(decision, names, there, dest))
    if shield:
        out.append(shield)
    return out


def _rival_decided(decision: Decision, names: _Names, there: str, dest: str) -> list[str]:
    """Why the other move, not the unit that stayed, decided a move's failure."""
    rival = decision.decided_by_rival
    if not rival or decision.prevent is None:
        return []
    theirs = next((s.value for s in decision.opposing if s.unit == rival), 0)
    if theirs > decision.prevent.value:
        return [_said(f"So this move fails because {names.unit(rival)} was stronger (rule IX.2), whatever "
                      f"{names.unit(there)} did.", "rival_decides", rival, "beaten")]
    return [_said(f"So this move fails because it stood off with {names.unit(rival)} (rule VIII); "
                  f"{names.unit(there)} stayed in {dest} only because this move failed, since the ring of moves "
                  "could not turn.", "rival_decides", rival, "standoff")]


def _move_details(result: OrderResult, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    decision = result.decision
    order = result.order
    assert decision is not None and isinstance(order, Move)
    attack: Strength = decision.subject  # type: ignore[assignment]
    me = _cap(names.unit(order.province))
    dest = names.province(order.destination)
    out: list[str] = []
    if decision.no_route:
        return _no_route_details(result, decision, names, by_province)
    if attack.note in ("own_unit", "allied", "neutral"):
        return _shielded_details(result, decision, names, by_province)
    if decision.route:
        seas = ", ".join(names.space(p) for p in decision.route)
        out.append(f"{me} went by convoy through {seas}.")
        if _borders(result, names):
            out.append(_said(f"It borders {dest}, but {_convoy_intent(result, names)}, so the convoy route is used "
                             "and the land route disregarded (rule XII.6, DATC 4.A.3).", "convoy_intent"))
        res_route = [p for p in _convoy_fleets(order.province, by_province) if p not in decision.route]
        for p in res_route:
            fleet = by_province.get(p)
            if fleet is not None and fleet.code == ResultCode.DISRUPTED:
                out.append(f"{_cap(names.unit(p))} was dislodged, but the army had another route (rule XII.4).")
    out.append(f"{me} attacked {dest} with {_made_of(names, attack)}.")
    out.extend(_left_out(names, attack, by_province))
    for s in decision.opposing:
        out.extend(_opposing(names, s, by_province))
    out.extend(_rival_fate(f, names, dest) for f in decision.rival_fates)
    opp = decision.strongest_opposition()
    if decision.circular and result.outcome is Outcome.SUCCESS and 0 < opp < attack.value:
        out.append(f"{attack.value} is more than every strength against it (the strongest: {opp}).")
    out.append(_conclusion(decision, result))
    return out


def _rival_fate(fate: RivalFate, names: _Names, dest: str) -> str:
    if fate.from_destination and not fate.head_to_head:  # DATC 6.G.14: still a standoff
        return _said(f"{_cap(names.unit(fate.rival))} was dislodged by {names.unit(fate.dislodged_by)}, which came "
                     f"from {dest}; but one of them went by convoy, so they did not meet head to head, and its "
                     f"move still counts in {dest} (rule IX.7, DATC 4.A.7).", "rival_fate", fate)
    if fate.from_destination:
        return _said(f"{_cap(names.unit(fate.rival))} was dislodged by {names.unit(fate.dislodged_by)}, which came "
                     f"from {dest}, so it has no effect there (rule IX.7).", "rival_fate", fate)
    return _said(f"{_cap(names.unit(fate.rival))} was dislodged by {names.unit(fate.dislodged_by)}, which did not come "
                 f"from {dest}, so its move still counts in {dest} (rule IX.7).", "rival_fate", fate)


def _convoy_fleets(army: str, by_province: Mapping[str, OrderResult]) -> list[str]:
    return sorted(p for p, r in by_province.items()
                  if r.code in (ResultCode.CONVOYED, ResultCode.DISRUPTED, ResultCode.CONVOY_UNUSED, ResultCode.PARADOX)
                  and getattr(r.order, "target", "").partition("/")[0] == army)


def _borders(result: OrderResult, names: _Names) -> bool:
    """Whether the army of a convoyed move could have gone to its destination over land."""
    order = result.order
    return isinstance(order, Move) and names.board.can_move(ARMY, order.location, order.destination)


def _convoy_intent(result: OrderResult, names: _Names) -> str:
    """What shows that an army able to go over land meant to go by convoy (XII.6 as the 2000 and
    2023 rulebooks write it): its "via convoy", or a fleet of its own power ordered to convoy it."""
    order = result.order
    assert isinstance(order, Move)
    if order.via_convoy:
        return "it was ordered \"via convoy\""
    return f"a fleet of its own power ({names.power_name(order.province)}) was ordered to convoy it"


def _refused_convoys(decision: Decision, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    out = []
    for p in decision.refused:
        fleet = by_province.get(p)
        core = ""
        if fleet is not None and fleet.outcome is Outcome.ILLEGAL:
            core = fleet.reason.removeprefix("illegal: ").removesuffix("; the unit holds").removesuffix(
                "; its legal order stands")
        out.append(f"{_cap(names.unit(p))} was ordered to convoy it, but that convoy order is illegal and not "
                   f"followed.{' ' + _cap(core) + '.' if core else ''}")
    return out


def _no_route_details(result: OrderResult, decision: Decision, names: _Names,
                      by_province: Mapping[str, OrderResult]) -> list[str]:
    why = decision.no_route
    out: list[str] = []
    if why in ("no_fleets", "refused") and _borders(result, names):
        out.extend(_refused_convoys(decision, names, by_province) if why == "refused" else [])
        dest = names.province(result.order.destination)  # type: ignore[attr-defined]
        none = "no other fleet was legally ordered to carry it" if why == "refused" else \
            "no fleet was ordered to carry it"
        out.append(_said(f"It borders {dest}, but it was ordered \"via convoy\", so only a convoy route counts: "
                         f"under the 2023 rules it does not fall back to the land route (DATC 4.A.3), and {none}.",
                         "via_no_fallback"))
    elif why == "no_fleets":
        out.append("An army moves to a space it does not border only by convoy, and no fleet was ordered to carry "
                   "it there.")
    elif why == "refused":
        out.extend(_refused_convoys(decision, names, by_province))
        out.append("No other fleet was ordered to carry it, and an army moves to a space it does not border only by "
                   "convoy.")
    elif why == "other_destination":
        out.append("The army's order and the fleet's convoy order must name the same destination (rule XII.1).")
    elif why in ("dislodged", "xii5"):
        for p in decision.fleets:
            r = by_province.get(p)
            if r is not None and r.dislodged and r.dislodged_by:
                out.append(f"{_cap(names.unit(p))} was dislodged by {names.unit(r.dislodged_by)}, so the convoy "
                           "through it is disrupted (rule XII.3).")
        if why == "xii5" and decision.attacked_support:
            sup = decision.attacked_support
            out.append(_said(f"The army's own attack could not save that fleet: it attacked {names.unit(sup)}, which "
                             "supported the attack on it, and a convoyed army does not cut a support given against a "
                             "fleet that convoys it (rule XII.5).", "xii5", sup, *decision.fleets))
    elif why == "paradox":
        out.append("Whether the convoy works depends on the convoy itself; the DATC settles such a paradox by the "
                   "Szykman rule: the convoying fleets in it do not convoy, and the rest is adjudicated as usual.")
        out.append(_said(f"So {_and([names.unit(p) for p in decision.fleets])} does not convoy it, and the army stays "
                         "(DATC 4.A.2).", "szykman", *decision.fleets))
        out.extend(_also_dislodged(decision.fleets, names, by_province))
    elif why == "no_chain":
        seas = _and([names.space(p) for p in decision.fleets])
        out.append(f"The fleets ordered to convoy it ({seas}) do not link its coast to the destination (rule XII.2).")
    return out


def _also_dislodged(fleets: Iterable[str], names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    out = []
    for p in fleets:
        r = by_province.get(p)
        if r is not None and r.dislodged and r.dislodged_by:
            out.append(f"{_cap(names.unit(p))} was also dislodged, by {names.unit(r.dislodged_by)}.")
    return out


def _hold_details(result: OrderResult, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    decision = result.decision
    if decision is None or decision.subject is None:
        return []
    attacks = [s for s in decision.opposing if s.note != "no_route"]
    if not attacks:
        return []
    order = result.order
    assert isinstance(order, UnitOrder)
    hold = decision.subject
    me = names.unit(order.province)
    out = [f"{_cap(me)} held with {_made_of(names, hold)}.", *_left_out(names, hold, by_province)]
    for s in attacks:
        attacker = names.unit(s.unit)
        if s.note == "own_unit":
            out.append(f"{_cap(attacker)} moved against it, but it belongs to the same power, and a power cannot "
                       "dislodge its own unit (rule IX.3).")
            continue
        if s.note in ("allied", "neutral"):
            why = "allies never dislodge each other" if s.note == "allied" else \
                "a move into a space holding a neutral's piece is void while the piece stays"
            out.append(f"{_cap(attacker)} moved against it, but {why} (Formal Diplomacy).")
            continue
        line = f"{_cap(attacker)} attacked with {_made_of(names, s)}"
        theirs = by_province.get(s.unit)
        if result.dislodged_by == s.unit:
            line += f": more than {hold.value}, so it entered and dislodged {me}."
        elif s.value > hold.value and theirs is not None and theirs.decision is not None:
            stood = [o for o in theirs.decision.opposing if o.kind is StrengthKind.PREVENT and o.value >= s.value]
            line += (f", more than {hold.value}, but it was stood off by {names.units([o.unit for o in stood])}, "
                     "also moving here, so it did not enter." if stood else ", but it did not enter.")
        elif s.value == hold.value:
            line += f": not more than {hold.value}, so it did not enter."
        else:
            line += f": less than {hold.value}, so it did not enter."
        out.append(line)
        out.extend(_left_out(names, s, by_province))
    return out


def _support_details(result: OrderResult, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    order = result.order
    if not isinstance(order, (SupportHold, SupportMove)):
        return []
    target_p = province_of(order.target)
    target = names.unit(target_p)
    decision = result.decision
    out: list[str] = []
    if result.code == ResultCode.CUT:
        what = f"{target}'s move to {names.province(order.destination)}" if isinstance(order, SupportMove) \
            else f"{target}'s hold"
        return [f"It adds nothing to {what}."]
    if result.code != ResultCode.SUPPORTED or decision is None:
        return []
    supported = by_province.get(target_p)
    dest = names.province(order.destination) if isinstance(order, SupportMove) else names.province(target_p)
    for _kind, lo in decision.left_out_of:
        if lo.why is LeftOutWhy.OWN_UNIT:
            out.append(f"It cannot help {target} dislodge {names.unit(lo.victim, nationality=True)}: a power's "
                       "support does not help dislodge its own unit (rule IX.3), so it is not in the attack strength.")
        elif lo.why is LeftOutWhy.ALLIED_UNIT:
            out.append(f"It cannot help {target} dislodge {names.unit(lo.victim, nationality=True)}, a unit of "
                       f"{names.power_name(order.province)}'s ally {names.power_name(lo.victim)} (Formal Diplomacy: "
                       "allied powers), so it is not in the attack strength.")
    shut_out = bool(decision.left_out_of)
    out.extend(_counted_sentence(s, target, dest, names, supported, shut_out) for s in decision.counted_in)
    if not decision.counted_in:
        out.extend(_counted_for_nothing(order, target, dest, supported, shut_out))
    out.extend(_not_cut_sentence(nc, names, order) for nc in decision.not_cut)
    if result.rule == "VII.3.2":
        out.append(_coast_support_sentence(order, names, supported))
    return out


def _coast_support_sentence(order: SupportHold | SupportMove, names: _Names, supported: OrderResult | None) -> str:
    """Why a fleet may support on or into a coast it cannot move to (VII.3.2)."""
    target_p = province_of(order.target)
    moved = supported is not None and isinstance(supported.order, Move)
    held = names.unit_at(target_p)
    where = supported.order.destination if moved else (held.location if held is not None  # type: ignore[union-attr]
                                                        else order.target)
    return _said(f"{_cap(names.unit(order.province))} cannot move to {names.space(where)}, but it can move to "
                 f"{names.province(where)}, and a fleet may support an action anywhere in a province it can move "
                 "to, whatever the coast (rule VII.3.2).", "coast_support", target_p, where)


def _counted_sentence(s: Strength, target: str, dest: str, names: _Names, supported: OrderResult | None,
                      shut_out: bool) -> str:
    """The strength a support counted in, and what that strength is for."""
    if s.kind is StrengthKind.ATTACK:
        return f"It counted in {target}'s attack on {dest}: {_made_of(names, s)}."
    if s.kind is StrengthKind.HOLD:
        return f"It counted in {target}'s hold of {dest}: {_made_of(names, s)}."
    if s.kind is StrengthKind.PREVENT:
        rivals = []
        if supported is not None and supported.decision is not None:
            rivals = [o.unit for o in supported.decision.opposing if o.kind is StrengthKind.PREVENT and o.unit]
        against = f" against {names.units(rivals)}, also moving to {dest}" if rivals else ""
        purpose = " That is what rule IX.3 means by a support still \"valid for other purposes\"." if shut_out \
            else ""
        return (f"It counted in {target}'s {_made_of(names, s)}{against}: the strength with which a move "
                f"stands off the other moves to the same space.{purpose}")
    return f"It counted in {target}'s {_made_of(names, s)} against the unit moving the other way, from {dest}."


def _counted_for_nothing(order: SupportHold | SupportMove, target: str, dest: str, supported: OrderResult | None,
                         shut_out: bool) -> list[str]:
    """Why a support that was given counted in no strength at all."""
    if shut_out:
        return [f"No other unit moved to {dest} and none came the other way, so it counted for nothing."]
    if isinstance(order, SupportHold):
        return [f"Nothing attacked {target}, so its hold was never tested."]
    if supported is not None and supported.code == ResultCode.NO_CONVOY:
        return [f"{_cap(target)} found no convoy route, so its move had no strength to add to."]
    subject = supported.decision.subject if supported is not None and supported.decision is not None else None
    if subject is not None and subject.note in _SHIELD_WHY:
        return [(f"{_cap(target)}'s move cannot dislodge the unit in {dest} whatever its strength: "
                 f"{_SHIELD_WHY[subject.note]}. So the support adds nothing to it.")]
    return []


def _not_cut_sentence(nc: NotCut, names: _Names, order: SupportHold | SupportMove) -> str:
    """Why one move against a supporting unit did not cut its support, with the rule that says so."""
    who = _cap(names.unit(nc.attacker, nationality=True))
    why = nc.why
    if why is NotCutWhy.FROM_TARGET:
        text = (f"{who} attacked it from {names.province(nc.attacker)}, the space it supports into, which does not "
                "cut a support (rule X).")
    elif why is NotCutWhy.OWN_POWER:
        text = (f"{who} moved against it, but it is {names.power_name(order.province)}'s own unit, and a power does "
                "not cut the support of its own unit (the note to IX.6).")
    elif why is NotCutWhy.CONVOY_ATTACKED:
        text = (f"{who} attacked it by convoy, and this support is given into {names.space(nc.seas[0])}, where a fleet "
                "convoying that army stands, so by rule XII.5 the convoyed attack does not cut it.")
    elif why is NotCutWhy.SZYKMAN:
        text = (f"{who} was to attack it by convoy through {_and([names.space(p) for p in nc.seas])}, but that convoy "
                "depends on this support: a paradox, which the Szykman rule settles by taking the convoying fleets "
                "in it out, so the army does not move and cuts nothing (DATC 4.A.2).")
    elif why is NotCutWhy.NO_ROUTE:
        text = f"{who} was to attack it by convoy, but found no convoy route, so it attacked nothing."
    else:
        rule = "Formal Diplomacy: allied powers" if why is NotCutWhy.ALLIED else "Formal Diplomacy: neutral powers"
        text = f"{who} moved against it, but {_NOT_CUT_BY[rule]} (Formal Diplomacy)."
    return _said(text, "not_cut", nc)


#: why a move cannot dislodge the unit that stays in its destination, whatever its strength
_SHIELD_WHY = {
    "own_unit": "it is a unit of the same power (rule IX.3)",
    "allied": "it is an ally's unit, and allies never dislodge each other",
    "neutral": "it is a neutral's piece, and a move into a neutral's space is void while the piece stays",
}

_NOT_CUT_BY = {
    "Formal Diplomacy: allied powers": "an ally does not cut support",
    "Formal Diplomacy: neutral powers": "a neutral cannot cut support: its move into the space is void",
}


def _dislodged_details(result: OrderResult, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    """The attack that dislodged a unit, read from the attacker's record."""
    by = result.dislodged_by
    if not by:
        return []
    theirs = by_province.get(by)
    decision = theirs.decision if theirs is not None else None
    if decision is None or decision.subject is None or not decision.opposing:
        return [f"It was itself dislodged by {names.unit(by)}."]
    hold = decision.opposing[0]  # its hold strength, or (head to head) its defend strength
    out = [(f"It was itself dislodged by {names.unit(by)}: {_made_of(names, decision.subject)} against its "
            f"{_KIND_WORDS[hold.kind]} {hold.value}.")]
    order = result.order
    mine = result.decision
    rivals = [o for o in mine.opposing if o.kind is StrengthKind.PREVENT and o.value > 0] if mine is not None else []
    if isinstance(order, Move) and result.code == ResultCode.BOUNCED and province_of(order.destination) != by \
            and rivals:
        out.append(_said(f"It was not dislodged by a unit coming from {names.province(order.destination)}, so its "
                         f"move still stood off the others there (rule IX.7).", "dislodged_still_stands",
                         order.province, by))
    elif isinstance(order, Move) and result.code == ResultCode.BOUNCED and province_of(order.destination) == by \
            and rivals and mine is not None and mine.opposing and mine.opposing[0].kind is not StrengthKind.DEFEND:
        # dislodged by the unit from its destination, but not head to head (either went by convoy)
        there = names.province(order.destination)
        out.append(_said(f"That unit came from {there}, but one of the two went by convoy, so they did not meet head "
                         "to head, and this move still stood off the others there (rule IX.7, DATC 4.A.7).",
                         "dislodged_still_stands", order.province, by))
    return out


def explain(result: OrderResult, state: GameState,
            results: Iterable[OrderResult] | Mapping[str, OrderResult] = ()) -> Explanation:
    """Explain ``result``, one of the results of adjudicating ``state`` (the position the orders were
    given in); ``results`` are the other results of that adjudication, which the explanation
    reads for the supports and opponents it names.  Every figure is read from the results'
    decision records (:class:`Decision`); nothing is adjudicated again."""
    by_province = results if isinstance(results, Mapping) else results_by_province(results)
    names = _Names(state)
    details: list[str] = []
    order = result.order
    if result.outcome not in (Outcome.ILLEGAL, Outcome.VOID) and isinstance(order, UnitOrder):
        if isinstance(order, Move) and result.decision is not None and result.decision.subject is not None \
                and result.decision.subject.kind is StrengthKind.ATTACK:
            details = _move_details(result, names, by_province)
        elif result.code == ResultCode.DISLODGED and result.decision is not None or result.code in (ResultCode.HOLDS, ResultCode.UNORDERED):
            details = _hold_details(result, names, by_province)
        elif result.code in (ResultCode.SUPPORTED, ResultCode.CUT):
            details = _support_details(result, names, by_province)
    elif isinstance(order, Move) and result.code in (ResultCode.FORMAL_NEUTRAL,) and result.decision is not None:
        details = _move_details(result, names, by_province)
    if result.dislodged and result.code != ResultCode.DISLODGED and result.dislodged_by:
        details.extend(_dislodged_details(result, names, by_province))
    title, text = RULES.get(result.rule, ("", ""))
    halves = RULE_HALVES.get(result.rule)
    if halves is not None:
        text = halves[_half(result)]
    return Explanation(_VERDICTS[result.outcome], reason_without_verdict(result), tuple(details), result.rule, title, text,
                       _causes(details))


def _half(result: OrderResult) -> str:
    """Which half of a two-part rule decides ``result`` (IX.7: a unit dislodged head to head from
    the space both moved to has no effect there; one dislodged from elsewhere, or by a convoyed
    unit or while going by convoy (DATC 4.A.7), still stands the other off)."""
    decision = result.decision
    fates = decision.rival_fates if decision is not None else ()
    exception = any(f.from_destination and f.head_to_head for f in fates)
    return "exception" if exception or not fates and result.succeeded else "standoff"


#: results of what happened to a unit after the phase's orders (interned, disbanded in civil
#: disorder): filed under a province only when no order's result is
_AFTERWARDS = frozenset({"interned", "disorder_disbanded"})


def results_by_province(results: Iterable[OrderResult]) -> dict[str, OrderResult]:
    """The results of one adjudication filed by the province of the ordered unit (the result of
    the order the unit carried out, where it was given several)."""
    out: dict[str, OrderResult] = {}
    for r in results:
        order: Order = r.order
        if isinstance(order, UnitOrder) and r.outcome is not Outcome.ILLEGAL and r.code not in _AFTERWARDS:
            out[order.province] = r
    for r in results:
        if isinstance(r.order, UnitOrder):
            out.setdefault(r.order.province, r)
    return out
