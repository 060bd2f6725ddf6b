"""``TableSession``: the one record of who has sealed or declared this phase, laptop or phone.

Before this module the window kept its seals in the hot-seat turn (``table.hotseat``) and the
phone host kept its own list (``table.phones["sealed"]``), and the window copied one into the
other and compared them after every change.  Now both sides hold the same ``TableSession``:

* a phone seals, unseals or declares through the host, which calls :meth:`TableSession.seal`,
  :meth:`~TableSession.unseal` or :meth:`~TableSession.declare` with ``via=PHONE``;
* the laptop seals through the hot-seat flow, which calls the same operations with ``via=LAPTOP``
  (and :meth:`~TableSession.turn_moved` after the turn's other moves: a power reopened, the
  writers changed, a new turn);
* each operation returns one :class:`TableChange` and tells the listeners, so the host tells
  the phones what the laptop did and the window redraws (and autosaves) what a phone did.

Where the record lives — once (issue 30): with a hot-seat turn attached (the window), in that
turn (:class:`~diplomacy_desktop.table.hotseat.HotSeatSession`: its ``sealed``, ``phone_sealed``
and ``part_declared``, saved as ``table.hotseat``); without one (``serve``, phones only), in
``table.phones`` (``sealed``, ``declared``, for ``phase``).  A game saved by one door and
opened by the other moves its record across (:meth:`TableSession.adopt`): the window takes the
phones' seals into its turn (as sealed on a phone) and drops the phones' lists; ``serve`` takes
the turn's seals into the phones' lists and clears them in the turn (its PINs, order and notices
stay).  Earlier versions wrote both; either opens.

Plain Python, no Qt, no locks: the host calls it under its own lock, the window on its GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .changes import COMPUTER, LAPTOP, PHONE, TableChange
from .hotseat import ORDERS_ROUND, HotSeatSession
from .parts import DeclarationsPart, PhonesPart
from .state import TableState

VIA = (LAPTOP, PHONE, COMPUTER)

PHONES_KEY = "phones"

__all__ = ["LAPTOP", "PHONE", "PHONES_KEY", "VIA", "SessionListener", "TableSession"]


SessionListener = Callable[[TableChange], None]


class TableSession:
    """See the module documentation.  ``table`` is the table's record (the service's, shared
    with the controller and the host); ``powers`` the board's powers in board order."""

    def __init__(self, table: TableState, powers: Sequence[str], *,
                 hotseat: HotSeatSession | None = None) -> None:
        self.table = table
        self.powers = tuple(powers)
        self.hotseat = hotseat
        self._listeners: list[SessionListener] = []
        #: who had sealed and declared when the listeners were last told (a turn's own moves)
        self._told: tuple[list[str], list[str]] = (self.sealed, self.declared)

    # -- listeners -------------------------------------------------------------------------------

    def add_listener(self, listener: SessionListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: SessionListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _tell(self, change: TableChange) -> TableChange:
        for listener in list(self._listeners):
            listener(change)
        return change

    # -- the record ------------------------------------------------------------------------------

    @property
    def _phones(self) -> PhonesPart | None:
        return self.table.phones

    def _ordered(self, powers: Iterable[str]) -> list[str]:
        chosen = set(powers)
        return [p for p in self.powers if p in chosen]

    @property
    def sealed(self) -> list[str]:
        """The powers whose orders are sealed now (board order).  While a hot-seat turn goes round
        for Formal Diplomacy's declarations, nobody's orders are sealed yet."""
        if self.hotseat is not None:
            return [] if self.hotseat.declaring else self._ordered(self.hotseat.sealed)
        phones = self._phones
        return self._ordered(str(p) for p in phones.sealed or []) if phones is not None else []

    @property
    def declared(self) -> list[str]:
        """Formal Diplomacy: the powers whose declarations count this phase (board order)."""
        if self.hotseat is not None and self.hotseat.declaring:
            return self._ordered(self.hotseat.declared)
        phones = self._phones
        return self._ordered(str(p) for p in phones.declared or []) if phones is not None else []

    @property
    def phone_sealed(self) -> list[str]:
        """The sealed powers that sealed on a phone (the strip marks them; never what)."""
        if self.hotseat is not None:
            return self._ordered(self.hotseat.phone_sealed)
        return self.sealed

    def is_sealed(self, power: str) -> bool:
        return power in self.sealed

    def _moved(self) -> bool:
        """Whether who has sealed or declared changed since the listeners were last told (it is
        then taken as told)."""
        now = (self.sealed, self.declared)
        if now == self._told:
            return False
        self._told = now
        return True

    def adopt(self, phase: str) -> bool:
        """A game saved by the other door is opened for ``phase`` (``S1901M``): who had sealed
        moves into this door's record, once.  The window (a hot-seat turn attached) takes the
        phones' seals and declarations of that phase as made on a phone; ``serve`` (none) takes
        the saved turn's seals of that phase's orders round and clears them in the turn.  True if
        anything moved."""
        phones = self._phones
        if self.hotseat is not None:
            if phones is None or self.hotseat.phase != phase:
                return False
            # the phones' lists leave the table whatever happens: the turn is the one record
            sealed, declared = phones.sealed, phones.declared
            phones.drop("sealed")
            phones.drop("declared")
            if phones.phase != phase:
                return False
            before = (set(self.hotseat.sealed), set(self.hotseat.part_declared))
            listed = declared if self.hotseat.declaring else sealed
            take = self.hotseat.phone_declare if self.hotseat.declaring else self.hotseat.phone_seal
            for p in self._ordered(str(p) for p in listed or []):
                take(p)
            self._moved()
            return (set(self.hotseat.sealed), set(self.hotseat.part_declared)) != before
        saved_turn = self.table.hotseat
        if saved_turn is None or saved_turn.phase != phase or saved_turn.round not in (None, ORDERS_ROUND):
            return False
        sealed = self._ordered(str(p) for p in saved_turn.sealed or [] if isinstance(p, str))
        if not sealed:
            return False
        phones = self.table.phones_part()
        if phones.phase != phase:
            phones.phase, phones.sealed, phones.declared = phase, [], []
        phones.sealed = self._ordered([*(phones.sealed or []), *sealed])
        saved_turn.clear_seals()
        self._moved()
        return True

    # -- operations ------------------------------------------------------------------------------

    def begin_phase(self, phase: str) -> TableChange | None:
        """A new phase (``S1901M``): nobody has sealed or declared yet; the pending declarations
        go.  ``None`` when the record was already for that phase."""
        phones = self.table.phones_part() if self.hotseat is None else self._phones
        if phones is None or phones.phase == phase:
            return None
        phones.phase = phase
        if self.hotseat is None:  # (with a turn, the turn is the record)
            phones.sealed = []
            phones.declared = []
        self.table.declarations = DeclarationsPart()
        return TableChange("phase", frozenset(), LAPTOP)

    def seal(self, power: str, *, via: str) -> TableChange | None:
        """Seal ``power``'s orders (on the laptop: its whole seat, see ``HotSeatSession.seal``).
        ``None`` when it was sealed already.  The hot-seat turn's own checks apply (a laptop seal
        only by the power at the keyboard: ``HotSeatError``)."""
        _check_via(via)
        if self.is_sealed(power):
            return None
        if self.hotseat is not None:
            before = set(self.hotseat.sealed)
            if via == LAPTOP:
                self.hotseat.seal(power)
            elif via == COMPUTER:  # a computer seat (table/computer.py): the curtain never calls it
                self.hotseat.computer_seal(power)
            else:
                self.hotseat.phone_seal(power)
            powers = frozenset(set(self.hotseat.sealed) - before)
            self._moved()
        else:
            phones = self.table.phones_part()
            phones.sealed = self._ordered([*(phones.sealed or []), power])
            powers = frozenset({power})
        return self._tell(TableChange("seal", powers, via))

    def unseal(self, power: str, *, via: str) -> TableChange | None:
        """Unseal ``power`` (its phone, with its PIN when it has one: the host checks it).
        ``None`` when it was not sealed."""
        _check_via(via)
        if not self.is_sealed(power):
            return None
        if self.hotseat is not None:
            self.hotseat.phone_unseal(power)
            self._moved()
        else:
            phones = self._phones
            assert phones is not None  # is_sealed found it there
            phones.sealed = [p for p in phones.sealed or [] if p != power]
        return self._tell(TableChange("unseal", frozenset({power}), via))

    def declare(self, power: str, *, via: str) -> TableChange | None:
        """Formal Diplomacy: ``power``'s declarations are written (they are kept, secret, in
        ``table.declarations`` by whoever took them).  On a phone, with a hot-seat turn, the
        power's seat is sealed only when all its powers have declared (``phone_declare``)."""
        _check_via(via)
        if self.hotseat is not None:
            before = self.hotseat.declared
            self.hotseat.phone_declare(power)
            self._moved()
            if self.hotseat.declared == before:
                return None
            powers = frozenset(self.hotseat.declared - before)
        else:
            phones = self.table.phones_part()
            declared = [str(p) for p in phones.declared or []]
            if power in declared:
                return self._tell(TableChange("declare", frozenset({power}), via))  # rewritten
            phones.declared = self._ordered([*declared, power])
            powers = frozenset({power})
        return self._tell(TableChange("declare", powers, via))

    def turn_moved(self) -> TableChange | None:
        """The laptop's hot-seat turn moved by itself (a power reopened its orders, the writers
        changed, a new turn or round began): the record is written, and the phones are told when
        who-has-sealed changed.  ``None`` when it did not."""
        if not self._moved():
            return None
        return self._tell(TableChange("turn", frozenset(), LAPTOP))


def _check_via(via: str) -> None:
    if via not in VIA:
        raise ValueError(f"a seal is made by the computer, on the laptop or on a phone, not {via!r}")
