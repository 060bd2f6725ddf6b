"""Checking a saved game before anything is built from it.

Two steps, both before the loader touches the data:

1. the JSON text is parsed with limits (numbers of at most 40 digits, nesting as deep as the
   parser allows, no ``NaN``/``Infinity``), and validated against the declared JSON Schema
   ``savegame.schema.json`` (shipped in this package): first by ``fastjsonschema``'s validator,
   compiled from the schema once per process (a 190-phase game in well under a second, where
   ``jsonschema`` takes seconds); a file it refuses is then checked by ``jsonschema``, whose
   errors make the message (the field's path and what was expected) and which has the last
   word (the two agree on the test corpus of damaged saves: ``tests/io``);
2. one pass over the names the schema can only check for shape: every power and every space
   must exist on the board the file names.

Either step refuses with one :class:`SaveFileError` naming the field by its JSON path and
saying what was expected, e.g. ``$.current.orders[0].destination: expected a space id such
as "bur" or "stp/nc", found 3.5``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..engine.board import Board

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_FILE = "savegame.schema.json"
#: integers longer than this are not read as numbers (Python refuses past 4,300 digits anyway)
MAX_DIGITS = 40


class SaveFileError(ValueError):
    """A file that is not a readable saved game; the message says why."""


class LongNumber(str):
    """An integer of more than MAX_DIGITS digits, kept as its text: the schema refuses it
    wherever a number is expected, and the message can say how long it was."""

    __slots__ = ()


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The declared schema (package data next to this module)."""
    from importlib import resources  # (read when a save is first checked, not at start)

    text = resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    # imported here: reading case files (``adjudicate``) never needs it
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schema())  # (tests check the schema itself against the meta-schema)


@lru_cache(maxsize=1)
def _fast_validator() -> Callable[[Any], Any] | None:
    """The schema compiled to Python by fastjsonschema (None where it is not installed: the
    reference validator does it all)."""
    try:
        import fastjsonschema
    except ImportError:  # pragma: no cover - a dependency; an install without it is only slower
        return None
    draft7 = as_draft7(schema())
    if draft7 is None:
        return None
    try:
        validate: Callable[[Any], Any] = fastjsonschema.compile(draft7)
    except fastjsonschema.JsonSchemaDefinitionException:  # pragma: no cover - a keyword it lacks
        return None
    return validate


#: 2020-12 keywords fastjsonschema (drafts 4 to 7) would silently ignore: with any of them in the
#: schema (other than ``prefixItems``, which has a draft 7 spelling) the fast path is not taken
_NOT_IN_DRAFT7 = frozenset({"dependentRequired", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties",
                            "minContains", "maxContains", "$dynamicRef", "$dynamicAnchor", "$anchor",
                            "$recursiveRef", "$recursiveAnchor", "$vocabulary"})


class _NoDraft7Word(Exception):
    pass


def as_draft7(schema_node: Any) -> Any:
    """The schema in draft 7's words (``prefixItems: [...]`` is draft 7's ``items: [...]``, and a
    2020-12 ``items`` beside it its ``additionalItems``), or None if it uses a keyword draft 7
    has no word for."""
    try:
        return _draft7(schema_node, keywords=True)
    except _NoDraft7Word:
        return None


def _draft7(node: Any, *, keywords: bool) -> Any:
    if isinstance(node, list):
        return [_draft7(x, keywords=keywords) for x in node]
    if not isinstance(node, dict):
        return node
    if not keywords:  # an object of names (properties, $defs): each value a schema
        return {k: _draft7(v, keywords=True) for k, v in node.items()}
    if _NOT_IN_DRAFT7 & node.keys():
        raise _NoDraft7Word
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("enum", "const"):  # values, not schemas
            out[key] = value
        else:
            out[key] = _draft7(value, keywords=key not in ("properties", "$defs", "definitions"))
    if "prefixItems" in out:
        prefix = out.pop("prefixItems")
        if "items" in out:
            out["additionalItems"] = out["items"]
        out["items"] = prefix
    if out.get("$schema") == "https://json-schema.org/draft/2020-12/schema":
        out["$schema"] = "http://json-schema.org/draft-07/schema#"
    return out


def _valid_fast(data: Any) -> bool:
    """True when the compiled validator finds ``data`` valid; False when it refuses it or
    cannot tell (then the reference validator decides and says why)."""
    validate = _fast_validator()
    if validate is None:
        return False
    try:
        validate(data)
    except Exception:  # noqa: BLE001 - its refusals, and anything odd it meets: jsonschema decides
        return False
    return True


# -- parsing ------------------------------------------------------------------------------------


