"""A scripted table: seven powers enter the standard Spring 1901 openings by mouse, with drag and drop.

The real app runs on an X display (its own Xvfb unless ``--display`` is given) through Qt's xcb
platform, and every input is a real X event sent with xdotool: a click on a button, or one drag of a
unit from its place onto the *name* of its destination (where a person aims).  The script reads
where things are from the running window (this process is the app) and counts the inputs:

    python bench/table_entry.py [--size 1366x768] [--display :23] [--shots DIR] [--year]

It prints one line per power, then the total inputs, the misorders (orders given that differ
from the openings meant) and the seconds taken, and exits non-zero on a misorder.  Inputs
counted: the New Game settings (the wheel where the settings scroll, tick "No PINs", the host's
passphrase typed twice, Start game), then Write orders now and per power: "I am <power>", one drag
per unit, "Review and seal…", "Seal my orders", "I have noted it — hide my code".
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the openings meant: province of the unit -> destination (every unit moves; A Ven - Tyr for Italy)
OPENINGS: dict[str, list[tuple[str, str]]] = {
    "austria": [("vie", "gal"), ("bud", "ser"), ("tri", "alb")],
    "england": [("lon", "nth"), ("edi", "nwg"), ("lvp", "yor")],
    "france": [("par", "bur"), ("mar", "spa"), ("bre", "mao")],
    "germany": [("ber", "kie"), ("mun", "ruh"), ("kie", "den")],
    "italy": [("ven", "tyr"), ("rom", "apu"), ("nap", "ion")],
    "russia": [("mos", "ukr"), ("war", "gal"), ("sev", "bla"), ("stp", "bot")],
    "turkey": [("con", "bul"), ("smy", "con"), ("ank", "bla")],
}
#: --year: Fall 1901 after those openings (no unit is dislodged), then the winter's builds
FALL: dict[str, list[tuple[str, str]]] = {
    "austria": [("ser", "gre"), ("vie", "bud"), ("alb", "tri")],
    "england": [("nwg", "nwy"), ("nth", "bel"), ("yor", "lon")],
    "france": [("spa", "por"), ("mao", "bre"), ("bur", "mar")],
    "germany": [("kie", "hol"), ("ruh", "mun"), ("den", "swe")],
    "italy": [("ion", "tun"), ("apu", "nap"), ("tyr", "ven")],
    "russia": [("ukr", "rum"), ("war", "gal"), ("sev", "bla"), ("bot", "fin")],
    "turkey": [("ank", "bla"), ("con", "smy"), ("bul", "ser")],
}
SETTLE_MS = 350  # after each input, before looking again
PASSPHRASE = "table-entry-1901"  # the host's passphrase typed into New Game


def start_xvfb(size: str) -> tuple[subprocess.Popen[bytes], str]:
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        raise SystemExit("table_entry: Xvfb gave no display")
    return proc, f":{number}"


class Driver:
    """Sends X input with xdotool and counts it."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.inputs = 0
        self.log: list[str] = []

    def _xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], check=True, env={**os.environ, "DISPLAY": self.display})

    def click(self, x: int, y: int, what: str) -> None:
        self.inputs += 1
        self.log.append(f"click {what} at {x},{y}")
        self._xdo("mousemove", str(x), str(y), "sleep", "0.05", "click", "1")

    def type(self, text: str, what: str) -> None:
        self.inputs += 1
        self.log.append(f"type {what}")
        self._xdo("type", "--delay", "30", text)

    def drag(self, a: tuple[int, int], b: tuple[int, int], what: str) -> None:
        self.inputs += 1
        self.log.append(f"drag {what} {a} -> {b}")
        (x0, y0), (x1, y1) = a, b
        steps = ["mousemove", str(x0), str(y0), "sleep", "0.05", "mousedown", "1"]
        for k in range(1, 6):
            steps += ["sleep", "0.03", "mousemove", str(round(x0 + (x1 - x0) * k / 5)), str(round(y0 + (y1 - y0) * k / 5))]
        steps += ["sleep", "0.05", "mouseup", "1"]
        self._xdo(*steps)


