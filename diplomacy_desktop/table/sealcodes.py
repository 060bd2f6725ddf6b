"""Seal codes: a short code of what a power sealed, shown at the seal and again at the reveal.

A seal code is three words from a fixed list of 256 (24 bits), read from an HMAC-SHA256 of the
sealed orders (or declarations), in a canonical text, under a secret made for the phase
(``new_phase_secret``, kept with the table's secrets, never shown).  The same orders give the
same code within a phase; any change gives another code (except by a 1 in 16 million chance);
nobody can compute a code without the phase's secret, so a code shown at sealing says nothing
about the orders to whoever sees it.  At the reveal every power's code is shown beside its
orders: each player checks that what was revealed is what they sealed (commit and reveal).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .parts import RevealedSealCodesPart, SealCodesPart, SealSecretPart
from .state import TableState

if TYPE_CHECKING:
    from ..engine.game import HistoryEntry
    from ..engine.orders import Order

#: the 256 words of a code, word i for the byte value i (``sealcode_words.txt``; never edited)
WORDS: tuple[str, ...] = tuple(
    line for line in Path(__file__).with_name("sealcode_words.txt").read_text(encoding="utf-8").split("\n")
    if line and not line.startswith("#"))
if len(set(WORDS)) != 256:
    raise RuntimeError("sealcode_words.txt must hold 256 different words: the package is damaged")


SECRET_BYTES = 32


def new_phase_secret() -> str:
    """A fresh secret for one phase's seal codes (hex)."""
    return secrets.token_hex(SECRET_BYTES)


def canonical(power: str, phase: str, items: Iterable[str] | Mapping[str, str]) -> bytes:
    """What is sealed, as bytes that do not depend on the order things were written in."""
    if isinstance(items, Mapping):
        body: object = sorted((str(k), str(v)) for k, v in items.items())
    else:
        body = sorted(str(x) for x in items)
    return json.dumps({"power": power, "phase": phase, "sealed": body}, separators=(",", ":"),
                      ensure_ascii=True).encode("ascii")


def seal_code(secret: str, power: str, phase: str, items: Iterable[str] | Mapping[str, str]) -> str:
    """Three words naming what ``power`` sealed in ``phase``: ``items`` are its orders as text
    (or its declarations, other power -> relation)."""
    key = bytes.fromhex(secret)
    digest = hmac.new(key, canonical(power, phase, items), hashlib.sha256).digest()
    return " ".join(WORDS[b] for b in digest[:3])


# -- in the table dict: one place for the laptop and the phones ------------------------------------

#: table keys (both in io.vault's secret part, so never written in the clear)
SECRETS_KEY = "seal_secrets"  # {"phase": "S1901M", "secret": hex}
CODES_KEY = "seal_codes"  # {power: code} of this phase's seals
#: public: the codes of the last revealed phase, {"phase": "S1901M", "codes": {power: code}}
REVEALED_KEY = "revealed_seal_codes"


def phase_secret(table: TableState, phase: str) -> str:
    """This phase's secret (a new one when the phase is new)."""
    held = table.seal_secrets
    if held is None or held.phase != phase or held.secret is None:
        held = SealSecretPart(phase=phase, secret=new_phase_secret())
        table.seal_secrets = held
        table.seal_codes = SealCodesPart()
    assert held.secret is not None
    return held.secret


def record_seal(table: TableState, power: str, phase: str, items: Iterable[str] | Mapping[str, str]) -> str:
    """``power`` sealed ``items`` in ``phase``: its code, kept until the reveal."""
    code = seal_code(phase_secret(table, phase), power, phase, items)
    table.seal_codes_part().put(power, code)
    return code


def code_of(table: TableState, power: str, phase: str) -> str | None:
    held = table.seal_secrets
    codes = table.seal_codes
    if held is None or held.phase != phase or codes is None:
        return None
    return codes.of(power) or None


def forget_seal(table: TableState, power: str) -> None:
    """``power`` reopened its seal: its code is gone (a new seal gives a new one if it changed)."""
    codes = table.seal_codes
    if codes is not None:
        codes.drop(power)


#: public: every revealed phase's secret and the codes given at sealing, oldest first, in the saved
#: game: [{"phase": "S1901M", "secret": hex, "codes": {power: code}}] (``verify-seals`` reads it)
LOG_KEY = "seal_log"
#: how many revealed phases the log keeps (a long game's file stays small: about 110 bytes each)
LOG_LIMIT = 400

