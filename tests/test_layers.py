"""The layers of CONTRIBUTING.md, enforced: gui -> table, host, io, mapdata, engine; host -> table, io,
engine; table -> io, engine; io -> engine; mapdata -> engine; engine -> standard library.  Only
gui imports PySide6; nothing but gui imports gui, and nothing below the table imports the table.

Two checks each: every import statement in the source (read with ``ast``, including imports
inside functions), and a real import in a fresh interpreter, looking at ``sys.modules``.  The
engine and io are imported with ``python -S`` (no site-packages at all), so they are shown to
work with nothing but the standard library installed.

io may use ``jsonschema`` and ``fastjsonschema`` (declared dependencies): saved games are
validated against the JSON Schema shipped with the package (``cryptography`` for a secret game's
part).  They are imported only when a saved game is read, so the ``-S`` import of io below still needs nothing but the standard library.

``diplomacy_desktop.resources`` (where the shipped map files are) is a standard-library-only
leaf of the package root that io and mapdata may use; it is checked like the engine.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "diplomacy_desktop"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
QT = ("PySide6", "shiboken6")
HEAVY = (*QT, "shapely", "svgelements", "numpy")

# which of our own parts each layer may import
OWN_ALLOWED = {
    "engine": {"engine"},
    "io": {"engine", "io", "resources"},
    "mapdata": {"engine", "mapdata", "resources"},
    "bots": {"engine", "bots"},
    "resources": {"resources"},
    "table": {"engine", "io", "table", "bots", "resources"},
    "host": {"engine", "io", "table", "host", "resources"},
    "gui": {"engine", "io", "mapdata", "table", "bots", "host", "gui", "resources"},
}


def modules_of(layer: str) -> list[Path]:
    target = PACKAGE / layer
    files = sorted(target.rglob("*.py")) if target.is_dir() else [target.with_suffix(".py")]
    return [f for f in files if "__pycache__" not in f.parts]


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` imports, as absolute names, with line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = module_name(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            if node.module is None:  # from . import x: x may be a module
                out.extend((node.lineno, f"{prefix}.{alias.name}") for alias in node.names)
            else:
                out.append((node.lineno, prefix))
    return out


def own_part(module: str) -> str | None:
    """``diplomacy_desktop.engine.board`` -> ``engine``; None for modules outside the package."""
    parts = module.split(".")
    if parts[0] != "diplomacy_desktop":
        return None
    return parts[1] if len(parts) > 1 else ""


# the third-party libraries a layer that is otherwise standard-library-only may import
THIRD_PARTY_ALLOWED = {"io": {"jsonschema", "fastjsonschema", "cryptography", "zxcvbn"}, "host": {"jsonschema", "aiohttp", "segno", "ifaddr"}}


def violations(layer: str, third_party_ok: bool, third_party_banned: tuple[str, ...] = ()) -> list[str]:
    bad = []
    files = modules_of(layer)
    assert files, f"no modules found for {layer}"
    for path in files:
        for line, module in imports_of(path):
            where = f"{path.relative_to(ROOT)}:{line} imports {module}"
            part = own_part(module)
            top = module.split(".")[0]
            if part is not None:
                if part not in OWN_ALLOWED[layer]:
                    bad.append(where)
            elif top in STDLIB or top in THIRD_PARTY_ALLOWED.get(layer, set()):
                continue
            elif not third_party_ok or top in third_party_banned:
                bad.append(where)
    return bad


# -- source scans ------------------------------------------------------------------------------------


def test_layers_engine_imports_only_the_standard_library() -> None:
    assert len(modules_of("engine")) >= 13
    assert violations("engine", third_party_ok=False) == []


def test_layers_io_imports_only_engine_the_standard_library_and_jsonschema() -> None:
    assert len(modules_of("io")) >= 6
    assert violations("io", third_party_ok=False) == []


def test_layers_bots_import_only_the_engine_and_the_standard_library() -> None:
    assert len(modules_of("bots")) >= 4
    assert violations("bots", third_party_ok=False) == []


def test_layers_resources_imports_only_the_standard_library() -> None:
    assert violations("resources", third_party_ok=False) == []


def test_layers_table_imports_only_engine_io_and_the_standard_library() -> None:
    assert len(modules_of("table")) >= 9
    assert violations("table", third_party_ok=False) == []


def test_layers_host_imports_only_engine_io_and_its_server_libraries() -> None:
    assert len(modules_of("host")) >= 4
    assert violations("host", third_party_ok=False) == []


def test_layers_host_imports_without_qt_or_the_map_geometry() -> None:
    pytest.importorskip("aiohttp")
    loaded = _loaded_after_importing(_names("host"), no_site=False)
    assert "diplomacy_desktop.host.server" in loaded
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    ours = {m.split(".")[1] for m in loaded if m.startswith("diplomacy_desktop.")}
    assert ours <= {"engine", "io", "table", "bots", "host", "resources"}, sorted(ours)


def test_layers_mapdata_never_imports_qt_io_or_gui() -> None:
    assert violations("mapdata", third_party_ok=True, third_party_banned=QT) == []


def test_layers_only_gui_imports_pyside6() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts or (PACKAGE / "gui") in path.parents:
            continue
        for line, module in imports_of(path):
            if module.split(".")[0] in QT:
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert offenders == []


def test_layers_rooms_reach_the_window_only_through_the_shell() -> None:
    """CONTRIBUTING.md: no room imports MainWindow (nor main_window.py at all, even for type checking):
    they are handed the window as a ``gui.shell.WindowShell``."""
    gui = PACKAGE / "gui"
    rooms = [*modules_of("gui/teach"), *modules_of("gui/table"), gui / "mode.py", gui / "interchange.py",
             gui / "shell.py"]
    assert len(rooms) >= 20
    offenders = []
    for path in rooms:
        source = path.read_text(encoding="utf-8")
        for line, module in imports_of(path):
            if module == "diplomacy_desktop.gui.main_window" or module.endswith(".MainWindow"):
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
        assert not re.search(r"\bMainWindow\b", source.replace("``MainWindow``", "")), path
    assert offenders == []


def test_layers_the_table_layer_is_imported_by_gui_and_host_only() -> None:
    importers = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for _line, module in imports_of(path):
            if own_part(module) == "table":
                importers.add(path.relative_to(PACKAGE).parts[0])
    assert importers <= {"gui", "host", "table"}, sorted(importers)
    assert {"gui", "host"} <= importers


def test_layers_the_scanner_sees_relative_and_function_level_imports(tmp_path: Path) -> None:
    probe = tmp_path / "diplomacy_desktop" / "engine" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from __future__ import annotations\n"
                     "import json\n"
                     "from ..gui import window\n"
                     "from . import board\n"
                     "from .state import GameState\n"
                     "def later():\n"
                     "    import PySide6.QtCore\n"
                     "    from shapely import geometry\n", encoding="utf-8")
    found = [m for _, m in imports_of(probe, tmp_path)]
    assert found == ["__future__", "json", "diplomacy_desktop.gui", "diplomacy_desktop.engine.board",
                     "diplomacy_desktop.engine.state", "PySide6.QtCore", "shapely"]
    assert {own_part(m) for m in found} == {None, "gui", "engine"}
    cli = {m for _, m in imports_of(PACKAGE / "cli.py")}
    assert "diplomacy_desktop.io.boardfile" in cli  # imported inside cmd_adjudicate


# -- real imports in a fresh interpreter ---------------------------------------------------------------


def _loaded_after_importing(modules: list[str], *, no_site: bool) -> set[str]:
    code = ("import importlib, json, sys\n"
            f"for m in {modules!r}:\n"
            "    importlib.import_module(m)\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    flags = ["-S"] if no_site else []
    proc = subprocess.run([sys.executable, *flags, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout))


def _names(layer: str) -> list[str]:
    return [module_name(p) for p in modules_of(layer)]


def test_layers_engine_imports_with_nothing_but_the_standard_library() -> None:
    loaded = _loaded_after_importing(_names("engine"), no_site=True)
    assert "diplomacy_desktop.engine.movement" in loaded
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    ours = {m for m in loaded if m.startswith("diplomacy_desktop.")}
    assert ours <= {m for m in ours if m.startswith("diplomacy_desktop.engine")}, sorted(ours)
    foreign = {m.split(".")[0] for m in loaded} - STDLIB - {"diplomacy_desktop"}
    assert not {m for m in foreign if not m.startswith("_")}, sorted(foreign)


def test_layers_io_imports_with_nothing_but_the_standard_library() -> None:
    loaded = _loaded_after_importing(_names("io"), no_site=True)
    assert "diplomacy_desktop.io.savefile" in loaded
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    ours = {m.split(".")[1] for m in loaded if m.startswith("diplomacy_desktop.")}
    assert ours <= {"engine", "io", "resources"}, sorted(ours)


def test_layers_table_imports_with_nothing_but_the_standard_library() -> None:
    loaded = _loaded_after_importing(_names("table"), no_site=True)
    assert "diplomacy_desktop.table.session" in loaded
    assert "diplomacy_desktop.table.hotseat" in loaded
    assert {"diplomacy_desktop.table.pieces", "diplomacy_desktop.table.scoring", "diplomacy_desktop.table.results",
            "diplomacy_desktop.table.event"} <= loaded
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    ours = {m.split(".")[1] for m in loaded if m.startswith("diplomacy_desktop.")}
    assert ours <= {"engine", "io", "table", "bots", "resources"}, sorted(ours)


def test_layers_mapdata_imports_without_qt() -> None:
    pytest.importorskip("shapely")
    loaded = _loaded_after_importing(_names("mapdata"), no_site=False)
    assert "diplomacy_desktop.mapdata" in loaded
    assert not {m for m in loaded if m.split(".")[0] in QT}
    assert not {m for m in loaded if m.startswith(("diplomacy_desktop.gui", "diplomacy_desktop.io"))}


def test_layers_cli_adjudicate_path_does_not_load_qt() -> None:
    loaded = _loaded_after_importing(["diplomacy_desktop.cli", "diplomacy_desktop.io.caserun"], no_site=True)
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
