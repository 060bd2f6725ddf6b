"""Order notation: read what players write, write what the rulebook prints.

Reading is lenient (rules VII.4): full names, ids, the usual abbreviations, any case,
``-``/``->``/``to``, ``S``/``supports``, ``C``/``convoys``, ``H``/``holds``, coasts written
``spa/nc``, ``Spa(nc)`` or ``Spain north coast``.  Where a word could name several spaces
(``Nor``) the parser narrows the candidates by asking the engine which readings are legal;
two legal readings are refused as ambiguous, one reading is accepted however badly written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache

from ..engine.board import ARMY, FLEET, Board
from ..engine.errors import AmbiguousOrderError, IllegalOrderError, OrderError, UnreadableOrderError
from ..engine.orders import (RULEBOOK_WORDS, Build, Convoy, Disband, Hold, Move, Order, OrderStyle, Remove,
                             Retreat, SupportHold, SupportMove, UnitOrder, Waive)
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState
from ..engine.validation import check_order

COAST_WORDS = {
    "nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc",
    "north": "nc", "south": "sc", "east": "ec", "west": "wc",
    "northern": "nc", "southern": "sc", "eastern": "ec", "western": "wc",
}
KIND_WORDS = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
HOLD_WORDS = {"h", "hold", "holds", "stand", "stands"}
SUPPORT_WORDS = {"s", "support", "supports", "sup"}
CONVOY_WORDS = {"c", "convoy", "convoys", "con."}
MOVE_WORDS = {"-", "to", "m", "move", "moves", "->", "=>", "attacks"}
RETREAT_WORDS = {"r", "retreat", "retreats"}
DISBAND_WORDS = {"d", "disband", "disbands", "destroy"}
BUILD_WORDS = {"build", "builds", "b"}
REMOVE_WORDS = {"remove", "removes"}
WAIVE_WORDS = {"waive", "waives", "waived", "pass"}
VIA_WORDS = {"via", "by"}


def _norm_name(text: str) -> str:
    return " ".join(re.sub(r"[.'’]", "", text.lower()).replace("-", " ").split())


@dataclass(frozen=True, slots=True)
class _Place:
    candidates: tuple[str, ...]  # province ids
    coast: str | None
    text: str


class PlaceNames:
    """Every way of writing a space on one board (in DATC case files, with ``case_file``)."""

    def __init__(self, board: Board, case_file: bool = False) -> None:
        self.board = board
        exact: dict[str, set[str]] = {}
        for sid, space in board.spaces.items():
            for name in (sid, space.name, *space.aliases):
                exact.setdefault(_norm_name(name), set()).add(sid)
        if case_file:
            for word, sid in board.case_file_names.items():
                exact[_norm_name(word)] = {sid}
        self.exact = {k: tuple(sorted(v)) for k, v in exact.items()}
        self.max_words = max(len(k.split()) for k in self.exact)
        self.coast_locations = frozenset(loc for space in board.spaces.values() for loc in space.coast_locations)
        #: the words that begin a name of several words ("north" of "north sea")
        self.multi_first = frozenset(k.split()[0] for k in self.exact if " " in k)
        adjectives = {}
        for p in board.powers:
            for w in (p.id, p.name, p.adjective):
                adjectives[_norm_name(w)] = p.id
        self.powers = adjectives
        #: (text, power, phase kind) -> the orders the text could mean, and (text, phase kind)
        #: -> how it reads (see ``_readings``)
        self.readings: dict[tuple[str, str, str | None], tuple[Order, ...]] = {}
        self.shapes: dict[tuple[str, str | None], _Shape] = {}

    def lookup(self, words: Sequence[str]) -> tuple[str, ...]:
        """Province ids a sequence of words names exactly (aliases included)."""
        return self.exact.get(" ".join(words), ())

    def prefix(self, word: str) -> tuple[str, ...]:
        if len(word) < 3:
            return ()
        hits = {sid for name, sids in self.exact.items() if name.replace(" ", "").startswith(word)
                for sid in sids}
        return tuple(sorted(hits))

    def misspelt(self, word: str) -> tuple[str, ...]:
        """The one space a misspelt name of five letters or more is close to (``galacia``), if any."""
        if len(word) < 5:
            return ()
        import difflib  # (only a misspelt name needs it)

        close = difflib.get_close_matches(word, [n for n in self.exact if len(n) >= 5], n=4, cutoff=0.8)
        hits = {sid for name in close for sid in self.exact[name]}
        return tuple(hits) if len(hits) == 1 else ()


_names_cache: dict[tuple[int, bool], PlaceNames] = {}


def place_names(board: Board, case_file: bool = False) -> PlaceNames:
    """The names of ``board``'s spaces as players write them, or as DATC case files do."""
    key = (id(board), case_file)
    pn = _names_cache.get(key)
    if pn is None or pn.board is not board:
        pn = _names_cache[key] = PlaceNames(board, case_file)
    return pn


