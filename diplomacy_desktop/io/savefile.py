"""Saved games: versioned JSON (schema documented in docs of this module and README).

    {
      "format": "diplomacy-desktop-game",
      "version": 1,
      "map": "standard",
      "edition": "classic" | "2023",
      "end_year": 1910 | null,
      "draw": null | ["england", "france"],
      "table": {...},                      # the table's settings (names, clock, secrecy): free-form
      "history": [ {"state": STATE, "orders": [ORDER, ...]}, ... ],   # adjudicated phases, in order
      "current": {"state": STATE, "orders": [ORDER, ...]}             # the phase being played
    }
    STATE = {"phase": {"year": 1901, "season": "spring", "kind": "movement"},
             "units": [{"power": "england", "type": "fleet", "location": "lon"}, ...],
             "dislodged": [{"power", "type", "location", "attacker_from", "by_convoy", "attacker_power"}],
             "contested": ["bur"], "owners": {"lon": "england", ...}}
    ORDER = {"power": "france", "kind": "move", "unit": "A", "location": "par",
             "destination": "bur", "via_convoy": false, ...}

Results are not stored: loading replays every phase (the engine is deterministic) and checks
that each replay arrives at the next stored position, so a tampered file is refused.
Writing is atomic: a temporary file in the same folder, then a rename.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..engine.board import ARMY, FLEET, Board
from ..engine.game import Game, HistoryEntry, free_waive_key, order_key
from ..engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from ..engine.rules import RuleSet
from ..engine.state import DislodgedUnit, GameState, Phase, Unit
from ..engine.turns import adjudicate_phase
from .boardfile import load_board

FORMAT = "diplomacy-desktop-game"
VERSION = 1


class SaveFileError(ValueError):
    """A file that is not a readable saved game; the message says why."""


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
    return cls(**fields)  # type: ignore[arg-type]


def _unit_dict(u: Unit) -> dict[str, str]:
    return {"power": u.power, "type": _TYPE[u.kind], "location": u.location}


def _unit(d: dict[str, Any]) -> Unit:
    kind = _TYPE_BACK.get(d["type"])
    if kind is None:
        raise SaveFileError(f"the saved game is damaged: unknown unit type {d['type']!r}")
    return Unit(str(d["power"]), kind, str(d["location"]))


def state_to_dict(s: GameState) -> dict[str, Any]:
    return {
        "phase": {"year": s.phase.year, "season": s.phase.season, "kind": s.phase.kind},
        "units": [_unit_dict(u) for u in s.units.values()],
        "dislodged": [{**_unit_dict(d.unit), "attacker_from": d.attacker_from, "by_convoy": d.by_convoy,
                       "attacker_power": d.attacker_power} for d in s.dislodged],
        "contested": sorted(s.contested),
        "owners": dict(s.owners),
    }


def state_from_dict(board: Board, d: dict[str, Any]) -> GameState:
    ph = d["phase"]
    phase = Phase(int(ph["year"]), str(ph["season"]), str(ph["kind"]))
    dislodged = [DislodgedUnit(_unit(x), x.get("attacker_from"), bool(x.get("by_convoy", False)),
                               x.get("attacker_power")) for x in d.get("dislodged", [])]
    owners = {str(k): str(v) for k, v in d.get("owners", {}).items()}
    for c, p in owners.items():
        if c not in board.centres or p not in board.power_ids:
            raise SaveFileError(f"unknown centre or power in owners: {c}: {p}")
    units = [_unit(x) for x in d.get("units", [])]
    for u in units + [x.unit for x in dislodged]:
        if u.power not in board.power_ids:
            raise SaveFileError(f"unknown power {u.power!r}")
    return GameState.build(board, phase, units, owners, dislodged, d.get("contested", []))


def game_to_dict(game: Game, table: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "map": game.board.name,
        "edition": game.rules.edition.value,
        "end_year": game.end_year,
        "draw": list(game.draw) if game.draw else None,
        "table": table or {},
        "history": [{"state": state_to_dict(h.state), "orders": [order_to_dict(o) for o in h.orders]}
                    for h in game.history],
        "current": {"state": state_to_dict(game.state), "orders": [order_to_dict(o) for o in game.all_orders()]},
    }


def game_from_dict(data: Any) -> tuple[Game, dict[str, Any]]:
    """The game and the table settings; SaveFileError if anything is off."""
    try:
        return _game_from_dict(data)
    except SaveFileError:
        raise
    except KeyError as exc:
        raise SaveFileError(f"the saved game is damaged: {exc.args[0]!r} is missing") from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise SaveFileError(f"the saved game is damaged: {exc}") from exc


def _game_from_dict(data: Any) -> tuple[Game, dict[str, Any]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFileError("this is not a Diplomacy Desktop saved game")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveFileError(f"the saved game has no valid format version (found {version!r})")
    if version > VERSION:
        raise SaveFileError(f"this game was saved by a newer version (format {version}); please update")
    board = load_board(str(data.get("map", "standard")))
    rules = RuleSet.for_edition(str(data.get("edition", "classic")))
    end_year = data.get("end_year")
    history: list[HistoryEntry] = []
    expected: GameState | None = None
    for i, h in enumerate(data.get("history", [])):
        state = state_from_dict(board, h["state"])
        if expected is not None and state != expected:
            raise SaveFileError(f"phase {i + 1} ({state.phase.label}) does not follow from the phase before it")
        orders = tuple(order_from_dict(o) for o in h.get("orders", []))
        out = adjudicate_phase(state, orders, rules)
        history.append(HistoryEntry(state, orders, out.results, out.after, out.next_state))
        expected = out.next_state
    current = state_from_dict(board, data["current"]["state"])
    if expected is not None and current != expected:
        raise SaveFileError("the current phase does not follow from the last adjudicated phase")
    game = Game(board, rules, current, int(end_year) if end_year is not None else None, history)
    for od in data["current"].get("orders", []):
        o = order_from_dict(od)
        mine = game.orders.setdefault(o.power, {})
        mine[free_waive_key(mine) if isinstance(o, Waive) else order_key(o)] = o
    if data.get("draw"):
        game.draw = tuple(data["draw"])
    table = data.get("table") or {}
    if not isinstance(table, dict):
        raise SaveFileError("the table settings are damaged")
    return game, table


def dumps(game: Game, table: dict[str, Any] | None = None) -> str:
    return json.dumps(game_to_dict(game, table), indent=1, sort_keys=False)


def loads(text: str) -> tuple[Game, dict[str, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"not a saved game: the JSON is broken at line {exc.lineno}, column {exc.colno}") from exc
    return game_from_dict(data)


def save_game(path: Path | str, game: Game, table: dict[str, Any] | None = None) -> None:
    """Write atomically: a crash mid-write leaves the previous file intact."""
    write_atomic(Path(path), dumps(game, table))


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load_game(path: Path | str) -> tuple[Game, dict[str, Any]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SaveFileError(f"{p.name} is not a saved game (not text)") from exc
    except OSError as exc:
        raise SaveFileError(f"cannot open {p}: {exc.strerror}") from exc
    return loads(text)
