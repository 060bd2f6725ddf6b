"""Issue 21 build 1: the window's autosave is the live game in SQLite (``io.gamestore``, the
store ``serve`` uses): an order given writes one row, committed before ``write`` returns; a seal
or a new phase is synced; an earlier version's ``autosave.json`` is migrated on first use and kept
until the database's transaction committed; a secret game's rows are encrypted."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Hold, Move
from diplomacy_desktop.io import vault as vault_module
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.gamestore import GameStore
from diplomacy_desktop.io.savefile import WrongPassphraseError, game_to_dict, order_to_dict, save_game
from diplomacy_desktop.io.vault import Vault
from diplomacy_desktop.table.autosave import AUTOSAVE_NAME, LEGACY_AUTOSAVE_NAME, ORIGIN_NAME, Autosave
from diplomacy_desktop.table.notes import add_note
from diplomacy_desktop.table.state import TableState

PASS = "correct horse battery"


@pytest.fixture(autouse=True)
def _cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_module, "KDF_N", 2 ** 10)  # the key derivation's cost is not under test


def _played() -> Game:
    game = Game.new(load_board("standard"))
    for o in (Move("france", "A", "par", "bur"), Move("germany", "A", "mun", "ruh"), Hold("italy", "A", "ven")):
        game.set_order(o)
    game.adjudicate()
    game.set_order(Move("france", "A", "bur", "mar"))
    return game


def _writes(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def test_autosave_store_an_order_given_writes_one_row_committed_at_once(tmp_path: Path) -> None:
    game = _played()
    table = TableState.from_table({"players": {"france": "Anna"}})
    autosave = Autosave(tmp_path)
    autosave.write(game, table)
    statements: list[str] = []
    assert autosave._store is not None
    autosave._store.db.set_trace_callback(statements.append)
    game.set_order(Move("germany", "A", "ruh", "hol"))
    autosave.write(game, table)
    assert len(_writes(statements)) == 1 and "INTO orders" in _writes(statements)[0]
    assert any("synchronous=NORMAL" in s for s in statements) and any(s == "COMMIT" for s in statements)
    statements.clear()
    table["sealed"] = ["france"]  # a seal: the table's row, synced to the disk
    autosave.write(game, table)
    assert len(_writes(statements)) == 1 and "'table'" in _writes(statements)[0]
    assert any("synchronous=FULL" in s for s in statements)
    # committed: another connection (a restarted app) reads it at once
    with sqlite3.connect(tmp_path / AUTOSAVE_NAME) as db:
        assert db.execute("SELECT count(*) FROM orders").fetchone()[0] == 2
    loaded, saved = Autosave(tmp_path).load()
    assert game_to_dict(loaded, saved) == game_to_dict(game, table)


def _killed_right_after_an_order(folder: Path) -> None:
    """A process writes a new game's autosave in ``folder``, then France's A Par - Bur, and is
    killed at once (os._exit: no clean-up, no checkpoint)."""
    script = textwrap.dedent(f"""
        import os
        from diplomacy_desktop.engine.game import Game
        from diplomacy_desktop.engine.orders import Move
        from diplomacy_desktop.io.boardfile import load_board
        from diplomacy_desktop.table.autosave import Autosave
        game = Game.new(load_board("standard"))
        autosave = Autosave({str(folder)!r})
        autosave.write(game, {{}})
        game.set_order(Move("france", "A", "par", "bur"))
        autosave.write(game, {{}})
        os._exit(9)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 9, run.stderr


def test_autosave_store_survives_a_kill_right_after_an_order(tmp_path: Path) -> None:
    """The order written just before os._exit (no clean-up, no checkpoint) is there after."""
    _killed_right_after_an_order(tmp_path)
    info = Autosave(tmp_path).info()
    assert info is not None and info.phases_played == 0
    assert Autosave(tmp_path).load()[0].orders_of("france") == [Move("france", "A", "par", "bur")]


def test_autosave_store_migrates_an_old_autosave_folder(tmp_path: Path) -> None:
    game = _played()
    table = TableState.from_table({"players": {"england": "Bea"}, "clock": {"spring_minutes": 15}})
    save_game(tmp_path / LEGACY_AUTOSAVE_NAME, game, table, mode=0o600)
    (tmp_path / ORIGIN_NAME).write_text(str(tmp_path / "league.dipl") + "\n", encoding="utf-8")
    autosave = Autosave(tmp_path)
    info = autosave.info()  # the first look migrates
    assert info is not None and info.phases_played == 1 and info.path == tmp_path / AUTOSAVE_NAME
    assert not (tmp_path / LEGACY_AUTOSAVE_NAME).exists() and not (tmp_path / ORIGIN_NAME).exists()
    loaded, saved = Autosave(tmp_path).load()
    assert game_to_dict(loaded, saved) == game_to_dict(game, table)
    assert Autosave(tmp_path).origin() == tmp_path / "league.dipl"


