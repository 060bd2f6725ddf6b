"""DATC case files (the jDip / godip text format): read and write.

    CASE 6.A.1
    PRESTATE_SETPHASE Spring 1901, Movement
    PRESTATE_SUPPLYCENTER_OWNERS / PRESTATE / PRESTATE_DISLODGED / PRESTATE_RESULTS
    PRESTATE_RELATIONS           (Formal Diplomacy: "France Germany: war" lines; others neutral)
    PRESTATE_STANDOFFS           (a retreat phase: spaces left empty by a standoff, one a line;
                                  no unit may retreat there, rules XI; our addition, written only
                                  when there are some, so other files are plain DATC)
    ORDERS
    POSTSTATE / POSTSTATE_DISLODGED / POSTSTATE_SAME
    END

Reading is lenient where the meaning is clear (a missing colon, lower-case unit letters,
full names, a misspelt power); anything else is a :class:`ScenarioError` naming the line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..engine.board import ARMY, FLEET, Board
from ..engine.errors import OrderError
from ..engine.formal import Relations, relation_word
from ..engine.movement import adjudicate_movement
from ..engine.orders import Convoy, Move, Order
from ..engine.rules import CLASSIC
from ..engine.state import ADJUSTMENT, FALL, MOVEMENT, RETREAT, SPRING, DislodgedUnit, GameState, Phase, Unit
from .notation import _Reader, location_label, parse_order, place_names


class ScenarioError(ValueError):
    """A scenario file (or one case in it) cannot be read; the message names the line."""

    def __init__(self, message: str, line: int | None = None, case: str | None = None) -> None:
        self.line = line
        self.case = case
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{message}")


class OrderLine(NamedTuple):
    """An order as a case file writes it (a named tuple: a big file has tens of thousands)."""

    power: str
    text: str
    line: int
    success: bool | None = None  # for PRESTATE_RESULTS


@dataclass(slots=True)
class Scenario:
    name: str
    line: int
    phase: Phase | None = None
    owners: dict[str, str] | None = None
    units: list[Unit] = field(default_factory=list)
    dislodged: list[Unit] = field(default_factory=list)
    results: list[OrderLine] = field(default_factory=list)
    orders: list[OrderLine] = field(default_factory=list)
    post_units: list[Unit] | None = None
    post_dislodged: list[Unit] | None = None
    post_same: bool = False
    comments: list[str] = field(default_factory=list)
    #: Formal Diplomacy (seed 003): the PRESTATE_RELATIONS section, ``{(power, power): "war"}``;
    #: None when the case has no such section (the standard game)
    relations: dict[tuple[str, str], str] | None = None
    #: a retreat phase's spaces left empty by a standoff (PRESTATE_STANDOFFS), as the sandbox marks
    #: them; None when the case has no such section (they are then read from PRESTATE_RESULTS)
    standoffs: list[str] | None = None

    @property
    def has_expectation(self) -> bool:
        return self.post_same or self.post_units is not None or self.post_dislodged is not None

    def expected_units(self) -> list[Unit] | None:
        if self.post_same:
            return list(self.units)
        return self.post_units

    def expected_dislodged(self) -> list[Unit] | None:
        if self.post_same:
            return [] if self.phase is None or self.phase.kind == MOVEMENT else None
        if self.post_dislodged is None and self.post_units is not None:
            return []
        return self.post_dislodged


@dataclass(frozen=True, slots=True)
class CaseError:
    """A case that could not be read: its name and why."""

    name: str
    line: int
    message: str


_SECTIONS = {
    "PRESTATE_SETPHASE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE", "PRESTATE_DISLODGED", "PRESTATE_RELATIONS",
    "PRESTATE_STANDOFFS", "PRESTATE_RESULTS", "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_SAME", "END",
}
_FILE_LEVEL = {"VARIANT_ALL", "VARIANT"}
_KEYWORDS = _SECTIONS | {"CASE"}


class _PowerNames:
    def __init__(self, board: Board) -> None:
        self.names: dict[str, str] = {}
        for p in board.powers:
            for w in (p.id, p.name, p.adjective):
                self.names[w.lower()] = p.id

        self.found: dict[str, str | None] = {}  # every word asked about, as written

    def find(self, word: str) -> str | None:
        if word in self.found:
            return self.found[word]
        w = word.strip().lower()
        if w in self.names:
            power: str | None = self.names[w]
        else:
            close = difflib.get_close_matches(w, list(self.names), n=2, cutoff=0.75)
            ids = {self.names[c] for c in close}
            power = ids.pop() if len(ids) == 1 else None
        self.found[word] = power
        return power


def _strip_comment(line: str) -> str:
    return line.split("#", 1)[0].strip()


def _split_power(text: str, powers: _PowerNames, lineno: int) -> tuple[str, str]:
    if ":" in text:
        head, _, rest = text.partition(":")
        power = powers.find(head)
        if power is None:
            raise ScenarioError(f"unknown power {head.strip()!r}", lineno)
        return power, rest.strip()
    head, _, rest = text.partition(" ")
    power = powers.find(head)
    if power is None:
        raise ScenarioError(f"expected 'Power: ...', got {text!r}", lineno)
    return power, rest.strip()


_YEAR = re.compile(r"[0-9]{1,4}")


def _shorten(text: str, limit: int = 40) -> str:
    """``text``, cut to ``limit`` characters (a message never echoes a whole absurd line)."""
    return text if len(text) <= limit else text[:limit] + "..."


def _parse_phase(text: str, lineno: int) -> Phase:
    t = text.lower().replace(",", " ").split()
    m = re.fullmatch(r"([sfw])([0-9]{4})([mra])", text.strip().lower())
    if m:
        return Phase(int(m.group(2)), {"s": SPRING, "f": FALL, "w": FALL}[m.group(1)],
                     {"m": MOVEMENT, "r": RETREAT, "a": ADJUSTMENT}[m.group(3)])
    season: str | None = None
    year: int | None = None
    kind: str | None = None
    for w in t:
        if w in ("spring", "s"):
            season = SPRING
        elif w in ("fall", "autumn", "f"):
            season = FALL
        elif w in ("winter", "w"):
            season, kind = FALL, ADJUSTMENT
        elif w.isnumeric():  # "1901", but also "²" or "١٩٠١", which are no years
            if not _YEAR.fullmatch(w):
                raise ScenarioError(f"the year {_shorten(w)!r} is not a year from 1 to 9999 "
                                    "(written with the digits 0-9)", lineno)
            year = int(w)
        elif w.startswith("move") or w == "movement":
            kind = MOVEMENT
        elif w.startswith("retreat"):
            kind = RETREAT
        elif w.startswith(("adjust", "build")):
            kind = ADJUSTMENT
    if season is None or year is None or kind is None:
        raise ScenarioError(f"cannot read the phase {text.strip()!r} (expected e.g. 'Spring 1901, Movement')", lineno)
    try:
        return Phase(year, season, kind)
    except ValueError as exc:
        raise ScenarioError(str(exc), lineno) from exc


@lru_cache(maxsize=8192)
def _read_unit(board: Board, power: str, text: str) -> Unit | str:
    """The unit as written, or why it cannot be read.  A file names the same few units again
    and again, so each is read (and made) once."""
    kind, loc = _read_unit_text(board, text)
    return Unit(power, kind, loc) if kind else loc


def _read_unit_text(board: Board, text: str) -> tuple[str, str]:
    """``(kind, location)`` of a unit as written, or ``("", why not)``."""
    r = _Reader(place_names(board, case_file=True), text)
    kind = r.kind()
    try:
        place = r.place("a space")
    except OrderError as exc:
        return "", f"cannot read the unit {text!r}: {exc}"
    if len(place.candidates) != 1:
        return "", f"{place.text!r} could name several spaces: {', '.join(place.candidates)}"
    prov = place.candidates[0]
    space = board.spaces[prov]
    if kind is None:
        kind = ARMY if space.kind == "land" else FLEET if space.kind == "sea" else None
        if kind is None:
            return "", f"say whether the unit in {space.name} is an army (A) or a fleet (F)"
    if kind == FLEET and space.coasts:
        loc = f"{prov}/{place.coast}" if place.coast else ""
        if loc not in space.coast_locations:
            return "", f"a fleet in {space.name} needs its coast ({'/'.join(space.coasts)})"
    else:
        loc = prov
    if not board.unit_can_stand(kind, loc):
        return "", f"{'an army' if kind == ARMY else 'a fleet'} cannot stand in {space.name}"
    return kind, loc


def _space_of(board: Board, text: str, lineno: int) -> str:
    """The province a PRESTATE_STANDOFFS line names (a name, an id or an abbreviation)."""
    r = _Reader(place_names(board, case_file=True), text)
    try:
        place = r.place("a space")
    except OrderError as exc:
        raise ScenarioError(f"cannot read the space {_shorten(text)!r}: {exc}", lineno) from None
    if len(place.candidates) != 1:
        raise ScenarioError(f"{place.text!r} could name several spaces: {', '.join(place.candidates)}", lineno)
    return place.candidates[0].partition("/")[0]


def _centre_of(board: Board, text: str, lineno: int) -> str:
    prov, why = _read_centre(board, text)
    if not prov:
        raise ScenarioError(why, lineno)
    return prov


@lru_cache(maxsize=4096)
def _read_centre(board: Board, text: str) -> tuple[str, str]:
    """``(province, "")`` of a supply centre as written, or ``("", why not)``."""
    r = _Reader(place_names(board, case_file=True), text)
    r.kind()
    try:
        place = r.place("a supply centre")
    except OrderError as exc:
        return "", f"cannot read the centre {text!r}: {exc}"
    prov = place.candidates[0]
    if prov not in board.centres:
        return "", f"{board.spaces[prov].name} is not a supply centre"
    return prov, ""


_BOM = b"\xef\xbb\xbf"
_CONTROL = bytes(c for c in range(32) if c not in b"\t\n\r\f\v")


def case_file_text(raw: bytes) -> str:
    """The text of a case file: UTF-8, with or without a byte-order mark.

    ScenarioError (one message for the whole file) for UTF-16 and for what is not text at all:
    a NUL byte, or more than one in twenty characters of its start being control characters or
    not UTF-8.  A text file with a stray bad byte is read, the byte replaced (its case then says
    what it cannot read)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ScenarioError("UTF-16 is not supported, save as UTF-8")
    raw = raw.removeprefix(_BOM)
    if b"\x00" in raw:
        raise ScenarioError("not a text file")
    head = raw[:65536]
    bad = len(head) - len(head.translate(None, _CONTROL))
    bad += head.decode("utf-8", errors="replace").count("\ufffd")
    if bad * 20 > len(head):
        raise ScenarioError("not a text file")
    return raw.decode("utf-8", errors="replace")


