"""``TableChange``: what one operation changed, for whom, started by whom (CONTRIBUTING.md,
"Doors").  The one change type of the project.

Every operation of the table service returns one and tells its listeners once (the phones' host,
the window's controller, the computer's seats); the window's controller passes the same record on
to its views in its ``changed`` signal, with its own few changes of what is *shown* (a game opened,
the phase looked at, who may be seen) as kinds of the same record.  Views refresh only what its
flags name (:attr:`TableChange.orders`, :attr:`~TableChange.phase`, ...), read from its kind; the
autosave reads it to decide when to write.  It is plain data (no Qt).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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

#: the window's own kinds: what the window *shows* changed, not the table (made by the controller,
#: never by the service): a game opened or begun in the window, the phase looked at (history
#: browsing), whose orders may be seen or who is at the keyboard
OPENED = "opened"
VIEWING = "viewing"
VISIBILITY = "visibility"
WINDOW_KINDS = frozenset({OPENED, VIEWING, VISIBILITY})

#: what each kind makes the views look at again (a kind not named here is drawn by no view from
#: the record: a seal, a PIN count, a join, the hot-seat turn — the hot-seat flow and the phones
#: draw those from their own state)
_DRAWN: dict[str, frozenset[str]] = {
    "orders": frozenset({"orders"}),
    "late": frozenset({"orders", "table"}),  # the orders withdrawn, the verdict kept in the table
    "phase": frozenset({"phase", "viewing", "orders"}),  # adjudicated, or taken back
    "position": frozenset({"phase", "viewing", "orders"}),  # the sandbox's position set
    "game": frozenset({"phase"}),  # the game ended (a draw, a concession, the short game's end)
    "table": frozenset({"table"}),
    "declarations": frozenset({"relations"}),
    OPENED: frozenset({"game", "phase", "viewing", "visibility", "table", "orders"}),
    VIEWING: frozenset({"viewing"}),
    VISIBILITY: frozenset({"visibility"}),
}


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

    def _draws(self, what: str) -> bool:
        flags = _DRAWN.get(self.kind)
        return flags is not None and what in flags

    @property
    def drawn(self) -> bool:
        """Does any view draw this change (a seal or a PIN count: no, the hot-seat flow does)?"""
        return self.kind in _DRAWN

    @property
    def orders(self) -> frozenset[str]:
        """The powers whose current orders changed (empty for a change of no orders; a change
        of everybody's, ``powers`` ``None``, names them once :meth:`for_board` has)."""
        return (self.powers or frozenset()) if self._draws("orders") else frozenset()

    @property
    def phase(self) -> bool:
        """The current phase changed (adjudicated, taken back, a position set, the game ended)."""
        return self._draws("phase")

    @property
    def game(self) -> bool:
        """The whole game was replaced (a new game, a file opened)."""
        return self._draws("game")

    @property
    def viewing(self) -> bool:
        """The phase being looked at changed (history browsing)."""
        return self._draws("viewing")

    @property
    def visibility(self) -> bool:
        """Whose orders may be shown, or which power is at the keyboard, changed."""
        return self._draws("visibility")

    @property
    def table(self) -> bool:
        """The table's settings changed."""
        return self._draws("table")

    @property
    def relations(self) -> bool:
        """Formal Diplomacy: the relations between the powers changed (declarations revealed)."""
        return self._draws("relations")

    @property
    def board_changed(self) -> bool:
        """Units, ownership or the shown phase may differ: redraw everything on the map."""
        return self.phase or self.game or self.viewing or self.visibility

    @property
    def modifies(self) -> bool:
        """Does it change what the game's file keeps (the window's "modified")?"""
        return bool(self.orders) or self.phase or self.game or self.table or self.relations

    def for_board(self, powers: frozenset[str]) -> TableChange:
        """The same change with "everybody" (``powers`` ``None``) spelled out as the board's
        ``powers``, for the views that walk the powers whose orders changed."""
        return replace(self, powers=powers) if self.powers is None and self._draws("orders") else self
