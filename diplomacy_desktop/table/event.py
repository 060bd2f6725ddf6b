"""An event's rules for a board: the clock structure, when the game ends, late orders, and the
draw/concession ballot.

Clock presets are named for the structure they time (the lengths in minutes become the clock's
``ClockSettings`` through :meth:`ClockPreset.clock_settings`, a plain dict, so this layer needs no
Qt).  A game end after a given year is the rulebook's short game (rules XIV.4); a game end at a
given time of day is the event's time limit: when the time is reached the game year under way is
the last (the game ends after its Fall turn, when centres are counted), and the clock announces
both.

Ballots follow the event's settings: whether a draw must include every survivor, the earliest year
a draw may be proposed, whether a ballot must be unanimous, whether the number of votes against is
announced, and whether a concession to the leader may be proposed (with a minimum centre count and
"must be the largest").  A ballot is secret: :class:`Ballot` holds the votes only until it is
counted, and its record (:class:`~.results.BallotRecord`) keeps who proposed what and the outcome,
never who voted what.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..engine.state import GameState
from .parts import fits_json
from .results import BallotRecord

# -- clock presets --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockPreset:
    """A clock structure.  Minutes per period; ``adjudicate_on_next_clock``: the next period's
    clock starts the moment orders are in, so reading and adjudicating the orders and moving the
    pieces are done on it."""

    key: str
    name: str
    description: str
    spring_minutes: float
    fall_minutes: float
    writing_minutes: float
    retreat_minutes: float = 5.0
    adjustment_minutes: float = 5.0
    adjudicate_on_next_clock: bool = False

    def clock_settings(self) -> dict[str, float]:
        """The keys of the clock's ``ClockSettings``."""
        return {"spring_minutes": self.spring_minutes, "fall_minutes": self.fall_minutes,
                "writing_minutes": self.writing_minutes, "retreat_minutes": self.retreat_minutes,
                "adjustment_minutes": self.adjustment_minutes, "wilson_rounds": 0}

    def summary(self) -> str:
        if self.writing_minutes:
            talks = (f"{self.spring_minutes:g} minutes of talks" if self.spring_minutes == self.fall_minutes
                     else f"talks {self.spring_minutes:g} minutes in Spring, {self.fall_minutes:g} in Fall")
            text = f"{talks}, then {self.writing_minutes:g} to write orders"
        elif self.spring_minutes == self.fall_minutes:
            text = f"one {self.spring_minutes:g}-minute period, orders written within it"
        else:
            text = (f"{self.spring_minutes:g} minutes in Spring, {self.fall_minutes:g} in Fall, "
                    "writing orders included")
        if self.adjudicate_on_next_clock:
            text += "; adjudication on the next period's clock"
        if self.retreat_minutes or self.adjustment_minutes:
            text += f"; retreats and builds {self.retreat_minutes:g} minutes"
        return text


PRESETS: tuple[ClockPreset, ...] = (
    ClockPreset("talks15_write5", "15 + 5", "15 minutes of talks, then 5 minutes to write orders "
                "(seed 002 suggests 15 minutes of talks)", 15, 15, 5),
    ClockPreset("talks15_write2_next", "15 + 2, adjudication on the next clock",
                "15 minutes of talks, 2 to write orders; orders are read and the pieces moved on the next "
                "period's clock", 15, 15, 2, adjudicate_on_next_clock=True),
    ClockPreset("central18", "One 18-minute period", "one central 18-minute period for talks and orders", 18, 18, 0),
    ClockPreset("spring17_fall15", "17 Spring / 15 Fall, all included",
                "17 minutes in Spring and 15 in Fall, writing orders included", 17, 15, 0),
)
PRESETS_BY_KEY: Mapping[str, ClockPreset] = {p.key: p for p in PRESETS}
CUSTOM = "custom"


def custom_preset(spring: float, fall: float, writing: float, retreats: float = 5.0, builds: float = 5.0, *,
                  adjudicate_on_next_clock: bool = False) -> ClockPreset:
    """The custom editor's clock.  ``ValueError`` on a length that is not 0-240 minutes, or
    when a movement turn would have no timed period at all."""
    for name, v in (("spring", spring), ("fall", fall), ("writing", writing), ("retreats", retreats),
                    ("builds", builds)):
        if not isinstance(v, (int, float)) or math.isnan(v) or not 0 <= v <= 240:
            raise ValueError(f"{name}: a period lasts 0 to 240 minutes, not {v!r}")
    if spring + writing <= 0 or fall + writing <= 0:
        raise ValueError("a movement turn needs a timed period (talks or writing)")
    return ClockPreset(CUSTOM, "Custom", "the event's own clock", spring, fall, writing, retreats, builds,
                       adjudicate_on_next_clock)