def read_scenarios(text: str, board: Board) -> list[Scenario | CaseError]:
    """Every case in a DATC-format file, in file order; unreadable cases become CaseError."""
    return read_scenario_lines(text.splitlines(), board)


#: a longer line is refused at once (DATC lines are a few dozen characters; a megabyte-long
#: "order" would otherwise be read, parsed and echoed at great cost)
MAX_LINE_LENGTH = 2000

_BULK = {"PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE", "PRESTATE_DISLODGED", "ORDERS", "POSTSTATE",
         "POSTSTATE_DISLODGED"}  # the sections of "Power: ..." lines


def read_scenario_lines(lines: list[str], board: Board, first_line: int = 1) -> list[Scenario | CaseError]:
    """:func:`read_scenarios` of a file's lines from line number ``first_line`` on."""
    return _CaseReader(board).read(lines, first_line)


class _CaseReader:
    """Reads a case file line by line: one case at a time, its sections, its errors.

    A case that cannot be read becomes one :class:`CaseError` (the rest of it is skipped up to its
    END); lines outside any case are reported together; comments right above a CASE belong to it.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.out: list[Scenario | CaseError] = []
        self.powers = _PowerNames(board)
        self.current: Scenario | None = None
        self.section: str | None = None
        self.failed: CaseError | None = None
        self.pending_comments: list[str] = []
        self.placed: dict[str, dict[str, Unit]] = {}  # per unit section of the current case: province -> unit
        # "Power:" as written at the start of a line (indent included) -> the power: the lines
        # of a file's sections mostly start the same few ways, and such a line needs no more reading
        self.heads: dict[str, str] = {}
        self.bulk = False  # in a section of "Power: ..." lines of a case being read
        self.order_lines: list[OrderLine] | None = None  # the case's orders, while in its ORDERS section
        # lines outside any case, reported together: [first line, last line, count], first text
        self.stray: list[int] = []
        self.stray_text = ""

    def read(self, lines: list[str], first_line: int) -> list[Scenario | CaseError]:
        for lineno, raw in enumerate(lines, start=first_line):
            if len(raw) > MAX_LINE_LENGTH:
                self._long_line(raw, lineno)
            elif not (self.bulk and self._bulk_line(raw, lineno)):
                line = self._content(raw)
                if line is not None:
                    self._line(line, raw, lineno)
        self._flush_stray()
        if self.current is not None or self.failed is not None:
            name = self.failed.name if self.failed else self.current.name  # type: ignore[union-attr]
            start = self.current.line if self.current else 0
            self.failed = self.failed or CaseError(
                name, start, f"line {start}: case {name!r} has no END (the file ends first)")
            self._finish()
        return self.out

    # -- the kinds of line ------------------------------------------------------------------------

    def _long_line(self, raw: str, lineno: int) -> None:
        why = (f"line {lineno} is {len(raw):,} characters long; a line of a case file may have at most "
               f"{MAX_LINE_LENGTH:,}")
        if self.current is not None:
            self._fail(lineno, why)
        elif self.failed is None:
            self._count_stray(lineno, f"{raw[:40]}... ({len(raw):,} characters)")

    def _bulk_line(self, raw: str, lineno: int) -> bool:
        """The bulk of a file: a line of the current section whose power is known from the way it
        starts.  False if the line needs the full reading."""
        head, colon, body = raw.partition(":")
        power = self.heads.get(head) if colon else None
        if power is None or "#" in body:
            return False
        self.pending_comments = []
        if self.order_lines is not None:
            self.order_lines.append(OrderLine(power, body.strip(), lineno))
            return True
        try:
            self._take(power, body.strip(), lineno)
        except ScenarioError as exc:
            self._fail(lineno, str(exc))
        return True

    def _content(self, raw: str) -> str | None:
        """The line without its comment; None for a comment line (kept for the next CASE) or a
        blank one (which ends the comments above it: they belong to no case)."""
        if "#" in raw:
            stripped = raw.strip()
            if stripped.startswith("#"):
                self.pending_comments.append(stripped.lstrip("#").strip())
                return None
            line = _strip_comment(raw)
        else:
            line = raw.strip()
        if not line:
            if not raw.strip():
                self.pending_comments = []
            return None
        return line

    def _line(self, line: str, raw: str, lineno: int) -> None:
        word, _, rest = line.partition(" ")
        key = word.upper().rstrip(":")
        if key != "CASE" and self.pending_comments:
            self.pending_comments = []  # comments belong to the CASE right after them
        if self.current is not None and key not in _KEYWORDS:
            try:
                self._section_line(line, raw, lineno)
            except ScenarioError as exc:
                self._fail(lineno, str(exc))
        elif key == "CASE":
            self._start_case(rest, lineno)
        elif key in _FILE_LEVEL and self.current is None:
            pass
        elif self.current is None and self.failed is None:
            self._count_stray(lineno, _shorten(line))
        elif self.failed is not None:
            if key == "END":
                self._finish()
        else:
            try:
                self._keyword(key, rest, lineno)
            except ScenarioError as exc:
                self._fail(lineno, str(exc))

    def _section_line(self, line: str, raw: str, lineno: int) -> None:
        """A line of the current case's current section."""
        current, section = self.current, self.section
        assert current is not None
        if section is None or section in ("PRESTATE_SETPHASE", "POSTSTATE_SAME"):
            raise ScenarioError(f"{line!r} is not a section keyword (PRESTATE, ORDERS, ...)", lineno)
        if section == "PRESTATE_RELATIONS":
            _relation_line(current, line, self.powers, lineno)
        elif section == "PRESTATE_STANDOFFS":
            assert current.standoffs is not None
            current.standoffs.append(_space_of(self.board, line, lineno))
        elif section == "PRESTATE_RESULTS":
            flag, _, body = line.partition(":")
            flag = flag.strip().upper()
            if flag not in ("SUCCESS", "FAILURE"):
                raise ScenarioError(f"a result line starts with SUCCESS: or FAILURE:, got {line!r}", lineno)
            power, order = _split_power(body.strip(), self.powers, lineno)
            current.results.append(OrderLine(power, order, lineno, flag == "SUCCESS"))
        else:
            head, colon, body = line.partition(":")
            known = self.powers.found.get(head) if colon else None  # the usual "Power: ..."
            if known is None:
                power, body = _split_power(line, self.powers, lineno)
            else:
                power, body = known, body.strip()
                if "#" not in raw:
                    self.heads[raw.partition(":")[0]] = known
            self._take(power, body, lineno)

    def _start_case(self, rest: str, lineno: int) -> None:
        self._flush_stray()
        if self.current is not None or self.failed is not None:
            name = self.failed.name if self.failed else self.current.name  # type: ignore[union-attr]
            self.failed = self.failed or CaseError(name, lineno, f"line {lineno}: case {name!r} has no END")
            self._finish()
        name = rest.strip() or f"case at line {lineno}"
        self.current = Scenario(name=name, line=lineno, comments=self.pending_comments)
        self.pending_comments = []
        self.section, self.bulk, self.order_lines = None, False, None
        self.placed = {}

    def _keyword(self, key: str, rest: str, lineno: int) -> None:
        """A section keyword (or END) inside the current case."""
        current = self.current
        assert current is not None
        self.section = key
        self.bulk = key in _BULK
        self.order_lines = current.orders if key == "ORDERS" else None
        if key == "PRESTATE_SETPHASE":
            current.phase = _parse_phase(rest, lineno)
        elif key == "END":
            if current.phase is None:
                # every DATC case without a phase line is a Spring 1901 movement
                current.phase = Phase(1901, SPRING, MOVEMENT)
                current.comments.append("no PRESTATE_SETPHASE line: Spring 1901, Movement assumed")
            self._finish()
        else:
            _open_section(current, key)
            if key in ("POSTSTATE", "POSTSTATE_DISLODGED"):
                self.placed.pop(key, None)
        if rest.strip() and key not in ("PRESTATE_SETPHASE", "END"):
            raise ScenarioError(f"unexpected text after {key}: {rest.strip()!r}", lineno)

    # -- a "Power: body" line of a bulk section -----------------------------------------------------

    def _take(self, power: str, body: str, lineno: int) -> None:
        current, section = self.current, self.section
        assert current is not None and section is not None
        if section == "ORDERS":
            current.orders.append(OrderLine(power, body, lineno))
        elif section == "PRESTATE_SUPPLYCENTER_OWNERS":
            assert current.owners is not None
            current.owners[_centre_of(self.board, body, lineno)] = power
        else:
            self._place(power, body, lineno, _section_units(current, section))

    def _place(self, power: str, body: str, lineno: int, units: list[Unit]) -> None:
        board, section = self.board, self.section
        assert section is not None
        unit = _read_unit(board, power, body)
        if isinstance(unit, str):
            raise ScenarioError(unit, lineno)
        here = self.placed.setdefault(section, {})
        prov = unit.location.partition("/")[0]
        clash = here.get(prov)
        if clash is not None:
            raise ScenarioError(
                f"two units in {board.spaces[prov].name} under {section} "
                f"({board.power(clash.power).name} {clash.kind} {clash.location} is already there)",
                lineno)
        here[prov] = unit
        units.append(unit)

    # -- bookkeeping ------------------------------------------------------------------------------

    def _fail(self, lineno: int, why: str) -> None:
        """The current case cannot be read: the rest of it is skipped up to its END."""
        assert self.current is not None
        self.failed = CaseError(self.current.name, lineno, why)
        self.current, self.bulk, self.order_lines = None, False, None

    def _count_stray(self, lineno: int, text: str) -> None:
        if not self.stray:
            self.stray, self.stray_text = [lineno, lineno, 0], text
        self.stray[1], self.stray[2] = lineno, self.stray[2] + 1

    def _flush_stray(self) -> None:
        if not self.stray:
            return
        first, last, count = self.stray
        if count == 1:
            self.out.append(CaseError(f"line {first}", first,
                                      f"line {first}: {self.stray_text!r} is outside a CASE ... END block"))
        else:
            self.out.append(CaseError(f"lines {first}-{last}", first,
                                      f"lines {first}-{last}: {count:,} lines outside a CASE ... END block "
                                      f"(the first: {self.stray_text!r})"))
        self.stray = []

    def _finish(self) -> None:
        if self.failed is not None:
            self.out.append(self.failed)
        elif self.current is not None:
            self.out.append(self.current)
        self.current, self.failed = None, None


