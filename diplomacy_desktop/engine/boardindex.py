"""Per-board lookup tables for the hot paths (validation, adjudication, legal options).

A :class:`Board` is immutable, so everything derived from it alone can be worked out once:
which provinces are seas or coasts, where a fleet lands when it moves into a province, the
names the explanations print, sorted neighbour lists.  :func:`board_index` returns the tables
for a board, building them on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .board import ARMY, COAST, IMPASSABLE, SEA, Board, province_of

KIND_NAMES = {ARMY: "army", "F": "fleet"}


@dataclass(frozen=True, slots=True, eq=False)
class BoardIndex:
    board: Board
    power_ids: frozenset[str]
    seas: frozenset[str]
    coasts: frozenset[str]  # coastal land provinces (where armies are convoyed from and to)
    impassable: frozenset[str]
    #: ``stp/nc`` -> ``St Petersburg (nc)``, ``lon`` -> ``London``: every province and coast
    names: Mapping[str, str]
    #: (fleet location, province) -> the locations of that province the fleet can move to, sorted
    fleet_into: Mapping[tuple[str, str], tuple[str, ...]]
    #: sorted destinations of an army (by province) and of a fleet (by location)
    army_moves_sorted: Mapping[str, tuple[str, ...]]
    fleet_moves_sorted: Mapping[str, tuple[str, ...]]
    #: sea -> the coastal provinces it touches (where a convoy through it can land)
    sea_coasts: Mapping[str, frozenset[str]]

    @classmethod
    def build(cls, board: Board) -> BoardIndex:
        names: dict[str, str] = {}
        for sid, space in board.spaces.items():
            names[sid] = space.name
            for c in space.coasts:
                names[f"{sid}/{c}"] = f"{space.name} ({c})"
        fleet_into: dict[tuple[str, str], list[str]] = {}
        for src, targets in board.fleet_moves.items():
            for t in targets:
                fleet_into.setdefault((src, province_of(t)), []).append(t)
        seas = frozenset(s.id for s in board.spaces.values() if s.kind == SEA)
        coasts = frozenset(s.id for s in board.spaces.values() if s.kind == COAST)
        return cls(
            board=board,
            power_ids=frozenset(board.power_ids),
            seas=seas,
            coasts=coasts,
            impassable=frozenset(s.id for s in board.spaces.values() if s.kind == IMPASSABLE),
            names=names,
            fleet_into={k: tuple(sorted(v)) for k, v in fleet_into.items()},
            army_moves_sorted={k: tuple(sorted(v)) for k, v in board.army_moves.items()},
            fleet_moves_sorted={k: tuple(sorted(v)) for k, v in board.fleet_moves.items()},
            sea_coasts={sea: board.province_neighbours[sea] & coasts for sea in seas},
        )

    def space_name(self, loc: str) -> str:
        """``St Petersburg (nc)``; an unknown id is printed as it is."""
        name = self.names.get(loc)
        if name is not None:
            return name
        prov, _, coast = loc.partition("/")
        space = self.board.spaces.get(prov)
        name = space.name if space else prov
        return f"{name} ({coast})" if coast else name

    def describe(self, kind: str, loc: str) -> str:
        """``army in Paris``, ``fleet in Spain (nc)``."""
        return f"{KIND_NAMES[kind]} in {self.space_name(loc)}"


_INDEXES: dict[int, BoardIndex] = {}
_MAX_INDEXES = 8


def board_index(board: Board) -> BoardIndex:
    """The lookup tables of ``board`` (built once per board, then reused)."""
    index = _INDEXES.get(id(board))
    if index is None or index.board is not board:
        if len(_INDEXES) >= _MAX_INDEXES:
            _INDEXES.pop(next(iter(_INDEXES)))
        index = _INDEXES[id(board)] = BoardIndex.build(board)
    return index
