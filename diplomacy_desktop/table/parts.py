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

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, Self, cast, dataclass_transform

_MISSING = object()
P = TypeVar("P", bound="JsonPart")
R = TypeVar("R", bound="JsonPart")
T = TypeVar("T")


def fits_json(value: Any, expected: type | tuple[type, ...]) -> bool:
    """``value`` is of the JSON type ``expected`` (JSON's true and false are no numbers, though
    Python's bool is an int)."""
    if not isinstance(value, expected):
        return False
    if isinstance(value, bool):
        kinds = expected if isinstance(expected, tuple) else (expected,)
        return bool in kinds or object in kinds
    return True


class JsonObjectView:
    """The read-only half of a JSON object's view, shared by ``TableState`` and every ``JsonPart``:
    a subclass gives ``_json()`` (itself as the save file keeps it) and the keyed four
    (``__getitem__``, ``__setitem__``, ``__delitem__``, ``__contains__``); the rest of the mapping
    follows from them.  Hidden from the type checker: the package reads attributes, the tests and
    an old save's reader the keys."""

    __slots__ = ()

    def _json(self) -> dict[str, Any]:
        raise NotImplementedError

    if not TYPE_CHECKING:

        def __iter__(self) -> Iterator[str]:
            return iter(self._json())

        def __len__(self) -> int:
            return len(self._json())

        def keys(self) -> list[str]:
            return list(self._json())

        def items(self) -> list[tuple[str, Any]]:
            return list(self._json().items())

        def values(self) -> list[Any]:
            return list(self._json().values())

        def get(self, key: str, default: Any = None) -> Any:
            try:
                return self[key]
            except KeyError:
                return default

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


@dataclass_transform(eq_default=False, field_specifiers=(field,))
class _PartKind(type):
    """What makes a ``JsonPart`` subclass a record: its attributes are its ``KNOWN`` keys (a key
    that is no Python name by its ``ATTRS`` name), and ``JsonPart``'s own ``extra`` and
    ``key_order``, in slots (a name outside them is refused), each key ``None`` until read; the
    class body declares its keys, typed, as a dataclass's fields (the type checker reads them so,
    ``dataclass_transform``, after ``JsonPart``'s two).  Not ``@dataclass``: that writes and compiles an
    ``__init__`` and a ``__repr__`` per class, at every start of the app (a part is read at most a
    few times per change, so ``JsonPart.__init__`` serves them all)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kw: Any) -> _PartKind:
        known = namespace.get("KNOWN", next((b.KNOWN for b in bases if hasattr(b, "KNOWN")), {}))
        attrs = namespace.get("ATTRS", next((b.ATTRS for b in bases if hasattr(b, "ATTRS")), {}))
        held = {s for b in bases for k in b.__mro__ for s in getattr(k, "__slots__", ())}
        names = (*(attrs.get(k, k) for k in known), "extra", "key_order")
        for n in names:  # the declared defaults (None, {} and ()): JsonPart.__init__ sets them
            namespace.pop(n, None)
        namespace["__slots__"] = tuple(n for n in names if n not in held)
        #: each known key with its attribute (read and written once per key: ``from_dict``, ``to_dict``)
        namespace["_KEYS"] = tuple((k, attrs.get(k, k)) for k in known)
        return super().__new__(mcs, name, bases, namespace, **kw)


class JsonPart(JsonObjectView, metaclass=_PartKind):
    """A JSON object's known keys as typed attributes (``None``: absent); the rest in ``extra``.

    A subclass declares its ``KNOWN`` keys as a dataclass declares its fields (``_PartKind``; the
    two below are every part's), and is made as one: ``SealSecretPart(phase=..., secret=...)``."""

    #: the keys and the JSON type each must have to be read as a typed value
    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {}
    #: the attribute of a known key that is no Python name (``{"from": "sender"}``); every other
    #: known key is its own attribute
    ATTRS: ClassVar[dict[str, str]] = {}
    #: the known keys whose value is read as a typed record of its own (``{"tokens": TextMap}``:
    #: an object of the key's JSON type there is read as that part, an array as that list)
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {}
    #: the keys this version does not know (and known keys with a damaged value), as read
    extra: dict[str, Any] = field(default_factory=dict)
    #: the keys in the order they were read (the save file's order, kept)
    key_order: tuple[str, ...] = ()

    #: ``(key, attribute)`` of each known key (``_PartKind``)
    _KEYS: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, **values: Any) -> None:
        for _key, name in self._KEYS:
            setattr(self, name, None)
        self.extra = {}
        self.key_order = ()
        for name, value in values.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Self:
        part = cls()
        if data:
            known, nested, attrs = cls.KNOWN, cls.NESTED, cls.ATTRS
            for key, value in data.items():
                expected = known.get(key)
                if expected is not None and key not in nested and fits_json(value, expected):
                    setattr(part, attrs.get(key, key), value)  # (a known key's value, as _put does)
                else:
                    part._put(str(key), value)  # (another key, a damaged value, a nested record)
            part.key_order = tuple(data)
        return part

    def _put(self, key: str, value: Any) -> None:
        put_key(self, key, value, self.KNOWN, self.NESTED, self.ATTRS)

    def drop(self, key: str) -> None:
        """The key leaves the part (whatever it held, a damaged value too)."""
        self.extra.pop(key, None)
        if key in self.KNOWN:
            setattr(self, self.ATTRS.get(key, key), None)

    def to_dict(self) -> dict[str, Any]:
        """The part as the save file keeps it (the keys in the order they were read)."""
        return json_object(self, self._KEYS)

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

    def _json(self) -> dict[str, Any]:
        return self.to_dict()