# -- the event's rules -----------------------------------------------------------------------------------

LATE_WARN = "warn"  # a warning only: late orders are still taken
LATE_VOID = "void"  # after the warning the power's orders are void and its units hold
LATE_POLICIES = (LATE_WARN, LATE_VOID)


#: each of the rules' simple values and the JSON type it must have (``EventRules.__post_init__``)
_FIELD_KINDS: dict[str, type] = {
    "preset": str, "end_year": int, "end_time": str, "end_time_set_at": str, "late_orders": str,
    "late_grace_seconds": int, "draw_includes_all_survivors": bool, "earliest_draw_year": int, "unanimous": bool,
    "reveal_vetoes": bool, "concession_allowed": bool, "concession_min_centres": int,
    "concession_must_be_largest": bool, "scoring": str, "tie_break": str, "concession_scored_as": str,
}
_OPTIONAL = frozenset({"end_year", "earliest_draw_year"})


@dataclass(frozen=True, slots=True)
class EventRules:
    """One board's event rules (saved with the game's table)."""

    preset: str = "talks15_write5"
    custom: Mapping[str, float] = field(default_factory=dict)
    #: the game ends after this year's Fall turn (rules XIV.4); None: no turn limit
    end_year: int | None = None
    #: at this time of day ("HH:MM") the game year under way becomes the last (the game ends after
    #: its Fall turn); "": no time limit
    end_time: str = ""
    #: when the time limit was set ("YYYY-MM-DDTHH:MM", local time): the limit is the first
    #: ``end_time`` after it, so an evening round's "01:00" is after midnight, not already past
    end_time_set_at: str = ""
    late_orders: str = LATE_WARN
    #: seconds of grace after the writing period ends before late orders are void
    late_grace_seconds: int = 60
    # ballots
    draw_includes_all_survivors: bool = True
    earliest_draw_year: int | None = None
    unanimous: bool = True
    reveal_vetoes: bool = False
    concession_allowed: bool = False
    concession_min_centres: int = 0
    concession_must_be_largest: bool = True
    # scoring: the event's system (``scoring.BY_KEY``), its tie-break (``results.TIE_BREAKS``), and
    # how a concession is scored (``scoring.CONCESSION_SCORING``)
    scoring: str = "sum_of_squares"
    tie_break: str = "centres"
    concession_scored_as: str = "solo"

    def __post_init__(self) -> None:
        from .results import TIE_BREAKS
        from .scoring import BY_KEY, CONCESSION_SCORING
        for name, kind in _FIELD_KINDS.items():  # (a hand-edited save's value of another type)
            value = getattr(self, name)
            if not (value is None and name in _OPTIONAL) and not fits_json(value, kind):
                raise ValueError(f"the event's {name.replace('_', ' ')} cannot be {value!r}")
        if self.scoring not in BY_KEY:
            raise ValueError(f"no scoring system {self.scoring!r}")
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"no tie-break {self.tie_break!r}")
        if self.concession_scored_as not in CONCESSION_SCORING:
            raise ValueError(f"a concession is not scored {self.concession_scored_as!r}")
        if self.preset != CUSTOM and self.preset not in PRESETS_BY_KEY:
            raise ValueError(f"no clock preset {self.preset!r}")
        if self.late_orders not in LATE_POLICIES:
            raise ValueError(f"late orders are handled by {' or '.join(LATE_POLICIES)}, not {self.late_orders!r}")
        if self.end_time:
            parse_time(self.end_time)
        if not 0 <= self.concession_min_centres <= 34:
            raise ValueError("a concession's minimum centre count is 0 to 34")
        if not 0 <= self.late_grace_seconds <= 3600:
            raise ValueError("late orders' grace is 0 to 3600 seconds")

    @property
    def clock(self) -> ClockPreset:
        if self.preset == CUSTOM:
            c = self.custom
            return custom_preset(c.get("spring_minutes", 15), c.get("fall_minutes", 15), c.get("writing_minutes", 5),
                                 c.get("retreat_minutes", 5), c.get("adjustment_minutes", 5),
                                 adjudicate_on_next_clock=bool(c.get("adjudicate_on_next_clock", False)))
        return PRESETS_BY_KEY[self.preset]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["custom"] = dict(self.custom)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventRules:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    # -- the end of the game ---------------------------------------------------------------------

    def end_announcement(self) -> str:
        """What the clock says about the game's end ("" when the event sets none)."""
        parts = []
        if self.end_year is not None:
            parts.append(f"the game ends after Fall {self.end_year}")
        if self.end_time:
            parts.append(f"at {self.end_time} the game year under way is the last")
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]

    def deadline(self) -> dt.datetime | None:
        """The moment the time limit falls: the first ``end_time`` after the moment it was set
        (None without a time limit, or without the moment it was set)."""
        if not self.end_time or not self.end_time_set_at:
            return None
        try:
            since = dt.datetime.fromisoformat(self.end_time_set_at)
        except ValueError:
            return None
        at = dt.datetime.combine(since.date(), parse_time(self.end_time))
        return at if at > since else at + dt.timedelta(days=1)

    def time_limit_reached(self, now: dt.datetime | dt.time) -> bool:
        """The time limit has fallen at ``now`` (a time of day alone: that day's ``end_time``)."""
        if not self.end_time:
            return False
        deadline = self.deadline()
        if isinstance(now, dt.datetime):
            if deadline is not None:
                return now >= deadline
            now = now.time()
        return now >= parse_time(self.end_time)

    def with_time_set_at(self, now: dt.datetime, before: EventRules | None = None) -> EventRules:
        """These rules with the moment their time limit was set: ``now`` for a new or changed limit,
        the moment kept for the same one."""
        if not self.end_time:
            return replace(self, end_time_set_at="")
        if before is not None and before.end_time == self.end_time and before.end_time_set_at:
            return replace(self, end_time_set_at=before.end_time_set_at)
        if self.end_time_set_at and before is None:
            return self
        return replace(self, end_time_set_at=now.isoformat(timespec="minutes"))


