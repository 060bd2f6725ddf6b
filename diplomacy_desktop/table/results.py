"""A tournament board in and out: the board call (who plays which power) read from CSV, and the
board's result written as CSV and JSON in one documented format (docs/guide/tournaments.md).

The board call is what a tournament director's tool prints for each board: one line per power,
``power,player`` and optionally ``player_id`` (the tournament's own id for the player).  A header
line is allowed; powers may be written by name, adjective or id (``England``, ``English``,
``england``); a player may hold several powers (fewer than seven players, rules I).

The result is read off the game's own history (never typed again): the centre counts at the end
of every year, the year each power was eliminated, how the game ended, and every scoring
system's score.  Ballots are recorded as the table's record has them: who proposed, what, the
outcome; never who voted what.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.board import Board
from ..engine.game import Game
from ..engine.state import FALL, RETREAT, GameState, Phase
from .scoring import (
    CONCESSION,
    DRAW,
    ONGOING,
    RESULT_KINDS,
    SOLO,
    SYSTEMS,
    TIME_LIMIT,
    BoardOutcome,
    score_all,
)

FORMAT = "diplomacy-desktop/board-result"
FORMAT_VERSION = 1
#: the most lines a board call may have (a board has a handful of powers; anything longer is not one)
MAX_CALL_LINES = 200


class BoardCallError(ValueError):
    """A board call that cannot be read; the message names the line and what is wrong."""


@dataclass(frozen=True, slots=True)
class CallLine:
    power: str
    player: str
    player_id: str = ""


@dataclass(frozen=True, slots=True)
class BoardCall:
    """Who plays which power on one board."""

    lines: tuple[CallLine, ...]

    @property
    def players(self) -> dict[str, str]:
        """{power: player's name}."""
        return {ln.power: ln.player for ln in self.lines}

    @property
    def player_ids(self) -> dict[str, str]:
        return {ln.power: ln.player_id for ln in self.lines if ln.player_id}


def _power_names(board: Board) -> dict[str, str]:
    names: dict[str, str] = {}
    for p in board.powers:
        for word in (p.id, p.name, p.adjective):
            names[word.strip().lower()] = p.id
    return names


def read_board_call(text: str, board: Board) -> BoardCall:
    """Read a board call (CSV: power, player[, player id]).  Raises :class:`BoardCallError` with
    every problem found, each with its line number."""
    if "\0" in text:
        raise BoardCallError("this is not a text file (a board call is CSV: power, player, player id)")
    text = text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) > MAX_CALL_LINES:
        raise BoardCallError(f"{len(rows)} lines: a board call has one line per power")
    names = _power_names(board)
    problems: list[str] = []
    seen: dict[str, int] = {}
    lines: list[CallLine] = []
    for number, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if number == 1 and cells[0].lower() in ("power", "country", "great power"):
            continue  # the header
        if len(cells) < 2 or not cells[1]:
            problems.append(f"line {number}: needs a power and a player's name")
            continue
        power = names.get(cells[0].lower())
        if power is None:
            known = ", ".join(p.name for p in board.powers)
            problems.append(f"line {number}: {cells[0]!r} is not a power of this map ({known})")
            continue
        if power in seen:
            problems.append(f"line {number}: {board.power(power).name} is already called on line {seen[power]}")
            continue
        if len(cells) > 3 and any(cells[3:]):
            problems.append(f"line {number}: too many columns (power, player, player id)")
            continue
        seen[power] = number
        lines.append(CallLine(power, cells[1], cells[2] if len(cells) > 2 else ""))
    if problems:
        raise BoardCallError("; ".join(problems))
    if not lines:
        raise BoardCallError("the board call names no power (one line per power: power, player, player id)")
    order = {p: i for i, p in enumerate(board.power_ids)}
    return BoardCall(tuple(sorted(lines, key=lambda ln: order[ln.power])))


# -- the board's result --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BallotRecord:
    """One ballot as the game records it: never who voted what."""

    phase: str
    proposer: str
    proposal: str  # "draw" or "concession"
    powers: tuple[str, ...]  # the draw's powers, or the power conceded to
    passed: bool
    vetoes: int | None = None  # the number of votes against, when the event reveals it

    def as_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "proposer": self.proposer, "proposal": self.proposal,
                "powers": list(self.powers), "passed": self.passed, "vetoes": self.vetoes}


@dataclass(frozen=True, slots=True)
class BoardResult:
    board: Board
    outcome: BoardOutcome
    players: Mapping[str, str]
    player_ids: Mapping[str, str]
    centres_by_year: Mapping[int, Mapping[str, int]]
    ended: str  # the phase the game ended in, e.g. "F1908M"
    event: str = ""
    round: str = ""
    board_name: str = ""
    ballots: tuple[BallotRecord, ...] = ()
    late_orders: tuple[Mapping[str, str], ...] = ()
    scores: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    ended_label: str = ""  # e.g. "Fall 1908 moves"

    @property
    def years(self) -> list[int]:
        return sorted(self.centres_by_year)

    def as_dict(self) -> dict[str, Any]:
        b, o = self.board, self.outcome
        systems = {s.key: s for s in SYSTEMS}
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "event": self.event,
            "round": self.round,
            "board": self.board_name,
            "map": b.name,
            "result": {"kind": o.kind, "winner": o.winner, "draw": list(o.in_draw) if o.kind == DRAW else [],
                       "ended": self.ended, "ended_label": self.ended_label},
            "players": [{
                "power": p, "power_name": b.power(p).name, "player": self.players.get(p, ""),
                "player_id": self.player_ids.get(p, ""), "centres": o.count(p),
                "year_eliminated": o.eliminated.get(p),
                "scores": {k: round(v[p], 4) for k, v in self.scores.items()},
            } for p in o.powers],
            "centres_by_year": {str(y): {p: c.get(p, 0) for p in o.powers} for y, c in sorted(self.centres_by_year.items())},
            "scoring": {k: {"name": systems[k].name, "source": systems[k].source} for k in self.scores},
            "ballots": [bl.as_dict() for bl in self.ballots],
            "late_orders": [dict(x) for x in self.late_orders],
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_csv(self) -> str:
        """One row per power: the event, round, board, power, player, player id, final centres,
        year eliminated, the result, whether in the draw, the centres at the end of each year
        (``centres_1901`` ...), and each system's score (``score_sum_of_squares`` ...)."""
        o = self.outcome
        years = self.years
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["event", "round", "board", "power", "player", "player_id", "centres", "year_eliminated",
                    "result", "winner", "in_draw", *[f"centres_{y}" for y in years],
                    *[f"score_{k}" for k in self.scores]])
        for p in o.powers:
            in_draw = o.kind == DRAW and p in o.in_draw
            w.writerow([self.event, self.round, self.board_name, self.board.power(p).name, self.players.get(p, ""),
                        self.player_ids.get(p, ""), o.count(p), o.eliminated.get(p, ""), o.kind,
                        "yes" if o.winner == p else "", "yes" if in_draw else "",
                        *[self.centres_by_year[y].get(p, 0) for y in years],
                        *[_num(self.scores[k][p]) for k in self.scores]])
        return buf.getvalue()


