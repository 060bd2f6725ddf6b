"""The relations of Formal Diplomacy (seed 003) as a value: every pair of powers allied, neutral
(the default) or at war, and the rule by which one declaration period changes them.

A leaf of the engine (it imports nothing of it), so that the game state can carry a
``Relations`` and ``formal`` (what the relations forbid) can read the state without the two
modules importing each other.  ``formal`` re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ALLIANCE = "alliance"
NEUTRAL = "neutral"
WAR = "war"
RELATIONS = (ALLIANCE, NEUTRAL, WAR)

_WORDS = {"alliance": ALLIANCE, "allied": ALLIANCE, "allies": ALLIANCE, "ally": ALLIANCE,
          "neutral": NEUTRAL, "neutrality": NEUTRAL, "peace": NEUTRAL,
          "war": WAR, "at war": WAR, "enemy": WAR, "enemies": WAR}


def relation_word(text: str) -> str:
    """``"alliance"``, ``"neutral"`` or ``"war"`` for a word as a person writes it (ValueError
    if it is none of them)."""
    word = _WORDS.get(" ".join(text.strip().lower().split()))
    if word is None:
        raise ValueError(f"unknown relation {text.strip()!r}: use alliance, neutral or war")
    return word


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Relations:
    """The relation of every pair of powers: the pairs that are allied or at war, every other
    pair neutral.  Immutable; :meth:`with_relation` and :func:`declare` return new values."""

    #: ``((power, power, relation), ...)``, each pair once, in sorted order, never neutral
    pairs: tuple[tuple[str, str, str], ...] = ()

    @classmethod
    def from_mapping(cls, relations: Mapping[tuple[str, str], str] | Iterable[tuple[str, str, str]]
                     ) -> Relations:
        """From ``{(a, b): "war", ...}`` or ``[(a, b, "war"), ...]`` (either order of a pair;
        neutral pairs may be given or left out).  ValueError for a power paired with itself or
        a pair given two different relations."""
        items = ([(a, b, r) for (a, b), r in relations.items()] if isinstance(relations, Mapping)
                 else list(relations))
        found: dict[tuple[str, str], str] = {}
        for a, b, r in items:
            if a == b:
                raise ValueError(f"{a} cannot have a relation with itself")
            rel = relation_word(r)
            key = _pair(a, b)
            if found.get(key, rel) != rel:
                raise ValueError(f"{key[0]} and {key[1]} are given two relations ({found[key]}, {rel})")
            found[key] = rel
        return cls(tuple(sorted((a, b, r) for (a, b), r in found.items() if r != NEUTRAL)))

    def between(self, a: str, b: str) -> str:
        """The relation of ``a`` and ``b`` (neutral unless declared otherwise)."""
        if a == b:
            raise ValueError("a power has no relation with itself")
        x, y = _pair(a, b)
        for p, q, r in self.pairs:
            if p == x and q == y:
                return r
        return NEUTRAL

    def allied(self, a: str, b: str) -> bool:
        return a != b and self.between(a, b) == ALLIANCE

    def at_war(self, a: str, b: str) -> bool:
        return a != b and self.between(a, b) == WAR

    def neutral(self, a: str, b: str) -> bool:
        return a != b and self.between(a, b) == NEUTRAL

    def allies_of(self, power: str) -> frozenset[str]:
        return frozenset(q if p == power else p for p, q, r in self.pairs if r == ALLIANCE and power in (p, q))

    def with_relation(self, a: str, b: str, relation: str) -> Relations:
        found = {(p, q): r for p, q, r in self.pairs}
        found[_pair(a, b)] = relation_word(relation)
        return Relations.from_mapping(found)

    def as_list(self) -> list[tuple[str, str, str]]:
        """The allied and warring pairs, sorted: what a file writes."""
        return list(self.pairs)

    def __str__(self) -> str:
        return "; ".join(f"{a} {b}: {r}" for a, b, r in self.pairs) or "all neutral"


NO_RELATIONS = Relations()


# -- declarations -------------------------------------------------------------------------------


def declare(previous: Relations, declarations: Mapping[str, Mapping[str, str]],
            powers: Iterable[str] | None = None) -> Relations:
    """The relations after one declaration period (seed 003, "Declarations").

    ``declarations[a][b]`` is what ``a`` declared towards ``b``: ``"alliance"``, ``"neutral"`` or
    ``"war"``.  A power that declares nothing towards another keeps its present standing towards
    it (its previous relation).  Then, for each pair:

    * war declared by either side is war (war is unilateral);
    * a pair at war stays at war unless both declare neutrality or alliance (mutual consent);
      both alliance gives alliance, mismatched gives neutral (the default);
    * otherwise both declaring alliance is an alliance (it needs both sides); anything else is
      neutral, so one side alone breaks an alliance.

    The rule of a war that only mutual consent ends falls out of the first point: a side that
    declares nothing keeps declaring war.
    """
    names = set(powers) if powers is not None else set()
    names.update(declarations)
    for said in declarations.values():
        names.update(said)
    for p, q, _ in previous.pairs:
        names.update((p, q))
    result: dict[tuple[str, str], str] = {}
    ordered = sorted(names)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            before = previous.between(a, b)
            da = relation_word(declarations.get(a, {}).get(b, before))
            db = relation_word(declarations.get(b, {}).get(a, before))
            result[(a, b)] = pair_outcome(before, da, db)
    return Relations.from_mapping(result)


def pair_outcome(before: str, one: str, other: str) -> str:
    """The new relation of a pair that was ``before`` when its sides declare ``one`` and ``other``."""
    if WAR in (one, other):
        return WAR
    if one == ALLIANCE and other == ALLIANCE:
        return ALLIANCE
    return NEUTRAL
