"""The frozen app (PyInstaller, ``packaging/build.py``): it starts, opens its window, adjudicates and
renders exactly as the source tree does, carries no unused Qt, and its tarball installs into a
user's menu and uninstalls cleanly.

Marked ``slow`` (left out of a plain ``pytest``): ``python -m pytest -m slow tests/test_packaging.py``.
It needs the ``package`` extra (PyInstaller, Pillow).  It builds ``dist/diplomacy-desktop`` with
``packaging/build.py --tarball``, or reuses the build there when it was made from the same sources
(``build.source_fingerprint()``).  The frozen program runs with an empty folder as its PATH (the
scripts around it, with ``/usr/bin:/bin``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
NAME = "diplomacy-desktop"
# the system's tools, for the scripts (.ci/start-on-x, install.sh); Debian's /usr/bin/python3 is there
# (without PySide6), so the frozen program itself runs with a PATH that holds nothing at all
BARE_PATH = "/usr/bin:/bin"


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("diplomacy_desktop_build", ROOT / "packaging" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def build() -> ModuleType:
    return _build_module()


@pytest.fixture(scope="module")
def dist(build: ModuleType) -> Path:
    """``dist/`` holding the app built from this tree, and its tarball."""
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.fail("PyInstaller is not installed: pip install '.[package]' (these tests build the frozen app)")
    dist = ROOT / "dist"
    record = dist / f"{NAME}.build.json"
    fresh = (record.is_file() and (dist / NAME / NAME).is_file() and list(dist.glob(f"{NAME}-*-linux-*.tar.gz"))
             and json.loads(record.read_text(encoding="utf-8")).get("fingerprint") == build.source_fingerprint())
    if not fresh:
        subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--tarball"], check=True, cwd=ROOT)
    return dist


@pytest.fixture
def bare_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH is an empty folder (no Python, nothing), without this machine's
    user settings."""
    home = tmp_path / "home"
    home.mkdir()
    empty = tmp_path / "empty-path"
    empty.mkdir()
    return {"PATH": str(empty), "HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
            "DIPLOMACY_DESKTOP_DATA": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_CACHE_HOME": str(home / ".cache")}


def _frozen(dist: Path, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(dist / NAME / NAME), *args], check=False, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def _source(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "diplomacy_desktop", *args], check=False, env=env,
                          capture_output=True, text=True, timeout=300, cwd=ROOT, stdin=subprocess.DEVNULL)


