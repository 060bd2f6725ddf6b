"""Issue 31, finding 1: the whole game authenticated at rest, not only its secrets.

The attacks of the issue, on the files of a killed host (someone with the laptop's files for a
minute, same OS user): a PIN hash copied onto another power (in ``serve``'s live database, in the
window's autosave, in the saved game), an order row put back from an earlier copy of the database,
one byte of the plain JSON changed, the MAC removed to pass a file off as an earlier version's.
Each is refused when the game is opened with its passphrase, with a message that says what was
changed; nothing opens silently.  An earlier version's file (no MAC) still opens, and says it is
unauthenticated.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from serving import PASSPHRASE, ServeProcess, call, free_port

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io import vault as vault_module
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.gamestore import GameStore, StoreTamperedError, store_path
from diplomacy_desktop.io.savefile import SaveFileError, TamperedFileError, dumps, open_game, open_text
from diplomacy_desktop.io.vault import MAC_KEY, Vault
from diplomacy_desktop.table.autosave import Autosave

PIN_F, PIN_G = "480213", "735902"


@pytest.fixture(autouse=True)
def _cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_module, "KDF_N", 2 ** 10)  # the key derivation's cost is not under test


def _swap_pin(table: dict[str, Any], thief: str = "france", victim: str = "germany") -> bool:
    """Copy ``thief``'s PIN hash onto ``victim`` wherever the table keeps PIN hashes."""
    done = False
    for holder in (table.get("pins"), (table.get("hotseat") or {}).get("pins")):
        if isinstance(holder, dict) and thief in holder:
            holder[victim] = holder[thief]
            done = True
    return done


def _prepared(path: Path) -> None:
    """A secret game as ``serve`` keeps it: France and Germany have PINs (in the saved game
    too), Germany ordered and sealed; the host stopped."""
    host = TableHost.open_live(path, passphrase=PASSPHRASE, notes_allowed=True)
    host.set_pin("france", PIN_F)
    host.set_pin("germany", PIN_G)
    host.write_file()
    ge = host.token_of("germany")
    host.set_order_text(ge, "germany", "S1901M", "A Mun - Ruh")
    host.seal(ge, "germany", "S1901M", pin=PIN_G)
    host.flush()
    host.close()


def _edit_meta_table(db: Path) -> None:
    con = sqlite3.connect(db)
    (text,) = con.execute("SELECT value FROM meta WHERE key = 'table'").fetchone()
    table = json.loads(text)
    assert _swap_pin(table)
    con.execute("UPDATE meta SET value = ? WHERE key = 'table'", (json.dumps(table),))
    con.commit()
    con.close()


# -- (a) the PIN hash swap ---------------------------------------------------------------------------


def test_at_rest_a_pin_hash_swapped_in_serves_database_is_refused_and_join_gives_nothing(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    _prepared(game)
    serve = ServeProcess(game, free_port())  # the real host, on 127.0.0.1, with the passphrase
    token_g = serve.tokens["germany"]
    serve.kill()  # killed: its files are left as they were
    _edit_meta_table(store_path(game))  # France's player copies their own PIN hash onto Germany
    serve = ServeProcess(game, free_port())
    try:
        status, body = call(serve, "/api/join", {"power": "germany", "pin": PIN_F})
        assert status != 200 and "token" not in (body or {}), body
        assert token_g not in json.dumps(body)
        # the real player still joins with their own PIN (the saved game's, authenticated)
        status, body = call(serve, "/api/join", {"power": "germany", "pin": PIN_G})
        assert status == 200 and body["token"]
        assert serve.stop() == 0
        assert serve.proc.stderr is not None
        err = serve.proc.stderr.read()
    finally:
        serve.kill()
    assert "REFUSED" in err and "changed outside the app" in err and "PIN hashes" in err, err
    assert "Traceback" not in err


def test_at_rest_a_pin_hash_swapped_in_the_saved_game_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    _prepared(game)
    store_path(game).unlink()  # only the saved game is left: it is what serve reads
    data = json.loads(game.read_text())
    assert _swap_pin(data["table"])
    game.write_text(json.dumps(data, indent=1))
    with pytest.raises(TamperedFileError, match="changed outside the app"):
        open_game(game, passphrase=PASSPHRASE)
    assert not open_game(game).vault  # without the passphrase: the public board only, nothing opened
    with pytest.raises(SaveFileError, match="changed outside the app"):
        TableHost.open_live(game, passphrase=PASSPHRASE)


def test_at_rest_a_pin_hash_swapped_in_the_windows_autosave_is_refused(tmp_path: Path) -> None:
    game = Game.new(load_board("standard"))
    vault = Vault.create(PASSPHRASE)
    table: dict[str, Any] = {"pins": {"france": "scrypt$x$1", "germany": "scrypt$y$2"}, "hotseat": {"sealed": []}}
    autosave = Autosave(tmp_path)
    autosave.write(game, table, vault=vault)
    autosave.close()
    _edit_meta_table(autosave.path)
    with pytest.raises(SaveFileError, match="changed outside the app") as refused:
        autosave.open(passphrase=PASSPHRASE)
    assert "PIN hashes" in str(refused.value)


# -- (b) an order row put back from an earlier copy ---------------------------------------------------


def test_at_rest_an_order_row_put_back_from_an_earlier_copy_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASSPHRASE)
    au = host.token_of("austria")
    host.set_order_text(au, "austria", "S1901M", "A Vie - Gal")
    host.flush()
    host.close()
    db = store_path(game)
    copy = tmp_path / "copy.sqlite"
    shutil.copy(db, copy)
    host = TableHost.open_live(game, passphrase=PASSPHRASE)
    host.set_order_text(au, "austria", "S1901M", "A Vie - Tri")
    host.seal(au, "austria", "S1901M")
    host.flush()
    host.close()
    old = dict(sqlite3.connect(copy).execute("SELECT key, record FROM orders").fetchall())
    con = sqlite3.connect(db)
    now = dict(con.execute("SELECT key, record FROM orders").fetchall())
    changed = [k for k in now if k in old and old[k] != now[k]]
    assert len(changed) == 1  # the same unit's row, in the same phase
    con.execute("UPDATE orders SET record = ? WHERE key = ?", (old[changed[0]], changed[0]))
    con.commit()
    con.close()
    store = GameStore(db)
    store.vault = Vault.open(store.wrapped_key() or {}, PASSPHRASE)
    with pytest.raises(StoreTamperedError, match="an order of the phase being played"):
        store.load()
    store.close()
    host = TableHost.open_live(game, passphrase=PASSPHRASE)  # serve's restart: refused, set aside, named
    try:
        assert "REFUSED" in host.store_note and "put back from an earlier copy" in host.store_note
        assert not any(str(o) == "A Vie - Gal" for o in host.game.orders_of("austria"))
    finally:
        host.close()


