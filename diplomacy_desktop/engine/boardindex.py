"""Per-board lookup tables for the hot paths (validation, adjudication, legal options).

A :class:`Board` is immutable, so everything derived from it alone can be worked out once:
which provinces are seas or coasts, where a fleet lands when it moves into a province, the
names the explanations print, sorted neighbour lists.  :func:`board_index` returns the tables
for a board, building them on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .board import ARMY, COAST, IMPASSABLE, SEA, Board, province_of

KIND_NAMES = {ARMY: "army", "F": "fleet"}

#: a node of the tree of convoy chains: (the chains ending here, as (destination, seas of the
#: chain); the next seas -> their nodes)
ChainNode = tuple[tuple[tuple[str, frozenset[str]], ...], dict[str, "ChainNode"]]


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
    _chains: dict[str, Mapping[str, tuple[tuple[str, frozenset[str]], ...]]] = field(default_factory=dict)
    _trees: dict[str, Mapping[str, ChainNode]] = field(default_factory=dict)

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

    def convoy_chains(self, origin: str) -> Mapping[str, tuple[tuple[str, frozenset[str]], ...]]:
        """Every minimal chain of seas that could carry an army from the coast ``origin``, by
        its first sea: ``{first sea: ((destination, seas of the chain), ...)}``.

        A chain is minimal when no sea in it could be left out: only its first sea touches the
        origin, only its last touches the destination, and no two seas that are not next in
        the chain touch.  Whether a chain is minimal depends on the board alone, so with fleets
        in some seas the usable chains are exactly those all of whose seas hold a fleet.
        """
        found = self._chains.get(origin)
        if found is None:
            by_first: dict[str, list[tuple[str, frozenset[str]]]] = {}
            stack = [(first, node) for first, node in self.convoy_tree(origin).items()]
            while stack:
                first, (landings, further) = stack.pop()
                by_first.setdefault(first, []).extend(landings)
                stack.extend((first, node) for node in further.values())
            found = self._chains[origin] = {first: tuple(chains) for first, chains in by_first.items()}
        return found

    def convoy_tree(self, origin: str) -> Mapping[str, ChainNode]:
        """The minimal chains from ``origin`` (see :meth:`convoy_chains`) as a tree: first sea
        -> ``(landings, further)``, where ``landings`` are the chains ending at that sea, as
        (destination, seas of the chain), and ``further`` maps each next sea to its node.
        With fleets in some seas, walking only into seas that hold one finds every usable
        chain and nothing else."""
        found = self._trees.get(origin)
        if found is None:
            found = self._trees[origin] = self._grow(origin)
        return found

    def _grow(self, origin: str) -> dict[str, ChainNode]:
        if origin not in self.coasts:
            return {}
        near_origin = self.board.province_neighbours.get(origin, frozenset())
        return {first: self._node(origin, near_origin, [first], frozenset())
                for first in sorted(near_origin & self.seas)}

    def _node(self, origin: str, near_origin: frozenset[str], path: list[str], touched: frozenset[str]) -> ChainNode:
        """The node of the chain ``path`` from ``origin``; ``touched``: every province next to a
        sea of the chain before its last.  (A method, not a function nested in ``_grow``: a
        nested function calling itself makes a reference cycle.)"""
        nb = self.board.province_neighbours
        last = path[-1]
        chain = frozenset(path)
        landings = tuple((dest, chain) for dest in sorted(self.sea_coasts[last])
                         if dest != origin and dest not in touched)
        touched_now = touched | nb[last]
        further = {nxt: self._node(origin, near_origin, [*path, nxt], touched_now) for nxt in sorted(nb[last] & self.seas)
                   if nxt not in path and nxt not in near_origin and nxt not in touched}
        return landings, further

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
