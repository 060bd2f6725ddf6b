"""A game's orders and results as a gamemaster posts them, and any phase as a DATC case file.

Only adjudicated history is written: the orders filed for the phase being played are secret
until they are adjudicated, so neither the transcript nor a case of the current phase shows them.
"""

from __future__ import annotations

from ..engine.board import Board
from ..engine.boardindex import board_index
from ..engine.game import Game, HistoryEntry
from ..engine.orders import RULEBOOK_WORDS, Disband, Hold, Order, OrderStyle
from ..engine.results import OrderResult, Outcome
from ..engine.state import ADJUSTMENT, FALL, MOVEMENT, RETREAT, GameState, Phase
from .notation import format_order
from .scenario import OrderLine, Scenario

_KIND_WORD = {MOVEMENT: "movement", RETREAT: "retreats", ADJUSTMENT: "adjustments"}


def phase_heading(phase: Phase) -> str:
    """``Spring 1901 movement``, ``Fall 1901 retreats``, ``Winter 1901 adjustments``."""
    season = "Winter" if phase.kind == ADJUSTMENT else phase.season.title()
    return f"{season} {phase.year} {_KIND_WORD[phase.kind]}"


#: the gamemaster's words with the spaces' full names (``F North Sea C A London - Norway``)
_FULL_WORDS = {**RULEBOOK_WORDS, "hold": "{unit} holds", "retreat": "{unit} retreats to {dest}",
               "disband": "{unit} disbands", "waive": "Waive (no build)"}


def order_words(order: Order, board: Board) -> str:
    """Rulebook notation with the spaces' full names: ``A Paris - Burgundy``,
    ``F North Sea C A London - Norway``, ``Build F St Petersburg (nc)``."""
    return order.write(OrderStyle(_FULL_WORDS, place=board_index(board).space_name))


def result_words(r: OrderResult) -> str:
    """What happened, in a gamemaster's words: ``bounced``, ``cut``, ``void``, ``dislodged`` ...
    (empty for an order that simply succeeded)."""
    parts: list[str] = []
    if r.outcome is Outcome.ILLEGAL:
        parts.append(r.reason.removesuffix("; the unit holds").removesuffix("; its legal order stands"))
    elif r.outcome is Outcome.VOID:
        parts.append("void")
    elif r.outcome is Outcome.FAILURE and r.code != "dislodged":
        parts.append({"bounced": "bounced", "head_to_head": "bounced", "own_unit": "bounced", "cut": "cut",
                      "no_convoy": "no convoy", "disrupted": "convoy disrupted", "paradox": "convoy paradox"}
                     .get(r.code, r.code.replace("_", " ")))
    elif r.code in ("disorder", "disorder_disbanded"):
        parts.append("civil disorder")
    elif r.code == "unordered" and isinstance(r.order, Disband):
        parts.append("no retreat ordered or possible")
    if r.dislodged or r.code == "dislodged":
        parts.append("dislodged")
    return ", ".join(parts)


def phase_block(entry: HistoryEntry) -> str:
    """One adjudicated phase: its heading, then each power's orders with what became of them."""
    state = entry.state
    board = state.board
    lines = [phase_heading(state.phase)]
    by_power: dict[str, list[str]] = {}
    for r in entry.results:
        order = r.order
        if r.code == "unordered" and isinstance(order, Hold):
            continue  # a unit without orders holds: not an order anyone wrote
        said = result_words(r)
        text = order_words(order, board) + (f" ({said})" if said else "")
        by_power.setdefault(order.power, []).append(text)
    for p in board.power_ids:
        if p in entry.disorder:
            by_power.setdefault(p, []).insert(0, "(in civil disorder)")
        if p in by_power:
            lines.append(f"{board.power(p).name}:")
            lines.extend(f"  {t}" for t in by_power[p])
    if not by_power:
        lines.append("  (no orders)")
    after = entry.next_state
    if state.phase.season == FALL and state.phase.kind != ADJUSTMENT and after.phase.kind != RETREAT:
        counts = after.centre_counts()
        owned = ", ".join(f"{board.power(p).name} {counts[p]}" for p in board.power_ids if counts.get(p))
        lines.append(f"Supply centres: {owned}")
    return "\n".join(lines)


def game_transcript(game: Game, title: str = "") -> str:
    """The game's orders and results, one block per adjudicated phase, as a gamemaster posts them.
    The phase being played is named, never its orders."""
    blocks = [title] if title else []
    blocks.extend(phase_block(h) for h in game.history)
    end = game.ended
    if end is not None:
        blocks.append(end.text)
    else:
        blocks.append(f"{phase_heading(game.state.phase)}: orders not yet adjudicated")
    return "\n\n".join(blocks) + "\n"


# -- DATC case files of a phase -------------------------------------------------------------------


def _case(state: GameState, name: str) -> Scenario:
    return Scenario(name=name, line=0, phase=state.phase, owners=dict(state.owners),
                    units=list(state.units.values()), dislodged=[d.unit for d in state.dislodged])


def phase_case(entry: HistoryEntry, name: str) -> Scenario:
    """An adjudicated phase as a DATC case: the position, the orders given, and (movement) the
    units and dislodged units after it, or (retreats, adjustments) the units after it."""
    sc = _case(entry.state, name)
    board = entry.state.board
    sc.orders = [OrderLine(o.power, format_order(o, board), 0) for o in entry.orders]
    sc.post_units = list(entry.after.units.values())
    if entry.state.phase.kind == MOVEMENT:
        sc.post_dislodged = [d.unit for d in entry.after.dislodged]
    sc.comments = [f"{phase_heading(entry.state.phase)}, exported from Diplomacy Desktop"]
    if entry.state.phase.kind == RETREAT and any(d.attacker_from for d in entry.state.dislodged):
        sc.comments.append("Who dislodged whom is not part of the case format: retreats into the attacker's "
                           "space are not excluded when the case is read back.")
    return sc


def position_case(state: GameState, name: str) -> Scenario:
    """The phase being played as a DATC case: its position only (its orders are secret until
    adjudicated)."""
    sc = _case(state, name)
    sc.comments = [f"{phase_heading(state.phase)}, not yet adjudicated: the position only"]
    return sc


__all__ = ["game_transcript", "order_words", "phase_block", "phase_case", "phase_heading", "position_case",
           "result_words"]