def test_frozen_app_window_opens_offscreen(dist: Path, bare_env: dict[str, str]) -> None:
    # DIPLOMACY_DESKTOP_QUIT_AFTER_SHOW: run_app quits once the main window is shown (exit 0); a
    # missing platform plugin, map file or module ends it with another status or a traceback
    env = {**bare_env, "DIPLOMACY_DESKTOP_QUIT_AFTER_SHOW": "1"}
    done = _frozen(dist, [], env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Failed to execute script" not in done.stderr


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")), reason="needs Xvfb and xdotool")
def test_frozen_app_window_opens_on_x(dist: Path, tmp_path: Path) -> None:
    # .ci/start-on-x: the real X11 (xcb) platform plugin and the system libraries it loads; it
    # passes once a window titled "... — Spring 1901 ... — Diplomacy Desktop" is visible
    env = {"PATH": BARE_PATH, "HOME": str(tmp_path), "START_ON_X_WAIT": "60"}
    done = subprocess.run(["bash", str(ROOT / ".ci" / "start-on-x"), str(dist / NAME / NAME)], check=False,
                          env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the main window is up" in done.stdout


@pytest.mark.parametrize("case_file", ["rulebook_examples.txt", "datc_v3_6E.txt", "formal_diplomacy.txt"])
def test_frozen_adjudicate_matches_source(dist: Path, bare_env: dict[str, str], case_file: str) -> None:
    path = str(ROOT / "lessons" / case_file)
    frozen = _frozen(dist, ["adjudicate", "--json", path], bare_env)
    source = _source(["adjudicate", "--json", path])
    assert frozen.returncode == source.returncode == 0, frozen.stderr
    records = json.loads(frozen.stdout)
    assert len(records) >= 5
    assert all("error" not in r for r in records)
    assert frozen.stdout == source.stdout


def test_frozen_render_draws_the_same_picture(dist: Path, bare_env: dict[str, str], tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    case = str(ROOT / "lessons" / "rulebook_examples.txt")
    args = [case, "--phase", "2", "--results", "--size", "1200x900"]
    frozen = _frozen(dist, ["render", *args, "-o", str(tmp_path / "frozen.png")], bare_env)
    source = _source(["render", *args, "-o", str(tmp_path / "source.png")])
    assert frozen.returncode == 0, frozen.stderr
    assert source.returncode == 0, source.stderr
    frozen_image, source_image = QImage(str(tmp_path / "frozen.png")), QImage(str(tmp_path / "source.png"))
    assert (frozen_image.width(), frozen_image.height()) == (1200, 900)
    assert frozen_image.convertToFormat(QImage.Format.Format_ARGB32) == \
        source_image.convertToFormat(QImage.Format.Format_ARGB32)


def test_frozen_render_writes_every_case_to_pdf(dist: Path, bare_env: dict[str, str], tmp_path: Path) -> None:
    from pypdf import PdfReader

    case = ROOT / "lessons" / "rulebook_examples.txt"
    out = tmp_path / "all.pdf"
    done = _frozen(dist, ["render", str(case), "--all-phases", "--results", "-o", str(out)], bare_env)
    assert done.returncode == 0, done.stderr
    cases = sum(1 for line in case.read_text(encoding="utf-8").splitlines() if line.startswith("CASE "))
    assert len(PdfReader(str(out)).pages) == cases


def test_frozen_app_carries_no_unused_qt(dist: Path) -> None:
    internal = dist / NAME / "_internal"
    pyside = internal / "PySide6"
    import PySide6

    bundled = {p.name.split(".")[0] for p in pyside.glob("Qt*.so")}
    installed = {p.name.split(".")[0] for p in Path(PySide6.__file__).parent.glob("Qt*.so")}
    imported = {m for path in (ROOT / "diplomacy_desktop").rglob("*.py")
                for m in re.findall(r"\bPySide6\.(Qt\w+)", path.read_text(encoding="utf-8"))}
    assert {"QtCore", "QtGui", "QtWidgets", "QtSvg"} <= bundled
    assert bundled == imported & installed  # nothing PyInstaller's Qt hooks add on their own (QtNetwork, QtDBus)
    plugins = {p.relative_to(pyside / "Qt" / "plugins").as_posix() for p in (pyside / "Qt" / "plugins").rglob("*.so")}
    assert {"platforms/libqxcb.so", "platforms/libqoffscreen.so", "imageformats/libqsvg.so",
            "iconengines/libqsvgicon.so"} <= plugins
    assert not [p for p in plugins if p.startswith(("wayland-", "egldeviceintegrations/", "generic/"))]
    if "QtNetwork" not in imported:
        assert not [p for p in plugins if p.startswith(("tls/", "networkinformation/"))]
    assert "platformthemes/libqgtk3.so" not in plugins
    assert not (pyside / "Qt" / "translations").exists()
    names = {p.name for p in internal.iterdir()}
    assert not {"PIL", "libgtk-3.so.0", "libQt6Network.so.6", "libQt6WaylandClient.so.6"} & names
    # links that point at nothing (a library left out under its old name)
    assert not [p for p in (dist / NAME).rglob("*") if p.is_symlink() and not p.exists()]
    # the data resources.py looks for
    assert (internal / "diplomacy_desktop" / "_maps" / "standard" / "standard.svg").is_file()
    assert (internal / "diplomacy_desktop" / "_lessons" / "datc_v3.toml").is_file()
    assert (internal / "diplomacy_desktop" / "_assets" / "icon.svg").is_file()
    assert (internal / "diplomacy_desktop" / "io" / "savegame.schema.json").is_file()


def test_tarball_installs_into_the_menu_and_uninstalls(dist: Path, tmp_path: Path) -> None:
    (tarball,) = dist.glob(f"{NAME}-*-linux-*.tar.gz")
    with tarfile.open(tarball) as tar:
        tar.extractall(tmp_path / "unpacked", filter="tar")
    (top,) = (tmp_path / "unpacked").iterdir()
    home = tmp_path / "home"
    apps = home / ".local" / "share" / "applications"
    apps.mkdir(parents=True)
    (apps / "someone-else.desktop").write_text("[Desktop Entry]\nName=Other\n", encoding="utf-8")
    env = {"PATH": BARE_PATH, "HOME": str(home)}

    done = subprocess.run(["sh", str(top / "install.sh")], check=False, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    link = home / ".local" / "bin" / NAME
    assert link.is_symlink()
    entry = (apps / f"{NAME}.desktop").read_text(encoding="utf-8")
    exec_line = next(line for line in entry.splitlines() if line.startswith("Exec="))
    program = exec_line.removeprefix("Exec=").rsplit(" ", 1)[0].strip('"')
    assert Path(program).is_file() and os.access(program, os.X_OK)
    assert Path(program).resolve() == link.resolve()
    assert "Icon=diplomacy-desktop" in entry
    assert (home / ".local" / "share" / "icons" / "hicolor" / "256x256" / "apps" / f"{NAME}.png").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(apps / f"{NAME}.desktop")], check=False,
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
    run = subprocess.run([str(link), "adjudicate", str(ROOT / "lessons" / "datc_v3_6A.txt")], check=False,
                         env={**env, "QT_QPA_PLATFORM": "offscreen"}, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("cases passed")

    done = subprocess.run(["sh", str(top / "install.sh"), "--uninstall"], check=False, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not link.exists() and not link.is_symlink()
    assert not (apps / f"{NAME}.desktop").exists()
    assert not (home / ".local" / "share" / NAME).exists()
    assert not list((home / ".local" / "share" / "icons").rglob(f"{NAME}.png"))
    assert (apps / "someone-else.desktop").is_file()  # nothing else touched
