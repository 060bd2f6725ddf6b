"""PINs as a saved game stores them: a slow, salted hash, never the PIN.

New hashes are ``scrypt$N$r$p$salt$hash`` (``hashlib.scrypt``, standard library): memory-hard,
so that a PIN is not found in minutes from a copied save.  With the default cost (N = 2**17,
r = 8: 128 MiB and about half a second per guess on one core; ``bench/pin_kdf.py`` measures it)
trying every 4-digit PIN costs over an hour of one core, every 6-digit PIN about a core-week
(docs/reference/threat-model.md).  Hashes written by earlier versions (``pbkdf2_sha256$...``) still
verify; ``needs_upgrade`` says when a hash should be written anew (after a correct PIN).

Qt-free so that the hot seat, the table model and the phone host check a PIN the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re

_PIN_RE = re.compile(r"[0-9]{4,8}")
MIN_PIN_DIGITS = 4
MAX_PIN_DIGITS = 8
#: the old scheme's cost (still read)
PIN_ITERATIONS = 60_000
#: scrypt's cost for new hashes: N, r, p (128 MiB of memory per guess)
SCRYPT_N = 2 ** 17
SCRYPT_R = 8
SCRYPT_P = 1
_MAX_N = 2 ** 20  # a hash asking for more than this is refused (a hostile file could ask for TiBs)


class PinFormatError(ValueError):
    """A PIN that is not 4 to 8 digits."""


def is_valid_pin(pin: str) -> bool:
    return isinstance(pin, str) and bool(_PIN_RE.fullmatch(pin))


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("ascii", "replace"), salt=salt, n=n, r=r, p=p,
                          maxmem=130 * n * r * p + 2 ** 20, dklen=32)


def hash_pin(pin: str, *, salt: bytes | None = None, cost: tuple[int, int, int] | None = None) -> str:
    """``scrypt$N$r$p$salt$hash``: what is stored instead of the PIN.  ``cost`` (N, r, p)
    defaults to the module's ``SCRYPT_N``, ``SCRYPT_R``, ``SCRYPT_P`` as they are when called."""
    if not is_valid_pin(pin):
        raise PinFormatError(f"a PIN is {MIN_PIN_DIGITS} to {MAX_PIN_DIGITS} digits")
    n, r, p = cost if cost is not None else (SCRYPT_N, SCRYPT_R, SCRYPT_P)
    salt = salt if salt is not None else os.urandom(16)
    digest = _scrypt(pin, salt, n, r, p)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


def is_pin_hash(stored: object) -> bool:
    """Whether ``stored`` looks like a hash this module writes or reads."""
    return isinstance(stored, str) and stored.startswith(("scrypt$", "pbkdf2_sha256$"))


def pin_matches(stored: str, pin: str) -> bool:
    """Whether ``pin`` is the PIN ``stored`` was made from (either scheme); a damaged hash
    matches nothing."""
    if not isinstance(pin, str) or not isinstance(stored, str):
        return False
    try:
        parts = stored.split("$")
        if parts[0] == "scrypt" and len(parts) == 6:
            n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
            if not (2 <= n <= _MAX_N and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16):
                return False
            got = _scrypt(pin, bytes.fromhex(parts[4]), n, r, p)
            return hmac.compare_digest(got.hex(), parts[5])
        if parts[0] == "pbkdf2_sha256" and len(parts) == 4:
            iterations = int(parts[1])
            if not 1 <= iterations <= 10_000_000:
                return False
            got = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii", "replace"), bytes.fromhex(parts[2]), iterations)
            return hmac.compare_digest(got.hex(), parts[3])
    except (ValueError, MemoryError):
        return False
    return False


def needs_upgrade(stored: str) -> bool:
    """A hash of the old scheme (or of scrypt at a lower cost than today's): write it anew the
    next time its PIN is typed right."""
    parts = stored.split("$") if isinstance(stored, str) else []
    if not parts or parts[0] != "scrypt" or len(parts) != 6:
        return True
    try:
        return int(parts[1]) < SCRYPT_N or int(parts[2]) < SCRYPT_R
    except ValueError:
        return True
