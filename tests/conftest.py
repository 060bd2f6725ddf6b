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


# -- the heavy tests: CI runs them, a plain `./run test` leaves them out ---------------------------
#
# A developer's default run (`./run test`) is the behaviour of the app; the tests below are the
# long sweeps and renders that check the same code over everything (CONTRIBUTING.md, "Tests").
# They are marked `heavy`: `.ci/run` runs them after the default run (`./run test -m heavy`), and
# so can anyone (`./run test -m heavy`, or `-m "heavy or not heavy"` for both).

#: whole files, by kind
HEAVY_FILES = {
    # real browsers (chromium and its driver): the phone page played by touch
    "tests/host/test_host_browser.py", "tests/host/test_host_phone_fingers.py", "tests/host/test_host_phone_wire.py",
    "tests/host/test_host_phone_layout.py",
    # documents rendered and read back (PDF through ghostscript, SVG in chromium, pictures)
    "tests/gui/test_export_classroom.py", "tests/gui/test_export.py", "tests/gui/test_name_images.py",
    # the whole map measured at every size, the projector (F5) laid out at full size
    "tests/gui/test_projector_names.py", "tests/gui/test_label_sizes.py", "tests/gui/test_map_collisions.py",
    "tests/gui/test_map_readable.py", "tests/gui/test_projector_readable.py", "tests/gui/test_projector.py",
    "tests/gui/table/test_tournament_wall.py",
    # random sequences (Hypothesis's state machine, fuzzed files) and the docs' commands run whole
    "tests/table/test_service_machine.py", "tests/io/test_schema_fast.py", "tests/io/test_fuzz_files.py",
    "tests/test_docs_examples.py",
    # attacks and crashes against real `serve` processes (floods, half-sent requests, kill -9, a full
    # disk, links), and the app started as whole processes (what the start imports, renders)
    "tests/host/test_host_hostile.py", "tests/host/test_host_outside_crashes.py",
    "tests/host/test_host_one_per_game.py", "tests/gui/test_start_imports.py", "tests/gui/test_render.py",
}
#: a test that lays the projector (F5) out at full size, wherever it is (its name says "projector")
PROJECTOR_WORD = "projector"
#: a test run once per lesson (462): the default run opens the first lesson of each family
#: (rulebook examples, each DATC section, Formal Diplomacy's cases), CI every one
PER_LESSON = "tests/gui/test_sandbox.py::test_lessons_open_in_the_sandbox_and_adjudicate_to_the_expected_result"


def _lesson_family(item: pytest.Item) -> str:
    key = item.nodeid.partition("[")[2].rstrip("]")
    return key.rsplit(".", 1)[0] if "." in key else key.split(" ")[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    families: set[str] = set()
    for item in items:
        path = item.nodeid.partition("::")[0]
        if path in HEAVY_FILES or PROJECTOR_WORD in item.name:
            item.add_marker(pytest.mark.heavy)
        elif item.nodeid.startswith(PER_LESSON + "["):
            family = _lesson_family(item)
            if family in families:
                item.add_marker(pytest.mark.heavy)
            families.add(family)
