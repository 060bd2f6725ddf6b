"""Why each order succeeded or failed, in plain words, with the rule that decides it.

Everything here is read from the adjudication's result records (:class:`OrderResult`: its code,
strengths, the supports that counted and those that did not, the units involved, the rule) and
from the position the orders were given in; nothing is adjudicated again.  The window's
explanation panel and ``adjudicate --explain`` print the same text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .boardindex import board_index
from .orders import Order, SupportHold, SupportMove, UnitOrder
from .results import OrderResult, Outcome
from .state import GameState, Unit

# The sections of the rules (seed 000's numbering) an explanation may cite: title, and the rule
# in one plain sentence.  "DATC x" entries are the DATC's rulings where the rulebook is silent.
RULES: dict[str, tuple[str, str]] = {
    "VII.1": ("Movement",
              ("A unit moves to an adjacent space it can reach (armies over land, fleets by sea and along "
              "coasts), and only one unit may be in a space at a time.")),
    "VII.3.2": ("Provinces having two coasts",
                ("A fleet enters a province with two coasts along one of them, and the order must say which "
                "when it could reach both.")),
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
             ("A unit dislodged by an attack from the space it was moving to has no effect on that space, "
             "so it cannot stand anyone off there.")),
    "X": ("Cutting support",
          ("A support is cut when the supporting unit is attacked from any space but the one it supports "
          "into, or is dislodged; a cut support adds nothing.")),
    "XI": ("Retreats",
           ("A dislodged unit retreats to an adjacent empty space, not to where its attacker came from nor "
           "to a space left empty by a standoff; with nowhere to go it is disbanded.")),
    "XI.1": ("Writing retreats", "Each player writes the retreats of their own dislodged units."),
    "XI.2": ("Other retreat rules",
             ("Units retreating to the same space are all disbanded; a unit may be disbanded instead of "
             "retreating, and one given no retreat order is disbanded.")),
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
              "An army that could arrive over land or by convoy goes the way its player's orders show."),
    "XIII.2": ("Building and removing units",
               ("After Fall, each power builds in its empty, owned home centres or removes units until its "
               "units equal its supply centres.")),
    "XIV.2": ("Civil disorder removals",
              ("A power that does not order its removals loses the units farthest from home, fleets before "
              "armies, then in alphabetical order.")),
    "XIV.3": ("Players should note that",
              ("Three or more units may move around a ring of spaces in rotation; fleets in coastal "
              "provinces may not convoy.")),
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
    "DATC 4.A.2": ("Convoy disruption paradoxes: the Szykman rule",
                   ("When a convoy's success depends on itself, the convoying fleets in the paradox do not "
                   "convoy, and everything else is settled as usual.")),
}


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

    def text(self, order_text: str = "") -> str:
        head = f"{order_text}: {self.verdict}" if order_text else _cap(self.verdict)
        lines = [f"{head} — {self.reason}."]
        lines.extend(self.details)
        if self.rule and self.rule == self.rule_title:  # a named rule (Formal Diplomacy's)
            lines.append(f"{self.rule_title} — {self.rule_text}")
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

    def space(self, loc: str) -> str:
        return self.index.space_name(loc)

    def units(self, provinces: Iterable[str], *, nationality: bool = False) -> str:
        names = [self.unit(p, nationality=nationality) for p in provinces]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + " and " + names[-1]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _strength(names: _Names, subject: str, strength: int, supports: tuple[str, ...]) -> str:
    if not supports:
        return f"{subject} alone: strength {strength}"
    return f"{subject} with the support of {names.units(supports)}: strength {strength}"


def _not_counted(names: _Names, result: OrderResult, by_province: Mapping[str, OrderResult]) -> list[str]:
    out = []
    for province, why in result.not_counted:
        if why == "allied_unit":
            target = result.involved[0] if result.involved else ""
            victim = names.unit_at(target) if target else None
            power = names.board.power(victim.power).name if victim is not None else "its ally"
            out.append(f"The support of {names.unit(province, nationality=True)} does not count: it cannot "
                       f"help dislodge a unit of its ally {power} (Formal Diplomacy: allied powers).")
            continue
        if why == "own_unit":
            target = result.involved[0] if result.involved else ""
            victim = names.unit_at(target) if target else None
            power = names.board.power(victim.power).adjective if victim is not None else "its own"
            article = "an" if power[:1].lower() in "aeiou" else "a"
            out.append(f"The support of {names.unit(province, nationality=True)} does not count: it cannot "
                       f"help dislodge {article} {power} unit (rule IX.3).")
            continue
        support = by_province.get(province)
        if support is not None and support.dislodged_by:
            how = f"it was dislodged by {names.unit(support.dislodged_by)}"
        elif support is not None and support.involved:
            how = f"it was cut by the attack of {names.units(support.involved)}"
        else:
            how = "it was cut"
        out.append(f"The support of {names.unit(province)} does not count: {how} (rule X).")
    return out


def _all_supports(result: OrderResult | None) -> tuple[str, ...]:
    """The supports that count for a move's defence of its own space or its standing off other
    moves: all of them that were not cut, whoever's unit it attacks (rules IX.3 limits only the
    attack)."""
    if result is None:
        return ()
    return result.supports + tuple(p for p, why in result.not_counted if why == "own_unit")


def _move_details(result: OrderResult, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    order = result.order
    assert isinstance(order, UnitOrder)
    out: list[str] = []
    me = names.unit(order.province)
    dest = getattr(order, "destination", "")
    if result.code == "no_convoy":
        return out
    if result.strength is not None and result.code not in ("own_unit", "formal_allied"):
        out.append(_strength(names, f"{_cap(me)} attacked {names.space(dest)}", result.strength, result.supports)
                   + ".")
    out.extend(_not_counted(names, result, by_province))
    who = result.involved
    if result.code == "own_unit" and who:
        out.append(f"{_cap(names.unit(who[0]))} belongs to the same power and did not leave, so the move "
                   "cannot succeed whatever its strength.")
        target = dest.partition("/")[0]
        rivals = [p for p, other in by_province.items() if p != order.province
                  and getattr(other.order, "destination", "").partition("/")[0] == target
                  and isinstance(other.order, UnitOrder) and other.order.province == p]
        blocker = by_province.get(who[0])
        if rivals and blocker is not None and getattr(blocker.order, "destination", None) is not None:
            out.append(f"{_cap(names.units(rivals))} also tried to move to {names.space(dest)}, so the moves "
                       f"around it could not all happen together: {names.unit(who[0])} could not leave, and the "
                       "units waiting on it stay where they are.")
        return out
    if result.code == "formal_allied" and who:
        out.append(f"{_cap(names.unit(who[0]))} belongs to an ally and did not leave; allies never dislodge "
                   "each other, so the move cannot succeed whatever its strength.")
        return out
    if result.opposition is None:
        return out
    if not who or result.opposition == 0:
        target = dest.partition("/")[0]
        beaten = [p for p, other in by_province.items() if p != order.province and other.dislodged
                  and other.dislodged_by is not None and other.dislodged_by.partition("/")[0] == target
                  and getattr(other.order, "destination", "").partition("/")[0] == target]
        for p in beaten:
            by = by_province[p].dislodged_by or ""
            out.append(f"{_cap(names.unit(p))} also tried to move to {names.space(dest)}, but it was dislodged by "
                       f"{names.unit(by)}, coming the other way, so it has no effect on {names.space(dest)}.")
        out.append("Nothing else opposed it." if beaten else "Nothing opposed it.")
    elif result.code == "head_to_head":
        other = by_province.get(who[0])
        sup = _all_supports(other)
        out.append(_strength(names, f"{_cap(names.unit(who[0]))}, moving the other way, defended",
                             result.opposition, sup) + ".")
    else:
        for p in who:
            other = by_province.get(p)
            moving = other is not None and getattr(other.order, "destination", None) is not None \
                and other.order.province == p and other.code in ("moved", "bounced", "head_to_head", "no_convoy",
                                                                 "own_unit")
            if moving and other is not None and other.order.destination.partition("/")[0] == dest.partition("/")[0]:  # type: ignore[attr-defined]
                out.append(_strength(names, f"{_cap(names.unit(p))}, also moving to {names.space(dest)}, "
                                     "came", result.opposition, _all_supports(other)) + ".")
            elif moving:
                assert other is not None
                away = names.space(other.order.destination)  # type: ignore[attr-defined]
                out.append(f"{_cap(names.unit(p))} tried to leave for {away} but could not, so it stayed and "
                           f"defended {names.space(dest)} with strength {result.opposition}.")
            else:
                sup = other.supports if other is not None else ()
                out.append(_strength(names, f"{_cap(names.unit(p))} held", result.opposition, sup) + ".")
    if result.outcome is Outcome.SUCCESS:
        out.append(f"{result.strength} is more than {result.opposition}, so the move succeeds.")
    elif result.strength is not None and result.strength == result.opposition:
        if result.code == "head_to_head" or _rivals(result, dest, by_province):
            out.append(f"{result.strength} against {result.opposition}: equal strengths stand off, so nobody "
                       "enters.")
        else:
            out.append(f"{result.strength} against {result.opposition}: an attack must be stronger than the "
                       f"defence to enter, so {names.units(who)} stays.")
    elif result.strength is not None:
        out.append(f"{result.strength} is not more than {result.opposition}, so the move fails.")
    return out


def _rivals(result: OrderResult, dest: str, by_province: Mapping[str, OrderResult]) -> bool:
    """Whether another unit also tried to move into ``dest`` (a standoff, not an attack held off)."""
    target = dest.partition("/")[0]
    for p in result.involved:
        other = by_province.get(p)
        destination = getattr(other.order, "destination", None) if other is not None else None
        if destination is not None and destination.partition("/")[0] == target:
            return True
    return False


#: Formal Diplomacy: the moves that could not dislodge a unit whatever their strength, and why
_SHIELDED = {
    "formal_allied": "allies never dislodge each other",
    "formal_neutral": "a move into a space holding a neutral's piece is void while the piece stays",
}


_NOT_CUT_BY = {
    "Formal Diplomacy: allied powers": "an ally does not cut support",
    "Formal Diplomacy: neutral powers": "a neutral cannot cut support: its move into the space is void",
}


def _hold_details(result: OrderResult, names: _Names, by_province: Mapping[str, OrderResult]) -> list[str]:
    if result.strength is None or not result.involved:
        return []
    order = result.order
    assert isinstance(order, UnitOrder)
    out = [_strength(names, f"{_cap(names.unit(order.province))} held", result.strength, result.supports)
           + "."]
    out.extend(_not_counted(names, result, by_province))
    for p in result.involved:
        attack = by_province.get(p)
        if attack is not None and attack.code in _SHIELDED:
            out.append(f"{_cap(names.unit(p))} moved against it, but {_SHIELDED[attack.code]} "
                       "(Formal Diplomacy).")
        elif attack is not None and attack.strength is not None:
            out.append(_strength(names, f"{_cap(names.unit(p))} attacked", attack.strength, attack.supports)
                       + ".")
    return out


def _support_details(result: OrderResult, names: _Names) -> list[str]:
    order = result.order
    if not isinstance(order, (SupportHold, SupportMove)):
        return []
    target = names.unit(order.target.partition("/")[0])
    if isinstance(order, SupportMove):
        what = f"{target}'s move to {names.space(order.destination)}"
    else:
        what = f"{target} holding"
    if result.outcome is Outcome.SUCCESS:
        if result.rule == "XII.5":
            return [(f"It counted for {what}. The convoyed army attacking it needs the very fleet this support "
                    "attacks, so the attack does not cut it.")]
        if result.rule == "X":
            return [(f"It counted for {what}. It was attacked only from the space it supports into, which does "
                    "not cut a support.")]
        if result.rule in _NOT_CUT_BY and len(result.involved) > 1:
            return [(f"It counted for {what}. {_cap(names.units(result.involved[1:]))} moved against it, but "
                     f"{_NOT_CUT_BY[result.rule]} (Formal Diplomacy).")]
        return [f"It counted for {what}."]
    if result.code == "cut":
        return [f"It adds nothing to {what}."]
    return []


def explain(result: OrderResult, state: GameState,
            results: Iterable[OrderResult] | Mapping[str, OrderResult] = ()) -> Explanation:
    """Explain ``result``, one of the results of adjudicating ``state`` (the position the orders were
    given in); ``results`` are the other results of that adjudication, which the explanation
    reads for the supports and opponents it names."""
    by_province = results if isinstance(results, Mapping) else results_by_province(results)
    names = _Names(state)
    details: list[str] = []
    order = result.order
    if result.outcome not in (Outcome.ILLEGAL, Outcome.VOID) and isinstance(order, UnitOrder):
        if result.code in ("moved", "bounced", "head_to_head", "own_unit", "no_convoy", "formal_allied"):
            details = _move_details(result, names, by_province)
        elif result.code in ("holds", "unordered", "dislodged"):
            details = _hold_details(result, names, by_province)
            if result.code == "dislodged" and result.strength is not None:
                details = [(f"{_cap(names.unit(result.dislodged_by or ''))} attacked with strength "
                           f"{result.strength} against {result.opposition}.")]
                details.extend(_not_counted(names, result, by_province))
        elif result.code in ("supported", "cut"):
            details = _support_details(result, names)
    if result.dislodged and result.code != "dislodged" and result.dislodged_by:
        details.append(f"The unit itself was dislodged by {names.unit(result.dislodged_by)}.")
    title, text = RULES.get(result.rule, ("", ""))
    reason = result.reason
    for prefix in ("illegal: ", "void: "):
        reason = reason.removeprefix(prefix)
    return Explanation(_VERDICTS[result.outcome], reason, tuple(details), result.rule, title, text)


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