_M = TypeVar("_M", bound="JsonPart | JsonList")


def made(record: Any, name: str, kind: type[_M]) -> _M:
    """``record``'s part ``name`` (a part's nested record, or one of ``TableState``'s parts), made
    empty (``kind()``) when it has none."""
    value = getattr(record, name)
    if value is None:
        value = kind()
        setattr(record, name, value)
    return cast(_M, value)


def put_key(record: Any, key: str, value: Any, known: Mapping[str, type | tuple[type, ...]],
            nested: Mapping[str, type[JsonPart | JsonList]], attrs: Mapping[str, str]) -> None:
    """``value`` read into ``record`` (a part, or ``TableState``) as the save file's ``key``: a
    known key's value of its JSON type into its attribute (as the record of its own that ``nested``
    names, if any; a record the package made as it is), anything else kept in ``record.extra`` as
    read (a known key's damaged value too, and then the attribute reads as absent)."""
    expected = known.get(key)
    kind = nested.get(key)
    name = attrs.get(key, key)
    if kind is not None and isinstance(value, kind):  # a record made by the package
        setattr(record, name, value)
        record.extra.pop(key, None)
    elif expected is not None and fits_json(value, expected):
        if kind is not None:
            value = kind.from_dict(value) if issubclass(kind, JsonPart) else kind.from_list(value)
        setattr(record, name, value)
        record.extra.pop(key, None)
    else:
        if expected is not None:
            setattr(record, name, None)
        record.extra[key] = value


