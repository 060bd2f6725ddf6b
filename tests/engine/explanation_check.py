"""A checker for explanations that cannot be fooled by wording (issue 18, point 2).

It reads an explanation's *text* and holds every claim in it against facts it works out on its
own from the position and the plain outcome of each order (which moves went through, which
supports were cut or void, which convoyed armies had a route):

* every figure quoted (``attack strength 2``, ``(strength 2 against 1)``, ``2 against 2``) equals
  the DATC section-5 strength recomputed here from those facts, and no strength 0 is quoted;
* the supports named inside a strength are exactly the ones that count in it;
* every unit said to move (attacked, also moved, moving the other way, ...) was ordered to move;
* every power or nationality named owns the unit it is named with;
* a support said to count appears in the strength it is said to count in;
* "lost" is said only where the other side was stronger (never of a stand-off);
* an army is never given a coast; every number in the text is one of the recognised figures;
* every rule cited (the decisive one and any in the text) fits the decision: e.g. IX.3 needs a
  unit of the same power, X a cut support, IX.5 two attacks that stood off over a weaker hold.

The strengths are not read from the engine's decision record: they are recomputed from the
orders and outcomes, so a record and text that agree with each other but not with the rules
are caught too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from diplomacy_desktop.engine.board import ARMY, FLEET, province_of
from diplomacy_desktop.engine.boardindex import board_index
from diplomacy_desktop.engine.explain import RULES, explain, results_by_province
from diplomacy_desktop.engine.formal import ALLIANCE, NEUTRAL, WAR
from diplomacy_desktop.engine.orders import Convoy, Move, SupportHold, SupportMove, UnitOrder
from diplomacy_desktop.engine.results import NotCut, NotCutWhy, OrderResult, Outcome, ResultCode
from diplomacy_desktop.engine.state import MOVEMENT, GameState


@dataclass
class _Facts:
    """What each unit was ordered to do and how it ended, from the results alone."""

    state: GameState
    moves: dict[str, str] = field(default_factory=dict)  # province -> destination province
    moved: set[str] = field(default_factory=set)  # moves that succeeded
    no_path: set[str] = field(default_factory=set)  # convoyed moves without a route
    convoyed: set[str] = field(default_factory=set)  # moves that went (or bounced) by convoy
    # supports: supporter -> (target province, destination province or None, "given"/"cut"/"void")
    supports: dict[str, tuple[str, str | None, str]] = field(default_factory=dict)
    convoys: dict[str, tuple[str, str]] = field(default_factory=dict)

    def power(self, p: str) -> str:
        return self.state.units[p].power

    def relation(self, a: str, b: str) -> str:
        rel = self.state.relations
        if rel is None:
            return WAR
        if a == b:
            return "own"
        return rel.between(a, b)

    def h2h(self, i: str, j: str) -> bool:
        return (self.moves.get(j) == i and self.moves.get(i) == j
                and i not in self.convoyed and j not in self.convoyed)

    def uncut_move_supports(self, i: str) -> list[str]:
        d = self.moves[i]
        return sorted(s for s, (t, sd, st) in self.supports.items() if t == i and sd == d and st == "given")

    def uncut_hold_supports(self, j: str) -> list[str]:
        return sorted(s for s, (t, sd, st) in self.supports.items() if t == j and sd is None and st == "given")

    def shielded(self, i: str, j: str) -> bool:
        a, b = self.power(i), self.power(j)
        return a == b or (self.state.relations is not None and self.relation(a, b) != WAR)

    def excluded(self, s: str, j: str) -> bool:
        a, b = self.power(s), self.power(j)
        return a == b or (self.state.relations is not None and self.relation(a, b) == ALLIANCE)

    def attack(self, i: str) -> tuple[int, list[str]]:
        if i in self.no_path:
            return 0, []
        d = self.moves[i]
        sups = self.uncut_move_supports(i)
        j = d if d in self.state.units else None
        if j is None or (j in self.moves and not self.h2h(i, j) and j in self.moved):
            return 1 + len(sups), sups
        if self.shielded(i, j):
            return 0, []
        counted = [s for s in sups if not self.excluded(s, j)]
        return 1 + len(counted), counted

    def hold(self, d: str) -> tuple[int, list[str]]:
        if d not in self.state.units:
            return 0, []
        if d in self.moves:
            return (0 if d in self.moved else 1), []
        sups = self.uncut_hold_supports(d)
        return 1 + len(sups), sups

    def defend(self, j: str) -> tuple[int, list[str]]:
        sups = self.uncut_move_supports(j)
        return 1 + len(sups), sups

    def prevent(self, k: str) -> tuple[int, list[str]]:
        if k in self.no_path:
            return 0, []
        d = self.moves[k]
        if d in self.state.units and self.h2h(k, d) and d in self.moved:
            return 0, []
        if self.state.relations is not None and d in self.state.units and \
                self.relation(self.power(k), self.power(d)) == NEUTRAL and \
                not (d in self.moves and not self.h2h(k, d) and d in self.moved):
            return 0, []
        sups = self.uncut_move_supports(k)
        return 1 + len(sups), sups

    def opposition(self, i: str) -> int:
        d = self.moves[i]
        best = self.defend(d)[0] if d in self.state.units and self.h2h(i, d) else self.hold(d)[0]
        for k, dk in self.moves.items():
            if k != i and dk == d:
                best = max(best, self.prevent(k)[0])
        return best

    def strength(self, kind: str, p: str) -> tuple[int, list[str]]:
        return {"attack": self.attack, "hold": self.hold, "defend": self.defend, "prevent": self.prevent}[kind](p)


def facts_of(state: GameState, results: Iterable[OrderResult]) -> _Facts:
    f = _Facts(state)
    for p, r in results_by_province(results).items():
        o = r.order
        if r.outcome is Outcome.ILLEGAL or r.code == ResultCode.INTERNED or not isinstance(o, UnitOrder):
            continue
        if p not in state.units:
            continue
        if isinstance(o, Move):
            f.moves[p] = province_of(o.destination)
            if r.code == ResultCode.MOVED:
                f.moved.add(p)
            if r.code == ResultCode.NO_CONVOY:
                f.no_path.add(p)
                f.convoyed.add(p)
            if r.route:
                f.convoyed.add(p)
        elif isinstance(o, (SupportHold, SupportMove)):
            status = {ResultCode.SUPPORTED: "given", ResultCode.CUT: "cut"}.get(r.code, "void")  # type: ignore[call-overload]
            dest = province_of(o.destination) if isinstance(o, SupportMove) else None
            f.supports[p] = (province_of(o.target), dest, status)
        elif isinstance(o, Convoy):
            f.convoys[p] = (province_of(o.target), province_of(o.destination))
    return f


_RULE_REF = re.compile(r"\((?:rule )?((?:DATC )?[IVX]+(?:\.\d+)*|DATC 4\.A\.2)\)|Rule ((?:DATC )?[\w.]+) \(")


class Checker:
    """Checks every explanation of one adjudication."""

    def __init__(self, state: GameState, results: Iterable[OrderResult]) -> None:
        self.results = tuple(results)
        self.state = state
        self.by_province = results_by_province(self.results)
        self.facts = facts_of(state, self.results)
        index = board_index(state.board)
        self.adjectives = {pid: state.board.power(pid).adjective for pid in index.power_ids}
        self.power_names = {pid: state.board.power(pid).name for pid in index.power_ids}
        self.name_of: dict[str, str] = {}  # "army in Serbia" -> "ser"
        for p, u in state.units.items():
            self.name_of[index.describe(u.kind, u.location).lower()] = p
        alternatives = "|".join(re.escape(n) for n in sorted(self.name_of, key=len, reverse=True))
        adjectives = "|".join(re.escape(a) for a in sorted(self.adjectives.values(), key=len, reverse=True))
        self.unit_re = re.compile(rf"(?:the )?(?:({adjectives}) )?({alternatives})(?![a-z])", re.IGNORECASE) \
            if alternatives else None

    # -- helpers ---------------------------------------------------------------------------

    def units_in(self, text: str) -> list[tuple[int, int, str, str | None]]:
        """(start, end, province, adjective) for every unit named in ``text``."""
        if self.unit_re is None:
            return []
        return [(m.start(), m.end(), self.name_of[m.group(2).lower()], m.group(1)) for m in self.unit_re.finditer(text)]

    def check_all(self) -> list[str]:
        problems: list[str] = []
        for r in self.results:
            text = explain(r, self.state, self.by_province).text()
            problems.extend(f"{_order_name(r)}: {p}\n    {text}" for p in self.check(r, text))
        return problems

    def check(self, r: OrderResult, text: str) -> list[str]:
        out: list[str] = []
        if re.search(r"strength 0\b", text):
            out.append("quotes a strength 0")
        if re.search(r"army in (?:(?! and | the )[^.,;:()])*\((?:nc|sc|ec|wc|north coast|south coast|east coast|west coast)\)", text):
            out.append("gives an army a coast")
        me = r.order.province if isinstance(r.order, UnitOrder) else None
        movement = self.state.phase.kind == MOVEMENT and me in self.state.units and r.outcome is not Outcome.ILLEGAL
        lines = text.split("\n")
        for n, line in enumerate(lines):
            out.extend(self._check_units(line))
            if movement:
                out.extend(self._check_figures(r, line, headline=n == 0))
        if movement:
            out.extend(self._check_rules(r, text))
            out.extend(self._check_causes(r, text))
        else:
            out.extend(self._check_rules_known(text))
        return out

    # -- causes (issue 32): every sentence that gives a cause, held against the orders ----------

    def _convoy_seas(self, army: str) -> set[str]:
        return {fl for fl, (t, d) in self.facts.convoys.items() if t == army and d == self.facts.moves.get(army)}

    def _check_causes(self, r: OrderResult, text: str) -> list[str]:
        f = self.facts
        me: str = r.order.province  # type: ignore[attr-defined]
        o = r.order
        out: list[str] = []
        attackers = [k for k, dk in f.moves.items() if dk == me]
        sd = province_of(o.destination) if isinstance(o, SupportMove) else None
        if "attacked only from the space it supports into" in text and any(k != sd for k in attackers):
            out.append("says it was attacked only from the space it supports into, but a move came from elsewhere")
        if "runs through the sea this support helps attack" in text and not any(
                sd in self._convoy_seas(k) for k in attackers):
            out.append("says the attacking army's convoy runs through the sea this support helps attack; it does not")
        if "own attack could not save that fleet" in text:
            d = f.moves.get(me)
            sup = f.supports.get(d or "")
            if sup is None or sup[1] not in self._convoy_seas(me):
                out.append("cites XII.5 for an army that did not attack the support of the attack on its own fleet")
        if isinstance(o, SupportHold) and re.search(r"\bmoved, so it cannot be supported to hold", text) and \
                province_of(o.target) not in f.moved:
            out.append("says the supported unit moved, but its move failed")
        out.extend(self._check_expert_causes(r, text))
        if "could not enter for other reasons" in text:
            out.append("says a stronger move could not enter 'for other reasons' without saying whether it entered")
        d = f.moves.get(me)
        if d is not None and me not in f.moved and r.rule == "IX.3" and d in self.state.units \
                and f.power(d) == f.power(me):
            rivals = [k for k, dk in f.moves.items() if dk == d and k != me]
            mine = f.prevent(me)[0]
            best = max((f.prevent(k)[0] for k in rivals), default=0)
            if best > mine:
                out.append("cites IX.3 (its own unit stayed), but a stronger move there decided it (IX.2)")
            elif best == mine > 0 and _ring(f, me):
                out.append("cites IX.3 (its own unit stayed), but that unit stayed only because this move was stood "
                           "off (VIII): the cause told backwards")
        if isinstance(o, Convoy) and r.outcome is Outcome.VOID and r.rule == "XII.1":
            t, cd = f.convoys.get(me, ("", "")) if me in f.convoys else (province_of(o.target), province_of(o.destination))
            if f.moves.get(t) == cd:
                out.append("calls a convoy of the army's own move void by XII.1, whose conditions hold; the intent "
                           "rule (XII.6, DATC 4.A.3) decides")
        if r.rule == "IX.7" and d is not None:
            ex = explain(r, self.state, self.by_province)
            rivals = [k for k, dk in f.moves.items() if dk == d and k != me and self.by_province[k].dislodged]
            # no effect there only when dislodged head to head by the unit from that space (DATC 4.A.7)
            from_dest = any(self.by_province[k].dislodged_by == d and f.h2h(k, d) for k in rivals)
            exception = "coming from that space" in ex.rule_text or "attack from the space it was moving to" in \
                ex.rule_text
            if rivals and exception != from_dest:
                out.append("quotes the half of IX.7 that does not apply")
            if rivals and not any("was dislodged" in line or "lost its head-to-head battle" in line
                                  for line in ex.details):
                out.append("cites IX.7 without saying which unit was dislodged")
        if isinstance(o, Move) and r.rule == "VII.1" and o.unit_kind == "F" and \
                self.state.board.spaces[province_of(o.destination)].coasts:
            out.append("cites VII.1 for a fleet entering one coast of a two-coast province (VII.3.2 decides)")
        out.extend(self._check_facts(r))
        return out

    def _check_expert_causes(self, r: OrderResult, text: str) -> list[str]:
        """The causes a rules expert found false or missing in positions of our own
        (teaching_positions/expert.txt): convoys to a neighbouring space, exchanges, garrisons, coasts."""
        f = self.facts
        board = self.state.board
        me: str = r.order.province  # type: ignore[attr-defined]
        o = r.order
        out: list[str] = []
        d = f.moves.get(me)
        kind = self.state.units[me].kind
        borders = isinstance(o, Move) and kind == ARMY and d is not None and board.can_move(ARMY, me, d)
        if borders and "a space it does not border" in text:
            out.append("says the army does not border its destination; it does (the 'via convoy' decides)")
        if borders and isinstance(o, Move) and o.via_convoy and me in f.moved and me not in f.convoyed \
                and r.rule == "XII.6":
            out.append("cites XII.6 (a 'via convoy' army goes by convoy) for one that went over land: the classic "
                       "fallback of DATC 4.A.3 decides")
        if d is not None and me in f.moved and me not in f.convoyed and re.search(
                r"exchanging places with [^.;,]* by convoy", text.split("\n")[0]):
            out.append("says it exchanged places by convoy, but it went over land (the other unit was convoyed)")
        if "stood each other off" in text.split("\n")[0] and d is None:
            attackers = [k for k, dk in f.moves.items() if dk == me]
            prevents = sorted((f.prevent(k)[0] for k in attackers), reverse=True)
            strong = [k for k in attackers if f.attack(k)[0] > f.hold(me)[0]]
            if len(strong) < 2 and (len(prevents) < 2 or prevents[0] != prevents[1]):
                out.append("says the attacks on it stood each other off, but one was stronger than the others")
        if isinstance(o, SupportMove) and kind == FLEET and r.outcome is Outcome.SUCCESS \
                and "/" in o.destination and not board.can_move(FLEET, o.location, o.destination) \
                and "VII.3.2" not in text:
            out.append("supports into a coast it cannot reach and does not say that VII.3.2 allows it")
        if re.search(r"cannot move to ([^,]+), but it can move to \1,", text):
            out.append("says it cannot move to a space and can move to the same space")
        return out

    def _check_facts(self, r: OrderResult) -> list[str]:
        """Every fact an explanation's cause sentences name, held against the orders."""
        f = self.facts
        me: str = r.order.province  # type: ignore[attr-defined]
        o = r.order
        out: list[str] = []
        for cause in explain(r, self.state, self.by_province).causes:
            if cause.what != "not_cut":
                continue
            nc = cause.fact[0]
            assert isinstance(nc, NotCut)
            a = nc.attacker
            sd = province_of(o.destination) if isinstance(o, SupportMove) else None
            if f.moves.get(a) != me:
                out.append(f"says {a} moved against it, but {a} was not ordered there")
                continue
            ok = {NotCutWhy.OWN_POWER: f.power(a) == f.power(me),
                  NotCutWhy.FROM_TARGET: a == sd,
                  NotCutWhy.CONVOY_ATTACKED: bool(nc.seas) and nc.seas[0] == sd and sd in self._convoy_seas(a),
                  NotCutWhy.SZYKMAN: a in f.no_path and sd not in self._convoy_seas(a),
                  NotCutWhy.NO_ROUTE: a in f.no_path}.get(nc.why, True)
            if not ok:
                out.append(f"gives {nc.why} as why the move from {a} did not cut it; the orders say otherwise")
        return out

    # -- units and powers ----------------------------------------------------------------------

    def _check_units(self, line: str) -> list[str]:
        out = []
        for start, end, p, adjective in self.units_in(line):
            unit = self.state.units[p]
            if adjective is not None and adjective.lower() != self.adjectives[unit.power].lower():
                out.append(f"calls the unit in {p} {adjective}, but it is {self.adjectives[unit.power]}")
            after = line[end:end + 40]
            said_to_move = re.match(r",? (?:also moved|attacked|moved|went by convoy|tried to move|coming from)\b",
                                    after) or after.startswith(", moving the other way")
            if said_to_move and p not in self.facts.moves:
                out.append(f"says the unit in {p} moved, but it was not ordered to move ({after.strip()!r})")
        for m in re.finditer(r"(\w+)'s own unit|is (\w+)'s \(rule", line):
            power_name = m.group(1) or m.group(2)
            named = [p for _, _, p, _ in self.units_in(line[: m.start()])]
            owners = {self.power_names[self.state.units[p].power] for p in named[-1:]}
            if owners and power_name not in owners:
                out.append(f"names {power_name} as the owner of a unit that is {owners}")
        return out

    # -- figures ------------------------------------------------------------------------------

    def _subject(self, line: str, pos: int, me: str) -> str | None:
        """The unit a figure at ``pos`` belongs to: "its" is the explained unit, else the nearest
        unit named before it outside parentheses."""
        before = line[:pos]
        if before.endswith("its "):
            return me
        depth, depth_at = 0, []
        for ch in before:
            depth_at.append(depth)
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
        units = [u for u in self.units_in(before) if depth_at[u[0]] == 0]
        return units[-1][2] if units else None

    def _check_figures(self, r: OrderResult, line: str, *, headline: bool) -> list[str]:
        out: list[str] = []
        f = self.facts
        me: str = r.order.province  # type: ignore[attr-defined]
        accounted: list[tuple[int, int]] = []
        for m in re.finditer(r"\b(attack|hold|defend|prevent) strength (\d+)", line):
            kind, value = m.group(1), int(m.group(2))
            accounted.append(m.span(2))
            who = self._subject(line, m.start(), me)
            if who is None:
                out.append(f"quotes {m.group(0)} without naming whose")
                continue
            if kind == "hold" and who == me and me in f.moves and r.dislodged and f.moves.get(r.dislodged_by or "") == me \
                    and f.h2h(me, r.dislodged_by or ""):
                kind = "defend"
            if kind in ("attack", "defend", "prevent") and who not in f.moves:
                out.append(f"quotes the {kind} strength of {who}, which was not ordered to move")
                continue
            want, counted = f.strength(kind, who)
            if value != want:
                out.append(f"quotes {kind} strength {value} for {who}; the DATC's equations give {want}")
            paren = line[m.end():m.end() + 200]
            if paren.startswith(" (itself alone)") and counted:
                out.append(f"says {who}'s {kind} strength is itself alone; supports in it: {counted}")
            elif paren.startswith(" (itself and the support of "):
                listed = _until_closing(paren[len(" (itself and the support of "):])
                named = sorted(p for _, _, p, _ in self.units_in(listed))
                if named != sorted(counted):
                    out.append(f"lists supports {named} in {who}'s {kind} strength; those that count: {counted}")
        if r.code == ResultCode.SUPPORTED and (m2 := re.match(r"It counted in (.*?)'s (attack|prevent|defend|hold)",
                                                            line)):
            units = self.units_in(m2.group(1))
            if units:
                who, kind = units[-1][2], m2.group(2)
                counted = f.strength(kind, who)[1] if (kind == "hold" or who in f.moves) else []
                if me not in counted:
                    out.append(f"says the support counted in {who}'s {kind} strength, but it is not in it")
        for m in re.finditer(r"\(its prevent strength (\d+) against (\d+)\)", line):
            accounted.extend([m.span(1), m.span(2)])
            d = f.moves.get(me)
            best = max((f.prevent(k)[0] for k, dk in f.moves.items() if dk == d and k != me), default=0)
            if (int(m.group(1)), int(m.group(2))) != (f.prevent(me)[0], best):
                out.append(f"headline compares prevent strengths {m.group(1)} and {m.group(2)}; the DATC's "
                           f"equations give {(f.prevent(me)[0], best)}")
        for m in re.finditer(r"\(strength (\d+) against (\d+)\)", line):
            accounted.extend([m.span(1), m.span(2)])
            a, b = int(m.group(1)), int(m.group(2))
            if r.code == ResultCode.DISLODGED and r.dislodged_by:
                want = (f.attack(r.dislodged_by)[0], f.hold(me)[0])
            elif me in f.moves:
                want = (f.attack(me)[0], f.opposition(me))
            else:
                want = (-1, -1)
            if (a, b) != want:
                out.append(f"headline says strength {a} against {b}; the DATC's equations give {want}")
            if "lost" in line[: m.start()] and not b > a:
                out.append(f"says 'lost' of {a} against {b}")
        m4 = re.match(r"^(\d+) (?:against|is more than) (\d+)(?::|,) (?:equal strengths, so it stood the other move off|"
                      r"so it stood the other moves off)|^(\d+) is more than (\d+): (?:that move|.*?) was stronger", line)
        if m4 and me in f.moves:
            groups = [g for g in m4.groups() if g is not None]
            spans = [m4.span(n) for n in range(1, 5) if m4.group(n) is not None]
            accounted.extend(spans)
            rivals = [k for k, dk in f.moves.items() if dk == f.moves[me] and k != me]
            best = max((f.prevent(k)[0] for k in rivals), default=0)
            mine = f.prevent(me)[0]
            got = (int(groups[0]), int(groups[1]))
            want = (best, mine) if " was stronger" in line else (mine, best)
            if got != want:
                out.append(f"compares prevent strengths {got}; the DATC's equations give {want}")
            line = line[m4.end():]  # the figures are accounted for
        for pattern in (r"^(\d+) is more than every strength against it \(the strongest: (\d+)\)",
                        r"^(\d+) against (\d+):", r"^(\d+) is less than (\d+)"):
            m3 = re.match(pattern, line)
            if m3 and me in f.moves:
                accounted.extend([m3.span(1), m3.span(2)])
                want = (f.attack(me)[0], f.opposition(me))
                got = (int(m3.group(1)), int(m3.group(2)))
                if got != want:
                    out.append(f"concludes {got[0]} against {got[1]}; the DATC's equations give {want}")
                more = got[0] > got[1]
                if more != (r.code == ResultCode.MOVED):
                    out.append("the comparison it concludes with does not match the result")
                if "equal strengths" in line and got[0] != got[1]:
                    out.append("calls unequal strengths equal")
        for m in re.finditer(r"(not more than|more than|less than) (\d+)(?!\))", line):
            if any(s <= m.start(2) < e for s, e in accounted):
                continue
            accounted.append(m.span(2))
            if me in f.moves:
                continue
            if int(m.group(2)) != f.hold(me)[0]:
                out.append(f"compares with {m.group(2)}, but the hold strength of {me} is {f.hold(me)[0]}")
        if "lost" in line:
            for m in re.finditer(r"lost its head-to-head battle with (.*?) coming from", line):
                subject = self._subject(line, m.start(), me)
                beaten_by = self.units_in(m.group(1))
                if subject is None or not beaten_by or not (f.h2h(subject, beaten_by[0][2])
                                                            and beaten_by[0][2] in f.moved):
                    out.append("says a unit lost a head-to-head battle it did not lose")
            if not re.search(r"lost (?:the|its) head-to-head battle", line):
                out.append("says 'lost' of something other than a head-to-head battle")
        for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", _without_rules(line)):
            if not any(s <= m.start() < e for s, e in accounted):
                out.append(f"quotes the figure {m.group(1)} in a way the checker does not recognise: {line!r}")
        return out

    # -- rules --------------------------------------------------------------------------------

    def _check_rules_known(self, text: str) -> list[str]:
        return [f"cites rule {rule}, which is not in the rules table" for rule in _cited(text)
                if rule not in RULES and not rule.startswith("Formal")]

    def _check_rules(self, r: OrderResult, text: str) -> list[str]:
        out = self._check_rules_known(text)
        me: str = r.order.province  # type: ignore[attr-defined]
        for rule in set(_cited(text)) | {r.rule}:
            if not rule or rule.startswith("Formal Diplomacy"):
                if rule and self.state.relations is None:
                    out.append(f"cites {rule} in a standard game")
                continue
            ok = self._rule_fits(rule, r, me)
            if not ok:
                out.append(f"cites rule {rule}, which does not decide this ({r.code})")
        return out

    def _rule_fits(self, rule: str, r: OrderResult, me: str) -> bool:
        f = self.facts
        o = r.order
        d = f.moves.get(me)
        rivals = [k for k, dk in f.moves.items() if d is not None and dk == d and k != me]
        attackers = [k for k, dk in f.moves.items() if dk == me]
        involved_supports = [s for s, (t, _, _) in f.supports.items() if t == me or (d is not None and t in rivals)
                             or t in attackers or (d is not None and t == d)] + ([me] if me in f.supports else [])
        if rule == "VII.1":
            return (d is not None and me in f.moved and f.opposition(me) == 0) or (d is None and not any(
                k not in f.no_path for k in attackers)) or r.code == ResultCode.CONFLICTING
        if rule == "VII.4":
            return r.outcome is Outcome.ILLEGAL
        if rule == "VIII":
            if d is not None:
                rival_best = max((f.prevent(k)[0] for k in rivals), default=0)
                return me not in f.moved and (f.attack(me)[0] == f.opposition(me)
                                              or 0 < f.prevent(me)[0] == rival_best)
            return bool(attackers) and max(f.attack(k)[0] for k in attackers) == f.hold(me)[0]
        if rule == "IX.1":
            return me in f.supports or any(s[2] == "void" for s in f.supports.values())
        if rule == "IX.2":
            strengths = [f.attack(me)[0], f.opposition(me)] if d is not None else \
                [f.hold(me)[0], *(f.attack(k)[0] for k in attackers)]
            return me in f.supports or max(strengths, default=0) >= 2 or bool(involved_supports)
        if rule == "IX.3":
            same = (d is not None and d in self.state.units and f.power(d) == f.power(me)) \
                or any(f.power(k) == f.power(me) for k in attackers) \
                or any(f.power(s) == f.power(t2) for s, (t, sd, _) in f.supports.items()
                       for t2 in [sd] if sd in self.state.units) \
                or any(sd is not None and sd in self.state.units and t in self.state.units
                       and f.power(t) == f.power(sd) for (t, sd, _) in f.supports.values())
            return same
        if rule == "IX.4":
            return any(f.power(k) == f.power(me) for k in rivals)
        if rule == "IX.5":
            return d is None and len(attackers) >= 2 and max(f.attack(k)[0] for k in attackers) > f.hold(me)[0]
        if rule == "IX.6":
            return me in f.supports and f.supports[me][1] is None or any(
                s[1] is None and s[0] in f.moves for s in f.supports.values())
        if rule == "IX.7":
            if r.dislodged and d is not None and rivals and r.dislodged_by != d:
                return True
            return any(k in self.state.units and (f.prevent(k)[0] == 0 or self.by_province[k].dislodged)
                       for k in rivals) or (d is not None and any(
                           f.h2h(k, d2) for k in f.moves for d2 in [d]))
        if rule == "X":
            cut = [s for s, (_, _, st) in f.supports.items() if st == "cut"]
            attacked_supporter = me in f.supports and any(dk == me for dk in f.moves.values())
            return bool(cut) or attacked_supporter
        if rule.startswith("XII") or rule == "DATC 4.A.2":
            by_convoy = (isinstance(o, Move) and (o.via_convoy or me in f.convoyed)) or (
                isinstance(o, SupportMove) and province_of(o.target) in f.convoyed)
            return by_convoy or (bool(f.convoys) and isinstance(o, (Convoy, Move, SupportHold, SupportMove)))
        if rule == "XIV.3":
            return d is not None and me in f.moved and (
                any(k in f.convoyed for k in (me, d)) or _ring(f, me))
        if rule.startswith(("XI", "XIII", "XIV")):
            return self.state.phase.kind != MOVEMENT or rule in ("XIV.1",)
        return rule in RULES


