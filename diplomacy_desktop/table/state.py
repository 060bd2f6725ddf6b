"""``TableState``: the saved game's ``table`` object as typed values.

The save format (``io.savefile``) keeps the table as a JSON object, and older versions of the
app wrote and read it as a plain dict.  ``TableState`` reads exactly those keys, and writes them
back unchanged: ``TableState.from_table(d).to_table() == d`` for every dict (a key it does not
know, or a value of an unexpected type, is kept as it was in ``extra``), so an old save opens
unchanged and a save of this version opens in an older one.

The keys, and who writes them:

==========================  ===============================================================
``players`` ``powers``      who plays which power; the powers in play (New Game, seating)
``clock`` ``clock_state``   the clock's settings; the running clock (``ClockModel.to_dict``)
``clock_plans``             each phase's periods as played (Wilson rounds)
``secrecy`` ``pins``        the hot seat on or off; each power's PIN hash (never a PIN)
``host_pin``                the host PIN's hash (host actions), or absent
``formal`` ``short_game_by`` Formal Diplomacy (seed 003); what wins a short game
``seating``                 the priority draw's record
``notes_allowed`` ``notes`` private notes: id, phase, from, to, text (``table.notes``)
``declarations``            Formal Diplomacy: sealed, unrevealed declarations of this phase
``declared``                the phases whose declarations were revealed
``disorder``                powers the host marked as in civil disorder (rules XIV.1)
``hotseat``                 the hot-seat turn (``HotSeatSession.to_part``)
``phones``                  the phone host: tokens, who sealed / declared (``TableSession``)
``hosting_port``            phones were being hosted on this port when the game was saved
``event``                   a tournament board's rules (``table.event.EventRules.to_dict``)
``ballots``                 each ballot: phase, proposer, proposal, powers, passed, vetoes
                            (``table.results.BallotRecord``; never who voted what)
``pieces_confirmed``        the phases whose physical board was confirmed to match
``late_orders``             late orders: phase, power, verdict (``warning`` or ``void``)
``hide_map``                the table plays on its own board: no map on the phones or projector
``player_ids``              the tournament's id of each power's player (a board call)
``board_info``              the event, round and board names for the result files
``computer_seats``          the powers the computer plays, with its level (``table.computer``)
``computer_seed``           the computer's seed (secret: ``io.vault``)
``practice``                a practice game: the person's power (``table.practice``)
``pin_failures``            wrong PINs per power (``table.pins.PinGuard``)
``seal_secrets``            this phase's seal secret (``table.sealcodes``; secret)
``seal_codes``              this phase's seal codes (``table.sealcodes``; secret)
``revealed_seal_codes``     the last revealed phase's codes (``table.sealcodes``)
``seal_log``                every revealed phase's secret and codes (``verify-seals``)
==========================  ===============================================================

``TableState`` is the one live record of the table: the table service owns it, its session,
the window's controller and the phone host hold the same object, and ``table/``, ``host/`` and
``gui/`` read and change it through its attributes and the service's operations (never by a
string key: ``tests/test_doors.py`` checks).  The plain dict exists only at the save boundary
(``io``): ``from_table`` when a game is opened, ``to_table`` when it is written.  Every nested
part is a typed record of its own (``table.parts``, listed in ``_PARTS`` and ``_LISTS``: the
objects ``phones``, ``hotseat``, ``clock``, ``clock_state``, ``clock_plans``, ``event``,
``board_info``, ``players``, ``pins``, ``player_ids``, ``declarations``, ``seal_secrets``,
``seal_codes``, ``revealed_seal_codes``, ``pin_failures``, ``computer_seats``, ``seating``; the
arrays ``ballots``, ``notes``, ``late_orders`` and ``seal_log``), kept as the file holds them (a
later version's keys, odd values and key order); the rest are single values or lists of names.

The mapping methods (``table["players"]``, ``get``, ``in``) read and write the record as the
save file would hold it; they are there for the tests and for reading old saves' keys, not for
the package (see above).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .parts import JsonObjectView, JsonPart, PhonesPart
from .parts import BallotsPart, BoardInfoPart, ClockPart, ClockPlansPart, ClockStatePart, EventPart
from .parts import ComputerSeatsPart, HotSeatPart, PinFailuresPart, SeatingPart
from .parts import DeclarationsPart, PinsPart, PlayerIdsPart, PlayersPart
from .parts import LateOrdersPart, NotesPart
from .parts import JsonList, RevealedSealCodesPart, SealCodesPart, SealLogPart, SealSecretPart
from .parts import json_object, made, put_key

if TYPE_CHECKING:
    from .clock import ClockSettings
    from .event import EventRules
    from .results import BallotRecord

#: the phones' port while the game is hosted (written by ``gui/table/phones.py``; a window that
#: opens the game says hosting was on); here, Qt-free, so the window reads it without loading the phones
HOSTING_KEY = "hosting_port"

#: the table keys and the JSON type each must have to be read as a typed value
KNOWN_KEYS: dict[str, type | tuple[type, ...]] = {
    "players": dict, "powers": list, "clock": dict, "clock_state": dict, "clock_plans": dict,
    "secrecy": bool, "pins": dict, "host_pin": str, "formal": bool, "short_game_by": str,
    "seating": dict, "notes_allowed": bool, "notes": list, "declarations": dict, "declared": list,
    "disorder": list, "hotseat": dict, "phones": dict, "hosting_port": int,
    # a tournament board (gui/table/tournament.py)
    "event": dict, "ballots": list, "pieces_confirmed": list, "late_orders": list, "hide_map": bool,
    "player_ids": dict, "board_info": dict,
    # the computer's seats, a practice game, the PIN counter, the seal codes
    "computer_seats": dict, "computer_seed": int, "practice": str, "pin_failures": dict,
    "seal_secrets": dict, "seal_codes": dict, "revealed_seal_codes": dict, "seal_log": list,
}

#: the nested parts read as a typed record of their own (``table.parts``)
_PARTS: dict[str, type[JsonPart]] = {"phones": PhonesPart}
_PARTS.update({"clock": ClockPart, "clock_state": ClockStatePart, "clock_plans": ClockPlansPart})
_PARTS.update({"event": EventPart, "board_info": BoardInfoPart})
_PARTS.update({"seal_secrets": SealSecretPart, "revealed_seal_codes": RevealedSealCodesPart})
_PARTS.update({"seal_codes": SealCodesPart, "pin_failures": PinFailuresPart})
_PARTS.update({"computer_seats": ComputerSeatsPart, "seating": SeatingPart, "hotseat": HotSeatPart})
_PARTS.update({"players": PlayersPart, "pins": PinsPart, "player_ids": PlayerIdsPart})
_PARTS.update({"declarations": DeclarationsPart})
#: the nested arrays read as a typed list of their own (``table.parts.JsonList``)
_LISTS: dict[str, type[JsonList]] = {"seal_log": SealLogPart, "ballots": BallotsPart}
_LISTS.update({"notes": NotesPart, "late_orders": LateOrdersPart})
#: both, as a part's ``NESTED``; and each known key with its attribute, as a part's ``_KEYS``
_NESTED: dict[str, type[JsonPart | JsonList]] = {**_PARTS, **_LISTS}
_KEYS = tuple((key, key) for key in KNOWN_KEYS)


@dataclass(slots=True, eq=False)
class TableState(JsonObjectView):
    """The table's keys, typed; ``None`` where the save has no such key (it stays absent)."""

    players: PlayersPart | None = None
    powers: list[str] | None = None
    clock: ClockPart | None = None
    clock_state: ClockStatePart | None = None
    clock_plans: ClockPlansPart | None = None
    secrecy: bool | None = None
    pins: PinsPart | None = None
    host_pin: str | None = None
    formal: bool | None = None
    short_game_by: str | None = None
    seating: SeatingPart | None = None
    notes_allowed: bool | None = None
    notes: NotesPart | None = None
    declarations: DeclarationsPart | None = None
    declared: list[str] | None = None
    disorder: list[str] | None = None
    hotseat: HotSeatPart | None = None
    phones: PhonesPart | None = None
    hosting_port: int | None = None
    event: EventPart | None = None
    ballots: BallotsPart | None = None
    pieces_confirmed: list[str] | None = None
    late_orders: LateOrdersPart | None = None
    hide_map: bool | None = None
    player_ids: PlayerIdsPart | None = None
    board_info: BoardInfoPart | None = None
    computer_seats: ComputerSeatsPart | None = None
    computer_seed: int | None = None
    practice: str | None = None
    pin_failures: PinFailuresPart | None = None
    seal_secrets: SealSecretPart | None = None
    seal_codes: SealCodesPart | None = None
    revealed_seal_codes: RevealedSealCodesPart | None = None
    seal_log: SealLogPart | None = None
    #: keys this version does not know, and known keys holding a value of another type: written
    #: back exactly as read
    extra: dict[str, Any] = field(default_factory=dict)
    #: the order of the keys as read (a round trip writes them in the same order)
    key_order: tuple[str, ...] = ()

    @classmethod
    def from_table(cls, table: Mapping[str, Any] | None) -> TableState:
        """The typed view of a saved table (``None``: an empty table)."""
        state = cls()
        if not table:
            return state
        for key, value in table.items():
            state._put(key, value)
        state.key_order = tuple(table)
        return state

    def _put(self, key: str, value: Any) -> None:
        put_key(self, key, value, KNOWN_KEYS, _NESTED, {})  # (as a part reads its keys)

    def to_table(self) -> dict[str, Any]:
        """The table as the save file keeps it (the keys in the order they were read)."""
        return json_object(self, _KEYS)

    def copy(self) -> TableState:
        """A deep copy (a snapshot a failed write puts back with :meth:`assign`)."""
        return TableState.from_table(copy.deepcopy(self.to_table()))

    def assign(self, other: TableState) -> None:
        """Become ``other`` in place (every holder of this record sees it: the doors share it)."""
        for f in fields(self):
            setattr(self, f.name, getattr(other, f.name))

    def computer_seats_part(self) -> ComputerSeatsPart:
        """The computer's seats (``table.computer_seats``), made empty when absent."""
        return made(self, "computer_seats", ComputerSeatsPart)

    def seal_codes_part(self) -> SealCodesPart:
        """This phase's seal codes (``table.seal_codes``), made empty when absent."""
        return made(self, "seal_codes", SealCodesPart)

    def pin_failures_part(self) -> PinFailuresPart:
        """Wrong PINs per power (``table.pin_failures``), made empty when absent."""
        return made(self, "pin_failures", PinFailuresPart)

    def seal_log_part(self) -> SealLogPart:
        """Every revealed phase's seal codes (``table.seal_log``), made empty when absent."""
        return made(self, "seal_log", SealLogPart)

    def players_part(self) -> PlayersPart:
        """Who plays which power (``table.players``), made empty when absent."""
        return made(self, "players", PlayersPart)

    def pins_part(self) -> PinsPart:
        """Each power's PIN hash (``table.pins``), made empty when absent."""
        return made(self, "pins", PinsPart)

    def declarations_part(self) -> DeclarationsPart:
        """This phase's sealed declarations (``table.declarations``), made empty when absent."""
        return made(self, "declarations", DeclarationsPart)

    def phones_part(self) -> PhonesPart:
        """The phones' part (``table.phones``), made empty when absent."""
        return made(self, "phones", PhonesPart)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TableState):
            return self.to_table() == other.to_table()
        if isinstance(other, Mapping):
            return self.to_table() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    # -- the save file's view: for the tests and old callers (the package uses the attributes) ---
    # (hidden from the type checker: the package cannot use them, mypy --strict says so; the
    # tests, and a reader of an old save's keys, can)
    if not TYPE_CHECKING:

        def __getitem__(self, key: str) -> Any:
            if key in self.extra:
                return self.extra[key]
            if key in KNOWN_KEYS and getattr(self, key) is not None:
                return getattr(self, key)
            raise KeyError(key)

        def __setitem__(self, key: str, value: Any) -> None:
            self._put(key, value)

        def __delitem__(self, key: str) -> None:
            if key not in self:
                raise KeyError(key)
            self.extra.pop(key, None)
            if key in KNOWN_KEYS:
                setattr(self, key, None)

        def __contains__(self, key: object) -> bool:
            return isinstance(key, str) and (key in self.extra or (key in KNOWN_KEYS and getattr(self, key) is not None))

        def clear(self) -> None:
            self.assign(TableState())

    def _json(self) -> dict[str, Any]:
        return self.to_table()

    # -- typed questions the window and the host both ask ---------------------------------------

    # the nested parts that have a class of their own are read through it (they are kept as the
    # file holds them: a later version's nested keys survive a round trip)

    def clock_settings(self) -> ClockSettings:
        """The clock's settings (the defaults when none are saved, or the saved ones are damaged)."""
        from .clock import ClockSettings

        try:
            return self.clock.settings() if self.clock is not None else ClockSettings()
        except (TypeError, ValueError):
            return ClockSettings()

    def clock_part(self) -> ClockPart:
        """The clock's part (``table.clock``), made empty when absent."""
        return made(self, "clock", ClockPart)

    def event_rules(self) -> EventRules:
        """A tournament board's rules (the defaults when none are saved, or the saved ones are damaged)."""
        from .event import EventRules

        if self.event is not None:
            try:
                return self.event.rules()
            except (TypeError, ValueError):
                pass
        return EventRules()

    def ballot_records(self) -> list[BallotRecord]:
        """The ballots' outcomes, oldest first (a damaged entry is left out)."""
        return [r for b in (self.ballots.entries() if self.ballots else []) if (r := b.record()) is not None]

    def player_of(self, power: str) -> str | None:
        return (self.players.of(power) if self.players is not None else None) or None

    def powers_in_play(self, board_powers: tuple[str, ...]) -> tuple[str, ...]:
        """The powers played at this table (all of the board's when the table does not say)."""
        if not self.powers:
            return board_powers
        return tuple(p for p in board_powers if p in self.powers)

    def marked_disorder(self, board_powers: tuple[str, ...]) -> frozenset[str]:
        """The powers the host marked as in civil disorder (rules XIV.1)."""
        return frozenset(str(p) for p in (self.disorder or []) if p in board_powers)

    def pin_hash(self, power: str) -> str | None:
        """``power``'s PIN hash: the table's ``pins``, else the hot-seat turn's (older saves)."""
        stored = self.pins.of(power) if self.pins is not None else None
        if not stored and self.hotseat is not None:
            turn_pins = self.hotseat.pins
            stored = turn_pins.of(power) if turn_pins is not None else None
        return stored or None
