"""How this table plays (``TableSettings``), read from and written to the saved game's table.

The New Game dialog and the table mode fill one of these; the saved game keeps it in its table
keys (``players``, ``powers``, ``clock``, ``secrecy``, ``pins``, ``host_pin``, ``formal``,
``short_game_by``, ``seating``, ``notes_allowed``,
``computer_seats``, ``computer_seed``, ``practice``), which ``TableState`` reads and writes too.
PINs are only ever held as salted hashes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.board import Board
from ..engine.game import BY_CENTRES, SHORT_GAME_MEASURES
from ..engine.rules import Edition
from ..io.pins import is_pin_hash
from .clock import ClockSettings
from .computer import LEVELS, computer_seats, computer_seed
from .parts import ClockPart, ComputerSeatsPart, PinsPart, PlayersPart, SeatingPart, text_entries
from .state import TableState



def seating_part(seating: SeatingPart | Mapping[str, Any]) -> SeatingPart:
    """A copy of the priority draw's record (the settings are also made from its plain dict)."""
    return SeatingPart.from_dict(seating.to_dict() if isinstance(seating, SeatingPart) else seating)

@dataclass(frozen=True, slots=True)
class TableSettings:
    """How this table plays: who plays which power, rules, length, clock and secrecy."""

    powers: tuple[str, ...] = ()  # empty: every power of the board
    players: Mapping[str, str] = field(default_factory=dict)
    edition: str = Edition.CLASSIC.value
    end_year: int | None = None
    clock: ClockSettings = field(default_factory=ClockSettings)
    secrecy: bool = True
    pins: Mapping[str, str] = field(default_factory=dict)  # power -> salted hash
    host_pin: str | None = None  # salted hash of the host PIN; None: anyone may do host actions
    formal: bool = False  # Formal Diplomacy (seed 003): relations, declarations, restrictions
    short_game_by: str = BY_CENTRES  # a short game's winner: most "centres" (XIV.4) or "pieces" (III)
    seating: SeatingPart = field(default_factory=SeatingPart)  # how the powers were assigned (priority draw)
    notes: bool = False  # private notes between players (seed 001's written messages); off by default
    #: the powers the computer plays (issue 33): power -> level (bots.LEVELS); and its seed
    computer: Mapping[str, str] = field(default_factory=dict)
    computer_seed: int = 0
    #: a practice game (``table.practice``): the one person's power; None: a table of people
    practice: str | None = None
    #: the host's passphrase for this game's secrets (io.vault); kept in memory only, never in the table
    passphrase: str | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        Edition.parse(self.edition)
        if self.short_game_by not in SHORT_GAME_MEASURES:
            raise ValueError(f"a short game is won by most centres or most pieces, not {self.short_game_by!r}")
        for power, stored in self.pins.items():
            if not is_pin_hash(stored):
                raise ValueError(f"the PIN of {power} must be given as a hash")
        if self.host_pin is not None and not is_pin_hash(self.host_pin):
            raise ValueError("the host PIN must be given as a hash")
        for power, level in self.computer.items():
            if level not in LEVELS:
                raise ValueError(f"the computer plays {power} at {', '.join(LEVELS)}, not {level!r}")

    def powers_in_play(self, board: Board) -> tuple[str, ...]:
        return tuple(p for p in board.power_ids if not self.powers or p in self.powers)

    def to_state(self) -> TableState:
        """The new game's table state (the table service's record)."""
        return TableState(
            players=PlayersPart.of_entries({p: n for p, n in self.players.items() if n}),
            powers=list(self.powers),
            clock=ClockPart.from_dict(self.clock.to_dict()),
            secrecy=self.secrecy,
            pins=PinsPart.of_entries(self.pins),
            host_pin=self.host_pin,
            formal=True if self.formal else None,
            short_game_by=self.short_game_by,
            seating=seating_part(self.seating) if self.seating else None,
            notes_allowed=True if self.notes else None,
            computer_seats=ComputerSeatsPart.from_dict(self.computer) if self.computer else None,
            computer_seed=self.computer_seed if self.computer else None,
            practice=self.practice or None,
        )

    def to_table(self) -> dict[str, Any]:
        """The new game's table as the save file keeps it."""
        return self.to_state().to_table()

    @classmethod
    def from_table(cls, table: TableState, *, edition: str = Edition.CLASSIC.value,
                   end_year: int | None = None, formal: bool | None = None) -> TableSettings:
        """The settings kept in a game's table (edition and end year live in the game itself, and
        so does Formal Diplomacy: ``formal`` is the game's own flag when given)."""
        players = text_entries(table.players)
        powers = table.powers or []
        pins = text_entries(table.pins)
        host_pin = table.host_pin
        by = table.short_game_by
        seating = table.seating
        clock = table.clock_settings()
        return cls(tuple(str(p) for p in powers) if isinstance(powers, list) else (),
                   players,
                   edition, end_year, clock, table.secrecy is not False,
                   {k: v for k, v in pins.items() if is_pin_hash(v)},
                   host_pin if is_pin_hash(host_pin) else None,
                   bool(table.formal) if formal is None else formal,
                   by if by in SHORT_GAME_MEASURES else BY_CENTRES,
                   seating_part(seating) if seating is not None else SeatingPart(),
                   table.notes_allowed is True,
                   computer_seats(table), computer_seed(table), table.practice)
