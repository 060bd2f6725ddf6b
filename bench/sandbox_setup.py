"""A scripted teacher: sets up rulebook Example 1 and a retreat lesson from an empty board, by mouse.

The real app runs on an X display (its own Xvfb unless ``--display`` is given) through Qt's xcb
platform; every input is a real X event sent with xdotool (a key, or a click on a button, on the
set-up palette or on a space of the map).  The script reads where things are from the running
window (this process is the app) and counts the inputs:

    python bench/sandbox_setup.py [--size 1366x768] [--display :23] [--shots DIR]

Example 1 (seed 000): England F Den, F Nth, F Hel; Russia A Ber, F Bal, F Ska.  Then the retreat
lesson after Example 5: the board cleared, the phase set to Spring 1901 Retreat, Russian armies in
Bulgaria, Serbia and Rumania, the Turkish army dislodged from Bulgaria by the attack from Rumania,
and Greece marked as left empty by a standoff (no retreat there, rules XI).  It prints the inputs
and seconds of each part and exits non-zero when the position set up is not the one meant.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from table_entry import Driver, on_own_display, play_steps

SETTLE_MS = 300
EXAMPLE_1 = {("england", "F", "den"), ("england", "F", "nth"), ("england", "F", "hel"),
             ("russia", "A", "ber"), ("russia", "F", "bal"), ("russia", "F", "ska")}
RETREAT = {("russia", "A", "bul"), ("russia", "A", "ser"), ("russia", "A", "rum")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--display", help="use this X display instead of starting an Xvfb")
    parser.add_argument("--shots", type=Path, help="save screenshots here")
    args = parser.parse_args(argv)
    return on_own_display("sandbox_setup", args.size, args.display, lambda display: run(display, args.shots))


def run(display: str, shots: Path | None) -> int:
    import subprocess

    from PySide6.QtCore import QPoint, QPointF, QTimer
    from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox, QPushButton, QToolButton, QWidget

    from diplomacy_desktop.engine.validation import retreat_destinations
    from diplomacy_desktop.gui.app import make_application
    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.gui.teach import sandbox as sandbox_module
    from diplomacy_desktop.gui.teach.sandbox import DislodgedDialog, SandboxMode

    app = make_application()
    window = MainWindow(GameController())
    window.ask_before_closing = False
    window.show()
    drive = Driver(display)
    rows: list[str] = []
    problems: list[str] = []

    def centre(widget: QWidget) -> tuple[int, int]:
        p = widget.mapToGlobal(QPoint(widget.width() // 2, widget.height() // 2))
        return p.x(), p.y()

    def sandbox() -> SandboxMode:
        w = sandbox_module._WINDOWS[-1]
        assert isinstance(w.mode, SandboxMode)
        return w.mode

    def on_map(space: str) -> tuple[int, int]:
        mode = sandbox()
        view = mode.window.view
        x, y = mode.window.geometry_data.unit_anchor(space)
        p = view.viewport().mapToGlobal(view.mapFromScene(QPointF(x, y)))
        return p.x(), p.y()

    def palette(name: str) -> None:
        bar = sandbox().palette
        button = bar.findChild(QToolButton, f"Palette_{name}")
        assert button is not None, name
        drive.click(*centre(button), f"palette {name}")

    def space(name: str) -> None:
        drive.click(*on_map(name), name)

    def shoot(name: str) -> None:
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            subprocess.run(["import", "-display", display, "-window", "root", str(shots / f"{name}.png")],
                           check=False)

    def modal(kind: type) -> QWidget:
        w = QApplication.activeModalWidget()
        assert isinstance(w, kind), f"expected a {kind.__name__}, found {w!r}"
        return w

    def steps() -> Iterator[int]:
        start = time.monotonic()
        bar = window.menuBar()
        game = window.act_new_sandbox.associatedObjects()
        game_menu = next(m for m in game if hasattr(m, "menuAction") and m is not bar)
        r = bar.actionGeometry(game_menu.menuAction())
        p = bar.mapToGlobal(r.center())
        drive.click(p.x(), p.y(), "Game menu")
        yield 500
        r = game_menu.actionGeometry(window.act_new_sandbox)
        p = game_menu.mapToGlobal(r.center())
        drive.click(p.x(), p.y(), "New sandbox")
        yield 800
        box = modal(QMessageBox)
        empty = next(b for b in box.findChildren(QPushButton) if "Empty" in b.text())
        drive.click(*centre(empty), "Empty board")
        yield 1500
        mode = sandbox()
        for name in ("england", "F"):
            palette(name)
            yield SETTLE_MS
        for s in ("den", "nth", "hel"):
            space(s)
            yield SETTLE_MS
        palette("russia")
        yield SETTLE_MS
        palette("A")
        yield SETTLE_MS
        space("ber")
        yield SETTLE_MS
        palette("F")
        yield SETTLE_MS
        for s in ("bal", "ska"):
            space(s)
            yield SETTLE_MS
        got = {(u.power, u.kind, u.location) for u in mode.controller.state.units.values()}
        if got != EXAMPLE_1:
            problems.append(f"Example 1: set up {sorted(got)}")
        rows.append(f"  Example 1 from an empty board: {drive.inputs} inputs, {time.monotonic() - start:.1f} s")
        shoot("sandbox-example1")
        # the retreat lesson after Example 5
        first, start = drive.inputs, time.monotonic()
        palette("clear")
        yield SETTLE_MS
        panel = mode.panel
        drive.click(*centre(panel.kind), "phase kind")
        yield SETTLE_MS
        drive._xdo("key", "Down", "key", "Return")  # Movement -> Retreat
        drive.inputs += 1
        yield SETTLE_MS
        drive.click(*centre(panel.set_phase_button), "Set")
        yield SETTLE_MS
        palette("A")
        yield SETTLE_MS
        for s in ("bul", "ser", "rum"):
            space(s)
            yield SETTLE_MS
        palette("menu")
        yield SETTLE_MS
        x, y = on_map("bul")
        drive.inputs += 1
        drive._xdo("mousemove", str(x), str(y + 12), "sleep", "0.05", "click", "3")  # the set-up menu
        yield 500
        menu = mode.last_menu
        assert menu is not None and menu.isVisible(), "no set-up menu"
        act = next(a for a in menu.actions() if a.text().startswith("Place a dislodged"))
        r = menu.actionGeometry(act)
        p = menu.mapToGlobal(r.center())
        drive.click(p.x(), p.y(), "Place a dislodged unit…")
        yield 600
        dialog = modal(DislodgedDialog)
        for combo, text in ((dialog.power, "Turkey"), (dialog.attacker, "Rumania")):
            assert isinstance(combo, QComboBox)
            drive.click(*centre(combo), f"{text} combo")
            yield 400
            drive._xdo("type", "--delay", "40", text)
            drive._xdo("key", "Return")
            drive.inputs += 1
            yield 400
        ok = next(b for b in dialog.findChildren(QPushButton) if b.text().replace("&", "") == "OK")
        drive.click(*centre(ok), "OK")
        yield SETTLE_MS
        palette("standoff")
        yield SETTLE_MS
        space("gre")
        yield SETTLE_MS
        st = mode.controller.state
        got = {(u.power, u.kind, u.location) for u in st.units.values()}
        dislodged = [(d.unit.power, d.unit.kind, d.unit.location, d.attacker_from) for d in st.dislodged]
        if got != RETREAT or dislodged != [("turkey", "A", "bul", "rum")] or st.contested != {"gre"}:
            problems.append(f"retreat lesson: {sorted(got)} {dislodged} {sorted(st.contested)} {st.phase.label}")
        rows.append(f"  retreat lesson (clear, phase, 3 armies, dislodged unit, standoff mark): "
                    f"{drive.inputs - first} inputs, {time.monotonic() - start:.1f} s; the Turkish army may "
                    f"retreat to {', '.join(retreat_destinations(st, 'bul')) or 'nowhere'}")
        shoot("sandbox-retreat-setup")
        # set-up off: the dislodged army's retreats are lit (not Greece, not Rumania)
        drive._xdo("key", "ctrl+shift+u")
        drive.inputs += 1
        yield SETTLE_MS
        item = mode.window.scene.displaced_items["bul"]
        view = mode.window.view
        p = view.viewport().mapToGlobal(view.mapFromScene(item.pos()))
        drive.click(p.x(), p.y(), "the dislodged Turkish army")
        yield 600
        lit = set(mode.window.scene.lit)
        if "gre" in lit or "rum" in lit:
            problems.append(f"retreat lit where the rules forbid: {sorted(lit)}")
        rows.append(f"  lit for the retreat: {', '.join(sorted(lit))}")
        shoot("sandbox-retreat-lit")
        QTimer.singleShot(0, app.quit)

    def failed(exc: Exception) -> None:
        problems.append(f"step failed: {exc!r}")
        print("\n".join(drive.log[-8:]), file=sys.stderr)

    play_steps(app, steps(), failed, 120_000)
    screen = app.primaryScreen().size()
    print(f"sandbox_setup: a teacher's set-up by mouse on {screen.width()}x{screen.height()} (xcb, {display})")
    print("\n".join(rows))
    print(f"  inputs: {drive.inputs}   problems: {len(problems)}")
    for p in problems:
        print(f"  PROBLEM {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
