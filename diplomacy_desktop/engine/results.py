"""What happened to each order, and why, as data the GUI can draw and a person can read."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, NamedTuple

from .orders import Order

if TYPE_CHECKING:
    from .board import Board


class Outcome(str, Enum):
    SUCCESS = "success"
    FAILURE = "failure"
    ILLEGAL = "illegal"
    VOID = "void"


class ResultCode(StrEnum):
    """Why an order ended as it did: one value per kind of result, in every phase.

    A ``StrEnum``, so a code compares equal to its value (``r.code == "cut"``) and prints as it."""

    # movement: moves
    MOVED = "moved"
    BOUNCED = "bounced"  # stood off, or held off, at its destination
    HEAD_TO_HEAD = "head_to_head"  # failed against the unit coming the other way
    OWN_UNIT = "own_unit"  # its own power's unit stayed in the destination (IX.3)
    NO_CONVOY = "no_convoy"
    FORMAL_ALLIED = "formal_allied"
    FORMAL_NEUTRAL = "formal_neutral"
    FORMAL_WAR = "formal_war"
    # movement: units that stay
    HOLDS = "holds"
    UNORDERED = "unordered"  # no order (also: a dislodged unit given no retreat)
    DISLODGED = "dislodged"
    # movement: supports and convoys
    SUPPORTED = "supported"  # not cut; what it counted in is in the decision
    CUT = "cut"
    CONVOYED = "convoyed"
    CONVOY_UNUSED = "convoy_unused"  # not dislodged, but the army did not go by convoy
    DISRUPTED = "disrupted"
    PARADOX = "paradox"
    VOID = "void"
    # after the orders
    INTERNED = "interned"
    DISORDER_DISBANDED = "disorder_disbanded"
    CIVIL_DISORDER = "civil_disorder"
    # retreats
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    # adjustments
    BUILT = "built"
    WAIVED = "waived"
    REMOVED = "removed"
    DISORDER = "disorder"  # removed for a power in civil disorder (XIV.2)
    # orders not followed
    ILLEGAL = "illegal"
    UNREADABLE = "unreadable"
    CONFLICTING = "conflicting"
    DUPLICATE = "duplicate"
    TOO_MANY = "too_many"


class Say(StrEnum):
    """Which one-line reason a result gives: the adjudicators set one of these with the facts
    it names (a :class:`Why`); :mod:`engine.reasons` writes the words, one sentence per value."""

    # orders not followed
    ILLEGAL = "illegal"  # detail: the checker's statement of what is wrong
    ILLEGAL_HOLDS = "illegal_holds"  # ... and the unit holds
    ILLEGAL_STANDS = "illegal_stands"  # ... and the unit's legal order stands
    CONFLICTING = "conflicting"  # different orders for one unit: it holds (DATC 4.D.3)
    CONFLICTING_RETREAT = "conflicting_retreat"  # different retreats for one unit: disbanded
    NOT_FOLLOWED = "not_followed"  # a line that could not be read (detail: why)
    # movement: moves
    NO_FLEETS = "no_fleets"
    CONVOY_REFUSED = "convoy_refused"  # spaces: the fleets whose convoy order was illegal
    CONVOY_ELSEWHERE = "convoy_elsewhere"  # spaces: the fleets, then their destinations; last: the army's
    NO_CONVOY_PARADOX = "no_convoy_paradox"  # spaces: the fleets taken out by the Szykman rule
    NO_CONVOY_DISRUPTED = "no_convoy_disrupted"  # spaces: the dislodged fleets
    NO_CHAIN = "no_chain"
    OWN_UNIT_STAYED = "own_unit_stayed"  # units: the own unit that did not leave
    ALLY_STAYED = "ally_stayed"  # units: the ally's unit; powers: the mover's, the ally's
    NEUTRAL_STAYED = "neutral_stayed"  # units: the neutral's unit; powers: the mover's, the neutral's
    SWAPPED_BY_CONVOY = "swapped_by_convoy"  # spaces: destination; units: the other unit
    RING = "ring"  # spaces: destination
    DISLODGING = "dislodging"  # spaces: destination; units: the dislodged; numbers: attack, opposition
    MOVED_AGAINST = "moved_against"  # spaces: destination; numbers: attack, strongest opposition
    MOVED = "moved"  # spaces: destination
    RIVAL_STRONGER = "rival_stronger"  # units: the rival; spaces: destination; numbers: prevent, theirs
    RIVAL_STANDOFF = "rival_standoff"  # the same, equal: a standoff (VIII)
    LOST_HEAD_TO_HEAD = "lost_head_to_head"  # units: the other unit; numbers: attack, defend
    HEAD_TO_HEAD_STANDOFF = "head_to_head_standoff"
    FAILED_TO_LEAVE = "failed_to_leave"  # units: the unit that stayed; spaces: its space; numbers
    HELD_STRONGER = "held_stronger"  # units: the holder; numbers: attack, hold
    BOUNCED_OFF = "bounced_off"  # units: the holder; numbers: attack, hold (equal)
    BEATEN_BY_RIVAL = "beaten_by_rival"  # units: the rival; spaces: destination; numbers: attack, prevent
    STOOD_OFF = "stood_off"  # units: the rival; spaces: destination; numbers: attack, prevent (equal)
    # movement: supports
    SUPPORT_GIVEN = "support_given"
    SUPPORT_IDLE = "support_idle"  # not cut, counted in nothing
    SUPPORT_PREVENT_ONLY = "support_prevent_only"  # only in the prevent strength (IX.3)
    SUPPORT_SHUT_OUT = "support_shut_out"  # in nothing: it cannot help dislodge the unit there
    VOID_HOLD_SUPPORT = "void_hold_support"  # units: the supported unit, ordered to move
    #: units: the supported unit; spaces: where it was ordered; mode "failed": its move failed
    VOID_OTHER_MOVE = "void_other_move"
    VOID_NOT_MOVING = "void_not_moving"  # units: the supported unit, not ordered to move there
    CUT_DISLODGED = "cut_dislodged"  # units: the unit that dislodged the supporter
    CUT_BY = "cut_by"  # units: the attackers
    # movement: convoys
    CONVOY_OVERLAND = "convoy_overland"  # units: the army, which goes over land (no complete chain)
    CONVOY_UNWANTED = "convoy_unwanted"  # units: the army; a foreign convoy not asked for (XII.6)
    CONVOY_NOT_ORDERED = "convoy_not_ordered"  # units: the army, not ordered to move there
    CONVOY_PARADOX = "convoy_paradox"
    CONVOY_DISRUPTED = "convoy_disrupted"  # units: the dislodger (if any); spaces: another route's seas
    CONVOY_UNUSED = "convoy_unused"  # mode: why the army had no route; spaces: the fleets
    CONVOYS = "convoys"  # spaces: the destination, then the route; mode "failed": the army did not enter
    CONVOYS_ELSEWHERE = "convoys_elsewhere"  # spaces: the destination, then the route used
    # movement: units that stay
    DISLODGED_BY = "dislodged_by"  # units: the attacker; numbers: attack, hold
    HOLDS = "holds"
    NO_ORDER = "no_order"
    BELEAGUERED = "beleaguered"  # mode: "holds"/"no_order"; units: the attackers that stood each other off
    #: mode as BELEAGUERED; units: the attack stronger than its hold (numbers[0]: 1), then the better
    #: supported moves that stood it off but may not dislodge it (IX.3); numbers[1]: how many of those
    #: are its own power's (strength 0) rather than kept from it only by their supports' power
    GARRISON_SHIELDED = "garrison_shielded"
    INTERNED = "interned"  # Formal Diplomacy: units: the unit; powers: owner, unit's power; detail: territory
    # civil disorder
    DISORDER_IGNORED = "disorder_ignored"  # powers: the power; mode: the phase's kind
    DISORDER_DISBANDED = "disorder_disbanded"
    # retreats
    DISBANDED = "disbanded"
    NO_RETREAT = "no_retreat"  # a dislodged unit with nowhere to go
    RETREAT_REFUSED = "retreat_refused"  # its only retreat orders were illegal
    RETREAT_UNORDERED = "retreat_unordered"
    RETREAT_BOUNCED = "retreat_bounced"  # spaces: the provinces of the others retreating there
    RETREATED = "retreated"  # spaces: where to
    # adjustments
    NO_ADJUSTMENTS = "no_adjustments"  # powers: the power
    UNKNOWN_POWER = "unknown_power"  # detail: the power as written
    TOO_MANY_BUILDS = "too_many_builds"  # numbers: how many allowed
    TOO_MANY_REMOVALS = "too_many_removals"  # numbers: how many needed
    ALREADY_REMOVED = "already_removed"
    MUST_BUILD = "must_build"  # powers: the power, which builds this winter
    MUST_REMOVE = "must_remove"  # powers: the power, which removes units this winter
    BUILT = "built"  # units: the unit built
    WAIVED = "waived"
    REMOVED = "removed"
    #: units: the unit removed, then those kept; numbers: their distances; mode: "home"/"owned" centres
    DISORDER_REMOVED = "disorder_removed"


class Why(NamedTuple):
    """The facts a result's one-line reason states, as the adjudicator set them: no words.  The
    words are :func:`engine.reasons.reason`'s, read through :attr:`OrderResult.reason`."""

    say: Say
    board: Board | None = None  # whose names the words use
    units: tuple[tuple[str, str], ...] = ()  # (kind, location) of the units it names
    spaces: tuple[str, ...] = ()  # the locations it names
    numbers: tuple[int, ...] = ()  # the strengths (or counts) it compares
    powers: tuple[str, ...] = ()  # the powers it names (ids)
    mode: str = ""  # how a move went ("convoy", "overland"), or which variant of the reason
    detail: str = ""  # an illegal order: the order checker's own statement of what is wrong
    #: Formal Diplomacy: what happened to the unit after the phase's orders (interned)
    then: Why | None = None


