"""A convoyed army's result names the seas it went through (the fleets whose convoy succeeded)."""

from __future__ import annotations

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.engine.results import OrderResult
from diplomacy_desktop.engine.state import GameState, Phase
from diplomacy_desktop.engine.turns import adjudicate_phase
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import parse_order

BOARD = load_board()


def results(units: dict[str, list[str]], orders: dict[str, list[str]]) -> dict[str, OrderResult]:
    from diplomacy_desktop.engine.state import MOVEMENT, SPRING, Unit

    state = GameState.build(BOARD, Phase(1902, SPRING, MOVEMENT),
                            [Unit(p, *u.split()) for p, us in units.items() for u in us], {})
    parsed = [parse_order(o, p, state) for p, os in orders.items() for o in os]
    out = adjudicate_phase(state, parsed)
    return {r.order.province: r for r in out.results}


def test_convoy_route_is_the_carrying_fleets_sea() -> None:
    r = results({"italy": ["A apu", "F ion", "F tys"]},
                {"italy": ["A apu - tun", "F ion C A apu - tun", "F tys H"]})
    assert r["apu"].succeeded and r["apu"].route == ("ion",)


def test_convoy_route_follows_a_chain_of_fleets_in_order() -> None:
    r = results({"england": ["A lvp", "F iri", "F eng"]},
                {"england": ["A lvp - bre", "F iri C A lvp - bre", "F eng C A lvp - bre"]})
    assert r["lvp"].succeeded and r["lvp"].route == ("iri", "eng")


def test_convoy_route_leaves_out_a_dislodged_fleet() -> None:
    r = results({"italy": ["A nap", "F ion", "F tys"], "turkey": ["F aeg", "F eas"]},
                {"italy": ["A nap - tun", "F ion C A nap - tun", "F tys C A nap - tun"],
                 "turkey": ["F aeg - ion", "F eas S F aeg - ion"]})
    assert r["ion"].dislodged
    assert r["nap"].succeeded and r["nap"].route == ("tys",)


def test_convoy_route_is_empty_over_land() -> None:
    r = results({"france": ["A par"]}, {"france": ["A par - bur"]})
    assert isinstance(r["par"].order, Move) and r["par"].route == ()
