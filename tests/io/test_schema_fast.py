"""Issue 21 build 3: a saved game is checked against its JSON Schema first by fastjsonschema's
compiled validator (fast), and only a file it refuses by jsonschema (which words the message).
That is safe only if the fast validator never lets through what jsonschema refuses: checked here
on the damaged saves of ``bad_saves/`` and on every field of a real save changed to values of
every other JSON type, and the messages are still jsonschema's, naming the field by its path."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from diplomacy_desktop.io import saveschema
from diplomacy_desktop.io.saveschema import SaveFileError, check_shape, parse_json

BAD = Path(__file__).parent / "bad_saves"
ODD_VALUES: tuple[Any, ...] = (None, True, 0, -1, 1.5, 10 ** 6, "", "x" * 300, "zzz", [], [1], {}, {"a": 1})


def _reference_valid(data: Any) -> bool:
    return next(iter(saveschema._validator().iter_errors(data)), None) is None


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):  # (the first few of a list: the rest are alike)
            yield from _paths(v, (*path, i))


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return out


def test_schema_fast_the_compiled_validator_is_used() -> None:
    assert saveschema._fast_validator() is not None
    good = parse_json((BAD / "good.json").read_text(encoding="utf-8"))
    assert saveschema._valid_fast(good) and _reference_valid(good)


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.json")))
def test_schema_fast_agrees_on_the_damaged_saves(name: str) -> None:
    try:
        data = parse_json((BAD / name).read_text(encoding="utf-8"))
    except SaveFileError:
        return  # refused before any schema
    if not _reference_valid(data):
        assert not saveschema._valid_fast(data), f"{name}: the fast validator lets through what jsonschema refuses"


def test_schema_fast_never_lets_through_what_jsonschema_refuses() -> None:
    good = parse_json((BAD / "good.json").read_text(encoding="utf-8"))
    checked = refused = 0
    for path in _paths(good):
        if not path:
            continue
        for value in ODD_VALUES:
            data = _set(good, path, value)
            checked += 1
            if not _reference_valid(data):
                refused += 1
                assert not saveschema._valid_fast(data), f"{path} = {value!r}: let through"
    assert checked > 500 and refused > 300  # the walk did reach the fields


def test_schema_fast_a_refusal_still_names_the_field_by_its_path() -> None:
    good = parse_json((BAD / "good.json").read_text(encoding="utf-8"))
    bad = _set(good, ("current", "state", "phase", "year"), "1901")
    with pytest.raises(SaveFileError,
                       match=r'\$\.current\.state\.phase\.year: expected a year from 1 to 9999, found the text "1901"'):
        check_shape(bad)
    text = json.dumps(good)
    check_shape(parse_json(text))  # and the good one passes


def test_schema_fast_speaks_draft7_for_the_2020_12_keywords() -> None:
    """fastjsonschema knows drafts 4 to 7: ``prefixItems`` is given in draft 7's words (else it
    would be ignored, and ``[kind, title, "five"]`` let through), and a keyword draft 7 has no word
    for turns the fast path off rather than being ignored."""
    node = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": False}
    assert saveschema.as_draft7(node) == {"type": "array", "items": [{"type": "string"}, {"type": "number"}],
                                          "additionalItems": False}
    assert saveschema.as_draft7({"properties": {"a": {"unevaluatedProperties": False}}}) is None
    assert saveschema.as_draft7({"enum": ["x", None], "const": {"prefixItems": 1}}) == {
        "enum": ["x", None], "const": {"prefixItems": 1}}  # values are not schemas
    good = parse_json((BAD / "good.json").read_text(encoding="utf-8"))
    plans = _set(good, ("table", "clock_plans"), {"S1901M": [["negotiation", "Talks", 900]]})
    assert saveschema._valid_fast(plans) and _reference_valid(plans)
    bad = _set(plans, ("table", "clock_plans", "S1901M", 0, 2), "five")
    assert not _reference_valid(bad) and not saveschema._valid_fast(bad)
    with pytest.raises(SaveFileError, match=r"\$\.table\.clock_plans\.S1901M\[0\]\[2\]"):
        check_shape(bad)
