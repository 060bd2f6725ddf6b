"""Board call in, board result out: CSV and JSON in the documented format, read back."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Move
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.table.results import (
    FORMAT,
    BallotRecord,
    BoardCallError,
    board_result,
    centres_by_year,
    elimination_years,
    read_board_call,
    result_sentence,
)

BOARD = load_board()
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "board-result-example.json"


def test_results_board_call_reads_names_adjectives_ids_and_a_header() -> None:
    call = read_board_call("Power,Player,Player id\nEngland,Ann,T-17\nFrench,Bob\n\nturkey, Cy ,\n"
                           "Austria,Di\nGermany,Ed\nItaly,Flo\nRussia,Gus\n", BOARD)
    assert call.players == {"england": "Ann", "france": "Bob", "turkey": "Cy", "austria": "Di", "germany": "Ed",
                            "italy": "Flo", "russia": "Gus"}
    assert call.player_ids == {"england": "T-17"}


def test_results_board_call_one_player_for_two_powers() -> None:
    rest = "".join(f"{p},P{i}\n" for i, p in enumerate(("England", "France", "Germany", "Russia", "Turkey")))
    call = read_board_call("\ufeffAustria,Dee\nItaly,Dee\n" + rest, BOARD)
    assert call.players["austria"] == call.players["italy"] == "Dee"


@pytest.mark.parametrize("text, said", [
    ("Prussia,Ann\n", "'Prussia' is not a power"),
    ("England,Ann\nEngland,Bob\n", "England is already called on line 1"),
    ("England\n", "line 1: needs a power and a player's name"),
    ("England,Ann,1,extra\n", "too many columns"),
    ("", "names no power"),
    ("a\0b", "not a text file"),
])
def test_results_board_call_bad_input_says_which_line_and_why(text: str, said: str) -> None:
    with pytest.raises(BoardCallError, match=said):
        read_board_call(text, BOARD)


def _short_game() -> Game:
    game = Game.new(BOARD)
    for o in (Move("germany", "F", "kie", "den"), Move("germany", "A", "mun", "ruh"),
              Move("england", "F", "lon", "nth")):
        game.set_order(o)
    game.adjudicate()
    game.set_order(Move("germany", "F", "den", "swe"))
    game.set_order(Move("germany", "A", "ruh", "hol"))
    game.adjudicate()
    game.set_order(Build("germany", "A", "mun"))
    game.set_order(Build("germany", "F", "kie"))
    game.adjudicate()
    return game


def test_results_centres_by_year_from_the_games_history() -> None:
    game = _short_game()
    years = centres_by_year(game)
    assert sorted(years) == [1900, 1901]
    assert years[1900]["germany"] == 3 and years[1901]["germany"] == 5
    assert elimination_years(game) == {}


def test_results_board_result_as_json_and_csv() -> None:
    game = _short_game()
    game.declare_draw(BOARD.power_ids)
    ballots = [BallotRecord("S1902M", "france", "draw", ("england", "france"), False),
               BallotRecord("S1902M", "germany", "draw", BOARD.power_ids, True)]
    result = board_result(game, players={"germany": "Ann", "england": "Bob"}, player_ids={"germany": "T-1"},
                          event="Test Open", round_name="1", board_name="B3", ballots=ballots)
    data = json.loads(result.to_json())
    assert data["format"] == FORMAT and data["version"] == 2
    assert data["result"]["kind"] == "draw" and len(data["result"]["draw"]) == 7
    germany = next(p for p in data["players"] if p["power"] == "germany")
    assert germany["player"] == "Ann" and germany["player_id"] == "T-1" and germany["centres"] == 5
    assert {"sum_of_squares", "draw_size", "carnage", "c_diplo", "open_tribute", "bangkok"} <= set(germany["scores"])
    assert germany["scores"]["draw_size"] == pytest.approx(100 / 7, abs=1e-4)
    assert data["centres_by_year"]["1901"]["germany"] == 5
    assert data["ballots"][0] == {"phase": "S1902M", "proposer": "france", "proposal": "draw",
                                  "powers": ["england", "france"], "passed": False, "vetoes": None}
    assert "votes" not in json.dumps(data["ballots"])
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert len(rows) == 7
    g = next(r for r in rows if r["power"] == "Germany")
    assert g["player"] == "Ann" and g["centres_1901"] == "5" and g["in_draw"] == "yes" and g["result"] == "draw"
    assert float(g["score_c_diplo"]) == pytest.approx(data["players"][3]["scores"]["c_diplo"])
    assert result_sentence(result).startswith("Draw shared by Austria, England")


def test_results_example_file_in_the_docs_is_in_the_format() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT
    assert {"event", "round", "board", "map", "result", "players", "centres_by_year", "scoring", "ballots",
            "late_orders"} <= set(data)
    for p in data["players"]:
        assert {"power", "power_name", "player", "player_id", "centres", "year_eliminated", "scores"} <= set(p)


def test_results_board_call_refuses_a_missing_power_and_one_id_on_two_names() -> None:
    """Issue 35 (5): a call with a power missing was accepted silently; one player id on three
    names was accepted."""
    with pytest.raises(BoardCallError, match="Russia, Turkey are not called"):
        read_board_call("Austria,A\nEngland,B\nFrance,C\nGermany,D\nItaly,E\n", BOARD)
    with pytest.raises(BoardCallError, match="player id P1 is Ann's .line 1., not Bob's"):
        read_board_call("Austria,Ann,P1\nEngland,Bob,P1\nFrance,Cy,P1\nGermany,D\nItaly,E\nRussia,F\nTurkey,G\n",
                        BOARD)
    # one player for two powers, with the same id, stays allowed (rules I)
    call = read_board_call("Austria,Ann,P1\nItaly,Ann,P1\nEngland,B\nFrance,C\nGermany,D\nRussia,F\nTurkey,G\n",
                           BOARD)
    assert call.player_ids == {"austria": "P1", "italy": "P1"}


def test_results_board_call_semicolons_and_the_boards_details() -> None:
    """Issue 35 (5): a semicolon-separated CSV (a European spreadsheet's export) got a misleading
    error; the call may give the event, round and board."""
    text = ("event;Spring Open\nround;2\nboard;5\nPower;Player;Player id\n"
            + "".join(f"{p};N{i};P{i}\n" for i, p in enumerate(("Austria", "England", "France", "Germany", "Italy",
                                                               "Russia", "Turkey"))))
    call = read_board_call(text, BOARD)
    assert call.players["turkey"] == "N6" and call.details == {"event": "Spring Open", "round": "2", "board": "5"}


def test_results_rank_ties_in_draw_for_a_time_limit_start_and_wdd_files() -> None:
    """Issue 35 (6): rank with ties marked, the event's tie-break, in_draw for every power scored
    as drawn (a time limit: all survivors), the start labelled ``start``; the WDD's two files."""
    game = _short_game()
    result = board_result(game, kind="time_limit",
                          players={p: f"First{i} Last{i}" for i, p in enumerate(BOARD.power_ids)},
                          event="Open", round_name="2", board_name="5", event_system="c_diplo", tie_break="centres")
    assert result.outcome.kind == "time_limit"
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert all(r["in_draw"] == "yes" for r in rows)
    assert "centres_start" in rows[0] and "centres_1900" not in rows[0]
    by = {r["power"]: r for r in rows}
    assert by["Germany"]["rank"] == "1" and by["Russia"]["rank"] == "2"
    assert by["Austria"]["rank"] == "3=" and by["England"]["rank"] == "3="  # 3 centres each: shared
    data = json.loads(result.to_json())
    assert "start" in data["centres_by_year"] and all(p["in_draw"] for p in data["players"])
    assert data["event_scoring"]["system"] == "c_diplo" and data["event_scoring"]["tie_break"] == "centres"
    boards = list(csv.DictReader(io.StringIO(result.wdd_boards_csv())))
    g = next(r for r in boards if r["COUNTRY"] == "0GE")
    assert g["FIRST NAME"] == "First3" and g["NAME"] == "Last3" and g["RANK"] == "1" and g["EXAEQUO"] == "1"
    assert g["DRAW"] == "7" and g["CT_01"] == "5" and g["ROUND"] == "2" and g["BOARD"] == "5"
    a = next(r for r in boards if r["COUNTRY"] == "0AU")
    assert a["RANK"] == "3" and a["EXAEQUO"] == "5"
    classes = list(csv.DictReader(io.StringIO(result.wdd_classification_csv())))
    g = next(r for r in classes if r["NAME"] == "Last3")
    assert g["RANK"] == "1" and g["R2"] == g["SCORE"] and g["CT_0GE"] == "5" and g["HEAT_0GE"] == "2"
