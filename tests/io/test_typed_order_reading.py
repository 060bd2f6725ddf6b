"""A typed order read as the window's order box reads it (io.typed_orders), without Qt."""

from __future__ import annotations

import pytest

from diplomacy_desktop.engine.errors import AmbiguousOrderError, IllegalOrderError, OrderError
from diplomacy_desktop.engine.state import GameState
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.typed_orders import read_typed_order, refusal_message


@pytest.fixture
def state() -> GameState:
    return GameState.initial(load_board("standard"))


def test_typed_order_legal_is_given(state: GameState) -> None:
    typed = read_typed_order("  a par-bur ", "france", state)
    assert (str(typed.order), typed.power, typed.illegal) == ("A par - bur", "france", "")
    assert typed.message("france", state.board) == "Given: A Par - Bur"


def test_typed_order_illegal_is_kept_as_written_and_says_why(state: GameState) -> None:
    typed = read_typed_order("A Mar - Mun", "france", state)
    assert str(typed.order) == "A mar - mun" and "not next to" in typed.illegal
    assert typed.message("france", state.board).endswith(". The unit will hold.")


def test_typed_order_goes_to_the_units_owner_unless_refused(state: GameState) -> None:
    typed = read_typed_order("A Ber - Kie", "france", state)
    assert typed.power == "germany"
    assert typed.message("france", state.board) == "Given for Germany: A Ber - Kie"
    with pytest.raises(IllegalOrderError, match="not yours"):
        read_typed_order("A Ber - Kie", "france", state, lambda owner, _: "not yours" if owner != "france" else None)


def test_typed_order_for_no_unit_or_unreadable_is_refused(state: GameState) -> None:
    with pytest.raises(IllegalOrderError) as no_unit:
        read_typed_order("A Bur - Par", "france", state)
    assert refusal_message("A Bur - Par", no_unit.value).startswith("“A Bur - Par” not accepted: ")
    with pytest.raises(OrderError):
        read_typed_order("frobnicate the lot", "france", state)
    assert refusal_message("x", AmbiguousOrderError("two meanings")) == "“x” ambiguous: two meanings"
