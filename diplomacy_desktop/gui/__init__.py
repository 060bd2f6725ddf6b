"""The Qt application: the only package that imports PySide6."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

_F = TypeVar("_F", bound=Callable[..., object])

if sys.version_info >= (3, 12):
    from typing import override
else:  # Python 3.11: the decorator is only a marker for readers and type checkers
    def override(method: _F) -> _F:
        """Marks a Qt virtual method we re-implement (``typing.override`` from 3.12)."""
        return method

__all__ = ["override"]
