"""The window's start in processor instructions, phase by phase (issue 30, "Keep": the cold start).

    python bench/bench_start_instructions.py [--baseline ../old-tree]

``bench_gui.py`` times the cold start, and on a shared machine two runs of it disagree by more
than the 10 % its gate allows (the same trees measured 1.06x, 1.11x and 1.15x within minutes).
This counts instead: the same start as ``bench_gui.py``'s (its ``START_SCRIPT``) runs under
valgrind's callgrind, which counts the instructions the process executes, and stops after each
phase of the straight-line part of the start:

* imports: Python, Qt, the QApplication and the app's modules up to ``MainWindow``;
* controller: ``GameController()`` (the game, the table service);
* window: ``MainWindow(...)`` (the scene, the docks, the menus);
* features: ``install_table_features`` (the table game's mode).

Each phase's figure is the difference between two stops; the counts repeat to a tenth of a
percent (``PYTHONHASHSEED=0``; the map's caches warmed by a normal start first), so a change of
1 % shows.  Then the whole start to the first frame (``bench_gui.py``'s end: the event loop, the
layout, the names placed for the view's size, the first paint), counted in the window's own
thread only: under callgrind's slowness the view's timers fire before that frame and start the
board's sharp picture in a worker thread (hundreds of millions of instructions, in some runs and
not in others), which a normal start never waits for.  With ``--baseline`` the other checkout is
counted the same way (with this file) and the ratios printed.  Needs valgrind (``apt-get install
valgrind``); a run takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_gui import START_SCRIPT  # (the same start as the timed bench)

#: where each phase ends: the first line of START_SCRIPT that starts with it
PHASES = (
    ("imports", "from diplomacy_desktop.gui.main_window import MainWindow"),
    ("controller", "controller = GameController()"),
    ("window", "window = MainWindow("),
    ("features", "window.ask_before_closing = False"),
)


def script_until(marker: str) -> str:
    """``START_SCRIPT`` up to the line starting with ``marker``, then an immediate exit."""
    lines = START_SCRIPT.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(marker))
    return "\n".join([*lines[: index + 1], "import os as _os; _os._exit(0)"]) + "\n"


def _env(root: Path, bytecode: Path, cache: Path, settings: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(PYTHONHASHSEED="0", PYTHONPYCACHEPREFIX=str(bytecode), XDG_CACHE_HOME=str(cache),
               BENCH_SETTINGS=str(settings), BENCH_T0="0", QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(root))
    return env


def count(root: Path, work: Path) -> dict[str, int]:
    """Instructions executed by the start of the checkout ``root`` up to the end of each phase."""
    bytecode, cache, settings = work / "bytecode", work / f"cache-{root.name}", work / "settings.ini"
    env = _env(root, bytecode, cache, settings)
    # a normal start first: the modules compiled and the map's pictures cached, as after the
    # first start of an installed app
    for _ in range(2):
        subprocess.run([sys.executable, "-c", START_SCRIPT], env=env, cwd=str(root), capture_output=True,
                       timeout=300, check=True)
    out = {}
    for name, marker in PHASES:
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               sys.executable, "-c", script_until(marker)],
                              env=env, cwd=str(root), capture_output=True, text=True, timeout=1800, check=False)
        found = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
        if found is None:
            raise RuntimeError(f"callgrind gave no count for {name} in {root}:\n{proc.stderr[-2000:]}")
        out[name] = int(found.group(1))
    out[FIRST_FRAME] = _first_frame(env, root, work)
    return out


#: the whole start to the first frame, in the window's thread (see the module's doc)
FIRST_FRAME = "first frame"


def _first_frame(env: dict[str, str], root: Path, work: Path) -> int:
    script = START_SCRIPT.replace('print(f"drawn', 'os._exit(0) if True else print(f"drawn')
    if script == START_SCRIPT:
        raise RuntimeError("bench_gui.START_SCRIPT no longer prints 'drawn': update this file")
    out = work / f"first-frame-{root.name}"
    out.mkdir(exist_ok=True)
    subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                    f"--callgrind-out-file={out}/callgrind.out", sys.executable, "-c", script],
                   env=env, cwd=str(root), capture_output=True, text=True, timeout=1800, check=False)
    first = out / "callgrind.out-01"  # the main thread's file (the window's thread)
    found = re.search(r"^totals:\s*(\d+)", first.read_text(encoding="utf-8"), re.MULTILINE) if first.is_file() else None
    if found is None:
        raise RuntimeError(f"callgrind gave no count of the first frame in {root}")
    return int(found.group(1))


def phases(cumulative: dict[str, int]) -> dict[str, int]:
    """Each phase's own instructions (the differences between the stops)."""
    own, before = {}, 0
    for name, _ in PHASES:
        own[name] = cumulative[name] - before
        before = cumulative[name]
    return own


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, help="another checkout, counted the same way")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): nothing counted", file=sys.stderr)
        return 2
    trees = [HERE.parent.resolve()] + ([args.baseline.resolve()] if args.baseline else [])
    with tempfile.TemporaryDirectory() as tmp:
        counted = {root: count(root, Path(tmp)) for root in trees}
    this = counted[trees[0]]
    base = counted[trees[1]] if len(trees) > 1 else None
    print(f"instructions to the end of each phase of the window's start (millions); this tree {trees[0]}"
          + (f", baseline {trees[1]}" if base else ""))
    print(f"{'phase':12s} {'this':>10s}" + (f" {'baseline':>10s} {'ratio':>6s}" if base else ""))
    rows = [(name, phases(this)[name], phases(base)[name] if base else None) for name, _ in PHASES]
    rows.append(("whole", this[PHASES[-1][0]], base[PHASES[-1][0]] if base else None))
    rows.append((FIRST_FRAME, this[FIRST_FRAME], base[FIRST_FRAME] if base else None))
    for name, mine, theirs in rows:
        line = f"{name:12s} {mine / 1e6:10.1f}"
        if theirs:
            line += f" {theirs / 1e6:10.1f} {mine / theirs:6.3f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
