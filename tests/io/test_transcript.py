"""A game's orders and results as text, and phases as DATC case files (io/transcript.py)."""

from __future__ import annotations

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Hold, Move, Retreat, SupportMove
from diplomacy_desktop.engine.rules import CLASSIC
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import Scenario, read_scenarios, write_scenario
from diplomacy_desktop.io.transcript import game_transcript, phase_case, phase_heading, position_case


def _played() -> Game:
    """Spring 1901 to Winter 1901: a standoff, a dislodgement, a retreat and a build."""
    game = Game.new(load_board())
    game.set_order(Move("france", "A", "par", "bur"))
    game.set_order(Move("germany", "A", "mun", "bur"))
    game.set_order(Move("austria", "A", "vie", "tyr"))
    game.set_order(Move("austria", "F", "tri", "adr"))
    game.adjudicate()
    game.set_order(Move("austria", "A", "tyr", "ven"))
    game.set_order(SupportMove("austria", "F", "adr", "A", "tyr", "ven"))
    game.set_order(Hold("italy", "A", "ven"))
    game.adjudicate()
    game.set_order(Retreat("italy", "A", "ven", "pie"))
    game.adjudicate()
    game.set_order(Build("austria", "A", "vie"))
    game.adjudicate()
    return game


def test_transcript_one_block_per_phase_in_rulebook_notation() -> None:
    text = game_transcript(_played(), "Test game")
    blocks = text.strip().split("\n\n")
    assert blocks[0] == "Test game"
    heads = [b.splitlines()[0] for b in blocks[1:]]
    assert heads == ["Spring 1901 movement", "Fall 1901 movement", "Fall 1901 retreats",
                     "Winter 1901 adjustments", "Spring 1902 movement: orders not yet adjudicated"]
    spring = blocks[1].splitlines()
    assert spring[spring.index("France:") + 1] == "  A Paris - Burgundy (bounced)"
    assert spring[spring.index("Germany:") + 1] == "  A Munich - Burgundy (bounced)"
    assert "  A Vienna - Tyrolia" in spring
    fall = blocks[2]
    assert "  A Venice holds (dislodged)" in fall
    assert "  F Adriatic Sea S A Tyrolia - Venice" in fall
    assert "Supply centres" not in fall  # a retreat phase follows
    assert blocks[3].splitlines()[-1] == ("Supply centres: Austria 4, England 3, France 3, Germany 3, Italy 2, "
                                          "Russia 4, Turkey 3")
    assert "  A Venice retreats to Piedmont" in blocks[3]
    assert "  Build A Vienna" in blocks[4]


def test_transcript_never_shows_orders_of_the_phase_being_played() -> None:
    game = _played()
    game.set_order(Move("russia", "A", "war", "gal"))  # sealed
    text = game_transcript(game)
    assert "Warsaw - Galicia" not in text
    assert text.rstrip().endswith("Spring 1902 movement: orders not yet adjudicated")
    case = write_scenario(position_case(game.state, "now"), game.board)
    assert "war" in case.lower() and "gal" not in case.lower().split("orders")[1]


def test_phase_case_reads_back_and_replays_as_recorded() -> None:
    game = _played()
    board = game.board
    for i, entry in enumerate(game.history):
        text = write_scenario(phase_case(entry, f"game.{i}"), board)
        (sc,) = read_scenarios(text, board)
        assert isinstance(sc, Scenario)
        assert sc.phase == entry.state.phase
        assert len(sc.orders) == len(entry.orders)
        run = run_case(sc, board, CLASSIC)
        assert run.checked and run.mismatches == (), (phase_heading(entry.state.phase), run.mismatches)
