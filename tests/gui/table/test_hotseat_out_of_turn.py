"""Issue 31, finding 6: a player at the curtain cannot lock another power out.  Wrong PINs typed
out of turn ("Someone else: England" while the curtain calls another power) count toward the
host's prompt, never England's own counter, which England's turn and England's phone share."""

from __future__ import annotations

from typing import Any

from host_stand_in import HOST_PIN
from test_secrecy import start

from diplomacy_desktop.table.hotseat import ENTERING
from diplomacy_desktop.table.pins import HOST

PINS = {"austria": "5831", "england": "4071", "france": "6294", "germany": "7385", "italy": "8416",
        "russia": "9527", "turkey": "3058"}


def _someone_else(features: Any, power: str) -> None:
    curtain = features.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(power))
    curtain.other_button.click()


def _other_than_next(features: Any) -> str:
    nxt = features.flow.session.next_power
    return "england" if nxt != "england" else "france"


def test_out_of_turn_wrong_pins_count_toward_the_host_not_the_power(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f, host_pin=None, pins=PINS)  # no host PIN: out of turn, the power's own PIN is asked
    f.act_write.trigger()
    other = _other_than_next(f)
    guard = f.flow.pin_guard
    host.typed = "1470"  # a wrong PIN for every power
    for _ in range(4):
        _someone_else(f, other)
        assert f.flow.session.stage != ENTERING
    assert guard.failures(other) == 0 and guard.wait(other) == 0  # the other power is not locked out
    assert guard.failures(HOST) == 3 and guard.wait(HOST) > 0  # the host's prompt waits (the 4th waited)
    # out of turn waits now, even with the right PIN (the guesses cannot go on)
    host.typed = PINS[other]
    _someone_else(f, other)
    assert f.flow.session.stage != ENTERING
    assert "try again in" in f.flow.curtain.error_label.text()
    assert guard.failures(other) == 0
    # the power itself, at its own call, opens at once: nothing of the guesses weighs on it
    guard.check_allowed(other)


def test_after_the_host_pin_a_wrong_power_pin_counts_toward_the_host(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f, pins=PINS)  # a host PIN: the host first, then the power's own PIN
    f.act_write.trigger()
    other = _other_than_next(f)
    guard = f.flow.pin_guard
    answers = iter([HOST_PIN, "1470"] * 4)
    f.flow.host_prompt = lambda _parent, _title, _text: next(answers, None)
    for _ in range(4):
        _someone_else(f, other)
        assert f.flow.session.stage != ENTERING
    assert guard.failures(other) == 0 and guard.wait(other) == 0
    assert guard.failures(HOST) >= 3 and guard.wait(HOST) > 0
