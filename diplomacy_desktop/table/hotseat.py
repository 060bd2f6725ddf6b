"""The hot-seat turn, without Qt: one laptop, each power writes its orders in turn behind a curtain.

The cycle of a phase, as ``HotSeatSession`` models it:

    open      the board is visible to all; the table negotiates; nobody's current orders show
    curtain   "Pass the laptop to France": the window is covered; nobody's orders show
    entering  France is at the keyboard: only France's orders show, only France may order
    ready     every power has sealed: the curtain offers to reveal
    revealed  everybody's orders show; the controller adjudicates, and the next phase opens

The first power to write is drawn at random each phase (``random.Random`` is injected, so a
seeded one makes it reproducible); the others follow in board order from there.  A power may
protect its turn with a PIN of 4 to 8 digits, kept only as a salted hash (``table.pins``).  The host may reveal before
everyone has sealed (``force``) and reopen another power's orders; when the game has a host PIN
(``table.host_pin``, a salted hash) each host action asks for it, otherwise the question says
that anyone at the table may do it.  A reopened power is recorded in ``notices`` (saved with the
turn) and shown on the curtain and the status strip, so the table is told.

The window's ``gui.table.hotseat.flow.HotSeatFlow`` drives one of these; the seals of the laptop and of
the phones are both recorded here (through ``table.session.TableSession``), never anywhere else.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..io.pins import PinFormatError, pin_matches
from ..io.pins import hash_pin as _io_hash_pin
from .parts import HotSeatPart, text_entries

OPEN = "open"
CURTAIN = "curtain"
ENTERING = "entering"
READY = "ready"
REVEALED = "revealed"
STAGES = (OPEN, CURTAIN, ENTERING, READY, REVEALED)

#: what the laptop goes round for: orders, or (Formal Diplomacy, seed 003) declarations first
ORDERS_ROUND = "orders"
#: the table key of the window's hot-seat turn (``HotSeatSession.to_dict``)
HOTSEAT_KEY = "hotseat"
DECLARATIONS_ROUND = "declarations"
ROUNDS = (ORDERS_ROUND, DECLARATIONS_ROUND)


class HotSeatError(ValueError):
    """An action the hot-seat cycle does not allow now (out of turn, already sealed, ...)."""


class PinError(HotSeatError):
    """A missing or wrong PIN, or a PIN that is not four digits."""


# -- PINs (the hash format lives in io.pins, shared with the phone host) ------------------------



def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$hash`` (``io.pins``): what is stored instead of the PIN."""
    try:
        return _io_hash_pin(pin, salt=salt)
    except PinFormatError as exc:
        raise PinError(str(exc)) from None


# -- the host ----------------------------------------------------------------------------------

NO_HOST_PIN = "No host PIN is set for this game: anyone at the table may do this."
NO_HOST_PIN_CURTAIN = "No host PIN is set: anyone at the table may use the host actions."
HOST_PIN_SET = "Host actions (reveal now, open a power out of turn) ask for the host PIN."


# -- the session -----------------------------------------------------------------------------


