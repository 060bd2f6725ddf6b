from __future__ import annotations

import errno
import os
from typing import IO, Self

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


class _FullDisk:
    """A file whose writes fail as on a full disk, after writing a little (a partly written file)."""

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.fh.close()

    def write(self, data: bytes) -> int:
        self.fh.write(data[:1000])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file the app writes through io.savefile's atomic writer hits a full disk."""
    from diplomacy_desktop.io import savefile

    real_fdopen = os.fdopen
    monkeypatch.setattr(savefile.os, "fdopen", lambda fd, *a, **k: _FullDisk(real_fdopen(fd, *a, **k)))


@pytest.fixture(autouse=True)
def _fast_pin_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """PIN hashes made in tests use a low scrypt cost (the hash records its cost, so it verifies
    the same); the shipped cost is checked in tests/table/test_pins.py."""
    from diplomacy_desktop.io import pins, vault

    monkeypatch.setattr(pins, "SCRYPT_N", 2 ** 10)
    monkeypatch.setattr(vault, "KDF_N", 2 ** 10)
