"""Every result's one-line reason, in words: the one place that writes them.

The adjudicators (movement, retreats, adjustments, civil disorder) set a code and the facts it
names (:class:`Why`: the units, spaces, strengths and powers); :data:`REASONS` holds one writer
per code.  The full explanation, with the rule that decides each result, is
:mod:`engine.explain`'s, read from the same facts and the decision records.
"""

from __future__ import annotations

from collections.abc import Callable

from .boardindex import BoardIndex, board_index
from .results import OrderResult, Say, Why


class _Words:
    """The names a reason prints, read from the board the facts were set on."""

    __slots__ = ("index", "why")

    def __init__(self, why: Why) -> None:
        self.why = why
        self.index: BoardIndex | None = board_index(why.board) if why.board is not None else None

    def space(self, loc: str) -> str:
        return self.index.space_name(loc) if self.index is not None else loc

    def unit(self, n: int = 0) -> str:
        """``the army in Vienna``: the ``n``-th unit the facts name."""
        kind, loc = self.why.units[n]
        return f"the {self.index.describe(kind, loc)}" if self.index is not None else f"the {kind} {loc}"

    def describe(self, unit: tuple[str, str]) -> str:
        """``army in Vienna``."""
        kind, loc = unit
        return self.index.describe(kind, loc) if self.index is not None else f"{kind} {loc}"

    def province_name(self, loc: str) -> str:
        board = self.why.board
        prov = loc.partition("/")[0]
        return board.spaces[prov].name if board is not None and prov in board.spaces else prov

    def units(self) -> str:
        return _and([self.unit(n) for n in range(len(self.why.units))])

    def power(self, n: int = 0) -> str:
        pid = self.why.powers[n]
        board = self.why.board
        return board.power(pid).name if board is not None and pid in board.power_ids else pid

    def fleets(self) -> str:
        """``the fleet in the North Sea and the fleet in ...``: the fleets in the facts' spaces."""
        return " and ".join(f"the fleet in {self.space(p)}" for p in self.why.spaces)

    def how(self) -> str:
        return _HOW.get(self.why.mode, "")

    def versus(self) -> str:
        a, opp = self.why.numbers[:2]
        return f"strength {a} against {opp}"


#: how a move went, said right after where: "moves to Belgium by convoy"
_HOW = {"convoy": " by convoy",
        "overland": (" over land: it was ordered \"via convoy\", but no complete convoy was ordered, and under the "
                     "classic rules it then takes the land route")}


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _convoy_elsewhere(w: _Words) -> str:
    spaces = w.why.spaces  # the fleets, then where each was ordered to convoy it, then the army's destination
    half = (len(spaces) - 1) // 2
    fleets = " and ".join(f"the fleet in {w.space(p)}" for p in spaces[:half])
    there = ", ".join(sorted({w.space(p) for p in spaces[half:-1]}))
    return (f"{fleets} was ordered to convoy this army to {there}, not to {w.space(spaces[-1])}; a convoy must "
            "name the army's own destination, so the army stays")


def _unused_because(w: _Words) -> str:
    mode = w.why.mode
    if mode in ("dislodged", "xii5"):
        because = f"{w.fleets()} was dislodged"
    elif mode == "paradox":
        because = f"by the Szykman rule {w.fleets()} does not convoy"
    else:
        because = "the convoying fleets do not form a chain of seas to its destination"
    return f"not dislodged, but the army did not go by convoy: {because}"


def _convoy_disrupted(w: _Words) -> str:
    text = f"disrupted: the fleet was dislodged by {w.unit()}" if w.why.units else "disrupted"
    if w.why.spaces:
        text += f"; the army still had a route through {', '.join(w.space(p) for p in w.why.spaces)}"
    return text


def _convoys(w: _Words) -> str:
    dest, *route = w.why.spaces
    text = f"convoys: the army's route to {w.space(dest)} runs through {', '.join(w.space(p) for p in route)}"
    if w.why.mode == "failed":
        text += f", though the army did not get into {w.space(dest)}"
    return text


def _convoys_elsewhere(w: _Words) -> str:
    dest, *route = w.why.spaces
    return f"convoys, but the army's route to {w.space(dest)} ran through {', '.join(w.space(p) for p in route)} instead"


def _beleaguered(w: _Words) -> str:
    head = "holds" if w.why.mode == "holds" else "no order: holds"
    names = " and ".join(w.unit(n) for n in range(len(w.why.units)))
    return f"{head}; the attacks of {names} stood each other off, so it is not dislodged"


