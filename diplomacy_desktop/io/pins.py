"""PINs as a saved game stores them: ``pbkdf2_sha256$iterations$salt$hash``, never the PIN.

Qt-free so that both the hot seat (``gui.table.hotseat``) and the phone host (``host``) check
a PIN the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re

_PIN_RE = re.compile(r"[0-9]{4}")
PIN_ITERATIONS = 60_000


class PinFormatError(ValueError):
    """A PIN that is not four digits."""


def is_valid_pin(pin: str) -> bool:
    return bool(_PIN_RE.fullmatch(pin))


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """``pbkdf2_sha256$iterations$salt$hash``: what is stored instead of the PIN."""
    if not is_valid_pin(pin):
        raise PinFormatError("a PIN is four digits")
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, PIN_ITERATIONS)
    return f"pbkdf2_sha256${PIN_ITERATIONS}${salt.hex()}${digest.hex()}"


def pin_matches(stored: str, pin: str) -> bool:
    try:
        scheme, iterations, salt, digest = stored.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        got = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii", "replace"), bytes.fromhex(salt), int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)
