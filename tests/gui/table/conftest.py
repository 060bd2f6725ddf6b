"""Fixtures shared by the table game's window tests (one recipe, not a copy per file).

``features`` is the table game installed on the test window (``table``, from ``../conftest.py``):
a seeded draw, reviews that seal, the ``host`` answering the questions and typing the host PIN,
an autosave in ``tmp_path``, the table's messages kept in ``features.messages``; hosting is
turned off afterwards.  A test file that needs another seed or other answers overrides
``features_seed`` or ``features_options`` (or ``host``) with pytest's fixture overriding, and
keeps the recipe.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_stand_in import Host
from window_harness import Table


@pytest.fixture
def host() -> Host:
    return Host()


@pytest.fixture
def features_seed() -> int:
    """The seed of the curtain's draw (who writes first)."""
    return 1901


@pytest.fixture
def features_options(host: Host) -> dict[str, Any]:
    """What ``install_table_features`` is given besides the recipe's defaults."""
    return {"confirm": host.confirm, "host_prompt": host.prompt}


@pytest.fixture
def features(table: Table, tmp_path: Path, features_seed: int, features_options: dict[str, Any]) -> Iterator[Any]:
    from diplomacy_desktop.gui.table.features import install_table_features
    from diplomacy_desktop.gui.table.persistence import Autosave

    messages: list[tuple[str, str]] = []
    options: dict[str, Any] = {"autosave": Autosave(tmp_path / "data"), "rng": random.Random(features_seed),
                               "review": lambda d: True,
                               "message": lambda _w, title, text: messages.append((title, text))}
    options.update(features_options)
    f = install_table_features(table.window, **options)
    f.messages = messages
    yield f
    f.turn_off()
