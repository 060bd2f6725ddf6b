"""Nothing readable at rest (issue 20, findings 5 and 13): the unrevealed part is written encrypted."""

from __future__ import annotations

import json

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import TamperedFileError, WrongPassphraseError, dumps, loads, open_text
from diplomacy_desktop.io.vault import Vault, VaultError, passphrase_problem

PASS = "correct horse battery"


def _game() -> tuple[Game, dict[str, object]]:
    game = Game.new(load_board("standard"))
    game.set_order(Move("france", "A", "par", "bur"))
    table = {"secrecy": True, "notes": [{"id": 1, "phase": "S1901M", "from": "france", "to": ["italy"],
                                          "text": "meet me in Piedmont"}],
             "phones": {"tokens": {"france": "TOKENfranceSECRET"}, "phase": "S1901M", "sealed": ["france"]},
             "declarations": {"france": {"italy": "alliance"}}}
    return game, table


def test_vault_the_file_holds_no_order_note_or_token_text() -> None:
    game, table = _game()
    vault = Vault.create(PASS)
    text = dumps(game, table, vault=vault)
    for secret in ("bur", "Piedmont", "TOKENfranceSECRET", "alliance", PASS):
        assert secret not in text, secret
    data = json.loads(text)
    assert data["current"]["orders"] == []
    assert data["table"]["phones"]["sealed"] == ["france"]  # who sealed is public, never what


def test_vault_restores_everything_with_the_passphrase() -> None:
    game, table = _game()
    text = dumps(game, table, vault=Vault.create(PASS))
    opened = open_text(text, passphrase=PASS)
    assert not opened.locked and opened.vault is not None
    assert [str(o) for o in opened.game.orders_of("france")] == ["A par - bur"]
    assert opened.table["notes"][0]["text"] == "meet me in Piedmont"
    assert opened.table["phones"]["tokens"] == {"france": "TOKENfranceSECRET"}
    assert opened.table["declarations"] == {"france": {"italy": "alliance"}}
    # and it is written again under the same key (no passphrase asked twice)
    again = open_text(dumps(opened.game, opened.table, vault=opened.vault), vault=opened.vault)
    assert [str(o) for o in again.game.orders_of("france")] == ["A par - bur"]


def test_vault_without_the_passphrase_only_the_public_board() -> None:
    game, table = _game()
    text = dumps(game, table, vault=Vault.create(PASS))
    opened = open_text(text)
    assert opened.locked and opened.vault is None
    assert opened.game.orders_of("france") == []
    assert "notes" not in opened.table
    assert len(opened.game.state.units) == 22
    game2, _ = loads(text)  # render and convert use this: no secret
    assert game2.orders_of("france") == []


def test_vault_a_wrong_passphrase_is_refused() -> None:
    game, table = _game()
    text = dumps(game, table, vault=Vault.create(PASS))
    with pytest.raises(WrongPassphraseError, match="passphrase"):
        open_text(text, passphrase="not the passphrase")
    with pytest.raises(VaultError):
        Vault.open(json.loads(text)["table"]["vault"], "another one!")


def test_vault_passphrases_of_at_least_eight_characters() -> None:
    assert passphrase_problem("short") is not None
    assert passphrase_problem("aaaaaaaaaa") is not None
    assert passphrase_problem("table night 7") is None
    with pytest.raises(VaultError):
        Vault.create("1234567")


def test_vault_a_box_from_another_phase_does_not_open_in_this_one() -> None:
    game, table = _game()
    vault = Vault.create(PASS)
    data = json.loads(dumps(game, table, vault=vault))
    data["table"]["secrets"]["phase"] = "F1901M"
    # the file is authenticated (issue 31): a box moved to another phase is an edit, refused
    with pytest.raises(TamperedFileError, match="changed outside the app"):
        open_text(json.dumps(data), vault=vault)


def test_vault_records_for_a_store_that_writes_in_pieces() -> None:
    vault = Vault.create(PASS)
    row = vault.seal_record({"power": "france", "kind": "move", "destination": "bur"}, "S1901M/france/par")
    assert "bur" not in row and "france" not in row
    assert vault.open_record(row, "S1901M/france/par")["destination"] == "bur"
    with pytest.raises(VaultError):
        vault.open_record(row, "S1901M/germany/mun")  # a row moved under another key
    with pytest.raises(VaultError):
        Vault.create(PASS).open_record(row, "S1901M/france/par")  # another game's key
