"""The table's nested parts as typed records (``TableState.phones`` ...).

Each part is read from the JSON object the save file holds and written back exactly: a key this
version does not know, or a known key holding a value of another type, is kept in ``extra`` and
written back as it was, in the order it was read (``Part.from_dict(d).to_dict() == d`` for every
dict), so an old save opens unchanged and a later version's nested keys survive.

The package reads and changes a part through its attributes (``tests/test_doors.py`` refuses a
string key of a typed part in ``table/``, ``host/`` and ``gui/``).  The mapping methods
(``phones["sealed"]``) are the save file's view, for the tests: hidden from the type checker.
Plain Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, Self

_MISSING = object()
P = TypeVar("P", bound="JsonPart")


def _fits(value: Any, expected: type | tuple[type, ...]) -> bool:
    return isinstance(value, expected) and not (expected is int and isinstance(value, bool))


class JsonPart:
    """A JSON object's known keys as typed attributes (``None``: absent); the rest in ``extra``.

    A subclass is a dataclass whose fields are its ``KNOWN`` keys, then ``extra`` and ``key_order``."""

    #: the keys and the JSON type each must have to be read as a typed value
    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {}
    extra: dict[str, Any]
    key_order: tuple[str, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Self:
        part = cls()
        if data:
            for key, value in data.items():
                part._put(str(key), value)
            part.key_order = tuple(data)
        return part

    def _put(self, key: str, value: Any) -> None:
        expected = self.KNOWN.get(key)
        if expected is not None and _fits(value, expected):
            setattr(self, key, value)
            self.extra.pop(key, None)
        else:
            if expected is not None:
                setattr(self, key, None)
            self.extra[key] = value

    def drop(self, key: str) -> None:
        """The key leaves the part (whatever it held, a damaged value too)."""
        self.extra.pop(key, None)
        if key in self.KNOWN:
            setattr(self, key, None)

    def to_dict(self) -> dict[str, Any]:
        """The part as the save file keeps it (the keys in the order they were read)."""
        values: dict[str, Any] = dict(self.extra)
        for name in self.KNOWN:
            value = getattr(self, name)
            if value is not None:
                values[name] = value
        ordered = {k: values[k] for k in self.key_order if k in values}
        ordered.update({k: v for k, v in values.items() if k not in ordered})
        return ordered

    def __bool__(self) -> bool:
        """False for an empty part (as its empty JSON object was)."""
        return bool(self.to_dict())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonPart):
            return type(self) is type(other) and self.to_dict() == other.to_dict()
        if isinstance(other, Mapping):
            return self.to_dict() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    if not TYPE_CHECKING:  # the save file's view, for the tests (the package uses the attributes)

        def __getitem__(self, key: str) -> Any:
            values = self.to_dict()
            return values[key]

        def __setitem__(self, key: str, value: Any) -> None:
            if key not in self.key_order:
                self.key_order = (*self.key_order, key)
            self._put(key, value)

        def __delitem__(self, key: str) -> None:
            if key not in self:
                raise KeyError(key)
            self.drop(key)

        def __contains__(self, key: object) -> bool:
            return key in self.to_dict()

        def __iter__(self) -> Iterator[str]:
            return iter(self.to_dict())

        def __len__(self) -> int:
            return len(self.to_dict())

        def keys(self) -> list[str]:
            return list(self.to_dict())

        def items(self) -> list[tuple[str, Any]]:
            return list(self.to_dict().items())

        def values(self) -> list[Any]:
            return list(self.to_dict().values())

        def get(self, key: str, default: Any = None) -> Any:
            return self.to_dict().get(key, default)

        def setdefault(self, key: str, default: Any = None) -> Any:
            if key not in self:
                self[key] = default
            return self[key]

        def pop(self, key: str, default: Any = _MISSING) -> Any:
            if key in self:
                value = self[key]
                del self[key]
                return value
            if default is _MISSING:
                raise KeyError(key)
            return default

        def update(self, other: Mapping[str, Any] | None = None, /, **more: Any) -> None:
            for key, value in {**(other or {}), **more}.items():
                self[key] = value


@dataclass(frozen=True, slots=True)
class PhoneDevice:
    """A device that joined by PIN (``table.phones.devices``' entry ``{"power", "hash"}``, read)."""

    power: str
    #: the SHA-256 of its token (the token itself is never kept)
    hash: str


@dataclass(slots=True, eq=False)
class PhonesPart(JsonPart):
    """``table.phones``: the phone host's part (``table.phonebook`` reads and changes the links,
    devices, cut-offs, join counts and clock; ``table.session`` who sealed / declared)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "tokens": dict, "phase": str, "sealed": list, "declared": list, "declarations_revealed": str,
        "revealed_declarations": dict, "devices": dict, "device_seq": int, "kicked": dict, "joins": dict,
        "clock": dict,
    }

    #: each power's link: ``{power: token}``
    tokens: dict[str, Any] | None = None
    #: the phase the phones' lists are for (``S1901M``)
    phase: str | None = None
    #: the powers sealed on the phones (``serve``: no hot-seat turn)
    sealed: list[Any] | None = None
    #: Formal Diplomacy: the powers whose declarations count this phase
    declared: list[Any] | None = None
    #: the phase whose declarations were last revealed, and what they were
    declarations_revealed: str | None = None
    revealed_declarations: dict[str, Any] | None = None
    #: the devices that joined by PIN: ``{device: {"power", "hash"}}`` (``table.phonebook``)
    devices: dict[str, Any] | None = None
    device_seq: int | None = None
    #: the PIN hash each power had when the host cut its phones off
    kicked: dict[str, Any] | None = None
    #: how many phones joined each power
    joins: dict[str, Any] | None = None
    #: the clock the phones showed when the host last wrote it
    clock: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: tuple[str, ...] = ()


# -- the laptop's turn, PINs, seals, notes, seating --


@dataclass(slots=True, eq=False)
class SealSecretPart(JsonPart):
    """``table.seal_secrets``: this phase's seal secret (``table.sealcodes``; secret: ``io.vault``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"phase": str, "secret": str}

    #: the phase the secret is for (``S1901M``)
    phase: str | None = None
    #: the secret, in hex
    secret: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: tuple[str, ...] = ()


@dataclass(slots=True, eq=False)
class RevealedSealCodesPart(JsonPart):
    """``table.revealed_seal_codes``: the last revealed phase, its secret (absent in an earlier
    version's save) and the codes given at sealing (``table.sealcodes``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"phase": str, "secret": str, "codes": dict}

    phase: str | None = None
    secret: str | None = None
    #: ``{power: code}``
    codes: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: tuple[str, ...] = ()


@dataclass(slots=True, eq=False)
class JsonMap(JsonPart):
    """A JSON object keyed by power (or device), every entry of one JSON type (``ITEM``): no known
    keys, so each entry is kept in ``extra`` as read, in its order (a damaged entry too, and it
    reads as absent).  Read and changed through ``of``, ``put``, ``drop`` and ``entries``."""

    #: the JSON type an entry must have to be read
    ITEM: ClassVar[type | tuple[type, ...]] = object
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: tuple[str, ...] = ()

    def of(self, key: str) -> Any:
        """The entry for ``key`` (``None``: absent, or not of the entry's type)."""
        value = self.extra.get(key)
        return value if _fits(value, self.ITEM) else None

    def put(self, key: str, value: Any) -> None:
        """``key``'s entry becomes ``value`` (a new key goes last, as a dict's would)."""
        self.extra[key] = value

    def drop(self, key: str) -> None:
        """``key``'s entry leaves (a later one goes last, as a dict's would)."""
        self.extra.pop(key, None)
        self.key_order = tuple(k for k in self.key_order if k != key)

    def entries(self) -> dict[str, Any]:
        """Every entry of the entry's type, in order."""
        return {k: v for k, v in self.to_dict().items() if _fits(v, self.ITEM)}


@dataclass(slots=True, eq=False)
class SealCodesPart(JsonMap):
    """``table.seal_codes``: this phase's seal codes, ``{power: code}`` (``table.sealcodes``; secret)."""

    ITEM: ClassVar[type | tuple[type, ...]] = str

    def of(self, key: str) -> str | None:
        value = JsonMap.of(self, key)
        return value if isinstance(value, str) else None

    def entries(self) -> dict[str, str]:
        return {k: v for k, v in JsonMap.entries(self).items() if isinstance(v, str)}


@dataclass(slots=True, eq=False)
class PinFailure(JsonPart):
    """One power's wrong PINs (``table.pin_failures``' entry): how many, and the wall-clock time
    before which no try is taken (``table.pins.PinGuard``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"count": int, "until": (int, float)}

    count: int | None = None
    until: int | float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: tuple[str, ...] = ()


@dataclass(slots=True, eq=False)
class PinFailuresPart(JsonMap):
    """``table.pin_failures``: wrong PINs per power, ``{power: {"count", "until"}}`` (``table.pins``)."""

    ITEM: ClassVar[type | tuple[type, ...]] = dict

    def failure(self, key: str) -> PinFailure | None:
        """``key``'s record (``None``: absent, or not an object)."""
        value = JsonMap.of(self, key)
        return PinFailure.from_dict(value) if isinstance(value, dict) else None

    def put_failure(self, key: str, failure: PinFailure) -> None:
        self.put(key, failure.to_dict())


@dataclass(slots=True, eq=False)
class ComputerSeatsPart(JsonMap):
    """``table.computer_seats``: the powers the computer plays, ``{power: level}`` (``table.computer``)."""

    ITEM: ClassVar[type | tuple[type, ...]] = str

    def entries(self) -> dict[str, str]:
        return {k: v for k, v in JsonMap.entries(self).items() if isinstance(v, str)}


class JsonList:
    """A JSON array of the table (``TableState.seal_log`` ...): its items kept as read, in order (a
    damaged one too), ``items`` the list itself; a subclass reads each item as a typed record.
    ``from_list(d).to_list() == d`` for every list."""

    __slots__ = ("items",)

    def __init__(self, items: list[Any] | None = None) -> None:
        self.items: list[Any] = list(items) if items else []

    @classmethod
    def from_list(cls, data: list[Any] | None) -> Self:
        return cls(data)

    def to_list(self) -> list[Any]:
        """The array as the save file keeps it (a new list of the same items)."""
        return list(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonList):
            return type(self) is type(other) and self.items == other.items
        if isinstance(other, list):
            return self.items == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    if not TYPE_CHECKING:  # the save file's view, for the tests (the package uses ``items``)

        def __getitem__(self, index: Any) -> Any:
            return self.items[index]

        def __iter__(self) -> Iterator[Any]:
            return iter(self.items)

        def __len__(self) -> int:
            return len(self.items)


class SealLogPart(JsonList):
    """``table.seal_log``: every revealed phase's secret and the codes given at sealing, oldest
    first (``table.sealcodes``; ``verify-seals`` reads it), each item a ``RevealedSealCodesPart``."""

    __slots__ = ()

    def entries(self) -> list[RevealedSealCodesPart | None]:
        """Each item as a record (``None``: an item that is not an object), in order."""
        return [RevealedSealCodesPart.from_dict(e) if isinstance(e, dict) else None for e in self.items]


@dataclass(slots=True, eq=False)
class SeatingPart(JsonPart):
    """``table.seating``: the priority draw's record (``table.seating.assignment_to_table``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "method": str, "secret": bool, "seed": int, "choices": dict, "draws": list, "record": list}

    #: how the powers were assigned (``priority``)
    method: str | None = None
    #: the players' choices were secret
    secret: bool | None = None
    seed: int | None = None
    #: each player's choices: ``{player: [seat, ...]}``
    choices: dict[str, Any] | None = None
    #: each tie's lot: ``[{"choice", "seat", "contenders", "winner"}]``
    draws: list[Any] | None = None
    #: the draw in words, a line each
    record: list[Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: tuple[str, ...] = ()

    def copied(self) -> SeatingPart:
        """A copy (the dialog's and the settings' own)."""
        return SeatingPart.from_dict(self.to_dict())


def _check_fields() -> None:
    for cls in (PhonesPart, SealSecretPart, RevealedSealCodesPart, SealCodesPart, PinFailure, PinFailuresPart,
                ComputerSeatsPart, SeatingPart):
        names = [f.name for f in fields(cls)]
        assert names == [*cls.KNOWN, "extra", "key_order"], cls


_check_fields()