def play_steps(app: object, steps: Iterator[int], failed: Callable[[Exception], None], limit_ms: int) -> None:
    """Run ``steps`` on ``app``'s event loop until it ends: each step yields how long to wait (ms)
    before the next; a step that fails is handed to ``failed`` and ends the run, and so does
    ``limit_ms`` (a benchmark never hangs)."""
    from PySide6.QtCore import QTimer

    def tick() -> None:
        try:
            wait = next(steps)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001  (a failed step ends the run with its reason)
            failed(exc)
            app.quit()  # type: ignore[attr-defined]
            return
        QTimer.singleShot(wait, tick)

    QTimer.singleShot(1500, tick)
    QTimer.singleShot(limit_ms, app.quit)  # type: ignore[attr-defined]
    app.exec()  # type: ignore[attr-defined]


def on_own_display(name: str, size: str, display: str | None, body: Callable[[str], int]) -> int:
    """Run ``body(display)`` with the app's files in a fresh temporary folder, on ``display`` or on an
    Xvfb of ``size`` started (and stopped) here; ``name`` names the script in a missing-tool message."""
    for tool in ("xdotool",) + (() if display else ("Xvfb",)):
        if shutil.which(tool) is None:
            raise SystemExit(f"{name}: {tool} is needed")
    xvfb = None
    if display is None:
        xvfb, display = start_xvfb(size)
    work = Path(tempfile.mkdtemp(prefix=f"{name.replace('_', '-')}-"))
    os.environ.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", DIPLOMACY_DESKTOP_DATA=str(work / "data"),
                      XDG_CONFIG_HOME=str(work / "config"), XDG_DATA_HOME=str(work / "home"),
                      XDG_CACHE_HOME=str(work / "cache"))
    try:
        return body(display)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1366x768", help="screen size of the Xvfb started (default 1366x768)")
    parser.add_argument("--display", help="use this X display instead of starting an Xvfb")
    parser.add_argument("--shots", type=Path, help="save screenshots of each power's board here")
    parser.add_argument("--clicks", action="store_true",
                        help="give each move by two clicks (the unit, then the destination's name), not a drag")
    parser.add_argument("--year", action="store_true",
                        help="go on: reveal, Fall 1901 by drag and drop (by clicks with --clicks), then the winter's builds by clicking "
                             "the names of the lit centres (A for an army where a coast asks)")
    args = parser.parse_args(argv)
    return on_own_display("table_entry", args.size, args.display,
                          lambda display: run_table(display, args.shots, args.year, args.clicks))


