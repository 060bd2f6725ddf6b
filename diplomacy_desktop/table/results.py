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
from .scoring import (BY_KEY, CONCEDED_AS_SOLO, CONCESSION, CONCESSION_SCORING, DRAW, ONGOING, RESULT_KINDS,
                      SOLO, TIME_LIMIT, BoardOutcome, score_all)

FORMAT = "diplomacy-desktop/board-result"
FORMAT_VERSION = 2  # 2: ranks, the event's system and tie-break, in_draw for every drawn power, "start"
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
    #: the board's details, when the call gives them (``event,…`` ``round,…`` ``board,…`` lines)
    event: str = ""
    round: str = ""
    board: str = ""

    @property
    def details(self) -> dict[str, str]:
        """{"event": ..., "round": ..., "board": ...}: those the call gives."""
        return {k: v for k, v in (("event", self.event), ("round", self.round), ("board", self.board)) if v}

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


#: the first cells of a board call's optional detail lines (``event,Spring Open``), never a power's name
DETAIL_WORDS = ("event", "round", "board")


def _rows(text: str) -> list[list[str]]:
    """The call's rows: comma-separated, or (a European spreadsheet's export) semicolon- or
    tab-separated when the first line that says anything has no comma but one of those."""
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
    delimiter = ","
    if "," not in first:
        delimiter = ";" if ";" in first else "\t" if "\t" in first else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def read_board_call(text: str, board: Board, powers: Sequence[str] | None = None) -> BoardCall:
    """Read a board call (CSV: power, player[, player id]; commas, or semicolons or tabs as a
    spreadsheet writes them), with optional ``event,…``, ``round,…`` and ``board,…`` lines.  Every
    one of ``powers`` (all the map's powers when not given) must be called, and one player id
    belongs to one name.  Raises :class:`BoardCallError` with every problem found, each with its
    line number."""
    if "\0" in text:
        raise BoardCallError("this is not a text file (a board call is CSV: power, player, player id)")
    text = text.lstrip("\ufeff")
    rows = _rows(text)
    if len(rows) > MAX_CALL_LINES:
        raise BoardCallError(f"{len(rows)} lines: a board call has one line per power")
    reader = _CallReader(board)
    for number, row in enumerate(rows, start=1):
        reader.line(number, [c.strip() for c in row])
    return reader.call(tuple(board.power_ids if powers is None else powers))