_NOT_NAMES = frozenset({"-", "(", ")", "->", "=>"})
_OPEN = frozenset({"("})
_TOKEN = re.compile(r"->|=>|[A-Za-z][A-Za-z.'’]*(?:/[A-Za-z.]+)?|-|\(|\)|:|,|\S")


def _tokens(text: str) -> list[str]:
    text = text.replace("—", "-").replace("–", "-")
    return [t.lower().rstrip(".").replace("’", "'") if t not in ("->", "=>") else t for t in _TOKEN.findall(text)]


class _Reader:
    def __init__(self, names: PlaceNames, text: str) -> None:
        self.names = names
        self.text = text
        self.toks = [t for t in _tokens(text) if t not in (",", ":")]
        self.pos = 0

    def peek(self, k: int = 0) -> str | None:
        i = self.pos + k
        return self.toks[i] if i < len(self.toks) else None

    def take(self, words: AbstractSet[str]) -> str | None:
        t = self.peek()
        if t is not None and t in words:
            self.pos += 1
            return t
        return None

    def done(self) -> bool:
        return self.pos >= len(self.toks)

    def fail(self, what: str) -> UnreadableOrderError:
        got = self.peek()
        where = f"at {got!r}" if got is not None else "at the end"
        return UnreadableOrderError(f"cannot read {self.text.strip()!r}: expected {what} {where}")

    def kind(self) -> str | None:
        t = self.peek()
        if t in KIND_WORDS:
            # 'a' followed by nothing placeable is still a unit letter
            self.pos += 1
            return KIND_WORDS[t]
        return None

    def nationality(self) -> None:
        t = self.peek()
        if t is not None and _norm_name(t) in self.names.powers and self.peek(1) is not None:
            # only skip when a place follows (a power name is never a space name)
            self.pos += 1

    def place(self, what: str = "a space") -> _Place:
        start = self.pos
        best, best_len = self._named_place(start)
        if not best:
            best, best_len = self._guessed_place(start, what)
        last = self.toks[start + best_len - 1]
        coast = _coast(last.split("/", 1)[1]) if "/" in last else None
        self.pos = start + best_len
        if coast is None:
            coast = self._trailing_coast()
        return _Place(best, coast, " ".join(self.toks[start:self.pos]))

    def _named_place(self, start: int) -> tuple[tuple[str, ...], int]:
        """The provinces the words from ``start`` name, and how many words name them (the
        longest name wins); nothing found: ``((), 0)``."""
        toks = self.toks
        # a window may hold hyphens inside a name ("Mid-Atlantic Ocean" reads as three words
        # and two hyphens); a hyphen at either end of the window is the move sign.  Windows of
        # several words are tried only after a word that begins a name of several words.
        widest = min(2 * self.names.max_words - 1, len(toks) - start)
        if start < len(toks) and toks[start].split("/")[0] not in self.names.multi_first:
            if toks[start] not in _NOT_NAMES:  # one word: the usual case, looked up directly
                return self.names.exact.get(toks[start].split("/")[0], ()), 1
            widest = min(widest, 1)
        for n in range(widest, 0, -1):
            words = toks[start:start + n]
            if any(w in ("(", ")", "->", "=>") for w in words):
                continue
            if "-" in words:
                if words[0] == "-" or words[-1] == "-":
                    continue
                words = [w for w in words if w != "-"]
            if len(words) > self.names.max_words:
                continue
            hit = self.names.lookup([w.split("/")[0] for w in words])
            if hit:
                return hit, n
        return (), 0

    def _guessed_place(self, start: int, what: str) -> tuple[tuple[str, ...], int]:
        """One word read as the start of a name or a misspelling of one."""
        word = self.toks[start] if start < len(self.toks) else None
        if word is None or word in ("-", "(", ")", "->", "=>"):
            raise self.fail(what)
        name = word.split("/")[0].replace("'", "")
        hit = self.names.prefix(name) or self.names.misspelt(name)
        if not hit:
            raise UnreadableOrderError(f"{word!r} is not a space on this board")
        return hit, 1

    def _trailing_coast(self) -> str | None:
        """A coast written after the place: (nc) / nc / north coast / (north coast)."""
        save = self.pos
        paren = self.take(_OPEN) is not None
        t = self.peek()
        if t is None or t not in COAST_WORDS:
            self.pos = save
            return None
        coast: str | None = COAST_WORDS[t]
        self.pos += 1
        if self.peek() == "coast":
            self.pos += 1
        elif t in ("north", "south", "east", "west", "northern", "southern", "eastern", "western"):
            self.pos = save
            return None
        if paren and self.take({")"}) is None:
            self.pos = save
            return None
        return coast

    def end(self, what: str = "nothing more") -> None:
        """The text must end here."""
        if not self.done():
            raise self.fail(what)


