"""PINs that mean something: which PINs a table may choose, and one failure counter per power.

* ``pin_problem`` says why a new PIN is refused: not 4 to 8 digits, a common PIN (one digit
  repeated, a run up or down such as 1234 or 9876, a year 19xx or 20xx, a pair repeated such as
  1212, or one of the PINs people choose most), or the same as the host PIN.
* ``PinGuard`` counts wrong PINs per *power* (and ``HOST`` for the host PIN), in the table dict
  (``table.pin_failures``), so the curtain, the draw vote, the host prompt and the phones share
  one counter and it survives a restart.  Three wrong PINs are free; after that each try waits,
  doubling from ``LOCKOUT_SECONDS``.  A correct PIN clears the counter.
* ``JoinGuard`` is the phones' separate counter for joining by PIN: per client (its address),
  never per power, so that a stranger's wrong guesses never lock out the real player.

Hashing is ``io.pins`` (scrypt; older saves' PBKDF2 hashes still verify).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise

from ..io.pins import (MAX_PIN_DIGITS, MIN_PIN_DIGITS, hash_pin, is_pin_hash, is_valid_pin, needs_upgrade,
                       pin_matches)
from .parts import PinFailure, PinFailuresPart
from .state import TableState

__all__ = ["HASH_GATE", "HOST", "BusyError", "HashGate", "JoinGuard", "JoinRate", "PinGuard", "PinWaitError", "hash_pin", "is_pin_hash", "is_valid_pin",
           "needs_upgrade", "pin_matches", "pin_problem"]

#: the failure counter's key for the host PIN
HOST = "host"
#: wrong PINs allowed in a row before the waits begin
FREE_ATTEMPTS = 3
#: the first wait; each further wrong PIN doubles it, up to MAX_WAIT_SECONDS
LOCKOUT_SECONDS = 30.0
MAX_WAIT_SECONDS = 6 * 3600.0
TABLE_KEY = "pin_failures"  # (``TableState.pin_failures``)

#: the PINs people choose most (published counts of leaked 4-digit PINs), beside the patterns
_COMMON = frozenset({
    "1234", "1111", "0000", "1212", "7777", "1004", "2000", "4444", "2222", "6969", "9999", "3333", "5555",
    "6666", "1122", "1313", "8888", "4321", "2001", "1010", "0852", "2580", "1379", "1397", "9876", "1478",
    "123456", "654321", "121212", "112233", "123123", "696969", "159753", "147258", "000000", "111111",
    "12345678", "87654321", "11223344", "12341234",
})


def _is_run(pin: str) -> bool:
    steps = {(int(b) - int(a)) % 10 for a, b in pairwise(pin)}
    return steps in ({1}, {9})


def _repeats_a_block(pin: str) -> bool:
    for size in (1, 2, 3, 4):
        if len(pin) % size == 0 and len(pin) > size and pin == pin[:size] * (len(pin) // size):
            return True
    return False


def pin_problem(pin: str, *, host_pin_hash: str | None = None, what: str = "A PIN") -> str | None:
    """Why ``pin`` may not be chosen (a sentence), or None when it may."""
    if not is_valid_pin(pin):
        return f"{what} is {MIN_PIN_DIGITS} to {MAX_PIN_DIGITS} digits"
    if _repeats_a_block(pin):
        return f"{what} may not repeat the same digits ({pin[:2]}…): it is among the first guessed"
    if _is_run(pin):
        return f"{what} may not be a run of digits such as 1234 or 9876: it is among the first guessed"
    if len(pin) == 4 and pin[:2] in ("19", "20"):
        return f"{what} may not be a year (19xx, 20xx): it is among the first guessed"
    if pin in _COMMON:
        return f"{what} may not be one of the most common PINs: choose another"
    if host_pin_hash and pin_matches(host_pin_hash, pin):
        return f"{what} may not be the same as the host PIN"
    return None


class PinWaitError(ValueError):
    """Too many wrong PINs: ``retry_after`` seconds to wait before the next try."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _wait_after(failures: int) -> float:
    if failures < FREE_ATTEMPTS:
        return 0.0
    return float(min(MAX_WAIT_SECONDS, LOCKOUT_SECONDS * 2 ** (failures - FREE_ATTEMPTS)))


def wait_text(seconds: float) -> str:
    s = int(seconds) + 1
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60 + 1} min"
    return f"{s // 3600 + 1} h"


