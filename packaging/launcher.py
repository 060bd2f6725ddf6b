"""The frozen app's entry script: the ``diplomacy-desktop`` console script, as pyproject.toml names it.

PyInstaller runs its entry script as a top-level ``__main__`` module, so the package's own
``__main__.py`` (a relative import) cannot be it.
"""

from __future__ import annotations

from diplomacy_desktop.cli import console_main

if __name__ == "__main__":
    console_main()
