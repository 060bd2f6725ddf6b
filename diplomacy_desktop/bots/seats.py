"""The baselines beside the bot: a seat that holds everything and one that orders at random."""

from __future__ import annotations

from ..engine.options import power_options
from ..engine.orders import Build, Disband, Hold, Order, Remove
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState
from .player import Bot, rng_for

BOT = "bot"
HOLD = "hold"
RANDOM = "random"
SEAT_KINDS = (BOT, HOLD, RANDOM)


def hold_orders(state: GameState, power: str) -> list[Order]:
    """Every unit holds; dislodged units disband; no builds; removals the first units (by place)."""
    kind = state.phase.kind
    opts = power_options(state, power)
    if kind == MOVEMENT:
        return [next(o for o in os if isinstance(o, Hold)) for _, os in sorted(opts.items())]
    if kind == RETREAT:
        return [next(o for o in os if isinstance(o, Disband)) for _, os in sorted(opts.items())]
    delta = state.adjustment_delta(power) if kind == ADJUSTMENT else 0
    removals: list[Order] = [o for _, os in sorted(opts.items()) for o in os if isinstance(o, Remove)]
    return removals[:-delta] if delta < 0 else []


def random_orders(state: GameState, power: str, seed: int) -> list[Order]:
    """Every unit a random legal order; random builds (one per site) and removals."""
    rng = rng_for(seed, power, state, "random")
    opts = power_options(state, power)
    if state.phase.kind != ADJUSTMENT:
        return [rng.choice(os) for _, os in sorted(opts.items()) if os]
    delta = state.adjustment_delta(power)
    if delta < 0:
        removals = [o for _, os in sorted(opts.items()) for o in os]
        return rng.sample(removals, -delta)
    builds = [o for o in opts.get("build", ()) if isinstance(o, Build)]
    rng.shuffle(builds)
    out: list[Order] = []
    for b in builds:
        if len(out) < delta and all(o.province != b.province for o in out if isinstance(o, Build)):
            out.append(b)
    return out


def seat_orders(kind: str, state: GameState, power: str, *, level: str = "club", seed: int = 0) -> list[Order]:
    """The orders of a seat of ``kind`` (bot, hold or random) for ``power`` this phase."""
    if kind == HOLD:
        return hold_orders(state, power)
    if kind == RANDOM:
        return random_orders(state, power, seed)
    if kind == BOT:
        return Bot(level, seed).orders(state, power)
    raise ValueError(f"a seat is {', '.join(SEAT_KINDS)}, not {kind!r}")