def _coast(text: str) -> str | None:
    t = text.replace(".", "").lower()
    if t in COAST_WORDS:
        return COAST_WORDS[t]
    if len(t) == 1 and t + "c" in COAST_WORDS:
        return t + "c"
    return None


def _loc(names: PlaceNames, prov: str, coast: str | None) -> str:
    if coast:
        loc = f"{prov}/{coast}"
        if loc in names.coast_locations:
            return loc
    return prov  # unknown or irrelevant coasts are ignored (DATC 4.B.6)


@dataclass(frozen=True, slots=True)
class _Shape:
    """An order with places still to be chosen among candidates."""

    kind: str
    unit_kind: str | None
    places: tuple[_Place, ...]
    target_kind: str | None = None
    via: bool = False


_ORDER_WORDS = (HOLD_WORDS | SUPPORT_WORDS | CONVOY_WORDS | RETREAT_WORDS | DISBAND_WORDS | VIA_WORDS
                | {"(", ")"})


def _take_move_word(r: _Reader) -> bool:
    """A move sign or word, and a "to" after a word ("moves to"); or none at all when a place
    follows the unit straight away (``a con bul``: two places side by side are a move)."""
    word = r.take(MOVE_WORDS)
    if word is None:
        nxt = r.peek()
        return nxt is not None and nxt not in _ORDER_WORDS and nxt not in KIND_WORDS
    if word not in ("-", "->", "=>", "to") and r.peek() == "to" and r.peek(1) is not None:
        r.take({"to"})
    return True


_PLAIN_TEXT = re.compile(r"\s*(?:[A-Za-z]+(?:/[A-Za-z]+)?|-)(?:\s+(?:[A-Za-z]+(?:/[A-Za-z]+)?|-))*\s*")


def _plain_place(names: PlaceNames, word: str) -> _Place | None:
    """A place written as one word that names exactly one space (``ven``, ``stp/nc``)."""
    base, slash, coast_text = word.partition("/")
    if base in names.multi_first:
        return None
    hit = names.exact.get(base)
    if hit is None:
        return None
    coast = _coast(coast_text) if slash else None
    if slash and coast is None:
        return None
    return _Place(hit, coast, word)


def _plain_move(names: PlaceNames, toks: list[str], k: str | None, src: _Place,
                phase_kind: str | None) -> _Shape | None:
    """``A Ven - Tus`` or ``A Lon - Bel via convoy``, read plainly (``toks[2]`` is the ``-``)."""
    dst = _plain_place(names, toks[3])
    if dst is None:
        return None
    kind = "retreat" if phase_kind == RETREAT else "move"
    if len(toks) == 4:
        return _Shape(kind, k, (src, dst))
    if len(toks) == 6 and toks[4] in VIA_WORDS and toks[5] in CONVOY_WORDS:
        return _Shape(kind, k, (src, dst), None, True)
    return None


