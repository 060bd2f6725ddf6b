"""What a table of seven found at the laptop (issue 34), the findings of the table game: out of
turn, the writing clock, the seal code, the minor ones."""

from __future__ import annotations

from host_stand_in import HOST_PIN
from test_secrecy import seal_next, start

from diplomacy_desktop.table.hotseat import ENTERING

# -- 4. out of turn: the host PIN first, never counted against the power -----------------------


def test_out_of_turn_asks_the_host_pin_first_and_a_wrong_host_pin_is_not_the_powers(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"france": "1470"})
    f.act_write.trigger()
    if f.flow.session.next_power == "france":
        seal_next(t, f, "1470")
    curtain = f.flow.curtain
    assert "host PIN" in curtain.host_label.text()  # what the curtain says ...
    asked: list[str] = []
    answers = iter(["9999"])  # the host mistypes the host PIN

    def prompt(_parent, title: str, text: str) -> str | None:  # type: ignore[no-untyped-def]
        asked.append(text)
        return next(answers, None)

    f.flow.host_prompt = prompt
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData("france"))
    curtain.other_button.click()
    assert "host PIN" in asked[0] and "France's PIN" not in asked[0]  # ... is what is asked first
    assert f.flow.pin_guard.failures("france") == 0  # the host's entry is not France's
    assert f.flow.session.stage != ENTERING
    # the host types the host PIN, then France its own: France is open, told to the table
    answers = iter([HOST_PIN, "1470"])
    asked.clear()
    curtain.other_button.click()
    assert "host PIN" in asked[0] and "France's PIN" in asked[1]
    assert f.flow.session.stage == ENTERING and f.flow.session.current == "france"
    assert f.flow.pin_guard.failures("france") == 0
    assert any("out of turn by the host" in n for n in f.flow.session.notices)


# -- 8. the host's reveal names the powers in civil disorder -----------------------------------


def test_reveal_now_names_the_powers_in_civil_disorder(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    first, _orders = seal_next(t, f)
    f.flow.force_reveal()
    asked = " ".join(text for _title, text in host.questions) + " ".join(host.prompts)
    silent = [t.controller.power_name(p) for p in t.controller.board.power_ids if p != first]
    assert "civil disorder" in asked and "units without orders hold" not in asked
    assert all(name in asked.split("civil disorder")[0].rsplit("\n", 1)[-1] for name in silent), asked