@dataclass(slots=True)
class HotSeatSession:
    """Whose turn it is to write orders, who has sealed, and what may be shown."""

    rng: random.Random = field(default_factory=random.Random)
    pins: dict[str, str] = field(default_factory=dict)  # power -> hash_pin(...)
    phase: str = ""  # the phase this turn is for (``S1901M``)
    order: tuple[str, ...] = ()  # this phase's writing order: the drawn power first
    sealed: set[str] = field(default_factory=set)
    current: str | None = None
    stage: str = OPEN
    notices: list[str] = field(default_factory=list)  # what the table must be told (reopened powers)
    round: str = ORDERS_ROUND  # Formal Diplomacy: "declarations" before the orders round
    #: power -> player name (the table's ``players``): the powers of one player are one *seat*,
    #: written in one curtain turn (opened, shown and sealed together); a power with no player
    #: name is a seat of its own
    players: dict[str, str] = field(default_factory=dict)
    #: the sealed powers that sealed on a phone (Table ▸ Phones): the strip says so; never what
    phone_sealed: set[str] = field(default_factory=set)
    #: declarations round: powers that declared on a phone while another power of their player has
    #: not declared yet (the seat is sealed only when all its powers have declared); their
    #: declarations count, and the laptop's sheet shows them when the player sits down
    part_declared: set[str] = field(default_factory=set)

    # -- a phase begins ---------------------------------------------------------------------

    def begin_turn(self, phase: str, powers: Sequence[str]) -> None:
        """A new phase: ``powers`` (in board order) owe orders; draw the first at random."""
        powers = tuple(powers)
        if powers:
            first = self.rng.randrange(len(powers))
            self.order = powers[first:] + powers[:first]
        else:
            self.order = ()
        self.phase = phase
        self.sealed = set()
        self.current = None
        self.stage = OPEN
        self.notices = []
        self.round = ORDERS_ROUND
        self.phone_sealed = set()
        self.part_declared = set()

    def resume(self, saved: HotSeatSession) -> None:
        """Take up ``saved``'s turn (an opened file's, for the phase being played): who writes,
        who sealed (and where), the round, what the table was told; nobody at the keyboard."""
        self.phase, self.order = saved.phase, saved.order
        self.sealed, self.stage = set(saved.sealed), saved.stage
        self.notices = list(saved.notices)  # what the table was told stays told
        self.round = saved.round
        self.phone_sealed = set(saved.phone_sealed)
        self.part_declared = set(saved.part_declared)
        self.current = None

    def seat_of(self, power: str) -> tuple[str, ...]:
        """The powers written in the same curtain turn as ``power`` this phase: those of its
        player that owe orders (``power`` alone when it has no player name)."""
        player = self.players.get(power)
        if not player:
            return (power,)
        seat = tuple(p for p in self.order if self.players.get(p) == player)
        return seat if power in seat else (power, *seat)

    @property
    def current_seat(self) -> tuple[str, ...]:
        """Every power of the player at the keyboard (empty when nobody is)."""
        return self.seat_of(self.current) if self.current is not None else ()

    def seats(self) -> list[tuple[str, ...]]:
        """This phase's curtain stops: one per player, in the writing order."""
        out: list[tuple[str, ...]] = []
        for p in self.order:
            if not any(p in seat for seat in out):
                out.append(self.seat_of(p))
        return out

    @property
    def first_power(self) -> str | None:
        return self.order[0] if self.order else None

    @property
    def next_power(self) -> str | None:
        """Who should take the laptop next: the first in the order who has not sealed."""
        return next((p for p in self.order if p not in self.sealed), None)

    @property
    def all_sealed(self) -> bool:
        return all(p in self.sealed for p in self.order)

    @property
    def waiting(self) -> tuple[str, ...]:
        return tuple(p for p in self.order if p not in self.sealed)

    def set_writers(self, powers: Sequence[str]) -> None:
        """The powers that owe orders changed during the turn (the host marked a power as in
        civil disorder, or lifted it): the others keep their places and their seals."""
        keep = [p for p in self.order if p in powers]
        self.order = tuple(keep + [p for p in powers if p not in keep])
        self.sealed &= set(self.order)
        self.phone_sealed &= self.sealed
        self.part_declared &= set(self.order)
        if self.current is not None and self.current not in self.order:
            self.current = None
            if self.stage == ENTERING:
                self.stage = CURTAIN
        if self.stage in (CURTAIN, READY):
            self.stage = READY if self.all_sealed else CURTAIN

    # -- writing -----------------------------------------------------------------------------

    def start_writing(self) -> None:
        """The diplomacy period is over: put up the curtain."""
        if self.stage != OPEN:
            raise HotSeatError("orders are already being written")
        self.stage = READY if self.all_sealed else CURTAIN

    @property
    def declaring(self) -> bool:
        """Formal Diplomacy: the laptop goes round for declarations (before the orders)."""
        return self.round == DECLARATIONS_ROUND

    def start_declarations(self) -> None:
        """Formal Diplomacy: the talks are over; each power declares behind the curtain first."""
        if self.stage != OPEN:
            raise HotSeatError("orders are already being written")
        self.round = DECLARATIONS_ROUND
        self.sealed = set()
        self.phone_sealed = set()
        self.part_declared = set()
        self.stage = READY if self.all_sealed else CURTAIN

    def end_declarations(self) -> None:
        """The declarations were revealed: the orders round begins behind the curtain."""
        if not self.declaring or self.stage != REVEALED:
            raise HotSeatError("the declarations are not revealed")
        self.round = ORDERS_ROUND
        self.sealed = set()
        self.phone_sealed = set()
        self.part_declared = set()
        self.current = None
        self.stage = OPEN
        self.start_writing()

    def has_pin(self, power: str) -> bool:
        """Whether ``power``'s seat is protected: a player's PIN guards all their powers."""
        return any(p in self.pins for p in self.seat_of(power))

    def set_pin(self, power: str, pin: str | None) -> None:
        if pin is None or pin == "":
            self.pins.pop(power, None)
        else:
            self.pins[power] = hash_pin(pin)

    def check_pin(self, power: str, pin: str | None) -> bool:
        """The PIN of ``power``'s seat: a new game stores the player's one PIN (as the same hash)
        under each of their powers; an older save may hold a PIN per power, and then any of the
        seat's PINs opens it (they are all the same player's)."""
        stored = [self.pins[p] for p in self.seat_of(power) if p in self.pins]
        if not stored:
            return True
        return pin is not None and any(pin_matches(h, pin) for h in stored)

    def verify_open_stage(self, power: str) -> None:
        if self.stage not in (CURTAIN, READY):
            raise HotSeatError("the curtain is not up")
        if power not in self.order:
            raise HotSeatError(f"{power} has no orders to write this phase")

    def verify_open(self, power: str, pin: str | None = None) -> None:
        self.verify_open_stage(power)
        if self.has_pin(power) and not pin:
            raise PinError("this power's orders are protected by a PIN")
        if not self.check_pin(power, pin):
            raise PinError("wrong PIN")

    def can_open(self, power: str, pin: str | None = None) -> bool:
        try:
            self.verify_open(power, pin)
        except HotSeatError:
            return False
        return True

    def open(self, power: str, pin: str | None = None, *, by_host: bool = False, proved: bool = False) -> None:
        """``power`` takes the laptop (a sealed power reopens its orders, and is unsealed).
        ``by_host``: the host (who proved it with the host PIN) opens it without the power's PIN.
        ``proved``: the caller has just checked the seat's PIN (through its failure counter), which
        is not checked again here (the hash is slow on purpose: one check is a second or more)."""
        if by_host or proved:
            self.verify_open_stage(power)
        else:
            self.verify_open(power, pin)
        if self.declaring:  # what its phone declared stays declared (and shown on the sheet)
            self.part_declared |= self.phone_sealed & set(self.seat_of(power))
        self.sealed.difference_update(self.seat_of(power))  # the whole seat is open again
        self.phone_sealed.difference_update(self.seat_of(power))
        self.current = power
        self.stage = ENTERING

    def close(self) -> None:
        """The power at the keyboard steps away without sealing: curtain."""
        if self.stage != ENTERING:
            raise HotSeatError("nobody is writing orders")
        self.current = None
        self.stage = READY if self.all_sealed else CURTAIN

    def seal(self, power: str) -> None:
        """Seal ``power``'s orders and those of every other power of its player (one seal)."""
        if self.stage != ENTERING or self.current is None or power not in self.current_seat:
            raise HotSeatError(f"{power} is not at the keyboard")
        self.sealed.update(self.current_seat)
        self.phone_sealed.difference_update(self.current_seat)
        self.part_declared.difference_update(self.current_seat)
        self.current = None
        self.stage = READY if self.all_sealed else CURTAIN

    def verify_reveal(self, *, force: bool = False) -> None:
        if self.stage == REVEALED:
            raise HotSeatError(f"the {self.round} are already revealed")
        if not force and not (self.stage == READY and self.all_sealed):
            missing = ", ".join(self.waiting) or "nobody"
            raise HotSeatError(f"not everyone has sealed (waiting for {missing})")

    def reveal(self, *, force: bool = False) -> None:
        """Show every power's orders (all have sealed, or the host forces it)."""
        self.verify_reveal(force=force)
        self.current = None
        self.stage = REVEALED

    def phone_seal(self, power: str) -> None:
        """``power`` sealed on its phone (Table ▸ Phones): the curtain skips it.  Whoever of its
        player is at the keyboard steps away (their orders are the phone's: the same orders)."""
        if power not in self.order or power in self.sealed:
            return
        self.phone_sealed.add(power)
        self.computer_seal(power)

    def computer_seal(self, power: str) -> None:
        """``power`` is a computer seat (``table.computer``): its orders were written and sealed
        when the writing began; the curtain skips it, like a power sealed on its phone."""
        if power not in self.order or power in self.sealed:
            return
        self.sealed.add(power)
        if self.current is not None and all(p in self.sealed for p in self.current_seat):
            self.current = None
            if self.stage == ENTERING:
                self.stage = CURTAIN
        if self.stage in (CURTAIN, READY):
            self.stage = READY if self.all_sealed else CURTAIN

    def phone_declare(self, power: str) -> None:
        """``power`` declared on its phone (declarations round).  Its seat is sealed only when
        every power of the seat has declared, on a phone or at the laptop; until then the power
        is ``part_declared`` (its declarations count; the player still owes the others')."""
        if not self.declaring or power not in self.order or power in self.sealed:
            return
        self.part_declared.add(power)
        seat = self.seat_of(power)
        if all(p in self.part_declared or p in self.sealed for p in seat):
            self.part_declared.difference_update(seat)
            for p in seat:
                self.phone_seal(p)

    @property
    def declared(self) -> set[str]:
        """Declarations round: the powers whose declarations count now (sealed, or declared on a
        phone while the rest of their seat has not)."""
        return (self.sealed | self.part_declared) if self.declaring else set()

    def phone_unseal(self, power: str) -> None:
        """``power`` unsealed on its phone (with its PIN, if it has one)."""
        if power not in self.sealed:
            return
        self.sealed.discard(power)
        self.phone_sealed.discard(power)
        if self.stage == READY:
            self.stage = CURTAIN

    # -- secrecy -----------------------------------------------------------------------------

    @property
    def visible_powers(self) -> frozenset[str] | None:
        """Whose current orders may be shown: ``None`` means everybody's.  While declarations are
        written nobody's orders show (the orders round has not begun)."""
        if self.declaring:
            return frozenset()
        if self.stage == REVEALED:
            return None
        if self.stage == ENTERING and self.current is not None:
            return frozenset(self.current_seat)
        return frozenset()

    # -- saving (never a PIN, only its hash) ------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": self.phase, "order": list(self.order), "sealed": sorted(self.sealed),
                               "stage": self.stage, "pins": dict(self.pins)}
        if self.notices:
            out["notices"] = list(self.notices)
        if self.round != ORDERS_ROUND:
            out["round"] = self.round
        if self.phone_sealed:
            out["phone_sealed"] = sorted(self.phone_sealed)
        if self.part_declared:
            out["part_declared"] = sorted(self.part_declared)
        return out

    def to_part(self) -> HotSeatPart:
        """The turn as the table keeps it (``TableState.hotseat``)."""
        return HotSeatPart.from_dict(self.to_dict())

    @classmethod
    def from_part(cls, part: HotSeatPart, *, rng: random.Random | None = None) -> HotSeatSession:
        """Restore the table's turn (``TableState.hotseat``), read as :meth:`from_dict` reads the
        saved object (a later version's keys are not the turn's; ``ValueError`` as there): a PIN
        hash that is not text reads as absent."""
        data = part.to_dict()
        if "pins" in data:
            data["pins"] = text_entries(part.pins)
        return cls.from_dict(data, rng=rng)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, rng: random.Random | None = None) -> HotSeatSession:
        """Restore a saved turn.  Whoever was at the keyboard is back behind the curtain."""
        stage = str(data.get("stage", OPEN))
        if stage not in STAGES:
            raise ValueError(f"unknown hot-seat stage {stage!r}")
        order = tuple(str(p) for p in data.get("order", []))
        sealed = {str(p) for p in data.get("sealed", []) if p in order}
        pins = {str(k): str(v) for k, v in (data.get("pins") or {}).items()}
        notices = data.get("notices") or []
        round_ = str(data.get("round", ORDERS_ROUND))
        if round_ not in ROUNDS:
            raise ValueError(f"unknown hot-seat round {round_!r}")
        s = cls(rng or random.Random(), pins, str(data.get("phase", "")), order, sealed, None, stage,
                [str(n) for n in notices] if isinstance(notices, list) else [], round_)
        s.phone_sealed = {str(p) for p in data.get("phone_sealed", []) if p in sealed}
        s.part_declared = {str(p) for p in data.get("part_declared", []) if p in order and p not in sealed} \
            if round_ == DECLARATIONS_ROUND else set()
        if stage == ENTERING:
            s.stage = READY if s.all_sealed else CURTAIN
        return s