def _open_section(sc: Scenario, key: str) -> None:
    """A section keyword's effect on the case: its list or mapping starts empty."""
    if key == "PRESTATE_SUPPLYCENTER_OWNERS":
        sc.owners = {}
    elif key == "PRESTATE_RELATIONS":
        sc.relations = {}
    elif key == "PRESTATE_STANDOFFS":
        sc.standoffs = []
    elif key == "POSTSTATE":
        sc.post_units = []
    elif key == "POSTSTATE_DISLODGED":
        sc.post_dislodged = []
    elif key == "POSTSTATE_SAME":
        sc.post_same = True


def _section_units(sc: Scenario, section: str) -> list[Unit]:
    """The list of units a unit section of a case fills."""
    if section == "PRESTATE":
        return sc.units
    if section == "PRESTATE_DISLODGED":
        return sc.dislodged
    units = sc.post_units if section == "POSTSTATE" else sc.post_dislodged
    assert units is not None
    return units


def _relation_line(sc: Scenario, line: str, powers: _PowerNames, lineno: int) -> None:
    """A line of PRESTATE_RELATIONS: ``France Germany: war`` (either order, any case)."""
    head, colon, word = line.partition(":")
    names = head.split()
    if not colon or len(names) != 2:
        raise ScenarioError(f"a relation line is 'Power Power: alliance|neutral|war', got {line!r}", lineno)
    found = []
    for name in names:
        p = powers.find(name)
        if p is None:
            raise ScenarioError(f"unknown power {name!r}", lineno)
        found.append(p)
    a, b = found
    if a == b:
        raise ScenarioError(f"a power has no relation with itself: {line!r}", lineno)
    try:
        rel = relation_word(word)
    except ValueError as exc:
        raise ScenarioError(str(exc), lineno) from None
    key = (a, b) if a < b else (b, a)
    assert sc.relations is not None
    if sc.relations.get(key, rel) != rel:
        raise ScenarioError(f"{line.strip()!r}: this pair already has the relation {sc.relations[key]}", lineno)
    sc.relations[key] = rel


