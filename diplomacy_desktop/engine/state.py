"""Immutable game state: the phase, units, dislodged units and supply-centre owners."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from .board import ARMY, FLEET, Board, province_of

if TYPE_CHECKING:
    from .relations import Relations

SPRING = "spring"
FALL = "fall"
SEASONS = (SPRING, FALL)

MOVEMENT = "movement"
RETREAT = "retreat"
ADJUSTMENT = "adjustment"
PHASE_KINDS = (MOVEMENT, RETREAT, ADJUSTMENT)

_V = TypeVar("_V")

_ORDER = {(SPRING, MOVEMENT): 0, (SPRING, RETREAT): 1, (FALL, MOVEMENT): 2, (FALL, RETREAT): 3, (FALL, ADJUSTMENT): 4}


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase of the game: ``Phase(1901, "spring", "movement")``."""

    year: int
    season: str
    kind: str

    def __post_init__(self) -> None:
        if (self.season, self.kind) not in _ORDER:
            raise ValueError(f"no {self.kind} phase in {self.season}")

    @property
    def index(self) -> int:
        """A number that orders phases in time."""
        return self.year * 5 + _ORDER[(self.season, self.kind)]

    def __lt__(self, other: Phase) -> bool:
        return self.index < other.index

    def __le__(self, other: Phase) -> bool:
        return self.index <= other.index

    @property
    def short(self) -> str:
        """``S1901M``, ``F1901R``, ``W1901A`` (the usual short names)."""
        letter = "W" if self.kind == ADJUSTMENT else self.season[0].upper()
        return f"{letter}{self.year}{self.kind[0].upper()}"

    @property
    def label(self) -> str:
        if self.kind == ADJUSTMENT:
            return f"Winter {self.year} adjustments"
        return f"{self.season.title()} {self.year} {'moves' if self.kind == MOVEMENT else 'retreats'}"

    def next_in_cycle(self) -> Phase:
        """The phase that follows in the fixed yearly cycle (phases may later be skipped)."""
        if self.kind == MOVEMENT:
            return Phase(self.year, self.season, RETREAT)
        if self.season == SPRING:
            return Phase(self.year, FALL, MOVEMENT)
        if self.kind == RETREAT:
            return Phase(self.year, FALL, ADJUSTMENT)
        return Phase(self.year + 1, SPRING, MOVEMENT)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    kind: str
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    @property
    def is_army(self) -> bool:
        return self.kind == ARMY

    @property
    def is_fleet(self) -> bool:
        return self.kind == FLEET

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit dislodged in the last movement phase, waiting to retreat."""

    unit: Unit
    attacker_from: str | None = None
    by_convoy: bool = False
    attacker_power: str | None = None

    @property
    def province(self) -> str:
        return self.unit.province


def _sorted_view(mapping: Mapping[str, _V]) -> Mapping[str, _V]:
    """A read-only view of ``mapping`` with its keys in sorted order (itself if it is one)."""
    if isinstance(mapping, MappingProxyType):
        return mapping
    return MappingProxyType(dict(sorted(mapping.items())))


@dataclass(frozen=True, slots=True, eq=False)
class GameState:
    """Everything the rules need to know about one moment of a game.  Never mutated."""

    board: Board
    phase: Phase
    units: Mapping[str, Unit] = field(default_factory=dict)
    dislodged: tuple[DislodgedUnit, ...] = ()
    contested: frozenset[str] = frozenset()
    owners: Mapping[str, str] = field(default_factory=dict)
    #: Formal Diplomacy (seed 003): the relations between every pair of powers; None in the
    #: standard game
    relations: Relations | None = None

    @classmethod
    def build(
        cls,
        board: Board,
        phase: Phase,
        units: Iterable[Unit] = (),
        owners: Mapping[str, str] | None = None,
        dislodged: Iterable[DislodgedUnit] = (),
        contested: Iterable[str] = (),
        relations: Relations | None = None,
    ) -> GameState:
        by_province: dict[str, Unit] = {}
        army_moves, fleet_moves = board.army_moves, board.fleet_moves
        for u in units:
            prov = u.location.partition("/")[0]
            if prov in by_province:
                raise ValueError(f"two units in {prov}")
            if u.location not in (army_moves if u.kind == ARMY else fleet_moves if u.kind == FLEET else ()):
                raise ValueError(f"{u.kind} {u.location}: a unit of that kind cannot stand there")
            by_province[prov] = u
        dis = tuple(sorted(dislodged, key=lambda d: d.unit.location))
        return cls(
            board=board,
            phase=phase,
            units=_sorted_view(by_province),
            dislodged=dis,
            contested=frozenset(contested),
            owners=_sorted_view(dict(owners or {})),  # a copy: the caller's mapping may change
            relations=relations,
        )

    @classmethod
    def initial(cls, board: Board) -> GameState:
        units = [Unit(p, k, loc) for p, k, loc in board.start_units]
        owners = {c: p for p, cs in board.home_centres.items() for c in cs}
        return cls.build(board, Phase(board.start_year, SPRING, MOVEMENT), units, owners)

    def evolve(self, *, phase: Phase | None = None, units: Mapping[str, Unit] | None = None,
               dislodged: tuple[DislodgedUnit, ...] | None = None, contested: frozenset[str] | None = None,
               owners: Mapping[str, str] | None = None, relations: Relations | None = None) -> GameState:
        """This state with the given parts replaced (units and owners filed in sorted order).
        Relations can be given, not taken away (:meth:`without_relations` does that)."""
        return GameState(
            self.board,
            self.phase if phase is None else phase,
            self.units if units is None else _sorted_view(units),
            self.dislodged if dislodged is None else dislodged,
            self.contested if contested is None else contested,
            self.owners if owners is None else _sorted_view(owners),
            self.relations if relations is None else relations,
        )

    def without_relations(self) -> GameState:
        """This position in the standard game (no Formal Diplomacy relations)."""
        return GameState(self.board, self.phase, self.units, self.dislodged, self.contested, self.owners)

    # -- queries --------------------------------------------------------------------------

    def unit_in(self, province: str) -> Unit | None:
        return self.units.get(province_of(province))

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def dislodged_in(self, province: str) -> DislodgedUnit | None:
        p = province_of(province)
        for d in self.dislodged:
            if d.province == p:
                return d
        return None

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.owners.items() if p == power)

    def centre_counts(self) -> dict[str, int]:
        counts = {p: 0 for p in self.board.power_ids}
        for p in self.owners.values():
            counts[p] = counts.get(p, 0) + 1
        return counts

    def unit_counts(self) -> dict[str, int]:
        counts = {p: 0 for p in self.board.power_ids}
        for u in self.units.values():
            counts[u.power] = counts.get(u.power, 0) + 1
        for d in self.dislodged:
            counts[d.unit.power] = counts.get(d.unit.power, 0) + 1
        return counts

    def is_eliminated(self, power: str) -> bool:
        return not any(u.power == power for u in self.units.values()) and not any(
            p == power for p in self.owners.values()
        ) and not any(d.unit.power == power for d in self.dislodged)

    def surviving_powers(self) -> list[str]:
        return [p for p in self.board.power_ids if not self.is_eliminated(p)]

    def adjustment_delta(self, power: str) -> int:
        """Centres minus units: positive = builds owed, negative = removals owed."""
        return self.centre_counts().get(power, 0) - self.unit_counts().get(power, 0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            (self.board is other.board or self.board.name == other.board.name)
            and self.phase == other.phase
            and dict(self.units) == dict(other.units)
            and self.dislodged == other.dislodged
            and self.contested == other.contested
            and dict(self.owners) == dict(other.owners)
            and self.relations == other.relations
        )

    def __hash__(self) -> int:
        return hash((self.phase, tuple(self.units.values()), self.dislodged, tuple(self.owners.items())))