def parse_time(text: str) -> dt.time:
    try:
        hours, minutes = text.strip().split(":")
        return dt.time(int(hours), int(minutes))
    except (ValueError, TypeError, AttributeError):  # (AttributeError: not text, a damaged save's)
        raise ValueError(f"a time of day is written HH:MM, not {text!r}") from None


# -- ballots ---------------------------------------------------------------------------------------------

DRAW_PROPOSAL = "draw"
CONCESSION_PROPOSAL = "concession"


class BallotError(ValueError):
    """A ballot the event's rules do not allow, or a vote that cannot be taken."""


def _names(state: GameState, powers: Sequence[str]) -> str:
    return ", ".join(state.board.power(p).name for p in powers)


def check_proposal(rules: EventRules, state: GameState, proposer: str, proposal: str,
                   powers: Sequence[str]) -> tuple[str, ...]:
    """The powers of a proposal the rules allow; raises :class:`BallotError` saying why not."""
    survivors = state.surviving_powers()
    if proposer not in survivors:
        raise BallotError(f"{proposer} has no pieces left and cannot propose")
    if proposal == DRAW_PROPOSAL:
        if rules.earliest_draw_year is not None and state.phase.year < rules.earliest_draw_year:
            raise BallotError(f"a draw may be proposed from {rules.earliest_draw_year} (the event's rule)")
        chosen = tuple(p for p in state.board.power_ids if p in (powers or survivors))
        gone = [p for p in chosen if p not in survivors]
        if gone:
            raise BallotError(f"{_names(state, gone)} has no pieces left and cannot share a draw (rules II)")
        if rules.draw_includes_all_survivors and set(chosen) != set(survivors):
            missing = [p for p in survivors if p not in chosen]
            raise BallotError(f"a draw must include every survivor (the event's rule): {_names(state, missing)} "
                              "left out")
        if len(chosen) < 2:
            raise BallotError("a draw is shared by two or more powers")
        return chosen
    if proposal == CONCESSION_PROPOSAL:
        if not rules.concession_allowed:
            raise BallotError("this event does not allow concessions")
        if len(powers) != 1 or powers[0] not in survivors:
            raise BallotError("a concession goes to one surviving power")
        leader = powers[0]
        counts = state.centre_counts()
        if counts.get(leader, 0) < rules.concession_min_centres:
            raise BallotError(f"a concession goes to a power with at least {rules.concession_min_centres} centres "
                              f"({state.board.power(leader).name} has {counts.get(leader, 0)})")
        if rules.concession_must_be_largest and any(c >= counts.get(leader, 0) for p, c in counts.items()
                                                     if p != leader):
            raise BallotError(f"a concession goes only to the largest power, alone "
                              f"({state.board.power(leader).name} has {counts.get(leader, 0)} centres)")
        return (leader,)
    raise BallotError(f"a ballot proposes a draw or a concession, not {proposal!r}")