# -- from a scenario to a position ------------------------------------------------------------


def _default_owners(board: Board, units: list[Unit]) -> dict[str, str]:
    return {c: p for p, cs in board.home_centres.items() for c in cs}


def scenario_state(sc: Scenario, board: Board) -> GameState:
    """The position a scenario starts from (raises ScenarioError if it is impossible)."""
    assert sc.phase is not None
    owners = sc.owners if sc.owners is not None else _default_owners(board, sc.units)
    relations = Relations.from_mapping(sc.relations) if sc.relations is not None else None
    if sc.standoffs and sc.phase.kind != RETREAT:
        raise ScenarioError(f"case {sc.name}: PRESTATE_STANDOFFS is for a retreat phase (a standoff only "
                            "forbids retreats, rules XI)", sc.line)
    try:
        if sc.phase.kind != RETREAT:
            return GameState.build(board, sc.phase, sc.units, owners, relations=relations)
        dislodged, contested = _retreat_context(sc, board, owners)
        if sc.standoffs is not None:
            taken = sorted({u.province for u in sc.units} & set(sc.standoffs))
            if taken:
                raise ScenarioError(f"case {sc.name}: PRESTATE_STANDOFFS marks {', '.join(taken)}, where a unit "
                                    "stands (a standoff leaves a space empty)", sc.line)
            contested = set(contested) | set(sc.standoffs)
        return GameState.build(board, sc.phase, sc.units, owners, dislodged, contested, relations)
    except ValueError as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise ScenarioError(f"case {sc.name}: {exc}", sc.line) from exc


