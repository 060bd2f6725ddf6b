"""Move the pieces: the piece pusher's list, checked by carrying it out on a model of the table.

Every DATC v3.0 case and random whole games: after the list, the pieces stand exactly where the
engine says, and no step ever put two pieces in one space.  Rings and chains on the DATC's own
positions (6.C.1 three army circular movement, 6.C.4 circular movement with attacked convoy,
6.C.6 two armies with two convoys: a swap by convoy).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.options import power_options
from diplomacy_desktop.engine.orders import Build, Move, Order, Retreat
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.engine.state import MOVEMENT, GameState, Phase, Unit
from diplomacy_desktop.engine.turns import adjudicate_phase
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import parse_order
from diplomacy_desktop.io.scenario import Scenario, read_scenarios, scenario_state
from diplomacy_desktop.table.pieces import (
    ASIDE,
    BUILD,
    CENTRE,
    LIFT,
    MOVE,
    PLACE,
    REMOVE,
    RETREAT_STEP,
    PieceError,
    PieceStep,
    plan_entry,
    plan_pieces,
    replay,
)

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
BOARD = load_board()
LESSONS = Path(__file__).resolve().parents[2] / "lessons"
CASES = {sc.name: sc for f in [*sorted(LESSONS.glob("datc_v3_6*.txt")), LESSONS / "formal_diplomacy.txt",
                                LESSONS / "rulebook_examples.txt"]
         for sc in read_scenarios(f.read_text(encoding="utf-8"), BOARD) if isinstance(sc, Scenario)}


def _run(sc: Scenario) -> tuple[GameState, object]:
    state = scenario_state(sc, BOARD)
    orders = []
    for ol in sc.orders:
        try:
            orders.append(parse_order(ol.text, ol.power, state, case_file=True))
        except ValueError:
            continue
    rules = RuleSet.for_edition(Edition.CLASSIC if ".classic" in sc.name else Edition.Y2023)
    return state, adjudicate_phase(state, orders, rules)


def _check_plan_reaches(before: GameState, after: GameState, steps: object) -> None:
    table = replay(before, steps)  # type: ignore[arg-type]
    assert table.on_board == dict(after.units)
    if before.phase.kind == MOVEMENT:
        assert table.beside == {d.province: d.unit for d in after.dislodged}
    else:
        assert table.beside == {}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pieces_every_datc_case_is_carried_out_without_two_pieces_in_a_space(name: str) -> None:
    """Every DATC v3.0 case, every Formal Diplomacy case and every rulebook example."""
    before, out = _run(CASES[name])
    plan = plan_pieces(before, out.results, out.after, None, out.interned)  # type: ignore[attr-defined]
    _check_plan_reaches(before, out.after, plan)  # type: ignore[attr-defined]


def _steps(name: str) -> tuple[GameState, list[PieceStep]]:
    before, out = _run(CASES[name])
    plan = plan_pieces(before, out.results, out.after)  # type: ignore[attr-defined]
    return before, list(plan.steps)


def test_pieces_three_army_ring_lifts_one_piece_first_datc_6c1() -> None:
    _, steps = _steps("6.C.1")
    assert [s.action for s in steps] == [LIFT, MOVE, MOVE, PLACE]
    lift, place = steps[0], steps[-1]
    assert lift.source == place.source == "ank" and place.target == "con"
    assert "ring of 3 moves" in lift.note and lift.ring == place.ring == 1
    # after Ankara is lifted, Smyrna's army moves into it, then Constantinople's into Smyrna
    assert [(s.source, s.target) for s in steps[1:3]] == [("smy", "ank"), ("con", "smy")]
    assert "no piece can move first" in lift.text(BOARD)


def test_pieces_circular_movement_with_convoy_is_a_ring_datc_6c4() -> None:
    _, steps = _steps("6.C.4")
    assert [s.action for s in steps] == [LIFT, MOVE, MOVE, PLACE]
    assert {(s.source, s.target) for s in steps if s.action == MOVE} | {(steps[0].source, steps[-1].target)} == {
        ("tri", "ser"), ("ser", "bul"), ("bul", "tri")}


def test_pieces_swap_by_convoy_says_swap_datc_6c6() -> None:
    _, steps = _steps("6.C.6")
    lifts = [s for s in steps if s.action == LIFT]
    assert len(lifts) == 1 and "swap" in lifts[0].note
    assert [s.action for s in steps] == [LIFT, MOVE, PLACE]


def test_pieces_disrupted_ring_moves_nothing_datc_6c3() -> None:
    _, steps = _steps("6.C.3")
    assert steps == []


def _position(units: list[Unit], phase: Phase | None = None) -> GameState:
    return GameState.build(BOARD, phase or Phase(1901, "spring", MOVEMENT), units)


def test_pieces_chain_is_done_from_its_free_end() -> None:
    state = _position([Unit("germany", "A", "bur"), Unit("germany", "A", "mun"), Unit("germany", "A", "kie")])
    orders: list[Order] = [Move("germany", "A", "bur", "mun"), Move("germany", "A", "mun", "kie"),
                           Move("germany", "A", "kie", "den")]
    out = adjudicate_phase(state, orders)
    plan = plan_pieces(state, out.results, out.after)
    assert [(s.action, s.source, s.target) for s in plan.steps] == [
        (MOVE, "kie", "den"), (MOVE, "mun", "kie"), (MOVE, "bur", "mun")]
    assert plan.rings == 0
    _check_plan_reaches(state, out.after, plan)


def test_pieces_dislodged_unit_goes_aside_before_the_attacker_moves_in() -> None:
    from diplomacy_desktop.engine.orders import SupportMove

    state = _position([Unit("france", "A", "bur"), Unit("germany", "A", "ruh"), Unit("germany", "A", "mun")])
    orders: list[Order] = [Move("germany", "A", "mun", "bur"), SupportMove("germany", "A", "ruh", "A", "mun", "bur")]
    out = adjudicate_phase(state, orders)
    plan = plan_pieces(state, out.results, out.after, out.next_state)
    assert [(s.action, s.source, s.target) for s in plan.steps] == [(ASIDE, "bur", None), (MOVE, "mun", "bur")]
    step = plan.steps[0].text(BOARD)  # by whom, never read as the unit's own old place (issue 33 play-through)
    assert "dislodged by the attack from Munich" in step and "dislodged from" not in step
    _check_plan_reaches(state, out.after, plan)
    # the retreat phase: the piece beside Burgundy goes to Paris; the one that is not ordered comes off
    retreat_state = out.next_state
    out2 = adjudicate_phase(retreat_state, [Retreat("france", "A", "bur", "par")])
    plan2 = plan_pieces(retreat_state, out2.results, out2.after, out2.next_state)
    assert [(s.action, s.source, s.target) for s in plan2.steps] == [(RETREAT_STEP, "bur", "par")]
    _check_plan_reaches(retreat_state, out2.after, plan2)
    out3 = adjudicate_phase(retreat_state, [])
    plan3 = plan_pieces(retreat_state, out3.results, out3.after)
    assert [(s.action, s.source) for s in plan3.steps] == [(REMOVE, "bur")]
    assert "disbanded" in plan3.steps[0].text(BOARD)


def test_pieces_a_wrong_list_is_caught_by_replay() -> None:
    state = _position([Unit("germany", "A", "mun"), Unit("germany", "A", "kie")])
    with pytest.raises(PieceError, match="already holds"):
        replay(state, [PieceStep(MOVE, "germany", "A", "mun", "kie")])
    with pytest.raises(PieceError, match="no germany F"):
        replay(state, [PieceStep(MOVE, "germany", "F", "mun", "ber")])
    with pytest.raises(PieceError, match="left in the hand"):
        replay(state, [PieceStep(LIFT, "germany", "A", "mun", "ber")])


def test_pieces_adjustments_remove_first_then_build_and_fall_centres_are_re_marked() -> None:
    game = Game.new(BOARD)
    for o in (Move("germany", "A", "mun", "ruh"), Move("germany", "F", "kie", "den"),
              Move("russia", "A", "war", "gal")):
        game.set_order(o)
    game.adjudicate()  # spring
    game.set_order(Move("germany", "F", "den", "swe"))
    game.set_order(Move("germany", "A", "ruh", "hol"))
    entry = game.adjudicate()  # fall: Germany takes Sweden and Holland
    plan = plan_entry(entry)
    centres = [(s.target, s.power, s.previous_owner) for s in plan.steps if s.action == CENTRE]
    assert ("hol", "germany", "") in centres and ("swe", "germany", "") in centres
    assert "Mark Holland as German (was neutral)" in plan.lines(BOARD)
    assert game.state.phase.kind == "adjustment"
    before = game.state
    game.set_order(Build("germany", "A", "mun"))
    game.set_order(Build("germany", "F", "kie"))
    entry = game.adjudicate()
    plan = plan_entry(entry)
    assert [(s.action, s.target) for s in plan.steps if s.action == BUILD] == [(BUILD, "kie"), (BUILD, "mun")]
    _check_plan_reaches(before, entry.after, plan)


def _random_orders(state: GameState, rng: random.Random) -> list[Order]:
    out: list[Order] = []
    for p in BOARD.power_ids:
        opts = power_options(state, p)
        if state.phase.kind == "adjustment":
            delta = state.adjustment_delta(p)
            builds = [o for o in opts.get("build", []) if isinstance(o, Build)]
            used: set[str] = set()
            for o in rng.sample(builds, len(builds)):
                if len(used) < delta and o.province not in used:
                    out.append(o)
                    used.add(o.province)
            for prov in sorted(k for k in opts if k != "build")[: max(0, -delta)]:
                out.append(opts[prov][0])
            continue
        for prov in sorted(opts):
            choices = opts[prov]
            moves = [o for o in choices if isinstance(o, Move)]
            out.append(rng.choice(moves) if moves and rng.random() < 0.6 else rng.choice(choices))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_pieces_random_games_every_phase_carried_out_exactly(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(BOARD)
    rings = 0
    for _ in range(24):
        if game.is_over:
            break
        for o in _random_orders(game.state, rng):
            game.set_order(o, allow_illegal=True)
        before = game.state
        entry = game.adjudicate()
        plan = plan_entry(entry)
        rings += plan.rings
        table = replay(before, plan)
        assert table.on_board == dict(entry.after.units)
        # the centre markers end as the next phase has them
        assert table.owners == dict(entry.next_state.owners)
        for step in plan.steps:
            assert step.text(BOARD)


def test_pieces_civil_disorder_dislodged_unit_comes_off_before_the_attacker_moves_in() -> None:
    from diplomacy_desktop.engine.orders import SupportMove

    state = _position([Unit("france", "A", "bur"), Unit("germany", "A", "ruh"), Unit("germany", "A", "mun")])
    orders: list[Order] = [Move("germany", "A", "mun", "bur"), SupportMove("germany", "A", "ruh", "A", "mun", "bur")]
    out = adjudicate_phase(state, orders, disorder=frozenset({"france"}))
    plan = plan_pieces(state, out.results, out.after, out.next_state)
    assert [(s.action, s.source, s.target) for s in plan.steps] == [(REMOVE, "bur", None), (MOVE, "mun", "bur")]
    assert "civil disorder" in plan.steps[0].note and "XIV.1" in plan.steps[0].note
    _check_plan_reaches(state, out.after, plan)


def test_pieces_formal_diplomacy_interned_units_named() -> None:
    name = next(n for n in CASES if n.startswith("FD.19 "))
    before, out = _run(CASES[name])
    plan = plan_pieces(before, out.results, out.after, None, out.interned)  # type: ignore[attr-defined]
    removed = [s for s in plan.steps if s.action == REMOVE]
    assert removed and all("interned" in s.text(BOARD) for s in removed)


def test_pieces_disbanded_retreat_names_the_piece_beside_not_the_one_in_the_province() -> None:
    """Issue 35 (3): Turkey's army, dislodged from Serbia, stands beside it while Austria's army
    stands in it; the step that disbands it must not read "Turkey's army in Serbia"."""
    from diplomacy_desktop.engine.orders import SupportMove

    state = _position([Unit("turkey", "A", "ser"), Unit("austria", "A", "bud"), Unit("austria", "A", "tri")])
    orders: list[Order] = [Move("austria", "A", "bud", "ser"), SupportMove("austria", "A", "tri", "A", "bud", "ser")]
    out = adjudicate_phase(state, orders)
    retreat_state = out.next_state
    assert retreat_state.units["ser"].power == "austria" and retreat_state.dislodged
    out2 = adjudicate_phase(retreat_state, [])  # Turkey does not retreat: disbanded
    plan = plan_pieces(retreat_state, out2.results, out2.after)
    text = plan.steps[0].text(BOARD)
    assert text == "Take Turkey's army standing beside Serbia off the board (dislodged and not retreated: disbanded)"
    assert "army in Serbia" not in text
    board = replay(retreat_state, plan)
    assert board.on_board["ser"].power == "austria" and "ser" not in board.beside
