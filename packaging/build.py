"""Build the standalone app with PyInstaller, and on Linux the tarball that installs it.

    python packaging/build.py             # dist/diplomacy-desktop/ (and on macOS dist/Diplomacy Desktop.app)
    python packaging/build.py --tarball   # also dist/diplomacy-desktop-VERSION-linux-ARCH.tar.gz

Needs the ``package`` extra (``pip install '.[package]'``: PyInstaller, and Pillow for the icons).
Work files go to ``build/``.  Next to the app folder it writes ``diplomacy-desktop.build.json``: the
fingerprint of the sources it was built from (``source_fingerprint()``), how long the build took and
the folder's size; the slow test reuses a build whose fingerprint matches the tree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "diplomacy_desktop.spec"
NAME = "diplomacy-desktop"
# what the build is made from: a change in any of these makes a new build
SOURCES = ("diplomacy_desktop", "maps", "assets", "lessons", "packaging", "pyproject.toml")


def version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def source_fingerprint() -> str:
    """SHA-256 over the path and bytes of every source file the build reads, and the versions of
    Python, PyInstaller and PySide6 that build it."""
    digest = hashlib.sha256()
    for top in SOURCES:
        base = ROOT / top
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in files:
            rel = path.relative_to(ROOT)
            if "__pycache__" in rel.parts or path.suffix == ".pyc" or rel.as_posix() == "packaging/README.md":
                continue
            digest.update(str(rel.as_posix()).encode() + b"\0" + path.read_bytes() + b"\0")
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    for dist in ("pyinstaller", "PySide6-Essentials", "shiboken6"):
        try:
            digest.update(f"{dist}={dist_version(dist)}".encode())
        except PackageNotFoundError:
            digest.update(f"{dist}=none".encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def folder_size(path: Path) -> int:
    """Bytes of the files under ``path`` (links not followed, not counted)."""
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def build(dist: Path, work: Path) -> dict[str, Any]:
    """Run PyInstaller on the spec; return the build record (also written next to the app)."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        raise SystemExit("PyInstaller is not installed: pip install '.[package]'") from None
    fingerprint = source_fingerprint()
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--distpath", str(dist), "--workpath", str(work / "pyinstaller"), str(SPEC)],
                   check=True, cwd=ROOT, env={**os.environ, "DIPLOMACY_DESKTOP_ICON_DIR": str(work / "icons")})
    seconds = time.monotonic() - started
    app = dist / NAME
    record: dict[str, Any] = {
        "version": version(),
        "fingerprint": fingerprint,
        "seconds": round(seconds, 1),
        "bytes": folder_size(app),
        "platform": f"{sys.platform}-{platform.machine()}",
    }
    (dist / f"{NAME}.build.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return record


def tarball(dist: Path, work: Path) -> Path:
    """The Linux tarball: the app folder, the desktop entry, the icons and install.sh (which also
    uninstalls: ``./install.sh --uninstall``)."""
    if not sys.platform.startswith("linux"):
        raise SystemExit("the tarball is the Linux package; on Windows and macOS ship dist/ as it is")
    top = f"{NAME}-{version()}"
    target = dist / f"{top}-linux-{platform.machine()}.tar.gz"
    icons = work / "icons"
    members: list[tuple[Path, str]] = [
        (dist / NAME, f"{top}/{NAME}"),
        (PACKAGING / f"{NAME}.desktop", f"{top}/{NAME}.desktop"),
        (PACKAGING / "install.sh", f"{top}/install.sh"),
        (icons / f"{NAME}.png", f"{top}/{NAME}.png"),
        (icons / "hicolor", f"{top}/icons/hicolor"),
    ]
    partial = target.with_name(target.name + ".part")
    with tarfile.open(partial, "w:gz", compresslevel=6) as tar:
        for source, name in members:
            tar.add(source, arcname=name, filter=_owned_by_root)
    partial.replace(target)
    return target


def _owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    if info.name.endswith("/install.sh") or info.isdir():
        info.mode = 0o755
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tarball", action="store_true", help="also the Linux tarball with install.sh")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the app goes (default dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="work files (default build/)")
    args = parser.parse_args(argv)
    dist, work = args.dist.resolve(), args.work.resolve()
    if (dist / NAME).exists():
        shutil.rmtree(dist / NAME)
    for old in dist.glob(f"{NAME}-*-linux-*.tar.gz"):  # made from the folder being replaced
        old.unlink()
    record = build(dist, work)
    print(f"built {dist / NAME} in {record['seconds']} s: {record['bytes'] / 1e6:.0f} MB")
    if args.tarball:
        started = time.monotonic()
        path = tarball(dist, work)
        print(f"wrote {path} ({path.stat().st_size / 1e6:.0f} MB) in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
