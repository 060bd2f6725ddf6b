"""The negotiation clock: a model with no Qt in it, and the big countdown the table looks at.

``ClockModel`` is plain Python.  It knows the periods of the current phase (for a movement
phase: the diplomacy period, then the order-writing window; for retreats and adjustments one
short period, or none), counts down against an injectable time source, and reports what
happened on each ``tick()`` as a tuple of ``ClockEvent`` values: a warning when a period has a
minute left, the end of a period, and the end of the last one.  It never sleeps and never
blocks: whoever owns it calls ``tick()`` (``ClockWidget`` does so from a QTimer).

Wilson rounds (seed 003: "all discussions are at the table and in the open in five minute
rounds"): with ``ClockSettings.wilson_rounds`` = M > 0 a movement phase's talks are M periods of
kind ``"round"`` ("Round 2 of 5 \u2014 Spring 1901"), each with its own warning, end chime, pause,
+1 minute and skip; the last round's end is the end of the talks.  In a Formal Diplomacy game a
``"declarations"`` period comes between the talks and the order writing.  The host may add one
more round to the phase under way (``add_round``); the periods as played (with the minutes added)
are the phase's *plan* (``plan()``), which the table keeps for every phase.

Its whole state goes to and from a dict (``to_dict`` / ``from_dict``), which the main window
keeps in the saved game's ``table`` so the clock survives save and reopen.
"""


from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..engine.state import ADJUSTMENT, FALL, MOVEMENT, RETREAT, Phase

TimeSource = Callable[[], float]

#: seconds left in a period when the warning is given
WARNING_SECONDS = 60.0

IDLE = "idle"  # a period is loaded but the clock was not started
RUNNING = "running"
PAUSED = "paused"
EXPIRED = "expired"  # the last period ran out
OFF = "off"  # this phase has no timed period
STATUSES = (IDLE, RUNNING, PAUSED, EXPIRED, OFF)

