"""Issue 17, sealing: the review cannot surprise (Enter goes back when a problem is listed; an empty
seal says what civil disorder, rules XIV.1, does this season; unordered units are named)."""

from __future__ import annotations

import random

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QVBoxLayout, QWidget

from diplomacy_desktop.engine.disorder import empty_seal_consequence
from diplomacy_desktop.engine.orders import Hold, Move
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.table.hotseat.flow import HotSeatFlow
from diplomacy_desktop.gui.table.hotseat.review import ReviewDialog
from diplomacy_desktop.gui.table.hotseat.seal_strip import SealStatusStrip
from diplomacy_desktop.table.review import review_warnings
from diplomacy_desktop.table.seal_review import seal_notes


class Seen:
    """What a review dialog showed (the flow deletes the dialog as soon as it is answered)."""

    def __init__(self, dialog: ReviewDialog) -> None:
        self.notice = dialog.notice.text()
        self.notice_shown = dialog.notice.isVisibleTo(dialog)
        self.seal_text = dialog.seal_button.text()
        self.back_default = dialog.back_button.isDefault()


def _flow(qtbot, controller: GameController, seen: list[Seen]) -> HotSeatFlow:
    window = QWidget()
    window.resize(900, 600)
    strip = SealStatusStrip(controller=controller)
    QVBoxLayout(window).addWidget(strip)
    qtbot.addWidget(window)

    def review(dialog: ReviewDialog) -> bool:
        seen.append(Seen(dialog))
        return False  # "Back to my orders": nothing is sealed

    flow = HotSeatFlow(controller, window, rng=random.Random(3), strip=strip, review=review)
    window.show()
    flow.begin_phase()
    flow.start_writing()
    return flow


def test_review_default_button_is_back_whenever_a_problem_is_listed(qtbot) -> None:
    c = GameController()
    orders = [Move("france", "A", "par", "bur")]
    d = ReviewDialog("france", orders, review_warnings(c.state, "france", orders), power_name="France")
    qtbot.addWidget(d)
    d.show()
    assert d.back_button.isDefault() and not d.seal_button.isDefault()
    qtbot.keyClick(d, Qt.Key.Key_Return)
    assert d.result() == QDialog.DialogCode.Rejected  # Enter went back to the orders


def test_review_default_button_is_seal_when_nothing_is_listed(qtbot) -> None:
    c = GameController()
    orders = [Move("france", "A", "par", "bur"), Hold("france", "A", "mar"), Hold("france", "F", "bre")]
    d = ReviewDialog("france", orders, review_warnings(c.state, "france", orders), power_name="France")
    qtbot.addWidget(d)
    d.show()
    assert d.seal_button.isDefault() and not d.back_button.isDefault()
    assert not d.notice.isVisibleTo(d)


def test_review_of_an_empty_seal_says_what_civil_disorder_does_this_season(qtbot) -> None:
    c = GameController()
    c.civil_disorder_rules = True  # the table game's rule (features.py)
    seen: list[Seen] = []
    flow = _flow(qtbot, c, seen)
    power = flow.session.first_power
    assert power is not None and flow.open_power(power)
    assert flow.request_seal() is False  # the review went back
    (d,) = seen
    name = c.power_name(power)
    text = d.notice
    assert d.notice_shown
    assert "civil disorder" in text and "XIV.1" in text
    assert "hold and do not support each other" in text and "disbanded" in text and "without a retreat" in text
    assert f"{name} has given no orders" in text
    assert "civil disorder" in d.seal_text
    assert d.back_default
    assert power not in flow.session.sealed


def test_empty_seal_consequence_is_only_for_movement_phases() -> None:
    from diplomacy_desktop.engine.state import Phase

    c = GameController()
    assert "XIV.1" in empty_seal_consequence(c.state, "Italy")
    winter = c.state.evolve(phase=Phase(1901, "fall", "adjustment"))
    assert empty_seal_consequence(winter, "Italy") == ""


def test_review_names_the_units_that_will_hold(qtbot) -> None:
    c = GameController()
    c.civil_disorder_rules = True
    seen: list[Seen] = []
    flow = _flow(qtbot, c, seen)
    power = flow.session.first_power
    assert power is not None and flow.open_power(power)
    first, *rest = sorted(c.state.units_of(power), key=lambda u: u.province)
    c.set_order(Hold(power, first.kind, first.location))
    flow.request_seal()
    d = seen[-1]
    text = d.notice
    assert "civil disorder" not in text  # it gave an order: no disorder
    for u in rest:
        assert f"{u.kind} {u.province.title()}" in text
    assert "will hold" in text
    assert d.back_default


def test_seal_notes_without_the_disorder_rule_only_name_holding_units() -> None:
    c = GameController()
    notes = seal_notes(c.state, ["italy"], {"italy": []}, c.power_name, disorder_rules=False)
    assert notes.disorder == "" and set(notes.holding) == {"A Ven", "A Rom", "F Nap"}
