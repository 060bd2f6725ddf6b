"""Games in and out: the saved-game JSON of the ``diplomacy`` package (the DAIDE/MILA engine).

That package's ``diplomacy.utils.export.to_saved_game_format`` writes a game as::

    {"id": "...", "map": "standard", "rules": [...],
     "phases": [{"name": "S1901M",
                 "state": {"name": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE", "*A BUR"]},
                           "centers": {"FRANCE": ["PAR", ...]}, "homes": {...},
                           "retreats": {"FRANCE": {"A BUR": ["PIC", "GAS"]}}, "builds": {...}, ...},
                 "orders": {"FRANCE": ["A PAR - BUR", "F BRE S A PAR - PIC", "A MAR - SPA VIA"]},
                 "results": {"A PAR": ["bounce"], "F BRE": ["void"], "A BUR": ["dislodged"]},
                 "messages": []},
                ...,
                {"name": "F1903M", "state": {...}, "orders": {...}, "results": {}}]}

Every phase but the last is adjudicated (its orders and their results); the last is the phase
being played (or ``COMPLETED``).  Units are ``A PAR`` / ``F STP/SC``, ``*`` marks a dislodged unit;
orders are ``H``, ``-`` (``VIA``: by convoy), ``S``, ``C``, ``R``, ``D`` (a retreat phase's
disband, an adjustment phase's removal), ``B`` (build) and ``WAIVE``.  Results per unit are lists
of ``bounce``, ``cut``, ``dislodged``, ``no convoy``, ``disrupted``, ``void``, ``disband`` and
``""`` (an adjustment carried out).

:func:`import_saved_game` replays such a game with our adjudicator, phase by phase, and lists every
difference from the recorded results with our reason; :func:`export_saved_game` writes our games in
the same format (adjudicated history only: the orders of the phase being played are never written).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.board import ARMY, Board, province_of
from ..engine.explain import explain, results_by_province
from ..engine.game import Game, HistoryEntry
from ..engine.orders import (Build, Convoy, Disband, Hold, Move, Order, OrderStyle, Remove, Retreat,
                             SupportHold, SupportMove, UnitOrder, Waive)
from ..engine.results import OrderResult, Outcome
from ..engine.rules import Edition, RuleSet
from ..engine.state import ADJUSTMENT, FALL, MOVEMENT, RETREAT, SPRING, DislodgedUnit, GameState, Phase, Unit
from ..engine.turns import adjudicate_phase, has_adjustments
from ..engine.validation import retreat_destinations
from .boardfile import load_board

#: the map this app plays; the package's other maps (ancmed, modern, pure ...) are refused
STANDARD_MAP = "standard"
#: the package's rules that change the game itself (the others are about press, deadlines and
#: the server): a game played under them cannot be replayed by the standard rules
FOREIGN_RULES = {
    "BUILD_ANY": "builds in any owned supply centre (a variant: the standard game builds only in home centres)",
}
#: the last phase of a finished game
COMPLETED = "COMPLETED"
#: how a refusal of a file in another format begins
NOT_OURS = "not a saved game of the diplomacy package"
#: the largest file read (a long game is a few megabytes)
MAX_BYTES = 64 * 1024 * 1024

_SEASON = {"S": SPRING, "F": FALL, "W": FALL}
_KIND = {"M": MOVEMENT, "R": RETREAT, "A": ADJUSTMENT}
_PHASE_RE = re.compile(r"^([SFW])(\d{4})([MRA])$")
_UNIT_RE = re.compile(r"^([AF]) ([A-Z]{3}(?:/[NESW]C)?)$")


class InterchangeError(ValueError):
    """A file that is not a game of the ``diplomacy`` package we can read; the message says what
    is wrong and where."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where our adjudication of a recorded phase differs from the recorded one."""

    phase: str  # "S1901M"
    power: str  # our power id ("" for the position)
    order: str  # the order in the package's notation ("" for the position)
    theirs: str
    ours: str
    reason: str  # our reason (the engine's explanation, or what differs in the position)

    def text(self) -> str:
        what = f"{self.order}: " if self.order else ""
        return f"{self.phase} {what}theirs {self.theirs}; ours {self.ours} — {self.reason}"


