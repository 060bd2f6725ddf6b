"""Issue 31, finding 7: what a secret game's live database shows without the key.  Each order's
row is as long as any other (its kind no longer shows: hold 188, move 266, support 310 before),
named anew in every phase, written at a random row id (the table's order does not show which
order was edited last); the notes' row does not grow with every note."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io import vault as vault_module
from diplomacy_desktop.io.gamestore import store_path

PASS = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_module, "KDF_N", 2 ** 10)


def _rows(path: Path) -> list[tuple[int, str, str]]:
    con = sqlite3.connect(store_path(path))
    try:
        return [(int(r), str(k), str(v)) for r, k, v in con.execute("SELECT rowid, key, record FROM orders ORDER BY rowid")]
    finally:
        con.close()


def _table_secret(path: Path) -> str:
    con = sqlite3.connect(store_path(path))
    try:
        return str(con.execute("SELECT value FROM meta WHERE key = 'table_secret'").fetchone()[0])
    finally:
        con.close()


def test_no_metadata_every_order_row_has_one_length_whatever_its_kind(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASS)
    fr = host.token_of("france")
    for text in ("A Par H", "A Mar - Bur", "F Bre S A Par"):  # a hold, a move, a support
        host.set_order_text(fr, "france", "S1901M", text)
    host.flush()
    lengths = {len(r) for _, _, r in _rows(game)}
    host.close()
    assert len(_rows(game)) == 34 and len(lengths) == 1, lengths


def test_no_metadata_rows_are_named_anew_each_phase_and_their_order_tells_nothing(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASS)
    tokens = {p: host.token_of(p) for p in host.game.board.power_ids}
    for text in ("A Par H", "A Mar H", "F Bre H", "A Par - Bur", "A Mar - Spa", "F Bre - Mao"):
        host.set_order_text(tokens["france"], "france", "S1901M", text)
        host.flush()
    spring = {k for _, k, _ in _rows(game)}
    for p, t in tokens.items():
        if p in host.owing() and p not in host.sealed:
            host.seal(t, p, "S1901M")
    host.flush()
    host.set_order_text(tokens["france"], "france", "F1901M", "A Bur H")
    host.flush()
    autumn = {k for _, k, _ in _rows(game)}
    host.close()
    assert spring and autumn and not (spring & autumn)  # the same unit's row is named anew in Fall
    rowids = [r for r, _, _ in _rows(game)]
    # random (one in 2**62), not 1, 2, 3... in the order the rows were written
    assert rowids and all(r > 2 ** 20 for r in rowids)


def test_no_metadata_the_notes_row_does_not_grow_with_each_note(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASS, notes_allowed=True)
    fr = host.token_of("france")
    host.flush()
    sizes = [len(_table_secret(game))]
    for i in range(5):
        host.send_note(fr, "france", ["germany"], f"note {i}: meet me in Burgundy, Kaiser, at the usual hour")
        host.flush()
        sizes.append(len(_table_secret(game)))
    host.close()
    assert len(set(sizes)) == 1, sizes  # five 50-character notes: the same length on disk


def test_no_metadata_the_number_of_order_rows_does_not_tell_how_many_orders(tmp_path: Path) -> None:
    game = tmp_path / "g.dipl"
    host = TableHost.open_live(game, passphrase=PASS)
    assert _rows(game) == []  # nobody has written: nothing (an untouched game is seen as such)
    fr, ge = host.token_of("france"), host.token_of("germany")
    host.set_order_text(fr, "france", "S1901M", "A Par - Bur")
    host.flush()
    one = _rows(game)
    for text in ("A Mar H", "F Bre - Mao"):
        host.set_order_text(fr, "france", "S1901M", text)
    host.set_order_text(ge, "germany", "S1901M", "A Mun - Ruh")
    host.flush()
    four = _rows(game)
    orders = {p: dict(o) for p, o in host.game.orders.items() if o}
    host.close()
    assert len(one) == len(four) == 34 and len({len(r) for _, _, r in four}) == 1
    again = TableHost.open_live(game, passphrase=PASS)  # the padding opens as nothing
    try:
        assert {p: dict(o) for p, o in again.game.orders.items() if o} == orders
    finally:
        again.close()