class PinGuard:
    """Wrong PINs per power, kept in ``table.pin_failures`` as ``{power: {"count", "until"}}``
    (``until``: the wall-clock time before which no try is taken).  ``clock`` is the wall clock
    (the counter is saved with the game and must mean the same after a restart)."""

    def __init__(self, table: TableState, clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.clock = clock

    def _records(self) -> PinFailuresPart:
        return self.table.pin_failures_part()

    def failures(self, who: str) -> int:
        record = self._records().record(who)
        count = record.count if record is not None else 0
        return count if count is not None and count > 0 else 0

    def wait(self, who: str) -> float:
        record = self._records().record(who)
        until = record.until if record is not None else 0
        if until is None:
            return 0.0
        return max(0.0, float(until) - self.clock())

    def check_allowed(self, who: str, name: str = "") -> None:
        """PinWaitError while ``who`` must wait (no PIN is even looked at meanwhile)."""
        wait = self.wait(who)
        if wait > 0:
            label = f" for {name}" if name else ""
            raise PinWaitError(f"too many wrong PINs{label}: try again in {wait_text(wait)}", wait)

    def failed(self, who: str) -> float:
        """One more wrong PIN; returns the wait it now costs."""
        n = self.failures(who) + 1
        wait = _wait_after(n)
        self._records().put_record(who, PinFailure(count=n, until=round(self.clock() + wait, 3) if wait > 0 else 0))
        return wait

    def succeeded(self, who: str) -> None:
        self._records().drop(who)

    def check(self, who: str, stored: str, pin: str | None, name: str = "", *, matched: bool | None = None) -> bool:
        """The whole door: refuse while waiting (PinWaitError), then compare; a wrong PIN counts,
        a right one clears.  An empty PIN is not a try (not counted, False).  ``matched``: the
        caller compared ``pin`` with ``stored`` already (outside a lock, through ``HASH_GATE``)."""
        self.check_allowed(who, name)
        if not pin:
            return False
        if matched if matched is not None else pin_matches(stored, pin):
            self.succeeded(who)
            return True
        self.failed(who)
        return False


class JoinGuard:
    """The phones' join counter, per client (not saved: a restart forgets strangers)."""

    MAX_CLIENTS = 4096

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._records: dict[str, dict[str, float]] = {}
        #: clients whose PIN is being checked now: one at a time each (the checks run outside the
        #: table's lock, so a device sending many at once would otherwise pass the count together)
        self._checking: set[str] = set()

    def begin(self, client: str) -> None:
        """A join from ``client`` starts: PinWaitError while it must wait or has one running."""
        self.check_allowed(client)
        if client in self._checking:
            raise PinWaitError("one PIN at a time from this device: try again in a second", 1.0)
        self._checking.add(client)

    def end(self, client: str) -> None:
        self._checking.discard(client)

    def check_allowed(self, client: str) -> None:
        record = self._records.get(client)
        if record is None:
            return
        wait = record["until"] - self.clock()
        if wait > 0:
            raise PinWaitError(f"too many wrong PINs from this device: try again in {wait_text(wait)}", wait)

    def failed(self, client: str) -> None:
        if len(self._records) >= self.MAX_CLIENTS and client not in self._records:
            oldest = min(self._records, key=lambda k: self._records[k]["until"])
            self._records.pop(oldest)
        n = int(self._records.get(client, {}).get("count", 0)) + 1
        self._records[client] = {"count": n, "until": self.clock() + _wait_after(n)}

    def succeeded(self, client: str) -> None:
        self._records.pop(client, None)


#: slow hashes (a PIN's scrypt, 128 MiB and about half a second each) running at once in this
#: process, whoever asked: one, so that a laptop's other core always serves the phones
HASHES_IN_FLIGHT = 1
#: joins by PIN the whole table takes in a minute (beside each device's own counter): a device
#: with many addresses guesses no faster than this
JOINS_PER_MINUTE = 12
#: joins taken at once before the per-minute pace applies (a table's phones joining together)
JOIN_BURST = 10


class BusyError(PinWaitError):
    """Too many PIN checks at once (the whole table's budget): try again shortly."""


class HashGate:
    """The one budget of slow hashes for the whole process: at most ``in_flight`` at once.  A
    check that finds every slot taken for ``timeout`` seconds is refused (BusyError), so a
    flood of guesses never queues up threads; it never runs under the table's lock (callers
    take the stored hash under the lock, check outside it, and record the result under it).

    The slot is handed out fairly (issue 31, red team): each check names whose it is (``key``: a
    power, or every join together), and a free slot goes to the waiting check whose key was
    served longest ago, then to the one that came first; a new check never takes the slot
    while another waits for it.  A plain semaphore gave the slot to whichever thread asked
    first after each hash, so a phone looping seal/unseal with its own PIN asked again at once
    and could keep the slot while another power's check waited (after 5 s: refused, busy)."""

    def __init__(self, in_flight: int = HASHES_IN_FLIGHT) -> None:
        import threading

        self._cond = threading.Condition()
        self._free = in_flight
        #: (when the key was last served, arrival, key) of each check waiting for a slot
        self._waiting: list[tuple[int, int, str]] = []
        #: key -> the number of the last check it was given (0: never)
        self._served: dict[str, int] = {}
        self._count = 0

    def matches(self, stored: str, pin: str, timeout: float = 5.0, key: str = "") -> bool:
        self._take(key, timeout)
        try:
            return pin_matches(stored, pin)
        finally:
            with self._cond:
                self._free += 1
                self._cond.notify_all()

    def _take(self, key: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            self._count += 1
            me = (self._served.get(key, 0), self._count, key)
            self._waiting.append(me)
            try:
                while self._free <= 0 or min(self._waiting) != me:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise BusyError("the table is busy checking PINs: try again in a few seconds", 5.0)
                    self._cond.wait(left)
            finally:
                self._waiting.remove(me)
                self._cond.notify_all()  # the next in line may now be first
            self._free -= 1
            self._served[key] = self._count


#: the process's one gate (the laptop's curtain, the host's prompts and the phones share it)
HASH_GATE = HashGate()


class JoinRate:
    """The whole table's pace of joins by PIN: a bucket of ``burst`` joins that refills at
    ``per_minute`` (not saved: a restart starts full)."""

    def __init__(self, per_minute: int = JOINS_PER_MINUTE, burst: int = JOIN_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self._level = float(burst)
        self._at = clock()

    def take(self) -> None:
        """One join attempt, or BusyError with the seconds until the next one is possible."""
        now = self.clock()
        self._level = min(self.burst, self._level + (now - self._at) * self.per_second)
        self._at = now
        if self._level < 1.0:
            wait = (1.0 - self._level) / self.per_second
            raise BusyError(f"too many attempts to join this table just now: try again in {wait_text(wait)}", wait)
        self._level -= 1.0
