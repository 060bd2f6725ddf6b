"""Issue 31, the prompts of the laptop's window: resuming without the passphrase (finding 9), the
offer to resume an unfinished game (finding 12) and the file dialogs in table mode (finding 13).
Each test reproduces its finding against the real window (pytest-qt); each failed before the fix."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from host_stand_in import Host
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QLineEdit, QMessageBox, QPushButton

from diplomacy_desktop.engine.orders import Hold
from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.table.hotseat import hash_pin
from diplomacy_desktop.gui.table.persistence import Autosave

HOST_PIN = "7391"
PASSPHRASE = "the host's long passphrase"


@pytest.fixture
def host() -> Host:
    return Host(typed=HOST_PIN, passphrase=PASSPHRASE)


@pytest.fixture
def features_options(host: Host) -> dict[str, Any]:
    return {"confirm": host.confirm, "host_prompt": host.prompt, "passphrase_prompt": host.passphrase_prompt}


def _crashed_secret_game(table, features) -> str:  # type: ignore[no-untyped-def]
    """A secret game with a host PIN: the first power seals a hold, then the app is killed.
    The power that sealed."""
    f, c = features, table.controller
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN), passphrase=PASSPHRASE))
    f.act_write.trigger()
    f.flow.curtain.open_button.click()
    sealed = f.flow.session.current
    assert sealed is not None
    table.hold(next(iter(c.state.units_of(sealed))).province)
    f.strip.seal_button.click()
    assert sealed in f.flow.session.sealed
    assert f.autosaver.save_now()
    f.autosaver.autosave.close()  # killed: the database as a restart finds it
    return sealed


def _restart(qtbot, table, tmp_path: Path, host: Host):  # type: ignore[no-untyped-def]
    """A new window on the same data folder (the app started again after the crash)."""
    from window_harness import shared_geometry

    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.gui.table.features import install_table_features

    c2 = GameController()
    w2 = MainWindow(c2, geometry=shared_geometry(c2), settings=table.window.settings, sharpen=False)
    w2.ask_before_closing = False
    qtbot.addWidget(w2)
    messages: list[tuple[str, str]] = []
    f2 = install_table_features(w2, autosave=Autosave(tmp_path / "data"), rng=random.Random(5),
                                review=lambda d: True, confirm=host.confirm, host_prompt=host.prompt,
                                passphrase_prompt=host.passphrase_prompt,
                                message=lambda _w, title, text: messages.append((title, text)))
    f2.messages = messages
    w2.show()
    return c2, f2


def _sealed_orders(tmp_path: Path, power: str) -> list[Any]:
    """The power's orders in the autosave, read with the passphrase (a fresh look at the file)."""
    autosave = Autosave(tmp_path / "data")
    try:
        assert autosave.is_secret(), "the autosave dropped its key"
        return list(autosave.open(passphrase=PASSPHRASE).game.orders_of(power))
    finally:
        autosave.close()


def _new_game_button(box: QMessageBox) -> QPushButton:
    return next(b for b in box.findChildren(QPushButton) if "New game" in b.text())


# -- finding 9: resuming without the passphrase wipes the others' seals ------------------------------------


def test_resume_without_the_passphrase_never_rewrites_the_sealed_game(qtbot, table, features, host,  # type: ignore[no-untyped-def]
                                                                      tmp_path: Path) -> None:
    sealed = _crashed_secret_game(table, features)
    assert len(_sealed_orders(tmp_path, sealed)) == 1
    c2, f2 = _restart(qtbot, table, tmp_path, host)
    try:
        f2.first_start()
        assert f2.resume_offer is not None
        host.passphrase = None  # Cancel at the passphrase prompt
        f2.resume_offer.resume_button.click()
        assert host.asked, "the passphrase was not asked"
        # whatever the curtain says was sealed must be there to reveal
        for power in f2.flow.session.sealed:
            assert c2.game.orders_of(power), f"the curtain claims {power} sealed, its orders are gone"
        # any order typed now, and every write after it, leaves the sealed game as it was
        other = next(p for p in c2.board.power_ids if p != sealed)
        if c2.can_order(other):
            c2.set_order(Hold(other, *_first_unit(c2, other)))
        f2.autosaver.schedule()
        f2.autosaver.save_now()
        f2.autosaver.autosave.close()
        assert len(_sealed_orders(tmp_path, sealed)) == 1
        # the passphrase given at last: the game comes back whole, the seal with it
        offer = f2.resume_offer
        assert offer is not None, "the unfinished game is no longer offered"
        host.passphrase = PASSPHRASE
        offer.resume_button.click()
        assert sealed in f2.flow.session.sealed and len(c2.game.orders_of(sealed)) == 1
        assert any("untouched" in text for _title, text in f2.messages)
    finally:
        f2.turn_off()