def json_object(record: Any, keys: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """``record`` (a part, or ``TableState``) as the save file keeps it: its ``keys`` (``(key,
    attribute)``) that hold a value, records as their JSON, and ``record.extra``, in the order
    ``record.key_order`` read them (the rest after)."""
    values: dict[str, Any] = dict(record.extra)
    for key, name in keys:
        value = getattr(record, name)
        if value is None:
            continue
        if isinstance(value, JsonPart):
            value = value.to_dict()
        elif isinstance(value, JsonList):
            value = value.to_list()
        values[key] = value
    order = record.key_order
    if not order or tuple(values) == order:  # (as read, or made by the package: nothing to sort)
        return values
    ordered = {k: values[k] for k in order if k in values}
    if len(ordered) < len(values):
        ordered.update({k: v for k, v in values.items() if k not in ordered})
    return ordered


# -- the laptop's turn, PINs, seals, notes, seating --


class SealSecretPart(JsonPart):
    """``table.seal_secrets``: this phase's seal secret (``table.sealcodes``; secret: ``io.vault``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"phase": str, "secret": str}

    #: the phase the secret is for (``S1901M``)
    phase: str | None = None
    #: the secret, in hex
    secret: str | None = None


class JsonMap(JsonPart, Generic[T]):
    """A JSON object keyed by power (or device), every entry of one JSON type (``ITEM``): no known
    keys, so each entry is kept in ``extra`` as read, in its order (a damaged entry too, and it
    reads as absent).  Read and changed through ``of``, ``put``, ``drop`` and ``entries``."""

    #: the JSON type an entry must have to be read
    ITEM: ClassVar[type | tuple[type, ...]] = object

    def of(self, key: str) -> T | None:
        """The entry for ``key`` (``None``: absent, or not of the entry's type)."""
        value = self.extra.get(key)
        return cast(T, value) if fits_json(value, self.ITEM) else None

    def holds(self, key: str) -> bool:
        """Whether ``key`` has an entry (of the entry's type or damaged)."""
        return key in self.extra

    def put(self, key: str, value: Any) -> None:
        """``key``'s entry becomes ``value`` (a new key goes last, as a dict's would)."""
        self.extra[key] = value

    def drop(self, key: str) -> None:
        """``key``'s entry leaves (a later one goes last, as a dict's would)."""
        self.extra.pop(key, None)
        self.key_order = tuple(k for k in self.key_order if k != key)

    def entries(self) -> dict[str, T]:
        """Every entry that reads (``of``: of the entry's type), in order."""
        return {k: v for k in self.to_dict() if (v := self.of(k)) is not None}


class TextMap(JsonMap[str]):
    """A JSON object of text entries, ``{power: text}`` (an entry that is not text reads as absent)."""

    ITEM: ClassVar[type | tuple[type, ...]] = str

    @classmethod
    def of_entries(cls, entries: Mapping[str, str]) -> Self:
        """A map of ``entries`` (keys and values as text), in their order."""
        return cls.from_dict({str(k): str(v) for k, v in entries.items()})


def text_entries(part: TextMap | None) -> dict[str, str]:
    """``part``'s text entries, in order (none when the table has no such part)."""
    return part.entries() if part is not None else {}


class SealCodesPart(TextMap):
    """``table.seal_codes``: this phase's seal codes, ``{power: code}`` (``table.sealcodes``; secret)."""

    def as_given(self) -> dict[str, str]:
        """Every entry as text, a damaged one too, in order: a seal check must not pass over a
        code the file holds (one that is not text never matches, so it is an alarm)."""
        return {k: str(v) for k, v in self.extra.items()}


class PlayersPart(TextMap):
    """``table.players``: who plays which power, ``{power: player name}`` (New Game, seating)."""


class PinsPart(TextMap):
    """``table.pins``: each power's PIN hash, ``{power: hash}`` (never a PIN; ``table.pins``)."""


class PlayerIdsPart(TextMap):
    """``table.player_ids``: the tournament's id of each power's player, ``{power: id}`` (a board call)."""


class DeclarationsPart(JsonMap[dict[str, str]]):
    """``table.declarations``: Formal Diplomacy (seed 003), each power's sealed, unrevealed
    declarations of this phase, ``{power: {other power: "alliance" | "neutral" | "war"}}``."""

    ITEM: ClassVar[type | tuple[type, ...]] = dict

    def of(self, key: str) -> dict[str, str] | None:
        """``key``'s declarations, the text entries only (``None``: absent, or not an object)."""
        value = self.extra.get(key)
        return {str(k): v for k, v in value.items() if isinstance(v, str)} if isinstance(value, dict) else None


class PinFailure(JsonPart):
    """One power's wrong PINs (``table.pin_failures``' entry): how many, and the wall-clock time
    before which no try is taken (``table.pins.PinGuard``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"count": int, "until": (int, float)}

    count: int | None = None
    until: int | float | None = None


class RecordMap(JsonMap[dict[str, Any]], Generic[R]):
    """A JSON object of records, ``{key: {...}}``: each object read as a ``RECORD`` (``R``) by
    ``record`` / ``records``, written by ``put_record``; an entry that is no object reads as absent."""

    ITEM: ClassVar[type | tuple[type, ...]] = dict
    #: the record each object is read as (``R``)
    RECORD: ClassVar[type[JsonPart]] = JsonPart

    def record(self, key: str) -> R | None:
        """``key``'s record (``None``: absent, or not an object)."""
        value = self.of(key)
        return cast(R, self.RECORD.from_dict(value)) if value is not None else None

    def put_record(self, key: str, record: R) -> None:
        self.put(key, record.to_dict())

    def records(self) -> dict[str, R]:
        """Every entry that is an object, as a record, in order."""
        return {k: cast(R, self.RECORD.from_dict(v)) for k, v in self.entries().items()}


class PinFailuresPart(RecordMap[PinFailure]):
    """``table.pin_failures``: wrong PINs per power, ``{power: {"count", "until"}}`` (``table.pins``)."""

    RECORD = PinFailure


class ComputerSeatsPart(TextMap):
    """``table.computer_seats``: the powers the computer plays, ``{power: level}`` (``table.computer``)."""


@dataclass(frozen=True, slots=True)
class PhoneDevice:
    """A device that joined by PIN and is not cut off (``table.phonebook.devices``: a ``DevicePart``
    of a power of the board, with its hash), read-only."""

    power: str
    #: the SHA-256 of its token (the token itself is never kept)
    hash: str


class PhoneTokensPart(TextMap):
    """``table.phones.tokens``: each power's link, ``{power: token}`` (an entry that is not text
    reads as absent)."""


class DevicePart(JsonPart):
    """One entry of ``table.phones.devices``: the power a device joined by PIN and the SHA-256 of
    its token (the token itself is never kept)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"power": str, "hash": str}

    power: str | None = None
    hash: str | None = None


class DevicesPart(RecordMap[DevicePart]):
    """``table.phones.devices``: the devices that joined by PIN, ``{device: {"power", "hash"}}``, in
    the order they joined (``table.phonebook``); an entry that is no object reads as absent."""

    RECORD = DevicePart


class KickedPart(TextMap):
    """``table.phones.kicked``: the PIN hash each power had when the host cut its phones off,
    ``{power: hash}`` (an entry that is not text reads as absent)."""


class JoinsPart(JsonMap[int]):
    """``table.phones.joins``: how many phones joined each power, ``{power: count}`` (an entry that
    is not a whole number, a ``true`` too, reads as absent)."""

    ITEM: ClassVar[type | tuple[type, ...]] = int


class RevealedDeclarationsPart(DeclarationsPart):
    """``table.phones.revealed_declarations``: the declarations last revealed (the phase is
    ``declarations_revealed``), ``{power: {other power: relation}}``, read as ``DeclarationsPart``."""


class PhoneClockPart(JsonPart):
    """``table.phones.clock``: the clock the phones showed when the host last wrote it
    (``TableHost.set_clock`` writes it whole, ``restore_clock`` reads it after a restart)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "title": str, "remaining": (int, float), "running": bool, "at": (int, float)}

    #: what it counts down (``Negotiation``)
    title: str | None = None
    #: the seconds left when it was written
    remaining: float | None = None
    running: bool | None = None
    #: the wall-clock time it was written (``time.time``)
    at: float | None = None


class PhonesPart(JsonPart):
    """``table.phones``: the phone host's part (``table.phonebook`` reads and changes the links,
    devices, cut-offs, join counts and clock; ``table.session`` who sealed / declared).  Its maps
    are typed records of their own (``NESTED``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "tokens": dict, "phase": str, "sealed": list, "declared": list, "declarations_revealed": str,
        "revealed_declarations": dict, "devices": dict, "device_seq": int, "kicked": dict, "joins": dict,
        "clock": dict,
    }
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {
        "tokens": PhoneTokensPart, "revealed_declarations": RevealedDeclarationsPart, "devices": DevicesPart,
        "kicked": KickedPart, "joins": JoinsPart, "clock": PhoneClockPart,
    }

    #: each power's link: ``{power: token}``
    tokens: PhoneTokensPart | None = None
    #: the phase the phones' lists are for (``S1901M``)
    phase: str | None = None
    #: the powers sealed on the phones (``serve``: no hot-seat turn)
    sealed: list[Any] | None = None
    #: Formal Diplomacy: the powers whose declarations count this phase
    declared: list[Any] | None = None
    #: the phase whose declarations were last revealed, and what they were
    declarations_revealed: str | None = None
    revealed_declarations: RevealedDeclarationsPart | None = None
    #: the devices that joined by PIN: ``{device: {"power", "hash"}}`` (``table.phonebook``)
    devices: DevicesPart | None = None
    device_seq: int | None = None
    #: the PIN hash each power had when the host cut its phones off
    kicked: KickedPart | None = None
    #: how many phones joined each power
    joins: JoinsPart | None = None
    #: the clock the phones showed when the host last wrote it
    clock: PhoneClockPart | None = None


class RevealedSealCodesPart(JsonPart):
    """``table.revealed_seal_codes``: the last revealed phase, its secret (absent in an earlier
    version's save) and the codes given at sealing (``table.sealcodes``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"phase": str, "secret": str, "codes": dict}
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {"codes": SealCodesPart}

    phase: str | None = None
    secret: str | None = None
    #: ``{power: code}`` (an entry that is not text reads as absent)
    codes: SealCodesPart | None = None


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


class JsonRecords(JsonList, Generic[R]):
    """A JSON array of records: each JSON object read as an ``ITEM`` (``R``), an item that is no
    object kept as read; ``entries`` gives the records."""

    __slots__ = ()
    #: the record each JSON object is read as (``R``)
    ITEM: ClassVar[type[JsonPart]] = JsonPart

    @classmethod
    def from_list(cls, data: list[Any] | None) -> Self:
        return cls([cls.ITEM.from_dict(v) if isinstance(v, dict) else v for v in data or []])

    def to_list(self) -> list[Any]:
        return [v.to_dict() if isinstance(v, JsonPart) else v for v in self.items]

    def entries(self) -> list[R]:
        """The items that are records, in order."""
        return [cast(R, v) for v in self.items if isinstance(v, self.ITEM)]


class SealLogPart(JsonList):
    """``table.seal_log``: every revealed phase's secret and the codes given at sealing, oldest
    first (``table.sealcodes``; ``verify-seals`` reads it), each item a ``RevealedSealCodesPart``."""

    __slots__ = ()

    def entries(self) -> list[RevealedSealCodesPart | None]:
        """Each item as a record (``None``: an item that is not an object), in order."""
        return [RevealedSealCodesPart.from_dict(e) if isinstance(e, dict) else None for e in self.items]


class SeatChoicesPart(JsonMap[list[str]]):
    """``table.seating.choices``: each player's choices in the priority draw (rules I), ``{player:
    [power, ...]}``, up to three, first choice first (a power names the seat holding it)."""

    ITEM: ClassVar[type | tuple[type, ...]] = list

    def of(self, key: str) -> list[str] | None:
        """``key``'s choices, the text items only (``None``: absent, or not an array)."""
        value = self.extra.get(key)
        return [c for c in value if isinstance(c, str)] if isinstance(value, list) else None

    @classmethod
    def of_choices(cls, choices: Mapping[str, Sequence[str]]) -> SeatChoicesPart:
        """A map of ``choices`` (each player's seats as text), in their order."""
        return cls.from_dict({str(p): [str(c) for c in chosen] for p, chosen in choices.items()})


class SeatDrawPart(JsonPart):
    """One entry of ``table.seating.draws`` (a list: an entry that is no JSON object stays as
    read): a tie settled by lot (``engine.seating.Draw``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "choice": int, "seat": list, "contenders": list, "winner": str}

    #: the choice the tie was on (1 to 3; 0: the players none of whose choices was free)
    choice: int | None = None
    #: the seat drawn for: its powers
    seat: list[Any] | None = None
    #: the players who drew, in alphabetical order
    contenders: list[Any] | None = None
    #: the player the lot gave it to
    winner: str | None = None


class SeatDrawsPart(JsonRecords[SeatDrawPart]):
    """``table.seating.draws``: the draw's ties, in the order they were settled, each JSON object
    read as a ``SeatDrawPart`` (an item that is no object stays as read)."""

    __slots__ = ()
    ITEM = SeatDrawPart


class SeatingPart(JsonPart):
    """``table.seating``: the priority draw's record (``table.seating.assignment_to_table``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "method": str, "secret": bool, "seed": int, "choices": dict, "draws": list, "record": list}
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {"choices": SeatChoicesPart, "draws": SeatDrawsPart}

    #: how the powers were assigned (``priority``)
    method: str | None = None
    #: the players' choices were secret
    secret: bool | None = None
    seed: int | None = None
    #: each player's choices: ``{player: [power, ...]}``
    choices: SeatChoicesPart | None = None
    #: each tie's lot: ``[{"choice", "seat", "contenders", "winner"}]``
    draws: SeatDrawsPart | None = None
    #: the draw in words, a line each
    record: list[Any] | None = None


class HotSeatPart(JsonPart):
    """``table.hotseat``: the laptop's hot-seat turn as the window last kept it
    (``table.hotseat.HotSeatSession``: ``to_part`` writes it, ``from_part`` reads it back)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "phase": str, "order": list, "sealed": list, "stage": str, "pins": dict, "notices": list, "round": str,
        "phone_sealed": list, "part_declared": list,
    }
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {"pins": PinsPart}

    #: the phase the turn is for (``S1901M``)
    phase: str | None = None
    #: the phase's writing order: the drawn power first
    order: list[Any] | None = None
    #: the powers that have sealed (at the laptop or on a phone)
    sealed: list[Any] | None = None
    #: ``open``, ``curtain``, ``entering``, ``ready`` or ``revealed``
    stage: str | None = None
    #: each power's PIN hash in an older save (a new game keeps them in ``table.pins``; an entry
    #: that is not text reads as absent)
    pins: PinsPart | None = None
    #: what the table was told (reopened powers)
    notices: list[Any] | None = None
    #: ``declarations`` (Formal Diplomacy) before the orders round; absent: ``orders``
    round: str | None = None
    #: the sealed powers that sealed on a phone
    phone_sealed: list[Any] | None = None
    #: declarations round: the powers that declared on a phone before the rest of their seat
    part_declared: list[Any] | None = None

    def clear_seals(self) -> None:
        """Nobody has sealed or declared in the turn (``serve`` took its seals: ``TableSession.adopt``);
        a key the turn lacked goes last, as a dict's would."""
        _keep(self, {"sealed": [], "phone_sealed": [], "part_declared": []})



# -- the clock, the event, ballots, board info, declarations --

if TYPE_CHECKING:
    from .clock import ClockSettings
    from .event import EventRules
    from .results import BallotRecord

_MINUTES = (int, float)


class ClockPart(JsonPart):
    """``table.clock``: the clock's settings as saved (``table.clock.ClockSettings``: ``settings``);
    a later version's keys stay when the settings change."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "spring_minutes": _MINUTES, "fall_minutes": _MINUTES, "writing_minutes": _MINUTES,
        "retreat_minutes": _MINUTES, "adjustment_minutes": _MINUTES, "wilson_rounds": _MINUTES,
        "round_minutes": _MINUTES, "declaration_minutes": _MINUTES, "writing_per_power": bool,
    }

    spring_minutes: float | None = None
    fall_minutes: float | None = None
    writing_minutes: float | None = None
    retreat_minutes: float | None = None
    adjustment_minutes: float | None = None
    #: a whole number (a float equal to one is read as it)
    wilson_rounds: float | None = None
    round_minutes: float | None = None
    declaration_minutes: float | None = None
    #: absent in a save from before the choice (``writing_minutes`` was then for all the powers)
    writing_per_power: bool | None = None

    def settings(self) -> ClockSettings:
        """The settings (``ValueError`` / ``TypeError`` on a damaged value, as
        ``ClockSettings.from_dict``)."""
        from .clock import ClockSettings

        return ClockSettings.from_dict(self.to_dict())

    def keep_settings(self, settings: ClockSettings) -> None:
        """``settings`` written in, every one of its keys (a later version's keys stay)."""
        _keep(self, settings.to_dict())



class ClockStatePart(JsonPart):
    """``table.clock_state``: the running clock as the window last wrote it (``ClockModel.to_dict``;
    ``ClockModel.from_dict`` reads it back)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "settings": dict, "phase": str, "periods": list, "index": int, "status": str, "remaining": _MINUTES,
        "warned": bool, "added": list,
    }
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {"settings": ClockPart}

    #: the settings the clock ran with (``ClockSettings.to_dict``: ``table.clock``'s keys; the
    #: window reads them whole, as ``ClockModel.from_dict`` reads the saved object)
    settings: ClockPart | None = None
    #: the phase it was for (``S1901M``)
    phase: str | None = None
    #: ``[kind, title, seconds]`` per period
    periods: list[Any] | None = None
    index: int | None = None
    status: str | None = None
    #: the seconds left in the period
    remaining: float | None = None
    warned: bool | None = None
    #: the seconds the host added to each period
    added: list[Any] | None = None


class ClockPlansPart(JsonPart):
    """``table.clock_plans``: each phase's periods as played, ``{phase: [[kind, title, seconds] ...]}``
    (the phases are its keys: all of them in ``extra``, read and written by ``plan`` / ``keep_plan``)."""


    def plan(self, phase: str) -> list[Any] | None:
        """The periods ``phase`` (``S1901M``) was played with (``None``: none kept, or damaged)."""
        value = self.extra.get(phase)
        return value if isinstance(value, list) else None

    def keep_plan(self, phase: str, plan: list[Any]) -> None:
        _keep(self, {phase: plan})


class CustomClockPart(JsonMap[float]):
    """``table.event.custom``: a custom clock's minutes, ``{period: minutes}`` (an entry that is
    no number reads as absent; ``EventRules`` reads and writes the whole)."""

    ITEM: ClassVar[type | tuple[type, ...]] = (int, float)


class EventPart(JsonPart):
    """``table.event``: a tournament board's rules as saved (``table.event.EventRules``: ``rules``);
    a later version's keys stay when the rules change."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "preset": str, "custom": dict, "end_year": int, "end_time": str, "end_time_set_at": str,
        "late_orders": str, "late_grace_seconds": int, "draw_includes_all_survivors": bool,
        "earliest_draw_year": int, "unanimous": bool, "reveal_vetoes": bool, "concession_allowed": bool,
        "concession_min_centres": int, "concession_must_be_largest": bool, "scoring": str, "tie_break": str,
        "concession_scored_as": str,
    }
    NESTED: ClassVar[dict[str, type[JsonPart | JsonList]]] = {"custom": CustomClockPart}

    preset: str | None = None
    #: a custom clock's minutes (``preset`` ``custom``)
    custom: CustomClockPart | None = None
    end_year: int | None = None
    end_time: str | None = None
    end_time_set_at: str | None = None
    late_orders: str | None = None
    late_grace_seconds: int | None = None
    draw_includes_all_survivors: bool | None = None
    earliest_draw_year: int | None = None
    unanimous: bool | None = None
    reveal_vetoes: bool | None = None
    concession_allowed: bool | None = None
    concession_min_centres: int | None = None
    concession_must_be_largest: bool | None = None
    scoring: str | None = None
    tie_break: str | None = None
    concession_scored_as: str | None = None

    def rules(self) -> EventRules:
        """The rules (``ValueError`` / ``TypeError`` on a damaged value, as ``EventRules.from_dict``)."""
        from .event import EventRules

        return EventRules.from_dict(self.to_dict())

    def keep_rules(self, rules: EventRules) -> None:
        """``rules`` written in, every one of its keys (a later version's keys stay)."""
        _keep(self, rules.to_dict())



class BoardInfoPart(JsonPart):
    """``table.board_info``: the event, round and board names for the result files (Tournament ▸
    Board details…, a board call)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"event": str, "round": str, "board": str}

    event: str | None = None
    round: str | None = None
    board: str | None = None

    @classmethod
    def of_text(cls, info: Mapping[str, Any]) -> BoardInfoPart:
        """A part of ``info``'s keys and values as text."""
        part = cls()
        part.keep(info)
        return part

    def keep(self, info: Mapping[str, Any]) -> None:
        """``info`` written in as text (a later version's keys stay)."""
        _keep(self, {str(k): str(v) for k, v in info.items()})


class BallotPart(JsonPart):
    """One entry of ``table.ballots`` (a list: an entry that is no JSON object stays as read):
    who proposed what and the outcome, never who voted what (``record``)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "phase": str, "proposer": str, "proposal": str, "powers": list, "passed": bool, "vetoes": int,
    }

    phase: str | None = None
    proposer: str | None = None
    proposal: str | None = None
    powers: list[Any] | None = None
    passed: bool | None = None
    #: how many vetoed (``None``: not told)
    vetoes: int | None = None

    def record(self) -> BallotRecord | None:
        """The ballot's outcome (``None``: a damaged entry), read as the save file holds it."""
        from .results import BallotRecord

        d = self.to_dict()
        try:
            return BallotRecord(str(d["phase"]), str(d["proposer"]), str(d["proposal"]),
                                tuple(str(p) for p in d["powers"]), bool(d["passed"]),
                                d.get("vetoes") if fits_json(d.get("vetoes"), int) else None)
        except (KeyError, TypeError):
            return None


class BallotsPart(JsonRecords[BallotPart]):
    """``table.ballots``: the ballots' outcomes, oldest first, each JSON object read as a
    ``BallotPart`` (an item that is no object stays as read)."""

    __slots__ = ()
    ITEM = BallotPart


class NotePart(JsonPart):
    """One entry of ``table.notes`` (a list: an entry that is no JSON object stays as read): a
    private note (seed 001) from one power to one or more others (``table.notes``; the phones'
    notes and the laptop's dialog read it)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {
        "id": int, "phase": str, "from": str, "to": list, "text": str}
    ATTRS: ClassVar[dict[str, str]] = {"from": "sender"}

    #: its number in the game (1, 2, ...)
    id: int | None = None
    #: the phase it was written in (``S1901M``)
    phase: str | None = None
    #: the power that wrote it (the key ``from``)
    sender: str | None = None
    #: the powers it was written to
    to: list[Any] | None = None
    text: str | None = None

    def recipients(self) -> list[str]:
        """The powers it was written to (an item that is not text left out)."""
        return [p for p in self.to or [] if isinstance(p, str)]


class NotesPart(JsonRecords[NotePart]):
    """``table.notes``: the private notes, oldest first, each JSON object read as a ``NotePart``
    (an item that is no object stays as read)."""

    __slots__ = ()
    ITEM = NotePart

    def added(self, note: NotePart) -> NotesPart:
        """A new list: these items, then ``note`` (this one is not changed)."""
        return NotesPart([*self.items, note])


class LateOrderPart(JsonPart):
    """One entry of ``table.late_orders`` (a list: an entry that is no JSON object stays as read):
    a power's late orders in a phase and the event's verdict, ``warning`` or ``void``
    (``TableService.record_late``; the tournament's result file lists them)."""

    KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"phase": str, "power": str, "verdict": str}

    phase: str | None = None
    power: str | None = None
    #: ``warning`` or ``void`` (``table.event.LATE_VOID``)
    verdict: str | None = None


class LateOrdersPart(JsonRecords[LateOrderPart]):
    """``table.late_orders``: the late orders' verdicts, oldest first, each JSON object read as a
    ``LateOrderPart`` (an item that is no object stays as read)."""

    __slots__ = ()
    ITEM = LateOrderPart


def _keep(part: JsonPart, values: Mapping[str, Any]) -> None:
    """``values`` written into ``part`` (a key it did not have goes last; its other keys stay)."""
    for key, value in values.items():
        if key not in part.key_order:
            part.key_order = (*part.key_order, key)
        part._put(key, value)

