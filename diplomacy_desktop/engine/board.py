"""The board: spaces, coasts, adjacency, supply centres and the starting position.

A *province* is a space id (``stp``); a *location* is where a unit stands: the province
itself, or for a fleet on a split-coast province the coast (``stp/nc``).  The board is built
from plain data (see ``maps/standard/standard.toml``); nothing about it is written in code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

ARMY = "A"
FLEET = "F"
UNIT_KINDS = (ARMY, FLEET)

LAND = "land"
COAST = "coast"
SEA = "sea"
IMPASSABLE = "impassable"
SPACE_KINDS = (LAND, COAST, SEA, IMPASSABLE)


def province_of(location: str) -> str:
    """``stp/nc`` -> ``stp``; a province id is returned unchanged."""
    return location.partition("/")[0]


class BoardError(ValueError):
    """The map data is inconsistent."""


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    name: str
    kind: str
    centre: bool = False
    home: str | None = None
    country: str | None = None
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def is_sea(self) -> bool:
        return self.kind == SEA

    @property
    def is_land(self) -> bool:
        return self.kind in (LAND, COAST)

    @property
    def coast_locations(self) -> tuple[str, ...]:
        return tuple(f"{self.id}/{c}" for c in self.coasts)


@dataclass(frozen=True, slots=True)
class Power:
    id: str
    name: str
    adjective: str


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """Immutable board graph.  Build it with :meth:`from_mapping`."""

    name: str
    title: str
    powers: tuple[Power, ...]
    spaces: Mapping[str, Space]
    army_moves: Mapping[str, frozenset[str]]
    fleet_moves: Mapping[str, frozenset[str]]
    start_units: tuple[tuple[str, str, str], ...]
    victory_centres: int
    start_year: int
    province_neighbours: Mapping[str, frozenset[str]] = field(default_factory=dict)
    centres: frozenset[str] = frozenset()
    home_centres: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fleet_reach: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: words that DATC case files (jDip's format) use for a space where typed orders read them
    #: otherwise: jDip's "nor" is Norway, while a player's "Nor" may begin several names
    case_file_names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Board:
        """Build a board from the parsed map data file (see maps/standard/standard.toml)."""
        try:
            return cls._from_mapping(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise BoardError(f"map data is incomplete or malformed: {exc!r}") from exc

    @classmethod
    def _from_mapping(cls, data: Mapping[str, Any]) -> Board:
        powers = tuple(
            Power(pid, str(p.get("name", pid.title())), str(p.get("adjective", pid.title())))
            for pid, p in data["powers"].items()
        )
        spaces, army, fleet = _read_spaces(data["spaces"])
        _check_moves(army, fleet)
        neighbours: dict[str, set[str]] = {sid: set() for sid in spaces}
        for table in (army, fleet):
            for loc, targets in table.items():
                for t in targets:
                    neighbours[province_of(loc)].add(province_of(t))
        start = [(pid, *text.partition(" ")[::2]) for pid, p in data["powers"].items() for text in p.get("start", ())]
        centres = frozenset(s.id for s in spaces.values() if s.centre)
        homes: dict[str, list[str]] = {p.id: [] for p in powers}
        for s in spaces.values():
            if s.home is not None:
                homes.setdefault(s.home, []).append(s.id)
        board = cls(
            name=str(data.get("name", "standard")),
            title=str(data.get("title", data.get("name", "Standard"))),
            powers=powers,
            spaces=spaces,
            army_moves={k: frozenset(v) for k, v in army.items()},
            fleet_moves={k: frozenset(v) for k, v in fleet.items()},
            start_units=tuple(start),
            victory_centres=int(data.get("victory_centres", len(centres) // 2 + 1)),
            start_year=int(data.get("start_year", 1901)),
            province_neighbours={k: frozenset(v) for k, v in neighbours.items()},
            centres=centres,
            home_centres={k: tuple(sorted(v)) for k, v in homes.items()},
            fleet_reach={loc: frozenset(province_of(t) for t in targets) for loc, targets in fleet.items()},
            case_file_names={str(k).lower(): str(v) for k, v in data.get("case_file_names", {}).items()},
        )
        for word, sid in board.case_file_names.items():
            if sid not in spaces:
                raise BoardError(f"case file name {word!r} names {sid!r}, which is not a space")
        for pid, kind, loc in board.start_units:
            if not board.unit_can_stand(kind, loc):
                raise BoardError(f"start unit {pid} {kind} {loc} cannot stand there")
        return board

    # -- queries -------------------------------------------------------------------------

    @property
    def power_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.powers)

    def power(self, power_id: str) -> Power:
        for p in self.powers:
            if p.id == power_id:
                return p
        raise KeyError(power_id)

    def locations(self) -> Iterable[str]:
        """Every location a unit can stand on (provinces and coasts)."""
        seen = set(self.army_moves) | set(self.fleet_moves)
        return sorted(seen)

    def is_location(self, loc: str) -> bool:
        return loc in self.army_moves or loc in self.fleet_moves

    def unit_can_stand(self, kind: str, loc: str) -> bool:
        if kind == ARMY:
            return loc in self.army_moves
        if kind == FLEET:
            return loc in self.fleet_moves
        return False

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet can stand in ``province``: its coasts, or the province itself."""
        space = self.spaces.get(province)
        if space is None:
            return ()
        if space.coasts:
            return space.coast_locations
        return (province,) if province in self.fleet_moves else ()

    def can_move(self, kind: str, src: str, dst: str) -> bool:
        """Whether a unit of ``kind`` at location ``src`` may move to location ``dst`` (no convoy)."""
        if kind == ARMY:
            return dst in self.army_moves.get(province_of(src), ())
        return dst in self.fleet_moves.get(src, ())

    def can_reach(self, kind: str, src: str, province: str) -> bool:
        """Whether a unit at ``src`` could move into ``province`` (any coast): the support test."""
        if kind == ARMY:
            return province in self.army_moves.get(province_of(src), ())
        return province in self.fleet_reach.get(src, ())

    def fleet_coasts_into(self, src: str, province: str) -> tuple[str, ...]:
        """The locations of ``province`` a fleet at ``src`` can move to."""
        return tuple(sorted(t for t in self.fleet_moves.get(src, ()) if province_of(t) == province))

    def is_sea(self, province: str) -> bool:
        space = self.spaces.get(province)
        return space is not None and space.kind == SEA

    def is_coastal(self, province: str) -> bool:
        space = self.spaces.get(province)
        return space is not None and space.kind == COAST

    def sea_neighbours(self, province: str) -> frozenset[str]:
        return frozenset(p for p in self.province_neighbours.get(province, ()) if self.is_sea(p))

    def convoy_chain(self, origin: str, destination: str, seas: Iterable[str]) -> tuple[str, ...]:
        """The seas, in order, of the shortest chain among ``seas`` that links the coast ``origin``
        to the coast ``destination`` (the first such chain in alphabetical order); ``()`` if none."""
        nb = self.province_neighbours
        usable = set(seas)
        target = nb[destination]
        frontier = sorted(p for p in nb[origin] if p in usable)
        previous: dict[str, str | None] = dict.fromkeys(frontier)
        while frontier:
            later: list[str] = []
            for p in frontier:
                if p in target:
                    chain: list[str] = []
                    at: str | None = p
                    while at is not None:
                        chain.append(at)
                        at = previous[at]
                    return tuple(reversed(chain))
                for q in sorted(nb[p]):
                    if q in usable and q not in previous:
                        previous[q] = p
                        later.append(q)
            frontier = later
        return ()

    def distances_from(self, sources: Iterable[str], neighbours: Mapping[str, Iterable[str]]) -> dict[str, int]:
        """Breadth-first distances over the graph ``neighbours`` (province or location keyed)."""
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for s in sources:
            if s not in dist:
                dist[s] = 0
                queue.append(s)
        while queue:
            cur = queue.popleft()
            d = dist[cur] + 1
            for nxt in neighbours.get(cur, ()):
                if nxt not in dist:
                    dist[nxt] = d
                    queue.append(nxt)
        return dist


