"""Saved games: versioned JSON (schema documented in docs of this module and docs/reference/command-line.md).

    {
      "format": "diplomacy-desktop-game",
      "version": 1,
      "map": "standard",
      "edition": "classic" | "2023",
      "end_year": 1910 | null,
      "draw": null | ["england", "france"],
      "short_game_by": "centres" | "pieces",  # absent: centres
      "table": {...},                      # the table's settings (names, clock, secrecy, PIN hashes)
      "history": [ {"state": STATE, "orders": [ORDER, ...]}, ... ],   # adjudicated phases, in order
      "current": {"state": STATE, "orders": [ORDER, ...]}             # the phase being played
    }
    STATE = {"phase": {"year": 1901, "season": "spring", "kind": "movement"},
             "units": [{"power": "england", "type": "fleet", "location": "lon"}, ...],
             "dislodged": [{"power", "type", "location", "attacker_from", "by_convoy", "attacker_power"}],
             "contested": ["bur"], "owners": {"lon": "england", ...},
             "relations": [{"powers": ["england", "france"], "relation": "alliance"}, ...]}
                                   # relations: Formal Diplomacy only (absent: the standard game)
    a history record may also carry "disorder": [powers in civil disorder in that phase]
    ORDER = {"power": "france", "kind": "move", "unit": "A", "location": "par",
             "destination": "bur", "via_convoy": false, ...}

The file is validated against the declared JSON Schema ``savegame.schema.json`` (shipped with
this package; see ``saveschema``) and its names against the board before anything is built
from it: a damaged file is refused with one message naming the field by its JSON path.
The table is strict on the keys it knows and keeps keys it does not know (a later version's
settings); every other part of the file allows no unknown field.

Results are not stored: loading replays every phase (the engine is deterministic) and checks
that each replay arrives at the next stored position, so a tampered file is refused.
Writing is atomic: a temporary file in the same folder, then a rename.  Saving over a symbolic
link writes the file it points to; saving over a file keeps its permissions.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..engine.board import ARMY, FLEET, Board
from ..engine.formal import Relations
from ..engine.game import BY_CENTRES, Game, HistoryEntry, free_waive_key, order_key
from ..engine.orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                             SupportMove, Waive)
from ..engine.rules import RuleSet
from ..engine.state import MOVEMENT, DislodgedUnit, GameState, Phase, Unit
from ..engine.turns import adjudicate_phase
from .boardfile import load_board
from .saveschema import SaveFileError as SaveFileError  # noqa: PLC0414 (re-exported: the error of every save reader)
from .saveschema import check_names, check_shape, parse_json
from .vault import TamperedError, Vault, VaultError, hidden_secret_part, is_locked, lock, unlock_checked

FORMAT = "diplomacy-desktop-game"
VERSION = 1
#: a temporary file ``write_atomic`` left behind (a kill mid-write) is this old before it is
#: taken for abandoned: a write takes milliseconds
STALE_TEMP_SECONDS = 600.0


class TableRecord(Protocol):
    """The table's typed record (``table.state.TableState``): written as the save file's ``table``
    object through its ``to_table`` (this layer knows nothing more of it)."""

    def to_table(self) -> dict[str, Any]: ...


#: what a writer is given as the table: the record, or the save file's object itself
SavedTable = TableRecord | Mapping[str, Any]


def table_object(table: SavedTable | None) -> dict[str, Any]:
    """The save file's ``table`` object (the boundary: a typed record is written through ``to_table``)."""
    if table is None:
        return {}
    if isinstance(table, Mapping):
        return dict(table)
    return table.to_table()


class WrongPassphraseError(SaveFileError):
    """The passphrase does not open the saved game's secrets."""


class TamperedFileError(SaveFileError):
    """The passphrase is right, but the file was changed outside the app (``io.vault``'s MAC)."""


_KINDS = {"hold": Hold, "move": Move, "support_hold": SupportHold, "support_move": SupportMove, "convoy": Convoy,
          "retreat": Retreat, "disband": Disband, "build": Build, "remove": Remove, "waive": Waive}
_NAMES = {v: k for k, v in _KINDS.items()}
_TYPE = {ARMY: "army", FLEET: "fleet"}
_TYPE_BACK = {"army": ARMY, "fleet": FLEET, "A": ARMY, "F": FLEET}


def order_to_dict(o: Order) -> dict[str, Any]:
    d: dict[str, Any] = {"power": o.power, "kind": _NAMES[type(o)]}
    for f in ("unit_kind", "location", "target_kind", "target", "destination", "via_convoy"):
        if hasattr(o, f):
            d[f] = getattr(o, f)
    return d


