"""The table host: one game served to the players' phones, with their secrets kept apart.

``TableHost`` is plain Python (no Qt, no sockets): the server (``host.server``) and, later, the
window call it.  It holds

* the game (an engine ``Game``) and the save's table dict (``io.savefile``), saved after every
  change (atomically, mode 0600: the file holds every unrevealed order; the server saves through
  ``flush`` before it answers, so that phones editing at once share the writes);
* one secret token per power (``secrets.token_urlsafe``), new for every game and kept in the save
  so that a restarted host keeps its join links; ``kick`` replaces a power's token;
* who plays what: ``table.players`` maps a power to a player's name, and a token of one of a
  player's powers covers all of them;
* each power's orders (the game's own filed orders: the draft), whether it has sealed them (in
  the ``table.session.TableSession`` it shares with the window's hot seat: one record), and
  its optional PIN (``table.pins`` or ``table.hotseat.pins``, hashed as ``io.pins``
  writes them; wrong PINs are rate-limited);
* Formal Diplomacy: each power's declarations, secret until every surviving power has written
  theirs (``table.declarations``), then revealed together and applied by ``Game.declare``;
* private notes when the table allows them (``table.notes_allowed``, off by default): a note
  goes to one or more powers and only they (and its writer) can read it.

When every power that owes orders has sealed, the phase is revealed and adjudicated, and phases
in which nobody has anything to order are adjudicated straight after.

The table's parts the host's changes write (through the table service): ``phones``
(``table.parts.PhonesPart``: tokens, phase, sealed, declared, declarations_revealed ...),
``declarations`` (pending, this phase), ``notes`` and ``notes_allowed``.  The save format keeps
table keys it does not know, so a window of an earlier version opens the file too.

Every public method is safe to call from any thread (one lock), and every change is announced
to the listeners as a ``Change``: which powers' private view changed (``None``: everybody's, the
public board included).  Listeners get no orders, only who to refresh.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from ..engine.errors import OrderError
from ..engine.explain import explain, results_by_province
from ..engine.formal import relation_word
from ..engine.game import Game
from ..engine.options import all_options, orders_needed
from ..engine.orders import Order, UnitOrder
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT
from ..engine.validation import check_order
from ..io.boardfile import load_board
from ..io.gamestore import (GameImage, GameStore, StoreError, StoreLockedError, StoreTamperedError, file_stamp,
                            set_aside, store_path)
from ..io.notation import format_order, location_label
from ..io.output import reason as os_reason
from ..io.savefile import (OpenedGame, SaveFileError, WrongPassphraseError, dumps, open_game, order_from_dict,
                           order_to_dict, write_atomic)
from ..io.typed_orders import read_typed_order, refusal_message
from ..io.vault import UNAUTHENTICATED_TEXT, Vault, VaultError
from ..table import phonebook, sealcodes
from ..table.phonebook import token_digest
from ..table.changes import HOST, LAPTOP, PHONE, TURN, TableChange
from ..table.computer import computer_seats
from ..table.parts import PhoneClockPart, PhoneDevice, PhonesPart
from ..table.notes import MAX_NOTE_TEXT, MAX_NOTES, NoteError, notes_for
from ..table.pieces import plan_entry
from ..table.pins import HASH_GATE, JoinGuard, JoinRate, PinWaitError, pin_problem
from ..table.service import (STAGE_DECLARATIONS, STAGE_ORDERS, PinRefusal, PinWait, StalePhaseError,
                             TableRefusal, TableService, as_state)
from ..table.session import TableSession
from ..table.state import TableState
from .phase_results import adjudicated_entries, order_view, phase_label, phase_picture

#: the longest typed order or player name the host accepts (notes: ``table.notes``)
MAX_ORDER_TEXT = 200
#: one power's share of the game's notes, and how fast it may write them (NOTE_BURST in any
#: NOTE_WINDOW seconds): one phone cannot use up every note of the game
NOTE_BURST = 10
NOTE_WINDOW = 60.0


SAVE_MODE = 0o600


class HostError(Exception):
    """A request the host refuses; ``status`` is the HTTP status the server answers with."""

    status = 400


class UnknownTokenError(HostError):
    status = 404


class NotYoursError(HostError):
    status = 403


class ComputerSeatError(UnknownTokenError):
    """The link of a power the computer plays: no phone plays it, and what the computer sealed
    stays secret until the reveal (issue 33); the link works again once a person has the seat."""

    status = 403


class StaleRequestError(HostError):
    """A request written for another phase (a replay, or a phone that has not caught up)."""

    status = 409


class RefusedError(HostError):
    """Not possible now: sealed, wrong stage, an illegal order, ..."""

    status = 409


class PinError(HostError):
    status = 403


class TooManyAttemptsError(HostError):
    status = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SaveFailedError(HostError):
    """The change could not be written (a full disk): it was taken back, nobody was told it was
    made.  ``reason``: the OS error in a few words ("no space left")."""

    status = 507

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message



Listener = Callable[[TableChange], None]

#: changes that are not part of the saved game (the clock lives only in the host): shown at once
UNSTORED_KINDS = frozenset({"clock"})
#: the change everybody hears when changes that could not be saved were taken back
RESTORED = "restored"


def _why(exc: BaseException) -> str:
    """An OS or SQLite error in a few words ("no space left")."""
    if isinstance(exc, OSError):
        return os_reason(exc)
    text = str(exc)
    if "full" in text:
        return "no space left"
    return text or type(exc).__name__


def _open_store(path: Path) -> tuple[GameStore, str]:
    """The live database beside ``path``, checked; a damaged one is set aside and a new one made
    (the saved game is read again), with the note that says so."""
    note = ""
    try:
        store = GameStore(store_path(path))
    except (StoreError, sqlite3.Error, OSError) as exc:
        note = _set_aside_note(path, exc)  # damaged: set aside, and the saved game is read again
        try:
            store = GameStore(store_path(path))
        except (StoreError, sqlite3.Error, OSError) as exc2:
            raise _save_failed(exc2 if isinstance(exc2, OSError) else OSError(str(exc2))) from exc2
    if not note and store.has_tables():
        try:
            store.check()  # SQLite's integrity check and the records' own
        except StoreError as exc:
            store.close()
            note = _set_aside_note(path, exc)
            store = GameStore(store_path(path))
    return store, note


def _set_aside_note(path: Path, exc: BaseException) -> str:
    """Set the damaged live game of ``path`` aside; what to tell the host (naming both files)."""
    db = store_path(path)
    why = str(exc).removeprefix(f"the live game {db.name} cannot be read: ")
    if isinstance(exc, StoreTamperedError):  # never "damaged" only: somebody edited it
        try:
            aside = set_aside(db)
        except OSError as err:
            return f"REFUSED: {why}; it could not be set aside ({_why(err)}); {path.name} is read instead"
        return f"REFUSED: {why}; it is set aside as {aside.name} and {path.name} is read instead"
    try:
        aside = set_aside(db)
    except OSError as err:
        return (f"the live game {db.name} is damaged ({why}) and could not be set aside ({_why(err)}); "
                f"{path.name} is read instead")
    return f"the live game {db.name} is damaged ({why}): set aside as {aside.name}; {path.name} is read instead"


def _set_aside_other(path: Path) -> str:
    """The live game beside ``path`` is not of the file as it is now (the file was written
    since, by something else than this host: replaced, an earlier copy put back, or only
    touched; or the host stopped between writing the two): set it aside, never over it, and say
    so, because what was played since the file was written (this phase's orders and seals) is
    only there."""
    db = store_path(path)
    why = (f"the live game {db.name} is not of {path.name} as it is now ({path.name} was written since the host "
           "wrote it: replaced, put back from a copy or touched, or the host stopped while writing)")
    try:
        aside = set_aside(db)
    except OSError as err:
        raise _save_failed(err) from err
    return (f"{why}: set aside as {aside.name} (what was played since {path.name} was written, this phase's "
            f"orders and seals, is there); {path.name} is read instead")


def _save_failed(exc: BaseException) -> SaveFailedError:
    why = _why(exc)
    return SaveFailedError(f"not saved, so not done: the game could not be written ({why}); try again, or "
                           "tell the host", why)


_Snapshot = GameImage  # the game and the table as they were (to take back what could not be saved)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _new_table_options(game: Game, table: Mapping[str, Any], notes_allowed: bool | None,
                       players: Mapping[str, str] | None) -> TableState:
    """``serve``'s options for a game it opens or creates: private notes on or off, and who plays
    which power (a power the game does not have is refused).  The table the host's service will
    own, made before there is one (``table`` is left as it was)."""
    typed = TableState.from_table(table)
    if notes_allowed is not None:
        typed.notes_allowed = notes_allowed
    if players:
        unknown = [p for p in players if p not in game.board.power_ids]
        if unknown:
            raise SaveFileError(f"there is no power {unknown[0]!r} in this game")
        named = typed.players_part()
        for power, name in players.items():
            named.put(power, name)
    return typed


def _all_or_nothing(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """A phone's (or the console's) change to the game: if it cannot be saved (SaveFailedError,
    from the save or from a listener that saves, as the window's autosave does), the game and the
    table are put back as they were and everybody is told to look again: nobody sees a change
    that is not on disk."""

    @functools.wraps(method)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        self: TableHost = args[0]  # type: ignore[assignment]
        try:
            with self._lock:
                before = self._snapshot()
                turn = self._turn_snapshot()
                try:
                    return method(*args, **kwargs)
                except SaveFailedError:
                    self._restore_turn(turn)
                    self._restore(before)
                    raise
                except StalePhaseError as exc:
                    raise StaleRequestError(str(exc)) from None
                except PinWait as exc:
                    raise TooManyAttemptsError(str(exc), exc.retry_after) from None
                except PinRefusal as exc:
                    raise PinError(str(exc)) from None
                except TableRefusal as exc:
                    raise RefusedError(str(exc)) from None
        except PinError:
            self._write_counted()  # a wrong PIN is counted on disk before the phone hears "wrong"
            raise

    return run


class TableHost:
    """The game as the phones see it; see the module documentation."""

    def __init__(self, game: Game, table: TableState | Mapping[str, Any] | None = None, path: Path | None = None, *,
                 clock: Callable[[], float] = time.monotonic, auto_reveal: bool = True,
                 session: TableSession | None = None, vault: Vault | None = None,
                 wall_clock: Callable[[], float] = time.time, store: GameStore | None = None,
                 service: TableService | None = None) -> None:
        self.game = game
        #: the live game in SQLite (``serve``): changes are written to it row by row, and the saved
        #: game ``path`` is written from it at every new phase and by ``write_file``
        self.store = store
        #: ``serve`` reveals and adjudicates by itself when all have sealed; the window does not
        #: (``auto_reveal=False``): its hot-seat flow reveals, on the GUI thread, and then calls
        #: ``phase_moved`` / ``declarations_done``
        self.auto_reveal = auto_reveal
        #: the table's one live record (the service's: a window's host is given the window's)
        self.table: TableState = as_state(table)
        self.path = path
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        #: the game key: with it, the unrevealed part of every save is written encrypted (io.vault)
        self.vault = vault
        #: wrong PINs when joining, per phone client: a stranger never locks out the real player
        self.join_guard = JoinGuard(clock)
        #: the whole table's pace of joins, and the process's budget of slow hashes (issue 31)
        self.join_rate = JoinRate(clock=clock)
        self.hash_gate = HASH_GATE
        #: powers whose PIN a phone's seal or unseal is comparing now (outside the lock)
        self._pins_checking: set[str] = set()
        self._now = clock
        self._note_times: dict[str, list[float]] = {}
        self._seen_clients: dict[str, set[str]] = {}
        #: the version of the public view: changes only when something public changes
        self.public_version = 0
        self._options_key: tuple[Any, ...] | None = None
        self._options: dict[str, dict[str, list[Order]]] = {}
        self._results_key: int | None = None
        self._results: dict[str, Any] | None = None
        self._clock: dict[str, Any] | None = None
        self._wall = wall_clock
        self.version = 0
        #: this host's run: ``version`` counts changes within one run (a phone orders the states it
        #: gets by it, and starts again when the host was restarted)
        self._boot = secrets.token_hex(4)
        self._saved_version = self._synced_version = -1
        self._save_lock = threading.Lock()
        #: per thread, the host's version right after the last change that thread made (the server
        #: answers a request once *that* version is saved, whatever another thread did meanwhile)
        self._local = threading.local()
        self._disk_listeners: list[Listener] = []
        #: changes made but not yet written (deferred saves): (version, change)
        self._unpublished: list[tuple[int, TableChange]] = []
        #: versions taken back after a failed write: (last written, last taken back)
        self._lost: list[tuple[int, int]] = []
        #: the game as the file holds it (deferred saves: what a failed write goes back to)
        self._on_disk: _Snapshot | None = None
        self._on_disk_synced = False
        #: changes taken back because they could not be saved, and the last reason ("no space left")
        self.save_failures = 0
        self.last_save_error = ""
        #: the server's way: changes are saved by ``flush`` (before each answer), not one by one
        self.deferred_saves = False
        #: called after each write of the saved game (``serve``: its lock takes the new file too)
        self.file_written: Callable[[], None] | None = None
        #: what opening did with a damaged live game ("" when there was none: ``serve`` prints it)
        self.store_note = ""
        #: the one record of who has sealed or declared (the window's, shared with its hot seat)
        if session is not None and session.table is not self.table:
            raise ValueError("the table session must be over the host's own table")
        self.session = session if session is not None else TableSession(self.table, game.board.power_ids)
        #: the one owner of the game and the table's rules: the host is its HTTP mapping (the
        #: window's host is given the window's own service: one service for both doors)
        if service is not None and (service.game is not game or service.table is not self.table
                                    or service.session is not self.session):
            raise ValueError("the table service must be over the host's own game, table and session")
        self.service = service if service is not None else TableService(game, self.table, session=self.session,
                                                                        wall_clock=wall_clock)
        # a window's game: its turn's seals become the phones' record (one record, issue 30)
        self.service.adopt_seals(initiator=HOST)
        self.service.add_listener(self._on_service_change)
        self.pin_guard = self.service.pin_guard
        self.service.phone_links()
        self._sync_phase()
        if auto_reveal:
            self._skip_empty_phases()

    # -- opening ---------------------------------------------------------------------------------

    @classmethod
    def open_or_new(cls, path: Path, *, formal: bool = False, notes_allowed: bool | None = None,
                    players: Mapping[str, str] | None = None, passphrase: str | None = None,
                    vault: Vault | None = None) -> TableHost:
        """The game saved in ``path``, or a new standard game saved there when there is no such
        file.  SaveFileError when the file is not a saved game (WrongPassphraseError: its
        secrets do not open with ``passphrase``).  With a passphrase (or ``vault``) the
        unrevealed part of the game is written encrypted; a file that has an encrypted part
        must be opened with its passphrase (the phones' tokens are in it)."""
        if path.exists():
            opened = open_game(path, passphrase=passphrase, vault=vault)
            if opened.locked:
                raise SaveFileError("this game's secrets are encrypted: give its passphrase")
            game, table = opened.game, opened.table
            if opened.vault is not None:
                vault = opened.vault
            elif vault is None and passphrase is not None:
                vault = Vault.create(passphrase)
        else:
            game, table = Game.new(load_board("standard"), formal=formal), {}
            if vault is None and passphrase is not None:
                vault = Vault.create(passphrase)
        state = _new_table_options(game, table, notes_allowed, players)
        host = cls(game, state, path, vault=vault)
        host.save()
        return host

    @classmethod
    def open_live(cls, path: Path, *, formal: bool = False, notes_allowed: bool | None = None,
                  players: Mapping[str, str] | None = None, passphrase: str | None = None,
                  opened: OpenedGame | None = None) -> TableHost:
        """``serve``'s way: the game kept live in its SQLite database beside ``path`` (see
        ``io.gamestore``).  The database is used when it holds the game ``path`` was last read
        from or written to (no check again, no replay of the file); otherwise ``path`` is read
        (checked against the schema and the board, once) or a new game is made, and both the file
        and the database are written.  With ``passphrase`` the game is secret: the database's
        secret rows and the saved game's secret part are encrypted under its key (a game played
        in the clear until now is encrypted from now on).  ``opened``: ``path`` as the caller
        already read it (not read again unless its secrets need the passphrase).  SaveFileError when the file is not a
        saved game (WrongPassphraseError: not its passphrase), SaveFailedError when it cannot be
        written."""
        store, note = _open_store(path)
        if not note and store.has_tables() and not store.holds_game_of(file_stamp(path)):
            store.close()  # never written over without a word (red team, issue 31)
            note = _set_aside_other(path)
            store = GameStore(store_path(path))
        try:
            loaded = None
            vault: Vault | None = None
            if store.holds_game_of(file_stamp(path)):
                try:
                    wrapped = store.wrapped_key()
                    if wrapped is not None and passphrase is not None:
                        try:
                            vault = store.vault = Vault.open(wrapped, passphrase)
                        except VaultError as exc:
                            raise WrongPassphraseError(str(exc)) from None
                    game, table = store.load()  # StoreLockedError: secret, and no passphrase given
                    loaded = GameImage.of(game, table)
                except StoreLockedError:
                    loaded = None
                except StoreError as exc:
                    store.close()
                    note = _set_aside_note(path, exc)
                    store = GameStore(store_path(path))
                    loaded = None
            unauthenticated = loaded is not None and store.unauthenticated
            if loaded is None:
                if path.exists():
                    if opened is None or opened.locked:
                        opened = open_game(path, passphrase=passphrase)
                    if opened.locked:
                        raise SaveFileError("this game's secrets are encrypted: give its passphrase")
                    game, table, vault = opened.game, opened.table, opened.vault
                    unauthenticated = opened.unauthenticated
                else:
                    game, table = Game.new(load_board("standard"), formal=formal), {}
            if vault is None and passphrase is not None:
                vault = Vault.create(passphrase)  # a new secret game, or one played in the clear until now
            # an earlier version's store is written whole, authenticated (its rows in format 2)
            rekeyed = store.vault is not vault or unauthenticated
            store.vault = vault
            state = _new_table_options(game, table, notes_allowed, players)
            host = cls(game, state, path, store=store, vault=vault)
            host.store_note = "; ".join(filter(None, (note, f"{path.name}: {UNAUTHENTICATED_TEXT}"
                                                      if unauthenticated else "")))
            try:
                if loaded is not None and not rekeyed:  # only what opening changed (tokens, an empty phase skipped)
                    host._on_disk = loaded
                    host.save()
                else:
                    text = dumps(host.game, host.table.to_table(), vault=vault)
                    write_atomic(path, text, mode=SAVE_MODE)
                    host._on_disk = store.write_all(host.game, host.table.to_table(), file_stamp(path))
                    host._on_disk_synced = True
            except (OSError, sqlite3.Error) as exc:
                raise _save_failed(exc) from exc
        except BaseException:
            store.close()
            raise
        return host

    def close(self) -> None:
        """Close the live game's database (``serve`` stopping); the service (the window's, which
        outlives its hosting) no longer tells this host anything."""
        self.service.remove_listener(self._on_service_change)
        if self.store is not None:
            self.store.close()

    # -- listeners -------------------------------------------------------------------------------

    def add_listener(self, listener: Listener, *, on_disk: bool = False) -> None:
        """``listener`` hears every change.  ``on_disk``: only once the change is saved (with
        ``deferred_saves``, after the ``flush`` that wrote it): the server tells the phones only
        what is on disk.  A listener that is not ``on_disk`` may refuse a change by raising
        SaveFailedError (the window's autosave failed): the change is then taken back."""
        with self._lock:
            (self._disk_listeners if on_disk else self._listeners).append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._lock:
            for listeners in (self._listeners, self._disk_listeners):
                if listener in listeners:
                    listeners.remove(listener)

    def _on_service_change(self, change: TableChange) -> None:
        """The service made a change (a phone's, the console's, or the window's through the same
        service): the phones of the powers it concerns look again (a player's every power)."""
        if self.service.game is not self.game:
            return  # the window's service went on to another game: this host is being closed
        if change.kind == TURN:
            return  # the laptop's own turn: the session tells the phones when who has sealed changed
        with self._lock:
            powers = change.powers
            if powers is not None and change.kind in ("orders", "pin"):
                powers = frozenset(q for p in powers for q in self._players_powers(p))
            self._options_key = None if change.kind in ("phase", "declarations", "position") else self._options_key
            self._changed(TableChange(change.kind, powers, change.initiator))

    def _write_counted(self) -> None:
        """A wrong PIN was counted: on disk now (the server answers after ``flush`` only when the
        change succeeded), so that a crash and a restart do not forget it."""
        if self.path is None:
            return
        # a failed write is taken back and counted in save_failures; the phone hears "wrong PIN" all the same
        with contextlib.suppress(SaveFailedError):
            self.flush()

    def take_change_version(self) -> int | None:
        """The host's version right after the last change made on this thread (then forgotten)."""
        version: int | None = getattr(self._local, "version", None)
        self._local.version = None
        return version

    def _changed(self, change: TableChange) -> None:
        self.version += 1
        self._local.version = self.version
        if change.powers is None:
            self.public_version += 1
        if not self.deferred_saves:
            self.save()
        for listener in list(self._listeners):
            listener(change)
        if self.deferred_saves and self.path is not None and change.kind not in UNSTORED_KINDS:
            self._unpublished.append((self.version, change))
        else:
            self._publish([change])

    def _publish(self, changes: list[TableChange]) -> None:
        for change in changes:
            for listener in list(self._disk_listeners):
                listener(change)

    def _snapshot(self) -> _Snapshot:
        return GameImage.of(self.game, self.table.to_table())

    def _turn_snapshot(self) -> dict[str, Any] | None:
        """The window's hot-seat turn, where the session keeps who has sealed (``serve`` has none:
        its record is in the table)."""
        turn = self.session.hotseat
        if turn is None:
            return None
        return {name: copy.copy(getattr(turn, name))
                for name in ("sealed", "phone_sealed", "part_declared", "current", "stage", "notices")}

    def _restore_turn(self, saved: dict[str, Any] | None) -> None:
        turn = self.session.hotseat
        if turn is None or saved is None:
            return
        for name, value in saved.items():
            setattr(turn, name, value)

    def _restore(self, snap: _Snapshot) -> None:
        """Put the game and the table back as ``snap`` holds them (the same objects: the window
        shares them) and tell everybody to look again."""
        self.service.restore(snap.state, snap.history, snap.orders, snap.draw, TableState.from_table(snap.table))
        self._options_key = self._results_key = None
        self.version += 1
        self.save_failures += 1
        for listener in list(self._listeners):
            listener(TableChange(RESTORED, None))
        self._publish([TableChange(RESTORED, None)])

    def save(self) -> None:
        """Write the game now (under the lock: nothing changes while it is written)."""
        if self.path is None:
            return
        with self._lock:
            snap = self._snapshot()
            try:
                if self.store is not None:
                    self._write_store(self._on_disk, snap, durable=True)
                else:
                    write_atomic(self.path, dumps(self.game, self.table.to_table(), vault=self.vault), mode=SAVE_MODE)
            except (OSError, sqlite3.Error) as exc:
                self.last_save_error = _why(exc)
                raise _save_failed(exc) from exc
            self._saved_version = self._synced_version = self.version
            self._on_disk, self._on_disk_synced = snap, True

    def _write_store(self, before: _Snapshot | None, after: _Snapshot, *, durable: bool,
                     text: str | None = None) -> None:
        """Store mode: the rows that changed, then (a new phase: ``text``) the saved game too."""
        assert self.store is not None and self.path is not None
        self.store.write(before, after, self.game, durable=durable)  # committed: the change is made
        if text is not None:
            try:
                self._write_file_text(text)
            except (OSError, sqlite3.Error) as exc:
                # the live game holds it; the saved game catches up at the next phase or on stop
                self.last_save_error = _why(exc)

    def _write_file_text(self, text: str) -> None:
        assert self.path is not None
        write_atomic(self.path, text, mode=SAVE_MODE)
        if self.file_written is not None:
            self.file_written()  # ``serve``'s lock follows the file's new inode
        if self.store is not None:
            self.store.set_source(file_stamp(self.path))

    def write_file(self) -> str:
        """Store mode: write the saved game from the live game (``serve`` stopping).  The reason
        it could not be written ("no space left"), or "" when it was."""
        if self.store is None or self.path is None:
            return ""
        with self._lock:
            text = dumps(self.game, self.table.to_table(), vault=self.vault)
        try:
            self._write_file_text(text)
        except (OSError, sqlite3.Error) as exc:
            return _why(exc)
        return ""

    def flush(self, *, durable: bool = True, version: int | None = None) -> None:
        """With ``deferred_saves``: make sure every change so far is saved before returning.

        The text is taken under the lock, the slow part (the write and its fsync) is done outside
        it, and one write covers every change made meanwhile: the server answers a request only
        after its change is saved, and seven phones editing at once share the writes.
        ``durable=False`` (order drafts and notes) skips the fsync: the file is replaced
        atomically all the same, so a crash of the host loses nothing; seals, declarations and
        reveals are synced to the disk before they are answered.

        Only then do the ``on_disk`` listeners (the phones) hear of the changes.  A write that
        fails takes back every change not yet written (the game and table become what the file
        holds; everybody hears RESTORED) and raises SaveFailedError; ``version`` (the host's
        version right after the caller's change) raises it too when that change was taken back
        by another request's failed write."""
        if self.path is None:
            return
        with self._save_lock:
            with self._lock:
                self._check_kept(version)
                done = self._synced_version if durable else self._saved_version
                if done >= self.version:
                    self._publish_written(self._saved_version)
                    return
                written = self.version
                snap = self._snapshot()
                before = self._on_disk
                text: str | None = None
                if self.store is None:
                    text = dumps(self.game, self.table.to_table(), vault=self.vault)
                elif before is None or len(before.history) != len(snap.history) or before.state is not snap.state:
                    text = dumps(self.game, self.table.to_table(), vault=self.vault)  # a new phase: the saved game is written too
                    durable = True
            try:
                if self.store is not None:
                    self._write_store(before, snap, durable=durable, text=text)
                else:
                    assert text is not None
                    write_atomic(self.path, text, mode=SAVE_MODE, sync=durable)
            except (OSError, sqlite3.Error) as exc:
                with self._lock:
                    self.last_save_error = _why(exc)
                    self._lost.append((self._saved_version, self.version))
                    self._unpublished = [(v, c) for v, c in self._unpublished if v > self.version]
                    if self._on_disk is not None:
                        self._restore(self._on_disk)
                    self._saved_version = self.version
                    if self._on_disk_synced:
                        self._synced_version = self.version
                raise _save_failed(exc) from exc
            with self._lock:
                self._saved_version = max(self._saved_version, written)
                if durable:
                    self._synced_version = max(self._synced_version, written)
                self._on_disk, self._on_disk_synced = snap, durable
                self._publish_written(written)

    def _check_kept(self, version: int | None) -> None:
        if version is not None and any(lo < version <= hi for lo, hi in self._lost):
            why = self.last_save_error or "the disk refused it"
            raise SaveFailedError(f"not saved, so not done: the game could not be written ({why}); try again, or "
                                  "tell the host", why)

    def _publish_written(self, written: int) -> None:
        ready = [c for v, c in self._unpublished if v <= written]
        self._unpublished = [(v, c) for v, c in self._unpublished if v > written]
        self._publish(ready)

    @property
    def unsaved(self) -> bool:
        """Whether changes are waiting to be written (a failed write leaves none: they were taken back)."""
        with self._lock:
            return self.path is not None and self._saved_version < self.version

    # -- the table -----------------------------------------------------------------------------------

    @property
    def _phones(self) -> PhonesPart:
        """The phones' part of the table, to read (the service changes it: table/phonebook.py)."""
        return self.table.phones if self.table.phones is not None else PhonesPart()

    @property
    def phase(self) -> str:
        return self.game.state.phase.short

    def _sync_phase(self) -> None:
        """A new phase: nobody has sealed or declared yet."""
        self.session.begin_phase(self.phase)

    @property
    def sealed(self) -> list[str]:
        return self.session.sealed

    @property
    def notes_allowed(self) -> bool:
        return bool(self.table.notes_allowed)

    def token_of(self, power: str) -> str:
        with self._lock:
            return phonebook.tokens(self._phones)[power]

    def player_of(self, power: str) -> str:
        return self.table.player_of(power) or ""

    def _devices(self) -> dict[str, PhoneDevice]:
        """The devices that joined by PIN and are not cut off (``PhonesPart.devices``); a damaged
        entry is no device."""
        return phonebook.devices(self._phones, self.game.board.power_ids)

    def devices(self) -> list[tuple[str, str]]:
        """(device, power) of every device that joined by PIN, in the order they joined."""
        with self._lock:
            return [(d, e.power) for d, e in self._devices().items()]

    def _token_owner(self, token: str) -> str | None:
        """The power whose link or device ``token`` is (None: neither)."""
        own = None
        for power, known in phonebook.tokens(self._phones).items():
            if secrets.compare_digest(known.encode(), token.encode("utf-8", "replace")):
                own = power
        return own if own is not None else self._joined_by(token)

    def _joined_by(self, token: str) -> str | None:
        """The power a device joined by PIN, when ``token`` is that device's (None: a link's)."""
        digest = token_digest(token).encode()
        own = None
        for entry in self._devices().values():
            if secrets.compare_digest(entry.hash.encode(), digest):
                own = entry.power
        return own

    def powers_of(self, token: str) -> tuple[str, ...]:
        """The powers a token covers: its own, and every other power of the same player."""
        with self._lock:
            own = self._token_owner(token)
            if own is None:
                raise UnknownTokenError("this link is not (or no longer) valid for this game: ask the host")
            computer = computer_seats(self.table, self.game.board.power_ids)
            if own in computer:
                raise ComputerSeatError(f"{self.game.board.power(own).name} is played by the computer: no phone "
                                        "plays it, and its orders stay sealed until the reveal")
            player = self.player_of(own)
            if not player:
                return (own,)
            return tuple(p for p in self.game.board.power_ids
                         if (p == own or self.player_of(p) == player) and p not in computer)

    def _mine(self, token: str, power: str) -> tuple[str, ...]:
        powers = self.powers_of(token)
        if power not in powers:
            raise NotYoursError("you do not play that power")
        return powers

    def _check_phase(self, phase: str) -> None:
        if phase != self.phase:
            raise StaleRequestError(f"that was written for {phase_label(phase)}; the game is now at "
                                    f"{self.game.state.phase.label}")

    # -- stages ----------------------------------------------------------------------------------

    @property
    def stage(self) -> str:
        return self.service.stage

    def owing(self) -> list[str]:
        """The powers that must act before the reveal: write declarations, or seal orders."""
        return self.service.owing()

    def _skip_empty_phases(self) -> None:
        """Adjudicate straight away the phases where nobody has anything to order."""
        self.service.skip_empty_phases(initiator=HOST)

    # -- what a phone sees ----------------------------------------------------------------------------

    def public_state(self) -> dict[str, Any]:
        """What everybody at the table may see: the board, who has sealed (never what), the
        revealed declarations and the last results."""
        with self._lock:
            game, state = self.game, self.game.state
            board = game.board
            ended = game.ended
            out: dict[str, Any] = {
                "version": self.public_version,
                "boot": self._boot,
                "phase": {"short": self.phase, "label": state.phase.label, "kind": state.phase.kind,
                          "year": state.phase.year, "season": state.phase.season},
                "stage": self.stage,
                "over": ended.text if ended is not None else None,
                "formal": game.formal,
                "notes_allowed": self.notes_allowed,
                "powers": [{"id": p, "name": board.power(p).name, "adjective": board.power(p).adjective,
                            "player": self.player_of(p), "centres": len(state.centres_of(p)),
                            "units": len(state.units_of(p))} for p in board.power_ids],
                "units": [_unit_dict(u.power, u.kind, u.location) for u in state.units.values()],
                "dislodged": [{**_unit_dict(d.unit.power, d.unit.kind, d.unit.location),
                               "attacker_from": d.attacker_from} for d in state.dislodged],
                "owners": dict(state.owners),
                "owing": self.owing(),
                "sealed": self.sealed,
                # the computer's seats, with its level (issue 33): the phones' strip marks them
                "computer": computer_seats(self.table, board.power_ids),
                "declared": self.session.declared,
                "relations": ([{"powers": [a, b], "relation": r} for a, b, r in state.relations.as_list()]
                              if state.relations is not None else None),
                "results": self._last_results(),
                "results_count": len(adjudicated_entries(game)),
                "seal_codes": self._revealed_codes(),
                "clock": self.clock_view(),
                # the table plays on its own board: the phones show no map (orders are typed)
                "map_hidden": bool(self.table.hide_map),
            }
            return out

    def _revealed_codes(self) -> dict[str, Any] | None:
        """The last revealed phase's seal codes, recomputed from its revealed orders (never the
        ones stored at sealing), and the alarm when any differs from the code given then."""
        verdict = self._verdict()
        if verdict is None:
            return None
        return {"phase": verdict.phase, "codes": verdict.codes, "alarm": verdict.alarm(lambda p: self.game.board.power(p).name)}

    def _verdict(self) -> sealcodes.Verdict | None:
        phase, _ = sealcodes.revealed_codes(self.table)
        if not phase:
            return None
        entry = next((h for h in reversed(self.game.history) if h.state.phase.short == phase), None)
        orders = entry.orders if entry is not None else self.game.all_orders()
        return sealcodes.revealed_verdict(self.table, phase, sealcodes.orders_by_power(orders))

    def state_for(self, token: str) -> dict[str, Any]:
        """The public state and the private part for the token's powers: their orders, seals,
        declarations, PIN needs and notes."""
        with self._lock:
            powers = self.powers_of(token)
            out = self.public_state()
            out["me"] = {"player": self.player_of(powers[0]), "powers": list(powers)}
            joined = self._joined_by(token)
            # the phones that joined a power besides the one asking (its own join is not a stranger's)
            out["mine"] = {p: self._private(p, own_join=p == joined) for p in powers}
            out["notes"] = self._notes_for(powers)
            return out

    def _private(self, power: str, *, own_join: bool = False) -> dict[str, Any]:
        state = self.game.state
        filed = self.game.orders.get(power, {})
        orders = []
        for key, o in filed.items():
            try:
                check_order(state, o)
                problem = ""
            except OrderError as exc:
                problem = str(exc)
            orders.append({"key": key, "text": format_order(o), "province": o.province if isinstance(o, UnitOrder)
                           else None, "legal": not problem, "problem": problem, "order": _option_dict(o)["order"]})
        kind = state.phase.kind
        if kind == MOVEMENT:
            to_order = [u.province for u in state.units_of(power)]
        elif kind == RETREAT:
            to_order = [d.province for d in state.dislodged if d.unit.power == power]
        else:
            to_order = [u.province for u in state.units_of(power)] if state.adjustment_delta(power) < 0 else []
        needed = orders_needed(state, power)
        if kind == ADJUSTMENT:
            given = len(filed)
            unordered: list[str] = []
            missing = max(0, needed - given)
        else:
            unordered = [p for p in to_order if p not in filed]
            missing = len(unordered)
        return {
            "orders": orders,
            "needed": needed,
            "unordered": unordered,
            "missing": missing,
            "adjustment": state.adjustment_delta(power) if kind == ADJUSTMENT else 0,
            "sealed": self.session.is_sealed(power),
            # "Waive one" is the service's offer (never worked out by the page from its options,
            # which may not have come yet after a phase change or a fresh load)
            "can_waive": self.service.can_waive(power),
            "pin": self._pin_hash(power) is not None,
            "declarations": (self.table.declarations.of(power) if self.table.declarations is not None
                             else None) or {},
            "declared": power in self.session.declared,
            "seal_code": sealcodes.code_of(self.table, power, self.phase) if self.session.is_sealed(power) else None,
            # how many devices joined or opened this power's link beyond the first and besides the
            # device asking (``own_join``: it joined this power by PIN): a stranger's is seen
            "phones_joined": max(0, phonebook.joins(self._phones, power) - own_join),
        }

    def options_for(self, token: str) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """The engine's legal options for every unit (and build) of the token's powers."""
        with self._lock:
            powers = self.powers_of(token)
            if self.stage != STAGE_ORDERS:
                return {p: {} for p in powers}
            options = self._all_options()
            return {p: {key: [_option_dict(o) for o in opts] for key, opts in options.get(p, {}).items()}
                    for p in powers}

    def _all_options(self) -> dict[str, dict[str, list[Order]]]:
        state = self.game.state
        key = (len(self.game.history), state.phase.short, state.relations)
        if key != self._options_key:
            self._options = all_options(state)
            self._options_key = key
        return self._options

    def _last_results(self) -> dict[str, Any] | None:
        history = self.game.history
        if self._results_key == len(history):
            return self._results
        found = None
        for entry in reversed(history):
            if entry.results:
                names = format_order
                by_province = results_by_province(entry.results)
                items = []
                for r in entry.results:
                    text = names(r.order)
                    e = explain(r, entry.state, by_province)
                    items.append({"power": r.order.power, "order": text, "verdict": e.verdict, "reason": e.reason,
                                  "explanation": e.text(text), "success": r.outcome.value == "success",
                                  "province": r.order.province if isinstance(r.order, UnitOrder) else None})
                found = {"phase": entry.state.phase.short, "label": entry.state.phase.label, "items": items,
                         # the piece pusher's list (table/pieces.py): what to move on a physical board
                         "pieces": plan_entry(entry).as_dict(self.game.board)}
                break
        self._results_key, self._results = len(history), found
        return found

    def _notes_for(self, powers: Iterable[str]) -> list[dict[str, Any]]:
        """The notes a reader may see, numbered for that reader (1, 2, ...): a game-wide number
        would tell how many notes the others exchanged."""
        seen = notes_for(self.table, powers)  # (the laptop's reader reads the same notes)
        return [{**n.to_dict(), "id": i, "phase_label": phase_label(n.phase or "")} for i, n in enumerate(seen, 1)]

    # -- orders ----------------------------------------------------------------------------------

    def _check_can_order(self, power: str) -> None:
        refusal = self.service.order_refusal(power)
        if refusal is not None:
            raise RefusedError(refusal)

    def _check_room(self, power: str, order: Order) -> None:
        """Builds, waives and removals: no more than the power owes (the game's own rule)."""
        try:
            self.game.check_room(order)
        except OrderError as exc:
            raise RefusedError(str(exc)) from None

    @_all_or_nothing
    def set_order_text(self, token: str, power: str, phase: str, text: str, *,
                       replace: bool = False) -> dict[str, Any]:
        """A typed order, read by the same parser (and refused with the same messages) as the
        window's order box.  An order that reads but is illegal is kept as written (the unit will
        hold), as the window does; but it does not replace a legal order of the same unit unless
        ``replace`` (the phone asks first: the answer is then ``{"given": False,
        "needs_confirmation": True, "message"}`` and nothing changes).  Returns {"message",
        "power", "order", "kept_illegal", "key", "replaced"} (``replaced``: the order it took the
        place of, for an undo)."""
        with self._lock:
            powers = self._mine(token, power)
            self._check_phase(phase)
            text = text.strip()
            if not text:
                raise HostError("write an order")
            if len(text) > MAX_ORDER_TEXT:
                raise HostError(f"an order is at most {MAX_ORDER_TEXT} characters")
            board = self.game.board

            def refusal(owner: str, written: Order) -> str | None:
                if owner in powers:
                    return None
                unit = (f"{written.unit_kind or ''} {location_label(written.location)}".strip()
                        if isinstance(written, UnitOrder) else text)
                return f"{unit} is {board.power(owner).adjective}: not one of your units"

            try:
                typed = read_typed_order(text, power, self.game.state, refusal)
            except OrderError as exc:
                raise RefusedError(refusal_message(text, exc)) from None
            self._check_can_order(typed.power)
            self._check_room(typed.power, typed.order)
            before = self._filed_before(typed.order)
            if typed.illegal and before is not None and before[1] and not replace:
                return {"given": False, "needs_confirmation": True, "power": typed.power,
                        "order": _safe_text(typed.order), "problem": typed.illegal,
                        "message": f"“{_safe_text(typed.order)}” is illegal ({typed.illegal}): replace the legal "
                                   f"order {format_order(before[0])} with it? The unit would hold."}
            try:
                filed, _ = self.service.give_order(typed.order, initiator=PHONE, allow_illegal=bool(typed.illegal),
                                                   checked=True)
            except OrderError as exc:
                raise RefusedError(refusal_message(text, exc)) from None
            return {"message": typed.message(power, board), "power": typed.power, "order": format_order(filed),
                    "kept_illegal": bool(typed.illegal), "given": True, "key": self._key_of(filed),
                    "replaced": order_view(*before) if before is not None else None}

    @_all_or_nothing
    def set_order(self, token: str, power: str, phase: str, order: Mapping[str, Any]) -> dict[str, Any]:
        """An order chosen by tapping: one of the legal options the server offered (as
        ``order_to_dict`` writes it).  Anything else is refused."""
        with self._lock:
            self._mine(token, power)
            self._check_phase(phase)
            if not isinstance(order, Mapping):
                raise HostError("an order is an object")
            data = {str(k): v for k, v in order.items() if k != "power"}
            if not all(v is None or isinstance(v, (str, bool)) for v in data.values()) or "kind" not in data:
                raise HostError("not an order: its fields are words")
            try:
                parsed = order_from_dict({**data, "power": power})
            except (SaveFileError, TypeError, ValueError, KeyError) as exc:
                raise HostError(f"not an order: {exc}") from None
            self._check_can_order(power)
            legal = {o for opts in self._all_options().get(power, {}).values() for o in opts}
            if parsed not in legal:
                try:
                    check_order(self.game.state, parsed)
                    reason = "it is not one of the orders offered"
                except (OrderError, TypeError, ValueError, KeyError, AttributeError) as exc:
                    reason = str(exc) or "illegal order"
                raise RefusedError(f"“{_safe_text(parsed)}” not accepted: {reason}")
            self._check_room(power, parsed)
            before = self._filed_before(parsed)
            filed, _ = self.service.give_order(parsed, initiator=PHONE, checked=True)
            return {"message": f"Given: {format_order(filed)}", "power": power, "order": format_order(filed),
                    "kept_illegal": False, "given": True, "key": self._key_of(filed),
                    "replaced": order_view(*before) if before is not None else None}

    def _filed_before(self, order: Order) -> tuple[Order, bool] | None:
        """The order ``order`` would replace (and whether it is legal now), if any."""
        if not isinstance(order, UnitOrder):
            return None
        old = self.game.order_for(order.power, order.province)
        if old is None:
            return None
        try:
            check_order(self.game.state, old)
            return old, True
        except OrderError:
            return old, False

    def _key_of(self, order: Order) -> str:
        for key, o in self.game.orders.get(order.power, {}).items():
            if o is order:
                return str(key)
        return order.province if isinstance(order, UnitOrder) else ""

    # -- results, names -----------------------------------------------------------------------------

    def results_at(self, index: int | None) -> dict[str, Any] | None:
        """The ``index``-th adjudicated phase as the phones draw it (public: it was revealed);
        ``None``: the latest.  HostError for a phase that does not exist."""
        with self._lock:
            try:
                return phase_picture(self.game, index)
            except IndexError as exc:
                raise HostError(str(exc)) from None

    def board_names(self) -> dict[str, Any]:
        """Every space's full name and every power's name (the phone's prompts use them)."""
        board = self.game.board
        return {"spaces": {s.id: s.name for s in board.spaces.values()},
                "powers": {p: board.power(p).name for p in board.power_ids}}

    @_all_or_nothing
    def clear_order(self, token: str, power: str, phase: str, key: str) -> dict[str, Any]:
        with self._lock:
            self._mine(token, power)
            self._check_phase(phase)
            self._check_can_order(power)
            gone, _ = self.service.clear_order(power, str(key), initiator=PHONE)
            if gone is None:
                raise RefusedError("there is no such order (already cleared?)")
            return {"message": f"Cleared: {format_order(gone)}", "power": power}

    # -- seals -----------------------------------------------------------------------------------

    def _pin_hash(self, power: str) -> str | None:
        return self.service.pin_hash(power)

    def _check_pin(self, power: str, pin: str | None) -> None:
        """The power's PIN, through the service's one failure counter (written at once)."""
        self.service.check_pin(power, pin, initiator=PHONE)

    def set_pin(self, power: str, pin: str) -> None:
        """The host gives ``power`` (and its player's other powers) a new PIN (a host action:
        the caller checked the host PIN), or a player changes their own: a common PIN, or the
        host PIN, is refused.  A phone that was cut off may join with the new PIN."""
        with self._lock:
            if power not in self.game.board.power_ids:
                raise HostError(f"there is no power {power!r}")
            problem = pin_problem(pin, host_pin_hash=self.table.host_pin)
            if problem:
                raise HostError(problem)
            self.service.change_pin(self._players_powers(power), pin, initiator=HOST)  # the laptop's door too

    def _serial(self, fn: Callable[..., _R], *args: Any) -> _R:
        """Run ``fn`` where the game may be touched: here (``serve``'s host takes its own lock in
        each step); the window's host runs it on the GUI thread.  The slow PIN hashes between
        such steps run on the caller's thread, never inside one."""
        return fn(*args)

    def _pin_outside_lock(self, token: str, power: str, pin: str | None) -> tuple[str, bool] | None:
        """A phone's PIN for sealing or unsealing, compared with the stored hash outside the
        table's lock (and off the window's GUI thread), through the process's one ``HASH_GATE``
        (issue 31, red team: a phone looping seal/unseal with its right PIN held the lock for a
        slow hash each time and stalled every other phone).  None when there is nothing to
        compare (the locked call then decides, and a power that must wait is refused there
        without a hash); the result is counted there, under the lock, by the power's one failure
        counter.  One check at a time per power, and the gate hands its slot to the power served
        longest ago (red team, second pass: the phone's own loop, asking again the moment its
        hash ended, took the slot back before another power's waiting check)."""
        stored = self._serial(self._pin_begin, token, power, pin)
        if stored is None:
            return None
        try:
            try:
                return stored, self.hash_gate.matches(stored, pin or "", key=power)
            except PinWaitError as exc:
                raise TooManyAttemptsError(str(exc), exc.retry_after) from None
        finally:
            self._serial(self._pin_end, power)

    def _pin_begin(self, token: str, power: str, pin: str | None) -> str | None:
        with self._lock:
            try:
                self._mine(token, power)
            except HostError:
                return None
            stored = self._pin_hash(power)
            if stored is None or not isinstance(pin, str) or not pin or self.service.pin_guard.wait(power) > 0:
                return None
            if power in self._pins_checking:
                raise TooManyAttemptsError("one PIN at a time for this power: try again in a second", 1.0)
            self._pins_checking.add(power)
            return stored

    def _pin_end(self, power: str) -> None:
        with self._lock:
            self._pins_checking.discard(power)

    def seal(self, token: str, power: str, phase: str, pin: str | None = None) -> dict[str, Any]:
        """Seal ``power``'s orders (with its PIN if it has one).  Sealing twice is harmless.
        When the last power that owes orders seals, the phase is revealed and adjudicated."""
        checked = self._pin_outside_lock(token, power, pin)
        return self._serial(self._seal, token, power, phase, pin, checked)

    @_all_or_nothing
    def _seal(self, token: str, power: str, phase: str, pin: str | None,
              checked: tuple[str, bool] | None) -> dict[str, Any]:
        with self._lock:
            self._mine(token, power)
            self._check_phase(phase)
            change = self.service.seal(power, initiator=PHONE, pin=pin, then_reveal=self.auto_reveal,
                                       pin_checked=checked)
            if change is None:
                return {"message": "already sealed", "revealed": False,
                        "seal_code": sealcodes.code_of(self.table, power, self.phase)}
            revealed = change.kind == "phase"
            verdict = self._verdict() if revealed else None
            code = sealcodes.code_of(self.table, power, phase) if not revealed else \
                (verdict.codes.get(power) if verdict is not None else None)
            return {"message": "revealed and adjudicated" if revealed else "sealed", "revealed": revealed,
                    "seal_code": code}

    def unseal(self, token: str, power: str, phase: str, pin: str | None = None) -> dict[str, Any]:
        sealed = self._serial(lambda: power in self.sealed)
        checked = self._pin_outside_lock(token, power, pin) if sealed else None
        return self._serial(self._unseal, token, power, phase, pin, checked)

    @_all_or_nothing
    def _unseal(self, token: str, power: str, phase: str, pin: str | None,
                checked: tuple[str, bool] | None) -> dict[str, Any]:
        with self._lock:
            self._mine(token, power)
            self._check_phase(phase)
            if self.service.unseal(power, initiator=PHONE, pin=pin, pin_checked=checked) is None:
                return {"message": "not sealed"}
            return {"message": "unsealed"}

    def force_adjudicate(self, phase: str | None = None) -> None:
        """The host's reveal (``serve``'s ``reveal``).  Bare: only when every power owing orders
        has sealed (RefusedError names who has not and the phase to type); ``phase`` (S1901M)
        forces it, for that phase only (StaleRequestError when it has already ended)."""
        self._force_adjudicate(phase)
        self.flush()

    @_all_or_nothing
    def _force_adjudicate(self, phase: str | None) -> None:
        self.service.reveal(phase, initiator=HOST, skip_empty=self.auto_reveal)

    def undo_adjudication(self) -> str:
        """The host takes back the last adjudication (``serve``'s ``undo``): the label of the
        phase that is back, its orders as they were and nobody sealed."""
        label = self._undo_adjudication()
        self.flush()
        return label

    @_all_or_nothing
    def _undo_adjudication(self) -> str:
        entry, _ = self.service.undo_adjudication(initiator=HOST, skip_empty=self.auto_reveal)
        if entry is None:
            raise RefusedError("nothing has been adjudicated yet")
        return self.game.state.phase.label

    # -- the window's side (``auto_reveal=False``) ------------------------------------------------

    def phase_moved(self) -> None:
        """The window adjudicated (or took an adjudication back): a new phase, nobody sealed."""
        with self._lock:
            self._sync_phase()
            self._changed(TableChange("phase", None, LAPTOP))

    def seals_moved(self) -> None:
        """The laptop changed who has sealed or declared (in the shared ``session``): the phones
        are told (the record itself is the session's; nothing is copied here)."""
        with self._lock:
            self._sync_phase()
            self._changed(TableChange("seal", None, LAPTOP))

    def declarations_done(self, revealed: Mapping[str, Mapping[str, str]]) -> None:
        """The window revealed this phase's declarations (and applied them, through the table
        service, which recorded the reveal): the phones are told orders are open."""
        with self._lock:
            self._sync_phase()
            self._changed(TableChange("declarations", None, LAPTOP))

    # -- Formal Diplomacy --------------------------------------------------------------------------------

    @_all_or_nothing
    def declare(self, token: str, power: str, phase: str, declarations: Mapping[str, Any]) -> dict[str, Any]:
        """``power``'s declarations for this phase ({other power: alliance | neutral | war}); a
        power left out keeps its present standing.  Secret until every surviving power has
        declared; may be rewritten until then."""
        with self._lock:
            self._mine(token, power)
            self._check_phase(phase)
            if self.stage != STAGE_DECLARATIONS:
                raise RefusedError("declarations are made only before the orders of a movement phase, in "
                                   "a game of Formal Diplomacy")
            if power not in self.owing():
                raise RefusedError(f"{self.game.board.power(power).name} has no pieces left to declare for")
            if not isinstance(declarations, Mapping):
                raise HostError("declarations are an object of power: relation")
            said: dict[str, str] = {}
            for other, word in declarations.items():
                if other not in self.game.board.power_ids or other == power:
                    raise HostError(f"there is no other power {str(other)[:40]!r} in this game")
                try:
                    said[str(other)] = relation_word(str(word))
                except ValueError as exc:
                    raise HostError(str(exc)) from None
            change = self.service.write_declarations(power, said, initiator=PHONE, then_reveal=self.auto_reveal)
            revealed = change.kind == "declarations"
            return {"message": "revealed" if revealed else "declared", "revealed": revealed}

    # -- notes -----------------------------------------------------------------------------------

    @_all_or_nothing
    def send_note(self, token: str, power: str, to: Iterable[Any], text: str) -> dict[str, Any]:
        with self._lock:
            self._mine(token, power)
            if not self.notes_allowed:
                raise RefusedError("this table does not allow written notes")
            if not isinstance(text, str) or not text.strip():
                raise HostError("write the note")
            text = text.strip()
            if len(text) > MAX_NOTE_TEXT:
                raise HostError(f"a note is at most {MAX_NOTE_TEXT} characters")
            recipients = sorted({str(p) for p in to})
            if not recipients or any(p not in self.game.board.power_ids or p == power for p in recipients):
                raise HostError("send a note to one or more other powers")
            notes = self.table.notes
            if notes is not None and len(notes.items) >= MAX_NOTES:
                raise RefusedError("this game has as many notes as it can keep")
            now = self._now()
            recent = [t for t in self._note_times.get(power, []) if now - t < NOTE_WINDOW]
            if len(recent) >= NOTE_BURST:
                wait = NOTE_WINDOW - (now - recent[0])
                raise TooManyAttemptsError(f"at most {NOTE_BURST} notes a minute: wait {int(wait) + 1} s", wait)
            try:  # the table service's rule, the laptop's too; the phones it reaches hear of it
                note, _change = self.service.send_note(power, recipients, text, initiator=PHONE)
            except NoteError as exc:
                raise RefusedError(str(exc)) from None
            recent.append(now)
            self._note_times[power] = recent
            mine = self._notes_for(self._players_powers(power))
            return {"message": "sent", "note": mine[-1] if mine else note.to_dict()}

    # -- the clock -----------------------------------------------------------------------------------

    def set_clock(self, title: str, seconds: float | None, *, running: bool = True) -> None:
        """Show a clock on every phone (the window's negotiation clock, or ``serve``'s): ``title``
        ("Negotiation"), ``seconds`` left (``None``: no clock), ``running`` or paused.  The phones
        count down by themselves between two calls."""
        with self._lock:
            if seconds is None:
                self._clock = None
                self.service.keep_phone_clock(None)
            else:
                self._clock = {"title": str(title)[:80], "remaining": max(0.0, float(seconds)),
                               "running": bool(running), "since": self._now()}
                self.service.keep_phone_clock(PhoneClockPart(
                    title=self._clock["title"], remaining=self._clock["remaining"], running=self._clock["running"],
                    at=self._wall()))
            self._changed(TableChange("clock", None))

    def restore_clock(self) -> bool:
        """The clock the table had when this host (``serve``) last stopped, counted down by the
        time it was away: the phones show it again after a restart.  True if there was one."""
        with self._lock:
            phone_clock = phonebook.saved_clock(self._phones)
            if phone_clock is None:
                return False
            remaining, running, title = phone_clock.remaining, phone_clock.running, phone_clock.title
            if remaining is None or running is None or title is None:
                return False  # damaged: a value of the wrong type reads as absent
            left = float(remaining)
            if running:
                if phone_clock.at is None:
                    return False
                left -= max(0.0, self._wall() - float(phone_clock.at))
            self.set_clock(title, max(0.0, left), running=running and left > 0)
            return True

    def pause_clock(self, running: bool) -> None:
        """Pause (``running=False``) or restart the clock where it stands."""
        with self._lock:
            view = self.clock_view()
            if view is not None:
                self.set_clock(view["title"], view["remaining"], running=running)

    def clock_view(self) -> dict[str, Any] | None:
        with self._lock:
            c = self._clock
            if c is None:
                return None
            left = c["remaining"] - (self._now() - c["since"] if c["running"] else 0.0)
            left = max(0.0, left)
            return {"title": c["title"], "remaining": round(left, 1), "running": c["running"] and left > 0,
                    "expired": left <= 0}

    # -- the host's own actions --------------------------------------------------------------------------

    def kick(self, power: str) -> str:
        """Cut off the phone(s) of ``power``'s player: new tokens for all the player's powers
        (the old links answer 404).  Returns the power's new token."""
        new = self._kick(power)
        self.flush()
        return new

    @_all_or_nothing
    def _kick(self, power: str) -> str:
        if power not in self.game.board.power_ids:
            raise HostError(f"there is no power {power!r}")
        token, _ = self.service.kick_phones(power, initiator=HOST)
        return token

    def kick_device(self, device: str) -> str:
        """Cut off one device that joined by PIN (``devices``): its token stops working at once,
        the power's other devices and its link go on, and the PIN it knew no longer joins until
        the host gives a new one.  Returns the device's power."""
        power = self._kick_device(device)
        self.flush()
        return power

    @_all_or_nothing
    def _kick_device(self, device: str) -> str:
        if device not in self._devices():
            raise HostError(f"there is no device {device!r} (devices: {', '.join(self._devices()) or 'none'})")
        return self.service.kick_device(device, initiator=HOST)

    def last_device(self, power: str) -> str | None:
        """The device that joined ``power`` last (the host's terminal names it)."""
        with self._lock:
            mine = [d for d, e in self._devices().items() if e.power == power]
            return mine[-1] if mine else None

    def join(self, power: str, pin: str, client: str = "") -> str:
        """The table URL plus a power's PIN: a token of its own for this device (only for a
        power with a PIN; the host may cut that device off alone: ``kick_device``).  Wrong PINs count per *client* (``client``: the phone's address),
        not per power, so a stranger's guesses never lock the real player out; the whole table
        takes at most ``JOINS_PER_MINUTE`` joins a minute besides, and the slow hash runs outside
        the table's lock through the process's one ``HASH_GATE`` (issue 31: guesses from many
        addresses neither stall the other phones nor guess faster than that).  A power whose
        phone the host cut off joins again only once its PIN has been changed.  Every new phone
        on a power's link is counted in ``phones.joins`` and announced to that power."""
        stored, name = self._serial(self._join_begin, power, client)
        try:
            try:
                ok = isinstance(pin, str) and self.hash_gate.matches(stored, pin, key="join")
            except PinWaitError as exc:
                raise TooManyAttemptsError(str(exc), exc.retry_after) from None
            return self._serial(self._join_end, power, client, stored, name, ok)
        finally:
            self._serial(self._join_finish, client)

    def _join_finish(self, client: str) -> None:
        with self._lock:
            self.join_guard.end(client)

    def _join_begin(self, power: str, client: str) -> tuple[str, str]:
        with self._lock:
            if power not in self.game.board.power_ids:
                raise HostError("choose your power")
            stored = self._pin_hash(power)
            name = self.game.board.power(power).name
            if stored is None:
                raise RefusedError(f"{name} has no PIN: scan its code on the laptop")
            try:
                self.join_guard.begin(client)
            except PinWaitError as exc:
                raise TooManyAttemptsError(str(exc), exc.retry_after) from None
            try:
                self.join_rate.take()
            except PinWaitError as exc:
                self.join_guard.end(client)
                raise TooManyAttemptsError(str(exc), exc.retry_after) from None
            return stored, name

    def _join_end(self, power: str, client: str, stored: str, name: str, ok: bool) -> str:
        with self._lock:
            if not ok:
                self.join_guard.failed(client)
                raise PinError(f"wrong PIN for {name}")
            if self._pin_hash(power) == stored:  # (not changed while it was checked)
                self.join_guard.succeeded(client)
            try:
                _device, token = self.service.join_device(power, stored, initiator=PHONE)
            except TableRefusal as exc:
                raise RefusedError(str(exc)) from None
            self._seen_clients.setdefault(token, set()).add(client)  # its socket is this join's
            return token

    def phone_seen(self, token: str, client: str) -> None:
        """A phone opened a power's link (its WebSocket said hello) from ``client`` (its address):
        a device not seen before on that link is announced to the table and counted on the
        power's phone, so a link carried away is noticed."""
        with self._lock:
            powers = self.powers_of(token)
            seen = self._seen_clients.setdefault(token, set())
            if client in seen:
                return
            seen.add(client)
            if len(seen) == 1 and not phonebook.joins(self._phones, powers[0]):
                return  # the first phone of a link is the player's own
            self.service.phone_joined(powers[0], initiator=PHONE)

    def _players_powers(self, power: str) -> tuple[str, ...]:
        player = self.player_of(power)
        if not player:
            return (power,)
        return tuple(p for p in self.game.board.power_ids if p == power or self.player_of(p) == player)

    def join_links(self, base: str) -> list[tuple[str, str, str]]:
        """(power, player, join URL) for every power; ``base`` is ``http://ADDR:PORT``."""
        with self._lock:
            links = phonebook.tokens(self._phones)
            return [(p, self.player_of(p), f"{base}/t/{links[p]}") for p in self.game.board.power_ids]


def _unit_dict(power: str, kind: str, location: str) -> dict[str, str]:
    return {"power": power, "type": kind, "location": location, "label": location_label(location)}


def _option_dict(o: Order) -> dict[str, Any]:
    d = order_to_dict(o)
    d.pop("power", None)
    return {"text": format_order(o), "order": d}


def _safe_text(order: Order) -> str:
    try:
        return format_order(order)
    except (TypeError, ValueError, AttributeError, KeyError):
        return "that order"