def _plain_shape(names: PlaceNames, text: str, phase_kind: str | None) -> _Shape | None:
    """How ``text`` reads when it is written the plain way, as orders are printed: words
    separated by spaces, the unit's kind first, each place one word, ``-`` for a move
    (``F Adr C A Ven - Alb``, ``A Bur S A Tyr - Mun``, ``F Mao - Spa/nc``, ``A Ser H``).

    None for anything else; :func:`_read_shape` then reads the text word by word.  Where
    this gives a shape it is the one the word-by-word reading gives.
    """
    if _PLAIN_TEXT.fullmatch(text) is None:
        return None
    toks = text.lower().split()
    n = len(toks)
    if not 2 <= n <= 7 or toks[0] not in KIND_WORDS:
        return None
    k = KIND_WORDS[toks[0]]
    src = _plain_place(names, toks[1])
    if src is None:
        return None
    if n == 2:
        return _Shape("hold", k, (src,))
    word = toks[2]
    if n == 3:
        return _Shape("hold", k, (src,)) if word in HOLD_WORDS else None
    if word == "-":
        return _plain_move(names, toks, k, src, phase_kind)
    if (word not in SUPPORT_WORDS and word not in CONVOY_WORDS) or toks[3] not in KIND_WORDS:
        return None
    tk = KIND_WORDS[toks[3]]
    tgt = _plain_place(names, toks[4]) if n >= 5 else None
    if tgt is None:
        return None
    if word in SUPPORT_WORDS and n == 5:
        return _Shape("support_hold", k, (src, tgt), tk)
    if n == 6 and word in SUPPORT_WORDS and toks[5] in HOLD_WORDS:
        return _Shape("support_hold", k, (src, tgt), tk)
    if n != 7 or toks[5] != "-":
        return None
    dst = _plain_place(names, toks[6])
    if dst is None:
        return None
    return _Shape("support_move" if word in SUPPORT_WORDS else "convoy", k, (src, tgt, dst), tk)


def _read_shape(names: PlaceNames, text: str, phase_kind: str | None) -> _Shape:
    r = _Reader(names, text)
    if r.done():
        raise UnreadableOrderError("empty order")
    shape = _read_unit_free(r, phase_kind)
    if shape is not None:
        return shape
    k = r.kind()
    src = r.place("a unit's space")
    if r.done():
        return _Shape("hold", k, (src,))
    if r.take(HOLD_WORDS):
        r.end("nothing after hold")
        return _Shape("hold", k, (src,))
    if r.take(DISBAND_WORDS):
        return _Shape("disband" if phase_kind != ADJUSTMENT else "remove", k, (src,))
    if r.take(SUPPORT_WORDS):
        return _read_support(r, k, src)
    if r.take(CONVOY_WORDS):
        r.nationality()
        tk = r.kind()
        tgt = r.place("the convoyed army")
        if not _take_move_word(r):
            raise r.fail("'-' and a destination")
        dst = r.place("the destination of the convoy")
        r.end()
        return _Shape("convoy", k, (src, tgt, dst), tk)
    return _read_move(r, k, src, phase_kind)


def _read_unit_free(r: _Reader, phase_kind: str | None) -> _Shape | None:
    """An order that begins with its order word: waive, build, remove or disband; None for any other."""
    if r.take(WAIVE_WORDS):
        return _Shape("waive", None, ())
    if r.take(BUILD_WORDS):
        k = r.kind()
        p = r.place("where to build")
        r.end()
        return _Shape("build", k, (p,))
    if r.take(REMOVE_WORDS) or (phase_kind == ADJUSTMENT and r.take(DISBAND_WORDS)):
        k = r.kind()
        p = r.place("the unit to remove")
        r.end()
        return _Shape("remove", k, (p,))
    if r.take(DISBAND_WORDS):
        k = r.kind()
        p = r.place("the unit to disband")
        return _Shape("disband", k, (p,))
    return None


def _read_support(r: _Reader, k: str | None, src: _Place) -> _Shape:
    """What follows a support word: the supported unit, and its destination unless it holds."""
    r.nationality()
    tk = r.kind()
    tgt = r.place("the supported unit")
    if r.done() or r.take(HOLD_WORDS):
        r.end("nothing after hold")
        return _Shape("support_hold", k, (src, tgt), tk)
    if not _take_move_word(r):
        raise r.fail("'-' and a destination")
    dst = r.place("the destination of the supported move")
    r.end()
    return _Shape("support_move", k, (src, tgt, dst), tk)