def _first_unit(c, power: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    unit = next(iter(c.state.units_of(power)))
    return unit.kind, unit.location


# -- finding 12: Escape (or New game) at "A game was left unfinished" destroys the game --------------------


def test_escape_at_the_resume_offer_discards_nothing(qtbot, table, features, host, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sealed = _crashed_secret_game(table, features)
    _c2, f2 = _restart(qtbot, table, tmp_path, host)
    try:
        f2.first_start()
        box = f2.resume_offer
        assert box is not None
        box.activateWindow()  # (the table's first window is still open in this test)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is box, timeout=3000)
        QTest.keyClick(box, Qt.Key.Key_Escape)
        qtbot.wait(20)
        assert f2.resume_offer is not None, "Escape answered the offer"
        f2.autosaver.save_now()  # whatever happens meanwhile writes nothing over the game
        f2.autosaver.autosave.close()
        assert len(_sealed_orders(tmp_path, sealed)) == 1
    finally:
        f2.turn_off()


def test_the_resume_offer_destroyed_from_outside_comes_back_and_discards_nothing(  # type: ignore[no-untyped-def]
        qtbot, table, features, host, tmp_path: Path) -> None:
    """Red team (issue 31, second pass): the offer's window destroyed behind Qt's back (under X,
    ``xdotool windowclose``; here its platform window destroyed) was never answered: the offer
    was gone (offscreen) or stayed modal and invisible (xcb), the app blocked and the autosave
    off.  Now it counts as no answer: the question comes back, and the game is kept."""
    sealed = _crashed_secret_game(table, features)
    c2, f2 = _restart(qtbot, table, tmp_path, host)
    try:
        f2.first_start()
        box = f2.resume_offer
        assert box is not None
        qtbot.waitUntil(lambda: box.windowHandle() is not None and box.isVisible(), timeout=3000)
        box.windowHandle().destroy()
        qtbot.waitUntil(lambda: f2.resume_offer is not None and f2.resume_offer is not box
                        and f2.resume_offer.isVisible(), timeout=3000)
        assert QApplication.activeModalWidget() is f2.resume_offer  # nothing invisible holds the window
        f2.autosaver.save_now()  # whatever happens meanwhile writes nothing over the game
        f2.autosaver.autosave.close()
        assert len(_sealed_orders(tmp_path, sealed)) == 1
        f2.resume_offer.resume_button.click()  # and the game resumes whole from the new offer
        assert sealed in f2.flow.session.sealed and len(c2.game.orders_of(sealed)) == 1
    finally:
        f2.turn_off()


def test_the_resume_offer_answered_asks_the_passphrase_once_even_with_a_real_prompt(  # type: ignore[no-untyped-def]
        qtbot, table, features, host, tmp_path: Path) -> None:
    """The watch for a lost offer must know the offer was answered before the answer opens the
    passphrase prompt: a real prompt runs its own event loop, and under X the watch (told only
    afterwards) took the answered box for a lost one and asked again, three prompts stacked."""
    sealed = _crashed_secret_game(table, features)
    c2, f2 = _restart(qtbot, table, tmp_path, host)
    asked: list[str] = []

    def prompt_with_its_own_loop(_parent: Any, text: str) -> str | None:
        asked.append(text)
        for _ in range(3):  # as QInputDialog.getText does while the host types
            QApplication.processEvents()
        return PASSPHRASE

    try:
        f2.passphrase_prompt = prompt_with_its_own_loop
        f2.first_start()
        box = f2.resume_offer
        assert box is not None
        qtbot.waitUntil(box.isVisible, timeout=3000)
        box.resume_button.click()
        for _ in range(3):
            QApplication.processEvents()
        assert len(asked) == 1, asked
        assert f2.resume_offer is None and sealed in f2.flow.session.sealed and c2.game.orders_of(sealed)
    finally:
        f2.turn_off()


def test_new_game_at_the_resume_offer_is_a_host_action_and_keeps_the_game_aside(  # type: ignore[no-untyped-def]
        qtbot, table, features, host, tmp_path: Path) -> None:
    sealed = _crashed_secret_game(table, features)
    c2, f2 = _restart(qtbot, table, tmp_path, host)
    try:
        f2.first_start()
        box = f2.resume_offer
        assert box is not None
        host.typed = "0000"  # a player who does not know the host PIN
        _new_game_button(box).click()
        assert host.prompts, "New game discards the unfinished game without the host PIN"
        assert f2.resume_offer is not None, "a wrong host PIN discarded the game"
        f2.autosaver.save_now()
        f2.autosaver.autosave.close()
        assert len(_sealed_orders(tmp_path, sealed)) == 1
        # the host: the unfinished game is kept aside, whole, never overwritten
        host.typed = HOST_PIN
        _new_game_button(f2.resume_offer).click()
        assert f2.resume_offer is None
        kept = list((tmp_path / "data").glob("autosave.unfinished-*.sqlite"))
        assert len(kept) == 1
        aside = Autosave(tmp_path / "data" / "aside")
        aside.folder.mkdir()
        kept[0].rename(aside.path)
        try:
            assert len(aside.open(passphrase=PASSPHRASE).game.orders_of(sealed)) == 1
        finally:
            aside.close()
        assert any(kept[0].name in text for _title, text in f2.messages)
        assert not c2.game.history  # a new game on the table, autosaved as usual
    finally:
        f2.turn_off()


# -- finding 13: the file dialogs can delete the autosave ---------------------------------------------------


def _dialog_seen(qtbot, opener, data: Path, name: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Open a file dialog with ``opener`` and look at it while it is shown: the player browses to
    the data folder, then types the path of ``name`` in it and presses Enter."""
    seen: dict[str, Any] = {}

    def close_boxes() -> None:  # whatever a chosen file brings up must not wait for a click
        for w in QApplication.topLevelWidgets():
            if isinstance(w, QMessageBox) and w.isVisible():
                w.reject()

    watchdog = QTimer()
    watchdog.timeout.connect(close_boxes)
    watchdog.start(50)

    def look() -> None:
        dialog = next((w for w in QApplication.topLevelWidgets()
                       if isinstance(w, QFileDialog) and w.isVisible()), None)
        if dialog is None:
            QTimer.singleShot(20, look)
            return
        seen["read_only"] = dialog.testOption(QFileDialog.Option.ReadOnly)
        seen["directory"] = Path(dialog.directory().absolutePath())
        dialog.setDirectory(str(data))
        QApplication.processEvents()
        seen["browsed"] = Path(dialog.directory().absolutePath())
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        edit.setText(str(data / name))  # or types a path in it
        qtbot.wait(300)  # (the dialog updates its button as its folder loads)
        box = dialog.findChild(QDialogButtonBox, "buttonBox")
        seen["accepts"] = any(b.isEnabled() for b in box.buttons()
                              if box.buttonRole(b) == QDialogButtonBox.ButtonRole.AcceptRole)
        QTest.keyClick(edit, Qt.Key.Key_Return)
        QApplication.processEvents()
        seen["entered"] = not dialog.isVisible()
        if dialog.isVisible():
            dialog.reject()

    QTimer.singleShot(0, look)
    try:
        seen["chosen"] = opener()
    finally:
        watchdog.stop()
    return seen


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve() == folder.resolve() or folder.resolve() in path.resolve().parents


def test_file_dialogs_in_table_mode_offer_no_file_operations_in_the_data_folder(  # type: ignore[no-untyped-def]
        qtbot, table, features, tmp_path: Path) -> None:
    f = features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    assert f.autosaver.save_now()
    data = f.autosaver.autosave.folder
    from diplomacy_desktop.gui.teach.sandbox import open_scenario_in_sandbox

    table.window.settings.setValue("sandbox/last_dir", str(data))
    table.window.settings.setValue("last_dir", str(data))
    openers = [(lambda: open_scenario_in_sandbox(table.window), "autosave.sqlite"),
               (lambda: QFileDialog.getOpenFileName(table.window, "Any", str(data)), "autosave.sqlite"),
               (lambda: QFileDialog.getSaveFileName(table.window, "Any", str(data / "x.dipl")), "x.dipl")]
    for opener, name in openers:
        seen = _dialog_seen(qtbot, opener, data, name)
        assert seen["read_only"], "the dialog offers Rename and Delete"
        assert not _inside(seen["directory"], data), "the dialog opened in the data folder"
        assert not _inside(seen["browsed"], data), "the dialog shows the data folder"
        assert not seen["accepts"], "a file in the data folder can be chosen"
        assert not seen["entered"], "Enter chose a file in the data folder"
        assert not seen["chosen"] or not seen["chosen"][0], seen["chosen"]
    assert f.autosaver.autosave.path.is_file()


# -- finding 9, the same door with a file: a secret save opened without its passphrase ----------------------


def _secret_save(table, features, tmp_path: Path) -> tuple[Path, str]:  # type: ignore[no-untyped-def]
    """A secret game saved to a file with one power's sealed order in it."""
    sealed = _crashed_secret_game(table, features)
    target = tmp_path / "secret.dipl"
    table.controller.save(target)
    return target, sealed


def test_a_secret_save_opened_without_its_passphrase_is_never_written_over(table, features, host,  # type: ignore[no-untyped-def]
                                                                          tmp_path: Path) -> None:
    from diplomacy_desktop.io.savefile import is_secret_file, open_game

    target, sealed = _secret_save(table, features, tmp_path)
    c = table.controller
    c.new_game()
    host.passphrase = None  # Cancel at the passphrase prompt
    table.window.show_error = lambda *_a: None  # (a message box would wait for a click)
    table.window.open_file(target)
    # the table plays no game whose seals it cannot honour ...
    for power in features.flow.session.sealed:
        assert c.game.orders_of(power), f"the curtain claims {power} sealed, its orders are gone"
    # ... and Ctrl+S writes nothing over the file's secrets
    if c.path is not None:
        table.window.save()
    assert is_secret_file(target)
    assert len(open_game(target, passphrase=PASSPHRASE).game.orders_of(sealed)) == 1


def test_outside_the_table_a_locked_save_opens_without_its_name(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The plain board shows a secret save's public board, but Save never overwrites the file
    whose secrets it could not read (it asks for another name)."""
    from window_harness import shared_geometry

    from diplomacy_desktop.engine.orders import Move
    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.io.vault import Vault

    played = GameController(table={"secrecy": True})
    played.set_order(Move("france", "A", "par", "pic"))
    played.vault = Vault.create(PASSPHRASE)
    target = tmp_path / "secret.dipl"
    played.save(target)
    c = GameController()
    w = MainWindow(c, geometry=shared_geometry(c), sharpen=False)
    w.ask_before_closing = False
    qtbot.addWidget(w)
    w.passphrase_prompt = lambda *_a: None
    w.show_error = lambda *_a: None  # type: ignore[method-assign]
    assert w.open_file(target)
    assert c.game.state == played.game.state and c.game.orders_of("france") == []
    assert c.path is None, "Ctrl+S would write the locked game over its file"


def test_starting_with_a_file_keeps_the_unfinished_game_aside(qtbot, table, features, host,  # type: ignore[no-untyped-def]
                                                             tmp_path: Path) -> None:
    """``diplomacy-desktop GAME.dipl`` after a crash: the file's game is autosaved from then on;
    the unfinished game is kept aside first, never overwritten."""
    sealed = _crashed_secret_game(table, features)
    other = tmp_path / "other.dipl"
    from diplomacy_desktop.gui.controller import GameController

    GameController().save(other)
    _c2, f2 = _restart(qtbot, table, tmp_path, host)
    try:
        opener = getattr(f2, "open_at_start", None) or f2.window.open_file  # (before: the window's Open)
        assert opener(str(other))
        f2.autosaver.save_now()
        f2.autosaver.autosave.close()
        kept = list((tmp_path / "data").glob("autosave.unfinished-*.sqlite"))
        assert len(kept) == 1, "the unfinished game was overwritten"
        aside = Autosave(tmp_path / "data" / "aside")
        aside.folder.mkdir()
        kept[0].rename(aside.path)
        try:
            assert len(aside.open(passphrase=PASSPHRASE).game.orders_of(sealed)) == 1
        finally:
            aside.close()
    finally:
        f2.turn_off()


def _prompts() -> list[tuple[str, Any, Any]]:
    from diplomacy_desktop.gui.table.hotseat.pin_prompt import ask_host_pin
    from diplomacy_desktop.gui.table.persistence import ask_passphrase, show_warning

    return [("The game's passphrase", lambda w: ask_passphrase(w, "The host's passphrase:"), None),
            ("Start a new game", lambda w: ask_host_pin(w, "Start a new game", "The host PIN:"), None),
            ("Not resumed", lambda w: show_warning(w, "Not resumed", "The passphrase is needed."), None)]


@pytest.mark.parametrize("which", range(3))
def test_a_prompt_lost_under_x_counts_as_cancel(qtbot, table, monkeypatch, which: int) -> None:  # type: ignore[no-untyped-def]
    """Red team (issue 31, second pass): under X, after Resume, ``xdotool windowclose`` on the
    passphrase prompt left it modal and invisible (its X window gone, Qt still showing it: the
    window unexposed while the main window was not) and the app blocked; so did the host PIN's
    prompt (New game at the offer) and the "Not resumed" message.  Such a prompt is now
    cancelled.  Here X's part is played by the prompt's window reporting itself unexposed, with
    the Expose event X would send."""
    from PySide6.QtGui import QExposeEvent, QRegion, QWindow

    title, ask, cancelled = _prompts()[which]
    lost: set[int] = set()
    real_exposed = QWindow.isExposed
    monkeypatch.setattr(QWindow, "isExposed", lambda w: False if id(w) in lost else real_exposed(w))
    seen: list[str] = []

    def lose_it() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None or dialog.windowHandle() is None:
            QTimer.singleShot(20, lose_it)
            return
        handle = dialog.windowHandle()
        lost.add(id(handle))
        seen.append(dialog.windowTitle())
        QApplication.sendEvent(handle, QExposeEvent(QRegion()))

        def still_there() -> None:  # never answered: the test ends it, and fails
            if dialog.isVisible():
                seen.append("still modal")
                dialog.reject()
        QTimer.singleShot(5000, dialog, still_there)  # (dropped with the dialog)

    QTimer.singleShot(0, lose_it)
    answer = ask(table.window)
    assert seen == [title], seen
    assert answer is cancelled and QApplication.activeModalWidget() is None


def test_file_dialog_guard_watches_from_the_event_loop_and_guards_a_dialog_shown_before(  # type: ignore[no-untyped-def]
        qtbot, table, tmp_path: Path) -> None:
    """The guard is an application-wide event filter from the event loop's first turn (not while the
    window is shown: tests/gui/test_start_imports.py); a dialog shown before that turn is guarded too."""
    from diplomacy_desktop.gui.table.file_dialogs import DataFolderGuard

    data = tmp_path / "data"
    data.mkdir()
    guard = DataFolderGuard(data)
    try:
        assert not guard.watching  # made, not yet watching
        dialog = QFileDialog(table.window, "Any", str(data))
        dialog.show()  # shown before the event loop turned: the filter saw nothing
        try:
            assert not dialog.testOption(QFileDialog.Option.ReadOnly)
            qtbot.waitUntil(lambda: guard.watching)
            assert dialog.testOption(QFileDialog.Option.ReadOnly)
            assert not _inside(Path(dialog.directory().absolutePath()), data)
            later = QFileDialog(table.window, "Later", str(data))
            later.show()  # and one shown once it watches, as every dialog was before
            try:
                assert later.testOption(QFileDialog.Option.ReadOnly)
                assert not _inside(Path(later.directory().absolutePath()), data)
            finally:
                later.reject()
        finally:
            dialog.reject()
    finally:
        app = QApplication.instance()
        assert app is not None
        app.removeEventFilter(guard)
        guard.deleteLater()