def test_autosave_store_keeps_the_old_file_until_the_migration_committed(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    game = _played()
    save_game(tmp_path / LEGACY_AUTOSAVE_NAME, game, {}, mode=0o600)
    before = (tmp_path / LEGACY_AUTOSAVE_NAME).read_bytes()
    real = GameStore.write_all

    def full(self: GameStore, *a: object, **k: object) -> object:
        self.db.execute("BEGIN IMMEDIATE")  # writes, then fails as SQLite does on a full disk
        self.db.execute("DELETE FROM phases")
        self.db.execute("ROLLBACK")
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(GameStore, "write_all", full)
    autosave = Autosave(tmp_path)
    info = autosave.info()
    assert info is not None and info.path == tmp_path / LEGACY_AUTOSAVE_NAME  # offered from the old file
    assert (tmp_path / LEGACY_AUTOSAVE_NAME).read_bytes() == before
    assert autosave.load()[0].state == game.state
    monkeypatch.setattr(GameStore, "write_all", real)
    assert Autosave(tmp_path).migrate()  # the disk has room again: migrated, then removed
    assert not (tmp_path / LEGACY_AUTOSAVE_NAME).exists()
    assert Autosave(tmp_path).load()[0].state == game.state


def test_autosave_store_a_secret_old_autosave_moves_in_after_its_resume(tmp_path: Path) -> None:
    game = _played()
    vault = Vault.create(PASS)
    table = TableState.from_table({})
    add_note(table, "F1901M", "france", ["germany"], "Zanzibar", game.board.power_ids)
    save_game(tmp_path / LEGACY_AUTOSAVE_NAME, game, table, mode=0o600, vault=vault)
    (tmp_path / ORIGIN_NAME).write_text(str(tmp_path / "secret.dipl") + "\n", encoding="utf-8")
    autosave = Autosave(tmp_path)
    assert autosave.exists() and autosave.is_secret() and autosave.origin() == tmp_path / "secret.dipl"
    assert (tmp_path / LEGACY_AUTOSAVE_NAME).exists()  # it needs the passphrase: not migrated blind
    with pytest.raises(WrongPassphraseError):
        autosave.open(passphrase="not the passphrase")
    opened = autosave.open(passphrase=PASS)
    assert opened.game.orders_of("france") == [Move("france", "A", "bur", "mar")] and opened.vault is not None
    # the first autosave after the resume (the window passes the game's own file)
    autosave.write(opened.game, opened.table, autosave.origin(), vault=opened.vault)
    assert not (tmp_path / LEGACY_AUTOSAVE_NAME).exists() and autosave.is_secret()
    assert not (tmp_path / ORIGIN_NAME).exists() and Autosave(tmp_path).origin() == tmp_path / "secret.dipl"
    again = Autosave(tmp_path).open(passphrase=PASS)
    assert game_to_dict(again.game, again.table) == game_to_dict(opened.game, opened.table)
    locked = Autosave(tmp_path).open()
    assert locked.locked and locked.game.orders == {} and locked.game.state == game.state


def test_autosave_store_a_secret_game_leaves_no_order_or_note_in_the_database(tmp_path: Path) -> None:
    game = _played()
    vault = Vault.create(PASS)
    table = TableState.from_table({"phones": {"tokens": {p: f"tok-{p}-secret-123" for p in game.board.power_ids}}})
    add_note(table, "F1901M", "france", ["germany"], "Zanzibar plan", game.board.power_ids)
    autosave = Autosave(tmp_path)
    autosave.write(game, table, vault=vault)
    game.set_order(Move("germany", "A", "ruh", "hol"))  # a power's draft
    autosave.write(game, table, vault=vault)
    path = tmp_path / AUTOSAVE_NAME
    raw = b"".join(p.read_bytes() for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    autosave.close()
    raw += path.read_bytes()
    for order in game.all_orders():
        assert json.dumps(order_to_dict(order)).encode() not in raw
    for secret in (b"Zanzibar", b"tok-france-secret-123"):
        assert secret not in raw, secret
    assert Autosave(tmp_path).info() is not None  # offered all the same (its orders counted, not read)
    opened = Autosave(tmp_path).open(passphrase=PASS)
    assert opened.table["notes"] == table["notes"] and opened.game.orders_of("germany")


def test_autosave_store_a_damaged_database_is_kept_aside(tmp_path: Path) -> None:
    game = _played()
    autosave = Autosave(tmp_path)
    autosave.write(game, {})
    autosave.close()
    path = tmp_path / AUTOSAVE_NAME
    damaged_bytes = path.read_bytes()[:100] + b"\x00" * 4000  # the header kept, the pages gone
    path.write_bytes(damaged_bytes)
    assert Autosave(tmp_path).info() is None
    damaged = Autosave(tmp_path).set_aside_if_damaged()
    assert damaged is not None and damaged.kept.suffix == ".sqlite" and damaged.kept.read_bytes() == damaged_bytes
    assert not path.exists()


def test_autosave_store_the_offer_says_when_the_game_was_saved_not_when_it_was_looked_at(tmp_path: Path) -> None:
    """Red team (issue 31, second pass): after a crash "A game was left unfinished" said "saved"
    at the minute the app started again (opening the killed database touched its files, and the
    time was read from them afterwards)."""
    _killed_right_after_an_order(tmp_path)
    two_hours_ago = time.time() - 7200
    for p in tmp_path.iterdir():
        os.utime(p, (two_hours_ago, two_hours_ago))
    info = Autosave(tmp_path).info()
    assert info is not None
    assert abs(info.saved_at.timestamp() - two_hours_ago) < 5, info.text
