"""The table's one record of seals (``TableSession``), shared by the phone host and the hot seat;
no Qt anywhere in this file (these tests run with PySide6 uninstalled)."""

from __future__ import annotations

import random

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, READY, HotSeatError, HotSeatSession
from diplomacy_desktop.table.changes import TableChange
from diplomacy_desktop.table.session import LAPTOP, PHONE, TableSession
from diplomacy_desktop.table.state import TableState

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


def _turn(phase: str = "S1901M") -> HotSeatSession:
    s = HotSeatSession(random.Random(3))
    s.begin_turn(phase, POWERS)
    s.start_writing()
    return s


def test_session_phone_seal_is_recorded_once_in_the_hot_seat_turn() -> None:
    turn = _turn()
    table = TableState.from_table({"phones": {"phase": "S1901M", "sealed": [], "declared": []}})
    heard: list[TableChange] = []
    session = TableSession(table, POWERS, hotseat=turn)
    session.add_listener(heard.append)
    change = session.seal("france", via=PHONE)
    assert change == TableChange("seal", frozenset({"france"}), PHONE)
    assert heard == [change]
    assert "france" in turn.sealed and "france" in turn.phone_sealed  # the record: the turn
    assert session.sealed == ["france"] and table["phones"]["sealed"] == []  # type: ignore[index]  # no copy
    assert session.seal("france", via=PHONE) is None and len(heard) == 1  # twice: nothing new


def test_session_laptop_seal_goes_through_the_turns_rules() -> None:
    turn = _turn()
    session = TableSession(TableState.from_table({}), POWERS, hotseat=turn)
    with pytest.raises(HotSeatError):
        session.seal("italy", via=LAPTOP)  # nobody is at the keyboard
    turn.open("italy")
    assert turn.stage == ENTERING
    change = session.seal("italy", via=LAPTOP)
    assert change is not None and change.powers == {"italy"} and change.via == LAPTOP
    assert session.sealed == ["italy"] and turn.stage == CURTAIN
    assert "phones" not in session.table  # a game never hosted gets no phones key


def test_session_unseal_on_the_phone_sends_the_turn_back_to_the_curtain() -> None:
    turn = _turn()
    session = TableSession(TableState.from_table({"phones": {}}), POWERS, hotseat=turn)
    for p in POWERS:
        session.seal(p, via=PHONE)
    assert turn.stage == READY
    change = session.unseal("turkey", via=PHONE)
    assert change is not None and change.kind == "unseal"
    assert turn.stage == CURTAIN and "turkey" not in session.sealed
    assert session.unseal("turkey", via=PHONE) is None


def test_session_turn_moved_tells_only_when_who_sealed_changed() -> None:
    turn = _turn()
    table = TableState.from_table({"phones": {"sealed": [], "declared": []}})
    heard: list[TableChange] = []
    session = TableSession(table, POWERS, hotseat=turn)
    session.add_listener(heard.append)
    assert session.turn_moved() is None and heard == []
    turn.open("england")
    turn.seal("england")  # the laptop's turn moved by itself
    change = session.turn_moved()
    assert change == TableChange("turn", frozenset(), LAPTOP) and heard == [change]
    assert table["phones"]["sealed"] == []  # type: ignore[index]  # the turn is the one record: no copy


def test_session_rejects_an_unknown_side() -> None:
    with pytest.raises(ValueError, match="laptop or on a phone"):
        TableSession(TableState.from_table({}), POWERS).seal("france", via="fax")


def test_session_without_a_hot_seat_keeps_the_phones_lists() -> None:
    table = TableState.from_table({})
    session = TableSession(table, POWERS)
    session.begin_phase("S1901M")
    session.seal("turkey", via=PHONE)
    session.seal("austria", via=PHONE)
    assert table["phones"] == {"phase": "S1901M", "sealed": ["austria", "turkey"], "declared": []}
    session.declare("italy", via=PHONE)
    assert session.declared == ["italy"]
    assert session.begin_phase("F1901M") is not None and session.sealed == [] and session.declared == []


def test_session_the_phone_host_and_the_hot_seat_share_one_record() -> None:
    game = Game.new(load_board("standard"))
    table = TableState.from_table({})
    turn = _turn(game.state.phase.short)
    session = TableSession(table, game.board.power_ids, hotseat=turn)
    host = TableHost(game, table, auto_reveal=False, session=session)
    token = host.token_of("germany")
    assert host.seal(token, "germany", "S1901M")["message"] == "sealed"
    assert "germany" in turn.sealed and "germany" in turn.phone_sealed  # no copy to keep in step
    turn.open("russia")
    session.seal("russia", via=LAPTOP)
    assert host.public_state()["sealed"] == ["germany", "russia"]  # the phones read the laptop's seal
    assert host.state_for(host.token_of("russia"))["mine"]["russia"]["sealed"] is True
    assert host.seal(host.token_of("russia"), "russia", "S1901M")["message"] == "already sealed"


def test_session_adopt_moves_the_other_doors_record_once() -> None:
    """Issue 30: who sealed is stored once.  A table ``serve`` saved (the phones' lists) opened by
    the window: the seals move into the turn, as sealed on a phone, and the lists go; a table the
    window saved (its turn) opened by ``serve``: the turn's seals become the phones' lists, and
    the turn keeps its order and PINs but no seals."""
    turn = _turn()
    served = TableState.from_table({"phones": {"phase": "S1901M", "sealed": ["italy", "france"], "declared": []}})
    window = TableSession(served, POWERS, hotseat=turn)
    assert window.adopt("S1901M")
    assert turn.sealed == {"france", "italy"} and turn.phone_sealed == {"france", "italy"}
    assert "sealed" not in served["phones"] and "declared" not in served["phones"]  # type: ignore[operator]
    assert not window.adopt("S1901M")  # once
    saved = TableState.from_table({"hotseat": turn.to_dict()})
    host = TableSession(saved, POWERS)
    assert host.adopt("S1901M")
    assert host.sealed == ["france", "italy"]
    assert saved["hotseat"]["sealed"] == [] and saved["hotseat"]["order"]  # type: ignore[index]
    assert not TableSession(saved, POWERS).adopt("S1901M")
    assert not TableSession(TableState.from_table({"hotseat": turn.to_dict()}), POWERS).adopt("F1901M")  # another phase: nothing