# -- (c) one byte of the plain JSON ---------------------------------------------------------------------


def _locked_text() -> tuple[str, Vault]:
    game = Game.new(load_board("standard"))
    vault = Vault.create(PASSPHRASE)
    table = {"pins": {"france": "scrypt$16384$8$1$aa$bb"},
             "hotseat": {"phase": "S1901M", "sealed": ["italy"], "order": ["france", "italy"], "stage": "curtain"},
             "pin_failures": {"england": {"count": 2}},
             "notes": [{"id": 1, "from": "france", "to": ["germany"], "text": "hello"}]}
    return dumps(game, table, vault=vault), vault


def test_at_rest_any_byte_of_the_plain_json_changed_is_refused() -> None:
    text, vault = _locked_text()
    open_text(text, vault=vault)  # as written: opens
    opened = 0
    tried = 0
    for i in range(0, len(text), 7):
        ch = text[i]
        if ch.isspace():
            continue
        new = "1" if ch != "1" else "2"
        edited = text[:i] + new + text[i + 1:]
        tried += 1
        try:
            open_text(edited, vault=vault)
        except SaveFileError:
            continue
        opened += 1
    assert tried > 200 and opened == 0, f"{opened} of {tried} one-byte edits opened"


def test_at_rest_a_stripped_mac_is_refused_and_an_old_file_opens_unauthenticated() -> None:
    text, vault = _locked_text()
    data = json.loads(text)
    del data["table"][MAC_KEY]
    with pytest.raises(TamperedFileError, match="authentication was removed"):
        open_text(json.dumps(data), vault=vault)
    # an earlier version's file: the box under format 1's associated data, no MAC
    game, table = Game.new(load_board("standard")), {"pins": {"france": "scrypt$16384$8$1$aa$bb"}}
    old = json.loads(dumps(game, table, vault=vault))
    old["table"].pop(MAC_KEY)
    old["table"]["secrets"] = vault.seal({}, "S1901M", version=1)
    opened = open_text(json.dumps(old), vault=vault)
    assert opened.unauthenticated and opened.vault is vault
    assert not open_text(dumps(opened.game, opened.table, vault=vault), vault=vault).unauthenticated


def test_at_rest_a_byte_of_the_live_databases_plain_json_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    _prepared(game)
    db = store_path(game)
    con = sqlite3.connect(db)
    (text,) = con.execute("SELECT record FROM current").fetchone()
    con.execute("UPDATE current SET record = ?", (text.replace('"year": 1901', '"year": 1902', 1),))
    con.commit()
    con.close()
    store = GameStore(db)
    store.vault = Vault.open(store.wrapped_key() or {}, PASSPHRASE)
    with pytest.raises(StoreTamperedError, match="the position being played"):
        store.load()
    store.close()


def test_at_rest_an_adjudicated_phase_edited_in_the_live_database_is_named(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASSPHRASE)
    for p in host.game.board.power_ids:
        host.seal(host.token_of(p), p, "S1901M")
    host.flush()
    assert host.phase == "F1901M"
    host.close()
    con = sqlite3.connect(store_path(game))
    (text,) = con.execute("SELECT record FROM phases WHERE idx = 0").fetchone()
    con.execute("UPDATE phases SET record = ? WHERE idx = 0", (text.replace('"lon"', '"wal"', 1),))
    con.commit()
    con.close()
    store = GameStore(store_path(game))
    store.vault = Vault.open(store.wrapped_key() or {}, PASSPHRASE)
    with pytest.raises(StoreTamperedError, match="adjudicated phase 1"):
        store.load()
    store.close()


