"""``Game``: the mutable facade: filing orders, adjudicating, undoing, history."""

from __future__ import annotations

import pytest

from diplomacy_desktop.engine.errors import AmbiguousOrderError, IllegalOrderError
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Hold, Move, Waive
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.rules import Edition
from diplomacy_desktop.engine.state import ADJUSTMENT, FALL, MOVEMENT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.io.boardfile import load_board

BOARD = load_board()


@pytest.fixture
def game() -> Game:
    return Game.new(BOARD)


def test_game_starts_at_spring_1901_with_the_classic_rules(game: Game) -> None:
    assert game.state == GameState.initial(BOARD)
    assert game.state.phase == Phase(1901, SPRING, MOVEMENT)
    assert game.rules.edition is Edition.CLASSIC
    assert Game.new(BOARD, "2023").rules.edition is Edition.Y2023
    assert game.history == [] and game.all_orders() == []


def test_game_set_order_replaces_the_earlier_order_for_the_unit(game: Game) -> None:
    game.set_order(Move("france", "A", "par", "bur"))
    game.set_order(Move("france", "A", "mar", "spa"))
    game.set_order(Move("france", "A", "par", "gas"))
    assert game.orders_of("france") == [Move("france", "A", "par", "gas"), Move("france", "A", "mar", "spa")]
    assert game.order_for("france", "par") == Move("france", "A", "par", "gas")


def test_game_clear_order(game: Game) -> None:
    game.set_order(Move("france", "A", "par", "bur"))
    game.set_order(Hold("germany", "A", "mun"))
    assert game.clear_order("france", "par") == Move("france", "A", "par", "bur")
    assert game.clear_order("france", "par") is None
    assert game.all_orders() == [Hold("germany", "A", "mun")]
    game.clear_orders()
    assert game.all_orders() == []


def test_game_illegal_orders_are_refused_unless_allowed(game: Game) -> None:
    with pytest.raises(IllegalOrderError, match="London"):
        game.set_order(Move("france", "A", "par", "lon"))
    assert game.all_orders() == []
    kept = game.set_order(Move("france", "A", "par", "lon"), allow_illegal=True)
    assert game.all_orders() == [kept]
    entry = game.adjudicate()
    result = next(r for r in entry.results if r.order == kept)
    assert result.outcome is Outcome.ILLEGAL and "London" in result.reason
    assert game.state.units["par"] == Unit("france", "A", "par")  # the unit held


def test_game_ambiguous_orders_are_refused_even_when_illegal_ones_are_allowed() -> None:
    game = Game.new(BOARD)
    game.state = game.state.evolve(units={**game.state.units, "mao": Unit("france", "F", "mao")})
    with pytest.raises(AmbiguousOrderError):
        game.set_order(Move("france", "F", "mao", "spa"), allow_illegal=True)
    assert game.all_orders() == []


def test_game_orders_of_another_power_are_illegal(game: Game) -> None:
    with pytest.raises(IllegalOrderError, match="cannot order"):
        game.set_order(Move("germany", "A", "par", "bur"))


def test_game_adjudicate_records_history_and_moves_on(game: Game) -> None:
    game.set_order(Move("france", "A", "par", "bur"))
    entry = game.adjudicate()
    assert game.history == [entry]
    assert entry.state == GameState.initial(BOARD)
    assert entry.orders == (Move("france", "A", "par", "bur"),)
    assert len(entry.results) == 22  # one per unit
    assert game.state is entry.next_state
    assert game.state.phase == Phase(1901, FALL, MOVEMENT)
    assert game.all_orders() == []  # orders do not carry over


def test_game_undo_adjudication_restores_position_and_orders(game: Game) -> None:
    orders = [Move("france", "A", "par", "bur"), Move("germany", "A", "mun", "bur"), Hold("italy", "A", "ven")]
    for o in orders:
        game.set_order(o)
    before = game.state
    game.adjudicate()
    assert game.state != before
    entry = game.undo_adjudication()
    assert entry is not None
    assert game.state == before
    assert game.history == []
    assert sorted(map(str, game.all_orders())) == sorted(map(str, orders))
    assert game.order_for("germany", "mun") == Move("germany", "A", "mun", "bur")
    # adjudicating again gives the same result
    again = game.adjudicate()
    assert again.results == entry.results and again.next_state == entry.next_state
    assert game.undo_adjudication() is not None
    assert game.undo_adjudication() is None  # nothing left to undo


def test_game_undo_brings_back_a_finished_game(game: Game) -> None:
    game.end_year = 1901
    game.adjudicate()
    game.adjudicate()
    assert game.is_over
    game.undo_adjudication()
    assert not game.is_over
    assert game.state.phase == Phase(1901, FALL, MOVEMENT)


def test_game_keeps_several_waives(game: Game) -> None:
    game.state = GameState.build(BOARD, Phase(1901, FALL, ADJUSTMENT), [], {"mos": "russia", "sev": "russia"})
    game.set_order(Waive("russia"))
    game.set_order(Waive("russia"))
    assert game.builds_of("russia") == [Waive("russia"), Waive("russia")]
    entry = game.adjudicate()
    assert [r.code for r in entry.results] == ["waived", "waived"]
    game.undo_adjudication()
    assert game.builds_of("russia") == [Waive("russia"), Waive("russia")]


def test_game_a_waive_filed_after_clearing_another_does_not_replace_the_one_left(game: Game) -> None:
    game.state = GameState.build(BOARD, Phase(1901, FALL, ADJUSTMENT), [],
                                 {"mos": "russia", "sev": "russia", "war": "russia"})
    game.set_order(Waive("russia"))
    game.set_order(Waive("russia"))
    assert game.clear_order("russia", "waive0") == Waive("russia")
    game.set_order(Waive("russia"))
    assert game.builds_of("russia") == [Waive("russia"), Waive("russia")]
    # and after an undo, a further waive is added, not written over a restored one
    game.set_order(Build("russia", "A", "war"))
    game.adjudicate()
    game.undo_adjudication()
    game.clear_order("russia", "war")
    game.set_order(Waive("russia"))
    assert game.builds_of("russia") == [Waive("russia")] * 3


def test_game_builds_are_filed_by_centre(game: Game) -> None:
    game.state = GameState.build(BOARD, Phase(1901, FALL, ADJUSTMENT), [], {"mos": "russia", "sev": "russia"})
    game.set_order(Build("russia", "A", "sev"))
    game.set_order(Build("russia", "F", "sev"))
    assert game.builds_of("russia") == [Build("russia", "F", "sev")]
    assert game.phase_needs_orders


def test_game_draw(game: Game) -> None:
    game.declare_draw(["russia", "england"])
    end = game.ended
    assert end is not None and end.kind == "draw" and end.winners == ("england", "russia")
    assert "England" in end.text and "Russia" in end.text
