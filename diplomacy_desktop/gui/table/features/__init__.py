"""The table game's mode, ``TableFeatures``, in parts by role: ``mode.py`` (the class and its
set-up), ``hooks.py``, ``actions.py``, ``hosting.py``, ``draw.py``; ``base.py`` declares what
they share.  The names below are re-exported: ``gui.table.features`` is where the app, the
benchmarks and the tests install the mode from.
"""

from __future__ import annotations

from .hooks import FIRST_START_KEY
from .mode import TableFeatures, install_table_features

__all__ = ["FIRST_START_KEY", "TableFeatures", "install_table_features"]