def order_from_dict(d: dict[str, Any]) -> Order:
    cls = _KINDS.get(d["kind"])
    if cls is None:
        raise SaveFileError(f"the saved game is damaged: unknown order kind {d['kind']!r}")
    fields = {k: v for k, v in d.items() if k != "kind"}
    order: Order = cls(**fields)
    return order


def _unit_dict(u: Unit) -> dict[str, str]:
    return {"power": u.power, "type": _TYPE[u.kind], "location": u.location}


def _unit(d: dict[str, Any]) -> Unit:
    kind = _TYPE_BACK.get(d["type"])
    if kind is None:
        raise SaveFileError(f"the saved game is damaged: unknown unit type {d['type']!r}")
    return Unit(str(d["power"]), kind, str(d["location"]))


def state_to_dict(s: GameState) -> dict[str, Any]:
    d: dict[str, Any] = {
        "phase": {"year": s.phase.year, "season": s.phase.season, "kind": s.phase.kind},
        "units": [_unit_dict(u) for u in s.units.values()],
        "dislodged": [{**_unit_dict(d.unit), "attacker_from": d.attacker_from, "by_convoy": d.by_convoy,
                       "attacker_power": d.attacker_power} for d in s.dislodged],
        "contested": sorted(s.contested),
        "owners": dict(s.owners),
    }
    if s.relations is not None:  # Formal Diplomacy; the standard game's file is unchanged
        d["relations"] = [{"powers": [a, b], "relation": r} for a, b, r in s.relations.as_list()]
    return d


def _relations(d: dict[str, Any]) -> Relations | None:
    if "relations" not in d:
        return None
    try:
        return Relations.from_mapping([(str(x["powers"][0]), str(x["powers"][1]), str(x["relation"]))
                                       for x in d["relations"]])
    except ValueError as exc:
        raise SaveFileError(f"the saved game is damaged: relations: {exc}") from exc


def state_from_dict(board: Board, d: dict[str, Any]) -> GameState:
    ph = d["phase"]
    phase = Phase(int(ph["year"]), str(ph["season"]), str(ph["kind"]))
    dislodged = [DislodgedUnit(_unit(x), x.get("attacker_from"), bool(x.get("by_convoy", False)),
                               x.get("attacker_power")) for x in d.get("dislodged", [])]
    owners = {str(k): str(v) for k, v in d.get("owners", {}).items()}
    powers = frozenset(board.power_ids)  # (a property that builds a tuple: asked once a state)
    for c, p in owners.items():
        if c not in board.centres or p not in powers:
            raise SaveFileError(f"unknown centre or power in owners: {c}: {p}")
    units = [_unit(x) for x in d.get("units", [])]
    for u in units + [x.unit for x in dislodged]:
        if u.power not in powers:
            raise SaveFileError(f"unknown power {u.power!r}")
    return GameState.build(board, phase, units, owners, dislodged, d.get("contested", []), _relations(d))


def game_to_dict(game: Game, table: SavedTable | None = None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "map": game.board.name,
        "edition": game.rules.edition.value,
        "end_year": game.end_year,
        "draw": list(game.draw) if game.draw else None,
        **({"short_game_by": game.short_game_by} if game.short_game_by != BY_CENTRES else {}),
        "table": table_object(table),
        "history": [_history_record(h, game.history[i - 1] if i else None) for i, h in enumerate(game.history)],
        "current": {"state": state_to_dict(game.state), "orders": [order_to_dict(o) for o in game.all_orders()],
                    **({"restarted": True} if game.history and not _follows(game.state, game.history[-1].next_state)
                       else {})},
    }


def _history_record(h: HistoryEntry, before: HistoryEntry | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"state": state_to_dict(h.state), "orders": [order_to_dict(o) for o in h.orders]}
    if h.disorder:
        record["disorder"] = sorted(h.disorder)
    if before is not None and not _follows(h.state, before.next_state):
        # a game imported from another program goes on from the recorded position where our
        # adjudication of the phase before differed (io/dipjson): not a damaged file
        record["restarted"] = True
    return record


def _follows(state: GameState, expected: GameState) -> bool:
    """Whether the stored ``state`` is the position ``expected`` by the replay.  Under Formal
    Diplomacy the relations may differ where declarations were made, at the start of a movement
    phase (the declarations come before the orders); the game stays formal or standard."""
    if (state.relations is None) != (expected.relations is None):
        return False
    if state.relations is not None and state.relations != expected.relations:
        if state.phase.kind != MOVEMENT:
            return False
        return state == expected.evolve(relations=state.relations)
    return state == expected


