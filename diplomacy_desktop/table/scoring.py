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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

#: how a game ended
SOLO = "solo"
DRAW = "draw"
CONCESSION = "concession"
ONGOING = "ongoing"  # not ended: "if the game ended now" (a draw of all survivors)
TIME_LIMIT = "time_limit"  # ended by the event's turn or time limit: scored as a draw of all survivors
RESULT_KINDS = (SOLO, DRAW, CONCESSION, ONGOING, TIME_LIMIT)

#: how an event scores a concession (a game conceded to one power, not won on the board)
CONCEDED_AS_SOLO = "solo"  # as the winner's solo (the usual reading)
CONCEDED_AS_SURVIVORS = "survivors"  # as the board stands: a draw of all survivors
CONCEDED_AS_WINNER_DRAW = "winner_draw"  # as a draw the winner shares with nobody
CONCESSION_SCORING = {CONCEDED_AS_SOLO: "as the winner's solo",
                      CONCEDED_AS_SURVIVORS: "as the board stands (a draw of all survivors)",
                      CONCEDED_AS_WINNER_DRAW: "as a draw of the winner alone"}


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
    #: how a concession is scored (the event's choice): CONCEDED_AS_SOLO, _SURVIVORS or _WINNER_DRAW
    conceded_as: str = CONCEDED_AS_SOLO
    #: the game's first year, and the year it ended in (a solo's year: those who lost to it
    #: are scored in some systems as if eliminated that year); 0: not known
    start_year: int = 1901
    end_year: int = 0

    def __post_init__(self) -> None:
        if self.kind not in RESULT_KINDS:
            raise ValueError(f"a game ends by {', '.join(RESULT_KINDS)}, not {self.kind!r}")
        if self.conceded_as not in CONCESSION_SCORING:
            raise ValueError(f"a concession is scored {' or '.join(CONCESSION_SCORING)}, not {self.conceded_as!r}")
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
        """The power that won outright: a solo, or a concession the event scores as a solo, or a
        power on the victory count."""
        if self.kind == SOLO or (self.kind == CONCESSION and self.conceded_as == CONCEDED_AS_SOLO):
            return self.winner
        best = max(self.powers, key=self.count, default=None)
        return best if best is not None and self.count(best) >= self.victory_centres else None

    @property
    def in_draw(self) -> tuple[str, ...]:
        """The powers sharing the result when there is no soloist: the draw as voted, or all survivors."""
        if self.kind == DRAW and self.draw:
            return tuple(p for p in self.powers if p in self.draw)
        if self.kind == CONCESSION and self.conceded_as == CONCEDED_AS_WINNER_DRAW and self.winner:
            return (self.winner,)
        return self.survivors

    @property
    def scored_as_draw(self) -> tuple[str, ...]:
        """The powers this outcome scores as sharing a draw (empty after a solo): a draw's powers;
        after the time limit, or while the game goes on, every survivor; a concession as the event
        scores it."""
        return () if self.soloist is not None else self.in_draw

    def years_played(self, power: str) -> int:
        """The game years a power played, the year it was eliminated included (1901-1905: 5); a
        survivor of a solo counts to the solo's year; a survivor of a drawn game to the end."""
        last = self.eliminated.get(power) or self.end_year or self.start_year
        return max(0, last - self.start_year + 1)


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
    return _ranks_by(powers, outcome.count, points)


def _ranks_by(powers: Sequence[str], value: Callable[[str], float], points: Sequence[float]) -> dict[str, float]:
    """Place points by ``value``, highest first; equal values share the points of their places."""
    order = sorted(powers, key=lambda p: -value(p))
    out: dict[str, float] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and value(order[j]) == value(order[i]):
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
    #: what a solo scores (every other power: LOSER_SCORE); None: the system scores a solo its own way
    SOLO_SCORE: float | None = None
    LOSER_SCORE = 0.0

    def score(self, outcome: BoardOutcome) -> SystemScores:
        if self.SOLO_SCORE is not None:
            solo = self._solo(outcome, self.SOLO_SCORE, self.LOSER_SCORE)
            if solo:
                return solo
        return self.score_draw(outcome)

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
        """The scores of a game that ended without a solo (or of every game, where SOLO_SCORE is None)."""
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
    SOLO_SCORE = 100.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
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
    SOLO_SCORE = 100.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
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
    SOLO_SCORE = 100.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
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
    SOLO_SCORE = 340.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
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


# -- more systems (issue 35): each from its published text, named on the class -----------------------------


def _eliminated_or_lost(outcome: BoardOutcome, p: str) -> bool:
    return p in outcome.eliminated or (outcome.soloist is not None and p != outcome.soloist)


