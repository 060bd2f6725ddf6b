"""Every command example in the docs runs (python-chess runs its README as a doctest).

An example is a line ``$ diplomacy-desktop ...`` inside a fenced ``console`` block of README.md or
any Markdown file under docs/.  Each file's examples run in order, in a fresh folder that holds the
repository's ``lessons/`` and ``docs/`` (so a later example may read what an earlier one wrote),
through this interpreter (``python -m diplomacy_desktop``), and each must exit 0.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```console\n(.*?)^```", re.S | re.M)


def _examples(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    found: list[str] = []
    for block in FENCE.findall(text):
        found += [line[2:].strip() for line in block.splitlines() if line.startswith("$ ")]
    return found


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
WITH_EXAMPLES = [p for p in DOCS if _examples(p)]


def test_docs_have_runnable_examples() -> None:
    """The check below cannot pass vacuously: the command line's reference has its examples."""
    assert ROOT / "docs" / "reference" / "command-line.md" in WITH_EXAMPLES
    assert all(cmd.startswith("diplomacy-desktop ") for p in WITH_EXAMPLES for cmd in _examples(p))


@pytest.mark.parametrize("doc", WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_examples_run(doc: Path, tmp_path: Path) -> None:
    for name in ("lessons", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path / "home"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    for command in _examples(doc):
        args = shlex.split(command)
        out = subprocess.run([sys.executable, "-m", "diplomacy_desktop", *args[1:]], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, f"{doc.name}: `{command}` exited {out.returncode}: {out.stderr[-2000:]}"
