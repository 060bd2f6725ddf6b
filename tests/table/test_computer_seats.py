"""Computer seats behind the table service (issue 33): the host hands a seat to the computer and
back; the computer writes and seals its orders when the writing period starts; votes by its rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_positions import BOARD

from diplomacy_desktop.bots import Bot
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.table.changes import COMPUTER, HOST, LAPTOP, TableChange
from diplomacy_desktop.table.service import TableRefusal, TableService


def _service() -> tuple[TableService, list[TableChange]]:
    service = TableService(Game.new(BOARD), {"computer_seed": 5})
    heard: list[TableChange] = []
    service.add_listener(heard.append)
    return service, heard


def test_computer_seats_only_the_host_hands_a_seat_over_and_back() -> None:
    service, heard = _service()
    with pytest.raises(TableRefusal):
        service.set_computer_seat("france", "club", initiator=LAPTOP)
    with pytest.raises(TableRefusal):
        service.set_computer_seat("france", "genius")
    service.set_computer_seat("france", "club")
    service.set_computer_seat("turkey", "beginner")
    assert service.computer_seats() == {"france": "club", "turkey": "beginner"}
    assert heard[-1].kind == "table" and heard[-1].initiator == HOST
    service.set_computer_seat("turkey", None)
    assert service.computer_seats() == {"france": "club"}


def test_computer_seats_write_and_seal_when_the_writing_period_starts() -> None:
    service, heard = _service()
    service.set_computer_seat("france", "club")
    service.set_computer_seat("turkey", "strong")
    service.write_computer_orders()
    assert set(service.session.sealed) == {"france", "turkey"}
    assert sorted(service.game.orders_of("france"), key=str) == \
        sorted(Bot("club", 5).orders(service.game.state, "france"), key=str)
    assert any(c.initiator == COMPUTER and c.kind == "seal" for c in heard)
    # the people write and seal; the reveal adjudicates and the computer writes the next phase
    for power in service.unsealed():
        service.seal(power, initiator=LAPTOP)
    service.reveal()
    assert service.game.state.phase.short == "F1901M"
    assert {"france", "turkey"} <= set(service.session.sealed)
    assert service.game.orders_of("turkey") and not service.game.orders_of("england")


def test_computer_seats_keep_what_a_person_wrote_and_vote_by_their_rule() -> None:
    service, _heard = _service()
    first = service.game.state.units["par"]
    from diplomacy_desktop.engine.orders import Hold

    service.give_order(Hold("france", first.kind, "par"), initiator=LAPTOP)
    service.set_computer_seat("france", "club")
    service.write_computer_orders()
    assert service.game.orders_of("france") == [Hold("france", "A", "par")]
    assert "france" in service.session.sealed
    votes = service.computer_votes("draw")
    assert votes == {"france": True}  # nobody leads at the start: the computer takes the draw
    assert service.computer_votes("concession", "england") == {"france": False}


def test_computer_seats_serve_hands_seats_over_and_the_phones_see_only_that_they_sealed(tmp_path: Path) -> None:
    from diplomacy_desktop.host.serve import _computer_seats
    from diplomacy_desktop.host.table import TableHost, UnknownTokenError

    host = TableHost(Game.new(BOARD), {}, tmp_path / "game.dipl")
    assert _computer_seats(host, ["narnia=club"]) == "--computer narnia=club: there is no power 'narnia' at this table"
    assert _computer_seats(host, ["france=club", "turkey=beginner"]) is None
    assert set(host.service.session.sealed) == {"france", "turkey"}
    assert len(host.game.orders_of("france")) == 3
    # England's phone: France has sealed, and none of France's orders is in what England is sent
    assert host.public_state()["computer"] == {"france": "club", "turkey": "beginner"}  # the strip marks them
    england = host.token_of("england")
    host.set_order_text(england, "england", "S1901M", "F Lon - Nth")
    view = json.dumps(host.state_for(england))
    assert format_order(host.game.orders_of("england")[0]) in view  # a view shows its orders so: the check below means it
    for order in host.game.orders_of("france"):
        assert format_order(order) not in view
    with pytest.raises(UnknownTokenError, match="played by the computer"):  # nor does France's link show them
        host.state_for(host.token_of("france"))


def test_the_table_names_the_same_levels_as_the_computer_players() -> None:
    """table.computer names the levels itself (the window starts without the bots): the same ones."""
    from diplomacy_desktop.bots import LEVELS as BOT_LEVELS
    from diplomacy_desktop.table.computer import LEVELS

    assert LEVELS == BOT_LEVELS