def _as_earlier_version(db: Path, vault: Vault) -> None:
    """Rewrite a store as the version before authentication wrote it: format-1 rows, no MAC."""
    con = sqlite3.connect(db)
    (cur,) = con.execute("SELECT record FROM current").fetchone()
    phase = "S1901M"
    assert '"year": 1901' in cur
    rows = con.execute("SELECT power, key, record FROM orders").fetchall()
    con.execute("DELETE FROM orders")
    aes = vault_module._aesgcm(vault._key)  # the earlier format, as it wrote it
    for i, (power, key, record) in enumerate(rows):
        value = vault.open_record(record, f"order/{phase}/{key}")
        if value is None:
            continue
        nonce = bytes(12 - len(str(i))) + str(i).encode()
        box = aes.encrypt(nonce, json.dumps(value).encode(), vault_module._AAD + b"/record/order/" + key.encode())
        con.execute("INSERT INTO orders (power, key, record) VALUES (?, ?, ?)", (power, key,
                                                                                   f"v1:{nonce.hex()}:{box.hex()}"))
    (secret,) = con.execute("SELECT value FROM meta WHERE key = 'table_secret'").fetchone()
    table = vault.open_record(json.loads(secret), "table")
    nonce = b"t" * 12
    box = aes.encrypt(nonce, json.dumps(table).encode(), vault_module._AAD + b"/record/table")
    con.execute("UPDATE meta SET value = ? WHERE key = 'table_secret'", (json.dumps(f"v1:{nonce.hex()}:{box.hex()}"),))
    con.execute("DELETE FROM meta WHERE key IN ('mac', 'phase_digests')")
    con.commit()
    con.close()


def test_at_rest_an_earlier_versions_store_opens_says_so_and_is_authenticated_at_once(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASSPHRASE)
    host.set_order_text(host.token_of("austria"), "austria", "S1901M", "A Vie - Gal")
    host.flush()
    orders = {p: dict(o) for p, o in host.game.orders.items() if o}
    vault = host.vault
    assert vault is not None
    host.close()
    _as_earlier_version(store_path(game), vault)
    again = TableHost.open_live(game, passphrase=PASSPHRASE)
    try:
        assert {p: dict(o) for p, o in again.game.orders.items() if o} == orders
        assert "earlier version" in again.store_note and "REFUSED" not in again.store_note
    finally:
        again.close()
    con = sqlite3.connect(store_path(game))
    mac = con.execute("SELECT value FROM meta WHERE key = 'mac'").fetchone()
    con.close()
    assert mac is not None  # written whole, authenticated, when it was opened
    third = TableHost.open_live(game, passphrase=PASSPHRASE)
    try:
        assert "earlier version" not in third.store_note
    finally:
        third.close()


def test_at_rest_the_live_databases_mac_removed_is_refused(tmp_path: Path) -> None:
    """Passing a store off as an earlier version's (no MAC row) is refused: its rows say they
    were written by a version that authenticates every row."""
    game = tmp_path / "g.dipl"
    _prepared(game)
    con = sqlite3.connect(store_path(game))
    con.execute("DELETE FROM meta WHERE key IN ('mac', 'phase_digests')")
    con.commit()
    con.close()
    store = GameStore(store_path(game))
    store.vault = Vault.open(store.wrapped_key() or {}, PASSPHRASE)
    with pytest.raises(StoreTamperedError, match="authentication was removed"):
        store.load()
    store.close()
    host = TableHost.open_live(game, passphrase=PASSPHRASE)
    try:
        assert "REFUSED" in host.store_note and "authentication was removed" in host.store_note
    finally:
        host.close()


def test_at_rest_the_saved_game_put_back_sets_the_live_game_aside_and_says_so(tmp_path: Path) -> None:
    """Red team (issue 31): writing the saved game back as it was (a copy put back, or only
    touched) made ``serve`` drop its live database without a word: Germany's sealed order of
    the phase was gone on restart, nobody sealed, and the database was written over.  Now the
    database is set aside and the terminal says so."""
    game = tmp_path / "g.dipl"
    _prepared(game)  # Germany ordered and sealed (in the live database only)
    game.write_bytes(game.read_bytes())  # the same bytes written again: a new stamp
    serve = ServeProcess(game, free_port())
    try:
        assert serve.stop() == 0
        assert serve.proc.stderr is not None
        err = serve.proc.stderr.read()
    finally:
        serve.kill()
    assert "set aside" in err and "g.dipl" in err, err
    aside = list(tmp_path.glob(".g.dipl.live.*-*.sqlite"))
    assert len(aside) == 1, sorted(p.name for p in tmp_path.iterdir())
    con = sqlite3.connect(aside[0])  # what was played since is kept there, not written over
    try:
        assert con.execute("SELECT count(*) FROM orders").fetchone()[0] > 0
    finally:
        con.close()