def _retreat_context(sc: Scenario, board: Board, owners: dict[str, str]
                     ) -> tuple[list[DislodgedUnit], set[str]]:
    """Who dislodged whom and which spaces were stood off, from PRESTATE_RESULTS.

    The movement that led here is replayed: each result order's unit is put back where it
    started, and that movement phase is adjudicated again.
    """
    plain = [DislodgedUnit(u) for u in sc.dislodged]
    if not sc.results:
        return plain, set()
    phase = Phase(sc.phase.year, sc.phase.season, MOVEMENT)  # type: ignore[union-attr]
    parsed: list[tuple[OrderLine, Order]] = []
    for rl in sc.results:
        try:
            parsed.append((rl, parse_order(rl.text, rl.power, board=board, case_file=True)))
        except OrderError:
            continue
    arrived: dict[str, tuple[OrderLine, Move]] = {}
    for rl, order in parsed:
        if isinstance(order, Move) and rl.success:
            arrived[order.target_province] = (rl, order)
    prior: list[Unit] = []
    for u in sc.units:
        hit = arrived.get(u.province)
        if hit is not None and hit[0].power == u.power:
            order = hit[1]
            prior.append(Unit(u.power, u.kind, order.location if u.kind == FLEET else order.province))
        else:
            prior.append(u)
    prior.extend(sc.dislodged)
    relations = Relations.from_mapping(sc.relations) if sc.relations is not None else None
    try:
        pre = GameState.build(board, phase, prior, owners, relations=relations)
        outcome = adjudicate_movement(pre, [o for _, o in parsed], CLASSIC)
    except (ValueError, KeyError):
        outcome = None
    if outcome is not None and _replay_agrees(outcome, parsed, sc):
        found = {d.province: d for d in outcome.state.dislodged}
        occupied = {u.province for u in sc.units}
        return ([DislodgedUnit(u, found[u.province].attacker_from, found[u.province].by_convoy,
                               found[u.province].attacker_power) for u in sc.dislodged],
                {p for p in outcome.state.contested if p not in occupied})
    return _results_context(sc, board, parsed)


