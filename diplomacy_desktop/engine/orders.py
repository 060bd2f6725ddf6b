"""Orders as a player writes them.

An order names the unit it is for by its location (and, as written, its kind, which may be
wrong or missing); the engine decides what the order means on the board.  Orders are values:
frozen, comparable, and they print in rulebook notation.

Every writer of orders (rulebook notation here, the labels of ``io.notation``, the full names of
``io.transcript``, the ``diplomacy`` package's codes in ``io.dipjson``) is one ``OrderStyle``
handed to ``Order.write``: the words of each kind of order are a template of the style, and each
order class fills in its own parts.  A style without a template for a kind cannot write it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from .board import province_of


def _unit(kind: str | None, location: str) -> str:
    return f"{kind} {location}" if kind else location


def _same(location: str) -> str:
    return location


@dataclass(frozen=True)
class OrderStyle:
    """How one writer words orders.

    ``templates`` maps an order's ``order_kind`` (``hold``, ``move``, ``support_hold``,
    ``support_move``, ``convoy``, ``retreat``, ``disband``, ``build``, ``remove``, ``waive``) to a
    ``str.format`` template over ``{unit}`` (the ordered unit), ``{target}`` (the supported or
    convoyed unit), ``{dest}`` (a destination) and ``{via}`` (``via`` when a move asks for a
    convoy).  ``place`` writes a location; ``kind_of`` gives the kind of a unit written without
    one (``own`` is true for the ordered unit, which may be a dislodged one).
    """

    templates: Mapping[str, str]
    place: Callable[[str], str] = _same
    via: str = " via convoy"
    kind_of: Callable[[str, bool], str | None] | None = field(default=None, compare=False)

    def unit(self, kind: str | None, location: str, own: bool = False) -> str:
        if kind is None and self.kind_of is not None:
            kind = self.kind_of(location, own)
        where = self.place(location)
        return f"{kind} {where}" if kind else where


#: the words of the rulebook's notation; the other styles start from these
RULEBOOK_WORDS: Mapping[str, str] = {
    "hold": "{unit} H",
    "move": "{unit} - {dest}{via}",
    "support_hold": "{unit} S {target}",
    "support_move": "{unit} S {target} - {dest}",
    "convoy": "{unit} C {target} - {dest}",
    "retreat": "{unit} R {dest}",
    "disband": "{unit} disband",
    "build": "Build {unit}",
    "remove": "Remove {unit}",
    "waive": "Waive",
}

#: rulebook notation with the spaces' ids as stored (``A par - bur``): ``Order.notation``
NOTATION = OrderStyle(RULEBOOK_WORDS)


@dataclass(frozen=True, slots=True)
class Order:
    power: str

    #: the order's kind: its template's key in an ``OrderStyle``
    order_kind: ClassVar[str] = ""

    @property
    def province(self) -> str | None:
        """The province of the unit (or build site) this order is for."""
        return None

    def parts(self, style: OrderStyle) -> dict[str, str]:
        """The pieces of this order that a style's template fills in."""
        return {}

    def write(self, style: OrderStyle) -> str:
        """This order in ``style``'s words; ``TypeError`` if the style has none for its kind."""
        template = style.templates.get(self.order_kind)
        if template is None:
            raise TypeError(f"no notation for {self!r}")
        return template.format(**self.parts(style))

    def notation(self) -> str:
        return self.write(NOTATION)

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

    def parts(self, style: OrderStyle) -> dict[str, str]:
        return {"unit": style.unit(self.unit_kind, self.location, own=True)}


class Hold(UnitOrder):
    """An order kind with no field of its own is a plain subclass (``Hold``, ``SupportMove``,
    ``Convoy``, ``Disband``, ``Build``, ``Remove``, ``Waive``): it inherits its dataclass's
    methods, which already go by the instance's own class (``==`` is False between two kinds,
    ``repr`` names the kind, the fields stay frozen), and its empty ``__slots__`` keeps it as
    small as a dataclass of its own.  Made a dataclass again, each would compile those same
    methods anew at every start of the app (0.6 ms each)."""

    __slots__ = ()
    order_kind = "hold"


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    destination: str
    via_convoy: bool = False
    order_kind = "move"

    @property
    def target_province(self) -> str:
        return province_of(self.destination)

    def parts(self, style: OrderStyle) -> dict[str, str]:
        return {"unit": style.unit(self.unit_kind, self.location, own=True), "dest": style.place(self.destination),
                "via": style.via if self.via_convoy else ""}


@dataclass(frozen=True, slots=True)
class SupportHold(UnitOrder):
    target_kind: str | None
    target: str
    order_kind = "support_hold"

    @property
    def target_province(self) -> str:
        return province_of(self.target)

    def parts(self, style: OrderStyle) -> dict[str, str]:
        return {"unit": style.unit(self.unit_kind, self.location, own=True),
                "target": style.unit(self.target_kind, self.target)}


@dataclass(frozen=True, slots=True)
class _ForAMove(UnitOrder):
    """An order given for another unit's move: a support of it or a convoy of it."""

    target_kind: str | None
    target: str
    destination: str

    @property
    def target_province(self) -> str:
        return province_of(self.target)

    @property
    def destination_province(self) -> str:
        return province_of(self.destination)

    def parts(self, style: OrderStyle) -> dict[str, str]:
        return {"unit": style.unit(self.unit_kind, self.location, own=True),
                "target": style.unit(self.target_kind, self.target), "dest": style.place(self.destination)}


class SupportMove(_ForAMove):  # (no field of its own: see Hold)
    __slots__ = ()
    order_kind = "support_move"


class Convoy(_ForAMove):  # (no field of its own: see Hold)
    __slots__ = ()
    order_kind = "convoy"


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    destination: str
    order_kind = "retreat"

    @property
    def target_province(self) -> str:
        return province_of(self.destination)

    def parts(self, style: OrderStyle) -> dict[str, str]:
        return {"unit": style.unit(self.unit_kind, self.location, own=True), "dest": style.place(self.destination)}


class Disband(UnitOrder):  # (no field of its own: see Hold)
    __slots__ = ()
    order_kind = "disband"


class Build(UnitOrder):  # (no field of its own: see Hold)
    __slots__ = ()
    order_kind = "build"


class Remove(UnitOrder):  # (no field of its own: see Hold)
    __slots__ = ()
    order_kind = "remove"


class Waive(Order):  # (no field of its own: see Hold)
    __slots__ = ()
    order_kind = "waive"


MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)
