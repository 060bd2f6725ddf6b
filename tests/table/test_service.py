"""The table service (issue 30): the divergences between the window and the phones fixed once,
in the service, and checked through the phone door (``TableHost``) and the service itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.table import PinError, RefusedError, StaleRequestError, TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.savefile import load_game
from diplomacy_desktop.table.pins import hash_pin
from diplomacy_desktop.table.service import HOST, PHONE, TableRefusal


def new_host(tmp_path: Path) -> TableHost:
    return TableHost(Game.new(load_board("standard")), {}, tmp_path / "game.dipl")


def test_service_files_an_order_the_same_way_for_every_seat(tmp_path: Path) -> None:
    """``stp - bot`` by Russia's fleet is filed as the rules read it, F stp/sc - bot, on a phone
    as at the window."""
    host = new_host(tmp_path)
    host.set_order_text(host.token_of("russia"), "russia", "S1901M", "F stp - bot")
    (order,) = host.game.orders_of("russia")
    assert getattr(order, "location", None) == "stp/sc"
    assert format_order(order).lower().startswith("f stp/sc")


def test_service_late_orders_void_are_refused_after_the_grace(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    change = host.service.void_late_orders(["france"])
    assert change is not None and change.kind == "late"
    with pytest.raises(RefusedError, match="void"):
        host.set_order_text(host.token_of("france"), "france", "S1901M", "A Par - Bur")
    assert all(type(o).__name__ == "Hold" for o in host.game.orders_of("france"))
    # the seat is told why, and the other powers order as before
    assert "void" in (host.service.order_refusal("france") or "")
    host.set_order_text(host.token_of("germany"), "germany", "S1901M", "A Ber - Kie")


def test_service_a_wrong_pin_is_on_disk_at_once(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    host.service.set_pin_hash(["france"], hash_pin("4826"), initiator=HOST)
    with pytest.raises(PinError):
        host.seal(host.token_of("france"), "france", "S1901M", pin="1111")
    _game, table = load_game(tmp_path / "game.dipl")
    assert table["pin_failures"]["france"]["count"] == 1


def test_service_a_bare_reveal_never_adjudicates_a_phase_nobody_wrote_in(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    with pytest.raises(RefusedError, match="nothing has been written or sealed"):
        host.force_adjudicate()
    assert host.phase == "S1901M"
    with pytest.raises(StaleRequestError, match="nothing done"):
        host.force_adjudicate("F1901M")
    host.force_adjudicate("S1901M")
    assert host.phase == "F1901M"
    with pytest.raises(StaleRequestError):
        host.force_adjudicate("S1901M")  # typed again: that phase has ended
    assert host.phase == "F1901M"
    assert host.undo_adjudication() == "Spring 1901 moves" or host.phase == "S1901M"
    assert host.phase == "S1901M" and load_game(tmp_path / "game.dipl")[0].state.phase.short == "S1901M"


def test_service_one_change_per_operation_with_its_initiator(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    heard = []
    host.service.add_listener(heard.append)
    host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven - Tyr")
    host.seal(host.token_of("italy"), "italy", "S1901M")
    assert [(c.kind, c.initiator) for c in heard] == [("orders", PHONE), ("seal", PHONE)]
    with pytest.raises(TableRefusal):
        host.service.give_order(host.game.orders_of("italy")[0], initiator=PHONE)  # sealed
    assert len(heard) == 2
    assert json.dumps(host.public_state()).find("Tyr") == -1  # the sealed order stays secret