class Bangkok(ScoringSystem):
    """Bangkok (2020).  Source: World Diplomacy Wiki, "Bangkok 2020 Scoring System"
    (world-diplomacy-wiki.fandom.com/wiki/Bangkok_2020_Scoring_System).  In a draw: 1 point per
    centre; a domination bonus of 12 points divided by shares, 3 to each board-topper, 2 to each
    player one centre from the top, 1 to each two centres from the top (12 × shares / all
    shares); 3 points to every survivor, and 0.3 per year survived to each eliminated player
    (eliminated in 1905: 5 years, 1.5).  A solo scores 41 (18 + 12 + 8 + 3); the other survivors
    0.5 per centre (no bonus, no survival points)."""

    name = "Bangkok"
    key = "bangkok"
    source = "World Diplomacy Wiki, Bangkok 2020 Scoring System"
    SHARES = (3.0, 2.0, 1.0)

    def score(self, outcome: BoardOutcome) -> SystemScores:
        soloist = outcome.soloist
        if soloist is not None:
            won = {p: 41.0 if p == soloist else 0.5 * outcome.count(p) for p in outcome.powers}
            return SystemScores(self.name, won, {p: "solo: 41" if p == soloist else
                                                    f"lost to a solo: 0.5 × {outcome.count(p)} centres"
                                                    for p in outcome.powers})
        top = max((outcome.count(p) for p in outcome.powers), default=0)
        shares = {p: (self.SHARES[top - outcome.count(p)] if 0 <= top - outcome.count(p) < 3 else 0.0)
                  for p in outcome.powers}
        all_shares = sum(shares.values()) or 1.0
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            bonus = 12.0 * shares[p] / all_shares
            if p in outcome.eliminated:
                survival = 0.3 * outcome.years_played(p)
                why = f"0.3 × {outcome.years_played(p)} years survived"
            else:
                survival, why = 3.0, "3 for surviving"
            scores[p] = outcome.count(p) + bonus + survival
            working[p] = f"{outcome.count(p)} centres + {bonus:g} domination + {why}"
        return SystemScores(self.name, scores, working)


class ManorCon(ScoringSystem):
    """ManorCon.  Source: ManorCon's "Diplomacy Tournament Scoring System"
    (diplom.org/manorcon/dipscore.htm).  An eliminated player scores 0.10 for every year played,
    the year of elimination included.  A solo scores 75, and every other player still alive is
    scored as if eliminated in the year of the solo.  Otherwise P = S² + 4S + 16 for each of the
    seven players (S: centres at the end; eliminated players too, P = 16); B is the sum of the
    seven; each survivor scores 100 × P / B."""

    name = "ManorCon"
    key = "manorcon"
    source = "ManorCon, Diplomacy Tournament Scoring System (diplom.org/manorcon/dipscore.htm)"

    def score(self, outcome: BoardOutcome) -> SystemScores:
        soloist = outcome.soloist
        p_of = {p: outcome.count(p) ** 2 + 4 * outcome.count(p) + 16 for p in outcome.powers}
        board_b = sum(p_of.values())
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            if p == soloist:
                scores[p], working[p] = 75.0, "solo: 75"
            elif _eliminated_or_lost(outcome, p):
                scores[p] = 0.1 * outcome.years_played(p)
                working[p] = f"0.1 × {outcome.years_played(p)} years played"
            else:
                scores[p] = 100.0 * p_of[p] / board_b
                working[p] = f"100 × {p_of[p]} / {board_b}"
        return SystemScores(self.name, scores, working)


class Tribute(ScoringSystem):
    """Tribute.  Source: Windy City Weasels, "Tribute Scoring System"
    (windycityweasels.org/tribute-scoring-system; as on the World Diplomacy Wiki's page): 1 point
    per centre; 66 points divided equally between the survivors (7-way 9.4, 6-way 11, 5-way
    13.2, 4-way 16.5, 3-way 22, 2-way 33); every survivor pays the board-topper 1 point for each
    centre the topper has over 6, never more than its share of the 66; tied board-toppers split
    the tribute equally.  A solo scores 100, everyone else 0.  ``rate`` 0.5 is Half-Tribute."""

    name = "Tribute"
    key = "tribute"
    source = "Windy City Weasels, Tribute Scoring System (windycityweasels.org/tribute-scoring-system)"
    rate = 1.0

    SOLO_SCORE = 100.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
        alive = [p for p in outcome.powers if p not in outcome.eliminated]
        share = 66.0 / len(alive) if alive else 0.0
        top = max((outcome.count(p) for p in alive), default=0)
        toppers = [p for p in alive if outcome.count(p) == top]
        each = min(share, self.rate * max(0, top - 6))
        payers = [p for p in alive if p not in toppers]
        received = each * len(payers) / len(toppers) if toppers else 0.0
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            if p not in alive:
                scores[p], working[p] = 0.0, "eliminated"
                continue
            scores[p] = outcome.count(p) + share
            working[p] = f"{outcome.count(p)} centres + {share:.4g} of 66"
            if p in toppers:
                scores[p] += received
                working[p] += f" + {received:.4g} tribute received"
            else:
                scores[p] -= each
                working[p] += f" − {each:g} tribute paid"
        return SystemScores(self.name, scores, working)


