"""Issue 21, finding 9: the importer on real games and on the two bugs found in them (tests
from two-phase files; sources in real_games/README.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.orders import Hold, Move
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.io.dipjson import ADJACENT_CONVOY_CAUSE, InterchangeError, import_saved_game, read_json
from diplomacy_desktop.io.savefile import load_game

GAMES = Path(__file__).with_name("real_games")
ROOT = Path(__file__).resolve().parents[2]


def _imported(name: str, edition: str = "classic"):  # type: ignore[no-untyped-def]
    return import_saved_game(read_json((GAMES / name).read_bytes()), edition=edition)


@pytest.mark.parametrize("name, phases", [("ai_diplomacy_bots_1901_1903.json", 6), ("ai_diplomacy_llm_1901.json", 2)])
def test_importer_real_games_replay_without_a_difference(name: str, phases: int) -> None:
    imported = _imported(name)
    assert imported.phases == phases
    assert imported.differences == []
    recorded = json.loads((GAMES / name).read_text())["phases"][-1]["state"]["units"]
    ours = {f"{u.kind} {u.location.upper()}" for u in imported.game.state.units.values()}
    assert ours == {u for units in recorded.values() for u in units}


def test_importer_real_games_a_fleet_to_bulgaria_without_a_coast_holds(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    name = "two_phase_fleet_to_bulgaria_without_coast.json"
    out = tmp_path / "game.dipl"
    assert main(["convert", str(GAMES / name), str(out)]) == 0  # it was a traceback, exit 1
    assert capsys.readouterr().err.startswith(f"{name}: replayed 2 phases, 0 differences")
    game, _ = load_game(out)
    fall = game.history[1]
    result = next(r for r in fall.results if r.order.location == "con")
    assert isinstance(result.order, Move) and result.order.destination == "bul"
    assert result.outcome is Outcome.ILLEGAL and result.rule == "VII.3.2"  # seed 000 VII.3.2 (the brief says VI.2)
    assert game.state.units["con"].kind == "F"  # the fleet held
    assert "bul" not in game.state.units or game.state.units["bul"].power != "turkey" or \
        game.state.units["bul"].kind == "A"


def test_importer_real_games_completed_after_a_fall_dislodgement_has_no_false_owner_difference() -> None:
    imported = _imported("two_phase_completed_after_a_fall_dislodgement.json")
    assert imported.differences == []  # was: "F1901M theirs MUN france; ours MUN germany"
    assert imported.game.state.owners["mun"] == "france"
    assert any("no dislodged unit can retreat" in n for n in imported.notes)
    assert imported.game.ended is not None


def test_importer_real_games_a_webdiplomacy_adjacent_convoy_names_its_cause() -> None:
    imported = _imported("two_phase_webdiplomacy_adjacent_convoy.json")
    assert imported.differences
    assert all(d.reason.endswith(ADJACENT_CONVOY_CAUSE) for d in imported.differences)
    assert "XII.6" in ADJACENT_CONVOY_CAUSE and "4.A.3" in ADJACENT_CONVOY_CAUSE


def test_importer_real_games_a_game_without_the_convention_is_not_blamed_on_it() -> None:
    imported = _imported("two_phase_webdiplomacy_adjacent_convoy.json")
    data = json.loads((GAMES / "two_phase_webdiplomacy_adjacent_convoy.json").read_text())
    data["phases"][0]["orders"]["FRANCE"][1] = "F ENG H"  # no convoy: a plain head-to-head
    data["phases"][0]["results"]["A PIC"] = ["bounce"]
    again = import_saved_game(data)
    assert again.differences == [] and imported.differences


def test_importer_real_games_under_2023_says_classic_and_offers_classic() -> None:
    imported = _imported("ai_diplomacy_bots_1901_1903.json", edition="2023")
    assert imported.replay_as_classic
    assert any("adjudicated under classic conventions" in n and "--rules classic" in n for n in imported.notes)
    assert not _imported("ai_diplomacy_bots_1901_1903.json").replay_as_classic


@pytest.mark.parametrize("content, what", [
    (b"PK\x03\x04\x14\x00rest of a zip", "it looks like a ZIP archive (jDip saves its games as .jdip ZIP archives"),
    (b"<!DOCTYPE html><html><body>game</body></html>", "it looks like a web page (HTML)"),
    (b'{"format": "diplomacy-desktop-game", "version": 1}', "it looks like a Diplomacy Desktop saved game"),
    (b'{"gameID": 1234, "variantID": 1, "turn": 3}', "it looks like webDiplomacy's own game data"),
    (b'{"id": "x", "phase_history": [], "state_history": {}}', "it looks like the diplomacy package's game object"),
    (b"CASE 6.A.1\nPRESTATE\nEngland: F lon\nORDERS\nEngland: F lon - pic\nEND\n", "it looks like a DATC scenario file"),
    (b"%PDF-1.4 ...", "it looks like a PDF document"),
])
def test_importer_real_games_files_in_another_format_say_what_they_look_like(content: bytes, what: str) -> None:
    with pytest.raises(InterchangeError) as info:
        import_saved_game(read_json(content))
    assert "not a saved game of the diplomacy package: " + what in str(info.value)


def test_importer_real_games_convert_of_a_foreign_file_is_one_line(tmp_path: Path) -> None:
    src = tmp_path / "game.jdip"
    src.write_bytes(b"PK\x03\x04" + bytes(range(256)))
    proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "convert", str(src), str(tmp_path / "o.dipl")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("diplomacy-desktop: game.jdip: the file is not a saved game of the diplomacy "
                                  "package: it looks like a ZIP archive")


def test_importer_real_games_the_hold_is_what_the_fleet_does() -> None:
    """The engine's side of the fix: Game.set_order(allow_ambiguous=True) keeps an ambiguous order."""
    from diplomacy_desktop.engine.errors import AmbiguousOrderError
    from diplomacy_desktop.engine.game import Game
    from diplomacy_desktop.engine.state import GameState, Phase, Unit
    from diplomacy_desktop.io.boardfile import load_board

    board = load_board()
    state = GameState.build(board, Phase(1901, "spring", "movement"), [Unit("turkey", "F", "con")], {})
    game = Game(board, Game.new(board).rules, state)
    with pytest.raises(AmbiguousOrderError):
        game.set_order(Move("turkey", "F", "con", "bul"))
    with pytest.raises(AmbiguousOrderError):  # the window asks for the coast: still refused there
        game.set_order(Move("turkey", "F", "con", "bul"), allow_illegal=True)
    game.set_order(Move("turkey", "F", "con", "bul"), allow_illegal=True, allow_ambiguous=True)
    entry = game.adjudicate()
    assert game.state.units["con"] == Unit("turkey", "F", "con")
    assert entry.results[0].outcome is Outcome.ILLEGAL
    assert Hold  # (the unit holds: seed 000 VII.3.2)
