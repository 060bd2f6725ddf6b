"""The autosave and its policy, without Qt.

* ``Autosave``: the window's live game, one SQLite database ``autosave.sqlite`` in a data folder
  (the window passes the app's data folder), kept by ``io.gamestore.GameStore``, the store
  ``serve`` keeps its game in: one row per adjudicated phase, one for the position, one per order
  of the phase being played, the table (who sealed, notes, tokens) in ``meta``.  A write is one
  small transaction of what changed since the last one (an order given writes one row, not the
  game): it is committed, or rolled back whole (a full disk), never half-written; there are no
  temporary files.  Seals, the table and new phases are synced to the disk before the write
  returns (``synchronous=FULL``), orders as they are given are committed without waiting for the
  disk (a crash of the app loses none; a power cut may lose the last ones).  The database is
  private (mode 0600: it holds every power's unrevealed orders), and a secret game's (a
  passphrase: ``io.vault``) secret rows are encrypted under its key, as ``serve``'s are.
* Migration: an autosave of an earlier version (``autosave.json`` and ``autosave-origin.txt``)
  is read into the database on first use, and removed only once the database's transaction is
  committed; a secret one (which needs the passphrase) is offered as it is, and moves into the
  database with the first write after it was resumed.
* ``set_aside_unfinished`` keeps an unfinished game the host chose not to resume as
  ``autosave.unfinished-<time>.sqlite`` (never over another file, never deleted).
* ``set_aside_if_damaged`` moves an autosave that cannot be read to
  ``autosave.damaged-<time>.sqlite`` (``.json`` for an old one; never over another file);
  ``clean_temp_files`` removes the temporary files an old version's kill mid-write left behind.
* ``autosave_timing``: when a change is written: an adjudication (or its undo) at once and again
  once the table has followed it; orders, seals, table settings and a new game soon after
  (the window's ``Autosaver`` runs the timer).
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from ..engine.game import Game
from ..io.gamestore import GameImage, GameStore, StoreError, sqlite3  # (loaded when first used)
from ..io.savefile import (OpenedGame, SaveFileError, WrongPassphraseError, is_secret_file, load_game,
                           open_game, stale_temp_files, sync_folder)
from ..io.vault import Vault, VaultError
from .changes import TableChange
from .state import TableState

#: the autosave: the window's live game in SQLite
AUTOSAVE_NAME = "autosave.sqlite"
#: an earlier version's autosave (JSON), migrated into the database on first use
LEGACY_AUTOSAVE_NAME = "autosave.json"
#: an earlier version's file holding the name of the game's own file (a resumed game keeps its name)
ORIGIN_NAME = "autosave-origin.txt"

#: write now (and once more soon after, when the table has followed)
NOW = "now"
#: write a moment later (one write for a burst of edits), at most that moment after the first
SOON = "soon"
#: an order given: written at once (on disk before the next order can be given), unless a write
#: takes long: then SOON, so that writing orders does not slow down
ORDER = "order"


def autosave_timing(record: TableChange) -> str | None:
    """When a change named by ``record`` is written to the autosave: ``NOW``, ``ORDER``, ``SOON``
    or ``None`` (nothing the file keeps changed: who is looking, which phase is shown)."""
    if record.phase and not record.game:
        return NOW
    if record.orders and not (record.table or record.game):
        return ORDER
    if record.orders or record.table or record.game:
        return SOON
    return None


@dataclass(frozen=True, slots=True)
class AutosaveInfo:
    """What the resume offer tells the table."""

    path: Path
    phase: str
    saved_at: datetime
    phases_played: int

    @property
    def text(self) -> str:
        when = self.saved_at.strftime("%d %b %Y, %H:%M")
        return f"{self.phase} ({self.phases_played} phase{'s' if self.phases_played != 1 else ''} played), saved {when}"


def _os_error(exc: sqlite3.Error | StoreError) -> OSError:
    """SQLite's error as the OS error it stands for (what the window shows)."""
    if isinstance(exc, OSError):
        return exc
    text = str(exc)
    if "full" in text:
        return OSError(errno.ENOSPC, "no space left on the device")
    return OSError(errno.EIO, text or type(exc).__name__)


