"""Seats at the table, without Qt: names of seats and players, the seats a table's ``players``
make, and the priority draw's record in words (what the saved game keeps as ``table.seating``).
The assignment itself is the engine's (``engine.seating``); the dialogs are ``gui.table.seating``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..engine.board import Board
from ..engine.seating import Assignment, Draw
from .parts import SeatChoicesPart, SeatDrawPart, SeatDrawsPart, SeatingPart

ORDINALS = ("1st", "2nd", "3rd")
NO_CHOICE = ""


def join_names(names: Sequence[str]) -> str:
    """"England", "England and France", "England, France and Russia"."""
    names = list(names)
    if len(names) < 2:
        return names[0] if names else ""
    return ", ".join(names[:-1]) + " and " + names[-1]


def seat_name(board: Board, seat: Sequence[str]) -> str:
    return join_names([board.power(p).name for p in seat])


def seats_from_players(board: Board, powers: Sequence[str], players: Mapping[str, str]) -> list[tuple[str, ...]]:
    """The seats of a table: the played ``powers`` grouped by player name (a power without a
    name is a seat of its own), in board order of each seat's first power."""
    seats: dict[str, list[str]] = {}
    for p in board.power_ids:
        if p not in powers:
            continue
        key = players.get(p) or f"\0{p}"
        seats.setdefault(key, []).append(p)
    return [tuple(s) for s in seats.values()]


def new_seed() -> int:
    """A seed for the draw, from the system's randomness (shown to the table, so repeatable)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def draw_record(board: Board, assignment: Assignment) -> list[str]:
    """The assignment and its draw in words, for the table to read (and to keep with the game)."""
    seed = assignment.seed
    lines = [(f"Seed {seed}. Ties are settled by lot: Python's random.Random({seed}), drawing for the "
              "1st choices first, then the 2nd, then the 3rd, the seats in the grouping's order, the "
              "contenders in alphabetical order; anyone can repeat it with the same seed.")]
    if not assignment.draws:
        lines.append("No tie: no lot was drawn.")
    for d in assignment.draws:
        lines.append(_draw_line(board, d))
    for player, seat in assignment.seats:
        lines.append(f"{player} plays {seat_name(board, seat)}.")
    if assignment.unplayed:
        lines.append(f"Not played (civil disorder): {seat_name(board, assignment.unplayed)}.")
    return lines


def _draw_line(board: Board, d: Draw) -> str:
    who = join_names(list(d.contenders))
    if d.choice == 0:
        return (f"{who} got none of their choices and drew lots for the seats left: "
                f"{d.winner} drew {seat_name(board, d.seat)}.")
    both = "both" if len(d.contenders) == 2 else "all"
    return (f"Tie on the {ORDINALS[d.choice - 1]} choices: {who} {both} wanted {seat_name(board, d.seat)}; "
            f"the lot gave it to {d.winner}.")


def assignment_to_table(assignment: Assignment, choices: Mapping[str, Sequence[str]], *, secret: bool,
                        board: Board) -> SeatingPart:
    """What the saved game keeps of the assignment (``table.seating``)."""
    return SeatingPart(method="priority", secret=secret, seed=assignment.seed,
                       choices=SeatChoicesPart.of_choices(choices),
                       draws=SeatDrawsPart([SeatDrawPart(choice=d.choice, seat=list(d.seat), contenders=list(d.contenders),
                                                         winner=d.winner) for d in assignment.draws]),
                       record=list(draw_record(board, assignment)))
