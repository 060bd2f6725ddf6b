"""The order kinds as values: the kinds with no field of their own (``Hold``, ``SupportMove``,
``Convoy``, ``Disband``, ``Build``, ``Remove``, ``Waive``) are plain subclasses of a dataclass
(engine/orders.py's ``Hold`` says why); they must behave exactly as the dataclasses they were."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from diplomacy_desktop.engine.orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat,
                                             SupportHold, SupportMove, Waive)

ORDERS: list[Order] = [
    Hold("france", "A", "par"), Move("france", "A", "par", "bur"), SupportHold("france", "A", "par", "A", "bur"),
    SupportMove("france", "A", "par", "A", "bur", "mar"), Convoy("france", "F", "eng", "A", "lon", "bre"),
    Retreat("france", "A", "par", "pic"), Disband("france", "A", "par"), Build("france", "A", "par"),
    Remove("france", "A", "par"), Waive("france"),
]


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: type(o).__name__)
def test_an_order_is_a_frozen_value_of_its_own_kind(order: Order) -> None:
    twin = copy.copy(order)
    assert twin == order and hash(twin) == hash(order)
    assert pickle.loads(pickle.dumps(order)) == order
    assert repr(order).startswith(type(order).__name__ + "(power='france'")
    assert dataclasses.is_dataclass(order)
    assert type(dataclasses.replace(order, power="italy")) is type(order)
    assert dataclasses.replace(order, power="italy") != order
    with pytest.raises(dataclasses.FrozenInstanceError):
        order.power = "italy"  # type: ignore[misc]
    assert not hasattr(order, "__dict__")  # slots: no attribute can be added


def test_two_kinds_with_the_same_fields_are_never_equal() -> None:
    same_fields = [Hold("france", "A", "par"), Disband("france", "A", "par"), Build("france", "A", "par"),
                   Remove("france", "A", "par")]
    for a in same_fields:
        for b in same_fields:
            assert (a == b) is (type(a) is type(b))
    assert SupportMove("france", "A", "par", "A", "bur", "mar") != Convoy("france", "A", "par", "A", "bur", "mar")
    assert len(set(same_fields)) == 4
    assert [o.order_kind for o in same_fields] == ["hold", "disband", "build", "remove"]