#: what a power sealed, as ``seal_code`` reads it: power -> its orders as text
ItemsOf = Callable[[str], "Iterable[str] | Mapping[str, str]"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The seal codes of one revealed phase, recomputed from what was revealed.  ``codes``: the
    code of what each sealed power's revealed orders are (what is shown); ``given``: the code
    each was given at sealing; ``mismatched``: the powers whose revealed orders do not give the
    code they were given (an alarm: what was revealed is not what was sealed)."""

    phase: str
    codes: dict[str, str]
    given: dict[str, str]
    checked: bool = True

    @property
    def mismatched(self) -> list[str]:
        return [p for p, code in self.given.items() if self.codes.get(p) != code]

    def alarm(self, name: Callable[[str], str] = str) -> str:
        """One plain sentence for every screen ("" when every code matches)."""
        bad = self.mismatched
        if not bad:
            return ""
        parts = [f"{name(p)} was given \u201c{self.given[p]}\u201d at sealing, the revealed orders give "
                 f"\u201c{self.codes.get(p, '?')}\u201d" for p in bad]
        return ("SEAL CODES DO NOT MATCH in " + self.phase + ": " + "; ".join(parts) +
                ". What was revealed is not what was sealed: the game's files were changed outside the app.")


def recompute(secret: str, phase: str, given: Mapping[str, str], items_of: ItemsOf) -> dict[str, str]:
    """Every sealed power's code, recomputed from what was revealed (``items_of``)."""
    return {p: seal_code(secret, p, phase, items_of(p)) for p in given}


def orders_by_power(orders: Iterable[Order]) -> ItemsOf:
    """``items_of`` for a phase's orders (a history entry's, or the game's filed ones)."""
    from ..io.notation import format_order

    texts: dict[str, list[str]] = {}
    for o in orders:
        texts.setdefault(o.power, []).append(format_order(o))
    return lambda p: texts.get(p, [])


def reveal_codes(table: TableState, phase: str, items_of: ItemsOf) -> Verdict:
    """The reveal of ``phase``: its secret becomes public, with the codes given at sealing, and
    every code is recomputed from what is revealed (``items_of``: each power's orders now).  A
    second call for the same phase (the laptop's reveal, then the adjudication) checks again."""
    held = table.seal_secrets
    codes = table.seal_codes
    if held is not None and held.phase == phase and held.secret is not None:
        given = codes.as_given() if codes is not None else {}
        revealed = RevealedSealCodesPart(phase=phase, secret=held.secret, codes=SealCodesPart.of_entries(given))
        table.revealed_seal_codes = revealed
        _log(table, revealed)
        table.seal_secrets = None
        table.seal_codes = None
    elif revealed_codes(table)[0] != phase:  # nothing was sealed in this phase
        table.revealed_seal_codes = RevealedSealCodesPart(phase=phase, codes=SealCodesPart())
    verdict = revealed_verdict(table, phase, items_of)
    assert verdict is not None
    return verdict


def _log(table: TableState, revealed: RevealedSealCodesPart) -> None:
    log = table.seal_log_part()
    kept = [item for item, entry in zip(log.items, log.entries(), strict=True)
            if not (entry is not None and entry.phase == revealed.phase)]
    if revealed.codes:
        kept.append(revealed.to_dict())
    log.items = kept[-LOG_LIMIT:]


def revealed_verdict(table: TableState, phase: str, items_of: ItemsOf) -> Verdict | None:
    """The last revealed phase's codes recomputed from ``items_of`` (its revealed orders), or
    None when ``phase`` is not the last revealed one.  An earlier version's reveal kept no
    secret: its codes are shown as given, ``checked`` False."""
    held = table.revealed_seal_codes
    if held is None or held.phase != phase or held.codes is None:
        return None
    given = held.codes.as_given()
    secret = held.secret
    if secret is None:
        return Verdict(phase, dict(given), given, checked=False)
    try:
        codes = recompute(secret, phase, given, items_of)
    except ValueError:  # a secret that is not hex: nothing matches
        return Verdict(phase, {}, given)
    return Verdict(phase, codes, given)


def revealed_codes(table: TableState) -> tuple[str, dict[str, str]]:
    """The last revealed phase and the codes given at sealing (``revealed_verdict`` recomputes them)."""
    held = table.revealed_seal_codes
    if held is None or held.codes is None:
        return "", {}
    return held.phase or "", held.codes.as_given()


def clear_declaration_codes(table: TableState) -> None:
    """The declarations were revealed: their codes are done with (the phase's orders are sealed
    under the same secret, and only orders' codes are checked at the orders' reveal)."""
    table.seal_codes = None


class SealLogError(ValueError):
    """A saved game's seal log that is not one (``verify-seals`` says which entry)."""


def logged_verdicts(table: TableState, history: Iterable[HistoryEntry]) -> list[tuple[str, Verdict | None]]:
    """Every revealed phase of a saved game's log, its codes recomputed from the phase's orders
    in the game's history (``verify-seals``): (phase, verdict), the verdict None when the
    phase is not in the history (taken back by the host after its reveal) or its entry is
    damaged.  ValueError: the log itself is not a list of phases."""
    if LOG_KEY in table.extra:  # kept aside by TableState: not a list
        raise SealLogError(f"the table's {LOG_KEY} is not a list")
    log = table.seal_log.entries() if table.seal_log is not None else []
    entries = {h.state.phase.short: h for h in history}
    out: list[tuple[str, Verdict | None]] = []
    for i, item in enumerate(log):
        if item is None or item.codes is None or item.secret is None or item.phase is None:
            raise SealLogError(f"the table's {LOG_KEY}[{i}] is not a phase with its secret and codes")
        phase = item.phase
        entry = entries.get(phase)
        if entry is None:
            out.append((phase, None))
            continue
        given = item.codes.as_given()
        try:
            codes = recompute(item.secret, phase, given, orders_by_power(entry.orders))
        except ValueError:
            raise SealLogError(f"the table's {LOG_KEY}[{i}]: its secret is not hexadecimal") from None
        out.append((phase, Verdict(phase, codes, given)))
    return out