def _garrison_shielded(w: _Words) -> str:
    head = "holds" if w.why.mode == "holds" else "no order: holds"
    n = w.why.numbers[0]
    strong = _and([w.unit(k) for k in range(n)])
    blockers = _and([w.unit(k) for k in range(n, len(w.why.units))])
    if n == 1:
        told = f"the attack of {strong}, stronger than its hold, was"
    else:
        told = f"the attacks of {strong}, stronger than its hold, were"
    may_not = "which may not dislodge it" if w.why.numbers[1] else "whose supports may not help dislodge it"
    return f"{head}; {told} stood off by {blockers}, {may_not}, so it is not dislodged"


def _cut_by(w: _Words) -> str:
    each = [w.unit(n) for n in range(len(w.why.units))]
    if len(each) > 1:
        return f"cut by the attacks of {', '.join(each[:-1])} and {each[-1]}"
    return f"cut by the attack of {each[0]}" if each else "cut by an attack"


def _retreat_bounced(w: _Words) -> str:
    rivals = w.why.spaces
    names = ", ".join(w.space(p) for p in rivals)
    everyone = "both are" if len(rivals) == 1 else "all are"
    return f"bounced with the unit retreating from {names}; {everyone} disbanded"


def _built(w: _Words) -> str:
    kind, loc = w.why.units[0]
    what = w.index.describe(kind, loc) if w.index is not None else f"{kind} {loc}"
    return f"builds {'a' if what.startswith('fleet') else 'an'} {what}"


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


def _disorder_removed(w: _Words) -> str:
    """Why the civil-disorder rule (XIV.2) chose the unit: its distance (from the nearest home
    centre, or under the 2023 rules the nearest owned one), and the tie-break that put it before
    the units kept (fleets before armies, then alphabetical order)."""
    (kind, loc), *kept = w.why.units
    d, *far = w.why.numbers
    text = f"removed by the civil-disorder rule: {_moves(d)} from the nearest {w.why.mode} centre"
    if not kept:
        return text
    same = [k for k, n in zip(kept, far, strict=True) if n == d]
    if not same:
        nearer = "; ".join(f"the {w.describe(k)}: {_moves(n)}" for k, n in zip(kept, far, strict=True))
        return f"{text}, farther than every unit kept ({nearer})"
    armies = [k for k in same if k[0] != kind]
    if kind == "F" and armies:
        text += f"; as far as {_and([f'the {w.describe(k)}' for k in armies])}, but at the same distance a fleet " \
                "is removed before an army"
    same_kind = [k for k in same if k[0] == kind]
    if same_kind:
        text += (f"; as far as {_and([f'the {w.describe(k)}' for k in same_kind])} "
                 f"({'a fleet' if kind == 'F' else 'an army'} too), but {w.province_name(loc)} comes first in "
                 "alphabetical order")
    return text


def _interned(w: _Words) -> str:
    return (f"interned by {w.power(0)} and disbanded, since it ended the movement phase in "
            f"{w.space(w.why.units[0][1])}, {w.why.detail}, and {w.power(0)} is neutral towards {w.power(1)}")


#: what civil disorder does in each kind of phase (rules XIV.1)
_IGNORED = {
    "movement": "its units hold and do not support each other",
    "retreat": "its dislodged units are disbanded",
    "adjustment": "it builds nothing, and its removals follow the civil-disorder rule",
}

