"""``python -m diplomacy_desktop`` runs the same entry point as ``diplomacy-desktop``."""

from __future__ import annotations

from .cli import console_main

if __name__ == "__main__":
    console_main()
