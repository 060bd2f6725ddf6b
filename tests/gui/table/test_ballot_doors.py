"""Issue 31, the secret ballot's doors (Tournament ▸ Propose a ballot, Ctrl+B), through the real
window: every wrong PIN on a voter's page is in the table's one failure counter and on disk at
once (finding 10: a PIN must not be guessable without limit, a restart included), and a ballot
is recorded as proposed by a power only with that power's PIN or the host's ("Also").  Each test
failed before its fix."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from host_stand_in import Host

from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.io.pins import hash_pin
from diplomacy_desktop.table.event import DRAW_PROPOSAL, Ballot
from diplomacy_desktop.table.pins import HOST

CHEAP = (2 ** 4, 1, 1)  # a real scrypt hash, cheap enough for a test
HOST_PIN = "7391"
PINS = {"austria": "1111", "england": "2222", "france": "3333", "germany": "4444", "italy": "5555",
        "russia": "6666", "turkey": "7777"}


@pytest.fixture
def host() -> Host:
    return Host(typed=HOST_PIN)


def _game_with_pins(features: Any) -> None:
    features.start_new_game(TableSettings(pins={p: hash_pin(pin, cost=CHEAP) for p, pin in PINS.items()},
                                          host_pin=hash_pin(HOST_PIN, cost=CHEAP)))


def _on_disk(tmp_path: Path) -> dict[str, Any]:
    """The autosave as a restart finds it (read afresh from the data folder)."""
    from diplomacy_desktop.gui.table.persistence import Autosave

    autosave = Autosave(tmp_path / "data")
    try:
        _game, table = autosave.load()
    finally:
        autosave.close()
    return table


def test_ballot_wrong_pins_are_counted_on_disk_at_once_and_the_wait_holds(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                                         tmp_path: Path) -> None:
    """Finding 10: the ballot's voter pages took wrong PINs that a kill forgot (nothing wrote the
    count), so a player could guess, kill the window, resume, and guess again without a wait."""
    f, c = features, table.controller
    _game_with_pins(f)
    tour = table.window.tournament
    voters = tour.voters()
    dialog = tour.vote(Ballot.open(tour.rules, c.state, voters[0], DRAW_PROPOSAL, voters=voters))
    first = dialog.vote.next_voter
    assert first is not None
    for guess in ("0000", "0001", "0002", "0003"):
        dialog.pin_edit.setText(guess)
        dialog.ready_button.click()
    assert "try again in" in dialog.pin_error.text().lower()
    assert not dialog.pin_edit.text()  # the next try starts from an empty box
    f.autosaver.autosave.close()  # killed now: only what is already on disk survives
    # counted toward the host's prompt (a voter's page is summoned at will: red team, below)
    record = _on_disk(tmp_path).get("pin_failures", {}).get(HOST)
    assert record is not None, "the wrong PINs were never written"
    assert record["count"] == 3 and record["until"] > time.time()  # the fourth was not even looked at
    # the page's counter waits: the right PIN waits there too, but the voter's own curtain does not
    dialog.pin_edit.setText(PINS[first])
    dialog.ready_button.click()
    assert dialog.stack.currentWidget() is dialog.pass_page
    assert f.flow.pin_guard.wait(HOST) > 0 and f.flow.pin_guard.wait(first) == 0


def test_proposing_in_another_powers_name_needs_its_pin_or_the_hosts(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                                    tmp_path: Path) -> None:
    """Also: any player recorded a ballot as "proposed by" another power, with no PIN at all."""
    f = features
    _game_with_pins(f)
    tour = table.window.tournament
    tour.act_ballot.trigger()  # Ctrl+B
    proposal = tour.proposal_dialog
    assert proposal is not None
    proposal.proposer.setCurrentIndex(proposal.proposer.findData("france"))
    proposal.vote_button.click()  # no PIN typed: nothing is proposed
    assert tour.ballot_dialog is None and proposal.isVisible()
    assert "France" in proposal.error.text() and "PIN" in proposal.error.text()
    proposal.pin_edit.setText(PINS["england"])  # England's PIN does not speak for France
    proposal.vote_button.click()
    assert tour.ballot_dialog is None and "Wrong PIN" in proposal.error.text()
    guard = f.flow.pin_guard
    assert guard.failures("france") == 0 and guard.failures("england") == 0  # nobody else is locked out
    assert guard.failures(HOST) == 1  # counted at the door's own counter (the host's), and on disk
    assert _on_disk(tmp_path)["pin_failures"][HOST]["count"] == 1
    proposal.pin_edit.setText(PINS["france"])
    proposal.vote_button.click()
    ballot_dialog = tour.ballot_dialog
    assert ballot_dialog is not None and ballot_dialog.ballot.proposer == "france"
    ballot_dialog.reject()
    # the host's PIN may record a proposal in any power's name (the host vouches for it)
    tour.act_ballot.trigger()
    proposal = tour.proposal_dialog
    assert proposal is not None and not proposal.pin_edit.text()  # nothing typed before is kept
    proposal.proposer.setCurrentIndex(proposal.proposer.findData("turkey"))
    proposal.pin_edit.setText(HOST_PIN)
    proposal.vote_button.click()
    assert tour.ballot_dialog is not None and tour.ballot_dialog.ballot.proposer == "turkey"
    tour.ballot_dialog.reject()


def test_proposing_waits_while_the_doors_counter_waits(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """A proposal's PIN box is no way around the wait: after the free tries, even the right PIN waits."""
    f = features
    _game_with_pins(f)
    tour = table.window.tournament
    tour.act_ballot.trigger()
    proposal = tour.proposal_dialog
    assert proposal is not None
    proposal.proposer.setCurrentIndex(proposal.proposer.findData("italy"))
    for guess in ("0000", "0001", "0002", "0003", "0004", "0005", "0006", "0007"):
        proposal.pin_edit.setText(guess)
        proposal.vote_button.click()
    assert f.flow.pin_guard.failures(HOST) == 3  # the last five were not even looked at
    proposal.pin_edit.setText(PINS["italy"])
    proposal.vote_button.click()
    assert tour.ballot_dialog is None and "try again in" in proposal.error.text().lower()