def _read_move(r: _Reader, k: str | None, src: _Place, phase_kind: str | None) -> _Shape:
    """A move or retreat: its destination, and "via convoy" if written."""
    retreat = r.take(RETREAT_WORDS) is not None
    if retreat:
        r.take({"to"})  # "retreats to"
    elif not _take_move_word(r):
        raise r.fail("an order word (H, -, S, C) or a destination")
    dst = r.place("a destination")
    via = False
    if r.take(VIA_WORDS):
        if r.take(CONVOY_WORDS) is None:
            raise r.fail("'convoy'")
        via = True
    r.end()
    kind = "retreat" if retreat or phase_kind == RETREAT else "move"
    return _Shape(kind, k, (src, dst), None, via)


def _orders_for(names: PlaceNames, power: str, shape: _Shape) -> list[Order]:
    out: list[Order] = []
    places = shape.places
    single = [p.candidates[0] for p in places if len(p.candidates) == 1]
    if len(single) == len(places):
        choices: Iterable[Sequence[str]] = (single,)
    else:
        choices = itertools.product(*[p.candidates for p in places])
    for provs in choices:
        locs = [_loc(names, prov, place.coast) for prov, place in zip(provs, places, strict=True)]
        k, tk = shape.unit_kind, shape.target_kind
        match shape.kind:
            case "waive":
                out.append(Waive(power))
            case "build":
                out.append(Build(power, k, locs[0]))
            case "remove":
                out.append(Remove(power, k, locs[0]))
            case "disband":
                out.append(Disband(power, k, locs[0]))
            case "hold":
                out.append(Hold(power, k, locs[0]))
            case "move":
                out.append(Move(power, k, locs[0], locs[1], shape.via))
            case "retreat":
                out.append(Retreat(power, k, locs[0], locs[1]))
            case "support_hold":
                out.append(SupportHold(power, k, locs[0], tk, locs[1]))
            case "support_move":
                out.append(SupportMove(power, k, locs[0], tk, locs[1], locs[2]))
            case "convoy":
                out.append(Convoy(power, k, locs[0], tk or ARMY, locs[1], locs[2]))
    if not out:
        out.append(Waive(power))
    return out


def parse_order(text: str, power: str, state: GameState | None = None, board: Board | None = None,
                *, strict: bool = False, case_file: bool = False) -> Order:
    """Read one order for ``power``.

    With a ``state`` the reading is narrowed to what is legal there.  ``strict`` (what the
    order box uses) also refuses orders that are readable but illegal or ambiguous on the
    board; otherwise an illegal order is returned as written, to be adjudicated as illegal.
    ``case_file``: the order comes from a DATC case file, whose names for spaces are jDip's.
    """
    brd = state.board if state is not None else board
    if brd is None:
        raise ValueError("parse_order needs a state or a board")
    phase_kind = state.phase.kind if state is not None else None
    candidates = _readings(place_names(brd, case_file), text, power, phase_kind)
    if len(candidates) == 1 and not strict:
        return candidates[0]  # one reading: accepted as written, legal or not (rules VII.4)
    if state is None:
        if len(candidates) > 1:
            raise AmbiguousOrderError(
                f"{text.strip()!r} could mean: " + "; ".join(format_order(o, brd) for o in candidates),
                tuple(format_order(o, brd) for o in candidates))
        return candidates[0]
    legal: list[Order] = []
    errors: list[OrderError] = []
    for o in candidates:
        try:
            check_order(state, o)
            legal.append(o)
        except OrderError as exc:
            errors.append(exc)
    if len(legal) == 1:
        return legal[0]
    if len(legal) > 1:
        raise AmbiguousOrderError(
            f"{text.strip()!r} has more than one meaning: " + "; ".join(format_order(o, brd) for o in legal),
            tuple(format_order(o, brd) for o in legal))
    if len(candidates) > 1:
        # No reading is legal for this power.  Narrow as a move generator would: the readings
        # legal for the unit's owner (another power's unit), else those whose unit exists;
        # a space the unit cannot reach is never offered as a meaning.
        by_owner = [o for o in candidates if _legal_for_owner(state, o)]
        if len(by_owner) > 1:
            raise AmbiguousOrderError(
                f"{text.strip()!r} has more than one meaning: " + "; ".join(format_order(o, brd) for o in by_owner),
                tuple(format_order(o, brd) for o in by_owner))
        if not by_owner:
            # why each reading fails for the unit's owner (not merely "not your unit")
            owners_errors = [_owner_error(state, o) or e for o, e in zip(candidates, errors, strict=True)]
            reasons = list(dict.fromkeys(str(e) for e in owners_errors))
            if len(reasons) == 1:  # the same whatever the text means ("there is no unit in Skagerrak")
                raise owners_errors[0]
            units = {o.unit_text for o in candidates if isinstance(o, UnitOrder)}
            whose = f" for {next(iter(units))}" if len(units) == 1 else ""
            raise IllegalOrderError(f"{text.strip()!r} is illegal here whichever space is meant: "
                                    f"none of its readings is a legal order{whose}")
        errors = [errors[candidates.index(by_owner[0])]]
        candidates = (by_owner[0],)
    if strict:
        err = errors[-1] if errors else IllegalOrderError("illegal order")
        raise err
    return candidates[0]


