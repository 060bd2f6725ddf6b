"""The window and the phones over one ``TableSession``: one record of seals, one ``changed``
record per seal, nothing copied between the laptop and the phones."""

from __future__ import annotations

from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING
from diplomacy_desktop.table.changes import VISIBILITY, TableChange
from diplomacy_desktop.table.session import LAPTOP, PHONE
from diplomacy_desktop.table.settings import TableSettings


def test_table_session_a_laptop_seal_is_one_record_and_reaches_the_phones_once(table, table_features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, table_features
    f.start_new_game(TableSettings())
    f.turn_on(0, "127.0.0.1")
    host, session = f.phones.host, f.flow.table_session
    assert host.session is session and session.hotseat is f.flow.session  # one record, shared
    assert not hasattr(f.phones, "_seen_sealed")  # no copy to compare
    f.act_write.trigger()
    s = f.flow.session
    power = s.next_power
    f.flow.curtain.open_button.click()
    assert s.stage == ENTERING and s.current == power
    records: list[TableChange] = []
    told: list[TableChange] = []
    heard: list[TableChange] = []
    t.controller.changed.connect(records.append)
    host.add_listener(told.append)
    session.add_listener(heard.append)
    f.strip.seal_button.click()
    assert s.stage == CURTAIN and power in s.sealed
    assert records == [TableChange(VISIBILITY, initiator=LAPTOP)]  # one record for the seal: one redraw
    assert heard == [TableChange("seal", frozenset({power}), LAPTOP)]
    assert [c.kind for c in told] == ["seal"] and host.public_state()["sealed"] == [power]
    assert "sealed" not in t.controller.table["phones"]  # one record of who sealed: the turn (issue 30)


def test_table_session_a_phone_seal_is_in_the_hot_seat_and_the_autosave_before_the_answer(table, table_features) -> None:  # type: ignore[no-untyped-def]
    f = table_features
    f.start_new_game(TableSettings())
    f.turn_on(0, "127.0.0.1")
    host = f.phones.host
    f.act_write.trigger()
    heard: list[TableChange] = []
    f.flow.table_session.add_listener(heard.append)
    writes = f.autosaver.writes
    answer = host.seal(host.token_of("turkey"), "turkey", "S1901M")
    assert answer["message"] == "sealed"
    assert heard == [TableChange("seal", frozenset({"turkey"}), PHONE)]
    s = f.flow.session
    assert "turkey" in s.sealed and "turkey" in s.phone_sealed and s.next_power != "turkey"
    assert "\u260e" in f.strip.chip_text("turkey")  # the strip follows at once
    assert f.autosaver.writes > writes
    _game, saved = f.autosaver.autosave.load()
    assert "turkey" in saved["hotseat"]["sealed"] and "sealed" not in saved["phones"]
    assert host.unseal(host.token_of("turkey"), "turkey", "S1901M")["message"] == "unsealed"
    assert "turkey" not in s.sealed and host.public_state()["sealed"] == []


def test_table_session_a_draw_is_the_controllers_operation(table, table_features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, table_features
    f.start_new_game(TableSettings())
    records: list[TableChange] = []
    ended: list[object] = []
    t.controller.changed.connect(records.append)
    t.controller.game_ended.connect(ended.append)
    survivors = t.controller.state.surviving_powers()
    record = t.controller.declare_draw(survivors)
    assert records == [record] and record.phase
    assert t.controller.game.draw == tuple(sorted(survivors)) and len(ended) == 1


def test_table_session_the_laptops_turn_is_on_disk_before_the_phones_hear_it(table, table_features) -> None:  # type: ignore[no-untyped-def]
    """Issue 30 (one durable store, one rule): a change is on disk before any seat is told.  The
    laptop's turn (a power reopened at the curtain, the round revealed) was written a moment after
    the phones were told; now the service's write hook puts it in the autosave first."""
    t, f = table, table_features
    f.start_new_game(TableSettings())
    f.turn_on(0, "127.0.0.1")
    f.act_write.trigger()
    seen: list[dict[str, object]] = []

    def on_disk(change) -> None:  # type: ignore[no-untyped-def]
        if change.kind == "turn":
            _game, saved = f.autosaver.autosave.load()
            seen.append(saved["hotseat"])

    t.controller.service.add_listener(on_disk)
    f.flow.curtain.open_button.click()  # the first power sits down: the turn moves
    assert f.flow.session.stage == ENTERING
    assert seen and seen[-1] == f.flow.session.to_dict()  # what was heard was on disk already


def test_table_session_a_seal_made_on_serve_stays_sealed_when_the_window_opens_the_game(
        table, table_features, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 30 (who sealed is stored once; the two doors disagreed): France sealed on a phone of
    ``serve``; the window that opened the game began the phase with nobody sealed and wrote the
    phones' list over, so France's seal was gone.  Now the seal moves into the window's turn (as
    sealed on a phone), and the table keeps one record of it."""
    from diplomacy_desktop.engine.game import Game
    from diplomacy_desktop.host.table import TableHost
    from diplomacy_desktop.io.boardfile import load_board

    path = tmp_path / "game.dipl"
    host = TableHost(Game.new(load_board("standard")), {}, path)
    host.seal(host.token_of("france"), "france", "S1901M")
    host.flush()
    assert table.window.open_file(path)
    s = table_features.flow.session
    assert "france" in s.sealed and "france" in s.phone_sealed
    assert table_features.flow.table_session.sealed == ["france"]
    assert "sealed" not in table.controller.table["phones"]  # one record: the turn
    table_features.act_write.trigger()
    assert s.next_power != "france"  # the curtain does not call it


def test_table_session_a_seal_made_at_the_curtain_stays_sealed_when_serve_opens_the_game(
        table, table_features, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The other way: France sealed behind the laptop's curtain, the game saved; ``serve`` opening
    it read its phones' list (none) and showed nobody sealed.  Now the turn's seals become the
    phones' record, and the turn keeps its PINs and order but no second list."""
    from diplomacy_desktop.host.table import TableHost

    f = table_features
    f.start_new_game(TableSettings())
    f.act_write.trigger()
    s = f.flow.session
    power = s.next_power
    f.flow.curtain.open_button.click()
    f.strip.seal_button.click()
    assert power in s.sealed
    path = tmp_path / "game.dipl"
    assert table.window._save_to(path)
    host = TableHost.open_or_new(path)
    assert host.public_state()["sealed"] == [power]
    assert host.table["hotseat"]["sealed"] == [] and host.table["hotseat"]["order"]
