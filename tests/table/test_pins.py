"""PINs that mean something (issue 20, finding 3): the KDF, the refused PINs, one counter per power."""

from __future__ import annotations

import hashlib
import re
import sys
import threading
from pathlib import Path

import pytest

from diplomacy_desktop.io import pins as io_pins
from diplomacy_desktop.table import pins as pins_mod
from diplomacy_desktop.table.pins import (
    FREE_ATTEMPTS,
    LOCKOUT_SECONDS,
    JoinGuard,
    PinGuard,
    PinWaitError,
    hash_pin,
    needs_upgrade,
    pin_matches,
    pin_problem,
)
from diplomacy_desktop.table.state import TableState


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_pins_new_hashes_are_scrypt_at_the_documented_cost() -> None:
    # the cost README quotes (tests lower SCRYPT_N for speed; the shipped default is checked here)
    stored = hash_pin("5831", cost=(2 ** 17, 8, 1))
    scheme, n, r, p, salt, digest = stored.split("$")
    assert (scheme, int(n), int(r), int(p)) == ("scrypt", 131072, 8, 1)
    assert pin_matches(stored, "5831") and not pin_matches(stored, "5832")
    # the PIN is in the clear nowhere: the salt and the digest are random hex of fixed length (where
    # "5831" may turn up by chance), the rest holds no PIN
    assert re.fullmatch(r"[0-9a-f]{32}", salt) and re.fullmatch(r"[0-9a-f]{64}", digest)
    assert "5831" not in "$".join([scheme, n, r, p])
    assert "SCRYPT_N = 2 ** 17" in Path(io_pins.__file__ or "").read_text(encoding="utf-8")


def test_pins_old_pbkdf2_hashes_still_verify_and_want_an_upgrade() -> None:
    salt = bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", b"4827", salt, 60_000)
    old = f"pbkdf2_sha256$60000${salt.hex()}${digest.hex()}"
    assert pin_matches(old, "4827") and not pin_matches(old, "4828")
    assert needs_upgrade(old)
    assert not needs_upgrade(hash_pin("4827"))


def test_pins_four_to_eight_digits() -> None:
    assert pin_problem("583") is not None
    assert pin_problem("583194726") is not None
    assert pin_problem("58a1") is not None
    assert pin_problem("5831") is None
    assert pin_problem("58316274") is None
    assert pin_matches(hash_pin("58316274"), "58316274")


@pytest.mark.parametrize("pin", ["1234", "0000", "1111", "4321", "9876", "1212", "123123", "1984", "2023",
                                 "2580", "12345678", "0123", "7890", "999999"])
def test_pins_common_pins_are_refused(pin: str) -> None:
    assert pin_problem(pin) is not None, pin


def test_pins_a_player_pin_equal_to_the_host_pin_is_refused() -> None:
    host = hash_pin("7391")
    assert "host PIN" in (pin_problem("7391", host_pin_hash=host) or "")
    assert pin_problem("7392", host_pin_hash=host) is None


def test_pins_a_damaged_or_hostile_hash_matches_nothing() -> None:
    assert not pin_matches("scrypt$1099511627776$8$1$00$00", "5831")  # a TiB of memory asked for
    assert not pin_matches("scrypt$x$8$1$00$00", "5831")
    assert not pin_matches("md5$abc", "5831")


def test_pins_guard_three_free_then_a_growing_wait_kept_in_the_table() -> None:
    table = TableState.from_table({})
    clock = Clock()
    guard = PinGuard(table, clock)
    stored = hash_pin("5831")
    for _ in range(FREE_ATTEMPTS - 1):
        assert not guard.check("france", stored, "0001")
        guard.check_allowed("france")
    assert not guard.check("france", stored, "0002")  # the third: now a wait
    with pytest.raises(PinWaitError) as first:
        guard.check("france", stored, "5831")  # even the right PIN waits
    assert first.value.retry_after == pytest.approx(LOCKOUT_SECONDS)
    # the counter is in the table dict: a second guard (the phones', or after a restart) shares it
    again = PinGuard(table, clock)
    with pytest.raises(PinWaitError):
        again.check_allowed("france")
    clock.now += LOCKOUT_SECONDS + 1
    assert not again.check("france", stored, "0003")
    assert again.wait("france") == pytest.approx(2 * LOCKOUT_SECONDS)
    clock.now += 2 * LOCKOUT_SECONDS + 1
    assert again.check("france", stored, "5831")
    assert guard.failures("france") == 0
    assert "france" not in table["pin_failures"]  # type: ignore[operator]


def test_pins_guard_an_empty_pin_is_not_a_try() -> None:
    guard = PinGuard(TableState(), Clock())
    for _ in range(10):
        assert not guard.check("italy", hash_pin("5831"), "")
    assert guard.failures("italy") == 0


def test_pins_join_guard_is_per_client() -> None:
    clock = Clock()
    guard = JoinGuard(clock)
    for _ in range(FREE_ATTEMPTS):
        guard.failed("10.0.0.9")
    with pytest.raises(PinWaitError):
        guard.check_allowed("10.0.0.9")
    guard.check_allowed("10.0.0.2")  # the real player's phone is not locked out


def _waiting_in(thread: threading.Thread) -> bool:
    """Whether ``thread`` is blocked waiting (for the gate's slot)."""
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:
        if frame.f_code.co_name == "wait":
            return True
        frame = frame.f_back
    return False


def test_hash_gate_serves_a_waiting_power_before_the_one_that_just_had_the_slot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team (issue 31, second pass): the gate was a semaphore, so France's loop, asking again
    the moment its hash ended, took the slot back before England's waiting check woke up (and
    England was refused "busy" after 5 s).  The slot now goes to the key served longest ago."""
    order: list[str] = []
    france_holds, england_waits = threading.Event(), threading.Event()
    release_france = threading.Event()

    def slow_match(stored: str, pin: str) -> bool:
        order.append(stored)
        if stored == "france" and len(order) == 1:
            france_holds.set()
            assert release_france.wait(30)
        return True

    monkeypatch.setattr(pins_mod, "pin_matches", slow_match)
    gate = pins_mod.HashGate()

    def france() -> None:
        gate.matches("france", "x", timeout=30, key="france")
        gate.matches("france", "x", timeout=30, key="france")  # again at once, as a loop does

    def england() -> None:
        gate.matches("england", "x", timeout=30, key="england")

    t_fr = threading.Thread(target=france)
    t_fr.start()
    assert france_holds.wait(30)
    t_en = threading.Thread(target=england)
    t_en.start()
    while not _waiting_in(t_en):  # England is waiting for the slot (a state, not a delay)
        england_waits.wait(0.01)
    release_france.set()
    t_fr.join(30)
    t_en.join(30)
    assert order == ["france", "england", "france"]