def order_owner(state: GameState, order: Order) -> str | None:
    """The power whose unit ``order`` is for (a build: the home power of its centre); ``None``
    when there is no such unit, and for a waive."""
    if isinstance(order, Build):
        space = state.board.spaces.get(order.province)
        return space.home if space is not None else None
    if not isinstance(order, UnitOrder):
        return None
    if state.phase.kind == RETREAT:
        dislodged = state.dislodged_in(order.province)
        return dislodged.unit.power if dislodged is not None else None
    unit = state.units.get(order.province)
    return unit.power if unit is not None else None


def _owner_error(state: GameState, order: Order) -> OrderError | None:
    """Why ``order`` would be illegal if the unit's owner gave it (``None``: it would be legal,
    or there is no such unit to ask about)."""
    owner = order_owner(state, order)
    if owner is None:
        return None
    try:
        check_order(state, replace(order, power=owner))
    except OrderError as exc:
        return exc
    return None


def _legal_for_owner(state: GameState, order: Order) -> bool:
    """Would ``order`` be legal if the unit's owner gave it?"""
    return order_owner(state, order) is not None and _owner_error(state, order) is None


def _readings(names: PlaceNames, text: str, power: str, phase_kind: str | None) -> tuple[Order, ...]:
    """The orders ``text`` could mean for ``power`` (before asking which are legal).

    Reading depends only on the words, so each text is read once per board and remembered
    (files of many positions repeat the same orders); unreadable text is not remembered.
    """
    key = (text, power, phase_kind)
    found = names.readings.get(key)
    if found is None:
        shape = names.shapes.get((text, phase_kind))
        if shape is None:
            shape = _plain_shape(names, text, phase_kind) or _read_shape(names, text, phase_kind)
            if phase_kind == MOVEMENT and shape.kind == "retreat":
                shape = _Shape("move", shape.unit_kind, shape.places, shape.target_kind, shape.via)
            names.shapes[text, phase_kind] = shape
        found = tuple(_orders_for(names, power, shape))
        if len(names.readings) >= _MAX_READINGS:
            names.readings.clear()
            names.shapes.clear()
        names.readings[key] = found
    return found


_MAX_READINGS = 100_000


def parse_orders(lines: Iterable[str], power: str, state: GameState) -> list[Order]:
    return [parse_order(line, power, state) for line in lines if line.strip()]


# -- writing ---------------------------------------------------------------------------------

_SPECIAL_LABELS = {"stp": "StP"}


@lru_cache(maxsize=1024)
def location_label(loc: str) -> str:
    prov, _, coast = loc.partition("/")
    label = _SPECIAL_LABELS.get(prov, prov.capitalize())
    return f"{label}/{coast}" if coast else label


#: rulebook notation with the spaces' labels (``A Bur S A Tyr - Mun``, ``F Mao - Spa/nc``); a
#: retreat is written as a move (``A Mun - Boh``), as the rulebook's examples write it
LABELS = OrderStyle({**RULEBOOK_WORDS, "retreat": "{unit} - {dest}"}, place=location_label)


def format_order(order: Order, board: Board | None = None, *, power_prefix: bool = False) -> str:
    """Rulebook notation: ``A Bur S A Tyr - Mun``, ``F Mao - Spa/nc``, ``Build F StP/nc``."""
    text = order.write(LABELS)
    if power_prefix and board is not None and order.power in board.power_ids:
        return f"{board.power(order.power).name}: {text}"
    return text
