"""Formal Diplomacy's declarations as the table keeps them (no Qt): the sealed, unrevealed
declarations of this phase (``table.declarations``), the phases whose declarations were
revealed (``table.declared``), seed 003's rules of declaring, and the sentences that say what
a revealed set of declarations changed.  The window's forms and dialogs
(``gui.table.declarations``) and the phone host read the same keys through here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ..engine.formal import ALLIANCE, NEUTRAL, RELATIONS, WAR, Relations
from .state import TableState

PENDING_KEY = "declarations"
DECLARED_KEY = "declared"

#: seed 003's rules of declarations, one line each (shown on the form)
DECLARATION_RULES = (
    "An alliance needs both sides.",
    "War is one-sided: either side declaring war makes war.",
    "Ending a war needs both sides (neutrality or alliance).",
    "An alliance may be broken by one side.",
    "Mismatched declarations give neutral.",
)

CHOICE_WORDS = {ALLIANCE: "Alliance", NEUTRAL: "Neutral", WAR: "War"}


def pending_declarations(table: TableState, powers: Iterable[str] | None = None) -> dict[str, dict[str, str]]:
    """The sealed, unrevealed declarations kept in the table (bad entries left out), of ``powers``
    only when given."""
    if table.declarations is None:
        return {}
    keep = set(powers) if powers is not None else None
    out: dict[str, dict[str, str]] = {}
    for power, said in table.declarations.entries().items():
        if keep is not None and power not in keep:
            continue
        out[power] = {o: r for o, r in said.items() if r in RELATIONS and o != power}
    return out


def declared_phases(table: TableState) -> list[str]:
    raw = table.declared
    return [str(p) for p in raw] if isinstance(raw, list) else []


#: what declaring a relation does, by (the pair's relation now, the declaration); ``{o}`` is the
#: other power (seed 003: war is one-sided, an alliance needs both sides)
_EFFECTS = {
    (WAR, ALLIANCE): "Ending a war needs both sides: allied if {o} also declares alliance, neutral if {o} declares "
                     "neutral, still at war if {o} declares war.",
    (WAR, NEUTRAL): "Ending a war needs both sides: neutral if {o} also declares neutral or alliance; still at war "
                    "otherwise.",
    (ALLIANCE, ALLIANCE): "The alliance stays only if {o} declares alliance too; a mismatch gives neutral, and war "
                          "if {o} declares war.",
    (NEUTRAL, ALLIANCE): "An alliance needs both sides: allied only if {o} declares alliance too; otherwise neutral "
                         "(or war if {o} declares war).",
    (ALLIANCE, NEUTRAL): "An alliance may be broken by one side: you will be neutral (at war if {o} declares war).",
    (NEUTRAL, NEUTRAL): "Neutral, unless {o} declares war (war is one-sided).",
}


def effect_text(before: str, choice: str, other: str) -> str:
    """What declaring ``choice`` towards ``other`` will do, the pair being ``before`` now (seed 003)."""
    if choice == WAR:
        return f"War is one-sided: you will be at war with {other} whatever {other} declares."
    now = before if before in (WAR, ALLIANCE) else NEUTRAL
    return _EFFECTS[now, ALLIANCE if choice == ALLIANCE else NEUTRAL].format(o=other)


def change_lines(before: Relations, after: Relations, powers: Iterable[str], name: Callable[[str], str]) -> list[str]:
    """What the reveal changed, one sentence a pair: "France and Germany are now at war"."""
    ordered = list(powers)
    out = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            old, new = before.between(a, b), after.between(a, b)
            if old == new:
                continue
            if new == ALLIANCE:
                out.append(f"{name(a)} and {name(b)} are now allies")
            elif new == WAR:
                out.append(f"{name(a)} and {name(b)} are now at war")
            elif old == WAR:
                out.append(f"{name(a)} and {name(b)} are now neutral: the war is over")
            else:
                out.append(f"{name(a)} and {name(b)} are now neutral: the alliance is broken")
    return out


def reveal_rows(declarations: Mapping[str, Mapping[str, str]], before: Relations, after: Relations,
                powers: Iterable[str]) -> list[tuple[str, str, str, str, str, str]]:
    """(a, b, a's declaration, b's declaration, before, after) of every pair where someone declared
    something other than neutral, or the relation was or is not neutral (the rest: all neutral)."""
    ordered = list(powers)
    rows = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            old = before.between(a, b)
            da = declarations.get(a, {}).get(b, old)
            db = declarations.get(b, {}).get(a, old)
            new = after.between(a, b)
            if NEUTRAL == old == new == da == db:
                continue
            rows.append((a, b, da, db, old, new))
    return rows


# -- the form behind the curtain ----------------------------------------------------------------------