#: one writer per code: the words of a result's reason from its facts
REASONS: dict[Say, Callable[[_Words], str]] = {
    Say.ILLEGAL: lambda w: f"illegal: {w.why.detail}",
    Say.ILLEGAL_HOLDS: lambda w: f"illegal: {w.why.detail}; the unit holds",
    Say.ILLEGAL_STANDS: lambda w: f"illegal: {w.why.detail}; its legal order stands",
    Say.CONFLICTING: lambda w: "illegal: the unit was given different orders, so it holds (DATC 4.D.3)",
    Say.CONFLICTING_RETREAT: lambda w: "illegal: the unit was given different orders, so it is disbanded",
    Say.NOT_FOLLOWED: lambda w: f"not followed: {w.why.detail}",
    Say.NO_FLEETS: lambda w: "no fleet was ordered to convoy this army, so it stays",
    Say.CONVOY_REFUSED: lambda w: (f"{w.fleets()} was ordered to convoy this army, but that order is illegal and "
                                   "not followed, so no fleet convoys it and it stays"),
    Say.CONVOY_ELSEWHERE: _convoy_elsewhere,
    Say.NO_CONVOY_PARADOX: lambda w: f"convoy paradox: by the Szykman rule {w.fleets()} does not convoy, so the "
                                     "army stays",
    Say.NO_CONVOY_DISRUPTED: lambda w: f"convoy disrupted: {w.fleets()} was dislodged, so the army stays",
    Say.NO_CHAIN: lambda w: "the convoying fleets do not form a chain of seas to the destination, so the army stays",
    Say.OWN_UNIT_STAYED: lambda w: f"cannot dislodge its own {w.unit()[4:]}, which did not leave",
    Say.ALLY_STAYED: lambda w: (f"cannot dislodge {w.unit()}, which belongs to {w.power(0)}'s ally {w.power(1)} and "
                                "did not leave"),
    Say.NEUTRAL_STAYED: lambda w: (f"void: treated as a hold, since {w.unit()} belongs to {w.power(1)}, which is "
                                   f"neutral towards {w.power(0)}, and did not leave; a power cannot move into a "
                                   "space holding a neutral's piece"),
    Say.SWAPPED_BY_CONVOY: lambda w: (
        f"moves to {w.space(w.why.spaces[0])} by convoy, exchanging places with {w.unit()}"
        if w.why.mode == "convoy" else
        f"moves to {w.space(w.why.spaces[0])}, exchanging places with {w.unit()}, which went by convoy"),
    Say.RING: lambda w: f"moves to {w.space(w.why.spaces[0])}{w.how()} (circular movement: all units in the ring move)",
    Say.DISLODGING: lambda w: f"moves to {w.space(w.why.spaces[0])}{w.how()}, dislodging {w.unit()} ({w.versus()})",
    Say.MOVED_AGAINST: lambda w: f"moves to {w.space(w.why.spaces[0])}{w.how()} ({w.versus()})",
    Say.MOVED: lambda w: f"moves to {w.space(w.why.spaces[0])}{w.how()}",
    Say.RIVAL_STRONGER: lambda w: (f"bounced: {w.unit()}, also moving to {w.space(w.why.spaces[0])}, was stronger "
                                   f"(its prevent strength {w.why.numbers[0]} against {w.why.numbers[1]})"),
    Say.RIVAL_STANDOFF: lambda w: (f"stood off with {w.unit()}, also moving to {w.space(w.why.spaces[0])} (its "
                                   f"prevent strength {w.why.numbers[0]} against {w.why.numbers[1]})"),
    Say.LOST_HEAD_TO_HEAD: lambda w: f"lost the head-to-head battle with {w.unit()} ({w.versus()})",
    Say.HEAD_TO_HEAD_STANDOFF: lambda w: f"stood off with {w.unit()}, coming the other way ({w.versus()})",
    Say.FAILED_TO_LEAVE: lambda w: f"bounced: {w.unit()} failed to leave {w.space(w.why.spaces[0])} ({w.versus()})",
    Say.HELD_STRONGER: lambda w: f"bounced off {w.unit()}, which held more strongly ({w.versus()})",
    Say.BOUNCED_OFF: lambda w: f"bounced off {w.unit() if w.why.units else ''} ({w.versus()})",
    Say.BEATEN_BY_RIVAL: lambda w: (f"bounced: {w.unit()}, also moving to {w.space(w.why.spaces[0])}, was stronger "
                                    f"({w.versus()})"),
    Say.STOOD_OFF: lambda w: f"stood off with {w.unit()}, also moving to {w.space(w.why.spaces[0])} ({w.versus()})",
    Say.SUPPORT_GIVEN: lambda w: "support given",
    Say.SUPPORT_IDLE: lambda w: "not cut, but it counts for nothing",
    Say.SUPPORT_PREVENT_ONLY: lambda w: ("support given, but only for standing off other moves: it cannot help "
                                         "dislodge the unit there"),
    Say.SUPPORT_SHUT_OUT: lambda w: "not cut, but it counts for nothing: it cannot help dislodge the unit there",
    Say.VOID_HOLD_SUPPORT: lambda w: f"void: {w.unit()} was ordered to move, so it cannot be supported to hold",
    Say.VOID_OTHER_MOVE: lambda w: (f"void: {w.unit()} {'was ordered to move' if w.why.mode else 'moved'} to "
                                    f"{w.space(w.why.spaces[0])}, not as supported"),
    Say.VOID_NOT_MOVING: lambda w: f"void: {w.unit()} did not move there",
    Say.CUT_DISLODGED: lambda w: f"cut: the supporting unit was dislodged by {w.unit()}",
    Say.CUT_BY: _cut_by,
    Say.CONVOY_OVERLAND: lambda w: (f"void: {w.unit()} moves over land: it was not ordered \"via convoy\", and no "
                                    "complete chain of fleets was ordered to convoy it"),
    Say.CONVOY_UNWANTED: lambda w: (f"void: {w.unit()} moves over land: it was not ordered \"via convoy\", and no "
                                    "fleet of its own power was ordered to convoy it, so another power's convoy is "
                                    "not used"),
    Say.CONVOY_NOT_ORDERED: lambda w: f"void: {w.unit()} was not ordered to move there",
    Say.CONVOY_PARADOX: lambda w: "convoy paradox: by the Szykman rule this fleet does not convoy",
    Say.CONVOY_DISRUPTED: _convoy_disrupted,
    Say.CONVOY_UNUSED: _unused_because,
    Say.CONVOYS: _convoys,
    Say.CONVOYS_ELSEWHERE: _convoys_elsewhere,
    Say.DISLODGED_BY: lambda w: f"dislodged by {w.unit()} ({w.versus()})",
    Say.HOLDS: lambda w: "holds",
    Say.NO_ORDER: lambda w: "no order: holds",
    Say.BELEAGUERED: _beleaguered,
    Say.GARRISON_SHIELDED: _garrison_shielded,
    Say.INTERNED: _interned,
    Say.DISORDER_IGNORED: lambda w: f"ignored: {w.power()} is in civil disorder, so {_IGNORED[w.why.mode]}",
    Say.DISORDER_DISBANDED: lambda w: "disbanded without a retreat: its power is in civil disorder",
    Say.DISBANDED: lambda w: "disbanded",
    Say.NO_RETREAT: lambda w: "no retreat is possible: disbanded",
    Say.RETREAT_REFUSED: lambda w: "its retreat order was illegal: disbanded",
    Say.RETREAT_UNORDERED: lambda w: "no order: disbanded",
    Say.RETREAT_BOUNCED: _retreat_bounced,
    Say.RETREATED: lambda w: f"retreats to {w.space(w.why.spaces[0])}",
    Say.NO_ADJUSTMENTS: lambda w: f"illegal: {w.power()} has no adjustments to make",
    Say.UNKNOWN_POWER: lambda w: f"illegal: unknown power {w.why.detail!r}",
    Say.TOO_MANY_BUILDS: lambda w: f"illegal: only {w.why.numbers[0]} build(s) allowed; extra order ignored",
    Say.TOO_MANY_REMOVALS: lambda w: f"illegal: only {w.why.numbers[0]} removal(s) needed; extra order ignored",
    Say.ALREADY_REMOVED: lambda w: "illegal: that unit is already removed",
    Say.MUST_BUILD: lambda w: f"illegal: {w.power()} must build, not remove",
    Say.MUST_REMOVE: lambda w: f"illegal: {w.power()} must remove units, not build",
    Say.BUILT: _built,
    Say.WAIVED: lambda w: "build waived",
    Say.REMOVED: lambda w: "removed",
    Say.DISORDER_REMOVED: _disorder_removed,
}

#: the words a reason opens with that the explanation's verdict already says ("is void")
_VERDICT_WORDS = ("illegal: ", "void: ")


def words(why: Why) -> str:
    """The reason ``why`` states, in words (with what happened afterwards, if anything did)."""
    text = REASONS[why.say](_Words(why))
    if why.then is not None:  # Formal Diplomacy: "...; at the end of the phase it is interned by ..."
        text = f"{text}; at the end of the phase it is {words(why.then)}"
    return text


def reason(result: OrderResult) -> str:
    """``result``'s reason in one line: what :attr:`OrderResult.reason` reads."""
    return words(result.why)


def reason_without_verdict(result: OrderResult) -> str:
    """The reason without the words the verdict says ("illegal: ", "void: "): the explanation's."""
    text = words(result.why)
    for prefix in _VERDICT_WORDS:
        text = text.removeprefix(prefix)
    return text
