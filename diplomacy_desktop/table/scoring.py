"""Tournament scoring systems: what each power scores if the game ended now, or as it ended.

Each system is implemented from its published definition (the sources are named on each class and
in docs/guide/tournaments.md); UEWBot/dipvis's catalogue (``visualiser/tournament/game_scoring/``), the scoring
tool many face-to-face tournaments use, was read to compare.  The input is one
:class:`BoardOutcome`: every power's supply-centre count, the year each eliminated power was
eliminated, and how the game ended (a solo, a draw shared by some powers, a concession to one
power, or nothing yet: "if the game ended now" scores a draw of all survivors).

Scores are plain floats; a system's published examples are reproduced in
``tests/table/test_scoring.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

#: how a game ended
SOLO = "solo"
DRAW = "draw"
CONCESSION = "concession"
ONGOING = "ongoing"  # not ended: "if the game ended now" (a draw of all survivors)
TIME_LIMIT = "time_limit"  # ended by the event's turn or time limit: scored as a draw of all survivors
RESULT_KINDS = (SOLO, DRAW, CONCESSION, ONGOING, TIME_LIMIT)


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """What a scoring system needs to know about one board."""

    #: every power of the board, in the board's order
    powers: tuple[str, ...]
    #: supply centres held by each power (missing: 0)
    centres: Mapping[str, int]
    kind: str = ONGOING
    #: the soloist, or the power a concession went to
    winner: str | None = None
    #: the powers sharing a draw (empty: all survivors)
    draw: tuple[str, ...] = ()
    #: the year each eliminated power was eliminated
    eliminated: Mapping[str, int] = field(default_factory=dict)
    victory_centres: int = 18
    total_centres: int = 34

    def __post_init__(self) -> None:
        if self.kind not in RESULT_KINDS:
            raise ValueError(f"a game ends by {', '.join(RESULT_KINDS)}, not {self.kind!r}")
        if self.kind in (SOLO, CONCESSION) and self.winner not in self.powers:
            raise ValueError(f"a {self.kind} needs the power it went to")
        object.__setattr__(self, "centres", MappingProxyType({p: int(self.centres.get(p, 0)) for p in self.powers}))
        object.__setattr__(self, "eliminated", MappingProxyType(dict(self.eliminated)))

    def count(self, power: str) -> int:
        return self.centres.get(power, 0)

    @property
    def survivors(self) -> tuple[str, ...]:
        """The powers not eliminated (a power with no centres but units left still survives)."""
        return tuple(p for p in self.powers if p not in self.eliminated)

    @property
    def soloist(self) -> str | None:
        """The power that won outright: a solo, or a concession (tournaments score a concession
        as the winner's solo), or a power on the victory count."""
        if self.kind in (SOLO, CONCESSION):
            return self.winner
        best = max(self.powers, key=self.count, default=None)
        return best if best is not None and self.count(best) >= self.victory_centres else None

    @property
    def in_draw(self) -> tuple[str, ...]:
        """The powers sharing the result when there is no soloist: the draw as voted, or all survivors."""
        if self.kind == DRAW and self.draw:
            return tuple(p for p in self.powers if p in self.draw)
        return self.survivors


@dataclass(frozen=True, slots=True)
class SystemScores:
    system: str
    scores: Mapping[str, float]
    #: one line per power saying how its score is made up
    working: Mapping[str, str]


def _ranks(outcome: BoardOutcome, powers: Sequence[str], points: Sequence[float]) -> dict[str, float]:
    """Rank points by centre count, highest first; powers tied on centres share the points of the
    places they cover equally (C-Diplo, Carnage: "ties split those points"); places beyond
    ``points`` are worth 0."""
    order = sorted(powers, key=lambda p: -outcome.count(p))
    out: dict[str, float] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and outcome.count(order[j]) == outcome.count(order[i]):
            j += 1
        share = sum(points[k] for k in range(i, j) if k < len(points)) / (j - i)
        for p in order[i:j]:
            out[p] = share
        i = j
    return out


class ScoringSystem:
    """A scoring system: a name, its source, and :meth:`score`."""

    name = ""
    key = ""
    source = ""

    def score(self, outcome: BoardOutcome) -> SystemScores:
        raise NotImplementedError

    def _solo(self, outcome: BoardOutcome, win: float, lose: float = 0.0) -> SystemScores | None:
        soloist = outcome.soloist
        if soloist is None:
            return None
        scores = {p: (win if p == soloist else lose) for p in outcome.powers}
        return SystemScores(self.name, scores, {p: ("solo" if p == soloist else "lost to a solo")
                                                for p in outcome.powers})


class SumOfSquares(ScoringSystem):
    """Sum of Squares.  Source: DAANZ, "Squares Scoring System" (daanz.org/sc-squares.htm):
    a solo scores 100 and every other player 0; in a draw each player scores the square of the
    centres held ("5 centres = 25 points, 15 centres = 225 points"), standardised as a
    percentage of the sum of those squares so that a drawn game totals 100."""

    name = "Sum of Squares"
    key = "sum_of_squares"
    source = "DAANZ, Squares Scoring System (daanz.org/sc-squares.htm)"

    def score(self, outcome: BoardOutcome) -> SystemScores:
        solo = self._solo(outcome, 100.0)
        if solo:
            return solo
        squares = {p: outcome.count(p) ** 2 for p in outcome.powers}
        total = sum(squares.values())
        scores = {p: (100.0 * sq / total if total else 0.0) for p, sq in squares.items()}
        return SystemScores(self.name, scores, {p: f"{outcome.count(p)}² = {squares[p]} of {total}"
                                                for p in outcome.powers})


class DrawSize(ScoringSystem):
    """Draw-size scoring.  Source: webDiplomacy's "Draw-Size Scoring" (the pot goes to the
    soloist; in a draw it is shared equally by the players in the draw, eliminated players score
    nothing); as dipvis's ``draw_size.py``: 100 points."""

    name = "Draw size"
    key = "draw_size"
    source = "webDiplomacy, Draw-Size Scoring; dipvis game_scoring/draw_size.py"

    def score(self, outcome: BoardOutcome) -> SystemScores:
        solo = self._solo(outcome, 100.0)
        if solo:
            return solo
        sharing = outcome.in_draw
        scores = {p: (100.0 / len(sharing) if p in sharing else 0.0) for p in outcome.powers}
        return SystemScores(self.name, scores, {p: (f"a {len(sharing)}-way draw" if p in sharing else "not in the draw")
                                                for p in outcome.powers})


class Carnage(ScoringSystem):
    """Carnage (elimination order).  Source: the Carnage convention's rules as posted on
    webDiplomacy (forum thread 1325258): each game is worth 28,034 points and a solo takes them
    all; otherwise powers are ranked by centre count, then by order of elimination (the later,
    the higher), the top scoring 7,000, the second 6,000 ... the lowest 1,000, plus 1 point per
    centre; powers sharing a rank split the points of those places."""

    name = "Carnage"
    key = "carnage"
    source = "Carnage rules, webDiplomacy forum thread 1325258; dipvis game_scoring/carnage.py"
    POSITIONS = (7000.0, 6000.0, 5000.0, 4000.0, 3000.0, 2000.0, 1000.0)

    def score(self, outcome: BoardOutcome) -> SystemScores:
        solo = self._solo(outcome, sum(self.POSITIONS) + outcome.total_centres)
        if solo:
            return solo
        # survivors by centres first, then the eliminated powers by year of elimination, later first
        alive = [p for p in outcome.powers if p not in outcome.eliminated]
        dead = sorted((p for p in outcome.powers if p in outcome.eliminated), key=lambda p: -outcome.eliminated[p])
        positions = list(self.POSITIONS[: len(outcome.powers)])
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        alive_points = _ranks(outcome, alive, positions[: len(alive)])
        for p in alive:
            scores[p] = alive_points[p] + outcome.count(p)
            working[p] = f"{alive_points[p]:g} for its place + {outcome.count(p)} centres"
        rest = positions[len(alive):]
        i = 0
        while i < len(dead):
            j = i
            while j < len(dead) and outcome.eliminated[dead[j]] == outcome.eliminated[dead[i]]:
                j += 1
            share = sum(rest[k] for k in range(i, j) if k < len(rest)) / (j - i)
            for p in dead[i:j]:
                scores[p] = share + outcome.count(p)
                working[p] = f"{share:g} for its place (eliminated {outcome.eliminated[p]})"
            i = j
        return SystemScores(self.name, {p: scores[p] for p in outcome.powers}, working)


class CDiplo(ScoringSystem):
    """C-Diplo 100.  Source: World Diplomacy Database, "C-Diplo 100" (Bruno-André Giraudon;
    world-diplomacy-database.com scoring_class id 5): a solo scores 100 and the others 0;
    otherwise every player scores 1 for taking part, 1 per centre, and the three highest centre
    counts 38, 14 and 7 more, tied places sharing those points; a drawn game totals 100."""

    name = "C-Diplo"
    key = "c_diplo"
    source = "World Diplomacy Database, C-Diplo 100 (Bruno-André Giraudon)"
    PLACES = (38.0, 14.0, 7.0)

    def score(self, outcome: BoardOutcome) -> SystemScores:
        solo = self._solo(outcome, 100.0)
        if solo:
            return solo
        ranks = _ranks(outcome, outcome.powers, self.PLACES)
        scores = {p: 1.0 + outcome.count(p) + ranks[p] for p in outcome.powers}
        return SystemScores(self.name, scores, {p: f"1 + {outcome.count(p)} centres + {ranks[p]:g} for its place"
                                                for p in outcome.powers})


class OpenTribute(ScoringSystem):
    """OpenTribute.  Source: Windy City Weasels, "OpenTribute Variant"
    (windycityweasels.org/opentribute-scoring-system): every player gets 34 points plus 3 per
    centre and pays the board-topper 1 point per centre it is behind; eliminated players pay the
    tribute and keep nothing (score 0); if n players share the top, each receives 1/n² of the
    tribute; a solo scores 340 and everyone else 0.  (dipvis rounds a shared topper's tribute
    down; the published definition does not, and neither do we.)"""

    name = "OpenTribute"
    key = "open_tribute"
    source = "Windy City Weasels, OpenTribute (windycityweasels.org/opentribute-scoring-system)"

    def score(self, outcome: BoardOutcome) -> SystemScores:
        solo = self._solo(outcome, 340.0)
        if solo:
            return solo
        top = max((outcome.count(p) for p in outcome.powers), default=0)
        toppers = [p for p in outcome.powers if outcome.count(p) == top]
        tribute = 0
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            owed = top - outcome.count(p)
            tribute += owed
            if p in outcome.eliminated:
                scores[p] = 0.0
                working[p] = f"eliminated: pays {owed} in tribute, keeps nothing"
            else:
                scores[p] = 34.0 + 3 * outcome.count(p) - owed
                working[p] = f"34 + 3 × {outcome.count(p)} − {owed} tribute"
        received = tribute / len(toppers) ** 2
        for p in toppers:
            if p not in outcome.eliminated:
                scores[p] += received
                working[p] += f" + {received:g} tribute received"
        return SystemScores(self.name, scores, working)


SYSTEMS: tuple[ScoringSystem, ...] = (SumOfSquares(), DrawSize(), Carnage(), CDiplo(), OpenTribute())
BY_KEY: Mapping[str, ScoringSystem] = MappingProxyType({s.key: s for s in SYSTEMS})


def score_all(outcome: BoardOutcome) -> dict[str, SystemScores]:
    """Every system's scores, keyed by the system's key."""
    return {s.key: s.score(outcome) for s in SYSTEMS}


__all__ = ["BY_KEY", "CONCESSION", "DRAW", "ONGOING", "RESULT_KINDS", "SOLO", "SYSTEMS", "TIME_LIMIT",
           "BoardOutcome", "CDiplo", "Carnage", "DrawSize", "OpenTribute", "ScoringSystem", "SumOfSquares",
           "SystemScores", "score_all"]