class _CallReader:
    """A board call's lines, read one by one; the problems kept with their line numbers."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.names = _power_names(board)
        self.problems: list[str] = []
        self.seen: dict[str, int] = {}
        self.lines: list[CallLine] = []
        self.details: dict[str, str] = {}
        self.ids: dict[str, tuple[str, int]] = {}  # player id: (the name it was given to, its line)

    def line(self, number: int, cells: list[str]) -> None:
        if not any(cells) or cells[0].startswith("#"):
            return
        head = cells[0].lower()
        if not self.lines and head in ("power", "country", "great power"):
            return  # the header (after the details' lines, if any)
        if head in DETAIL_WORDS and head not in self.names:
            self._detail(number, head, cells)
            return
        if len(cells) < 2 or not cells[1]:
            self.problems.append(f"line {number}: needs a power and a player's name")
            return
        power = self.names.get(head)
        if power is None:
            known = ", ".join(p.name for p in self.board.powers)
            self.problems.append(f"line {number}: {cells[0]!r} is not a power of this map ({known})")
            return
        if power in self.seen:
            self.problems.append(f"line {number}: {self.board.power(power).name} is already called on line "
                                 f"{self.seen[power]}")
            return
        if len(cells) > 3 and any(cells[3:]):
            self.problems.append(f"line {number}: too many columns (power, player, player id)")
            return
        self.seen[power] = number
        player_id = cells[2] if len(cells) > 2 else ""
        self._check_id(number, player_id, cells[1])
        self.lines.append(CallLine(power, cells[1], player_id))

    def _detail(self, number: int, word: str, cells: list[str]) -> None:
        if len(cells) < 2 or not cells[1] or any(cells[2:]):
            self.problems.append(f"line {number}: {word} needs one value ({word},…)")
        elif word in self.details:
            self.problems.append(f"line {number}: the {word} is given twice")
        else:
            self.details[word] = cells[1]

    def _check_id(self, number: int, player_id: str, player: str) -> None:
        if not player_id:
            return
        given = self.ids.get(player_id)
        if given is None:
            self.ids[player_id] = (player, number)
        elif given[0].casefold() != player.casefold():
            self.problems.append(f"line {number}: player id {player_id} is {given[0]}'s (line {given[1]}), "
                                 f"not {player}'s: one player id is one player")

    def call(self, powers: tuple[str, ...]) -> BoardCall:
        if not self.lines and not self.problems:
            raise BoardCallError("the board call names no power (one line per power: power, player, player id)")
        missing = [self.board.power(p).name for p in powers if p not in self.seen]
        if missing and self.lines:
            self.problems.append(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not called "
                                 "(a board call has a line for every power: power, player, player id)")
        if self.problems:
            raise BoardCallError("; ".join(self.problems))
        order = {p: i for i, p in enumerate(self.board.power_ids)}
        return BoardCall(tuple(sorted(self.lines, key=lambda ln: order[ln.power])),
                         self.details.get("event", ""), self.details.get("round", ""), self.details.get("board", ""))


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
    #: the event's scoring system (a key of ``scoring.BY_KEY``) and how ties in it are broken
    event_system: str = "sum_of_squares"
    tie_break: str = "centres"
    #: the event's rule for the game's end, in words ("the game ends after Fall 1910; ..."), and
    #: when the result was written (ISO date and time, local)
    end_rule: str = ""
    written_at: str = ""
    #: the final position (the sheet's map)
    final_state: GameState | None = None

    @property
    def years(self) -> list[int]:
        return sorted(self.centres_by_year)

    def year_label(self, year: int) -> str:
        """``start`` for the position before the first year, else the year."""
        return "start" if year < self.board.start_year else str(year)

    def board_ranks(self) -> dict[str, str]:
        """Each power's place on the board: by centres, then (the eliminated) the later eliminated
        first; powers level on both share the place, marked ``=`` ("1=", "1=", "3")."""
        o = self.outcome
        return _places(o.powers, lambda p: (o.count(p), o.eliminated.get(p, 10_000)))

    def event_ranks(self) -> dict[str, str]:
        """Each power's place by the event's scoring system, ties broken by the event's tie-break
        (``TIE_BREAKS``); still level: the place shared, marked ``=``."""
        o = self.outcome
        score = self.scores.get(self.event_system, {})

        def key(p: str) -> tuple[float, ...]:
            s = round(score.get(p, 0.0), 6)
            if self.tie_break == "centres":
                return (s, o.count(p), o.eliminated.get(p, 10_000))
            if self.tie_break == "elimination":
                return (s, o.eliminated.get(p, 10_000))
            return (s,)

        return _places(o.powers, key)

    def scored_in_draw(self, power: str) -> bool:
        return power in self.outcome.scored_as_draw

    def as_dict(self) -> dict[str, Any]:
        b, o = self.board, self.outcome
        ranks, event_ranks = self.board_ranks(), self.event_ranks()
        event_scores = self.scores.get(self.event_system, {})
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "event": self.event,
            "round": self.round,
            "board": self.board_name,
            "map": b.name,
            "written_at": self.written_at,
            "end_rule": self.end_rule,
            "event_scoring": {"system": self.event_system, "name": _system_name(self.event_system),
                              "tie_break": self.tie_break, "concession_scored": o.conceded_as},
            "result": {"kind": o.kind, "winner": o.winner, "draw": list(o.scored_as_draw),
                       "ended": self.ended, "ended_label": self.ended_label},
            "players": [{
                "power": p, "power_name": b.power(p).name, "player": self.players.get(p, ""),
                "player_id": self.player_ids.get(p, ""), "centres": o.count(p),
                "year_eliminated": o.eliminated.get(p), "rank": ranks[p], "in_draw": self.scored_in_draw(p),
                "event_score": round(event_scores.get(p, 0.0), 4), "event_rank": event_ranks[p],
                "scores": {k: round(v[p], 4) for k, v in self.scores.items()},
            } for p in o.powers],
            "centres_by_year": {self.year_label(y): {p: c.get(p, 0) for p in o.powers}
                                for y, c in sorted(self.centres_by_year.items())},
            "scoring": {k: {"name": BY_KEY[k].name, "source": BY_KEY[k].source} for k in self.scores},
            "ballots": [bl.as_dict() for bl in self.ballots],
            "late_orders": [dict(x) for x in self.late_orders],
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_csv(self) -> str:
        """One row per power: the event, round, board, power, player, player id, final centres,
        year eliminated, the board rank (ties marked ``=``), the result, whether it won, whether the
        result scores it as drawn, the event's score and rank, the centres at the start and at the
        end of each year (``centres_start``, ``centres_1901`` ...), and each system's score."""
        o = self.outcome
        years = self.years
        ranks, event_ranks = self.board_ranks(), self.event_ranks()
        event_scores = self.scores.get(self.event_system, {})
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["event", "round", "board", "power", "player", "player_id", "centres", "year_eliminated", "rank",
                    "result", "winner", "in_draw", "event_score", "event_rank",
                    *[f"centres_{self.year_label(y)}" for y in years], *[f"score_{k}" for k in self.scores]])
        for p in o.powers:
            w.writerow([self.event, self.round, self.board_name, self.board.power(p).name, self.players.get(p, ""),
                        self.player_ids.get(p, ""), o.count(p), o.eliminated.get(p, ""), ranks[p], o.kind,
                        "yes" if o.winner == p else "", "yes" if self.scored_in_draw(p) else "",
                        _num(event_scores.get(p, 0.0)), event_ranks[p],
                        *[self.centres_by_year[y].get(p, 0) for y in years],
                        *[_num(self.scores[k][p]) for k in self.scores]])
        return buf.getvalue()

    # -- the World Diplomacy Database's two upload files -------------------------------------------------

    def wdd_boards_csv(self) -> str:
        """The WDD's "boards" file: a row per player of this board: FIRST NAME, NAME, HOMONYME (1),
        ROUND, BOARD, COUNTRY (0AU ... 0TU), RANK and EXAEQUO (how many share that rank), SCORE (the
        event's system), NB_CENTRE, YEAR_ELIMINATION (05 for 1905), DRAW (1 for the winner, the
        draw's size for a power in it, 0 otherwise), CT_01 ... (centres at the end of each year)."""
        o = self.outcome
        ranks = self.board_ranks()
        ranked = _rank_numbers(ranks)
        years = [y for y in self.years if y >= self.board.start_year]
        scores = self.scores.get(self.event_system, {})
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["FIRST NAME", "NAME", "HOMONYME", "ROUND", "BOARD", "COUNTRY", "RANK", "EXAEQUO", "SCORE",
                    "NB_CENTRE", "YEAR_ELIMINATION", "DRAW", *[_wdd_year(y) for y in years]])
        drawn = o.scored_as_draw
        for p in o.powers:
            first, last = _split_name(self.players.get(p, ""))
            draw = 1 if o.soloist == p else (len(drawn) if p in drawn else 0)
            w.writerow([first, last, 1, self.round, self.board_name, _wdd_country(self.board, p), ranked[p][0],
                        ranked[p][1], _num(scores.get(p, 0.0)), o.count(p),
                        f"{o.eliminated[p] % 100:02d}" if p in o.eliminated else "", draw,
                        *[self.centres_by_year[y].get(p, 0) for y in years]])
        return buf.getvalue()

    def wdd_classification_csv(self) -> str:
        """The WDD's "classification" file for this board as the event's classification: a row per
        player: FIRST NAME, NAME, HOMONYME (1), RANK and EXAEQUO (by the event's score and
        tie-break), SCORE, R<round> (the round's score), and the power's best-country columns
        (RK_0FR, PT_0FR, CT_0FR, HEAT_0FR, BOARD_0FR: rank on this board, score, centres, round,
        board).  One board's file; an event of many boards joins the rows of its boards."""
        o = self.outcome
        ranked = _rank_numbers(self.event_ranks())
        scores = self.scores.get(self.event_system, {})
        heading = f"R{self.round}" if self.round.isdigit() else "R1"
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        countries = [_wdd_country(self.board, p) for p in o.powers]
        w.writerow(["FIRST NAME", "NAME", "HOMONYME", "RANK", "EXAEQUO", "LOCATION", "NATIONALITY", "SCORE", heading,
                    *[f"{k}_{c}" for c in countries for k in ("RK", "PT", "CT", "HEAT", "BOARD")]])
        for p in o.powers:
            first, last = _split_name(self.players.get(p, ""))
            own = _wdd_country(self.board, p)
            cells: list[object] = []
            for c in countries:
                cells += ([1, _num(scores.get(p, 0.0)), o.count(p), self.round, self.board_name] if c == own
                          else ["", "", "", "", ""])
            w.writerow([first, last, 1, ranked[p][0], ranked[p][1], "", "", _num(scores.get(p, 0.0)),
                        _num(scores.get(p, 0.0)), *cells])
        return buf.getvalue()