@dataclass(slots=True)
class ImportedGame:
    game: Game
    game_id: str
    differences: list[Difference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the adjudicated phases replayed
    phases: int = 0
    #: replayed under another edition than the file's own (classic): the caller offers to replay it as classic
    replay_as_classic: bool = False


# -- reading the file ---------------------------------------------------------------------------


#: what a file that is not JSON looks like, by its first bytes
_MAGIC = ((b"PK\x03\x04", ("a ZIP archive (jDip saves its games as .jdip ZIP archives; export the game from jDip "
                            "as text, or open it in the program that wrote it)")),
          (b"%PDF", "a PDF document"), (b"\x89PNG", "a PNG picture"), (b"\xff\xd8\xff", "a JPEG picture"),
          (b"GIF8", "a GIF picture"), (b"SQLite format 3\x00", "an SQLite database"))


def looks_like(raw: bytes | str, data: Any = None) -> str | None:
    """What a file that is not a saved game of the diplomacy package seems to be (None: no idea)."""
    head = raw[:4096] if isinstance(raw, bytes) else raw[:4096].encode("utf-8", "replace")
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return what
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    low = text.lower()
    if low.startswith(("<!doctype html", "<html")):
        return "a web page (HTML); save the game itself, not the page showing it"
    if low.startswith(("<?xml", "<")):
        return "an XML document"
    if re.search(r"^\s*case\b", text, re.IGNORECASE | re.MULTILINE) and not text.startswith(("{", "[")):
        return "a DATC scenario file (check it with \"diplomacy-desktop adjudicate FILE\")"
    if isinstance(data, Mapping):
        if data.get("format") == "diplomacy-desktop-game":
            return "a Diplomacy Desktop saved game (open it in the app, or convert it the other way)"
        if "phase_history" in data or "state_history" in data:
            return ("the diplomacy package's game object (Game.to_dict), not its saved-game format: write it with "
                    "diplomacy.utils.export.to_saved_game_format")
        if {"gameID", "variantID"} & set(data) or "turn" in data and "units" in data:
            return "webDiplomacy's own game data (its site's JSON)"
    if isinstance(data, list):
        return "a JSON list, not one game (a saved game is an object with 'phases')"
    if re.match(r"^[^,\n]+(,[^,\n]*){2,}\n", text):
        return "a CSV table"
    return None


def read_json(raw: bytes | str, name: str = "the file") -> Any:
    """The JSON document in ``raw`` (the first line of a .jsonl file of several games)."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_BYTES:
            raise InterchangeError(f"{name} is larger than {MAX_BYTES // (1024 * 1024)} MB: not a saved game")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            what = looks_like(raw)
            if what:
                raise InterchangeError(f"{name} is {NOT_OURS}: it looks like {what}") from None
            raise InterchangeError(f"{name} is not text (byte {exc.start} is not UTF-8): not a saved game") from exc
    else:
        text = raw
    stripped = text.strip()
    if not stripped:
        raise InterchangeError(f"{name} is empty")
    try:
        return json.loads(stripped)
    except json.JSONDecodeError as exc:
        lines = [line for line in stripped.splitlines() if line.strip()]
        if len(lines) > 1 and lines[0].lstrip().startswith("{"):
            try:  # a .jsonl file: one game per line; the first one is read
                return json.loads(lines[0])
            except json.JSONDecodeError:
                pass
        what = looks_like(stripped)
        if what:
            raise InterchangeError(f"{name} is {NOT_OURS}: it looks like {what}") from None
        where = f"line {exc.lineno}, column {exc.colno}"
        if exc.pos >= len(stripped) - 1 or "Unterminated" in exc.msg or "Expecting" in exc.msg and \
                exc.pos >= len(stripped) - 2:
            raise InterchangeError(f"{name} is cut short ({where}: {exc.msg}): the file is truncated") from exc
        raise InterchangeError(f"{name} is not JSON ({where}: {exc.msg})") from exc
    except RecursionError:
        raise InterchangeError(f"{name} is not a saved game: its brackets are nested too deeply") from None


def _phase_of(name: Any, where: str) -> Phase:
    if not isinstance(name, str):
        raise InterchangeError(f"{where}: the phase has no name")
    m = _PHASE_RE.match(name)
    if m is None:
        raise InterchangeError(f"{where}: {name!r} is not a phase name like S1901M, F1901R or W1901A")
    letter, year, kind = m.groups()
    if (letter == "W") != (kind == "A"):
        raise InterchangeError(f"{where}: {name!r} is not a phase of the standard game")
    return Phase(int(year), _SEASON[letter], _KIND[kind])


class _Reader:
    """Reads the package's notation against our board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.powers = {p.upper(): p for p in board.power_ids}

    def power(self, name: Any, where: str) -> str:
        if not isinstance(name, str) or name.upper() not in self.powers:
            known = ", ".join(sorted(self.powers))
            raise InterchangeError(f"{where}: {name!r} is not a power of the standard game ({known})")
        return self.powers[name.upper()]

    def location(self, text: str, where: str) -> str:
        loc = text.lower()
        if not self.board.is_location(loc):
            raise InterchangeError(f"{where}: {text!r} is not a space of the standard map")
        return loc

    def unit(self, text: Any, where: str) -> tuple[str, str]:
        """``A PAR`` -> ("A", "par"); ``F STP/SC`` -> ("F", "stp/sc")."""
        if not isinstance(text, str):
            raise InterchangeError(f"{where}: {text!r} is not a unit")
        m = _UNIT_RE.match(text.strip().upper())
        if m is None:
            raise InterchangeError(f"{where}: {text!r} is not a unit like 'A PAR' or 'F STP/SC'")
        return m.group(1), self.location(m.group(2), where)

    def order(self, text: Any, power: str, phase: Phase, where: str) -> Order:
        """One order in the package's notation as our order (its unit kind as written)."""
        if not isinstance(text, str) or not text.strip():
            raise InterchangeError(f"{where}: {text!r} is not an order")
        words = text.strip().upper().split()
        here = f"{where}: order {text!r}"
        if words == ["WAIVE"]:
            return Waive(power)
        if len(words) < 3:
            raise InterchangeError(f"{here} is incomplete")
        kind, loc = self.unit(" ".join(words[:2]), here)
        verb, rest = words[2], words[3:]
        order: Order | None = None
        try:
            if verb in ("S", "C"):
                order = self._support_or_convoy(verb, rest, power, kind, loc, here)
            else:
                order = self._unit_order(verb, rest, power, kind, loc, phase, here)
        except InterchangeError:
            raise
        except ValueError:
            pass
        if order is None:
            raise InterchangeError(f"{here} is not an order in the diplomacy package's notation")
        return order

    def _unit_order(self, verb: str, rest: list[str], power: str, kind: str, loc: str, phase: Phase,
                    here: str) -> Order | None:
        """A hold, move, retreat, disband, removal or build (None if the words are none of them)."""
        if verb == "H" and not rest:
            return Hold(power, kind, loc)
        if verb == "-" and rest:
            via = rest[-1] == "VIA"
            if via:
                rest = rest[:-1]
            if len(rest) != 1:
                return None
            dest = self.location(rest[0], here)
            if phase.kind == RETREAT:
                return Retreat(power, kind, loc, dest)
            return Move(power, kind, loc, dest, via)
        if verb == "R" and len(rest) == 1:
            return Retreat(power, kind, loc, self.location(rest[0], here))
        if verb == "D" and not rest:
            return Remove(power, kind, loc) if phase.kind == ADJUSTMENT else Disband(power, kind, loc)
        if verb == "B" and not rest:
            return Build(power, kind, loc)
        return None

    def _support_or_convoy(self, verb: str, rest: list[str], power: str, kind: str, loc: str,
                           here: str) -> Order | None:
        """``S`` or ``C`` and the words after it (None if they are not a support or a convoy)."""
        if len(rest) < 2:
            return None
        tkind, target = self.unit(" ".join(rest[:2]), here)
        tail = rest[2:]
        if verb == "S" and (not tail or tail == ["H"]):
            return SupportHold(power, kind, loc, tkind, target)
        if len(tail) == 2 and tail[0] == "-":
            dest = self.location(tail[1], here)
            if verb == "S":
                return SupportMove(power, kind, loc, tkind, target, dest)
            return Convoy(power, kind, loc, tkind, target, dest)
        return None

    def state(self, ph: Mapping[str, Any], where: str) -> GameState:
        """The position recorded for a phase (dislodged units from the ``*`` marks)."""
        phase = _phase_of(ph.get("name"), where)
        st = ph.get("state")
        if not isinstance(st, Mapping):
            raise InterchangeError(f"{where}: the phase has no state")
        units_in = st.get("units")
        centres_in = st.get("centers")
        if not isinstance(units_in, Mapping) or not isinstance(centres_in, Mapping):
            raise InterchangeError(f"{where}: the state has no units or no supply centres")
        units, dislodged = self._units(units_in, where)
        owners = self._owners(centres_in, where)
        retreats = self._retreats(st.get("retreats"), where)
        try:
            base = GameState.build(self.board, phase, units, owners)
            if not dislodged:
                return base
            # who dislodged them is not recorded: the spaces they may not retreat to are
            return GameState.build(self.board, phase, units, owners, [DislodgedUnit(u) for u in dislodged],
                                   self._closed(base, dislodged, retreats))
        except ValueError as exc:
            raise InterchangeError(f"{where}: the position is impossible: {exc}") from exc

    def _units(self, units_in: Mapping[str, Any], where: str) -> tuple[list[Unit], list[Unit]]:
        """The units on the board and the dislodged ones (marked ``*``)."""
        units: list[Unit] = []
        dislodged: list[Unit] = []
        for name, listed in units_in.items():
            power = self.power(name, where)
            if not isinstance(listed, list):
                raise InterchangeError(f"{where}: the units of {name} are not a list")
            for text in listed:
                gone = isinstance(text, str) and text.startswith("*")
                kind, loc = self.unit(text[1:] if gone else text, where)
                (dislodged if gone else units).append(Unit(power, kind, loc))
        return units, dislodged

    def _owners(self, centres_in: Mapping[str, Any], where: str) -> dict[str, str]:
        """Supply centre -> its owner."""
        owners: dict[str, str] = {}
        for name, listed in centres_in.items():
            power = self.power(name, where)
            if not isinstance(listed, list):
                raise InterchangeError(f"{where}: the supply centres of {name} are not a list")
            for text in listed:
                prov = self.location(str(text), where)
                if prov not in self.board.centres:
                    raise InterchangeError(f"{where}: {text!r} is not a supply centre")
                owners[prov] = power
        return owners

    def _retreats(self, raw_retreats: Any, where: str) -> dict[str, list[str]]:
        """The recorded retreat options: the dislodged unit's province -> where it may go."""
        retreats: dict[str, list[str]] = {}
        if not isinstance(raw_retreats, Mapping):
            return retreats
        for per_power in raw_retreats.values():
            if isinstance(per_power, Mapping):
                for unit_text, options in per_power.items():
                    _, loc = self.unit(unit_text, where)
                    retreats[province_of(loc)] = [province_of(str(o).lower()) for o in options or ()]
        return retreats

    def _closed(self, state: GameState, dislodged: list[Unit], retreats: Mapping[str, list[str]]) -> set[str]:
        """The empty spaces next to a dislodged unit that the recorded retreat options leave out
        (the attacker's origin, standoffs): recorded as contested, so our retreats agree."""
        closed: set[str] = set()
        board = self.board
        for u in dislodged:
            allowed = retreats.get(u.province)
            if allowed is None:
                continue
            moves = board.army_moves[u.province] if u.kind == ARMY else board.fleet_moves[u.location]
            for loc in moves:
                prov = province_of(loc)
                if prov not in state.units and prov not in allowed:
                    closed.add(prov)
        return closed


def _check_game(data: Any) -> list[Mapping[str, Any]]:
    if not isinstance(data, Mapping) or not isinstance(data.get("phases"), list):
        what = looks_like("", data)
        if what:
            raise InterchangeError(f"the file is {NOT_OURS}: it looks like {what}")
    if not isinstance(data, Mapping):
        raise InterchangeError("the file is JSON but not a saved game of the diplomacy package "
                               "(it is not an object with 'phases')")
    map_name = data.get("map", STANDARD_MAP)
    if map_name != STANDARD_MAP:
        raise InterchangeError(f"the game is played on the map {map_name!r}; only the standard map "
                               f"({STANDARD_MAP!r}) can be imported")
    rules = data.get("rules", [])
    if not isinstance(rules, list):
        raise InterchangeError("'rules' is not a list")
    for rule in rules:
        if rule in FOREIGN_RULES:
            raise InterchangeError(f"the game uses the rule {rule}: {FOREIGN_RULES[rule]}; it cannot be "
                                   f"replayed by the standard rules")
    phases = data.get("phases")
    if not isinstance(phases, list):
        raise InterchangeError("the file has no 'phases' list: not a saved game of the diplomacy package")
    if not phases:
        raise InterchangeError("the game has no phases")
    _check_phases(phases)
    return phases


def _check_phases(phases: list[Any]) -> None:
    """Each phase an object with a phase name, the standard map, and the phases in order."""
    for i, ph in enumerate(phases):
        if not isinstance(ph, Mapping):
            raise InterchangeError(f"phase {i + 1} is not an object")
        name = ph.get("name")
        if i < len(phases) - 1 or name != COMPLETED:
            _phase_of(name, f"phase {i + 1}")
        st = ph.get("state")
        if isinstance(st, Mapping) and st.get("map", STANDARD_MAP) != STANDARD_MAP:
            raise InterchangeError(f"phase {name}: the map {st.get('map')!r} is not the standard map")
        for part in ("orders", "results"):
            if part in ph and ph[part] is not None and not isinstance(ph[part], Mapping):
                raise InterchangeError(f"phase {name}: '{part}' is not an object")
    if phases[0].get("name") == COMPLETED:
        raise InterchangeError("the game has no phase before COMPLETED")
    for a, b in itertools.pairwise(phases):
        if b.get("name") != COMPLETED and not _phase_of(a["name"], "") < _phase_of(b["name"], ""):
            raise InterchangeError(f"phase {b['name']} follows {a['name']}: the phases are out of order "
                                   f"(or one is missing)")


# -- comparing results -------------------------------------------------------------------------


def _their_results(ph: Mapping[str, Any], reader: _Reader, where: str) -> dict[str, list[str]]:
    """The recorded results by our province (``WAIVE`` kept as it is)."""
    raw = ph.get("results") or {}
    out: dict[str, list[str]] = {}
    for key, listed in raw.items():
        if not isinstance(listed, list):
            raise InterchangeError(f"{where}: the result of {key!r} is not a list")
        if key == "WAIVE":
            out.setdefault("WAIVE", []).extend(str(x) for x in listed)
            continue
        _, loc = reader.unit(key, where)
        out[province_of(loc)] = [str(x) for x in listed]
    return out


def _reason(r: OrderResult, entry: HistoryEntry) -> str:
    ex = explain(r, entry.state, entry.results)
    rule = f" (rule {ex.rule})" if ex.rule else ""
    return f"{ex.verdict}: {ex.reason}{rule}"


_FAILED_MOVE = {"bounce", "no convoy", "void", "disrupted"}


def _support_view(r: OrderResult) -> str:
    if r.outcome in (Outcome.VOID, Outcome.ILLEGAL):
        return "void"
    return "cut" if r.code == "cut" else "given"


def _their_support_view(listed: list[str]) -> str:
    if "cut" in listed:
        return "cut"
    return "void" if ("void" in listed or "no convoy" in listed) else "given"


def _support_without_effect(r: OrderResult, by_province: Mapping[str, OrderResult]) -> bool:
    """Our support was given but did nothing the package would count: it supported its own
    power's attack on its own unit (we give it and do not count it, rules IX.3; they call it
    void), or the army it supported was to go by convoy and never arrived."""
    order = r.order
    if not isinstance(order, (SupportMove, SupportHold)):
        return False
    target = by_province.get(order.target_province)
    if target is None:
        return False
    return any(p == order.province and why == "own_unit" for p, why in target.not_counted)


def _supported_army_stayed(r: OrderResult, by_province: Mapping[str, OrderResult]) -> bool:
    """The support was for an army to go by convoy, which found no convoy: the package calls the
    support void whatever else happened to it."""
    order = r.order
    if not isinstance(order, SupportMove):
        return False
    target = by_province.get(order.target_province)
    return target is not None and target.code == "no_convoy"


def _compare_movement(entry: HistoryEntry, theirs: dict[str, list[str]], name: str,
                      written: dict[str, str]) -> list[Difference]:
    out: list[Difference] = []
    by_province = results_by_province(entry.results)
    for prov, unit in entry.state.units.items():
        r = by_province.get(prov)
        listed = theirs.get(prov)
        if r is None or listed is None:
            continue
        label = written.get(prov, f"{unit.kind} {unit.location.upper()} H")
        their_dis, our_dis = "dislodged" in listed, r.dislodged
        order = r.order
        if r.outcome is Outcome.ILLEGAL:
            if listed and set(listed) <= {"void", "dislodged"}:
                pass  # both: the order has no effect, the unit holds
            else:
                out.append(Difference(name, unit.power, label, _listed(listed), "illegal", _reason(r, entry)))
        elif isinstance(order, Move):
            their_moved = not (set(listed) & _FAILED_MOVE)
            if their_moved != r.succeeded:
                out.append(Difference(name, unit.power, label, "moves" if their_moved else _listed(listed),
                                      "moves" if r.succeeded else r.code.replace("_", " "), _reason(r, entry)))
        elif isinstance(order, (SupportHold, SupportMove)):
            mine, theirs_view = _support_view(r), _their_support_view(listed)
            if mine != theirs_view and not (theirs_view == "void" and (
                    (mine == "given" and _support_without_effect(r, by_province))
                    or _supported_army_stayed(r, by_province))):
                out.append(Difference(name, unit.power, label, theirs_view, mine, _reason(r, entry)))
        if their_dis != our_dis:
            out.append(Difference(name, unit.power, label, "dislodged" if their_dis else "not dislodged",
                                  "dislodged" if our_dis else "not dislodged", _attack_reason(prov, entry, r)))
    return out


#: why an adjacent move with a convoy of its own power's fleets may differ
ADJACENT_CONVOY_CAUSE = (
    "webDiplomacy's convention: an army ordered to an adjacent province goes over land unless its order says "
    "\"via convoy\"; by the rules (seed 000 XII.6, intent shown by the player's orders; DATC 4.A.3) a convoy "
    "its own power's fleets were ordered to make is used")


def _adjacent_convoy_cause(diffs: list[Difference], entry: HistoryEntry, board: Board) -> list[Difference]:
    """Differences about an army moved to an adjacent province, without "via convoy", that fleets
    of its own power were ordered to convoy (or about the provinces it moved between): they name
    webDiplomacy's convention as the likely cause."""
    if entry.state.phase.kind != MOVEMENT:
        return diffs
    moves = [o for o in entry.orders if isinstance(o, Move) and not o.via_convoy
             and (u := entry.state.units.get(o.province)) is not None and u.kind == ARMY
             and province_of(o.destination) in board.army_moves[o.province]]
    places: set[str] = set()
    for m in moves:
        if any(isinstance(c, Convoy) and c.power == m.power and province_of(c.target) == m.province
               and province_of(c.destination) == province_of(m.destination) for c in entry.orders):
            places |= {m.province.upper(), province_of(m.destination).upper()}
    if not places:
        return diffs
    out = []
    for d in diffs:
        text = f"{d.order} {d.theirs} {d.ours}"
        if any(re.search(rf"\b{p}\b", text) for p in places):
            d = Difference(d.phase, d.power, d.order, d.theirs, d.ours, f"{d.reason} — likely cause: "
                           f"{ADJACENT_CONVOY_CAUSE}")
        out.append(d)
    return out


def _attack_reason(prov: str, entry: HistoryEntry, own: OrderResult) -> str:
    """Why the unit in ``prov`` was (or was not) dislodged: our reasons for the moves into it."""
    attacks = [r for r in entry.results if isinstance(r.order, Move) and r.outcome is not Outcome.ILLEGAL
               and r.order.target_province == prov]
    if not attacks:
        return "no unit moved into it; " + _reason(own, entry)
    return "; ".join(f"{order_text(r.order, entry.state)} {_reason(r, entry)}" for r in attacks)


def _listed(listed: list[str]) -> str:
    shown = [x for x in listed if x]
    return ", ".join(shown) if shown else "succeeds"


def _compare_retreats(entry: HistoryEntry, theirs: dict[str, list[str]], name: str,
                      written: dict[str, str]) -> list[Difference]:
    out: list[Difference] = []
    mine: dict[str, OrderResult] = {}
    for res in entry.results:
        if isinstance(res.order, UnitOrder) and res.outcome is not Outcome.ILLEGAL:
            mine[res.order.province] = res
    for d in entry.state.dislodged:
        listed = theirs.get(d.province)
        r = mine.get(d.province)
        if listed is None or r is None:
            continue
        their_stays = "disband" not in listed and "bounce" not in listed and "void" not in listed
        our_stays = r.code == "retreated"
        if their_stays != our_stays:
            label = written.get(d.province, f"{d.unit.kind} {d.unit.location.upper()} D")
            out.append(Difference(name, d.unit.power, label, "retreats" if their_stays else _listed(listed),
                                  "retreats" if our_stays else "disbanded", _reason(r, entry)))
    return out


def _compare_adjustments(entry: HistoryEntry, theirs: dict[str, list[str]], name: str) -> list[Difference]:
    out: list[Difference] = []
    for r in entry.results:
        order = r.order
        if isinstance(order, Waive) or not isinstance(order, (Build, Remove)) or r.code == "disorder":
            continue
        listed = theirs.get(order.province)
        if listed is None:
            continue
        their_done = "void" not in listed
        our_done = r.outcome is Outcome.SUCCESS
        if their_done != our_done:
            out.append(Difference(name, order.power, order_text(order), _listed(listed) if not their_done
                                  else "carried out", "carried out" if our_done else "not carried out",
                                  _reason(r, entry)))
    return out


def _position_differences(name: str, ours: GameState, theirs: GameState, board: Board) -> list[Difference]:
    out: list[Difference] = []
    if ours.phase != theirs.phase:
        out.append(Difference(name, "", "", f"next phase {theirs.phase.short}", f"next phase {ours.phase.short}",
                              "the phases that follow differ (a phase with nothing to do is skipped)"))
    mine = {(u.power, u.kind, u.location) for u in ours.units.values()}
    recorded = {(u.power, u.kind, u.location) for u in theirs.units.values()}
    for p, k, loc in sorted(recorded - mine):
        out.append(Difference(name, p, "", f"{board.power(p).name} {k} {loc.upper()} on the board",
                              "not there", "the position after the phase differs"))
    for p, k, loc in sorted(mine - recorded):
        out.append(Difference(name, p, "", "not there", f"{board.power(p).name} {k} {loc.upper()} on the board",
                              "the position after the phase differs"))
    if _waiting(ours, theirs) != {d.unit for d in theirs.dislodged}:
        out.append(Difference(name, "", "", _units(d.unit for d in theirs.dislodged),
                              _units(_waiting(ours, theirs)), "the dislodged units differ"))
    if dict(ours.owners) != dict(theirs.owners):
        changed = sorted(c for c in set(ours.owners) | set(theirs.owners)
                         if ours.owners.get(c) != theirs.owners.get(c))
        out.append(Difference(name, "", "", ", ".join(f"{c.upper()} {theirs.owners.get(c, '-')}" for c in changed),
                              ", ".join(f"{c.upper()} {ours.owners.get(c, '-')}" for c in changed),
                              "the supply centre owners differ"))
    return out


def _same_position(ours: GameState, theirs: GameState) -> bool:
    """The same phase, units, dislodged units and centre owners (who dislodged whom is not
    recorded in their file)."""
    return (ours.phase == theirs.phase and dict(ours.units) == dict(theirs.units)
            and _waiting(ours, theirs) == {d.unit for d in theirs.dislodged}
            and dict(ours.owners) == dict(theirs.owners))


def _waiting(ours: GameState, theirs: GameState) -> set[Unit]:
    """Our dislodged units, less those that cannot retreat and that the package left out: it
    disbands them at once, where we disband them in the retreat phase."""
    recorded = {d.unit for d in theirs.dislodged}
    return {d.unit for d in ours.dislodged if d.unit in recorded or retreat_destinations(ours, d.province)}


def _units(units: Iterable[Unit]) -> str:
    return ", ".join(sorted(f"{u.kind} {u.location.upper()}" for u in units)) or "none"


# -- import --------------------------------------------------------------------------------------


def import_saved_game(data: Any, *, edition: Edition | str = Edition.CLASSIC,
                      board: Board | None = None) -> ImportedGame:
    """Replay a saved game of the ``diplomacy`` package with our adjudicator.

    The result holds the game (its history: every adjudicated phase; its current phase: the last
    recorded one, without orders) and every difference between our results and the recorded ones,
    with our reason.  Where the position after a phase differs, the replay goes on from the
    recorded position, so one difference does not become many.  A file that is not such a game,
    or is not of the standard map, raises :class:`InterchangeError`."""
    board = board if board is not None else load_board(STANDARD_MAP)
    reader = _Reader(board)
    phases = _check_game(data)
    game_id = str(data.get("id") or "")
    first = phases[0]
    game = Game(board, RuleSet.for_edition(edition), reader.state(first, f"phase {first.get('name')}"))
    imported = ImportedGame(game, game_id)
    for i, ph in enumerate(phases[:-1]):
        name = str(ph["name"])
        where = f"phase {name}"
        recorded = reader.state(ph, where)
        orders_in = ph.get("orders") or {}
        their = _their_results(ph, reader, where)
        written = _written_orders(orders_in, reader, recorded.phase, where)
        if game.state.phase != recorded.phase:
            if not written and not their:
                imported.notes.append(f"{name}: a phase with nothing to do, which we skip")
                continue
            game.state = recorded
        elif not _same_position(game.state, recorded):
            imported.differences.extend(_position_differences(name, game.state, recorded, board))
            game.state = recorded
        nxt = phases[i + 1]
        if nxt.get("name") == COMPLETED and not written and not their:
            _finish(imported, nxt, reader, name, played=False)
            break
        if game.is_over:
            end = game.ended
            imported.notes.append(f"{name}: by our rules the game was over before this phase "
                                  f"({end.text if end else ''}); the phases from here on are not replayed")
            break
        for _, _, order in written:  # as recorded: an order the rules cannot carry out is kept, the unit holds
            game.set_order(order, allow_illegal=True, allow_ambiguous=True)
        entry = game.adjudicate()
        imported.phases += 1
        by_prov = {o.province: text.strip().upper() for _, text, o in written if isinstance(o, UnitOrder)}
        imported.differences.extend(_compare_phase(recorded.phase.kind, entry, their, name, by_prov, board))
        if nxt.get("name") == COMPLETED:
            _finish(imported, nxt, reader, name)
            break
        _catch_up(imported, reader.state(nxt, f"phase {nxt.get('name')}"), entry, name)
    _closing_notes(imported, phases, reader)
    return imported


def _written_orders(orders_in: Mapping[str, Any], reader: _Reader, phase: Phase, where: str
                    ) -> list[tuple[str, str, Order]]:
    """A phase's recorded orders: (power, the text as written, our order)."""
    written: list[tuple[str, str, Order]] = []
    for power_name, listed in orders_in.items():
        power = reader.power(power_name, where)
        for text in listed or ():
            written.append((power, str(text), reader.order(text, power, phase, f"{where}, {power_name}")))
    return written


def _compare_phase(kind: str, entry: HistoryEntry, their: dict[str, list[str]], name: str,
                   by_prov: dict[str, str], board: Board) -> list[Difference]:
    """Where our results of an adjudicated phase differ from the recorded ones."""
    if kind == MOVEMENT:
        return _adjacent_convoy_cause(_compare_movement(entry, their, name, by_prov), entry, board)
    if kind == RETREAT:
        return _compare_retreats(entry, their, name, by_prov)
    return _compare_adjustments(entry, their, name)


def _catch_up(imported: ImportedGame, following: GameState, entry: HistoryEntry, name: str) -> None:
    """After a replayed phase: on to the recorded next phase, noting where our position differs
    (the replay goes on from the recorded one)."""
    game, board = imported.game, imported.game.board
    if (game.state.phase.kind == RETREAT and following.phase != game.state.phase
            and not any(retreat_destinations(game.state, d.province) for d in game.state.dislodged)):
        # the package disbands a dislodged unit that cannot retreat at once, without a retreat
        # phase; we play that phase, in which it is disbanded
        imported.notes.append(f"{game.state.phase.short}: no dislodged unit can retreat; the package skips "
                              f"this phase, we disband them in it")
        game.adjudicate()
    same_phase = game.state.phase == following.phase
    if (same_phase and not _same_position(game.state, following)) or (
            not same_phase and not _phase_after_skips(game.state, following)):
        imported.differences.extend(_adjacent_convoy_cause(
            _position_differences(name, game.state, following, board), entry, board))
        game.state = following


def _closing_notes(imported: ImportedGame, phases: list[Mapping[str, Any]], reader: _Reader) -> None:
    """The notes on the whole replay: the edition, the orders of a phase not yet adjudicated."""
    game = imported.game
    if game.rules.edition is not Edition.CLASSIC and imported.phases:
        imported.notes.append(
            f"This game was adjudicated under classic conventions (the diplomacy package and webDiplomacy follow "
            f"the 2000 rulebook and the DATC); it was replayed here under the {game.rules.edition.value} edition, "
            "so a difference may come from the edition, not from the game. Replay it as classic to compare "
            "like with like (the window's Replay as classic; on the command line, --rules classic).")
        imported.replay_as_classic = True
    last = phases[-1]
    if last.get("name") != COMPLETED:
        pending = sum(len(v or ()) for v in (last.get("orders") or {}).values())
        if pending:
            imported.notes.append(f"{last['name']}: {pending} orders not yet adjudicated were left out "
                                  f"(they are still secret)")
        if len(phases) == 1:
            game.state = reader.state(last, f"phase {last['name']}")


def _phase_after_skips(ours: GameState, following: GameState) -> bool:
    """Whether the recorded next phase is one we skip (nothing to do) before our next phase: their
    file keeps empty phases under the DONT_SKIP_PHASES rule; the import skips them."""
    return following.phase < ours.phase and (
        (following.phase.kind == RETREAT and not following.dislodged)
        or (following.phase.kind == ADJUSTMENT and not has_adjustments(following)))


def _finish(imported: ImportedGame, completed: Mapping[str, Any], reader: _Reader, name: str, *,
            played: bool = True) -> None:
    """The game ended after ``name`` (or in it, before it was played): compare the final position
    (their COMPLETED state)."""
    st = completed.get("state")
    note = st.get("note") if isinstance(st, Mapping) else None
    when = f"after {name}" if played else f"in {name}, before that phase was played"
    imported.notes.append(f"The game was completed {when}" + (f" ({note})" if note else ""))
    if not isinstance(st, Mapping):
        return
    game = imported.game
    if played and game.state.phase.kind == RETREAT and game.state.dislodged and not game.is_over \
            and not any(retreat_destinations(game.state, d.province) for d in game.state.dislodged):
        # the package disbanded them at once and updated the owners before it ended the game;
        # we do it in our retreat phase, so the final position is compared after it
        imported.notes.append(f"{game.state.phase.short}: no dislodged unit can retreat; the package skips "
                              f"this phase, we disband them in it")
        game.adjudicate()
    final = dict(completed)
    final["name"] = game.state.phase.short
    recorded = reader.state(final, "phase COMPLETED")
    ours = game.state
    if ours.phase.kind == RETREAT and ours.phase.season == FALL:
        # the game ended with units still to retreat: the owners the package recorded are
        # those after the fall's update, which our retreat phase has not made yet
        ours = ours.evolve(owners=adjudicate_phase(ours, (), game.rules).next_state.owners)
    if {(u.power, u.kind, u.location) for u in ours.units.values()} != \
            {(u.power, u.kind, u.location) for u in recorded.units.values()} or dict(ours.owners) != dict(recorded.owners):
        imported.differences.extend(_position_differences(name, ours, recorded, game.board))
        game.state = recorded


def loads(text: str | bytes, *, edition: Edition | str = Edition.CLASSIC, name: str = "the file") -> ImportedGame:
    return import_saved_game(read_json(text, name), edition=edition)


# -- export --------------------------------------------------------------------------------------


def _unit_text(kind: str | None, loc: str) -> str:
    return f"{kind or ARMY} {loc.upper()}"


#: the package's order codes (``A PAR - BUR VIA``, ``F NTH C A LON - NWY``, ``A PAR B``, ``WAIVE``)
_PACKAGE_WORDS = {"hold": "{unit} H", "move": "{unit} - {dest}{via}", "support_hold": "{unit} S {target}",
                  "support_move": "{unit} S {target} - {dest}", "convoy": "{unit} C {target} - {dest}",
                  "retreat": "{unit} R {dest}", "disband": "{unit} D", "remove": "{unit} D",
                  "build": "{unit} B", "waive": "WAIVE"}


def order_text(order: Order, state: GameState | None = None) -> str:
    """Our order in the package's notation (a missing unit kind taken from the board, else an army)."""

    def kind_of(location: str, own: bool) -> str:
        unit = state.unit_in(location) if state is not None else None
        if unit is None and own and state is not None and (d := state.dislodged_in(location)) is not None:
            unit = d.unit
        return unit.kind if unit is not None else ARMY

    return order.write(OrderStyle(_PACKAGE_WORDS, place=str.upper, via=" VIA", kind_of=kind_of))


def _result_codes(r: OrderResult, kind: str) -> list[str]:
    """Our result as the package writes it."""
    if kind == ADJUSTMENT:
        return [""] if r.outcome is Outcome.SUCCESS else ["void"]
    if kind == RETREAT:
        if r.outcome is Outcome.ILLEGAL:
            return ["void", "disband"]
        if r.code == "retreated":
            return []
        return ["bounce", "disband"] if r.code == "bounced" else ["disband"]
    out: list[str] = []
    order = r.order
    if r.outcome in (Outcome.ILLEGAL, Outcome.VOID):
        out.append("void")
    elif isinstance(order, Move) and not r.succeeded:
        out.append("no convoy" if r.code == "no_convoy" else "bounce")
    elif r.code == "cut":
        out.append("cut")
    elif r.code == "paradox":
        out.append("no convoy")
    if r.dislodged:
        out.append("dislodged")
    return out


def _state_dict(state: GameState, game_id: str, rules: list[str], name: str | None = None) -> dict[str, Any]:
    board = state.board
    powers = {p: p.upper() for p in board.power_ids}
    units: dict[str, list[str]] = {powers[p]: [] for p in board.power_ids}
    for u in state.units.values():
        units[powers[u.power]].append(_unit_text(u.kind, u.location))
    retreats: dict[str, dict[str, list[str]]] = {powers[p]: {} for p in board.power_ids}
    for d in state.dislodged:
        units[powers[d.unit.power]].append("*" + _unit_text(d.unit.kind, d.unit.location))
        if state.phase.kind == RETREAT:
            retreats[powers[d.unit.power]][_unit_text(d.unit.kind, d.unit.location)] = [
                loc.upper() for loc in retreat_destinations(state, d.province)]
    centres = {powers[p]: [c.upper() for c in state.centres_of(p)] for p in board.power_ids}
    homes = {powers[p]: [c.upper() for c in board.home_centres.get(p, ())] for p in board.power_ids}
    builds: dict[str, dict[str, Any]] = {}
    for p in board.power_ids:
        count = state.adjustment_delta(p) if state.phase.kind == ADJUSTMENT else 0
        free = [c.upper() for c in board.home_centres.get(p, ())
                if count > 0 and c not in state.units and state.owners.get(c) == p]
        builds[powers[p]] = {"count": count, "homes": free}
    influence = {powers[p]: sorted({c.upper() for c in state.centres_of(p)}
                                   | {u.province.upper() for u in state.units.values() if u.power == p})
                 for p in board.power_ids}
    return {
        "timestamp": 0, "zobrist_hash": "0", "note": "", "name": name or state.phase.short,
        "units": units, "retreats": retreats, "centers": centres, "homes": homes, "influence": influence,
        "civil_disorder": {powers[p]: 0 for p in board.power_ids}, "builds": builds,
        "game_id": game_id, "map": STANDARD_MAP, "rules": rules,
    }


def _phase_dict(entry: HistoryEntry, game_id: str, rules: list[str]) -> dict[str, Any]:
    state = entry.state
    powers = {p: p.upper() for p in state.board.power_ids}
    orders: dict[str, list[str]] = {powers[p]: [] for p in state.board.power_ids}
    for o in entry.orders:
        if o.power in powers:
            orders[powers[o.power]].append(order_text(o, state))
    results: dict[str, list[str]] = {}
    kind = state.phase.kind
    if kind in (MOVEMENT, RETREAT):
        # one result per unit: the order it carried out (not a second, illegal one for it)
        by_province = results_by_province(entry.results)
        units = state.units.values() if kind == MOVEMENT else [d.unit for d in state.dislodged]
        for u in units:
            r = by_province.get(u.province)
            results[_unit_text(u.kind, u.location)] = _result_codes(r, kind) if r is not None else []
    else:
        for r in entry.results:
            order = r.order
            if isinstance(order, Waive):
                results.setdefault("WAIVE", []).extend(_result_codes(r, kind))
            elif isinstance(order, UnitOrder):
                results[_unit_text(order.unit_kind or _kind_at(state, order), order.location)] = \
                    _result_codes(r, kind)
    return {"name": state.phase.short, "state": _state_dict(state, game_id, rules), "orders": orders,
            "results": results, "messages": []}


def _kind_at(state: GameState, order: Order) -> str | None:
    loc = getattr(order, "location", None)
    if loc is None:
        return None
    u = state.unit_in(loc) or (d.unit if (d := state.dislodged_in(loc)) else None)
    return u.kind if u is not None else None


def export_saved_game(game: Game, game_id: str = "") -> dict[str, Any]:
    """Our game as the ``diplomacy`` package saves one: every adjudicated phase with its orders
    and results, then the phase being played with its position only.  The orders filed for the
    phase being played are not written: they are secret until adjudicated."""
    if game.board.name != STANDARD_MAP:
        raise InterchangeError(f"the game is played on the map {game.board.name!r}; the diplomacy package's "
                               f"format is written for the standard map only")
    if game.formal:
        raise InterchangeError("a game of Formal Diplomacy (declared relations) has no place in the diplomacy "
                               "package's format")
    game_id = game_id or "diplomacy-desktop"
    rules = ["NO_PRESS", "POWER_CHOICE"]
    phases = [_phase_dict(h, game_id, rules) for h in game.history]
    current = {"name": game.state.phase.short, "state": _state_dict(game.state, game_id, rules),
               "orders": {p.upper(): [] for p in game.board.power_ids}, "results": {}, "messages": []}
    phases.append(current)
    return {"id": game_id, "map": STANDARD_MAP, "rules": rules, "phases": phases}


def dumps(game: Game, game_id: str = "") -> str:
    return json.dumps(export_saved_game(game, game_id), indent=1) + "\n"


__all__ = [
    "COMPLETED",
    "STANDARD_MAP",
    "Difference",
    "ImportedGame",
    "InterchangeError",
    "dumps",
    "export_saved_game",
    "import_saved_game",
    "loads",
    "order_text",
    "read_json",
]
