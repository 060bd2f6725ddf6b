"""An ambiguous order lists only meanings that are legal orders (reachable spaces), as a
move generator would: the parser narrows by the engine's legality, never by guesswork."""

from __future__ import annotations

import pytest
from shared_positions import position

from diplomacy_desktop.engine.errors import AmbiguousOrderError, IllegalOrderError
from diplomacy_desktop.engine.orders import Build, Hold, Move, Waive
from diplomacy_desktop.engine.state import ADJUSTMENT, FALL, Phase
from diplomacy_desktop.io.notation import order_owner, parse_order


@pytest.mark.parametrize("strict", [True, False])
def test_notation_ska_nor_lists_only_reachable_spaces(strict: bool) -> None:
    state = position("germany F ska")
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order("F Ska - Nor", "germany", state, strict=strict)
    assert set(err.value.candidates) == {"F Ska - Nth", "F Ska - Nwy"}
    assert "Naf" not in str(err.value) and "Nao" not in str(err.value) and "Nwg" not in str(err.value)


def test_notation_another_powers_unit_is_narrowed_by_its_owners_legal_orders() -> None:
    state = position("germany F ska")
    # typed for the wrong power: still only the reachable meanings, never North Africa
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order("F Ska - Nor", "england", state, strict=True)
    assert set(err.value.candidates) == {"F Ska - Nth", "F Ska - Nwy"}
    # one reachable meaning: read as that, and refused for the reason that it is not England's
    state = position("germany F den")
    assert parse_order("F Den - Nor", "germany", state, strict=True) == Move("germany", "F", "den", "nth")
    with pytest.raises(IllegalOrderError, match="German"):
        parse_order("F Den - Nor", "england", state, strict=True)
    assert parse_order("F Den - Nor", "england", state) == Move("england", "F", "den", "nth")


def test_notation_no_reachable_meaning_is_illegal_not_ambiguous() -> None:
    state = position("germany F kie")
    with pytest.raises(IllegalOrderError) as err:
        parse_order("F Kie - Nor", "germany", state, strict=True)
    assert not isinstance(err.value, AmbiguousOrderError)
    assert "F Kie" in str(err.value)
    for name in ("Naf", "Nao", "North Africa", "North Atlantic"):
        assert name not in str(err.value)


def test_notation_no_reachable_meaning_for_another_powers_unit_says_so_not_whose_it_is() -> None:
    state = position("germany F kie")
    with pytest.raises(IllegalOrderError, match="whichever space is meant") as err:
        parse_order("F Kie - Nor", "italy", state)
    assert "Naf" not in str(err.value)


def test_notation_no_unit_says_so_once() -> None:
    state = position("germany F kie")
    with pytest.raises(IllegalOrderError, match="^there is no unit in Skagerrak$"):
        parse_order("F Ska - Nor", "germany", state, strict=True)


def test_notation_order_owner_is_the_units_power_or_the_centres_home() -> None:
    state = position("germany F ska", "france A par")
    assert order_owner(state, Move("england", "A", "par", "bur")) == "france"
    assert order_owner(state, Hold("germany", "F", "ska")) == "germany"
    assert order_owner(state, Hold("germany", "A", "mun")) is None
    assert order_owner(state, Waive("germany")) is None
    winter = position("germany F ska", phase=Phase(1901, FALL, ADJUSTMENT))
    assert order_owner(winter, Build("england", "A", "mun")) == "germany"