def _until_closing(text: str) -> str:
    """``text`` up to the parenthesis that closes the one opened before it."""
    depth = 0
    for n, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return text[:n]
            depth -= 1
    return text


def _ring(f: _Facts, start: str) -> bool:
    seen, p = set(), start
    while p in f.moves and p not in seen:
        seen.add(p)
        p = f.moves[p]
    return p == start and len(seen) >= 3


def _cited(text: str) -> list[str]:
    out = []
    for m in _RULE_REF.finditer(text):
        out.append(m.group(1) or m.group(2))
    for m in re.finditer(r"^(Formal Diplomacy: [a-z -]+) —", text, re.MULTILINE):
        out.append(m.group(1))
    return [x for x in out if x]


def _without_rules(line: str) -> str:
    """The line with rule references and their numbers blanked out (same length)."""
    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))
    line = re.sub(r"\b2023 rules\b", blank, line)  # the edition's name
    line = re.sub(r"(?:Rule|rule|DATC|rules) [\w.]+(?: \([^)]*\))?", blank, line)
    return re.sub(r"\b[IVX]+(?:\.\d+)+", blank, line)


def _order_name(r: OrderResult) -> str:
    return repr(r.order)


def check_adjudication(state: GameState, results: Iterable[OrderResult]) -> list[str]:
    return Checker(state, results).check_all()
