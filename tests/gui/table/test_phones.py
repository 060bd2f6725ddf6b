"""Table ▸ Phones, the window's side of the host: hosting on and off, the join screen's one
code at a time, kicks, and the seal strip following the phones live (through the real server)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.gui.table.phones import PhonesDialog, PhonesHosting
from diplomacy_desktop.host.table import TableHost, UnknownTokenError
from diplomacy_desktop.io.boardfile import load_board


def post(url: str, token: str, body: dict[str, str]) -> int:
    async def go() -> int:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as s, \
                s.post(url, headers={"X-Token": token}, json=body) as r:
            return r.status

    return asyncio.run(go())


@pytest.fixture
def dialog(qtbot: object, tmp_path: Path) -> Iterator[PhonesDialog]:
    host = TableHost(Game.new(load_board("standard")), {}, tmp_path / "g.dipl")
    hosting = PhonesHosting(host, "127.0.0.1", 0)
    d = PhonesDialog(hosting)
    qtbot.addWidget(d)  # type: ignore[attr-defined]
    yield d
    hosting.stop()


def test_phones_hosting_binds_only_when_turned_on_and_stops(dialog: PhonesDialog) -> None:
    hosting = dialog.hosting
    assert not hosting.running and dialog.address.text().startswith("Hosting is off")
    dialog.show_code()
    assert dialog.code.isHidden() and "first" in dialog.link.text()
    base = hosting.start()
    assert hosting.running and base.startswith("http://127.0.0.1:")
    dialog.refresh()
    assert base in dialog.address.text()
    hosting.stop()
    assert not hosting.running


def test_phones_dialog_shows_one_powers_code_at_a_time(dialog: PhonesDialog) -> None:
    dialog.hosting.start()
    host = dialog.host
    dialog.power.setCurrentIndex(dialog.power.findData("france"))
    dialog.show_code()
    assert not dialog.code.isHidden() and dialog.code.renderer().isValid()
    text = dialog.link.text()
    assert host.token_of("france") in text
    assert not any(host.token_of(p) in text for p in host.game.board.power_ids if p != "france")
    dialog.hide_code()
    assert dialog.code.isHidden() and host.token_of("france") not in dialog.link.text()


def test_phones_dialog_kick_cuts_the_old_link(dialog: PhonesDialog) -> None:
    dialog.hosting.start()
    host = dialog.host
    old = host.token_of("italy")
    dialog.power.setCurrentIndex(dialog.power.findData("italy"))
    dialog.kick()
    with pytest.raises(UnknownTokenError):
        host.powers_of(old)
    assert "new link" in dialog.link.text() and host.token_of("italy") not in dialog.link.text()


def test_phones_dialog_seal_strip_follows_the_phones_live(qtbot: object, dialog: PhonesDialog) -> None:
    base = dialog.hosting.start()
    host = dialog.host
    assert "France …" in dialog.seals.text()
    status = post(f"{base}/api/order", host.token_of("france"),
                  {"power": "france", "phase": "S1901M", "text": "A Par - Bur"})
    assert status == 200
    assert post(f"{base}/api/seal", host.token_of("france"), {"power": "france", "phase": "S1901M"}) == 200
    qtbot.waitUntil(lambda: "France ✓" in dialog.seals.text(), timeout=10_000)  # type: ignore[attr-defined]
    assert "Bur" not in dialog.seals.text() and "Germany …" in dialog.seals.text()


def test_phones_dialog_says_a_two_power_players_link_covers_both(qtbot: object, tmp_path: Path) -> None:
    """Issue 34, finding 13: a player holding two powers gets two links, each covering both."""
    host = TableHost(Game.new(load_board("standard")), {"players": {"england": "Ann", "russia": "Ann"}},
                     tmp_path / "g.dipl")
    hosting = PhonesHosting(host, "127.0.0.1", 0)
    d = PhonesDialog(hosting)
    qtbot.addWidget(d)  # type: ignore[attr-defined]
    try:
        hosting.start()
        for power in ("england", "russia"):
            d.power.setCurrentIndex(d.power.findData(power))
            d.show_code()
            assert "covers both powers: England and Russia" in d.link.text(), d.link.text()
        d.power.setCurrentIndex(d.power.findData("france"))
        d.show_code()
        assert "covers" not in d.link.text()
    finally:
        hosting.stop()


def test_phones_dialog_shows_no_code_for_a_computer_seat(dialog: PhonesDialog) -> None:
    """Issue 33, found under Xvfb: France's (the computer's) code was shown, and its link's page
    listed the computer's sealed orders before the reveal."""
    dialog.hosting.start()
    host = dialog.host
    host.service.set_computer_seat("france", "club")
    dialog.power.setCurrentIndex(dialog.power.findData("france"))
    dialog.show_code()
    assert dialog.code.isHidden() and host.token_of("france") not in dialog.link.text()
    assert "France is played by the computer" in dialog.link.text()
    dialog.power.setCurrentIndex(dialog.power.findData("italy"))  # a person's seat: as before
    dialog.show_code()
    assert not dialog.code.isHidden() and host.token_of("italy") in dialog.link.text()
