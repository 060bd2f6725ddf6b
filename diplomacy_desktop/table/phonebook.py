"""The phones' part of the table (``table.phones``): each power's link, the devices that joined
by PIN, who the host cut off, how many phones joined a power, and the clock the phones showed.

Read here; changed only by the table service's operations (``TableService.kick_phones``,
``kick_device``, ``join_device``, ``phone_joined``, ``keep_phone_clock``), which the phone host
calls: the host never writes this part itself (``tests/test_doors.py``).  Plain Python.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

#: the table's key of this part
PHONES_KEY = "phones"
#: each power's link: ``{power: token}``
TOKENS_KEY = "tokens"
#: the phones' devices that joined by PIN, each with a token of its own (issue 31): kept as
#: ``{device: {"power": power, "hash": sha256 of the token}}``; only the hash is stored (a token is
#: 144 random bits: no slow hash is needed), so a device's token is never written anywhere in the
#: clear, and it survives a restart of the host
DEVICES_KEY = "devices"
#: the last device number given (a cut-off device's name is never given again)
DEVICE_SEQ_KEY = "device_seq"
#: the PIN hash each power had when the host cut its phones off: that PIN no longer joins
KICKED_KEY = "kicked"
#: how many phones joined each power (a link carried away is noticed)
JOINS_KEY = "joins"
#: the clock the phones showed when the host last wrote it (``serve`` shows it again after a restart)
CLOCK_KEY = "clock"
#: devices one power may have joined at once (the host kicks one to make room)
MAX_DEVICES_PER_POWER = 16


def new_tokens(powers: Iterable[str]) -> dict[str, str]:
    return {p: secrets.token_urlsafe(18) for p in powers}


def token_digest(token: str) -> str:
    """What the host keeps of a device's token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def tokens(phones: Mapping[str, Any]) -> dict[str, str]:
    """Each power's link token (empty when the part has none yet)."""
    known = phones.get(TOKENS_KEY)
    return {str(p): str(t) for p, t in known.items()} if isinstance(known, dict) else {}


def devices(phones: Mapping[str, Any], powers: Iterable[str]) -> dict[str, dict[str, str]]:
    """The devices that joined by PIN and are not cut off, in the order they joined; a damaged
    entry (or one of a power not in ``powers``) is no device."""
    known = phones.get(DEVICES_KEY)
    if not isinstance(known, dict):
        return {}
    board = set(powers)
    return {str(d): e for d, e in known.items() if isinstance(e, dict) and isinstance(e.get("hash"), str)
            and e.get("power") in board}


def joins(phones: Mapping[str, Any], power: str) -> int:
    """How many phones joined ``power`` (0 for a damaged count)."""
    counted = phones.get(JOINS_KEY)
    value = counted.get(power, 0) if isinstance(counted, dict) else 0
    return value if isinstance(value, int) and value > 0 else 0


def cut_off_with(phones: Mapping[str, Any], power: str) -> str | None:
    """The PIN hash ``power`` had when the host cut its phones off (that PIN no longer joins)."""
    kicked = phones.get(KICKED_KEY)
    stored = kicked.get(power) if isinstance(kicked, dict) else None
    return stored if isinstance(stored, str) else None


def saved_clock(phones: Mapping[str, Any]) -> dict[str, Any] | None:
    clock = phones.get(CLOCK_KEY)
    return clock if isinstance(clock, dict) else None


# -- the changes (the table service calls these) ------------------------------------------------------

def _part(phones: MutableMapping[str, Any], key: str) -> dict[str, Any]:
    part = phones.get(key)
    if not isinstance(part, dict):
        part = phones[key] = {}
    return part


def ensure_links(phones: MutableMapping[str, Any], powers: Iterable[str]) -> bool:
    """Every power of the board has a link (new ones for all when they do not match the board).
    True if they were made."""
    board = list(powers)
    if set(tokens(phones)) == set(board):
        return False
    phones[TOKENS_KEY] = new_tokens(board)
    return True


def cut_off(phones: MutableMapping[str, Any], powers: Iterable[str], pin_hashes: Mapping[str, str | None]) -> None:
    """The host cuts off the phones of ``powers`` (one player's): new links, every device of
    theirs gone, and the PIN each had no longer joins."""
    affected = set(powers)
    _part(phones, TOKENS_KEY).update(new_tokens(affected))
    known = phones.get(DEVICES_KEY)
    if isinstance(known, dict):
        for device, entry in list(known.items()):
            if not isinstance(entry, dict) or entry.get("power") in affected:
                known.pop(device)
    for p in affected:
        stored = pin_hashes.get(p)
        if stored:
            _part(phones, KICKED_KEY)[p] = stored


def cut_off_device(phones: MutableMapping[str, Any], device: str, pin_hash: str | None) -> None:
    entry = _part(phones, DEVICES_KEY).pop(device)
    if pin_hash and isinstance(entry, dict):
        _part(phones, KICKED_KEY)[str(entry.get("power"))] = pin_hash


def add_device(phones: MutableMapping[str, Any], power: str) -> tuple[str, str]:
    """A device joins ``power`` by PIN: (its name, its token); the token's hash is kept."""
    seq = phones.get(DEVICE_SEQ_KEY)
    seq = (seq if isinstance(seq, int) and seq > 0 else 0) + 1
    phones[DEVICE_SEQ_KEY] = seq
    device = f"{power[:3]}{seq}"
    token = secrets.token_urlsafe(18)
    _part(phones, DEVICES_KEY)[device] = {"power": power, "hash": token_digest(token)}
    return device, token


def count_join(phones: MutableMapping[str, Any], power: str) -> None:
    _part(phones, JOINS_KEY)[power] = joins(phones, power) + 1


def keep_clock(phones: MutableMapping[str, Any], clock: Mapping[str, Any] | None) -> None:
    if clock is None:
        phones.pop(CLOCK_KEY, None)
    else:
        phones[CLOCK_KEY] = dict(clock)