class StrengthKind(StrEnum):
    """The four strengths of the DATC's section 5."""

    ATTACK = "attack"  # of a move, into its destination
    HOLD = "hold"  # of a space, against moves into it
    DEFEND = "defend"  # of a move, against the unit coming the other way (head-to-head)
    PREVENT = "prevent"  # of a move, against the other moves into the same space


class LeftOutWhy(StrEnum):
    """Why a support ordered for a unit is not part of one of its strengths."""

    CUT = "cut"  # the supporting unit was attacked from elsewhere (``by``: the attackers), rules X
    DISLODGED = "dislodged"  # the supporting unit was dislodged (``by``: the unit that did it), rules X
    OWN_UNIT = "own_unit"  # it would help dislodge a unit of its own power (``victim``), rules IX.3
    ALLIED_UNIT = "allied_unit"  # it would help dislodge its ally's unit (Formal Diplomacy)
    NOT_MATCHING = "not_matching"  # it supports a move the unit was not ordered to make, rules IX.1
    UNIT_MOVED = "unit_moved"  # it supports a hold, but the unit was ordered to move, rules IX.6
    UNIT_HELD = "unit_held"  # it supports a move, but the unit was not ordered to move, rules IX.1


class LeftOut(NamedTuple):
    """A support that was ordered for a unit but is not part of one of its strengths."""

    support: str  # the province of the supporting unit
    why: LeftOutWhy
    by: tuple[str, ...] = ()  # the units that cut it, or the one that dislodged it
    victim: str = ""  # OWN_UNIT / ALLIED_UNIT: the province of the unit it would help dislodge