def _replay_agrees(outcome: object, parsed: list[tuple[OrderLine, Order]], sc: Scenario) -> bool:
    from ..engine.movement import MovementOutcome
    from ..engine.results import Outcome

    assert isinstance(outcome, MovementOutcome)
    if {d.province for d in outcome.state.dislodged} != {u.province for u in sc.dislodged}:
        return False
    by_order = {r.order: r for r in outcome.results}
    for rl, order in parsed:
        r = by_order.get(order)
        if r is None or r.outcome is Outcome.ILLEGAL:
            return False
        if isinstance(order, Move) and r.succeeded != bool(rl.success):
            return False
    return True


def _results_context(sc: Scenario, board: Board, parsed: list[tuple[OrderLine, Order]]
                     ) -> tuple[list[DislodgedUnit], set[str]]:
    """Read attackers and standoffs straight from the SUCCESS/FAILURE flags."""
    moves = [(rl, o) for rl, o in parsed if isinstance(o, Move)]
    convoyed = {(o.target_province, o.destination_province) for rl, o in parsed
                if isinstance(o, Convoy) and rl.success}

    def by_convoy(o: Move) -> bool:
        return o.via_convoy or (o.province, o.target_province) in convoyed or (
            o.unit_kind == ARMY and o.target_province not in board.army_moves.get(o.province, ()))

    result = []
    for u in sc.dislodged:
        hit = next((o for rl, o in moves if rl.success and o.target_province == u.province), None)
        result.append(DislodgedUnit(u, hit.province, by_convoy(hit), None) if hit else DislodgedUnit(u))
    occupied = {u.province for u in sc.units}
    won = {(o.province, o.target_province) for rl, o in moves if rl.success}
    contested = set()
    for rl, o in moves:
        if rl.success or o.target_province in occupied:
            continue
        if (o.target_province, o.province) in won and not by_convoy(o):
            continue  # lost a head-to-head battle: no standoff (rules IX.7)
        if by_convoy(o) and (o.province, o.target_province) not in convoyed:
            continue  # its convoy failed: it never arrived
        contested.add(o.target_province)
    return result, contested


