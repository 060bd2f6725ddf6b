"""The repository's root (for tests that start the command in a subprocess)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