def _int(text: str) -> int | LongNumber:
    return LongNumber(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _constant(name: str) -> float:
    raise SaveFileError(f"not a saved game: {name} is not a JSON number")


_SCENARIO_LINE = re.compile(r"^\s*CASE\b", re.MULTILINE | re.IGNORECASE)


def parse_json(text: str) -> Any:
    """The JSON value of ``text``; SaveFileError (one line) if it is not one."""
    if not text.strip():
        raise SaveFileError("the file is empty" if not text else "the file holds only blank space")
    try:
        return json.loads(text, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        if _SCENARIO_LINE.search(text[:200_000]) and not text.lstrip().startswith(("{", "[")):
            raise SaveFileError(
                "this is a DATC scenario file, not a saved game: check it with "
                "\"diplomacy-desktop adjudicate FILE\", or draw it with "
                "\"diplomacy-desktop render FILE -o picture.png\"") from None
        raise SaveFileError(f"not a saved game: the JSON is broken at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise SaveFileError("not a saved game: its brackets are nested too deeply") from None


# -- the schema -----------------------------------------------------------------------------------


#: the most a saved game may hold of a thing, checked before the schema (which would otherwise
#: look at every one of 200,000 orders before saying anything): phases, and orders in a phase (a
#: phase has at most one order a unit, a build or waive a centre: 34 on the standard map)
MAX_PHASES = 20_000
MAX_ORDERS = 500


def check_sizes(data: Any) -> None:
    """SaveFileError naming the list that is longer than any game's (fast: lengths only)."""
    if not isinstance(data, dict):
        return
    history = data.get("history")
    if isinstance(history, list):
        if len(history) > MAX_PHASES:
            raise SaveFileError(f"the saved game is damaged: $.history: expected at most {MAX_PHASES} phases, "
                                f"found {len(history)}")
        records = [(f"$.history[{i}]", h) for i, h in enumerate(history)]
    else:
        records = []
    records.append(("$.current", data.get("current")))
    for where, record in records:
        orders = record.get("orders") if isinstance(record, dict) else None
        if isinstance(orders, list) and len(orders) > MAX_ORDERS:
            raise SaveFileError(f"the saved game is damaged: {where}.orders: expected at most {MAX_ORDERS} orders "
                                f"(one a unit), found {len(orders)}")


def check_text(data: Any) -> None:
    """SaveFileError naming the first string that holds half of a UTF-16 pair (``"\\ud800"``):
    JSON lets a file say it, but it is no character and cannot be written back or sent to a phone."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # at C speed; the walk only to name it
        return
    except UnicodeEncodeError:
        pass
    except (ValueError, TypeError, RecursionError):
        return  # not for this check to say
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if _LONE_SURROGATE.search(value):
                raise SaveFileError(f"the saved game is damaged: {path}: expected text, found half of a UTF-16 "
                                    "pair (\\ud800-\\udfff), which is no character")
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str) and _LONE_SURROGATE.search(k):
                    raise SaveFileError(f"the saved game is damaged: {path}: a key holds half of a UTF-16 pair "
                                        "(\\ud800-\\udfff), which is no character")
                stack.append((_child(path, k), v))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def check_shape(data: Any) -> None:
    """Raise SaveFileError naming the first field that does not match the schema."""
    from jsonschema.exceptions import best_match

    check_sizes(data)
    error = None if _valid_fast(data) else best_match(_validator().iter_errors(data))
    if error is None:
        check_text(data)
    if error is not None:
        raise SaveFileError(f"the saved game is damaged: {describe(error)}")


def _child(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def found(value: object) -> str:
    """How a value found in a file is named in a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, LongNumber):
        return f"a number of {len(value.lstrip('-'))} digits"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "a number too large to read"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return f"the text {_short(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - json gives no other types


def _short(text: str, limit: int = 40) -> str:
    shown = json.dumps(text if len(text) <= limit else text[:limit], ensure_ascii=False)
    return shown if len(text) <= limit else shown[:-1] + '..."'


_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "null"}


def _expected(error: ValidationError) -> str:
    schema_here = error.schema if isinstance(error.schema, dict) else {}
    title = schema_here.get("title")
    if isinstance(title, str):
        return title
    v, value = error.validator, error.validator_value
    if v == "type":
        types = [value] if isinstance(value, str) else list(value)
        return " or ".join(_TYPE_WORDS.get(t, t) for t in types)
    if v == "const":
        return json.dumps(value)
    if v == "enum":
        return "one of " + ", ".join(json.dumps(x) for x in value)
    if v == "minimum":
        return f"at least {value}"
    if v == "maximum":
        return f"at most {value}"
    if v == "maxLength":
        return f"at most {value} characters"
    if v == "uniqueItems":
        return "no item twice"
    if v in ("minItems", "maxItems"):
        return f"{'at least' if v == 'minItems' else 'at most'} {value} items"
    return str(error.message)  # pragma: no cover - every keyword the schema uses is named above


def describe(error: ValidationError) -> str:
    """``PATH: expected ..., found ...`` (or ``PATH is missing``) for one schema error."""
    path = error.json_path
    instance = error.instance
    if error.validator == "required" and isinstance(instance, dict):
        missing = next(k for k in error.validator_value if k not in instance)
        return f"{_child(path, missing)} is missing"
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        known = (error.schema or {}).get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = sorted(str(k) for k in instance if k not in known)
        return f"{_child(path, extra[0])} is not a field here (expected only {', '.join(known) or 'nothing'})"
    if error.validator == "propertyNames":
        # reported on the object; the offending key is the instance of the sub-error
        key = instance
        title = (error.validator_value or {}).get("title") if isinstance(error.validator_value, dict) else None
        return f"{path}: the key {found(key)} is not {title or 'allowed'}"
    if error.validator == "uniqueItems" and isinstance(instance, list):
        return f"{path}: expected each item once, found {found(_first_repeat(instance))} twice"
    return f"{path}: expected {_expected(error)}, found {found(instance)}"


def _first_repeat(items: list[Any]) -> Any:
    seen: list[Any] = []
    for x in items:
        if x in seen:
            return x
        seen.append(x)
    return None  # pragma: no cover - only called when there is a repeat


# -- names against the board ---------------------------------------------------------------------

# Where the names are, as paths through the validated data: a word is a key, "*" every item of a
# list or every value of an object, "~" every key of an object.
_PHASES = ("history.*", "current")
_POWER_PATHS = ["draw.*", "table.players.~", "table.powers.*", "table.pins.~", "table.hotseat.order.*",
                "table.hotseat.sealed.*", "table.hotseat.pins.~", "table.phones.tokens.~", "table.phones.devices.*.power", "table.phones.sealed.*",
                "table.phones.declared.*", "table.notes.*.from", "table.notes.*.to.*", "table.declarations.~",
                "table.declarations.*.~", "table.phones.revealed_declarations.~",
                "table.phones.revealed_declarations.*.~",
                *(f"{p}.{rest}" for p in _PHASES for rest in (
                    "state.units.*.power", "state.dislodged.*.power", "state.dislodged.*.attacker_power",
                    "state.owners.*", "orders.*.power", "state.relations.*.powers.*", "disorder.*"))]
_LOCATION_PATHS = [f"{p}.{rest}" for p in _PHASES for rest in (
    "state.units.*.location", "state.dislodged.*.location", "orders.*.location", "orders.*.target",
    "orders.*.destination")]
_PROVINCE_PATHS = [f"{p}.{rest}" for p in _PHASES for rest in ("state.contested.*", "state.dislodged.*.attacker_from")]
_CENTRE_PATHS = [f"{p}.state.owners.~" for p in _PHASES]


def _walk(value: Any, steps: list[str], path: str) -> Iterator[tuple[str, Any]]:
    if not steps:
        yield path, value
        return
    step, rest = steps[0], steps[1:]
    if step == "*":
        items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
        for k, v in items:
            yield from _walk(v, rest, _child(path, k))
    elif step == "~":
        if isinstance(value, dict):
            for k in value:
                yield _child(path, k), k
    elif isinstance(value, dict) and step in value:
        yield from _walk(value[step], rest, _child(path, step))


def _names(data: Any, paths: list[str]) -> Iterator[tuple[str, Any]]:
    for p in paths:
        for where, v in _walk(data, p.split("."), "$"):
            if v is not None:
                yield where, v


def check_names(data: dict[str, Any], board: Board) -> None:
    """Every power and space the file names exists on ``board`` (SaveFileError naming the field)."""
    powers = set(board.power_ids)
    checks: list[tuple[list[str], Callable[[str], bool], str]] = [
        (_POWER_PATHS, lambda v: v in powers, f"a power of this map ({', '.join(board.power_ids)})"),
        (_LOCATION_PATHS, lambda v: board.is_location(v) or v in board.spaces, "a space of this map"),
        (_PROVINCE_PATHS, lambda v: v in board.spaces, "a province of this map"),
        (_CENTRE_PATHS, lambda v: v in board.centres, "a supply centre of this map"),
    ]
    for paths, ok, what in checks:
        for where, value in _names(data, paths):
            if not ok(value):
                raise SaveFileError(f"the saved game is damaged: {where}: expected {what}, found {found(value)}")
    _check_hotseat(data)


def _check_hotseat(data: dict[str, Any]) -> None:
    """The hot-seat turn agrees with itself: only powers of the writing order have sealed, and
    "ready" (to reveal) means every one of them has."""
    table = data.get("table")
    turn = table.get("hotseat") if isinstance(table, dict) else None
    if not isinstance(turn, dict):
        return
    order, sealed = turn.get("order", []), turn.get("sealed", [])
    for i, p in enumerate(sealed):
        if p not in order:
            raise SaveFileError(f"the saved game is damaged: $.table.hotseat.sealed[{i}]: expected a power of "
                                f"$.table.hotseat.order, found {found(p)}")
    if turn.get("stage") == "ready" and set(sealed) != set(order):
        raise SaveFileError('the saved game is damaged: $.table.hotseat.stage: expected "curtain" while not every '
                            'power has sealed, found the text "ready"')


__all__ = ["LongNumber", "SaveFileError", "check_names", "check_shape", "check_sizes", "check_text", "describe", "found", "parse_json", "schema"]