#: period kinds
DIPLOMACY = "diplomacy"  # the talks, in one period (no Wilson rounds)
ROUND = "round"  # one Wilson round of the talks
DECLARATIONS = "declarations"  # Formal Diplomacy: the declarations window, after the talks
WRITING = "writing"
#: the kinds of period that are the talks: the end of the last of them ends the talks
TALK_KINDS = frozenset({DIPLOMACY, ROUND})
#: at most this many Wilson rounds in a phase (the host's added rounds included)
MAX_ROUNDS = 20
#: the default length of the Formal Diplomacy declarations window, in minutes: each power writes
#: two minutes for each power that writes behind the curtain (the laptop goes round: a power reads
#: its units, gives its orders, reviews and seals)
WRITING_MINUTES_PER_POWER = 2.0
#: at most six one-word declarations (allied / neutral / war) behind the curtain, about twenty
#: seconds a power when the laptop goes round seven players, so three minutes with some to spare
DECLARATION_MINUTES = 3.0


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Period lengths in minutes; 0 means "no clock" for that period."""

    spring_minutes: float = 15.0
    fall_minutes: float = 15.0
    #: the order-writing window after the talks: this many minutes for each power writing at the
    #: table (``writing_per_power``; issue 34: five minutes for seven powers together ran out at
    #: every table), or in all
    writing_minutes: float = WRITING_MINUTES_PER_POWER
    retreat_minutes: float = 0.0
    adjustment_minutes: float = 0.0
    #: Wilson rounds: the talks of a movement phase are this many rounds (0: one diplomacy period)
    wilson_rounds: int = 0
    #: the length of one Wilson round (seed 003: five minutes)
    round_minutes: float = 5.0
    #: the declarations window after the talks; only in a Formal Diplomacy game
    declaration_minutes: float = DECLARATION_MINUTES
    #: ``writing_minutes`` for each power writing (True), or for all of them together (False: an
    #: event's fixed window, and every save from before the choice)
    writing_per_power: bool = True

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if name == "writing_per_power":
                if not isinstance(value, bool):
                    raise ValueError(f"writing_per_power must be true or false, not {value!r}")
            elif name == "wilson_rounds":
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ROUNDS:
                    raise ValueError(f"wilson_rounds must be a whole number from 0 to {MAX_ROUNDS}, not {value!r}")
            elif not isinstance(value, (int, float)) or math.isnan(value) or value < 0 or value > 24 * 60:
                raise ValueError(f"{name} must be between 0 and 1440 minutes, not {value!r}")
        if self.wilson_rounds and self.round_minutes <= 0:
            raise ValueError("a Wilson round must last more than 0 minutes")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def writing_seconds(self, writers: int) -> float:
        """The writing window's length for ``writers`` powers writing at the table."""
        return self.writing_minutes * 60 * (max(1, writers) if self.writing_per_power else 1)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockSettings:
        """The settings as saved; keys a save does not have (older saves: no Wilson rounds) keep
        their defaults.  ``ValueError`` / ``TypeError`` on a damaged value."""
        known: dict[str, Any] = {}
        if "writing_minutes" in data and "writing_per_power" not in data:
            known["writing_per_power"] = False  # (saved before the choice: the window was for all)
        for k, v in data.items():
            if k not in cls.__dataclass_fields__:
                continue
            if k == "writing_per_power":
                if not isinstance(v, bool):
                    raise ValueError(f"writing_per_power must be true or false, not {v!r}")
                known[k] = v
            elif k == "wilson_rounds":
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
                    raise ValueError(f"wilson_rounds must be a whole number, not {v!r}")
                known[k] = int(v)
            else:
                known[k] = float(v)
        return cls(**known)

    @property
    def wilson(self) -> bool:
        """The talks are Wilson rounds."""
        return self.wilson_rounds > 0

    def round_period(self, phase_name: str, number: int, count: int, seconds: float | None = None) -> Period:
        return Period(ROUND, f"Round {number} of {count} \u2014 {phase_name}",
                      self.round_minutes * 60 if seconds is None else seconds)

    def periods_for(self, phase: Phase, *, formal: bool = False, writers: int = 1) -> tuple[Period, ...]:
        """The timed periods of ``phase``, in order (none when its lengths are 0).

        A movement phase: the talks (one diplomacy period, or M Wilson rounds), then in a Formal
        Diplomacy game (``formal``) the declarations window, then the order-writing window (for
        ``writers`` powers writing at the table, see :meth:`writing_seconds`)."""
        season = phase.season.title()
        if phase.kind == MOVEMENT:
            name = f"{season} {phase.year}"
            if self.wilson:
                out = [self.round_period(name, n, self.wilson_rounds) for n in range(1, self.wilson_rounds + 1)]
            else:
                talk = self.fall_minutes if phase.season == FALL else self.spring_minutes
                out = [Period(DIPLOMACY, f"Diplomacy \u2014 {name}", talk * 60)]
            if formal:
                out.append(Period(DECLARATIONS, f"Declarations \u2014 {name}", self.declaration_minutes * 60))
            out.append(Period(WRITING, f"Write orders \u2014 {name}", self.writing_seconds(writers)))
        elif phase.kind == RETREAT:
            out = [Period("retreats", f"Retreats \u2014 {season} {phase.year}", self.retreat_minutes * 60)]
        elif phase.kind == ADJUSTMENT:
            out = [Period("adjustments", f"Builds and removals \u2014 Winter {phase.year}",
                          self.adjustment_minutes * 60)]
        else:  # pragma: no cover - Phase refuses other kinds
            out = []
        return tuple(p for p in out if p.seconds > 0)


@dataclass(frozen=True, slots=True)
class Period:
    """One timed stretch: ``kind`` is diplomacy, round, declarations, writing, retreats or
    adjustments."""

    kind: str
    title: str
    seconds: float


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """What a tick, or an action, brought about.

    ``kind`` is ``"warning"`` (a minute left), ``"period_ended"`` (a period ran out and the next
    one began) or ``"expired"`` (the last period ran out).  ``period`` is the period concerned.
    """

    kind: str
    period: Period


