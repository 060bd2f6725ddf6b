"""Property tests: random legal positions, random legal orders, invariants after every adjudication.

Positions are random units on random legal locations with random centre owners; orders are
drawn from :func:`diplomacy_desktop.engine.options.power_options` (biased so that supports and
convoys often match a move that was really ordered, which is where the rules get hard).  After
every adjudication: one unit per space, nothing in Switzerland, every unit where its kind can
stand, every order exactly one result with a reason, and the same outcome whatever the order
of the orders.  Random multi-phase games also check that after the adjustments every power has
as many units as centres unless it could not build or chose not to.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diplomacy_desktop.engine.board import ARMY, FLEET, IMPASSABLE
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.options import power_options
from diplomacy_desktop.engine.orders import (
    Build,
    Convoy,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
    Waive,
)
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.engine.state import (
    ADJUSTMENT,
    FALL,
    MOVEMENT,
    RETREAT,
    SPRING,
    GameState,
    Phase,
    Unit,
)
from diplomacy_desktop.engine.turns import PhaseOutcome, adjudicate_phase
from diplomacy_desktop.engine.validation import check_order, retreat_destinations
from diplomacy_desktop.io.boardfile import load_board

# the resolver raises the recursion limit on first use; do it up front so hypothesis need not warn
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

BOARD = load_board()
POWERS = BOARD.power_ids
PROVINCES = sorted(p for p, s in BOARD.spaces.items() if s.kind != IMPASSABLE)
SWITZERLAND = [p for p, s in BOARD.spaces.items() if s.kind == IMPASSABLE]
PLACES = {
    p: ([(ARMY, p)] if BOARD.unit_can_stand(ARMY, p) else []) + [(FLEET, loc) for loc in BOARD.fleet_locations(p)]
    for p in PROVINCES
}
T = TypeVar("T")
EDITIONS = st.sampled_from([RuleSet.for_edition(e) for e in Edition])

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- generating positions and orders ---------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A drawn position, kept small so that a failing example prints readably."""

    season: str
    units: tuple[tuple[str, str, str], ...]  # (power, kind, location)
    owners: tuple[tuple[str, str], ...]  # (centre, power)

    def state(self) -> GameState:
        return GameState.build(BOARD, Phase(1901, self.season, MOVEMENT), [Unit(*u) for u in self.units],
                               dict(self.owners))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A random position: 8 to 34 units, spread over the board or crowded into one region."""
    count = draw(st.integers(min_value=8, max_value=34))
    crowded = draw(st.booleans())
    rnd = draw(st.randoms(use_true_random=False))
    provinces: list[str] = []
    if crowded:
        frontier = [rnd.choice(PROVINCES)]
        while frontier and len(provinces) < count:
            p = frontier.pop(rnd.randrange(len(frontier)))
            if p in provinces:
                continue
            provinces.append(p)
            frontier.extend(q for q in sorted(BOARD.province_neighbours[p]) if q in PLACES and q not in provinces)
    else:
        provinces = rnd.sample(PROVINCES, count)
    units = tuple((rnd.choice(POWERS), *rnd.choice(PLACES[p])) for p in provinces)
    owners = tuple((c, o) for c in sorted(BOARD.centres) if (o := rnd.choice((None, *POWERS))) is not None)
    return Position(rnd.choice((SPRING, FALL)), units, owners)  # type: ignore[arg-type]


def pick_movement_orders(state: GameState, choose: _Chooser) -> list[Order]:
    """One option (or nothing) per unit; supports and convoys prefer orders really given."""
    options = {prov: opts for p in POWERS for prov, opts in power_options(state, p).items()}
    plans = {prov: choose.one(("none", "hold", "move", "move", "move", "support", "support", "support",
                               "convoy", "any"))
             for prov in sorted(options)}
    chosen: dict[str, Order] = {}
    for prov, plan in plans.items():
        opts = options[prov]
        if plan == "hold":
            chosen[prov] = opts[0]
        elif plan == "move":
            moves = [o for o in opts if isinstance(o, Move)]
            chosen[prov] = choose.one(moves) if moves else opts[0]
        elif plan == "any":
            chosen[prov] = choose.one(opts)
    for prov, plan in plans.items():
        if plan not in ("support", "convoy"):
            continue
        opts = options[prov]
        kinds = (SupportHold, SupportMove) if plan == "support" else (Convoy,)
        fitting: list[Order] = [o for o in opts if isinstance(o, kinds) and _fits(o, chosen)]
        anything: list[Order] = [o for o in opts if isinstance(o, kinds)]
        prefer_fitting = bool(fitting) and choose.one((True, True, True, False))
        pool = fitting if prefer_fitting else (anything or opts)
        chosen[prov] = choose.one(pool)
        if isinstance(chosen[prov], Convoy):
            convoy = chosen[prov]
            assert isinstance(convoy, Convoy)
            army = state.units[convoy.target_province]
            chosen.setdefault(army.province, Move(army.power, ARMY, army.location, convoy.destination_province,
                                                  choose.one((True, False))))
    # a convoy may have asked an army to move; keep only orders that are still legal options
    out = []
    for prov, order in sorted(chosen.items()):
        if order not in options[prov]:
            order = options[prov][0]
        out.append(order)
    return out


def _fits(order: Order, chosen: dict[str, Order]) -> bool:
    if isinstance(order, SupportHold):
        other = chosen.get(order.target_province)
        return not isinstance(other, Move)
    if isinstance(order, SupportMove):
        other = chosen.get(order.target_province)
        return isinstance(other, Move) and other.target_province == order.destination_province
    if isinstance(order, Convoy):
        other = chosen.get(order.target_province)
        return other is None or (isinstance(other, Move) and other.target_province == order.destination_province)
    return False


class _Chooser:
    """Random choices from hypothesis (``st.data()``) or from a seeded ``random.Random``."""

    def __init__(self, data: st.DataObject | None = None, rnd: random.Random | None = None) -> None:
        self.data = data
        self.rnd = rnd

    def one(self, items: Sequence[T]) -> T:
        if self.data is not None:
            return self.data.draw(st.sampled_from(list(items)))
        assert self.rnd is not None
        return self.rnd.choice(list(items))

    def shuffled(self, items: Sequence[T]) -> list[T]:
        if self.data is not None:
            return list(self.data.draw(st.permutations(list(items))))
        assert self.rnd is not None
        out = list(items)
        self.rnd.shuffle(out)
        return out


# -- invariants --------------------------------------------------------------------------------------


def check_position(state: GameState) -> None:
    """One unit per space, nothing in Switzerland, every unit where its kind can stand."""
    for prov, unit in state.units.items():
        assert unit.province == prov
        assert BOARD.spaces[prov].kind != IMPASSABLE
        assert BOARD.unit_can_stand(unit.kind, unit.location), unit
    assert not any(s in state.units for s in SWITZERLAND)
    dislodged = [d.province for d in state.dislodged]
    assert len(dislodged) == len(set(dislodged))
    for d in state.dislodged:
        assert BOARD.unit_can_stand(d.unit.kind, d.unit.location), d
    owners_ok = all(c in BOARD.centres and p in POWERS for c, p in state.owners.items())
    assert owners_ok


def check_results(state: GameState, orders: Sequence[Order], out: PhaseOutcome) -> None:
    """Every order exactly one result with a reason; every unit to be ordered accounted for."""
    counts = Counter(r.order for r in out.results)
    for o in orders:
        assert counts[o] == 1, f"{o} got {counts[o]} results"
    for r in out.results:
        assert r.reason.strip(), r
        assert isinstance(r.outcome, Outcome)
    kind = state.phase.kind
    if kind == MOVEMENT:
        per_unit = Counter(r.order.province for r in out.results if isinstance(r.order, UnitOrder))
        assert set(per_unit) == set(state.units)
        assert all(n == 1 for n in per_unit.values())
        after = out.after
        assert len(after.units) + len(after.dislodged) == len(state.units)
        for d in after.dislodged:
            assert d.unit == state.units[d.province]
            assert d.province in after.units  # the attacker stands there now
    elif kind == RETREAT:
        per_unit = Counter(r.order.province for r in out.results if isinstance(r.order, UnitOrder))
        assert set(per_unit) == {d.province for d in state.dislodged}
        assert not out.after.dislodged
        retreated = [r.order for r in out.results if r.outcome is Outcome.SUCCESS and isinstance(r.order, Retreat)]
        assert len(out.after.units) == len(state.units) + len(retreated)
        for retreat in retreated:
            assert retreat.destination in retreat_destinations(state, retreat.province)
    check_position(out.after)
    check_position(out.next_state)


def check_shuffle(state: GameState, orders: Sequence[Order], out: PhaseOutcome, rules: RuleSet,
                  choose: _Chooser) -> None:
    again = adjudicate_phase(state, choose.shuffled(orders), rules)
    assert Counter(again.results) == Counter(out.results)
    assert again.after == out.after
    assert again.next_state == out.next_state


# -- single movement phases on random positions ----------------------------------------------------


@FAST
@given(position=positions(), rules=EDITIONS, data=st.data())
def test_movement_invariants_on_random_positions(position: Position, rules: RuleSet, data: st.DataObject) -> None:
    state = position.state()
    check_position(state)
    choose = _Chooser(data=data)
    orders = pick_movement_orders(state, choose)
    for o in orders:
        check_order(state, o)  # every option is legal
    out = adjudicate_phase(state, orders, rules)
    check_results(state, orders, out)
    check_shuffle(state, orders, out, rules, choose)
    if out.after.dislodged:
        # and the retreat phase that follows
        retreats = []
        for p in POWERS:
            for opts in power_options(out.after, p).values():
                pick = choose.one([None, *opts])
                if pick is not None:
                    retreats.append(pick)
        out2 = adjudicate_phase(out.after, retreats, rules)
        check_results(out.after, retreats, out2)
        check_shuffle(out.after, retreats, out2, rules, choose)


# -- random games ------------------------------------------------------------------------------------


def _free_home_centres(state: GameState, power: str) -> list[str]:
    return [c for c in BOARD.home_centres.get(power, ()) if c not in state.units and state.owners.get(c) == power]


def _adjustment_orders(state: GameState, choose: _Chooser) -> tuple[list[Order], dict[str, bool]]:
    """Builds (at distinct sites, no more than allowed), removals or nothing, per power.

    Returns the orders and, per power with builds, whether it left any build unused on purpose.
    """
    orders: list[Order] = []
    held_back: dict[str, bool] = {}
    for p in POWERS:
        delta = state.adjustment_delta(p)
        opts = power_options(state, p)
        if delta > 0:
            builds = [o for o in opts.get("build", []) if isinstance(o, Build)]
            sites = sorted({o.province for o in builds})
            n = min(delta, len(sites))
            want = choose.one(list(range(n + 1)) + [n, n])  # usually build all
            picked_sites = choose.shuffled(sites)[:want]
            for site in picked_sites:
                orders.append(choose.one([o for o in builds if o.province == site]))
            waive = want < n and choose.one((True, False))
            if waive:
                orders.append(Waive(p))
            held_back[p] = want < n
        elif delta < 0:
            units = sorted(opts)
            k = choose.one(list(range(-delta + 1)) + [-delta])  # sometimes too few: civil disorder
            for prov in choose.shuffled(units)[:k]:
                orders.append(opts[prov][0])
    return orders, held_back


def _retreat_orders(state: GameState, choose: _Chooser) -> list[Order]:
    out = []
    for p in POWERS:
        for opts in power_options(state, p).values():
            pick = choose.one([None, *opts, *[o for o in opts if isinstance(o, Retreat)]])
            if pick is not None:
                out.append(pick)
    return out


def check_supply(before: GameState, after: GameState, held_back: dict[str, bool]) -> None:
    """After the adjustments: units == centres, unless a power could not build or chose not to."""
    centres = after.centre_counts()
    units = after.unit_counts()
    for p in POWERS:
        if units[p] > centres[p]:
            raise AssertionError(f"{p} keeps {units[p]} units on {centres[p]} centres")
        if units[p] < centres[p]:
            could_not = not _free_home_centres(after, p)
            assert could_not or held_back.get(p, False), (
                f"{p} has {units[p]} units on {centres[p]} centres and could still build in "
                f"{_free_home_centres(after, p)}")


def play_random_game(rnd: random.Random, edition: Edition, years: int) -> Game:
    game = Game.new(BOARD, edition)
    choose = _Chooser(rnd=rnd)
    last_year = BOARD.start_year + years - 1
    while not game.is_over and game.state.phase.year <= last_year:
        state = game.state
        check_position(state)
        held_back: dict[str, bool] = {}
        if state.phase.kind == MOVEMENT:
            orders = pick_movement_orders(state, choose)
        elif state.phase.kind == RETREAT:
            orders = _retreat_orders(state, choose)
        else:
            orders, held_back = _adjustment_orders(state, choose)
        for o in orders:
            game.set_order(o)
        entry = game.adjudicate()
        out = PhaseOutcome(entry.results, entry.after, entry.next_state)
        check_results(state, orders, out)
        if rnd.random() < 0.3:
            check_shuffle(state, orders, out, game.rules, choose)
        nxt = entry.next_state
        if state.phase.kind == ADJUSTMENT:
            check_supply(state, entry.after, held_back)
        elif state.phase.season == FALL and nxt.phase.season == SPRING:
            # the adjustment phase was skipped: nothing to adjust, or nothing that can be built
            check_supply(state, nxt, {})
        if state.phase.season == SPRING:
            assert nxt.owners == state.owners  # centres change hands only after Fall
    return game


@GAMES
@given(rnd=st.randoms(use_true_random=False), edition=st.sampled_from(list(Edition)))
def test_random_games_keep_units_equal_to_centres(rnd: random.Random, edition: Edition) -> None:
    game = play_random_game(rnd, edition, years=6)
    assert game.history
    kinds = Counter(h.state.phase.kind for h in game.history)
    assert kinds[MOVEMENT] >= 2