class HalfTribute(Tribute):
    """Half-Tribute.  Source: Windy City Weasels, "Half-Tribute Scoring System"
    (windycityweasels.org/half-tribute-scoring-system): Tribute, but non-toppers pay half a point
    per centre the board-topper has over 6."""

    name = "Half-Tribute"
    key = "half_tribute"
    source = "Windy City Weasels, Half-Tribute Scoring System (windycityweasels.org/half-tribute-scoring-system)"
    rate = 0.5


class Whipping(ScoringSystem):
    """Whipping (Weasel Moot 2007).  Source: World Diplomacy Database, "Weasel Moot 2007" (Jim
    O'Kelley; world-diplomacy-database.com scoring_class id 28): a win scores 450 and every other
    player 0; otherwise 10 points per centre, 60 points divided by the number of survivors, 1 point
    per year of living for an eliminated position (the years it played, the year of elimination
    included: our reading), and a board-topping bonus of 2 points per centre if there is no tie.
    (dipvis's "Whipping" scores a solo 468 and gives those who lose to it points; we follow the
    WDD's text.)"""

    name = "Whipping"
    key = "whipping"
    source = "World Diplomacy Database, Weasel Moot 2007 (Jim O'Kelley)"
    SOLO_SCORE = 450.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
        alive = [p for p in outcome.powers if p not in outcome.eliminated]
        top = max((outcome.count(p) for p in alive), default=0)
        lone = [p for p in alive if outcome.count(p) == top]
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            if p not in alive:
                scores[p] = float(outcome.years_played(p))
                working[p] = f"eliminated: 1 × {outcome.years_played(p)} years"
                continue
            scores[p] = 10.0 * outcome.count(p) + 60.0 / len(alive)
            working[p] = f"10 × {outcome.count(p)} + 60 / {len(alive)}"
            if len(lone) == 1 and p == lone[0]:
                scores[p] += 2.0 * top
                working[p] += f" + 2 × {top} board top"
        return SystemScores(self.name, scores, working)


class SydneyLeague(ScoringSystem):
    """Sydney League.  No published text was found: this follows the description in dipvis's
    ``game_scoring/sydney_league.py``: 700, 600, 500, 400, 300, 200, 100 for the places (survivors
    by centres, then the eliminated by the year of elimination, the later higher; shared places
    average their points), 25 per centre, 1 per year survived for an eliminated player (the years
    it played, the year of elimination included); a solo: the soloist's score × 1.5, everyone
    else's × 0.5."""

    name = "Sydney League"
    key = "sydney_league"
    source = "dipvis game_scoring/sydney_league.py (no published text found)"
    PLACES = (700.0, 600.0, 500.0, 400.0, 300.0, 200.0, 100.0)

    def score(self, outcome: BoardOutcome) -> SystemScores:
        alive = [p for p in outcome.powers if p not in outcome.eliminated]
        dead = [p for p in outcome.powers if p in outcome.eliminated]
        places = list(self.PLACES[: len(outcome.powers)])
        points = _ranks(outcome, alive, places[: len(alive)])
        points.update(_ranks_by(dead, lambda p: outcome.eliminated[p], places[len(alive):]))
        soloist = outcome.soloist
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            base = points[p] + 25.0 * outcome.count(p) + (outcome.years_played(p) if p in outcome.eliminated else 0)
            working[p] = (f"{points[p]:g} for its place + 25 × {outcome.count(p)}"
                          + (f" + {outcome.years_played(p)} years" if p in outcome.eliminated else ""))
            if soloist is not None:
                factor = 1.5 if p == soloist else 0.5
                base *= factor
                working[p] = f"({working[p]}) × {factor:g}"
            scores[p] = base
        return SystemScores(self.name, scores, working)


