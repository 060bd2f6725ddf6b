"""Issue 21, finding 7: saves that used to pass the schema and then broke the host (``serve``
answering 500 to every phone, or crashing at start) are refused on load with the field's path,
and fast."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Hold, Move
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import SaveFileError, game_to_dict, load_game, loads


def _data() -> dict[str, Any]:
    game = Game.new(load_board())
    game.set_order(Move("france", "A", "par", "bur"))
    host = TableHost(game, {"players": {"france": "Ann"}, "notes_allowed": True})
    return game_to_dict(host.game, host.table)


def _refused(data: dict[str, Any] | str) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(SaveFileError) as info:
        loads(text)
    return str(info.value)


def test_save_meaning_sealed_must_be_a_list_of_powers() -> None:
    data = _data()
    data["table"]["phones"]["sealed"] = 5
    assert _refused(data) == "the saved game is damaged: $.table.phones.sealed: expected a list of powers, found 5"
    data["table"]["phones"]["sealed"] = ["narnia"]
    assert "$.table.phones.sealed[0]" in _refused(data)


def test_save_meaning_notes_must_be_a_list_of_notes() -> None:
    data = _data()
    data["table"]["notes"] = "x"
    assert _refused(data) == ('the saved game is damaged: $.table.notes: expected a list of private notes, '
                              'found the text "x"')
    data["table"]["notes"] = [{"from": "france", "to": [], "text": "hi"}]
    assert "$.table.notes[0].to" in _refused(data)


def test_save_meaning_phones_must_be_an_object() -> None:
    data = _data()
    data["table"]["phones"] = []
    assert _refused(data).startswith("the saved game is damaged: $.table.phones: expected the phones' state")
    data = _data()
    data["table"]["phones"]["tokens"]["france"] = 7
    assert "$.table.phones.tokens.france" in _refused(data)


def test_save_meaning_a_lone_surrogate_in_a_player_name_is_refused() -> None:
    data = _data()
    text = json.dumps(data).replace('"Ann"', '"An\\ud800n"')
    assert _refused(text) == ("the saved game is damaged: $.table.players.france: expected text, found half of a "
                              "UTF-16 pair (\\ud800-\\udfff), which is no character")


def test_save_meaning_200000_duplicate_orders_are_refused_fast() -> None:
    data = _data()
    order = data["current"]["orders"][0]
    data["current"]["orders"] = [order] * 200_000
    text = json.dumps(data)
    start = time.perf_counter()
    message = _refused(text)
    assert time.perf_counter() - start < 5  # it took 34 s to accept them
    assert message == ("the saved game is damaged: $.current.orders: expected at most 500 orders (one a unit), "
                       "found 200000")


def test_save_meaning_two_orders_for_one_unit_are_refused() -> None:
    data = _data()
    data["current"]["orders"].append({"power": "france", "kind": "hold", "unit_kind": "A", "location": "par"})
    assert _refused(data) == ("the saved game is damaged: $.current.orders[1]: expected one order a unit, found a "
                              "second order of france for par")


def test_save_meaning_a_good_save_with_phones_and_notes_still_loads(tmp_path: Path) -> None:
    game = Game.new(load_board())
    path = tmp_path / "g.dipl"
    host = TableHost(game, {"notes_allowed": True}, path)
    host.set_order_text(host.token_of("italy"), "italy", "S1901M", "A Ven H")
    host.send_note(host.token_of("italy"), "italy", ["austria"], "hello")
    host.seal(host.token_of("italy"), "italy", "S1901M")
    loaded, table = load_game(path)
    assert loaded.orders_of("italy") == [Hold("italy", "A", "ven")]
    assert table["notes"][0]["text"] == "hello" and table["phones"]["sealed"] == ["italy"]


@pytest.mark.parametrize("mutate", ["sealed_5", "notes_x", "phones_list", "surrogate"])
def test_save_meaning_serve_refuses_them_at_start_with_one_line(tmp_path: Path, mutate: str) -> None:
    """``serve`` used to crash at start (or answer 500 to every phone): it now says which field."""
    import subprocess
    import sys

    from serving_root import ROOT

    data = _data()
    text = json.dumps(data)
    if mutate == "sealed_5":
        data["table"]["phones"]["sealed"] = 5
    elif mutate == "notes_x":
        data["table"]["notes"] = "x"
    elif mutate == "phones_list":
        data["table"]["phones"] = []
    text = json.dumps(data)
    if mutate == "surrogate":
        text = text.replace('"Ann"', '"\\udc80"')
    path = tmp_path / "g.dipl"
    path.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "serve", str(path), "--no-passphrase", "--host", "127.0.0.1",
                           "--port", "0"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"diplomacy-desktop serve: {path}: the saved game is damaged: $.table.")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
