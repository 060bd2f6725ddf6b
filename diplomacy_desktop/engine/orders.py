"""Orders as a player writes them.

An order names the unit it is for by its location (and, as written, its kind, which may be
wrong or missing); the engine decides what the order means on the board.  Orders are values:
frozen, comparable, and they print in rulebook notation.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import province_of


def _unit(kind: str | None, location: str) -> str:
    return f"{kind} {location}" if kind else location


@dataclass(frozen=True, slots=True)
class Order:
    power: str

    @property
    def province(self) -> str | None:
        """The province of the unit (or build site) this order is for."""
        return None

    def notation(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class UnitOrder(Order):
    unit_kind: str | None
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    @property
    def unit_text(self) -> str:
        return _unit(self.unit_kind, self.location)


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    def notation(self) -> str:
        return f"{self.unit_text} H"


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    destination: str
    via_convoy: bool = False

    @property
    def target_province(self) -> str:
        return province_of(self.destination)

    def notation(self) -> str:
        return f"{self.unit_text} - {self.destination}" + (" via convoy" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold(UnitOrder):
    target_kind: str | None
    target: str

    @property
    def target_province(self) -> str:
        return province_of(self.target)

    def notation(self) -> str:
        return f"{self.unit_text} S {_unit(self.target_kind, self.target)}"


@dataclass(frozen=True, slots=True)
class SupportMove(UnitOrder):
    target_kind: str | None
    target: str
    destination: str

    @property
    def target_province(self) -> str:
        return province_of(self.target)

    @property
    def destination_province(self) -> str:
        return province_of(self.destination)

    def notation(self) -> str:
        return f"{self.unit_text} S {_unit(self.target_kind, self.target)} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Convoy(UnitOrder):
    target_kind: str | None
    target: str
    destination: str

    @property
    def target_province(self) -> str:
        return province_of(self.target)

    @property
    def destination_province(self) -> str:
        return province_of(self.destination)

    def notation(self) -> str:
        return f"{self.unit_text} C {_unit(self.target_kind, self.target)} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    destination: str

    @property
    def target_province(self) -> str:
        return province_of(self.destination)

    def notation(self) -> str:
        return f"{self.unit_text} R {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    def notation(self) -> str:
        return f"{self.unit_text} disband"


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    def notation(self) -> str:
        return f"Build {self.unit_text}"


@dataclass(frozen=True, slots=True)
class Remove(UnitOrder):
    def notation(self) -> str:
        return f"Remove {self.unit_text}"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    def notation(self) -> str:
        return "Waive"


MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)