class NotCutWhy(StrEnum):
    """Why a move into the space of a supporting unit did not cut its support: one value per
    rule that decides it (the explanation cites that rule)."""

    FROM_TARGET = "from_target"  # it came from the space the support is given into (rules X)
    OWN_POWER = "own_power"  # a power does not cut its own unit's support (the note to IX.6)
    NO_ROUTE = "no_route"  # a convoyed army that found no route attacks nothing (XII.3)
    CONVOY_ATTACKED = "convoy_attacked"  # XII.5: the support is into a sea holding this army's convoying fleet
    SZYKMAN = "szykman"  # the army's convoy is in a paradox and does not convoy (DATC 4.A.2)
    ALLIED = "allied"  # Formal Diplomacy: an ally does not cut support
    NEUTRAL = "neutral"  # Formal Diplomacy: a neutral's move into the space is void


class NotCut(NamedTuple):
    """A move into a supporting unit's space that did not cut its support, and why."""

    attacker: str  # the province the move came from
    why: NotCutWhy
    #: CONVOY_ATTACKED: the sea the support is given into, holding the army's convoying fleet;
    #: SZYKMAN / NO_ROUTE: the seas of the fleets ordered to convoy the army
    seas: tuple[str, ...] = ()


class RivalFate(NamedTuple):
    """Another move into the same space whose unit was dislodged on the move (rules IX.7): by
    whom, whether that unit came from the space both moved to, and whether the two met head to
    head (neither by convoy).  Only a unit dislodged head to head by a unit from the space both
    moved to stands nobody off there (IX.7, DATC 4.A.7); one dislodged otherwise still does."""

    rival: str
    dislodged_by: str
    from_destination: bool
    head_to_head: bool = True


