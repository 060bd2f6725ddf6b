"""The table's models, moved out of the PySide6 modules, working without Qt: the clock, the
hot-seat turn, the review's warnings, the draw vote, the settings, declarations, notes, seating
and the autosave.  (These tests also run with PySide6 uninstalled: docs/architecture.md.)"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Hold, SupportMove
from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.table.autosave import NOW, ORDER, SOON, Autosave, autosave_timing
from diplomacy_desktop.table.changes import OPENED, VIEWING, VISIBILITY, TableChange
from diplomacy_desktop.table.clock import EXPIRED, RUNNING, ClockModel, ClockSettings
from diplomacy_desktop.table.declarations import declared_phases, pending_declarations
from diplomacy_desktop.table.draw import DrawVote, DrawVoteError
from diplomacy_desktop.table.hotseat import (
    CURTAIN,
    ENTERING,
    OPEN,
    READY,
    REVEALED,
    HotSeatError,
    HotSeatSession,
    PinError,
)
from diplomacy_desktop.table.notes import NoteError, notes_for, with_note
from diplomacy_desktop.table.review import review_warnings
from diplomacy_desktop.table.seating import join_names, seats_from_players
from diplomacy_desktop.table.settings import TableSettings
from diplomacy_desktop.table.state import TableState

SPRING = Phase(1901, "spring", "movement")


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_models_clock_counts_down_and_ends_the_talks_then_the_writing() -> None:
    now = Clock()
    m = ClockModel.for_phase(SPRING, ClockSettings(spring_minutes=10, writing_minutes=5), now=now)
    m.start()
    now.t += 600
    assert [(e.kind, e.period.kind) for e in m.tick()] == [("period_ended", "diplomacy")]
    assert m.status == RUNNING and m.period is not None and m.period.kind == "writing"
    now.t += 300
    assert "expired" in [e.kind for e in m.tick()] and m.status == EXPIRED
    back = ClockModel.from_dict(json.loads(json.dumps(m.to_dict())), now=now)
    assert back.status == EXPIRED and back.remaining == 0


def test_models_hot_seat_turn_cycle_and_pins() -> None:
    s = HotSeatSession(random.Random(7))
    s.begin_turn("S1901M", ("england", "france"))
    assert s.stage == OPEN and s.visible_powers == frozenset()
    s.set_pin("france", "1234")
    assert s.pins["france"].startswith("scrypt$") and "1234" not in s.pins["france"]  # issue 20: scrypt
    s.start_writing()
    with pytest.raises(PinError):
        s.open("france")
    s.open("france", "1234")
    assert s.stage == ENTERING and s.visible_powers == frozenset({"france"})
    s.seal("france")
    assert s.stage == CURTAIN
    with pytest.raises(HotSeatError):
        s.reveal()
    s.open("england")
    s.seal("england")
    assert s.stage == READY
    s.reveal()
    assert s.stage == REVEALED and s.visible_powers is None
    again = HotSeatSession.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again.sealed == {"england", "france"} and again.stage == REVEALED


def test_models_review_warns_only_about_the_powers_own_orders() -> None:
    game = Game.new(load_board("standard"))
    state = game.state
    orders = [SupportMove("france", "A", "mar", "A", "par", "bur"), Hold("france", "A", "par")]
    warnings = review_warnings(state, "france", orders)
    assert any("F Bre has no order" in w for w in warnings)
    assert any("A Mar S A Par - Bur" in w and "A Par H" in w for w in warnings)
    # a support of another power's unit: its orders are secret, nothing is compared
    theirs = [SupportMove("france", "A", "mar", "A", "mun", "bur"), Hold("france", "A", "par"),
              Hold("france", "F", "bre")]
    assert review_warnings(state, "france", theirs) == []


def test_models_draw_vote_goes_round_in_turn() -> None:
    vote = DrawVote(("england", "france"))
    with pytest.raises(DrawVoteError):
        vote.vote("france", True)
    vote.vote("england", True)
    assert not vote.complete and vote.next_voter == "france"
    vote.vote("france", True)
    assert vote.complete and vote.accepted
    no = DrawVote(("england", "france"), {"england": True, "france": False})
    assert no.complete and not no.accepted


def test_models_settings_round_trip_through_the_table() -> None:
    s = TableSettings(players={"france": "Anna"}, formal=True, notes=True, short_game_by="pieces")
    back = TableSettings.from_table(s.to_state(), formal=True)
    assert TableSettings.from_table(TableState.from_table(s.to_table()), formal=True) == s  # through a save
    assert back == s
    with pytest.raises(ValueError, match="hash"):
        TableSettings(pins={"france": "1234"})


def test_models_declarations_notes_and_seats_read_the_table_keys() -> None:
    table = TableState.from_table({
        "declarations": {"france": {"england": "war", "france": "alliance", "italy": "nonsense"}},
        "declared": ["S1901M"], "notes": [{"id": 1, "from": "italy", "to": ["france"], "text": "hi"}]})
    assert pending_declarations(table) == {"france": {"england": "war"}}
    assert declared_phases(table) == ["S1901M"]
    assert [n["text"] for n in notes_for(table, ["france"])] == ["hi"] and notes_for(table, ["england"]) == []
    notes = with_note(table, "S1901M", "england", ["germany"], " hello ", ("england", "germany"))
    assert notes[-1] == {"id": 2, "phase": "S1901M", "from": "england", "to": ["germany"], "text": "hello"}
    assert len(table["notes"]) == 1  # the table is changed only by whoever keeps the new list
    with pytest.raises(NoteError):
        with_note(table, "S1901M", "england", ["england"], "to myself", ("england",))
    board = load_board("standard")
    seats = seats_from_players(board, board.power_ids, {"england": "Anna", "france": "Anna"})
    assert ("england", "france") in seats and len(seats) == 6
    assert join_names(["A", "B", "C"]) == "A, B and C"


def test_models_autosave_timing_and_file(tmp_path: Path) -> None:
    assert autosave_timing(TableChange("phase")) == NOW
    assert autosave_timing(TableChange("position")) == NOW
    assert autosave_timing(TableChange("orders", frozenset({"france"}))) == ORDER  # issue 21: at once if quick
    assert autosave_timing(TableChange("table")) == SOON
    assert autosave_timing(TableChange("late", frozenset({"france"}))) == SOON
    assert autosave_timing(TableChange(OPENED, frozenset({"france"}))) == SOON
    assert autosave_timing(TableChange(VISIBILITY)) is None
    assert autosave_timing(TableChange(VIEWING)) is None
    assert autosave_timing(TableChange("seal", frozenset({"france"}))) is None  # drawn by no view
    autosave = Autosave(tmp_path)
    game = Game.new(load_board("standard"))
    game.set_order(Hold("france", "A", "par"))
    path = autosave.write(game, {"players": {"france": "Anna"}}, origin=tmp_path / "mine.json")
    assert path.stat().st_mode & 0o777 == 0o600  # it holds unrevealed orders
    info = autosave.info()
    assert info is not None and info.phases_played == 0
    loaded, table = autosave.load()
    assert loaded.orders_of("france") == [Hold("france", "A", "par")] and table == {"players": {"france": "Anna"}}
    assert autosave.origin() == (tmp_path / "mine.json").resolve()
    autosave.close()  # (the app stopped: issue 21's autosave is a database, damaged while closed)
    path.write_text("{not json", encoding="utf-8")
    damaged = autosave.set_aside_if_damaged()
    assert damaged is not None and damaged.kept.exists() and not path.exists()