@dataclass(slots=True)
class Ballot:
    """One secret ballot under way.  Voters are the surviving powers (a player of several powers
    votes for each); the votes are kept only until :meth:`count`."""

    phase: str
    proposer: str
    proposal: str
    powers: tuple[str, ...]
    voters: tuple[str, ...]
    unanimous: bool = True
    reveal_vetoes: bool = False
    _votes: dict[str, bool] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, rules: EventRules, state: GameState, proposer: str, proposal: str,
             powers: Sequence[str] = (), *, voters: Sequence[str] | None = None) -> Ballot:
        """``voters``: who votes (default: every surviving power); a table passes one power per
        player (a player of several powers votes once) and leaves out powers nobody plays."""
        chosen = check_proposal(rules, state, proposer, proposal, powers)
        survivors = state.surviving_powers()
        who = tuple(p for p in (voters if voters is not None else survivors) if p in survivors)
        if not who:
            raise BallotError("nobody is left to vote")
        return cls(state.phase.short, proposer, proposal, chosen, who, rules.unanimous, rules.reveal_vetoes)

    @property
    def waiting_for(self) -> tuple[str, ...]:
        return tuple(p for p in self.voters if p not in self._votes)

    def has_voted(self, power: str) -> bool:
        return power in self._votes

    def vote(self, power: str, accept: bool) -> None:
        if power not in self.voters:
            raise BallotError(f"{power} does not vote in this ballot")
        if power in self._votes:
            raise BallotError(f"{power} has already voted")
        self._votes[power] = bool(accept)

    def count(self) -> BallotRecord:
        """Count the votes: unanimity (every voter accepts) or a majority of voters; the votes
        are then forgotten, only the outcome (and, if the event reveals it, the number of votes
        against) is kept."""
        if self.waiting_for:
            raise BallotError(f"still waiting for {len(self.waiting_for)} vote(s)")
        yes = sum(1 for v in self._votes.values() if v)
        no = len(self._votes) - yes
        passed = no == 0 if self.unanimous else yes * 2 > len(self._votes)
        self._votes.clear()
        return BallotRecord(self.phase, self.proposer, self.proposal, self.powers, passed,
                            no if self.reveal_vetoes else None)


def ballot_announcement(record: BallotRecord, names: Mapping[str, str]) -> str:
    """What the table hears: the proposal and the outcome, with the number of vetoes only when
    the event reveals it."""
    what = ("a draw shared by " + ", ".join(names.get(p, p) for p in record.powers)
            if record.proposal == DRAW_PROPOSAL else f"a concession to {names.get(record.powers[0], record.powers[0])}")
    outcome = "passed" if record.passed else "failed"
    text = f"The ballot for {what}, proposed by {names.get(record.proposer, record.proposer)}, {outcome}"
    if record.vetoes is not None and not record.passed:
        text += f" ({record.vetoes} against)"
    return text + "."


def ballot_headline(record: BallotRecord, names: Mapping[str, str]) -> str:
    """The outcome in a few words, for a status bar one line wide ("Ballot passed: a draw of 7";
    "Ballot failed: a concession to France, 1 against"); the powers are named by ``names``."""
    what = (f"a draw of {len(record.powers)}" if record.proposal == DRAW_PROPOSAL
            else f"a concession to {names.get(record.powers[0], record.powers[0])}")
    against = f", {record.vetoes} against" if record.vetoes is not None and not record.passed else ""
    return f"Ballot {'passed' if record.passed else 'failed'}: {what}{against}"


# -- late orders -----------------------------------------------------------------------------------------


def late_orders_verdict(rules: EventRules, seconds_late: float) -> str:
    """``"on_time"``, ``"warning"`` (late, still taken) or ``"void"`` (the power's orders are void
    and its units hold, recorded in the game)."""
    if seconds_late <= 0:
        return "on_time"
    if rules.late_orders == LATE_VOID and seconds_late > rules.late_grace_seconds:
        return "void"
    return "warning"


__all__ = ["CONCESSION_PROPOSAL", "CUSTOM", "DRAW_PROPOSAL", "LATE_POLICIES", "LATE_VOID", "LATE_WARN",
           "PRESETS", "PRESETS_BY_KEY", "Ballot", "BallotError", "ClockPreset", "EventRules",
           "ballot_announcement", "ballot_headline", "check_proposal", "custom_preset", "late_orders_verdict", "parse_time"]
