"""Turns: phase order and skipping, centre ownership after Fall, elimination, victory, short games."""

from __future__ import annotations

import pytest
from shared_positions import BOARD, HOME, START, position

from diplomacy_desktop.engine.errors import IllegalOrderError
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Move, Order, Retreat, SupportMove
from diplomacy_desktop.engine.state import (
    ADJUSTMENT,
    FALL,
    MOVEMENT,
    RETREAT,
    SPRING,
    Phase,
    Unit,
)
from diplomacy_desktop.engine.turns import adjudicate_phase, settle, winner

# -- phase order and skipping ------------------------------------------------------------------------


def test_turns_phase_order_and_names() -> None:
    phases = [Phase(1901, SPRING, MOVEMENT)]
    for _ in range(5):
        phases.append(phases[-1].next_in_cycle())
    assert [p.short for p in phases] == ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert phases == sorted(phases)
    assert str(phases[4]) == "Winter 1901 adjustments"
    with pytest.raises(ValueError):
        Phase(1901, SPRING, ADJUSTMENT)


def test_turns_no_retreat_phase_when_nobody_is_dislodged() -> None:
    out = adjudicate_phase(START, [Move("france", "A", "par", "bur")])
    assert out.after.phase == Phase(1901, SPRING, RETREAT)  # the board right after the moves ...
    assert out.next_state.phase == Phase(1901, FALL, MOVEMENT)  # ... but the retreat phase is skipped
    assert out.next_state.units["bur"] == Unit("france", "A", "bur")


def test_turns_retreat_phase_when_a_unit_is_dislodged() -> None:
    state = position("germany A mun", "austria A boh", "austria A tyr", phase=Phase(1901, SPRING, MOVEMENT))
    orders: list[Order] = [Move("austria", "A", "boh", "mun"), SupportMove("austria", "A", "tyr", "A", "boh", "mun")]
    out = adjudicate_phase(state, orders)
    nxt = out.next_state
    assert nxt.phase == Phase(1901, SPRING, RETREAT)
    assert [d.unit for d in nxt.dislodged] == [Unit("germany", "A", "mun")]
    after_retreat = adjudicate_phase(nxt, [Retreat("germany", "A", "mun", "ber")]).next_state
    assert after_retreat.phase == Phase(1901, FALL, MOVEMENT)
    assert not after_retreat.dislodged and not after_retreat.contested


def test_turns_no_adjustment_phase_when_nothing_changes() -> None:
    fall = START.evolve(phase=Phase(1901, FALL, MOVEMENT))
    out = adjudicate_phase(fall, [])
    assert out.next_state.phase == Phase(1902, SPRING, MOVEMENT)
    assert out.next_state.owners == START.owners


def test_turns_adjustment_phase_when_a_centre_is_won() -> None:
    fall = START.evolve(phase=Phase(1901, FALL, MOVEMENT))
    out = adjudicate_phase(fall, [Move("russia", "F", "sev", "rum")])
    nxt = out.next_state
    assert nxt.phase == Phase(1901, FALL, ADJUSTMENT)
    assert nxt.owners["rum"] == "russia"
    assert nxt.adjustment_delta("russia") == 1
    built = adjudicate_phase(nxt, [Build("russia", "F", "sev")]).next_state
    assert built.phase == Phase(1902, SPRING, MOVEMENT)
    assert len(built.units_of("russia")) == 5


def test_turns_no_adjustment_phase_when_the_only_owed_build_cannot_be_made() -> None:
    # Russia wins Rumania while its own units stand in all four home centres: nowhere to build
    russia = {c: "russia" for c in ("mos", "sev", "stp", "war", "swe")}
    fall = position("russia A mos", "russia A war", "russia F sev", "russia F stp/sc", "russia A ukr",
                    phase=Phase(1901, FALL, MOVEMENT), owners=russia)
    out = adjudicate_phase(fall, [Move("russia", "A", "ukr", "rum")])
    nxt = out.next_state
    assert nxt.owners["rum"] == "russia"
    assert nxt.adjustment_delta("russia") == 1  # owed a build ...
    assert nxt.phase == Phase(1902, SPRING, MOVEMENT)  # ... but the adjustment phase is skipped
    assert len(nxt.units_of("russia")) == 5
    # with a home centre free, the same position has an adjustment phase
    free = position("russia A mos", "russia A war", "russia F sev", "russia A ukr",
                    phase=Phase(1901, FALL, ADJUSTMENT), owners=russia)
    assert settle(free).phase == Phase(1901, FALL, ADJUSTMENT)


# -- centre ownership --------------------------------------------------------------------------------


def test_turns_centres_change_hands_only_after_fall() -> None:
    spring = adjudicate_phase(START, [Move("germany", "A", "mun", "ber"), Move("germany", "A", "ber", "kie"),
                                      Move("germany", "F", "kie", "den")]).next_state
    assert spring.units["den"].power == "germany"
    assert "den" not in spring.owners  # a Spring visit takes nothing
    # it moves on in the Fall: Denmark stays neutral
    fall = adjudicate_phase(spring, [Move("germany", "F", "den", "swe")]).next_state
    assert "den" not in fall.owners
    assert fall.owners["swe"] == "germany"


