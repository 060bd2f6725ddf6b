"""Issue 21 build 1 with issue 20's vault: a secret game (``serve`` with a passphrase) is kept in
the same live SQLite store as a game in the clear, its secret rows encrypted (AES-GCM under the
game key).  The database's bytes (and its WAL) name no unrevealed order, note, PIN or phone token;
reopening takes the passphrase and restores everything; a wrong one is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io import vault as vault_module
from diplomacy_desktop.io.gamestore import GameStore, StoreLockedError, store_path
from diplomacy_desktop.io.savefile import SaveFileError, WrongPassphraseError, order_to_dict

PASS = "correct horse battery"
NOTE = "Meet me in Burgundy, Kaiser"
PIN = "480213"


@pytest.fixture(autouse=True)
def _cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_module, "KDF_N", 2 ** 10)  # the key derivation's cost is not under test


def _on_disk(path: Path) -> bytes:
    """Every byte the game's files hold: the saved game, its database and the database's WAL."""
    return b"".join(p.read_bytes() for p in sorted(path.parent.iterdir()) if p.name.startswith((".g.dipl", "g.dipl")))


def _played(path: Path, passphrase: str | None) -> tuple[TableHost, list[bytes]]:
    host = TableHost.open_live(path, passphrase=passphrase, notes_allowed=True)
    host.deferred_saves = True
    fr, ge = host.token_of("france"), host.token_of("germany")
    host.set_order_text(fr, "france", "S1901M", "A Par - Bur")
    host.flush(durable=False)
    host.set_order_text(ge, "germany", "S1901M", "A Mun - Ruh")  # a power's draft, not sealed
    host.flush(durable=False)
    host.send_note(fr, "france", ["germany"], NOTE)
    host.set_pin("france", PIN)
    host.seal(fr, "france", "S1901M", pin=PIN)
    host.flush()
    order = next(iter(host.game.orders["france"].values()))
    draft = next(iter(host.game.orders["germany"].values()))
    secrets = [json.dumps(order_to_dict(order)).encode(), json.dumps(order_to_dict(draft)).encode(),
               b'"destination"', b"Burgundy", NOTE.encode(), PIN.encode(), fr.encode(), ge.encode()]
    return host, secrets


def test_secret_store_the_database_bytes_reveal_no_order_note_pin_or_token(tmp_path: Path) -> None:
    path = tmp_path / "g.dipl"
    host, secrets = _played(path, PASS)
    raw = _on_disk(path)  # while serving: the WAL holds the latest rows
    host.close()
    raw += _on_disk(path)  # and once the WAL is checkpointed into the database
    assert store_path(path).exists() and len(raw) > 10_000
    for secret in secrets:
        if secret == PIN.encode():
            # six digits also turn up by chance inside the store's hex digests and nanosecond times
            # (a run holds ~5,000 decimal digits in long runs and far more hex: it failed so once in
            # CI, 0 of 440 reruns here); the PIN as the save would hold it, a JSON string or number,
            # stands between non-digits
            assert re.search(rb"(?<![0-9A-Fa-f])" + secret + rb"(?![0-9A-Fa-f])", raw) is None, secret
        else:
            assert secret not in raw, secret


def test_secret_store_the_same_game_in_the_clear_does_show_them(tmp_path: Path) -> None:
    """The grep above finds what it looks for: with --no-passphrase the same strings are there."""
    path = tmp_path / "g.dipl"
    host, secrets = _played(path, None)
    host.close()
    raw = _on_disk(path)
    assert secrets[0] in raw and secrets[1] in raw and NOTE.encode() in raw and secrets[6] in raw


def test_secret_store_reopens_whole_with_the_passphrase_only(tmp_path: Path) -> None:
    path = tmp_path / "g.dipl"
    host, _ = _played(path, PASS)
    orders = {p: dict(o) for p, o in host.game.orders.items()}
    token = host.token_of("france")
    host.close()
    with pytest.raises(WrongPassphraseError):
        TableHost.open_live(path, passphrase="not the passphrase at all")
    with pytest.raises(SaveFileError, match="passphrase"):
        TableHost.open_live(path)  # --no-passphrase on a secret game: refused, nothing written
    store = GameStore(store_path(path))
    with pytest.raises(StoreLockedError):
        store.load()
    public, _table = store.load(public_only=True)
    # (issue 31, finding 7: a secret game's order rows are padded to the board's 34 centres)
    assert public.orders == {} and store.order_count() == 34
    store.close()
    again = TableHost.open_live(path, passphrase=PASS)
    assert again.game.orders == orders and again.token_of("france") == token
    assert "france" in again.sealed and again.table["notes"]
    again.close()


def test_secret_store_a_game_played_in_the_clear_is_encrypted_once_given_a_passphrase(tmp_path: Path) -> None:
    path = tmp_path / "g.dipl"
    host, secrets = _played(path, None)
    host.close()
    again = TableHost.open_live(path, passphrase=PASS)
    assert again.game.orders and again.token_of("france").encode() == secrets[6]
    again.close()
    raw = _on_disk(path)
    for secret in (secrets[0], secrets[1], NOTE.encode(), secrets[7]):
        assert secret not in raw, secret  # rewritten encrypted; the clear rows zeroed (secure_delete)


def test_secret_store_a_restart_reads_the_store_not_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from diplomacy_desktop.host.serve import live_game_of
    from diplomacy_desktop.io import saveschema

    path = tmp_path / "g.dipl"
    assert live_game_of(path) is None  # no game yet
    host, _ = _played(path, PASS)
    host.close()
    assert live_game_of(path) is True  # serve knows it is secret without reading the file

    def refuse(*_a: object) -> None:
        raise AssertionError("the saved game was read and checked again")

    monkeypatch.setattr(saveschema, "check_shape", refuse)
    again = TableHost.open_live(path, passphrase=PASS)
    assert again.game.orders_of("germany")
    again.close()
    plain = tmp_path / "plain.dipl"
    TableHost.open_live(plain).close()
    assert live_game_of(plain) is False
    plain.write_bytes(plain.read_bytes() + b" ")  # the file changed since: the store no longer speaks for it
    assert live_game_of(plain) is None
