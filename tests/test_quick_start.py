"""Issue 17: README's quick start is one command to install and start, one to install and test, and
`.ci/run` runs exactly those (the test command, and the run command up on a virtual X display)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ") and line.strip()]


def test_readme_quick_start_is_one_run_command_and_one_test_command() -> None:
    commands = _quick_start_commands()
    assert commands[:2] == ["./run", "./run test"]


def test_ci_runs_the_readme_commands() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert "./run test" in lines
    assert "./run test -m heavy" in lines  # the heavy tests the default run leaves out (tests/conftest.py)
    assert any(re.fullmatch(r"bash \.ci/start-on-x \./run", line) for line in lines)


def test_run_script_is_executable_and_refuses_an_old_python(tmp_path: Path) -> None:
    run = ROOT / "run"
    assert os.access(run, os.X_OK)
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Python 3.9.2'; exit 0; fi\nexit 1\n")
    fake.chmod(0o755)
    out = subprocess.run(["bash", str(run)], env={**os.environ, "PYTHON": str(fake)}, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 1 and "too old" in out.stderr and "3.11" in out.stderr


def test_every_package_is_in_the_wheel() -> None:
    """A package folder missing from pyproject's list imports from the source tree (so pytest passes)
    but not from the installed app, which then cannot start: every folder with an __init__.py is listed."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "diplomacy_desktop").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert found <= listed, sorted(found - listed)


def test_the_heavy_tests_are_files_that_exist_and_the_default_run_leaves_them_out() -> None:
    """A file named in tests/conftest.py's heavy list that was renamed would silently run nowhere
    but in the default run (or nowhere): every one exists, and pytest's default options leave
    the heavy ones out (CI runs them with -m heavy)."""
    import importlib.util
    import tomllib

    spec = importlib.util.spec_from_file_location("_conftest_heavy", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    missing = sorted(f for f in module.HEAVY_FILES if not (ROOT / f).is_file())
    assert missing == []
    assert module.PER_LESSON.partition("::")[0] in {str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")}
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "not heavy" in options["addopts"]