class Detour(ScoringSystem):
    """Detour.  Source: the Diplomacy National World Cup (edition two) rules, "the system Detour"
    (stabbeurfou.org/docs/regles/en/DiplomacyNationalWorldCup2_en.html; the Detour 98 family of
    DAANZ).  A solo: 110 to the winner, 0 to the others.  Otherwise: 2 points to each survivor and 1
    per centre; 4, 3, 2, 1 to the first four by centres, tied players all getting the lowest
    tied place's points (2nd and 3rd tied: 2 each; two tied for 4th, or three tied for 3rd: 0);
    the leader, alone, the difference between its centres and the second's; all scores
    standardised to total 100; then each eliminated player 0.25 per year survived, at most 2 (an
    elimination at the end of 1902 yields 0.25)."""

    name = "Detour"
    key = "detour"
    source = "Diplomacy National World Cup 2 rules, the Detour system (stabbeurfou.org)"
    PLACES = (4.0, 3.0, 2.0, 1.0)

    SOLO_SCORE = 110.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
        order = sorted(outcome.powers, key=lambda p: -outcome.count(p))
        raw: dict[str, float] = {}
        for _i, p in enumerate(order):
            last = max(j for j, q in enumerate(order) if outcome.count(q) == outcome.count(p))
            place = self.PLACES[last] if last < len(self.PLACES) else 0.0
            raw[p] = place + ((2.0 + outcome.count(p)) if p not in outcome.eliminated else 0.0)
        if len(order) > 1 and outcome.count(order[0]) > outcome.count(order[1]):
            raw[order[0]] += outcome.count(order[0]) - outcome.count(order[1])
        total = sum(raw.values()) or 1.0
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            scores[p] = 100.0 * raw[p] / total
            working[p] = f"{raw[p]:g} of {total:g}, as a share of 100"
            if p in outcome.eliminated:
                years = max(0, outcome.eliminated[p] - outcome.start_year)
                extra = min(2.0, 0.25 * years)
                scores[p] += extra
                working[p] += f" + {extra:g} for {years} years survived"
        return SystemScores(self.name, scores, working)


class CDiploNamur(ScoringSystem):
    """C-Diplo Namur.  Source: the Diplomacy National World Cup (edition one) rules, "C-Diplo
    Namur with whole and worsened calculation" (stabbeurfou.org/docs/regles/en/
    DiplomacyNationalWorldCup_en.html; the same in stabbeurfou.org's list of scoring systems): a
    solo scores 73 (38 + 34 + 1) and each other player −15; otherwise 1 point for taking part, 1
    per centre, 38 / 14 / 7 for the first three by centres (tied places share), then the survival
    bonus by centres held: 1: 4, 2: 7, 3: 9, 4: 10, 5: 11, 6 or more: 12."""

    name = "C-Diplo Namur"
    key = "c_diplo_namur"
    source = "Diplomacy National World Cup 1 rules, C-Diplo Namur (stabbeurfou.org)"
    PLACES = (38.0, 14.0, 7.0)
    SURVIVAL = (0.0, 4.0, 7.0, 9.0, 10.0, 11.0, 12.0)

    SOLO_SCORE = 73.0
    LOSER_SCORE = -15.0

    def score_draw(self, outcome: BoardOutcome) -> SystemScores:
        ranks = _ranks(outcome, outcome.powers, self.PLACES)
        scores: dict[str, float] = {}
        working: dict[str, str] = {}
        for p in outcome.powers:
            bonus = self.SURVIVAL[min(outcome.count(p), len(self.SURVIVAL) - 1)]
            scores[p] = 1.0 + outcome.count(p) + ranks[p] + bonus
            working[p] = f"1 + {outcome.count(p)} centres + {ranks[p]:g} for its place + {bonus:g} survival"
        return SystemScores(self.name, scores, working)


class CDiplo73(CDiplo):
    """C-Diplo 73.  Source: diplomania-gen.fr's C-Diplo page (the "C-Diplo 73 official system"):
    C-Diplo, but a solo scores 73 (38 top + 34 centres + 1 participation) and the others 0."""

    name = "C-Diplo 73"
    key = "c_diplo_73"
    source = "diplomania-gen.fr, C-Diplo (the C-Diplo 73 official system)"
    SOLO_SCORE = 73.0


SYSTEMS: tuple[ScoringSystem, ...] = (SumOfSquares(), DrawSize(), Carnage(), CDiplo(), OpenTribute(), Bangkok(),
                                      ManorCon(), Tribute(), HalfTribute(), Whipping(), SydneyLeague(), Detour(),
                                      CDiploNamur(), CDiplo73())
BY_KEY: Mapping[str, ScoringSystem] = MappingProxyType({s.key: s for s in SYSTEMS})


def score_all(outcome: BoardOutcome) -> dict[str, SystemScores]:
    """Every system's scores, keyed by the system's key."""
    return {s.key: s.score(outcome) for s in SYSTEMS}


__all__ = ["BY_KEY", "CONCEDED_AS_SOLO", "CONCEDED_AS_SURVIVORS", "CONCEDED_AS_WINNER_DRAW", "CONCESSION",
           "CONCESSION_SCORING", "DRAW", "ONGOING", "RESULT_KINDS", "SOLO", "SYSTEMS", "TIME_LIMIT", "Bangkok",
           "BoardOutcome", "CDiplo", "CDiplo73", "CDiploNamur", "Carnage", "Detour", "DrawSize", "HalfTribute",
           "ManorCon", "OpenTribute", "ScoringSystem", "SumOfSquares", "SydneyLeague", "SystemScores", "Tribute",
           "Whipping", "score_all"]
