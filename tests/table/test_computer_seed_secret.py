"""The computer's seed is as secret as the orders it makes (issue 33, found playing a table of
five under Xvfb): the computer's orders are ``Bot(level, seed).orders(public position)``, so
whoever reads the seed reads the computer's orders before the reveal.  A secret game's file and
autosave therefore hold the seed only encrypted, and a seat handed to the computer by ``serve``
(no New Game dialog to draw a seed) gets a drawn seed, never the well-known 0."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from shared_positions import BOARD

from diplomacy_desktop.bots import Bot
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.io import vault as vault_module
from diplomacy_desktop.io.savefile import dumps, open_text
from diplomacy_desktop.io.vault import Vault
from diplomacy_desktop.table.autosave import Autosave
from diplomacy_desktop.table.computer import COMPUTER_KEY, COMPUTER_SEED_KEY, computer_seed
from diplomacy_desktop.table.service import TableService
from diplomacy_desktop.table.state import TableState

PASS = "correct horse battery"
SEED = 1623762129


@pytest.fixture(autouse=True)
def _cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_module, "KDF_N", 2 ** 10)  # the key derivation's cost is not under test


def _table() -> dict[str, object]:
    return {"secrecy": True, COMPUTER_KEY: {"france": "club", "turkey": "strong"}, COMPUTER_SEED_KEY: SEED}


def test_computer_seed_a_secret_file_holds_it_only_encrypted() -> None:
    game = Game.new(BOARD)
    text = dumps(game, _table(), vault=Vault.create(PASS))
    assert str(SEED) not in text and COMPUTER_SEED_KEY not in text
    assert json.loads(text)["table"][COMPUTER_KEY] == {"france": "club", "turkey": "strong"}  # who: public
    opened = open_text(text, passphrase=PASS)
    assert computer_seed(TableState.from_table(opened.table)) == SEED  # and the table that opens it plays on the same
    assert computer_seed(TableState.from_table(open_text(text).table)) == 0  # without the passphrase: not there


def test_computer_seed_the_autosave_of_a_secret_game_holds_it_only_encrypted(tmp_path: Path) -> None:
    game = Game.new(BOARD)
    autosave = Autosave(tmp_path)
    path = autosave.write(game, _table(), vault=Vault.create(PASS))
    autosave.close()
    rows = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        text = " ".join(str(v) for t in ("meta", "current", "orders", "phases")
                        for row in rows.execute(f"SELECT * FROM {t}") for v in row)
    finally:
        rows.close()
    assert "computer_seats" in text  # the table is there, the seed is not
    assert str(SEED) not in text and COMPUTER_SEED_KEY not in text
    assert computer_seed(TableState.from_table(Autosave(tmp_path).open(passphrase=PASS).table)) == SEED


def test_computer_seed_a_seat_handed_over_by_the_host_is_not_played_with_a_known_seed() -> None:
    """``serve --computer`` hands seats over through the service: with seed 0 anyone could run
    ``Bot(level, 0)`` on the public position and read the computer's orders."""
    seeds = set()
    for _ in range(3):
        service = TableService(Game.new(BOARD), {})
        service.set_computer_seat("france", "club")
        seed = computer_seed(service.table)
        assert seed > 0
        seeds.add(seed)
        service.set_computer_seat("turkey", "club")
        assert computer_seed(service.table) == seed  # one seed a table, kept
        service.write_computer_orders()
        assert sorted(service.game.orders_of("france"), key=str) == \
            sorted(Bot("club", seed).orders(service.game.state, "france"), key=str)
    assert len(seeds) > 1  # drawn, not fixed


def test_computer_seat_no_phone_link_reads_or_writes_the_computers_orders(tmp_path: Path) -> None:
    """Found with phones under Xvfb: the Phones dialog showed France's (the computer's) code, and
    that link's phone page listed the orders the computer had sealed, before the reveal (and
    could unseal and change them).  A computer seat's link opens nothing while the computer
    plays it, also a link its player had before the host handed the seat over; handed back,
    the person's link works again."""
    from diplomacy_desktop.host.serve import _computer_seats
    from diplomacy_desktop.host.table import TableHost, UnknownTokenError

    host = TableHost(Game.new(BOARD), {}, tmp_path / "game.dipl")
    france = host.token_of("france")
    assert host.powers_of(france) == ("france",)  # a person's seat: its link works
    assert _computer_seats(host, ["france=club"]) is None
    assert host.game.orders_of("france") and "france" in host.service.session.sealed
    for call in (lambda: host.state_for(france), lambda: host.options_for(france), lambda: host.powers_of(france),
                 lambda: host.unseal(france, "france", "S1901M"),
                 lambda: host.set_order_text(france, "france", "S1901M", "A Par H")):
        with pytest.raises(UnknownTokenError, match="played by the computer"):
            call()
    assert "france" in host.service.session.sealed  # nothing was unsealed
    host.service.set_computer_seat("france", None)  # back to a person
    assert host.powers_of(france) == ("france",)