def test_turns_a_vacated_centre_keeps_its_owner() -> None:
    fall = START.evolve(phase=Phase(1901, FALL, MOVEMENT))
    nxt = adjudicate_phase(fall, [Move("france", "A", "par", "bur")]).next_state
    assert "par" not in nxt.units
    assert nxt.owners["par"] == "france"


def test_turns_a_centre_taken_by_a_fall_retreat_changes_hands() -> None:
    # the rules (XIII.1): occupation after a Fall move "complete with retreats"
    fall = position("germany A mun", "austria A boh", "austria A tyr", phase=Phase(1901, FALL, MOVEMENT))
    out = adjudicate_phase(fall, [Move("austria", "A", "boh", "mun"),
                                  SupportMove("austria", "A", "tyr", "A", "boh", "mun")])
    retreat = out.next_state
    assert retreat.phase == Phase(1901, FALL, RETREAT)
    assert retreat.owners["mun"] == "germany"  # not before the retreats are done
    nxt = adjudicate_phase(retreat, [Retreat("germany", "A", "mun", "ber")]).next_state
    assert nxt.owners["mun"] == "austria"
    assert nxt.owners["ber"] == "germany"


# -- elimination and the end of the game -------------------------------------------------------------


def test_turns_a_power_without_units_and_centres_is_eliminated() -> None:
    owners = {c: p for c, p in HOME.items() if p != "austria"}
    owners.update({"vie": "italy", "bud": "russia", "tri": "italy"})
    state = position("austria A gal", "italy A vie", phase=Phase(1901, FALL, ADJUSTMENT), owners=owners)
    assert not state.is_eliminated("austria")  # still has a unit
    after = adjudicate_phase(state, []).next_state  # the unit goes by civil disorder
    assert "gal" not in after.units
    assert after.is_eliminated("austria")
    assert "austria" not in after.surviving_powers()
    # a power with a centre but no unit is still in the game
    centre_only = position(phase=Phase(1902, SPRING, MOVEMENT), owners={"vie": "austria"})
    assert not centre_only.is_eliminated("austria")
    assert centre_only.is_eliminated("england")


def _owning(power: str, count: int) -> dict[str, str]:
    centres = sorted(BOARD.centres)
    own = [c for c in centres if HOME.get(c) == power]
    own += [c for c in centres if c not in own][: count - len(own)]
    return {c: (power if c in own else HOME.get(c, "")) for c in centres if c in own or c in HOME}


def test_turns_victory_at_18_centres() -> None:
    seventeen = position(phase=Phase(1902, SPRING, MOVEMENT), owners=_owning("france", 17))
    eighteen = position(phase=Phase(1902, SPRING, MOVEMENT), owners=_owning("france", 18))
    assert seventeen.centre_counts()["france"] == 17 and winner(seventeen) is None
    assert eighteen.centre_counts()["france"] == 18 and winner(eighteen) == "france"
    assert BOARD.victory_centres == 18


def test_turns_game_ends_with_victory_after_the_fall_that_brings_18() -> None:
    owners = _owning("france", 17)
    assert "mun" not in owners or owners["mun"] != "france"
    game = Game.new(BOARD)
    game.state = position("france A bur", "germany A ruh", phase=Phase(1905, FALL, MOVEMENT),
                          owners={**owners, "mun": "germany"})
    assert game.ended is None
    game.set_order(Move("france", "A", "bur", "mun"))
    game.adjudicate()
    end = game.ended
    assert end is not None and end.kind == "victory" and end.winners == ("france",)
    assert "France" in end.text and "18" in end.text
    assert game.is_over
    with pytest.raises(IllegalOrderError, match="over"):
        game.adjudicate()
    with pytest.raises(IllegalOrderError, match="over"):
        game.set_order(Build("france", "A", "par"))


def test_turns_short_game_ends_after_the_chosen_year() -> None:
    game = Game.new(BOARD, end_year=1901)
    game.adjudicate()  # Spring 1901
    assert game.ended is None
    game.adjudicate()  # Fall 1901: nothing changes, no adjustments
    assert game.state.phase == Phase(1902, SPRING, MOVEMENT)
    end = game.ended
    assert end is not None and end.kind == "short_game"
    assert end.winners == ("russia",)  # four centres against three
    assert "1901" in end.text and "Russia" in end.text


def test_turns_short_game_waits_for_the_adjustments_and_reports_a_tie() -> None:
    game = Game.new(BOARD, end_year=1901)
    game.set_order(Move("france", "A", "par", "bur"))
    game.adjudicate()
    game.set_order(Move("france", "A", "bur", "bel"))
    game.adjudicate()
    assert game.state.phase == Phase(1901, FALL, ADJUSTMENT)
    assert game.ended is None  # the Winter 1901 builds still belong to the game
    game.set_order(Build("france", "A", "par"))
    game.adjudicate()
    end = game.ended
    assert end is not None and end.kind == "short_game"
    assert end.winners == ("france", "russia") and "tied" in end.text
