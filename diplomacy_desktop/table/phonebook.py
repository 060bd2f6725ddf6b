"""The phones' part of the table (``table.phones``): each power's link, the devices that joined
by PIN, who the host cut off, how many phones joined a power, and the clock the phones showed.

Read here; changed only by the table service's operations (``TableService.kick_phones``,
``kick_device``, ``join_device``, ``phone_joined``, ``keep_phone_clock``), which the phone host
calls: the host never writes this part itself (``tests/test_doors.py``).  Plain Python.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping

from .parts import (DevicePart, DevicesPart, JoinsPart, KickedPart, PhoneClockPart, PhoneDevice, PhonesPart,
                    PhoneTokensPart, made, text_entries)

# the part's keys, and what each holds: ``table.parts.PhonesPart`` (``tokens``, ``devices``: only a
# device token's hash is stored (a token is 144 random bits: no slow hash is needed), so a device's
# token is never written anywhere in the clear, and it survives a restart of the host;
# ``device_seq``: a cut-off device's name is never given again; ``kicked``, ``joins``, ``clock``)

#: devices one power may have joined at once (the host kicks one to make room)
MAX_DEVICES_PER_POWER = 16


def new_tokens(powers: Iterable[str]) -> dict[str, str]:
    return {p: secrets.token_urlsafe(18) for p in powers}


def token_digest(token: str) -> str:
    """What the host keeps of a device's token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def tokens(phones: PhonesPart) -> dict[str, str]:
    """Each power's link token (empty when the part has none yet; a token that is not text is none)."""
    return text_entries(phones.tokens)


def devices(phones: PhonesPart, powers: Iterable[str]) -> dict[str, PhoneDevice]:
    """The devices that joined by PIN and are not cut off, in the order they joined; a damaged
    entry (or one of a power not in ``powers``) is no device."""
    if phones.devices is None:
        return {}
    board = set(powers)
    return {d: PhoneDevice(device_record.power, device_record.hash)
            for d, device_record in phones.devices.records().items()
            if device_record.hash is not None and device_record.power is not None and device_record.power in board}


def joins(phones: PhonesPart, power: str) -> int:
    """How many phones joined ``power`` (0 for a damaged count)."""
    value = phones.joins.of(power) if phones.joins is not None else None
    return value if value is not None and value > 0 else 0


def cut_off_with(phones: PhonesPart, power: str) -> str | None:
    """The PIN hash ``power`` had when the host cut its phones off (that PIN no longer joins)."""
    return phones.kicked.of(power) if phones.kicked is not None else None


def saved_clock(phones: PhonesPart) -> PhoneClockPart | None:
    return phones.clock


# -- the changes (the table service calls these) ------------------------------------------------------

def _kicked_part(phones: PhonesPart) -> KickedPart:
    return made(phones, "kicked", KickedPart)


def _devices_part(phones: PhonesPart) -> DevicesPart:
    return made(phones, "devices", DevicesPart)


def ensure_links(phones: PhonesPart, powers: Iterable[str]) -> bool:
    """Every power of the board has a link (new ones for all when they do not match the board).
    True if they were made."""
    board = list(powers)
    if set(tokens(phones)) == set(board):
        return False
    phones.tokens = PhoneTokensPart.of_entries(new_tokens(board))
    return True


def cut_off(phones: PhonesPart, powers: Iterable[str], pin_hashes: Mapping[str, str | None]) -> None:
    """The host cuts off the phones of ``powers`` (one player's): new links, every device of
    theirs gone, and the PIN each had no longer joins."""
    affected = set(powers)
    tokens = made(phones, "tokens", PhoneTokensPart)
    for power, token in new_tokens(affected).items():
        tokens.put(power, token)
    device_map = phones.devices
    if device_map is not None:
        for device in list(device_map.to_dict()):
            device_record = device_map.record(device)
            if device_record is None or device_record.power in affected:
                device_map.drop(device)
    for p in affected:
        stored = pin_hashes.get(p)
        if stored:
            _kicked_part(phones).put(p, stored)


def cut_off_device(phones: PhonesPart, device: str, pin_hash: str | None) -> None:
    device_map = _devices_part(phones)
    if not device_map.holds(device):
        raise KeyError(device)
    device_record = device_map.record(device)
    device_map.drop(device)
    if pin_hash and device_record is not None:
        _kicked_part(phones).put(str(device_record.power), pin_hash)


def add_device(phones: PhonesPart, power: str) -> tuple[str, str]:
    """A device joins ``power`` by PIN: (its name, its token); the token's hash is kept."""
    seq = phones.device_seq
    seq = (seq if seq is not None and seq > 0 else 0) + 1
    phones.device_seq = seq
    device = f"{power[:3]}{seq}"
    token = secrets.token_urlsafe(18)
    _devices_part(phones).put_record(device, DevicePart(power=power, hash=token_digest(token)))
    return device, token


def count_join(phones: PhonesPart, power: str) -> None:
    count = joins(phones, power) + 1
    made(phones, "joins", JoinsPart).put(power, count)


def keep_clock(phones: PhonesPart, clock: PhoneClockPart | None) -> None:
    """The clock the phones show, written whole (``None``: no clock)."""
    if clock is None:
        phones.drop("clock")
    else:
        phones.clock = clock
