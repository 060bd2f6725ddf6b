"""Issue 20 at the table model: kick blocks the PIN, a PIN change lets the phone back, old hashes
are renewed, seal codes, and the public view tells no private activity."""

from __future__ import annotations

import hashlib

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.table import HostError, PinError, RefusedError, TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.pins import hash_pin, pin_matches


def host_with_pins(**table: object) -> TableHost:
    return TableHost(Game.new(load_board("standard")), {"pins": {"france": hash_pin("5831")}, **table}, None)


def test_host_pins_kick_blocks_the_pin_until_it_is_changed() -> None:
    host = host_with_pins()
    old = host.join("france", "5831", "10.0.0.5")
    host.kick("france")
    assert host.token_of("france") != old
    with pytest.raises(RefusedError, match="new PIN"):
        host.join("france", "5831", "10.0.0.5")  # the phone that was cut off cannot come back
    with pytest.raises(HostError, match="run of digits"):
        host.set_pin("france", "1234")  # a common PIN is refused
    host.set_pin("france", "7206")
    token = host.join("france", "7206", "10.0.0.6")  # a token of the device's own (issue 31)
    assert token != host.token_of("france") and host.powers_of(token) == ("france",)


def test_host_pins_a_player_pin_equal_to_the_host_pin_is_refused() -> None:
    host = host_with_pins(host_pin=hash_pin("7391"))
    with pytest.raises(HostError, match="host PIN"):
        host.set_pin("france", "7391")


def test_host_pins_an_old_hash_verifies_and_is_renewed() -> None:
    salt = bytes(16)
    old = f"pbkdf2_sha256$60000${salt.hex()}${hashlib.pbkdf2_hmac('sha256', b'4827', salt, 60_000).hex()}"
    host = TableHost(Game.new(load_board("standard")), {"hotseat": {"pins": {"turkey": old}}}, None)
    token = host.token_of("turkey")
    host.seal(token, "turkey", "S1901M", "4827")
    renewed = host.table["hotseat"]["pins"]["turkey"]
    assert renewed.startswith("scrypt$") and pin_matches(renewed, "4827")


def test_host_pins_wrong_pins_are_counted_in_the_table_dict() -> None:
    host = host_with_pins()
    token = host.token_of("france")
    for _ in range(2):
        with pytest.raises(PinError):
            host.seal(token, "france", "S1901M", "0001")
    assert host.table["pin_failures"]["france"]["count"] == 2  # saved with the game
    host.seal(token, "france", "S1901M", "5831")
    assert "france" not in host.table["pin_failures"]


def test_host_pins_seal_codes_change_with_the_orders_and_are_revealed() -> None:
    host = host_with_pins()
    t = {p: host.token_of(p) for p in host.game.board.power_ids}
    host.set_order_text(t["germany"], "germany", "S1901M", "A Mun - Ruh")
    first = host.seal(t["germany"], "germany", "S1901M")["seal_code"]
    assert host.state_for(t["germany"])["mine"]["germany"]["seal_code"] == first
    assert host.state_for(t["italy"])["mine"]["italy"]["seal_code"] is None  # nobody else's code
    host.unseal(t["germany"], "germany", "S1901M")
    host.set_order_text(t["germany"], "germany", "S1901M", "A Mun - Bur")
    second = host.seal(t["germany"], "germany", "S1901M")["seal_code"]
    assert second != first and len(second.split()) == 3
    assert host.public_state()["seal_codes"] is None  # nothing revealed yet
    for p in host.owing():
        if p not in host.sealed:
            host.seal(t[p], p, "S1901M", "5831" if p == "france" else None)
    codes = host.public_state()["seal_codes"]
    assert codes["phase"] == "S1901M" and codes["codes"]["germany"] == second
    assert set(codes["codes"]) == set(host.game.board.power_ids)


def test_host_pins_a_join_is_told_to_the_powers_phone() -> None:
    host = host_with_pins()
    assert host.state_for(host.token_of("france"))["mine"]["france"]["phones_joined"] == 0
    host.join("france", "5831", "10.0.0.7")
    assert host.state_for(host.token_of("france"))["mine"]["france"]["phones_joined"] == 1


def test_host_pins_a_phone_is_not_warned_of_its_own_join() -> None:
    """The five-phone year (issue 34): every phone that joined by PIN read "1 phone(s) joined France
    with its PIN this game: if that was not you, tell the host" all year, its own join.  A device
    is told of the joins besides its own; the link's phone of every join."""
    host = host_with_pins()
    mine = host.join("france", "5831", "10.0.0.7")
    assert host.state_for(mine)["mine"]["france"]["phones_joined"] == 0
    other = host.join("france", "5831", "10.0.0.9")
    assert host.state_for(mine)["mine"]["france"]["phones_joined"] == 1
    assert host.state_for(other)["mine"]["france"]["phones_joined"] == 1
    assert host.state_for(host.token_of("france"))["mine"]["france"]["phones_joined"] == 2


def test_host_pins_a_second_device_on_a_link_is_told() -> None:
    host = host_with_pins()
    token = host.token_of("italy")
    host.phone_seen(token, "10.0.0.8")  # the player's own phone: nothing to tell
    assert host.state_for(token)["mine"]["italy"]["phones_joined"] == 0
    host.phone_seen(token, "10.0.0.8")
    heard = []
    host.add_listener(heard.append)
    host.phone_seen(token, "10.0.0.66")  # another device opened Italy's link
    assert host.state_for(token)["mine"]["italy"]["phones_joined"] == 1
    assert heard and heard[-1].kind == "joined" and heard[-1].powers == frozenset({"italy"})