#: how the event breaks a tie in its scoring system's score
TIE_BREAKS = {"centres": "more centres first (then the later eliminated)",
              "elimination": "the later eliminated first",
              "shared": "none: the place is shared"}


def _system_name(key: str) -> str:
    system = BY_KEY.get(key)
    return system.name if system is not None else key


def _places(powers: Sequence[str], key: Any) -> dict[str, str]:
    """Places by ``key`` (highest first); equal keys share the place, marked ``=``."""
    order = sorted(powers, key=key, reverse=True)
    out: dict[str, str] = {}
    for _i, p in enumerate(order):
        first = next(j for j, q in enumerate(order) if key(q) == key(p))
        shared = sum(1 for q in order if key(q) == key(p)) > 1
        out[p] = f"{first + 1}=" if shared else str(first + 1)
    return {p: out[p] for p in powers}


def _rank_numbers(ranks: Mapping[str, str]) -> dict[str, tuple[int, int]]:
    """{power: (rank, how many share it)} from places such as ``1=``."""
    numbers = {p: int(r.rstrip("=")) for p, r in ranks.items()}
    return {p: (n, sum(1 for m in numbers.values() if m == n)) for p, n in numbers.items()}


def _wdd_country(board: Board, power: str) -> str:
    """The WDD's code of a power of the standard map: 0 and the name's first two letters (0AU)."""
    return "0" + board.power(power).name[:2].upper()