class Autosave:
    """The autosave in ``folder`` (see the module documentation).  The database is opened on
    first use, so that the window takes the game's lock (``io.gamelock``) first."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self._store: GameStore | None = None
        #: what the database holds since our last write (None: write it whole next time)
        self._image: GameImage | None = None
        self._vault: Vault | None = None
        self._origin: str | None = None
        #: one write at a time (a phone's change and the laptop's are written one after the other)
        self._writing = threading.RLock()

    @property
    def path(self) -> Path:
        return self.folder / AUTOSAVE_NAME

    @property
    def legacy_path(self) -> Path:
        return self.folder / LEGACY_AUTOSAVE_NAME

    @property
    def origin_path(self) -> Path:
        """An earlier version's origin file (the database keeps the origin itself)."""
        return self.folder / ORIGIN_NAME

    # -- the database ---------------------------------------------------------------------------

    def _writer(self) -> GameStore:
        if self._store is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            try:
                self._store = GameStore(self.path)
            except sqlite3.Error as exc:
                raise _os_error(exc) from exc
        return self._store

    def _reader(self) -> GameStore | None:
        """A connection of its own for a look (the file may have been replaced meanwhile), or
        None without a database.  StoreError: it is not one."""
        if not self.path.is_file():
            return None
        try:
            return GameStore(self.path)
        except sqlite3.Error as exc:
            raise StoreError(f"the autosave {self.path.name} cannot be read: {exc}") from exc

    def close(self) -> None:
        """Close the database (the next write opens it again and writes the game whole)."""
        with self._writing:
            if self._store is not None:
                self._store.close()
                self._store = None
            self._image = None

    def _holds_game(self) -> bool:
        try:
            store = self._reader()
        except StoreError:
            return True  # something is there: set_aside_if_damaged keeps it
        if store is None:
            return False
        try:
            return store.meta("game") is not None
        except (sqlite3.Error, ValueError):
            return True
        finally:
            store.close()

    # -- migration from an earlier version's JSON autosave ---------------------------------------

    def migrate(self) -> bool:
        """Read an earlier version's ``autosave.json`` into the database (one transaction), and
        remove it (and its origin file) once that is committed.  Left where it is: a secret one
        (it needs the passphrase: it moves in with the first write after it is resumed) and a
        damaged one (``set_aside_if_damaged`` keeps it).  Whether one was migrated."""
        if not self.legacy_path.is_file():
            return False
        if self._holds_game():  # migrated already (the old file outlived the commit): it goes
            self._retire_legacy()
            return False
        if is_secret_file(self.legacy_path):
            return False
        try:
            game, table = load_game(self.legacy_path)
        except SaveFileError:
            return False
        origin = self._legacy_origin()
        try:
            self.write(game, table, origin)  # committed (synced) before the old file goes
        except OSError:
            return False  # (a full disk) the old file stays, and is what is offered; tried again later
        return True

    def _legacy_origin(self) -> Path | None:
        try:
            text = self.origin_path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return Path(text) if text else None

    def _retire_legacy(self) -> None:
        removed = False
        for p in (self.legacy_path, self.origin_path):
            try:
                p.unlink()
                removed = True
            except FileNotFoundError:
                pass
            except OSError:
                return
        if removed:
            with contextlib.suppress(OSError):
                sync_folder(self.folder)

    # -- writing ---------------------------------------------------------------------------------

    def write(self, game: Game, table: TableState | Mapping[str, Any] | None = None,
              origin: Path | str | None = None, *, vault: Vault | None = None) -> Path:
        """Write what changed since the last write, in one transaction (OSError, nothing written,
        when it cannot be).  ``table``: the table's record (written as the save file keeps it).  ``origin``: the game's own file, so a resumed game keeps its name;
        ``vault``: a secret game's key, under which its secret rows are written encrypted."""
        with self._writing:
            saved = table.to_table() if isinstance(table, TableState) else dict(table or {})
            return self._write(game, saved, origin, vault)

    def _write(self, game: Game, table: dict[str, Any], origin: Path | str | None,
               vault: Vault | None) -> Path:
        store = self._writer()
        origin_text = str(Path(origin).resolve()) if origin is not None else None
        extra = {"origin": origin_text} if (self._image is None or origin_text != self._origin) else None
        try:
            if self._image is None or vault is not self._vault:
                store.vault = vault
                image = store.write_all(game, table, None, extra={"origin": origin_text})
            else:
                image = GameImage.of(game, table)
                was = self._image
                only_orders = (image.state is was.state and len(image.history) == len(was.history)
                               and all(a is b for a, b in zip(image.history, was.history, strict=True))
                               and image.draw == was.draw and image.table == was.table)
                store.write(self._image, image, game, durable=not only_orders, extra=extra)
        except (sqlite3.Error, StoreError) as exc:
            self._image = None  # rolled back: the next write writes the game whole
            raise _os_error(exc) from exc
        self._image, self._vault, self._origin = image, vault, origin_text
        with contextlib.suppress(OSError):  # private, even if a copy or an older version left it readable
            os.chmod(self.path, 0o600)
        if self.legacy_path.exists() or self.origin_path.exists():
            self._retire_legacy()  # the game is in the database now (committed)
        return self.path

    # -- reading ---------------------------------------------------------------------------------

    def origin(self) -> Path | None:
        """The file the autosaved game came from (``None``: it was never saved under a name)."""
        self.migrate()
        if not self._holds_game():
            return self._legacy_origin()  # (an old secret autosave, not migrated yet)
        try:
            store = self._reader()
        except StoreError:
            return None
        if store is None:
            return None
        try:
            text = store.meta("origin")
        except (sqlite3.Error, ValueError):
            text = None
        finally:
            store.close()
        return Path(text) if isinstance(text, str) and text else None

    def exists(self) -> bool:
        self.migrate()
        return self.legacy_path.is_file() or self._holds_game()

    def is_secret(self) -> bool:
        """Whether the autosaved game's secrets are encrypted (opening it whole takes the passphrase)."""
        self.migrate()
        try:
            store = self._reader()
        except StoreError:
            return False
        if store is None:
            return self.legacy_path.is_file() and is_secret_file(self.legacy_path)
        try:
            return store.wrapped_key() is not None
        except StoreError:
            return False
        finally:
            store.close()

    def open(self, *, passphrase: str | None = None, vault: Vault | None = None) -> OpenedGame:
        """The autosaved game: whole with a secret game's ``passphrase`` (WrongPassphraseError if
        it is not), its public part without it (``locked``).  SaveFileError: damaged, or none."""
        self.migrate()
        try:
            store = self._reader()
        except StoreError as exc:
            raise SaveFileError(str(exc)) from exc
        if store is None or not self._holds_game():
            if store is not None:
                store.close()
            if self.legacy_path.is_file():
                return open_game(self.legacy_path, passphrase=passphrase, vault=vault)
            raise SaveFileError("there is no autosaved game")
        try:
            wrapped = store.wrapped_key()
            locked = False
            if wrapped is not None:
                if vault is None and passphrase is not None:
                    try:
                        vault = Vault.open(wrapped, passphrase)
                    except VaultError as exc:
                        raise WrongPassphraseError(str(exc)) from None
                store.vault = vault
                locked = vault is None
            else:
                vault = None
            game, table = store.load(public_only=locked)
            return OpenedGame(game, table, vault, locked, store.unauthenticated)
        except StoreError as exc:
            raise SaveFileError(str(exc)) from exc
        finally:
            store.close()

    def load(self) -> tuple[Game, dict[str, Any]]:
        """The autosaved game and table (a secret game's public part); SaveFileError if it is damaged."""
        opened = self.open()
        return opened.game, opened.table

    def info(self) -> AutosaveInfo | None:
        """What there is to resume: ``None`` without a readable autosave or when it holds only an
        untouched new game (nothing would be lost by starting afresh).  The time is the files'
        as they were found: opening a killed database (SQLite's recovery) touches them, and the
        offer said "saved" at the minute the app started again (red team, issue 31)."""
        found = {where: self._written_at(where) for where in (self.path, self.legacy_path)}
        self.migrate()
        try:
            opened = self.open()
        except SaveFileError:
            return None
        game = opened.game
        if not game.history and not self._any_orders(game) and game.draw is None:
            return None
        where = self.path if self._holds_game() else self.legacy_path
        stamp = found[where] or found[self.legacy_path] or self._written_at(where) or time.time()
        return AutosaveInfo(where, game.state.phase.label, datetime.fromtimestamp(stamp), len(game.history))

    @staticmethod
    def _written_at(where: Path) -> float | None:
        stamps = [p.stat().st_mtime for p in (where, where.with_name(where.name + "-wal")) if p.exists()]
        return max(stamps) if stamps else None

    def _any_orders(self, game: Game) -> bool:
        if game.all_orders():
            return True
        try:
            store = self._reader()
        except StoreError:
            return False
        if store is None:
            return False
        try:
            return store.order_count() > 0  # a secret game's orders, counted without the key
        except StoreError:
            return False
        finally:
            store.close()

    # -- clearing and damage ---------------------------------------------------------------------

    def clear(self) -> None:
        """Forget the autosaved game (the table discarded it)."""
        self.close()
        for path in (self.path, *_companions(self.path), self.legacy_path, self.origin_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def set_aside_if_damaged(self, *, now: datetime | None = None) -> DamagedAutosave | None:
        """If the autosave cannot be read, move it to ``autosave.damaged-<time>.sqlite`` (an
        earlier version's: ``.json``) in the same folder (never replacing a file there) and say
        where and why; ``None`` if there is none or it reads well.  An OS error while moving it
        is in the answer too."""
        if self.legacy_path.is_file():
            try:
                load_game(self.legacy_path)
            except SaveFileError as exc:
                return _set_aside(self.legacy_path, ".json", str(exc), now)
            self.migrate()
        if not self.path.is_file():
            return None
        try:
            store = self._reader()
            assert store is not None
            try:
                if store.meta("game") is not None:
                    store.load(public_only=True)
            finally:
                store.close()
        except (StoreError, sqlite3.Error, ValueError) as exc:
            reason = str(exc)
        else:
            return None
        self.close()
        return _set_aside(self.path, ".sqlite", reason, now)

    def set_aside_unfinished(self, *, now: datetime | None = None) -> DamagedAutosave | None:
        """Keep the unfinished game aside, whole, as ``autosave.unfinished-<time>.sqlite`` (an
        earlier version's: ``.json``) in the same folder, never over another file, so that a new
        game's autosave cannot overwrite it (the host chose New game at the offer to resume);
        where it went (``trouble`` says why it could not be moved), ``None`` without one."""
        with self._writing:
            self.close()
            if self.path.is_file():
                return _set_aside(self.path, ".sqlite", "set aside", now, kind="unfinished")
            if self.legacy_path.is_file():
                kept = _set_aside(self.legacy_path, ".json", "set aside", now, kind="unfinished")
                if not kept.trouble:
                    self._retire_legacy()
                return kept
            return None

    def clean_temp_files(self) -> list[Path]:
        """Remove the temporary files an earlier version's autosave left when a kill cut its
        write short (only files named after the autosave, and only ones untouched for a while);
        the removed ones.  (The database has no temporary files.)"""
        removed = []
        for p in stale_temp_files(self.legacy_path):
            try:
                p.unlink()
            except OSError:
                continue
            removed.append(p)
        return removed


def _companions(path: Path) -> tuple[Path, Path]:
    """SQLite's files beside a database: its write-ahead log and shared-memory index."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _set_aside(path: Path, suffix: str, reason: str, now: datetime | None, *,
               kind: str = "damaged") -> DamagedAutosave:
    """Keep an autosave as ``autosave.<kind>-<time><suffix>`` (its SQLite log beside it)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        kept = path.parent / f"autosave.{kind}-{stamp}{'' if n == 1 else f'-{n}'}{suffix}"
        try:
            os.link(path, kept)  # fails if the name is taken: nothing is ever overwritten
        except FileExistsError:
            continue
        except OSError:  # no hard links here (some file systems): rename, having looked first
            if kept.exists():
                continue
            try:
                os.rename(path, kept)
            except OSError as exc:
                return DamagedAutosave(path, reason, f"it could not be moved aside: {exc.strerror or exc}")
            _move_companions(path, kept)
            return DamagedAutosave(kept, reason)
        try:
            path.unlink()
        except OSError as exc:
            return DamagedAutosave(kept, reason, f"the damaged file could not be removed: {exc.strerror or exc}")
        _move_companions(path, kept)
        return DamagedAutosave(kept, reason)
    return DamagedAutosave(path, reason, "no free name to keep it under")  # pragma: no cover


def _move_companions(path: Path, kept: Path) -> None:
    for old, new in zip(_companions(path), _companions(kept), strict=True):
        if old.exists() and not new.exists():
            with contextlib.suppress(OSError):
                os.rename(old, new)


@dataclass(frozen=True, slots=True)
class DamagedAutosave:
    """An autosave that could not be read: where it is now, why, and any trouble moving it."""

    kept: Path
    reason: str
    trouble: str = ""

    @property
    def text(self) -> str:
        if self.trouble:
            return (f"The autosaved game cannot be read ({self.reason}), and {self.trouble}. "
                    f"It is still at {self.kept}; the app starts with a new game, and its autosave "
                    "will replace that file.")
        return (f"The autosaved game cannot be read ({self.reason}). It was kept as {self.kept} "
                "and will not be overwritten; the app starts with a new game.")
