"""Who plays which power: powers by priority (rules I) and the groupings for fewer players.

Rules I: "Diplomacy is best played by seven players, though as few as two may play ... At the
start of the game, the players choose three Great Powers in priority."  With fewer than seven
players a player holds a *seat* of several powers (or a power is not played and stays in civil
disorder, rules XIV.1); :data:`GROUPINGS` are the rulebook's usual ones.

The assignment is a pure function of the players' choices and a seed: ties are settled by a
draw with ``random.Random(seed)``, so the table can be shown the seed and every draw, and anyone
can repeat them.  (The engine itself picks no seed: the caller does, and shows it.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The usual groupings for fewer than seven players, by number of players: the seats, each the
#: powers one player holds; powers in no seat are not played (their units hold, in civil
#: disorder).  Source: the Avalon Hill rulebook (4th edition 2000 and 5th edition 2008),
#: "Alternate Way to Play" / rules for fewer than seven players: six players, Italy is not
#: played; five, Germany and Italy are not played; four, one player is England and the others
#: Austria & France, Germany & Turkey, Italy & Russia; three, England & Germany & Austria,
#: Russia & Italy, France & Turkey; two, England & France & Russia against Germany & Austria &
#: Turkey, Italy not played.  (The four-player grouping is also the one described at
#: http://www.variantbank.org/results/rules/1/4-man.htm.)
GROUPINGS: Mapping[int, tuple[tuple[str, ...], ...]] = {
    7: (("austria",), ("england",), ("france",), ("germany",), ("italy",), ("russia",), ("turkey",)),
    6: (("austria",), ("england",), ("france",), ("germany",), ("russia",), ("turkey",)),
    5: (("austria",), ("england",), ("france",), ("russia",), ("turkey",)),
    4: (("england",), ("austria", "france"), ("germany", "turkey"), ("italy", "russia")),
    3: (("england", "germany", "austria"), ("russia", "italy"), ("france", "turkey")),
    2: (("england", "france", "russia"), ("germany", "austria", "turkey")),
}

#: how many powers a player names in priority (rules I)
CHOICES = 3


def unplayed(seats: Sequence[Sequence[str]], powers: Sequence[str]) -> tuple[str, ...]:
    """The powers in no seat: nobody plays them (they are in civil disorder)."""
    held = {p for seat in seats for p in seat}
    return tuple(p for p in powers if p not in held)


@dataclass(frozen=True, slots=True)
class Draw:
    """A tie settled by lot: several players wanted ``seat`` as their choice number ``choice``
    (1 to 3; 0 for the players none of whose choices was free, who draw for the seats left)."""

    choice: int
    seat: tuple[str, ...]
    contenders: tuple[str, ...]
    winner: str


@dataclass(frozen=True, slots=True)
class Assignment:
    """The result: each player's seat (the powers they play), the draws that settled ties, the
    seed they used, and the powers nobody plays."""

    seats: tuple[tuple[str, tuple[str, ...]], ...]  # (player, powers), in the players' order
    draws: tuple[Draw, ...]
    seed: int
    unplayed: tuple[str, ...]

    def powers_of(self, player: str) -> tuple[str, ...]:
        for who, powers in self.seats:
            if who == player:
                return powers
        raise KeyError(player)

    def player_of(self, power: str) -> str | None:
        for who, powers in self.seats:
            if power in powers:
                return who
        return None


def _seat_of_power(seat_list: Sequence[tuple[str, ...]]) -> dict[str, int]:
    """Power -> the number of the seat that holds it (ValueError for a power in two seats)."""
    seat_of: dict[str, int] = {}
    for i, seat in enumerate(seat_list):
        for p in seat:
            if p in seat_of:
                raise ValueError(f"{p} is in two seats")
            seat_of[p] = i
    return seat_of


def _check_choices(choices: Mapping[str, Sequence[str]], seat_of: Mapping[str, int]) -> None:
    """ValueError for more than three choices, an unknown power, or one named twice."""
    for player, wanted in choices.items():
        if len(wanted) > CHOICES:
            raise ValueError(f"{player} named {len(wanted)} powers; each player names at most {CHOICES}")
        for p in wanted:
            if p not in seat_of:
                raise ValueError(f"{player} chose {p!r}, which is not played in this game")
        if len({seat_of[p] for p in wanted}) != len(wanted):
            raise ValueError(f"{player} named the same power (or seat) twice")


def assign_by_priority(choices: Mapping[str, Sequence[str]], seats: Sequence[Sequence[str]], seed: int,
                       powers: Sequence[str] = ()) -> Assignment:
    """Give each player a seat from their choices in priority (rules I).

    ``choices``: player -> up to three powers in priority (a power names the seat holding it);
    ``seats``: the seats to share out (each a tuple of powers: ``GROUPINGS[n]`` for ``n``
    players, or one power each).  Round by round, first choices first: a seat wanted by one
    player goes to that player; a seat wanted by several goes to one of them drawn by lot; a
    player whose choice is taken waits for the next round.  Players none of whose choices was
    free draw lots for the seats left.  ``powers``: every power of the board, for the list of
    powers nobody plays (those of seats left empty and those in no seat).  ValueError for more players than seats, an unknown
    power, a power named twice by one player, or more than three choices.
    """
    seat_list = [tuple(s) for s in seats]
    seat_of = _seat_of_power(seat_list)
    players = list(choices)
    if len(players) > len(seat_list):
        raise ValueError(f"{len(players)} players but only {len(seat_list)} seats")
    _check_choices(choices, seat_of)
    rng = random.Random(seed)
    taken: dict[int, str] = {}  # seat -> player
    draws: list[Draw] = []
    for rank in range(CHOICES):
        wanting: dict[int, list[str]] = {}
        for player in players:
            if player in taken.values() or rank >= len(choices[player]):
                continue
            s = seat_of[choices[player][rank]]
            if s not in taken:
                wanting.setdefault(s, []).append(player)
        for s in sorted(wanting):
            contenders = sorted(wanting[s])
            if len(contenders) == 1:
                taken[s] = contenders[0]
            else:
                winner = rng.choice(contenders)
                taken[s] = winner
                draws.append(Draw(rank + 1, seat_list[s], tuple(contenders), winner))
    left_players = sorted(p for p in players if p not in taken.values())
    if left_players:
        free = [s for s in range(len(seat_list)) if s not in taken]
        picked = rng.sample(free, len(left_players))
        for player, s in zip(left_players, picked, strict=True):
            taken[s] = player
            draws.append(Draw(0, seat_list[s], tuple(left_players), player))
    by_player = {player: seat_list[s] for s, player in taken.items()}
    every_power = list(powers) or [p for seat in seat_list for p in seat]
    played = [seat_list[s] for s in taken]
    return Assignment(tuple((p, by_player[p]) for p in players), tuple(draws), seed,
                      unplayed(played, every_power))


__all__ = ["CHOICES", "GROUPINGS", "Assignment", "Draw", "assign_by_priority", "unplayed"]
