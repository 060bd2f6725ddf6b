"""The live game in SQLite: one database per game, written by small transactions.

``serve g.dipl`` keeps the game it hosts in ``.g.dipl.live.sqlite`` beside the file (Python's
``sqlite3``, WAL journal).  The saved game ``g.dipl`` stays the file people open, share and
import: it is read into the database when hosting starts (checked once, against the schema and
the board), and written from it at every new phase and when hosting stops.  In between, a
change writes only what it changed:

* ``phases``: one row per adjudicated phase (the saved game's history record), appended when a
  phase is adjudicated, never rewritten;
* ``current``: the position being played (one row);
* ``orders``: one row per filed order of the phase being played: an order edit writes one row;
* ``meta``: the game's settings and the table (who sealed, tokens, notes), as JSON.

Seals, declarations and reveals are committed with ``synchronous=FULL`` (on the disk before the
phone hears of them); order drafts and notes with ``synchronous=NORMAL`` (a crash of the host
loses nothing, a power cut may lose the last drafts), as the JSON file's writes did.  A failed
write (a full disk) rolls its transaction back whole.  There are no temporary files.

A secret game (a passphrase, ``io.vault``) is stored the same way with its secret rows encrypted
under the game key (AES-GCM, ``Vault.seal_record``): each order of the phase being played is one
sealed row named by an HMAC of its power and unit (``Vault.row_name``: the name tells nobody which
unit it is), and the table's secret part (notes, declarations, seal codes, the phones' tokens) is
one sealed row beside the public one; the wrapped game key is in ``meta``.  Nothing in the
database file names an unrevealed order, a note or a token in the clear (deleted rows are
zeroed: ``secure_delete``).  Opening it takes the passphrase, as the saved game does.

**Authenticated at rest** (issue 31, finding 1): a secret game's store also keeps, in ``meta``'s
``mac`` row, a digest (SHA-256) of every other row — the public table (PIN hashes, the host PIN,
who sealed, the failure counters, the hot-seat turn), the position (the phase), every adjudicated
phase, every order row, the settings — and an HMAC-SHA256 of that list under a key derived from
the game key (``Vault.mac``); the adjudicated phases' digests are listed in a row of their own
(``phase_digests``, rewritten only when a phase is added or taken back) whose digest is in the
MAC's list, so an order's write stays small however long the game.  Each write updates the
digests of the rows it wrote and the HMAC, in the same transaction.  Opening with the key checks all of it before anything is used: a row
edited, put back from an earlier copy, added or removed outside the app is refused
(``StoreTamperedError``, naming the records that differ).  The encrypted rows are written in
format 2 (``Vault.seal_record``: the format and, for an order, the phase in the associated data;
padded to a fixed size), so removing the ``mac`` row to pass the store off as an earlier
version's is refused too.  An earlier version's store (no ``mac``, format-1 rows) opens
unauthenticated (``unauthenticated``) and is written whole, authenticated, at its next write.
An order's row is named per phase and unit (an HMAC: the same unit's row has another name in
the next phase), and gets a random rowid: the table's order tells nothing of which was written
last.  What is still seen: how many order rows there are.

Opening the database does not check the schema or the names again (that was done when the file
was read in): it rebuilds each phase from its stored record, so a long game opens in a fraction
of the time a saved game takes.  The database remembers which state of ``g.dipl`` it was read
from or last wrote (size and modification time): if the file was changed since (replaced by
another game), the file wins and is read in again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..engine.game import BY_CENTRES, Game, HistoryEntry
from ..engine.orders import Order
from ..engine.rules import RuleSet
from ..engine.state import GameState, Phase
from ..engine.turns import adjudicate_phase
from .boardfile import load_board
from .savefile import (FORMAT, VERSION, SavedTable, _follows, _game_from_dict, _history_record, order_from_dict,
                       order_to_dict, state_to_dict, table_object)
from .vault import (MAC_VERSION, RECORD_V2, SECRET_TABLE_KEYS, TABLE_BUCKET, Vault, VaultError, canonical_json,
                    split_secrets)


def _lazy_sqlite3() -> ModuleType:
    """``sqlite3``, loaded at the first use of one of its names (the standard library's
    ``importlib.util.LazyLoader``): the window imports this module at every start (the
    autosave's store), but opens a database only when a game is autosaved or resumed, and
    loading SQLite's library is a millisecond of a start that a player waits for."""
    known = sys.modules.get("sqlite3")
    if known is not None:
        return known
    spec = importlib.util.find_spec("sqlite3")
    if spec is None or spec.loader is None:  # pragma: no cover - a Python without sqlite3
        raise ImportError("this Python has no sqlite3")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["sqlite3"] = module
    loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import sqlite3 as sqlite3  # noqa: PLC0414 (re-exported for the type checker)
else:
    sqlite3 = _lazy_sqlite3()

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS phases (idx INTEGER PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS current (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS orders (power TEXT NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL,
                                   PRIMARY KEY (power, key));
"""


#: HistoryEntry's slots (member descriptors: how a frozen entry's fields are set once)
_SLOTS: dict[str, Any] = {name: HistoryEntry.__dict__[name] for name in
                          ("state", "orders", "results", "after", "next_state", "disorder", "interned")}
_ORDERS, _RESULTS, _AFTER, _NEXT, _INTERNED = (_SLOTS[n] for n in
                                               ("orders", "results", "after", "next_state", "interned"))


class StoredPhase(HistoryEntry):
    """A phase read from the store: its position and civil disorder as stored, its orders read
    from their records and its results adjudicated the first time someone asks for them (opening
    a long game builds none of its orders and adjudicates none of its phases; the results are the
    engine's own, as when the phase was played: the adjudicator is deterministic).  ``next_state``
    is the next stored phase's position where that is known without adjudicating (not after a
    restart, nor under Formal Diplomacy)."""

    __slots__ = ("_records", "_rules")

    def __init__(self, state: GameState, records: list[dict[str, Any]], disorder: frozenset[str],
                 rules: RuleSet, known_next: GameState | None = None) -> None:
        _SLOTS["state"].__set__(self, state)
        _SLOTS["disorder"].__set__(self, disorder)
        self._rules: RuleSet
        self._records: list[dict[str, Any]]
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_records", records)
        if known_next is not None:
            _NEXT.__set__(self, known_next)

    def _read_orders(self) -> None:
        _ORDERS.__set__(self, tuple(order_from_dict(o) for o in self._records))

    def _adjudicated(self) -> None:
        out = adjudicate_phase(self.state, self.orders, self._rules, self.disorder)
        _RESULTS.__set__(self, out.results)
        _AFTER.__set__(self, out.after)
        _INTERNED.__set__(self, out.interned)
        try:
            _NEXT.__get__(self, StoredPhase)
        except AttributeError:
            _NEXT.__set__(self, out.next_state)

    @staticmethod
    def _slot(slot: Any, fill: Callable[[StoredPhase], None]) -> property:
        def get(self: StoredPhase) -> Any:
            try:
                return slot.__get__(self, StoredPhase)
            except AttributeError:
                fill(self)
                return slot.__get__(self, StoredPhase)

        return property(get)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HistoryEntry):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in _FIELDS))

    def __repr__(self) -> str:
        return f"StoredPhase({self.state.phase.label})"


_FIELDS = ("state", "orders", "results", "after", "next_state", "disorder", "interned")
for _name, _s, _fill in (("orders", _ORDERS, StoredPhase._read_orders),
                         *((n, _SLOTS[n], StoredPhase._adjudicated) for n in ("results", "after", "next_state",
                                                                              "interned"))):
    setattr(StoredPhase, _name, StoredPhase._slot(_s, _fill))


@dataclass(frozen=True, slots=True)
class GameImage:
    """The game and the table at one moment, cheap to take (the engine's values are immutable):
    what the store writes the difference between, and what a failed write goes back to."""

    state: GameState
    history: tuple[HistoryEntry, ...]
    orders: dict[str, dict[str, Order]]
    draw: tuple[str, ...] | None
    table: dict[str, Any]

    @classmethod
    def of(cls, game: Game, table: SavedTable) -> GameImage:
        import copy

        return cls(game.state, tuple(game.history), {p: dict(o) for p, o in game.orders.items()}, game.draw,
                   copy.deepcopy(table_object(table)))


def store_path(game_path: Path) -> Path:
    """The database of the game saved in ``game_path``."""
    return game_path.parent / f".{game_path.name}.live.sqlite"


def file_stamp(path: Path) -> str | None:
    """Which state of a file this is (size and modification time), or None if there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}"


def changed_since(path: Path, stamp: str | None) -> bool:
    """Whether the game file ``path`` changed since it was ``stamp`` (another program wrote it),
    or ``serve``'s live game beside it holds changes written after it (a host killed or still
    writing): a window that read it then must not write over it."""
    now = file_stamp(path)
    if now is None:
        return False
    if now != stamp:
        return True
    try:
        return store_path(path).stat().st_mtime_ns > path.stat().st_mtime_ns
    except OSError:
        return False


def beside_name(path: Path, why: str = "from this window") -> Path:
    """``NAME (from this window).dipl`` beside ``path`` (``… 2``, ``… 3`` if taken)."""
    n = 1
    while True:
        label = why if n == 1 else f"{why} {n}"
        target = path.with_name(f"{path.stem} ({label}){path.suffix}")
        if not target.exists():
            return target
        n += 1


class StoreError(OSError):
    """The database cannot be used (damaged, or of another version): the saved game is read again."""


class StoreLockedError(StoreError):
    """The database holds a secret game and was opened without its key (or with another one)."""


class StoreTamperedError(StoreError):
    """The database holds a secret game whose rows were changed outside the app (its MAC)."""


#: the meta row that authenticates every other row (not itself in the list)
MAC_ROW = "mac"
#: the meta row listing the adjudicated phases' digests (itself listed in the MAC's row)
PHASE_DIGESTS_ROW = "phase_digests"
_PHASE_ROW_PREFIX = "phases/"
_ROW_NAMES = {"meta/table": "the table (players' PIN hashes, the host PIN, who sealed, the failure counters, "
                            "the hot-seat turn)",
              "meta/table_secret": "the table's encrypted part (notes, seal codes, the phones' links)",
              "meta/game": "the game's settings", "meta/vault": "the wrapped game key",
              "meta/phase_count": "the number of adjudicated phases", "current/1": "the position being played "
                                                                                    "(its phase)"}


def _describe(row: str) -> str:
    if row in _ROW_NAMES:
        return _ROW_NAMES[row]
    if row.startswith("orders/"):
        return "an order of the phase being played"
    if row.startswith("phases/"):
        return f"adjudicated phase {int(row.split('/', 1)[1]) + 1}"
    return f"the setting {row.split('/', 1)[-1]!r}"


def _phase_short(current: Mapping[str, Any]) -> str:
    """A stored position's phase, short ("S1901M")."""
    ph = current["state"]["phase"]
    return Phase(int(ph["year"]), str(ph["season"]), str(ph["kind"])).short


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _split_table(table: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The table's public part and its secret part (``io.vault.split_secrets``' cut)."""
    public, secret = split_secrets({"table": dict(table)})
    return public["table"], secret


def _merge_table(public: dict[str, Any], secret: Mapping[str, Any]) -> dict[str, Any]:
    hidden = secret.get("table")
    if isinstance(hidden, dict):
        public.update({k: v for k, v in hidden.items() if k in SECRET_TABLE_KEYS})
    tokens = secret.get("tokens")
    if isinstance(tokens, dict):
        phones = public.setdefault("phones", {})
        if isinstance(phones, dict):
            phones["tokens"] = tokens
    return public


class GameStore:
    """One game's database (see the module documentation)."""

    def __init__(self, path: Path, vault: Vault | None = None) -> None:
        self.path = path
        #: a secret game's key: its secret rows are written and read encrypted under it
        self.vault = vault
        if not path.exists():  # made private from the start (SQLite gives its -wal file the same bits)
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=5.0)
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA secure_delete=ON")  # a replaced or deleted row leaves nothing behind
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise StoreError(f"the live game {path.name} cannot be read: {exc}") from exc
        os.chmod(path, 0o600)  # it holds every unrevealed order, like the saved game
        self._game_meta: str | None = None
        #: a secret game's row digests (row id -> digest), as the ``mac`` row lists them once written
        self._digests: dict[str, str] | None = None
        self._phases_dirty = True
        #: a secret game's padding rows in the orders table (None: counted at the next write)
        self._pads: int | None = None
        #: a secret game opened with its key from an earlier version's store: nothing authenticated it
        self.unauthenticated = False

    def close(self) -> None:
        self.db.close()

    # -- reading ----------------------------------------------------------------------------------

    def meta(self, key: str) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def holds_game_of(self, stamp: str | None) -> bool:
        """Whether the database holds a game read from (or written to) the file as it is now."""
        try:
            return (self.meta("schema") == SCHEMA_VERSION and self.meta("game") is not None
                    and stamp is not None and self.meta("source") == stamp)
        except (sqlite3.DatabaseError, ValueError):
            return False

    def wrapped_key(self) -> dict[str, Any] | None:
        """A secret game's wrapped game key (open it with ``Vault.open`` and the passphrase)."""
        try:
            wrapped = self.meta("vault")
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise StoreError(f"the live game {self.path.name} cannot be read: {exc}") from exc
        return wrapped if isinstance(wrapped, dict) else None

    def order_count(self) -> int:
        """How many order rows the phase being played has (a count: no key needed).  A secret
        game's are padded (``_write_pads``): 0 says no order was given, more says only that one was."""
        try:
            return int(self.db.execute("SELECT count(*) FROM orders").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the live game {self.path.name} cannot be read: {exc}") from exc

    def has_tables(self) -> bool:
        """Whether the database held anything before (a game, or the pieces of a damaged one)."""
        try:
            rows = int(self.db.execute("SELECT count(*) FROM meta").fetchone()[0])
            return rows > 0 or int(self.db.execute("SELECT count(*) FROM phases").fetchone()[0]) > 0
        except sqlite3.DatabaseError:
            return True

    def check(self) -> None:
        """StoreError when the database is damaged: SQLite's own integrity check, then the app's
        record checks (the adjudicated phases numbered 0..n-1, as many as the last write
        recorded, the position there)."""
        try:
            verdict = [r[0] for r in self.db.execute("PRAGMA integrity_check(20)")]
            if verdict != ["ok"]:
                raise StoreError(f"SQLite's integrity check: {'; '.join(map(str, verdict))[:200]}")
            idx = [i for (i,) in self.db.execute("SELECT idx FROM phases ORDER BY idx")]
            if idx != list(range(len(idx))):
                raise StoreError("its adjudicated phases are not numbered in order")
            count = self.meta("phase_count")
            if count is not None and count != len(idx):
                raise StoreError(f"it holds {len(idx)} adjudicated phases where the last write left {count}")
            if self.db.execute("SELECT count(*) FROM current").fetchone()[0] != 1:
                raise StoreError("it holds no position")
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise StoreError(str(exc)) from exc

    def load(self, *, public_only: bool = False) -> tuple[Game, dict[str, Any]]:
        """The game and table stored (not checked again: they were when the file was read in).
        A secret game's rows are opened with ``vault`` (StoreLockedError without it, or with
        another game's key); ``public_only``: a secret game's public part, without the key."""
        try:
            data = dict(self.meta("game"))
            secret_game = self.meta("vault") is not None
            vault = self.vault if secret_game else None
            if secret_game and vault is None and not public_only:
                raise StoreLockedError(f"the live game {self.path.name} is encrypted: its passphrase is needed")
            if vault is not None:
                self._digests = self._verified_digests(vault)
            table = self.meta("table") or {}
            if vault is not None:
                sealed = self.meta("table_secret")
                if sealed is not None:
                    table = _merge_table(table, vault.open_record(sealed, "table"))
            data["table"] = table
            data["history"] = [json.loads(r) for (r,) in self.db.execute("SELECT record FROM phases ORDER BY idx")]
            row = self.db.execute("SELECT record FROM current WHERE id = 1").fetchone()
            current = json.loads(row[0])
            if not secret_game:
                current["orders"] = [json.loads(r) for (r,) in
                                     self.db.execute("SELECT record FROM orders ORDER BY power, rowid")]
            elif vault is not None:
                phase = _phase_short(current)
                opened = [vault.open_record(r, (f"order/{phase}/" if r.startswith(RECORD_V2 + ":") else "order/") + k)
                          for (k, r) in self.db.execute("SELECT key, record FROM orders ORDER BY rowid")]
                orders = [o for o in opened if o is not None]  # (the padding rows hold nothing)
                self._pads = len(opened) - len(orders)
                # (the rowids are random: sorted by power and unit, the order nothing on disk tells)
                current["orders"] = sorted(orders, key=lambda o: (str(o.get("power", "")), str(o.get("location", ""))))
            else:
                current["orders"] = []
            data["current"] = current
            board = load_board(str(data.get("map", "standard")))
            return _game_from_dict(data, board, stored=StoredPhase)  # no phase replayed
        except VaultError as exc:
            if vault is not None and self._digests is not None and not self.unauthenticated:
                # the key opened the MAC: a row that does not open was changed, not another key's
                raise StoreTamperedError(f"the live game {self.path.name} was changed outside the app: {exc}") \
                    from exc
            raise StoreLockedError(f"the live game {self.path.name} does not open with this key: {exc}") from exc
        except StoreError:
            raise
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise StoreError(f"the live game {self.path.name} cannot be read: {exc}") from exc

    # -- authentication (a secret game's) ---------------------------------------------------------

    def _rows(self) -> dict[str, str]:
        """Every row but the MAC's, by row id, as stored (text)."""
        rows = {f"meta/{k}": v for k, v in self.db.execute("SELECT key, value FROM meta") if k != MAC_ROW}
        rows.update((f"phases/{i}", r) for i, r in self.db.execute("SELECT idx, record FROM phases"))
        rows.update((f"current/{i}", r) for i, r in self.db.execute("SELECT id, record FROM current"))
        rows.update((f"orders/{p}\x1f{k}", r) for p, k, r in self.db.execute("SELECT power, key, record FROM orders"))
        return rows

    def _verified_digests(self, vault: Vault) -> dict[str, str]:
        """The rows' digests, once the ``mac`` row says they are the app's (StoreTamperedError
        naming what differs; StoreLockedError: the key is another game's).  A store without a
        ``mac`` row is an earlier version's (``unauthenticated``), unless its rows say otherwise."""
        wrapped = self.meta("vault")
        if isinstance(wrapped, dict) and wrapped != vault.wrapped:
            raise StoreLockedError(f"the live game {self.path.name} is another game's: its key does not open it")
        rows = self._rows()
        digests = {row: _digest(text) for row, text in rows.items()}
        mac = self.meta(MAC_ROW)
        name = self.path.name
        if mac is None:
            if any(t.startswith(RECORD_V2 + ":") for row, t in rows.items() if row.startswith("orders/")
                   or row == "meta/table_secret"):
                raise StoreTamperedError(f"the live game {name} was changed outside the app: its authentication was "
                                         "removed (its encrypted rows were written by a version that authenticates "
                                         "every row)")
            self.unauthenticated = True
            return digests
        listed = mac.get("rows") if isinstance(mac, dict) else None
        if not isinstance(listed, dict) or mac.get("v") != MAC_VERSION or not vault.mac_matches(
                canonical_json({"v": MAC_VERSION, "rows": listed}), mac.get("hmac")):
            raise StoreTamperedError(f"the live game {name} was changed outside the app: its authentication does "
                                     "not match (edited or damaged)")
        # the adjudicated phases' digests are listed in their own row (written when a phase is
        # added or taken back), itself listed in the MAC's: an order's write stays small
        mine = {r: d for r, d in digests.items() if not r.startswith(_PHASE_ROW_PREFIX)}
        differ = sorted({r for r in mine.keys() | listed.keys() if mine.get(r) != listed.get(r)})
        if not differ:
            phases = json.loads(rows.get(f"meta/{PHASE_DIGESTS_ROW}", "{}"))
            actual = {r: d for r, d in digests.items() if r.startswith(_PHASE_ROW_PREFIX)}
            differ = sorted({r for r in actual.keys() | phases.keys() if actual.get(r) != phases.get(r)})
        if differ:
            what = "; ".join(dict.fromkeys(_describe(r) for r in differ))
            raise StoreTamperedError(f"the live game {name} was changed outside the app since the app wrote it: "
                                     f"{what} (edited, put back from an earlier copy, added or removed)")
        self.unauthenticated = False
        self._phases_dirty = False  # the phases' row as it is matches them
        return digests

    def _ready_digests(self) -> None:
        """Before a write of a secret game: the digests known (read and checked once)."""
        if self.vault is not None and self._digests is None:
            self._digests = self._verified_digests(self.vault)

    def _touch(self, row: str, text: str | None) -> None:
        if row.startswith(_PHASE_ROW_PREFIX):
            self._phases_dirty = True
        if self._digests is not None:
            if text is None:
                self._digests.pop(row, None)
            else:
                self._digests[row] = _digest(text)

    def _put_mac(self) -> None:
        if self.vault is None or self._digests is None:
            return
        if self._phases_dirty:
            phases = {r: d for r, d in self._digests.items() if r.startswith(_PHASE_ROW_PREFIX)}
            self._put_text(PHASE_DIGESTS_ROW, json.dumps(phases, sort_keys=True, separators=(",", ":")))
            self._phases_dirty = False
        listed = {r: d for r, d in self._digests.items() if not r.startswith(_PHASE_ROW_PREFIX)}
        # canonical_json's bytes, written directly (row ids and hex digests: nothing to normalise)
        body = json.dumps({"rows": listed, "v": MAC_VERSION}, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=True)
        tag = self.vault.mac(body.encode("ascii"))
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                        (MAC_ROW, body[:-1] + f',"hmac":"{tag}"}}'))

    # -- writing ----------------------------------------------------------------------------------

    def write_all(self, game: Game, table: SavedTable, source: str | None, *,
                  extra: Mapping[str, Any] | None = None) -> GameImage:
        """Replace whatever is stored by ``game`` and ``table`` (one transaction, synced), under
        the store's ``vault`` (or in the clear without one); ``extra``: more ``meta`` keys."""
        image = GameImage.of(game, table)
        self._digests = None
        try:
            with self._transaction(durable=True):
                self.db.execute("DELETE FROM phases")
                self.db.execute("DELETE FROM orders")
                self._pads = 0
                self.db.execute("DELETE FROM current")
                self.db.execute("DELETE FROM meta WHERE key IN ('vault', 'table_secret', 'mac', 'phase_digests')")
                if self.vault is not None:
                    self._put("vault", dict(self.vault.wrapped))
                self._write(None, image, game)
                self._put("schema", SCHEMA_VERSION)
                self._put("source", source)
                for key, value in (extra or {}).items():
                    self._put(key, value)
                if self.vault is not None:  # every row is this write's: their digests, then the MAC
                    self._digests = {row: _digest(text) for row, text in self._rows().items()
                                     if row != f"meta/{PHASE_DIGESTS_ROW}"}
                    self._phases_dirty = True
                    self._put_mac()
                    self.unauthenticated = False
        except BaseException:
            self._digests = self._pads = None
            raise
        return image

    def write(self, before: GameImage | None, after: GameImage, game: Game, *, durable: bool,
              extra: Mapping[str, Any] | None = None) -> None:
        """Write what changed from ``before`` to ``after`` in one transaction; ``durable``:
        synced to the disk before this returns.  sqlite3.Error (rolled back) when it cannot.
        ``extra``: ``meta`` keys written in the same transaction."""
        self._ready_digests()
        try:
            with self._transaction(durable=durable):
                self._write(before, after, game)
                for key, value in (extra or {}).items():
                    self._put(key, value)
                self._put_mac()
        except BaseException:
            self._digests = self._pads = None  # rolled back: read again (and checked) before the next write
            raise

    def set_source(self, stamp: str | None) -> None:
        self._ready_digests()
        try:
            with self._transaction(durable=True):
                self._put("source", stamp)
                self._put_mac()
        except BaseException:
            self._digests = self._pads = None
            raise

    def _transaction(self, *, durable: bool) -> _Transaction:
        return _Transaction(self.db, durable)

    def _put(self, key: str, value: Any) -> None:
        self._put_text(key, json.dumps(value))

    def _put_text(self, key: str, text: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, text))
        self._touch(f"meta/{key}", text)

    def _write(self, before: GameImage | None, after: GameImage, game: Game) -> None:
        game_meta = json.dumps({
            "format": FORMAT, "version": VERSION, "map": game.board.name, "edition": game.rules.edition.value,
            "end_year": game.end_year, "draw": list(after.draw) if after.draw else None,
            **({"short_game_by": game.short_game_by} if game.short_game_by != BY_CENTRES else {})})
        if before is None or game_meta != self._game_meta:
            self._put_text("game", game_meta)
            self._game_meta = game_meta
        if before is None or after.table != before.table:
            if self.vault is None:
                self._put_text("table", json.dumps(after.table))
            else:  # the public part readable, the secret part one sealed row
                public, secret = _split_table(after.table)
                self._put_text("table", json.dumps(public))
                self._put("table_secret", self.vault.seal_record(secret, "table", bucket=TABLE_BUCKET))
        self._write_phases(before, after)
        self._write_orders(before, after)
        if self.vault is not None:
            self._write_pads(before, after, len(game.board.centres))

    def _write_phases(self, before: GameImage | None, after: GameImage) -> None:
        """The adjudicated phases: the stored ones stay as long as they are the same phases (an
        undo takes some back); the position when it changed."""
        db = self.db
        old = before.history if before is not None else ()
        same = 0
        while same < min(len(old), len(after.history)) and old[same] is after.history[same]:
            same += 1
        if same < len(old):
            db.execute("DELETE FROM phases WHERE idx >= ?", (same,))
            for i in range(same, len(old)):
                self._touch(f"phases/{i}", None)
        if before is None or same < len(old) or len(after.history) != len(old):
            self._put("phase_count", len(after.history))
        for i in range(same, len(after.history)):
            prev = after.history[i - 1] if i else None
            text = json.dumps(_history_record(after.history[i], prev))
            db.execute("INSERT OR REPLACE INTO phases (idx, record) VALUES (?, ?)", (i, text))
            self._touch(f"phases/{i}", text)
        if before is None or after.state is not before.state or same < len(old) or len(after.history) != len(old):
            record: dict[str, Any] = {"state": state_to_dict(after.state)}
            if after.history and not _follows(after.state, after.history[-1].next_state):
                record["restarted"] = True
            text = json.dumps(record)
            db.execute("INSERT OR REPLACE INTO current (id, record) VALUES (1, ?)", (text,))
            self._touch("current/1", text)

    def _write_orders(self, before: GameImage | None, after: GameImage) -> None:
        """One row per order changed; a new phase's orders replace every row of the last one's."""
        db = self.db
        phase = after.state.phase.short
        was = before.orders if before is not None else {}
        if before is not None and before.state.phase != after.state.phase and was:
            db.execute("DELETE FROM orders")
            if self._digests is not None:
                for row in [r for r in self._digests if r.startswith("orders/")]:
                    del self._digests[row]
            was = {}
            self._pads = 0
        for power in set(was) | set(after.orders):
            mine, had = after.orders.get(power, {}), was.get(power, {})
            for key in had.keys() - mine.keys():
                row_power, row_key = self._order_row(power, key, phase)
                db.execute("DELETE FROM orders WHERE power = ? AND key = ?", (row_power, row_key))
                self._touch(f"orders/{row_power}\x1f{row_key}", None)
            for key, order in mine.items():
                if had.get(key) != order:
                    self._put_order(power, key, order, phase)

    def _write_pads(self, before: GameImage | None, after: GameImage, fill: int) -> None:
        """A secret game's order rows, once there is one, are as many as the board has centres
        (or more, as many as the orders): rows that hold nothing (``None``, sealed and padded like
        an order, named like one) make up the number, so it does not tell how many orders were
        given.  With no order at all there are none (a game nobody touched is seen as such)."""
        phase = after.state.phase.short
        if self._pads is None:  # how many the last write left: the rows that are not its orders
            stored = int(self.db.execute("SELECT count(*) FROM orders").fetchone()[0])
            self._pads = max(0, stored - (sum(len(o) for o in before.orders.values()) if before is not None else 0))
        real = sum(len(o) for o in after.orders.values())
        wanted = 0 if real == 0 else max(0, fill - real)
        for i in range(wanted, self._pads):
            _, row_key = self._order_row("", f"pad/{i}", phase)
            self.db.execute("DELETE FROM orders WHERE power = '' AND key = ?", (row_key,))
            self._touch(f"orders/\x1f{row_key}", None)
        for i in range(self._pads, wanted):
            self._put_order("", f"pad/{i}", None, phase)
        self._pads = wanted

    def _put_order(self, power: str, key: str, order: Order | None, phase: str) -> None:
        row_power, row_key = self._order_row(power, key, phase)
        record = order_to_dict(order) if order is not None else None
        if self.vault is None:
            text = json.dumps(record)
            self.db.execute("INSERT OR REPLACE INTO orders (power, key, record) VALUES (?, ?, ?)",
                            (row_power, row_key, text))
        else:  # a random rowid: the table's order tells nothing of which order was written when
            text = self.vault.seal_record(record, f"order/{phase}/{row_key}")
            self.db.execute("INSERT INTO orders (rowid, power, key, record) VALUES (?, ?, ?, ?) "
                            "ON CONFLICT (power, key) DO UPDATE SET record = excluded.record",
                            (secrets.randbelow(2 ** 62) + 1, row_power, row_key, text))
        self._touch(f"orders/{row_power}\x1f{row_key}", text)

    def _order_row(self, power: str, key: str, phase: str) -> tuple[str, str]:
        """The row's (power, key): in the clear, or for a secret game ("", an HMAC of the phase,
        the power and the unit: the same unit's row is named anew in every phase)."""
        if self.vault is None:
            return power, key
        return "", self.vault.row_name(f"order/{phase}/{power}/{key}")


def set_aside(path: Path, *, now: float | None = None) -> Path:
    """Move a damaged database (and its -wal and -shm files) out of the way, never over another
    file: ``.NAME.live.damaged-<time>.sqlite`` beside it.  The new name."""
    import time

    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    base = path.name.removesuffix(".sqlite")
    n = 0
    while True:
        target = path.with_name(f"{base}.damaged-{stamp}{f'-{n}' if n else ''}.sqlite")
        if not target.exists():
            break
        n += 1
    os.link(path, target)  # never over another file (link fails if the name exists)
    for tail in ("-wal", "-shm"):
        companion = path.with_name(path.name + tail)
        if companion.exists():
            os.replace(companion, target.with_name(target.name + tail))
    path.unlink()
    return target


class _Transaction:
    def __init__(self, db: sqlite3.Connection, durable: bool) -> None:
        self.db = db
        self.durable = durable

    def __enter__(self) -> None:
        self.db.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error:
                self._rollback()  # the real error (a full disk) is the one raised, never the rollback's
                raise
        self._rollback()

    def _rollback(self) -> None:
        """Roll back what is left of the transaction: SQLite has often rolled it back itself (a
        full disk), and then "no transaction is active" says nothing about what went wrong."""
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


__all__ = ["GameImage", "GameStore", "StoreError", "StoreLockedError", "beside_name", "changed_since", "file_stamp", "set_aside", "store_path"]
