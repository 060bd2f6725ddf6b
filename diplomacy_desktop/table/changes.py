"""``TableChange`` (what one operation of the table service changed, for whom, started by whom)
and ``ChangeRecord``: what one operation changed (CONTRIBUTING.md, "Doors").

Every operation of the controller and of the table session returns or broadcasts one of these;
views refresh only what it names, and the autosave reads it to decide when to write.  It is plain
data (no Qt), so the table layer and the phone host use the same record as the window.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """What one operation changed.  Views refresh only what it names."""

    #: powers whose current orders changed
    orders: frozenset[str] = frozenset()
    #: the current phase changed (adjudicated, or an adjudication taken back)
    phase: bool = False
    #: the whole game was replaced (new game, opened file)
    game: bool = False
    #: the phase being looked at changed (history browsing)
    viewing: bool = False
    #: whose orders may be shown, or which power is at the keyboard, changed
    visibility: bool = False
    #: the table settings changed
    table: bool = False
    #: Formal Diplomacy: the relations between the powers changed (declarations revealed)
    relations: bool = False
    #: who started it, when the record is a table service change's (``TableChange.initiator``):
    #: such a change was on disk, through the service's write hook, before the record was sent
    initiator: str | None = None

    @property
    def board_changed(self) -> bool:
        """Units, ownership or the shown phase may differ: redraw everything on the map."""
        return self.phase or self.game or self.viewing or self.visibility


#: who started an operation (``TableChange.initiator``): the seats and the host
LAPTOP = "laptop"
PHONE = "phone"
COMPUTER = "computer"
HOST = "host"
CLOCK = "clock"

#: the change kind of the laptop's own bookkeeping (the service's ``keep_turn``, ``keep_declarations``,
#: ``reveal_seal_codes``): the hot-seat turn, its pending declarations, the seal codes revealed.  No
#: view draws it from the record (the hot-seat flow draws its turn); the autosave writes it soon
TURN = "turn"


@dataclass(frozen=True, slots=True)
class TableChange:
    """What one operation changed.  ``kind`` names it ("orders", "seal", "phase", ...),
    ``powers`` whose private view changed (``None``: everybody's, the public board too) and
    ``initiator`` who started it ("laptop", "phone", "computer", "host", "clock")."""

    kind: str
    powers: frozenset[str] | None = None
    initiator: str = HOST

    @property
    def via(self) -> str:
        """The seat's side (the session's older name for ``initiator``)."""
        return self.initiator




#: the service's change kinds that a phase-wide record stands for (the views look at everything again)
_WHOLE_BOARD = ("phase", "position")


def record_for(change: TableChange, powers: frozenset[str]) -> ChangeRecord | None:
    """The window's record of a table service change (``powers``: the board's, for a change of
    everybody's orders); ``None`` for a change no view draws (a PIN count, a seal: the hot-seat
    flow draws those from its session)."""
    kind, who = change.kind, change.initiator
    if kind == "orders":
        return ChangeRecord(orders=change.powers or powers, initiator=who)
    if kind == "late":  # the orders withdrawn and the verdict kept in the table's late orders
        return ChangeRecord(orders=change.powers or powers, table=True, initiator=who)
    if kind in _WHOLE_BOARD:
        return ChangeRecord(phase=True, viewing=True, orders=powers, initiator=who)
    if kind == "game":
        return ChangeRecord(phase=True, initiator=who)
    if kind == "table":
        return ChangeRecord(table=True, initiator=who)
    if kind == "declarations":
        return ChangeRecord(relations=True, initiator=who)
    return None