def _read_spaces(raw_spaces: Mapping[str, Any]
                 ) -> tuple[dict[str, Space], dict[str, set[str]], dict[str, set[str]]]:
    """The map data's spaces, and where an army and a fleet may move from each location."""
    spaces: dict[str, Space] = {}
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    for sid, raw in raw_spaces.items():
        kind = raw["kind"]
        if kind not in SPACE_KINDS:
            raise BoardError(f"space {sid}: unknown kind {kind!r}")
        coasts = tuple(sorted(raw.get("coasts", {})))
        spaces[sid] = Space(
            id=sid,
            name=str(raw["name"]),
            kind=kind,
            centre=bool(raw.get("centre", False)),
            home=raw.get("home"),
            country=raw.get("country"),
            coasts=coasts,
            aliases=tuple(raw.get("aliases", ())),
        )
        if kind in (LAND, COAST):
            army[sid] = set(raw.get("army", ()))
        if coasts:
            for c, craw in raw["coasts"].items():
                fleet[f"{sid}/{c}"] = set(craw["fleet"])
        elif kind in (COAST, SEA):
            fleet[sid] = set(raw.get("fleet", ()))
    return spaces, army, fleet


def _check_moves(army: dict[str, set[str]], fleet: dict[str, set[str]]) -> None:
    """Symmetry and existence checks: the data must describe an undirected graph."""
    for table, what in ((army, "army"), (fleet, "fleet")):
        for loc, targets in table.items():
            for t in targets:
                if t not in table:
                    raise BoardError(f"{what} move {loc} -> {t}: {t} is not a {what} location")
                if loc not in table[t]:
                    raise BoardError(f"{what} move {loc} -> {t} has no move back")