def _num(x: float) -> str:
    return f"{x:.4f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def _states(game: Game) -> list[GameState]:
    return [h.state for h in game.history] + [game.state]


def centres_by_year(game: Game) -> dict[int, dict[str, int]]:
    """The supply centres each power held at the start, then at the end of every finished year
    (after the Fall turn, when centres change hands: rules XIII.1)."""
    states = _states(game)
    out: dict[int, dict[str, int]] = {game.board.start_year - 1: states[0].centre_counts()}
    for year in range(game.board.start_year, game.state.phase.year + 1):
        end = Phase(year, FALL, RETREAT).index
        after = next((s for s in states if s.phase.index > end), None)
        if after is not None:
            out[year] = after.centre_counts()
    return out


def elimination_years(game: Game) -> dict[str, int]:
    """The year of the phase in which each eliminated power lost its last piece and centre."""
    out: dict[str, int] = {}
    for h in game.history:
        for p in game.board.power_ids:
            if p not in out and not h.state.is_eliminated(p) and h.next_state.is_eliminated(p):
                out[p] = h.state.phase.year
    return out


def outcome_of(game: Game, *, kind: str | None = None, winner: str | None = None,
               draw: Sequence[str] = ()) -> BoardOutcome:
    """The game as a scoring system sees it.  ``kind`` (solo, draw, concession, time_limit,
    ongoing) is read off the game when not given: a victory is a solo, a declared draw a draw,
    the short game's end a time limit."""
    ended = game.ended
    if kind is None:
        if ended is None:
            kind = ONGOING
        elif ended.kind == "victory":
            kind, winner = SOLO, ended.winners[0]
        elif ended.kind == "draw":
            kind, draw = DRAW, ended.winners
        else:
            kind = TIME_LIMIT
    if kind not in RESULT_KINDS:
        raise ValueError(f"a game ends by {', '.join(RESULT_KINDS)}, not {kind!r}")
    state = game.state
    return BoardOutcome(game.board.power_ids, state.centre_counts(), kind, winner, tuple(draw),
                        elimination_years(game), game.board.victory_centres, len(game.board.centres))


def board_result(game: Game, *, players: Mapping[str, str] | None = None, player_ids: Mapping[str, str] | None = None,
                 kind: str | None = None, winner: str | None = None, draw: Sequence[str] = (),
                 event: str = "", round_name: str = "", board_name: str = "",
                 ballots: Iterable[BallotRecord] = (), late_orders: Iterable[Mapping[str, str]] = ()) -> BoardResult:
    """The board's result, ready to write."""
    outcome = outcome_of(game, kind=kind, winner=winner, draw=draw)
    scores = {k: dict(s.scores) for k, s in score_all(outcome).items()}
    # a vote or a concession ends the game in the phase under way; a solo or the time limit after
    # the phase that brought it about
    if outcome.kind in (DRAW, CONCESSION, ONGOING) or not game.history:
        last_phase = game.state.phase
    else:
        last_phase = game.history[-1].state.phase
    return BoardResult(game.board, outcome, dict(players or {}), dict(player_ids or {}), centres_by_year(game),
                       last_phase.short, event, round_name, board_name, tuple(ballots), tuple(late_orders), scores,
                       last_phase.label)


RESULT_WORDS = {SOLO: "Solo", DRAW: "Draw", CONCESSION: "Concession", TIME_LIMIT: "Time limit",
                ONGOING: "Not finished"}


def result_sentence(result: BoardResult) -> str:
    """``Draw shared by England, France and Germany`` and the like."""
    o, b = result.outcome, result.board
    names = [b.power(p).name for p in o.in_draw]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""
    if o.kind == SOLO and o.winner:
        return f"Solo: {b.power(o.winner).name} wins"
    if o.kind == CONCESSION and o.winner:
        return f"Concession to {b.power(o.winner).name}"
    if o.kind == DRAW:
        return f"Draw shared by {joined}"
    if o.kind == TIME_LIMIT:
        return f"Time limit reached: survivors {joined}"
    return f"Game in progress: survivors {joined}"


__all__ = ["FORMAT", "FORMAT_VERSION", "RESULT_WORDS", "BallotRecord", "BoardCall", "BoardCallError",
           "BoardResult", "CallLine", "board_result", "centres_by_year", "elimination_years", "outcome_of",
           "read_board_call", "result_sentence"]
