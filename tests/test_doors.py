"""One door for every change (CONTRIBUTING.md, "Doors"): only the controller emits its ``changed``; only the
table layer (its table service), the phone host, the engine and the file formats write the game or
the table; the window's controller is an adapter of the table service and writes neither itself;
the undo commands act through the controller's operation, never ``put_order``.

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
GAME_DOORS = ("engine/", "io/", "table/")
TABLE_DOORS = ("table/",)
#: the seats' rooms (issue 30): the window's table game and the phone host change the game and
#: the table only through the table service's operations (each with its one change record)
SEAT_ROOMS = ("gui/table/", "host/")
#: the table layer's functions that write the table they are given (the service calls them)
TABLE_WRITERS = {"record_seal", "reveal_codes", "forget_seal", "clear_declaration_codes"}
#: the table keys only the service's operations write: the PINs, the failure counts, the hot-seat
#: turn, the pending declarations (a name in capitals stands for the key's constant)
SERVICE_KEYS = {"pins", "host_pin", "pin_failures", "hotseat", "declarations", "phones",
                "HOTSEAT_KEY", "TABLE_KEY", "PENDING_KEY"}
#: the controller's and the service's raw writes of the table, which a seat's room may not use for
#: the service's own keys
RAW_TABLE_WRITES = ("keep_in_table", "update_table")
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


#: adapters of the table service: even their own ``self.table`` is changed only through it
ADAPTERS = ("gui/controller.py", "host/table.py")


def _keys_of(call: ast.Call) -> set[str]:
    """The table keys a ``keep_in_table(k=v, **{K: v})`` call writes (constants' names as written)."""
    keys = set()
    for kw in call.keywords:
        if kw.arg is not None:
            keys.add(kw.arg)
        elif isinstance(kw.value, ast.Dict):
            for k in kw.value.keys:
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    keys.add(k.value)
                elif isinstance(k, ast.Name):
                    keys.add(k.id)
                elif isinstance(k, ast.Attribute):
                    keys.add(k.attr)
    return keys


def _seat_offences(rel: str, call: ast.Call, where: str) -> list[str]:
    """What a seat's room (the window's table game, the phone host) does around the service."""
    if not _allowed(rel, SEAT_ROOMS):
        return []
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    bad = []
    if name == "PinGuard":
        bad.append(f"{where}: makes its own PinGuard (the table's one is the service's)")
    if name in TABLE_WRITERS:
        bad.append(f"{where}: writes the table through {name} outside the service")
    if name in ("succeeded", "failed") and isinstance(func, ast.Attribute) and (
            _ends_with(func.value, "pin_guard") or _ends_with(func.value, "guard")
            or isinstance(func.value, ast.Name) and func.value.id in ("guard", "pin_guard")):
        bad.append(f"{where}: counts a PIN outside the service (its try_pin, pin_failed, pin_succeeded)")
    if name == "table_part":
        bad.append(f"{where}: takes a part of the table to change it (the service's operations change it)")
    if name in DICT_MUTATORS and isinstance(func, ast.Attribute) and _inside(func.value, "_phones"):
        bad.append(f"{where}: changes the phones' part of the table itself ({name})")
    if name in RAW_TABLE_WRITES:
        own = sorted(_keys_of(call) & SERVICE_KEYS)
        if own:
            bad.append(f"{where}: writes the service's {', '.join(own)} with {name}")
    return bad


def _call_offences(rel: str, func: ast.Attribute, where: str) -> list[str]:
    bad = []
    # somebody else's `changed` signal: X.changed.emit(...) with X not self
    if func.attr == "emit" and _ends_with(func.value, "changed") and isinstance(func.value, ast.Attribute) \
            and not _is_self(func.value.value):
        bad.append(f"{where}: emits another object's changed")
    if func.attr in ("put_order", "put_orders") and not _allowed(rel, ("engine/game.py", "table/service.py")) \
            and not (_ends_with(func.value, "service") and rel.startswith("gui/")):
        bad.append(f"{where}: calls {func.attr}")
    if func.attr in GAME_MUTATORS and _ends_with(func.value, "game") and not _allowed(rel, GAME_DOORS):
        bad.append(f"{where}: changes the game ({func.attr}) outside a door")
    if func.attr in DICT_MUTATORS and isinstance(func.value, (ast.Attribute, ast.Subscript)):
        if _inside(func.value, "game") and not _allowed(rel, GAME_DOORS):
            bad.append(f"{where}: changes the game's data ({func.attr}) outside a door")
        own = _is_self(getattr(func.value, "value", func.value)) and rel not in ADAPTERS
        if _inside(func.value, "table") and not own and not _allowed(rel, TABLE_DOORS):
            bad.append(f"{where}: changes the table ({func.attr}) outside a door")
    return bad


def _write_offences(rel: str, node: ast.AST) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = list(node.targets)
    bad = []
    for target in targets:
        if not isinstance(target, (ast.Attribute, ast.Subscript)):
            continue
        writes_game = _inside(target.value, "game") or (
            isinstance(target, ast.Attribute) and target.attr == "game" and not _is_self(target.value))
        if writes_game and not _allowed(rel, GAME_DOORS):
            bad.append(f"{rel}:{target.lineno}: writes the game outside a door")
        if _inside(target.value, "table") and not _allowed(rel, TABLE_DOORS):
            bad.append(f"{rel}:{target.lineno}: writes the table outside a door")
        if _names_table(target) and _allowed(rel, SEAT_ROOMS):
            bad.append(f"{rel}:{target.lineno}: writes the table outside a door")
        if (_inside(target.value, "_phones") or _inside(target, "_phones")) and _allowed(rel, SEAT_ROOMS) \
                and not (isinstance(target, ast.Attribute) and _is_self(target.value)):
            bad.append(f"{rel}:{target.lineno}: writes the phones' part of the table outside the service")
        if isinstance(target, ast.Attribute) and _is_service(target.value) and _allowed(rel, SEAT_ROOMS) \
                and target.attr != "write":
            bad.append(f"{rel}:{target.lineno}: replaces the table service's {target.attr}")
    return bad


def _is_service(node: ast.expr) -> bool:
    return _ends_with(node, "service") or (isinstance(node, ast.Name) and node.id == "service")


def _names_table(target: ast.expr) -> bool:
    """``table[...] = `` / ``table[...][...] = ``: a table handed in by name (a function's parameter)."""
    node = target
    while isinstance(node, ast.Subscript):
        node = node.value
    return node is not target and isinstance(node, ast.Name) and node.id == "table"


#: the hot-seat turn's operations that change it (``HotSeatSession`` in table/hotseat.py), and the
#: turn's records; a seat's room moves the turn through the service's steps (``begin_turn``,
#: ``open_seat``, ``close_seat``, ``reveal_turn``, ``tell_table``, ...), never itself
TURN_MUTATORS = {"begin_turn", "set_writers", "start_writing", "start_declarations", "end_declarations",
                 "open", "close", "seal", "reveal", "phone_seal", "computer_seal", "phone_declare",
                 "phone_unseal", "set_pin", "resume"}
TURN_RECORDS = {"sealed", "phone_sealed", "part_declared", "notices", "pins", "players"}


def _turn_names(func: ast.AST) -> set[str]:
    """Local names bound to a hot-seat turn in ``func`` (``s = self.session``)."""
    return {t.id for n in ast.walk(func) if isinstance(n, ast.Assign) and _ends_with(n.value, "session")
            for t in n.targets if isinstance(t, ast.Name)}


def _is_turn(node: ast.expr, names: set[str]) -> bool:
    return _ends_with(node, "session") or (isinstance(node, ast.Name) and node.id in names)


def _turn_offences(rel: str, tree: ast.Module) -> list[str]:
    """A seat's room that moves the hot-seat turn itself: ``s.open(...)``, ``session.sealed = ...``,
    ``s.notices.append(...)`` (a lambda's body too)."""
    if not _allowed(rel, ("gui/table/",)):
        return []
    bad = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = _turn_names(func)
        for node in ast.walk(func):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value
                if node.func.attr in TURN_MUTATORS and _is_turn(target, names):
                    bad.append(f"{where}: moves the hot-seat turn itself ({node.func.attr}), not through the service")
                if node.func.attr in DICT_MUTATORS | {"add", "discard", "difference_update", "intersection_update"} \
                        and isinstance(target, ast.Attribute) and target.attr in TURN_RECORDS \
                        and _is_turn(target.value, names):
                    bad.append(f"{where}: changes the hot-seat turn's {target.attr} itself")
            targets = (node.targets if isinstance(node, ast.Assign) else
                       [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for t in targets:
                for one in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(one, ast.Attribute) and _is_turn(one.value, names):
                        bad.append(f"{where}: writes the hot-seat turn's {one.attr} itself")
    return bad


def offences(modules: list[tuple[str, ast.Module]]) -> list[str]:
    bad = []
    for rel, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                bad += _call_offences(rel, node.func, f"{rel}:{getattr(node, 'lineno', 0)}")
            if isinstance(node, ast.Call):
                bad += _seat_offences(rel, node, f"{rel}:{getattr(node, 'lineno', 0)}")
            bad += _write_offences(rel, node)
        bad += _turn_offences(rel, tree)
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
    assert offences([("table/service.py", probe)]) == [
        "table/service.py:2: emits another object's changed", "table/service.py:3: emits another object's changed"]


def test_doors_the_window_changes_the_game_only_through_the_table_service() -> None:
    """``GameController`` is an adapter (issue 30): its every write of the game or the table is an
    operation of its ``TableService``; the game's own mutators, called on the game, are refused."""
    probe = ast.parse(
        "class GameController:\n"
        "    def set_order(self, power, book):\n"
        "        self.game.put_orders(power, book)\n"
        "        self.game.adjudicate()\n"
        "        self.game.undo_adjudication()\n"
        "        self.game.set_position(None)\n"
        "        self.game.declare({})\n"
        "        self.game.declare_draw([])\n"
        "        self.game.end_year = 1910\n"
        "        self.game.rules = None\n"
        "        self.table['pins'] = {}\n"
        "        self.table.pop('pins')\n"
        "        self.service.put_orders(power, book, initiator='laptop')\n"  # the door: fine
        "        self.service.adjudicate(initiator='laptop')\n"
        "        self.game = None\n"  # its own game, replaced (a new game, an opened file): fine
    )
    found = offences([("gui/controller.py", probe)])
    assert len(found) == 11, found
    assert not any(f.startswith(("gui/controller.py:13:", "gui/controller.py:14:", "gui/controller.py:15:"))
                   for f in found), found


def test_doors_undo_commands_do_not_import_the_controller() -> None:
    text = (PACKAGE / "gui" / "orders" / "commands.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "GameController" not in names and "controller" not in " ".join(m or "" for m in mods)


def test_doors_the_seats_rooms_change_the_table_only_through_the_service() -> None:
    """Issue 30: the window's table game (``gui/table/``) and the phone host (``host/``) keep no
    PIN counter of their own, write none of the service's keys (PINs, the hot-seat turn, pending
    declarations) and no seal codes, and do not swap the service's parts; they call its operations."""
    probe = ast.parse(
        "def f(c, self, table, service):\n"
        "    guard = PinGuard(c.table)\n"
        "    sealcodes.reveal_codes(c.table, 'S1901M', None)\n"
        "    sealcodes.clear_declaration_codes(c.table)\n"
        "    c.keep_in_table(pins={})\n"
        "    c.keep_in_table(**{PENDING_KEY: None})\n"
        "    c.keep_in_table(**{self.TABLE_KEY: {}})\n"
        "    table['pins'] = {}\n"
        "    service.session = None\n"
        "    c.service.session = None\n"
        "    guard.failed('host')\n"
        "    self.pin_guard.succeeded('france')\n"
        "    c.keep_in_table(clock_state={})\n"  # the clock's own bookkeeping: fine
        "    c.service.write = None\n"  # the durable-write hook, installed: fine
        "    c.service.keep_turn(initiator='laptop')\n"  # the door: fine
        "    self.join_guard.failed('10.0.0.2')\n"  # the phones' join counter, per device: fine
        "    x = sealcodes.code_of(c.table, 'france', 'S1901M')\n"  # reading: fine
        "    self._phones['tokens'] = {}\n"
        "    self._phones.setdefault('kicked', {})['france'] = 'h'\n"
        "    self._phones['devices'].pop('fra1')\n"
        "    phones = self.service.table_part('phones')\n"
        "    y = self._phones.get('joins')\n"  # reading: fine
    )
    found = offences([("gui/table/probe.py", probe)])
    assert len(found) == 15, found
    assert len(offences([("host/probe.py", probe)])) == 15
    assert offences([("gui/orders/probe.py", probe)]) == []  # (other rooms: the scan above)


def test_doors_the_window_moves_the_hot_seat_turn_only_through_the_service() -> None:
    """Issue 30: the curtain's flow (``gui/table/``) asks the table service to move the laptop's
    turn (each step one operation, kept in the table, one change record); it never opens, closes,
    reveals or writes the turn's records itself."""
    probe = ast.parse(
        "def f(self, kept):\n"
        "    s = self.session\n"
        "    s.begin_turn('S1901M', ())\n"
        "    s.sealed = set(kept)\n"
        "    s.phase, s.order = 'S1901M', ()\n"
        "    self.session.close()\n"
        "    self.flow.session.notices.append('told')\n"
        "    self._shown_refusal(lambda: s.open('france'))\n"
        "    s.sealed.add('france')\n"
        "    self.session.pins = {}\n"
        "    self.service.open_seat('france', initiator='laptop')\n"  # the service's step: fine
        "    x = s.seat_of('france')\n"  # reading: fine
        "    self.curtain.close()\n"  # not the turn: fine
    )
    found = offences([("gui/table/probe.py", probe)])
    assert len(found) == 9, found
    assert offences([("gui/orders/probe.py", probe)]) == []


def _change_types(tree: ast.Module) -> list[str]:
    """Classes and aliases of a module that stand for a record of what changed, other than the
    table's one change type (``TableChange``): a class named ``…Change`` or ``…ChangeRecord``, or
    a module-level name bound to ``TableChange``."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name != "TableChange" and (
                node.name.endswith("Change") or node.name.endswith("ChangeRecord")):
            found.append(f"class {node.name}")
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == "TableChange":
            found.extend(f"{t.id} = TableChange" for t in node.targets if isinstance(t, ast.Name))
    return found


def test_doors_one_change_type() -> None:
    """Issue 30: one change type.  The window's controller passes the service's ``TableChange``
    on to its views (its own changes of what is shown are kinds of it); the session and the host
    name it, not an alias of their own (there were three: ``ChangeRecord``, ``SessionChange``,
    the host's ``Change``)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found.extend(f"{path.relative_to(PACKAGE)}: {what}" for what in _change_types(tree))
    assert found == []
    planted = ast.parse("class ChangeRecord:\n    pass\nclass SessionChange:\n    pass\nChange = TableChange\n")
    assert _change_types(planted) == ["class ChangeRecord", "class SessionChange", "Change = TableChange"]


#: the table's typed record (issue 30, build point 5): ``table/``, ``host/`` and ``gui/`` read and
#: change the table through ``TableState``'s attributes and the service's operations, never by a
#: string key; the save file's dict is met only in ``io/`` (and in ``TableState`` itself, which is
#: that boundary's two ends: ``from_table``, ``to_table``)
TYPED_ROOMS = ("table/", "host/", "gui/")
TYPED_BOUNDARY = ("table/state.py",)
KEYED_READS = {"get", "setdefault", "pop", "update", "clear", "keys", "items", "values"}


def _is_table(node: ast.expr) -> bool:
    """``table``, ``x.table``, ``x.table()``: the table by its name."""
    if isinstance(node, ast.Call):
        node = node.func
    return (isinstance(node, ast.Name) and node.id == "table") or _ends_with(node, "table")


def keyed_table_access(modules: list[tuple[str, ast.Module]]) -> list[str]:
    """Every ``table["k"]``, ``table[K]``, ``x.table.get(...)``, ``.setdefault``, ``.pop`` ... in the
    typed rooms (a ``QTableWidget`` named ``table`` is called by its own methods: not matched)."""
    bad = []
    for rel, tree in modules:
        if not _allowed(rel, TYPED_ROOMS) or _allowed(rel, TYPED_BOUNDARY):
            continue
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Subscript) and _is_table(node.value):
                bad.append(f"{where}: reads the table by a key")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in KEYED_READS and _is_table(node.func.value):
                bad.append(f"{where}: table.{node.func.attr}(...) (a key of the table)")
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                    and any(_is_table(c) for c in node.comparators):
                bad.append(f"{where}: asks whether the table holds a key")
    return bad


def test_doors_the_table_is_read_and_changed_by_typed_attributes_only() -> None:
    assert keyed_table_access(_modules()) == []


def test_doors_the_typed_table_scan_finds_every_keyed_access() -> None:
    probe = ast.parse(
        "def f(c, self, table):\n"
        "    a = table['players']\n"
        "    b = c.table.get('secrecy', True)\n"
        "    c.table.setdefault('phones', {})\n"
        "    self.table.pop(PENDING_KEY, None)\n"
        "    self.controller.table[HOSTING_KEY] = 1\n"
        "    d = autosave.open().table.get('host_pin')\n"
        "    e = 'pins' in self.table\n"
        "    self.table.update(settings)\n"
        "    f = c.table.players\n"  # typed: fine
        "    self.table.item(0, 1)\n"  # a QTableWidget: fine
        "    g = c.table.phones.get('sealed')\n"  # a nested part (still a JSON object): not this scan's
    )
    found = keyed_table_access([("gui/table/probe.py", probe)])
    assert len(found) == 8, found
    assert len(keyed_table_access([("host/probe.py", probe)])) == 8
    assert keyed_table_access([("io/probe.py", probe)]) == []
    assert keyed_table_access([("table/state.py", probe)]) == []


#: the table's nested parts read as typed records of their own (``table/parts.py``): the names the
#: package gives such a part (an attribute, a variable, the call that makes it); read and changed by
#: attributes, never by a string key, in the typed rooms (``io/`` meets the save file's dict)
TYPED_PARTS = {"phones": {"phones", "_phones", "phones_part"}}
TYPED_PARTS["clock"] = {"clock", "clock_part"}
TYPED_PARTS["clock_state"] = {"clock_state"}
TYPED_PARTS["clock_plans"] = {"clock_plans"}
TYPED_PARTS["event"] = {"event"}
TYPED_PARTS["board_info"] = {"board_info"}
TYPED_PARTS["ballots"] = {"ballots"}
# the laptop's turn, PINs, seals, notes, seating
TYPED_PARTS["seal_secrets"] = {"seal_secrets"}
TYPED_PARTS["revealed_seal_codes"] = {"revealed_seal_codes"}
TYPED_PARTS["seal_codes"] = {"seal_codes", "seal_codes_part"}
TYPED_PARTS["pin_failures"] = {"pin_failures", "pin_failures_part"}
TYPED_PARTS["computer_seats"] = {"computer_seats", "computer_seats_part"}
TYPED_PARTS["seal_log"] = {"seal_log", "seal_log_part"}
TYPED_PARTS["seating"] = {"seating"}
TYPED_PARTS["notes"] = {"notes"}
TYPED_PARTS["late_orders"] = {"late_orders"}
# (``hotseat`` is also the name of the window's ``HotSeatSession``, which has no keys: a key of it
# is a mistake too; the package's locals holding the table's part are named ``saved_turn``)
TYPED_PARTS["hotseat"] = {"hotseat", "saved_turn"}
# who plays which power, their PINs and tournament ids, the pending declarations: ``players``,
# ``pins`` and ``declarations`` name many other things (the hot-seat turn's copies, the settings', a
# result's, a dialog's, a function's parameter), so only the table's attribute counts ("table.x":
# ``table.players``, ``c.table.pins``, ``self._state().player_ids``), with its maker (none for
# player_ids: a board call writes it whole)
TYPED_PARTS["players"] = {"table.players", "players_part"}
TYPED_PARTS["pins"] = {"table.pins", "pins_part"}
TYPED_PARTS["player_ids"] = {"table.player_ids"}
TYPED_PARTS["declarations"] = {"table.declarations", "declarations_part"}
# the phones' inner maps (``PhonesPart.NESTED``): by the phones' attribute ("phones.x":
# ``phones.kicked``, ``self._phones.joins``, ``self.table.phones_part().tokens``), by the locals and
# makers of table/phonebook.py and the host that hold them (``tokens``, ``devices``, ``joins`` name the
# phonebook's functions and the dialog's widgets too: the attribute only)
TYPED_PARTS["phones.tokens"] = {"phones.tokens"}
TYPED_PARTS["phones.devices"] = {"phones.devices", "device_map", "_devices_part"}
TYPED_PARTS["phones.device"] = {"device_record"}  # one entry of it (``DevicePart``)
TYPED_PARTS["phones.kicked"] = {"phones.kicked", "kicked", "_kicked_part"}
TYPED_PARTS["phones.joins"] = {"phones.joins"}
TYPED_PARTS["phones.revealed_declarations"] = {"phones.revealed_declarations"}
TYPED_PARTS["phones.clock"] = {"phones.clock", "phone_clock"}
# the typed maps and lists inside the other parts (``JsonPart.NESTED``), by the part's name that
# holds them (``x.hotseat.pins``, ``c.table.seating.choices``) or a local that only ever holds one
# (``turn_pins``: the hot-seat turn's pins); ``codes``, ``choices``, ``settings`` alone name too many
# other things (a verdict's codes, the seating dialog's own choices, the clock's settings)
TYPED_PARTS["hotseat.pins"] = {"hotseat.pins", "turn_pins"}
TYPED_PARTS["revealed_seal_codes.codes"] = {"revealed_seal_codes.codes"}
TYPED_PARTS["seating.choices"] = {"seating.choices"}
TYPED_PARTS["seating.draws"] = {"seating.draws"}
TYPED_PARTS["clock_state.settings"] = {"clock_state.settings"}
TYPED_PARTS["event.custom"] = {"event.custom"}
PART_KEYED = KEYED_READS | {"popitem"}


def _part_of(node: ast.expr, own: bool = False) -> str | None:
    """The typed part ``node`` names (``x.phones``, ``phones``, ``x.phones_part()``,
    ``x.part("phones")``), else ``None``; ``own``: ``self`` is the table (``TableState``'s methods)."""
    if isinstance(node, ast.BoolOp):  # ``(x.phones or {})``
        return next((part for v in node.values if (part := _part_of(v, own))), None)
    if isinstance(node, ast.Call):
        if _ends_with(node.func, "part") and node.args and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value in TYPED_PARTS:
            return str(node.args[0].value)
        node = node.func
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if not name.endswith("_part"):  # ``computer_seats(table)``: a function's plain dict, not the part
            return None
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if isinstance(node, ast.Attribute) and (outer := _part_of(node.value, own)):  # ``phones.kicked``
        inner = f"{outer}.{name}"
        found = next((part for part, names in TYPED_PARTS.items() if inner in names), None)
        if found:
            return found
    if isinstance(node, ast.Attribute) and (_holds_table(node.value) or own and _is_self(node.value)):
        qualified = f"table.{name}"
        found = next((part for part, names in TYPED_PARTS.items() if qualified in names), None)
        if found:
            return found
    return next((part for part, names in TYPED_PARTS.items() if name in names), None)


def _holds_table(node: ast.expr) -> bool:
    """``table``, ``x.table``, ``x.table()``, ``self._state()``: the table record itself."""
    return _is_table(node) or (isinstance(node, ast.Call) and _ends_with(node.func, "_state"))


def keyed_part_access(modules: list[tuple[str, ast.Module]]) -> list[str]:
    """Every ``phones["sealed"]``, ``x.phones.get("kicked")``, ``"k" in phones`` ... in the typed rooms."""
    bad = []
    for rel, tree in modules:
        if not _allowed(rel, TYPED_ROOMS):
            continue
        own = _allowed(rel, TYPED_BOUNDARY)
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Subscript) and (part := _part_of(node.value, own)):
                bad.append(f"{where}: reads the table's {part} by a key")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in PART_KEYED and (part := _part_of(node.func.value, own)):
                bad.append(f"{where}: {part}.{node.func.attr}(...) (a key of the table's {part})")
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                    and any(_part_of(c, own) for c in node.comparators):
                bad.append(f"{where}: asks whether a typed part of the table holds a key")
    return bad


def test_doors_the_tables_typed_parts_are_read_by_attributes_only() -> None:
    assert keyed_part_access(_modules()) == []


def test_doors_the_typed_parts_scan_finds_every_keyed_access() -> None:
    probe = ast.parse(
        "def f(c, self, phones):\n"
        "    a = c.table.phones.get('sealed', [])\n"
        "    b = phones['phase']\n"
        "    self.table.part('phones')['declarations_revealed'] = 'S1901M'\n"
        "    self.table.phones_part().pop('sealed', None)\n"
        "    e = 'kicked' in self._phones\n"
        "    phones.setdefault('joins', {})\n"
        "    j = (host.table.phones or {}).get('joins', {})\n"
        "    g = c.table.phones.sealed\n"  # typed: fine
        "    c.table.phones.tokens.update(new)\n"  # the typed value's own record (the phones' links)
        "    h = computer_seats(c.table)['france']\n"  # a function's plain dict: not this scan's
        "    k = c.table.players.get('FRANCE')\n"
        "    self.table.pins['FRANCE'] = h\n"
        "    m = 'FRANCE' in self._state().declarations\n"
        "    n = table.player_ids.items()\n"
        "    o = result.players.get('FRANCE', '')\n"  # another record's players: fine
        "    q = self.pins.get('FRANCE')\n"  # the hot-seat turn's own (not the table's): fine
        "    r = declarations.items()\n"  # a parameter of that name: fine
        "    c.table.players_part().put('FRANCE', 'Ann')\n"  # typed: fine
    )
    found = keyed_part_access([("table/probe.py", probe)])
    assert len(found) == 12, found
    assert len(keyed_part_access([("gui/table/probe.py", probe)])) == 12
    assert keyed_part_access([("io/probe.py", probe)]) == []
    # TableState's own methods: ``self`` is the table
    own = ast.parse("def f(self):\n    a = self.players.get('FRANCE')\n    b = self.pins['FRANCE']\n")
    assert len(keyed_part_access([("table/state.py", own)])) == 2
    assert keyed_part_access([("table/hotseat.py", own)]) == []


def test_doors_the_typed_parts_scan_finds_a_keyed_map_inside_the_phones_part() -> None:
    """The phones' inner maps (``PhonesPart.NESTED``) by the phones' attribute and the locals that hold them."""
    probe = ast.parse(
        "def f(c, self, phones, device_map, kicked, phone_clock, device_record):\n"
        "    a = phones.tokens['france']\n"
        "    b = (self._phones.joins or {}).get('france', 0)\n"
        "    self.table.phones_part().kicked['france'] = h\n"
        "    e = 'fra1' in c.table.phones.devices\n"
        "    device_map.pop('fra1')\n"
        "    kicked.pop('france', None)\n"
        "    g = phone_clock['remaining']\n"
        "    i = device_record.get('power')\n"
        "    j = self._phones.revealed_declarations.items()\n"
        "    k = _devices_part(phones)['fra1']\n"
        "    m = phones.clock.title\n"  # typed: fine
        "    n = phones.joins.of('france')\n"  # typed: fine
        "    o = self.devices.currentData()\n"  # the dialog's list of devices: fine
        "    q = phonebook.tokens(phones)['france']\n"  # a function's plain dict: fine
        "    r = host.devices()[0]\n"  # a function's plain list: fine
        "    s = c.table.clock['spring_minutes']\n"  # the table's own clock: its part, as before
    )
    found = {int(f.split(":")[1]): f for f in keyed_part_access([("table/probe.py", probe)])}
    assert sorted(found) == [*range(2, 12), 17], found
    assert "phones.tokens" in found[2] and "phones.device." in found[9] and "table's clock by a key" in found[17]


def test_doors_the_typed_parts_scan_finds_a_keyed_hot_seat_turn() -> None:
    """The table's hot-seat turn (``HotSeatPart``) by its attribute and by the locals that hold it."""
    probe = ast.parse(
        "def f(c, self, saved_turn):\n"
        "    a = c.table.hotseat.get('pins')\n"
        "    b = saved_turn['phase']\n"
        "    e = 'round' in self.table.hotseat\n"
        "    saved_turn['sealed'] = []\n"
        "    g = c.table.hotseat.pins\n"  # typed: fine
        "    h = self.session.hotseat.sealed\n"  # the window's HotSeatSession, by attribute: fine
    )
    found = keyed_part_access([("table/probe.py", probe)])
    assert sorted(f.split(":")[1] for f in found) == ["2", "3", "4", "5"], found


def test_doors_the_typed_parts_scan_finds_a_keyed_map_inside_a_part() -> None:
    """The maps inside the typed parts (``JsonPart.NESTED``): the turn's pins, the revealed codes,
    the seating's choices and draws, the running clock's settings."""
    probe = ast.parse(
        "def f(c, self, turn_pins, seating, verdict):\n"
        "    a = c.table.hotseat.pins.get('france')\n"
        "    turn_pins['france'] = h\n"
        "    e = 'france' in turn_pins\n"
        "    g = self.table.revealed_seal_codes.codes.items()\n"
        "    k = seating.choices['Ann']\n"
        "    m = c.table.seating.draws[0]\n"
        "    n = c.table.clock_state.settings.get('spring_minutes')\n"
        "    o = c.table.hotseat.pins.of('france')\n"  # typed: fine
        "    q = verdict.codes.get('france')\n"  # a verdict's own dict: fine
        "    r = self.choices['Ann']\n"  # the seating dialog's own: fine
        "    t = self.session.hotseat.sealed\n"  # not a map of the part: fine
    )
    found = keyed_part_access([("table/probe.py", probe)])
    assert sorted(int(f.split(":")[1]) for f in found) == [2, 3, 4, 5, 6, 7, 8], found
    assert len(keyed_part_access([("host/probe.py", probe)])) == 7
    # TableState's own methods: ``self.hotseat`` is the table's turn
    own = ast.parse("def f(self):\n    a = self.hotseat.pins.get('france')\n")
    assert len(keyed_part_access([("table/state.py", own)])) == 1