# -- writing ------------------------------------------------------------------------------------

_PHASE_WORD = {MOVEMENT: "Movement", RETREAT: "Retreat", ADJUSTMENT: "Adjustment"}


def _unit_line(board: Board, u: Unit) -> str:
    return f"\t{board.power(u.power).name}: {u.kind} {location_label(u.location).lower()}"


def write_scenario(sc: Scenario, board: Board) -> str:
    lines = [f"# {c}" for c in sc.comments]
    lines.append(f"CASE {sc.name}")
    if sc.phase is not None:
        lines.append(f"PRESTATE_SETPHASE {sc.phase.season.title()} {sc.phase.year}, {_PHASE_WORD[sc.phase.kind]}")
    if sc.owners is not None:
        lines.append("PRESTATE_SUPPLYCENTER_OWNERS")
        for c, p in sorted(sc.owners.items()):
            lines.append(f"\t{board.power(p).name}: {c}")
    if sc.relations is not None:
        lines.append("PRESTATE_RELATIONS")
        for (a, b), rel in sorted(sc.relations.items()):
            lines.append(f"\t{board.power(a).name} {board.power(b).name}: {rel}")
    lines.append("PRESTATE")
    lines += [_unit_line(board, u) for u in sc.units]
    if sc.dislodged:
        lines.append("PRESTATE_DISLODGED")
        lines += [_unit_line(board, u) for u in sc.dislodged]
    if sc.standoffs:
        lines.append("PRESTATE_STANDOFFS")
        lines += [f"\t{board.spaces[p].name}" for p in sorted(sc.standoffs)]
    if sc.results:
        lines.append("PRESTATE_RESULTS")
        for r in sc.results:
            lines.append(f"\t{'SUCCESS' if r.success else 'FAILURE'}: {board.power(r.power).name}: {r.text}")
    lines.append("ORDERS")
    lines += [f"\t{board.power(o.power).name}: {o.text}" for o in sc.orders]
    if sc.post_same:
        lines.append("POSTSTATE_SAME")
    else:
        if sc.post_units is not None:
            lines.append("POSTSTATE")
            lines += [_unit_line(board, u) for u in sc.post_units]
        if sc.post_dislodged is not None:
            lines.append("POSTSTATE_DISLODGED")
            lines += [_unit_line(board, u) for u in sc.post_dislodged]
    lines.append("END")
    return "\n".join(lines) + "\n"


def write_scenarios(scenarios: list[Scenario], board: Board) -> str:
    return "\n".join(write_scenario(s, board) for s in scenarios)


def iter_cases(items: list[Scenario | CaseError]) -> Iterator[Scenario]:
    for it in items:
        if isinstance(it, Scenario):
            yield it


__all__ = [
    "MAX_LINE_LENGTH",
    "CaseError",
    "Convoy",
    "OrderLine",
    "Scenario",
    "ScenarioError",
    "case_file_text",
    "read_scenario_lines",
    "read_scenarios",
    "scenario_state",
    "write_scenario",
    "write_scenarios",
]