def game_from_dict(data: Any) -> tuple[Game, dict[str, Any]]:
    """The game and the table settings; SaveFileError if anything is off.

    The data is checked whole (schema, then names against the board) before anything is built.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFileError("this is not a Diplomacy Desktop saved game")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise SaveFileError(f"this game was saved by a newer version (format {version}); please update")
    check_shape(data)
    map_name = str(data.get("map", "standard"))
    try:
        board = load_board(map_name)
    except (OSError, ValueError, KeyError) as exc:
        raise SaveFileError(f"the saved game is damaged: $.map: there is no map called {map_name!r}") from exc
    check_names(data, board)
    try:
        return _game_from_dict(data, board)
    except SaveFileError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
        # a combination the schema cannot express (a unit where none can stand, ...)
        raise SaveFileError(f"the saved game is damaged: {exc}") from exc


#: builds a stored phase without adjudicating it (``io.gamestore``): (state, the orders' records,
#: disorder, rules, the state that followed it when the store knows it) -> the history entry
StoredPhaseFactory = Callable[[GameState, list[dict[str, Any]], frozenset[str], RuleSet, "GameState | None"],
                              HistoryEntry]


def _game_from_dict(data: dict[str, Any], board: Board, *,
                    stored: StoredPhaseFactory | None = None) -> tuple[Game, dict[str, Any]]:
    """The game of a checked save dict.  ``stored`` (a store's game, checked when it was read
    in): the phases are not replayed, each is made by ``stored`` (adjudicated when asked)."""
    rules = RuleSet.for_edition(str(data.get("edition", "classic")))
    end_year = data.get("end_year")
    history: list[HistoryEntry] = []
    expected: GameState | None = None
    records = data.get("history", [])
    states = [state_from_dict(board, h["state"]) for h in records]
    current = state_from_dict(board, data["current"]["state"])
    for i, h in enumerate(records):
        state = states[i]
        disorder = frozenset(h.get("disorder", ()))
        if stored is not None:
            # the state that followed (unless the game was restarted there, or under Formal
            # Diplomacy, where declarations change it): no adjudication needed to know it
            after_record = records[i + 1] if i + 1 < len(records) else data["current"]
            then = states[i + 1] if i + 1 < len(records) else current
            known = then if not after_record.get("restarted") and then.relations is None else None
            history.append(stored(state, h.get("orders", []), disorder, rules, known))
            continue
        orders = tuple(order_from_dict(o) for o in h.get("orders", []))
        if expected is not None and not h.get("restarted") and not _follows(state, expected):
            raise SaveFileError(f"phase {i + 1} ({state.phase.label}) does not follow from the phase before it")
        out = adjudicate_phase(state, orders, rules, disorder)
        history.append(HistoryEntry(state, orders, out.results, out.after, out.next_state, disorder, out.interned))
        expected = out.next_state
    if expected is not None and not data["current"].get("restarted") and not _follows(current, expected):
        raise SaveFileError("the current phase does not follow from the last adjudicated phase")
    game = Game(board, rules, current, int(end_year) if end_year is not None else None, history,
                short_game_by=str(data.get("short_game_by", BY_CENTRES)))
    for i, od in enumerate(data["current"].get("orders", [])):
        o = order_from_dict(od)
        mine = game.orders.setdefault(o.power, {})
        key = free_waive_key(mine) if isinstance(o, Waive) else order_key(o)
        if key in mine:
            raise SaveFileError(f"the saved game is damaged: $.current.orders[{i}]: expected one order a unit, "
                                f"found a second order of {o.power} for {key}")
        mine[key] = o
    if data.get("draw"):
        game.draw = tuple(data["draw"])
    table = data.get("table") or {}
    return game, table


def dumps(game: Game, table: SavedTable | None = None, *, vault: Vault | None = None) -> str:
    """The saved game's text.  With ``vault`` (a table playing in secret) the unrevealed part
    (this phase's orders, sealed declarations, notes, phone tokens) is written encrypted
    (``io.vault``): every store that writes this text holds no secret in the clear."""
    data = game_to_dict(game, table)
    if vault is not None:
        data = lock(data, vault)
    return json.dumps(data, indent=1, sort_keys=False)


def loads(text: str, *, passphrase: str | None = None, vault: Vault | None = None) -> tuple[Game, dict[str, Any]]:
    """The game and table; a file written under a vault opens whole with its ``passphrase`` (or
    the ``vault`` in memory), and without either with the public part only."""
    opened = open_text(text, passphrase=passphrase, vault=vault)
    return opened.game, opened.table


@dataclass(slots=True)
class OpenedGame:
    """A saved game as opened: ``vault`` is its key in memory (None: not a secret file, or not
    unlocked); ``locked``: the file holds secrets that stayed closed (no passphrase given)."""

    game: Game
    table: dict[str, Any]
    vault: Vault | None
    locked: bool
    #: opened with its key, but written by an earlier version that did not authenticate the
    #: file's public part (``io.vault.UNAUTHENTICATED_TEXT``: say so once)
    unauthenticated: bool = False


def open_text(text: str, *, passphrase: str | None = None, vault: Vault | None = None) -> OpenedGame:
    """Like ``loads``, also saying whether the secrets were opened.  WrongPassphraseError (a
    SaveFileError): the passphrase is wrong; TamperedFileError: the file was changed outside the
    app (its MAC does not match, or was removed)."""
    data = parse_json(text)
    locked = isinstance(data, dict) and is_locked(data)
    authenticated = False
    hidden = hidden_secret_part(data) if isinstance(data, dict) and not locked else None
    if hidden is not None:
        raise TamperedFileError(f"the file holds an encrypted part or its authentication ({hidden!r}) but not as the "
                                "app writes it: it was changed outside the app, and is refused")
    if locked:
        try:
            opened = unlock_checked(data, passphrase, vault)
        except TamperedError as exc:
            raise TamperedFileError(str(exc)) from None
        except VaultError as exc:
            raise WrongPassphraseError(str(exc)) from None
        vault, authenticated = opened.vault, opened.authenticated
    game, table = game_from_dict(data)
    still = locked and vault is None
    return OpenedGame(game, table, vault if locked else None, still, locked and not still and not authenticated)


def open_game(path: Path | str, *, passphrase: str | None = None, vault: Vault | None = None) -> OpenedGame:
    return open_text(read_text(Path(path)), passphrase=passphrase, vault=vault)


def is_secret_file(path: Path | str) -> bool:
    """Whether a saved game holds an encrypted part (cheap: only looks for the keys)."""
    try:
        return is_locked(parse_json(read_text(Path(path))))
    except SaveFileError:
        return False


def save_game(path: Path | str, game: Game, table: SavedTable | None = None, *,
              mode: int | None = None, vault: Vault | None = None) -> None:
    """Write atomically: a crash mid-write leaves the previous file intact.  ``mode``: see
    ``write_atomic``; ``vault``: see ``dumps``."""
    write_atomic(Path(path), dumps(game, table, vault=vault), mode=mode)


def write_atomic(path: Path, text: str | bytes, *, mode: int | None = None, sync: bool = True) -> None:
    """Write ``path`` through a temporary file in its folder and a rename.

    A symbolic link is followed (the file it points to is replaced, the link stays), and an
    existing file keeps its permission bits; a new file gets the usual ones (0666 less the umask).
    ``mode`` given: the file gets exactly these bits, new or not (the autosave, which holds every
    unrevealed order in the clear, is 0600 whatever the umask).  ``sync=False`` skips the fsync:
    the rename still makes the write atomic (a killed process leaves the old file or the new one),
    but a power cut may lose it (the table host's order drafts, written on every edit; its seals
    are synced).  With ``sync`` the folder is synced after the rename too.
    """
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = target.stat().st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(target.parent))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if sync:
        sync_folder(target.parent)


def sync_folder(folder: Path) -> None:
    """fsync a folder: a rename in it is on the disk once this returns (else a power cut may
    bring the old file back).  Systems that cannot open a folder (Windows) skip it."""
    try:
        fd = os.open(str(folder), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to sync a folder; the rename itself is done
    finally:
        os.close(fd)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def stale_temp_files(path: Path, *, older_than: float = STALE_TEMP_SECONDS, now: float | None = None) -> list[Path]:
    """Temporary files ``write_atomic`` began for ``path`` and never finished (the process was
    killed mid-write): only ours (named after ``path``), and only those not written to for
    ``older_than`` seconds, so that a write in progress is left alone."""
    import time

    limit = (time.time() if now is None else now) - older_than
    out = []
    for p in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        try:
            st = p.lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and st.st_mtime < limit:
            out.append(p)
    return sorted(out)


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def read_text(path: Path) -> str:
    """A saved game's text; SaveFileError if it cannot be read or is not UTF-8 text."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SaveFileError(f"cannot open the file: {exc.strerror or exc}") from exc
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise SaveFileError("UTF-16 is not supported, save as UTF-8")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        raise SaveFileError("this is not a saved game: it is not a text file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError("this is not a saved game: it is not a text file (or not UTF-8)") from None


def load_game(path: Path | str, *, passphrase: str | None = None,
              vault: Vault | None = None) -> tuple[Game, dict[str, Any]]:
    """The game and table saved in ``path``; SaveFileError (the file is not changed) if it is
    not a readable saved game.  Messages do not repeat the file's name: the caller adds it.
    A secret file opens with its public part only, unless ``passphrase`` or ``vault`` is given."""
    return loads(read_text(Path(path)), passphrase=passphrase, vault=vault)