def run_table(display: str, shots: Path | None, year: bool = False, clicks: bool = False) -> int:
    from PySide6.QtCore import QPoint, QPointF, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from diplomacy_desktop.gui.app import make_application
    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.gui.table.dialogs import NewGameDialog
    from diplomacy_desktop.gui.table.features import install_table_features
    from diplomacy_desktop.gui.table.hotseat.review import ReviewDialog
    from diplomacy_desktop.io.notation import format_order

    app = make_application()
    controller = GameController()
    window = MainWindow(controller)
    window.ask_before_closing = False  # the run ends with app.quit(): no "Save changes?" to answer
    features = install_table_features(window)
    window.show()
    features.first_start()
    drive = Driver(display)
    started = time.monotonic()
    rows: list[str] = []
    setup: list[int] = []  # inputs spent on the New Game settings
    misorders: list[str] = []
    done: list[float] = []  # when the last power sealed
    spring_end: list[int] = []  # inputs when the last power sealed Spring 1901

    def centre(widget: QWidget) -> tuple[int, int]:
        p = widget.mapToGlobal(QPoint(widget.width() // 2, widget.height() // 2))
        return p.x(), p.y()

    def on_screen(scene_point: QPointF) -> tuple[int, int]:
        view = window.view
        p = view.viewport().mapToGlobal(view.mapFromScene(scene_point))
        return p.x(), p.y()

    def shoot(name: str) -> None:
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            # the whole X screen, grabbed by the app itself (ImageMagick's import is not everywhere)
            app.primaryScreen().grabWindow(0).save(str(shots / f"{name}.png"))

    def find(kind: type) -> QWidget | None:
        return next((w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()), None)

    def wheel_into_view(dialog: NewGameDialog, widget: QWidget) -> Iterator[int]:
        """Turn the mouse wheel over the settings until ``widget`` lies wholly inside their scroll area
        (below 768 px the passphrase row is under the dialog's buttons)."""
        port = dialog.settings_scroll.viewport()
        for _ in range(20):
            top = widget.mapTo(port, QPoint(0, 0)).y()
            if top >= 0 and top + widget.height() <= port.height():
                return
            x, y = centre(dialog.settings_scroll.verticalScrollBar())  # not over a box the wheel would change
            drive.inputs += 1
            drive.log.append("wheel over the settings")
            drive._xdo("mousemove", str(x), str(y), "click", "5" if top > 0 else "4")
            yield 150
        raise RuntimeError("the New Game settings never scrolled to the field")

    def hide_seal_code() -> Iterator[int]:
        """The seal code stays large on the curtain until its power hides it (issue 34): one click."""
        done = features.flow.curtain.seal_done_button
        if done.isVisible():
            drive.click(*centre(done), "I have noted it - hide my code")
            yield SETTLE_MS

    def press(key: str, what: str) -> None:
        drive.inputs += 1
        drive.log.append(f"key {key} ({what})")
        drive._xdo("key", key)

    def seal_all(moves: dict[str, list[tuple[str, str]]] | None, label: str) -> Iterator[int]:
        """Each power in turn: "I am ...", its moves by drag (or its builds by clicks), review, seal."""
        flow = features.flow
        while flow.session.next_power is not None:
            power = flow.session.next_power
            before = drive.inputs
            drive.click(*centre(flow.curtain.open_button), f"I am {power}")
            yield SETTLE_MS
            if moves is not None:
                for prov, dest in moves[power]:
                    if prov not in window.scene.unit_items:  # an earlier misorder left it elsewhere
                        misorders.append(f"{label or 'Spring'} {power}: no unit in {prov} to move to {dest}")
                        continue
                    unit = window.scene.unit_items[prov]
                    name = window.scene.label_items[dest]
                    target = name.mapToScene(name.text_rect().center())  # the name, where a person aims
                    if clicks:  # click the unit, then the destination's name
                        drive.click(*on_screen(unit.pos()), f"unit in {prov}")
                        yield SETTLE_MS
                        drive.log.append(f"  said: {window.hint_label.text()} | {window.statusBar().currentMessage()}"
                                         f" | zoom {window.view.transform().m11():.3f}")
                        target = name.mapToScene(name.text_rect().center())  # (where it is in the view now)
                        drive.click(*on_screen(target), f"to {dest} (scene {target.x():.0f},{target.y():.0f})")
                        yield SETTLE_MS
                        drive.log.append(f"  said: {window.hint_label.text()} | {window.statusBar().currentMessage()}"
                                         f" | zoom {window.view.transform().m11():.3f}")
                    else:
                        drive.drag(on_screen(unit.pos()), on_screen(target), f"{prov} -> {dest}")
                    yield SETTLE_MS
            else:  # winter: click the name of each lit centre of this power, as long as builds are owed
                from diplomacy_desktop.engine.forfeits import buildable
                from diplomacy_desktop.gui.orders.interaction import BuildMode

                for _ in range(buildable(controller.state, power)):
                    lit = sorted(s for s in window.interaction.idle_lit()
                                 if controller.board.spaces[s].home == power)
                    if not lit:
                        break
                    name = window.scene.label_items[lit[0]]
                    drive.click(*on_screen(name.mapToScene(name.text_rect().center())), f"build in {lit[0]}")
                    yield SETTLE_MS
                    if isinstance(window.interaction.mode, BuildMode):
                        press("Escape", "close the menu")  # the build menu: the key A instead
                        yield 150
                        window.view.setFocus()
                        press("a", "army")
                        yield SETTLE_MS
            shoot(f"{label or 'Spring'}-{power}")
            given = {format_order(o) for o in controller.game.orders_of(power)}
            if moves is not None:
                meant = {format_order(o) for o in expected_orders(controller, moves[power], power)}
                if given != meant:
                    misorders.append(f"{label or 'Spring'} {power}: gave {sorted(given)}, meant {sorted(meant)}\n      "
                                     + "\n      ".join(drive.log[-3 * len(moves[power]) - 1:]))
            drive.click(*centre(flow.strip.seal_button), "Review and seal")
            yield SETTLE_MS
            review = find(ReviewDialog)
            waited = 0
            while review is None:
                waited += 1
                if waited > 50:
                    raise RuntimeError(f"no review dialog for {power} ({label})")
                yield 100
                review = find(ReviewDialog)
            drive.click(*centre(review.seal_button), "Seal my orders")
            yield SETTLE_MS
            yield from hide_seal_code()
            head = f"{label:<6} " if label else ""
            rows.append(f"  {head}{controller.power_name(power):<8} {drive.inputs - before:2d} inputs  "
                        f"{'; '.join(sorted(given)) or '-'}")

    def reveal_and_continue() -> Iterator[int]:
        drive.click(*centre(features.flow.curtain.reveal_button), "Reveal")
        yield SETTLE_MS * 3
        shoot(f"results-{controller.game.history[-1].state.phase.short}")
        if window.banner.isVisible():
            drive.click(*centre(window.banner_continue), "Continue")
            yield SETTLE_MS
        if features.clock.skip_button.isEnabled() and features.flow.session.stage == "open":
            drive.click(*centre(features.clock.skip_button), "Write orders now")
            yield SETTLE_MS
        if features.flow.session.stage == "open":  # no talks clock (winter): the strip's button
            drive.click(*centre(features.flow.strip.write_button), "Write orders")
            yield SETTLE_MS

    def steps() -> Iterator[int]:
        # the New Game settings of a first start: the standard game
        while find(NewGameDialog) is None:
            yield 100
        dialog = find(NewGameDialog)
        assert isinstance(dialog, NewGameDialog)
        # hot-seat secrecy asks for PINs or "No PINs", and the host's passphrase (issue 20)
        box = dialog.no_pins_box
        yield from wheel_into_view(dialog, box)
        drive.click(*centre(box), "No PINs")
        yield 150
        yield from wheel_into_view(dialog, dialog.passphrase_edit)
        drive.click(*centre(dialog.passphrase_edit), "the host's passphrase")
        yield 150
        drive.type(PASSPHRASE, "the passphrase")
        yield 150
        drive.click(*centre(dialog.passphrase_again), "the second passphrase field")  # a Tab was lost at times
        yield 150
        drive.type(PASSPHRASE, "the passphrase again")
        yield 150
        shoot("new-game")
        drive.click(*centre(dialog.start_button), "Start game")
        for _ in range(100):  # the passphrase's key is derived slowly, on purpose
            if find(NewGameDialog) is None:
                break
            yield 200
        else:
            raise RuntimeError(f"New Game refused the settings: {dialog.error_label.text()}")
        setup.append(drive.inputs)
        yield SETTLE_MS * 2
        drive.click(*centre(features.clock.skip_button), "Write orders now")
        yield SETTLE_MS
        yield from seal_all(OPENINGS, "")
        done.append(time.monotonic())
        spring_end.append(drive.inputs)
        shoot("all-sealed")
        if year:
            spring_inputs = drive.inputs
            yield from reveal_and_continue()
            yield from seal_all(FALL, "Fall")
            yield from reveal_and_continue()
            yield from seal_all(None, "Winter")
            yield from reveal_and_continue()
            rows.append(f"  year: {drive.inputs} inputs in all ({drive.inputs - spring_inputs} after Spring), "
                        f"now {controller.state.phase.label}")
        QTimer.singleShot(0, app.quit)

    def failed(exc: Exception) -> None:
        print(f"table_entry: step failed: {exc!r}", file=sys.stderr)
        print("\n".join(drive.log[-8:]), file=sys.stderr)
        misorders.append(f"step failed: {exc!r}")

    play_steps(app, steps(), failed, 600_000)
    seconds = (done[0] if done else time.monotonic()) - started
    screen = app.primaryScreen().size()
    print(f"table_entry: Spring 1901, seven powers, by mouse with {'clicks' if clicks else 'drag and drop'} on {screen.width()}x{screen.height()}"
          f" (xcb, {display})")
    print("\n".join(rows))
    spring = sum(1 for r in rows if r.startswith("  ") and not r.lstrip().startswith(("Fall", "Winter", "year")))
    first = setup[0] if setup else 0
    entry = (spring_end[0] if spring_end else drive.inputs) - first
    print(f"  inputs: {drive.inputs} ({first} for the New Game settings: wheel, No PINs, the passphrase twice, Start game; "
          f"{entry} to enter Spring 1901)   misorders: {len(misorders)}   powers sealed in Spring: {spring}/7   "
          f"time: {seconds:.1f} s")
    for m in misorders:
        print(f"  MISORDER {m}")
    return 1 if misorders or spring != 7 else 0


def expected_orders(controller: object, moves: list[tuple[str, str]], power: str) -> list[object]:
    """The moves meant, as orders (the unit standing in each province now)."""
    from diplomacy_desktop.engine.orders import Move

    state = controller.state  # type: ignore[attr-defined]
    out = []
    for prov, dest in moves:
        unit = state.units.get(prov)
        if unit is None:  # (said as a misorder where the move was to be given)
            continue
        out.append(Move(power, unit.kind, unit.location, dest))
    return out


if __name__ == "__main__":
    raise SystemExit(main())
