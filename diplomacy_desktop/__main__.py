"""``python -m diplomacy_desktop`` runs the same entry point as ``diplomacy-desktop``."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
