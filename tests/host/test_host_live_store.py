"""Issue 21, build 1 and 3: ``serve``'s live game in SQLite.  An order edit writes one row (not
the game); a seal is committed synced; reopening uses the database without checking or
replaying the saved game; a saved game changed since (another game put in its place) wins; the
saved game is written at every new phase and on stop; a full database rolls back whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.host.table import SaveFailedError, TableHost
from diplomacy_desktop.io import gamestore, saveschema
from diplomacy_desktop.io.gamestore import GameStore, file_stamp, store_path
from diplomacy_desktop.io.savefile import load_game

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


def _rows(path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(store_path(path)) as db:
        return list(db.execute(f"SELECT * FROM {table}"))


def test_live_store_an_order_edit_writes_one_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.dipl"
    host = TableHost.open_live(path)
    host.deferred_saves = True
    statements: list[str] = []
    host.store.db.set_trace_callback(statements.append)  # type: ignore[union-attr]
    host.set_order_text(host.token_of("france"), "france", "S1901M", "A Par - Bur")
    host.flush(durable=False)
    writes = [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert len(writes) == 1 and "INTO orders" in writes[0]
    assert any("synchronous=NORMAL" in s for s in statements)
    statements.clear()
    host.seal(host.token_of("france"), "france", "S1901M")
    host.flush()
    writes = [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert len(writes) == 1 and "'table'" in writes[0]  # the table's seals: one row
    assert any("synchronous=FULL" in s for s in statements)
    host.close()
    assert [r[:2] for r in _rows(path, "orders")] == [("france", "par")]


def test_live_store_reopening_neither_checks_nor_replays_the_saved_game(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.dipl"
    host = TableHost.open_live(path)
    host.deferred_saves = True
    for p in POWERS:
        host.seal(host.token_of(p), p, "S1901M")
    host.flush()
    assert host.game.state.phase.short == "F1901M"
    assert load_game(path)[0].state.phase.short == "F1901M"  # the saved game follows every new phase
    host.set_order_text(host.token_of("italy"), "italy", "F1901M", "A Ven - Tyr")
    host.flush(durable=False)
    host.close()  # (as after kill -9: the saved game has no Italian order, the database has)
    assert load_game(path)[0].orders == {}

    def refuse(*_a: object) -> None:
        raise AssertionError("the saved game was checked again")

    monkeypatch.setattr(saveschema, "check_shape", refuse)
    again = TableHost.open_live(path)
    assert again.game.state.phase.short == "F1901M" and len(again.game.history) == 1
    assert again.game.orders_of("italy") == [Move("italy", "A", "ven", "tyr")]
    assert again.token_of("france") == host.token_of("france")
    again.close()


def test_live_store_a_saved_game_replaced_since_wins(tmp_path: Path) -> None:
    path = tmp_path / "g.dipl"
    host = TableHost.open_live(path)
    host.deferred_saves = True
    host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven - Tyr")
    host.flush()
    host.close()
    other = TableHost.open_live(tmp_path / "other.dipl")  # another game, copied over g.dipl
    other.close()
    path.write_bytes((tmp_path / "other.dipl").read_bytes())
    again = TableHost.open_live(path)
    assert again.game.orders == {}  # the file's game, not the database's
    assert again.token_of("italy") == other.token_of("italy")
    again.close()
    assert GameStore(store_path(path)).holds_game_of(file_stamp(path))


def test_live_store_a_full_database_rolls_the_change_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.dipl"
    host = TableHost.open_live(path)
    host.deferred_saves = True
    real = GameStore.write

    def full(self: GameStore, *a: object, **k: object) -> None:
        self.db.execute("BEGIN IMMEDIATE")  # a transaction that writes, then fails as SQLite does
        self.db.execute("DELETE FROM orders")
        self.db.execute("ROLLBACK")
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(GameStore, "write", full)
    host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven - Tyr")
    with pytest.raises(SaveFailedError, match="no space left"):
        host.flush(durable=False)
    assert host.game.orders == {}
    monkeypatch.setattr(GameStore, "write", real)
    host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven - Pie")
    host.flush(durable=False)
    host.close()
    assert [r[:2] for r in _rows(path, "orders")] == [("italy", "ven")]
    assert gamestore.SCHEMA_VERSION == 1


def test_live_store_the_database_is_private_like_the_saved_game(tmp_path: Path) -> None:
    import os
    import stat

    path = tmp_path / "g.dipl"
    old = os.umask(0o022)
    try:
        host = TableHost.open_live(path)
        host.deferred_saves = True
        host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven - Tyr")
        host.flush(durable=False)
        for p in tmp_path.iterdir():  # the game, its database and the database's WAL files
            if p.name.startswith((".g.dipl.live", "g.dipl")):
                assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name
        host.close()
    finally:
        os.umask(old)


def test_live_store_a_new_phase_the_saved_game_cannot_take_stays_made(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The database committed the reveal: the phones are told, and the file catches up later."""
    import errno
    import os

    from diplomacy_desktop.host import table as host_table

    path = tmp_path / "g.dipl"
    host = TableHost.open_live(path)
    host.deferred_saves = True
    real = host_table.write_atomic

    def full(*_a: object, **_k: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(host_table, "write_atomic", full)
    for p in POWERS:
        host.seal(host.token_of(p), p, "S1901M")
    host.flush()  # no SaveFailedError: the live game has the new phase
    assert host.game.state.phase.short == "F1901M" and host.save_failures == 0
    monkeypatch.setattr(host_table, "write_atomic", real)
    assert host.write_file() == ""
    host.close()
    assert load_game(path)[0].state.phase.short == "F1901M"