def test_wrong_pins_on_a_voters_page_never_lock_that_power_out(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """Red team (issue 31, finding 6 by another door): in Austria's turn, Ctrl+D (no PIN) put
    England's voting page in Austria's hands, and four wrong PINs there made England wait 30 s,
    doubling, at the curtain and on its phone (the counter is England's, shared by every door).
    A voter's page is a door the laptop's holder summons at will: its wrong PINs count toward the
    host's prompt, as out of turn at the curtain, so nobody locks another power out from it; the
    guesses are still bounded (three, then the host's wait)."""
    f, c = features, table.controller
    _game_with_pins(f)
    dialog = f.propose_draw()
    assert dialog is not None
    victim = dialog.vote.next_voter
    assert victim is not None
    for guess in ("0000", "0001", "0002", "0003"):
        dialog.pin_edit.setText(guess)
        dialog.ready_button.click()
    assert "try again in" in dialog.pin_error.text().lower()  # bounded all the same
    guard = c.service.pin_guard
    assert guard.wait(victim) == 0 and guard.failures(victim) == 0, "the voter was locked out"
    assert guard.wait(HOST) > 0  # the host's prompt waits instead
    # the ballot's voter pages the same
    tour = table.window.tournament
    voters = tour.voters()
    ballot = tour.vote(Ballot.open(tour.rules, c.state, voters[0], DRAW_PROPOSAL, voters=voters))
    other = ballot.vote.next_voter
    assert other is not None
    for guess in ("0000", "0001"):
        ballot.pin_edit.setText(guess)
        ballot.ready_button.click()
    assert guard.failures(other) == 0