def _wdd_year(year: int) -> str:
    return f"CT_{year % 100:02d}"


def _split_name(name: str) -> tuple[str, str]:
    """(first name, family name): the first word, and the rest ("Ana" alone is a family name)."""
    parts = name.split()
    if len(parts) < 2:
        return "", name.strip()
    return parts[0], " ".join(parts[1:])


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
               draw: Sequence[str] = (), conceded_as: str = CONCEDED_AS_SOLO) -> BoardOutcome:
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
    last = game.history[-1].state.phase.year if game.history else state.phase.year
    return BoardOutcome(game.board.power_ids, state.centre_counts(), kind, winner, tuple(draw),
                        elimination_years(game), game.board.victory_centres, len(game.board.centres),
                        conceded_as, game.board.start_year, last)


def board_result(game: Game, *, players: Mapping[str, str] | None = None, player_ids: Mapping[str, str] | None = None,
                 kind: str | None = None, winner: str | None = None, draw: Sequence[str] = (),
                 event: str = "", round_name: str = "", board_name: str = "",
                 ballots: Iterable[BallotRecord] = (), late_orders: Iterable[Mapping[str, str]] = (),
                 conceded_as: str = CONCEDED_AS_SOLO, event_system: str = "sum_of_squares", tie_break: str = "centres",
                 end_rule: str = "", written_at: str = "") -> BoardResult:
    """The board's result, ready to write."""
    if event_system not in BY_KEY:
        raise ValueError(f"no scoring system {event_system!r}")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"a tie is broken by {', '.join(TIE_BREAKS)}, not {tie_break!r}")
    if conceded_as not in CONCESSION_SCORING:
        raise ValueError(f"a concession is scored {' or '.join(CONCESSION_SCORING)}, not {conceded_as!r}")
    outcome = outcome_of(game, kind=kind, winner=winner, draw=draw, conceded_as=conceded_as)
    scores = {k: dict(s.scores) for k, s in score_all(outcome).items()}
    # a vote or a concession ends the game in the phase under way; a solo or the time limit after
    # the phase that brought it about
    if outcome.kind in (DRAW, CONCESSION, ONGOING) or not game.history:
        last_phase = game.state.phase
    else:
        last_phase = game.history[-1].state.phase
    return BoardResult(game.board, outcome, dict(players or {}), dict(player_ids or {}), centres_by_year(game),
                       last_phase.short, event, round_name, board_name, tuple(ballots), tuple(late_orders), scores,
                       last_phase.label, event_system, tie_break, end_rule, written_at, game.state)


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


__all__ = ["DETAIL_WORDS", "FORMAT", "FORMAT_VERSION", "RESULT_WORDS", "TIE_BREAKS", "BallotRecord", "BoardCall", "BoardCallError",
           "BoardResult", "CallLine", "board_result", "centres_by_year", "elimination_years", "outcome_of",
           "read_board_call", "result_sentence"]