class Strength(NamedTuple):
    """One strength of the DATC's section 5, as the adjudicator settled it.

    ``value`` is the DATC's number.  ``note`` says why it is what it is where that is not the
    unit plus its supports: ``"own_unit"`` / ``"allied"`` / ``"neutral"`` (an attack on a unit it
    may not dislodge: the DATC sets it to 0), ``"no_route"`` (a convoyed move without a route:
    0), ``"lost_head_to_head"`` (a prevent strength of 0: the move lost its head-to-head battle),
    ``"empty"`` (the hold strength of an empty space), ``"left"`` (the unit moved away: hold 0),
    ``"failed_to_leave"`` (the unit tried to move but could not: hold 1, no support)."""

    kind: StrengthKind
    unit: str  # province of the unit whose strength it is ("" for an empty space's hold)
    value: int
    counted: tuple[str, ...] = ()  # the provinces of the supports in it
    left_out: tuple[LeftOut, ...] = ()
    note: str = ""
    space: str = ""  # the space it is about: a move's destination, a hold's own space


class Decision(NamedTuple):
    """The comparison that decided a movement-phase result, in the DATC's terms.

    For a move: ``subject`` is its attack strength and ``opposing`` the hold (or, head to head,
    defend) strength of its destination and the prevent strengths of the other moves there.
    For a unit that stays: ``subject`` is its hold strength and ``opposing`` the attack
    strengths of the moves into its space.  For a support: ``counted_in`` are the supported
    unit's strengths it is part of that were compared with something, ``left_out_of`` those it
    is kept out of (rules IX.3).  For a convoyed move: ``route`` (the seas used) or
    ``no_route`` (why none) and, in ``fleets``, the fleets ordered to convoy it and those ordered
    to convoy it somewhere else."""

    subject: Strength | None = None
    opposing: tuple[Strength, ...] = ()
    counted_in: tuple[Strength, ...] = ()
    left_out_of: tuple[tuple[StrengthKind, LeftOut], ...] = ()
    route: tuple[str, ...] = ()
    no_route: str = ""  # "no_fleets", "refused", "other_destination", "no_chain", "dislodged", "paradox", "xii5"
    fleets: tuple[str, ...] = ()  # no_route: the fleets that were ordered to convoy this move
    other_fleets: tuple[str, ...] = ()  # fleets ordered to convoy this army somewhere else
    #: a move that others also made to the same space: its own prevent strength against them
    prevent: Strength | None = None
    circular: bool = False  # the move is part of a ring of moves (or a swap by convoy)
    swap_by_convoy: bool = False
    #: no_route "refused": the fleets ordered to convoy this very move whose order was illegal
    refused: tuple[str, ...] = ()
    #: a support that was attacked and not cut: each move against it and why it did not cut it
    not_cut: tuple[NotCut, ...] = ()
    #: no_route "xii5": the support the army attacked, given for the attack on its own convoying
    #: fleet (rules XII.5: that attack did not cut it)
    attacked_support: str = ""
    #: a move that failed into a space its own power's unit did not leave, where that unit stayed
    #: only because this move failed (a ring of moves): the move that broke the ring ("" if none)
    ring_broken_at: str = ""
    #: other moves into the same space whose units were dislodged on the move (rules IX.7)
    rival_fates: tuple[RivalFate, ...] = ()
    #: a move that another move to the same space beat or stood off, in the space its own unit
    #: did not leave: the deciding rival (the strength comparison decides, not IX.3)
    decided_by_rival: str = ""

    def strongest_opposition(self) -> int:
        return max((s.value for s in self.opposing), default=0)