@dataclass(slots=True)
class ClockModel:
    """The countdown for one phase.  Mutable, deterministic given its time source."""

    settings: ClockSettings = field(default_factory=ClockSettings)
    now: TimeSource = time.monotonic
    periods: tuple[Period, ...] = ()
    phase_label: str = ""
    index: int = 0
    status: str = OFF
    _remaining: float = 0.0  # seconds left when not running
    _deadline: float = 0.0  # time-source reading at which the period ends, when running
    _warned: bool = False
    _listeners: list[Callable[[ClockEvent], None]] = field(default_factory=list)
    #: a Formal Diplomacy game: a declarations window after the talks
    formal: bool = False
    #: seconds the host added to each period (+1 min), by period
    _added: list[float] = field(default_factory=list)
    #: how many powers write at the table in a phase (the writing window is per power); None: one
    writers: Callable[[Phase], int] | None = None

    # -- setting up -----------------------------------------------------------------------

    @classmethod
    def for_phase(cls, phase: Phase, settings: ClockSettings | None = None, *,
                  now: TimeSource = time.monotonic, formal: bool = False,
                  writers: Callable[[Phase], int] | None = None) -> ClockModel:
        model = cls(settings or ClockSettings(), now, formal=formal, writers=writers)
        model.set_phase(phase)
        return model

    def set_phase(self, phase: Phase) -> None:
        """Load the periods of ``phase``; the clock waits to be started."""
        self.phase_label = phase.label
        self.periods = self.planned_periods(phase)
        self.reset()

    def planned_periods(self, phase: Phase) -> tuple[Period, ...]:
        """The periods the settings give ``phase`` at this table (before any minute is added)."""
        writers = self.writers(phase) if self.writers is not None else 1
        return self.settings.periods_for(phase, formal=self.formal, writers=writers)

    def set_settings(self, settings: ClockSettings, phase: Phase | None = None) -> None:
        self.settings = settings
        if phase is not None:
            self.set_phase(phase)

    def subscribe(self, listener: Callable[[ClockEvent], None]) -> None:
        """Call ``listener`` with each event as it happens (from ``tick`` and the actions)."""
        self._listeners.append(listener)

    # -- reading ----------------------------------------------------------------------------

    @property
    def period(self) -> Period | None:
        if not self.periods:
            return None
        return self.periods[min(self.index, len(self.periods) - 1)]

    @property
    def remaining(self) -> float:
        """Seconds left in the current period (never negative)."""
        if self.status == RUNNING:
            return max(0.0, self._deadline - self.now())
        return max(0.0, self._remaining)

    @property
    def remaining_text(self) -> str:
        """``"14:59"``; whole seconds rounded up, so 0:00 shows only when time is really out."""
        secs = math.ceil(self.remaining - 1e-9)
        if secs >= 3600:
            return f"{secs // 3600}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
        return f"{secs // 60}:{secs % 60:02d}"

    @property
    def fraction_left(self) -> float:
        """Share of the current period left (the minutes added included), from 1.0 down to 0.0."""
        p = self.period
        if p is None:
            return 0.0
        total = p.seconds + self._added_list()[min(self.index, len(self.periods) - 1)]
        if total <= 0:
            return 0.0
        return max(0.0, min(1.0, self.remaining / total))

    @property
    def is_running(self) -> bool:
        return self.status == RUNNING

    @property
    def in_warning(self) -> bool:
        """The last minute of a period that is under way (running or paused)."""
        return self.status in (RUNNING, PAUSED, IDLE) and self.period is not None and \
            0 < self.remaining <= WARNING_SECONDS

    @property
    def has_next_period(self) -> bool:
        return self.index + 1 < len(self.periods)

    @property
    def next_period(self) -> Period | None:
        return self.periods[self.index + 1] if self.has_next_period else None

    @property
    def rounds(self) -> int:
        """How many Wilson rounds this phase has (0: none)."""
        return sum(1 for p in self.periods if p.kind == ROUND)

    @property
    def round_number(self) -> int:
        """The number of the Wilson round under way, from 1 (0: the period is not a round)."""
        p = self.period
        if p is None or p.kind != ROUND:
            return 0
        return sum(1 for q in self.periods[:self.index + 1] if q.kind == ROUND)

    @property
    def round_text(self) -> str:
        """``"Round 2 of 5"`` during a Wilson round, else ``""``."""
        n = self.round_number
        return f"Round {n} of {self.rounds}" if n else ""

    @property
    def in_talks(self) -> bool:
        """The talks are under way (or waiting to start): a diplomacy period or a Wilson round."""
        return self.period is not None and self.period.kind in TALK_KINDS and self.status not in (EXPIRED, OFF)

    @property
    def last_round(self) -> bool:
        """The period under way is the last Wilson round of the phase."""
        n = self.round_number
        return n > 0 and n == self.rounds

    def plan(self) -> list[list[Any]]:
        """The phase's periods as [kind, title, seconds], the minutes the host added included:
        what the table keeps of each phase's clock."""
        added = self._added_list()
        return [[p.kind, p.title, min(86400.0, round(p.seconds + added[i], 3))] for i, p in enumerate(self.periods)]

    def _added_list(self) -> list[float]:
        if len(self._added) != len(self.periods):
            self._added = (self._added + [0.0] * len(self.periods))[:len(self.periods)]
        return self._added

    # -- actions ------------------------------------------------------------------------------

    def can_start(self) -> bool:
        return self.status in (IDLE, PAUSED) and self.period is not None

    def start(self) -> None:
        """Start (or resume) the countdown.  Does nothing when there is nothing to count."""
        if not self.can_start():
            return
        self._deadline = self.now() + self._remaining
        self.status = RUNNING

    resume = start

    def pause(self) -> None:
        if self.status != RUNNING:
            return
        self._remaining = max(0.0, self._deadline - self.now())
        self.status = PAUSED

    def toggle(self) -> None:
        if self.status == RUNNING:
            self.pause()
        else:
            self.start()

    def add_minute(self, seconds: float = 60.0) -> None:
        """Give the current period more time.  After the end, the last period reopens, paused."""
        if self.period is None:
            return
        added = self._added_list()
        if self.status == EXPIRED:
            self.index = len(self.periods) - 1
            self._remaining = seconds
            self.status = PAUSED
        elif self.status == RUNNING:
            self._deadline += seconds
        else:
            self._remaining += seconds
        added[self.index] += seconds
        if self.remaining > WARNING_SECONDS:
            self._warned = False

    def can_add_round(self) -> bool:
        """One more Wilson round may be added: the talks are in rounds and under way."""
        return self.in_talks and self.round_number > 0 and self.rounds < MAX_ROUNDS

    def add_round(self) -> bool:
        """The host gives the table one more Wilson round (after the last one, of the table's
        round length); the rounds are renumbered ("Round 2 of 6").  False when it cannot."""
        if not self.can_add_round():
            return False
        last = max(i for i, p in enumerate(self.periods) if p.kind == ROUND)
        name = self.periods[last].title.split(" \u2014 ", 1)[-1]
        length = self.settings.round_minutes * 60 if self.settings.round_minutes > 0 else self.periods[last].seconds
        self._added_list().insert(last + 1, 0.0)
        periods = list(self.periods)
        periods.insert(last + 1, Period(ROUND, "", length))
        count = sum(1 for p in periods if p.kind == ROUND)
        number = 0
        for i, p in enumerate(periods):
            if p.kind == ROUND:
                number += 1
                periods[i] = self.settings.round_period(name, number, count, p.seconds)
        self.periods = tuple(periods)
        return True

    def end_talks(self) -> tuple[ClockEvent, ...]:
        """The table ends the talks now: the diplomacy period or every round left ends, and the
        period after them (declarations or writing) starts, running.  Reports the periods that
        ended (nothing when the talks were already over)."""
        events: list[ClockEvent] = []
        while self.in_talks:
            events.extend(self._finish_period(self.now(), keep_running=True, notify=False))
        self._notify(events)
        return tuple(events)

    def skip(self) -> tuple[ClockEvent, ...]:
        """End the current period now (the table agrees to stop talking early): the next
        period starts at once, running ("Write orders now" starts the writing clock)."""
        if self.period is None or self.status in (EXPIRED, OFF):
            return ()
        return tuple(self._finish_period(self.now(), keep_running=True))

    def restart_period(self) -> None:
        """Back to the start of the period under way (a Wilson round: this round again), stopped;
        the minutes added to it are taken back."""
        p = self.period
        if p is None or self.status in (EXPIRED, OFF):
            return
        self._added_list()[self.index] = 0.0
        self._remaining = p.seconds
        self._warned = False
        self.status = IDLE

    def reset(self) -> None:
        """Back to the start of the phase's first period, stopped."""
        self.index = 0
        self._warned = False
        self._added = [0.0] * len(self.periods)
        if self.periods:
            self._remaining = self.periods[0].seconds
            self.status = IDLE
        else:
            self._remaining = 0.0
            self.status = OFF

    def tick(self) -> tuple[ClockEvent, ...]:
        """Read the time source and report the warnings and ends that came about since the last
        tick (several, if the machine slept through them)."""
        if self.status != RUNNING:
            return ()
        events: list[ClockEvent] = []
        while self.status == RUNNING:
            now = self.now()
            left = self._deadline - now
            period = self.period
            assert period is not None
            if left <= 0:
                events.extend(self._finish_period(self._deadline, keep_running=True, notify=False))
                continue
            if left <= WARNING_SECONDS and not self._warned:
                self._warned = True
                if period.seconds > WARNING_SECONDS:
                    events.append(ClockEvent("warning", period))
            break
        self._notify(events)
        return tuple(events)

    def _finish_period(self, at: float, *, keep_running: bool, notify: bool = True) -> list[ClockEvent]:
        period = self.period
        assert period is not None
        events: list[ClockEvent]
        if self.has_next_period:
            self.index += 1
            nxt = self.periods[self.index]
            self._warned = False
            events = [ClockEvent("period_ended", period)]
            if keep_running:
                self._deadline = at + nxt.seconds
                self.status = RUNNING
            else:
                self._remaining = nxt.seconds
                self.status = PAUSED if self.status == PAUSED else IDLE
        else:
            self._remaining = 0.0
            self.status = EXPIRED
            events = [ClockEvent("expired", period)]
        if notify:
            self._notify(events)
        return events

    def _notify(self, events: list[ClockEvent]) -> None:
        for e in events:
            for listener in list(self._listeners):
                listener(e)

    # -- saving -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings.to_dict(),
            "phase": self.phase_label,
            "periods": [[p.kind, p.title, p.seconds] for p in self.periods],
            "index": self.index,
            "status": self.status,
            "remaining": round(self.remaining, 3),
            "warned": self._warned,
            "added": [round(a, 3) for a in self._added_list()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, now: TimeSource = time.monotonic) -> ClockModel:
        """The clock as saved: same period, same time left, running if it was running.

        Raises ``ValueError`` on a damaged dict."""
        try:
            settings = ClockSettings.from_dict(data.get("settings", {}))
            periods = tuple(Period(str(k), str(t), float(s)) for k, t, s in data.get("periods", []))
            status = str(data.get("status", OFF))
            if status not in STATUSES:
                raise ValueError(f"unknown clock status {status!r}")
            index = int(data.get("index", 0))
            if periods and not 0 <= index < len(periods):
                raise ValueError(f"period {index} out of range")
            remaining = max(0.0, float(data.get("remaining", 0.0)))
            added = [max(0.0, float(a)) for a in data.get("added", [])]
        except (TypeError, AttributeError) as exc:
            raise ValueError(f"damaged clock settings: {exc}") from exc
        if len(added) != len(periods):  # older saves: nothing added
            added = [0.0] * len(periods)
        model = cls(settings, now, periods, str(data.get("phase", "")), index,
                    formal=any(p.kind == DECLARATIONS for p in periods), _added=added)
        if not periods:
            model.status = OFF
            return model
        model._remaining = remaining
        model._warned = bool(data.get("warned", False))
        model.status = PAUSED if status == RUNNING else status
        if status == RUNNING:
            model.start()
        return model

    def with_time_source(self, now: TimeSource) -> ClockModel:
        """A copy that reads another clock (tests)."""
        return replace(self, now=now, _listeners=[], _added=list(self._added))
