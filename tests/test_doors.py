"""One door for every change (CONTRIBUTING.md, "Doors"): only the controller emits its ``changed``; only the
controller, the table layer, the phone host, the engine and the file formats write the game or
the table; the undo commands act through the controller's operation, never ``put_order``.

The checks read the source with ``ast`` (every function body included), so a new shortcut fails
here before anyone has to find it in review.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "diplomacy_desktop"

#: the modules that are a door: they may change the game and the table directly
#: (the phone host, ``host/table.py``, is the HTTP mapping of the table service: not a door to the game)
GAME_DOORS = ("engine/", "io/", "table/", "gui/controller.py")
TABLE_DOORS = ("table/", "host/table.py", "gui/controller.py")
#: the game's operations that change it (``Game`` in engine/game.py)
GAME_MUTATORS = {"set_order", "clear_order", "clear_orders", "put_orders", "set_position", "declare",
                 "adjudicate", "undo_adjudication", "declare_draw", "vote_draw"}
DICT_MUTATORS = {"pop", "setdefault", "update", "clear", "popitem", "append", "remove", "extend"}


def _modules() -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(PACKAGE).as_posix()
        out.append((rel, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))))
    return out


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _ends_with(node: ast.expr, attr: str) -> bool:
    """``node`` is ``x.<attr>`` (any x)."""
    return isinstance(node, ast.Attribute) and node.attr == attr


def _inside(node: ast.expr, attr: str) -> bool:
    """``node`` is ``x.<attr>`` or an item / attribute of it (``x.game.orders``, ``c.table["k"]``)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == attr:
            return True
        node = node.value
    return False


def _allowed(rel: str, doors: tuple[str, ...]) -> bool:
    return any(rel == d or (d.endswith("/") and rel.startswith(d)) for d in doors)


def offences(modules: list[tuple[str, ast.Module]]) -> list[str]:
    bad = []
    for rel, tree in modules:
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                func = node.func
                # somebody else's `changed` signal: X.changed.emit(...) with X not self
                if func.attr == "emit" and _ends_with(func.value, "changed") and isinstance(func.value, ast.Attribute) \
                        and not _is_self(func.value.value):
                    bad.append(f"{where}: emits another object's changed")
                if func.attr in ("put_order", "put_orders") and not _allowed(rel, ("engine/game.py",
                                                                                   "table/service.py",
                                                                                   "gui/controller.py")):
                    bad.append(f"{where}: calls {func.attr}")
                if func.attr in GAME_MUTATORS and _ends_with(func.value, "game") and not _allowed(rel, GAME_DOORS):
                    bad.append(f"{where}: changes the game ({func.attr}) outside a door")
                if func.attr in DICT_MUTATORS and isinstance(func.value, (ast.Attribute, ast.Subscript)):
                    if _inside(func.value, "game") and not _allowed(rel, GAME_DOORS):
                        bad.append(f"{where}: changes the game's data ({func.attr}) outside a door")
                    if _inside(func.value, "table") and not _is_self(getattr(func.value, "value", func.value)) \
                            and not _allowed(rel, TABLE_DOORS):
                        bad.append(f"{where}: changes the table ({func.attr}) outside a door")
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = list(node.targets)
            for target in targets:
                if not isinstance(target, (ast.Attribute, ast.Subscript)):
                    continue
                writes_game = _inside(target.value, "game") or (
                    isinstance(target, ast.Attribute) and target.attr == "game" and not _is_self(target.value))
                if writes_game and not _allowed(rel, GAME_DOORS):
                    bad.append(f"{rel}:{target.lineno}: writes the game outside a door")
                if _inside(target.value, "table") and not _allowed(rel, TABLE_DOORS):
                    bad.append(f"{rel}:{target.lineno}: writes the table outside a door")
    return bad


def test_doors_nothing_outside_them_changes_the_game_or_the_table() -> None:
    assert offences(_modules()) == []


def test_doors_the_scan_finds_every_kind_of_shortcut() -> None:
    probe = ast.parse(
        "def f(c, self):\n"
        "    c.changed.emit(None)\n"
        "    self.controller.changed.emit(None)\n"
        "    c.put_order('france', 'par', None)\n"
        "    c.game.adjudicate()\n"
        "    c.game.orders['france'] = {}\n"
        "    c.game.orders.pop('france')\n"
        "    c.game.state = None\n"
        "    c.table['hotseat'] = {}\n"
        "    self.controller.table.pop('pins')\n"
        "    self.changed.emit(None)\n"  # its own signal: fine
        "    x = c.table.get('pins')\n"  # reading: fine
    )
    found = offences([("gui/table/probe.py", probe)])
    assert len(found) == 9, found
    assert offences([("gui/controller.py", probe)]) == [
        "gui/controller.py:2: emits another object's changed", "gui/controller.py:3: emits another object's changed"]


def test_doors_undo_commands_do_not_import_the_controller() -> None:
    text = (PACKAGE / "gui" / "orders" / "commands.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "GameController" not in names and "controller" not in " ".join(m or "" for m in mods)