class DecisionTable:
    """The decision records of one adjudication, each worked out when it is first read.

    Most results are never explained, and building every record at once would make an
    adjudication markedly slower; the adjudicator's decisions are final when this table is made,
    so a record read later is the one it would have built at once.  Every result of the
    adjudication shares the table and finds its own record by its unit's province.  Two tables
    compare equal when all their records do."""

    __slots__ = ("_build", "_cache", "_provinces")

    def __init__(self, build: Callable[[str], Decision | None], provinces: tuple[str, ...]) -> None:
        self._build = build
        self._cache: dict[str, Decision | None] = {}
        self._provinces = provinces

    def of(self, province: str) -> Decision | None:
        cache = self._cache
        if province not in cache:
            cache[province] = self._build(province) if province in self._provinces else None
        return cache[province]

    def everything(self) -> tuple[Decision | None, ...]:
        return tuple(self.of(p) for p in self._provinces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DecisionTable) and self.everything() == other.everything()

    def __hash__(self) -> int:
        return hash(self.everything())

    def __repr__(self) -> str:
        return f"DecisionTable({len(self._provinces)} units)"


class OrderResult(NamedTuple):
    """The result of one order.

    ``code`` names the reason (``bounced``, ``cut``, ``no_convoy`` ...), ``why`` holds the facts of
    its one-line reason and ``reason`` says them in words (:mod:`engine.reasons`), ``involved`` lists the provinces whose units caused it, ``strength`` and
    ``opposition`` are the strengths compared where strengths decided it; ``route`` is the
    chain of seas a convoyed army went through.

    ``rule`` is the section of the rules that decides the result, in the numbering of the
    rulebook this project follows (``"IX.5"`` beleaguered garrison, ``"X"`` cutting support,
    ``"XII.3"`` disrupted convoy ...), or the DATC section where the rulebook is silent
    (``"DATC 4.A.2"``, the Szykman rule for convoy paradoxes).  ``supports`` lists the provinces
    of the supports that counted for the order's strength (a move's attack, a unit's hold);
    ``not_counted`` the supports ordered for it that did not count, each with why: ``"cut"``
    (the supporting unit's own result says by whom) or ``"own_unit"`` (a power's support does
    not count against its own unit, rules IX.3).

    An immutable record like the engine's other values; a named tuple rather than a frozen
    dataclass because an adjudication makes one per order, and a tuple is made several times
    faster.
    """

    order: Order
    outcome: Outcome
    code: ResultCode
    #: the facts the one-line reason states (``reason`` writes them in words)
    why: Why
    involved: tuple[str, ...] = ()
    strength: int | None = None
    opposition: int | None = None
    dislodged: bool = False
    dislodged_by: str | None = None
    rule: str = ""
    supports: tuple[str, ...] = ()
    not_counted: tuple[tuple[str, str], ...] = ()
    #: for an army that moved by convoy: the seas of the fleets that carried it, in order
    route: tuple[str, ...] = ()
    #: movement phase: the comparison that decided it (strengths, supports counted and left
    #: out, convoy route), maybe still to be worked out: read it as :attr:`decision`
    record: Decision | DecisionTable | None = None

    @property
    def reason(self) -> str:
        """The result in one line of words, written from :attr:`why` by :mod:`engine.reasons`."""
        return (_WORDS or _words())(self.why)

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    @property
    def decision(self) -> Decision | None:
        """The comparison that decided it; the explanation is read from it."""
        record = self.record
        if isinstance(record, DecisionTable):
            province = getattr(self.order, "province", None)
            return record.of(province) if province is not None else None
        return record


#: engine.reasons.words, once it is first needed (the words need this module's types)
_WORDS: Callable[[Why], str] | None = None


def _words() -> Callable[[Why], str]:
    global _WORDS
    from .reasons import words

    _WORDS = words
    return words


def with_repeats(results: list[OrderResult], repeats: dict[Order, list[Order]]) -> list[OrderResult]:
    """``results`` with a row for every order written again for a unit (the same order, maybe
    written another way): each copy gets the result of the order it repeats, right after it."""
    if not repeats:
        return results
    out: list[OrderResult] = []
    for r in results:
        out.append(r)
        for copy in repeats.pop(r.order, ()):
            out.append(r._replace(order=copy))
    return out
