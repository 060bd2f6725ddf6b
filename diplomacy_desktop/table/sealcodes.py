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
from collections.abc import Iterable, Mapping
from typing import Any

WORDS: tuple[str, ...] = (
    "acorn", "adder", "agate", "alder", "amber", "anchor", "angel", "anvil", "apple", "apron", "arrow", "aspen",
    "atlas", "badge", "baker", "banjo", "barley", "basil", "beach", "beacon", "beaver", "berry", "birch", "bison",
    "blade", "bloom", "bonnet", "boulder", "bramble", "brass", "bread", "brick", "bridge", "brook", "bubble",
    "buckle", "bugle", "butter", "cabin", "cactus", "camel", "candle", "canoe", "canyon", "carpet", "carrot",
    "castle", "cedar", "cello", "chalk", "cherry", "chess", "cider", "cinder", "circus", "clover", "cobalt",
    "cocoa", "comet", "copper", "coral", "cotton", "cradle", "crane", "crayon", "cricket", "crown", "cymbal",
    "daisy", "delta", "denim", "desert", "diamond", "dingo", "dolphin", "donkey", "dragon", "drum", "eagle",
    "easel", "ebony", "elbow", "ember", "emerald", "falcon", "feather", "fennel", "fern", "fiddle", "fjord",
    "flannel", "flint", "forest", "fossil", "fox", "frost", "galaxy", "garden", "garlic", "gecko", "geyser",
    "ginger", "glacier", "goblet", "goose", "granite", "grape", "gravel", "hammer", "harbor", "harp", "hazel",
    "heron", "hickory", "honey", "hornet", "igloo", "indigo", "iris", "ivory", "jackal", "jasmine", "jelly",
    "jigsaw", "juniper", "kayak", "kettle", "kiwi", "koala", "ladder", "lagoon", "lantern", "larch", "lemon",
    "lentil", "lilac", "linen", "lizard", "lobster", "locket", "lotus", "magnet", "mango", "maple", "marble",
    "meadow", "melon", "mint", "mitten", "monsoon", "mosaic", "moss", "muffin", "nectar", "needle", "nutmeg",
    "oak", "oasis", "ocean", "olive", "onion", "opal", "orbit", "orchid", "otter", "owl", "paddle", "panda",
    "papaya", "parrot", "peach", "pebble", "pelican", "pepper", "piano", "pigeon", "pillow", "pine", "planet",
    "plum", "pocket", "pony", "poppy", "prism", "pumpkin", "quail", "quartz", "quill", "rabbit", "radish",
    "raven", "reef", "ribbon", "river", "robin", "rocket", "saddle", "saffron", "salmon", "sapphire", "scarf",
    "shell", "silver", "sketch", "sled", "sparrow", "spider", "spoon", "spruce", "squash", "stable", "star",
    "stone", "sugar", "summit", "swan", "tablet", "tango", "teapot", "thimble", "thistle", "thunder", "tiger",
    "timber", "tomato", "topaz", "torch", "tractor", "trumpet", "tulip", "tundra", "turtle", "umber", "valley",
    "velvet", "violin", "walnut", "walrus", "wagon", "whale", "wheat", "willow", "window", "winter", "wizard",
    "yarrow", "zebra", "zephyr", "zinc", "yogurt", "quiver", "nickel", "marsh", "lark", "hollow", "kestrel",
)


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


def phase_secret(table: dict[str, Any], phase: str) -> str:
    """This phase's secret (a new one when the phase is new)."""
    held = table.get(SECRETS_KEY)
    if not isinstance(held, dict) or held.get("phase") != phase or not isinstance(held.get("secret"), str):
        held = {"phase": phase, "secret": new_phase_secret()}
        table[SECRETS_KEY] = held
        table[CODES_KEY] = {}
    return str(held["secret"])


def record_seal(table: dict[str, Any], power: str, phase: str, items: Iterable[str] | Mapping[str, str]) -> str:
    """``power`` sealed ``items`` in ``phase``: its code, kept until the reveal."""
    code = seal_code(phase_secret(table, phase), power, phase, items)
    codes = table.get(CODES_KEY)
    if not isinstance(codes, dict):
        codes = table[CODES_KEY] = {}
    codes[power] = code
    return code


def code_of(table: Mapping[str, Any], power: str, phase: str) -> str | None:
    held = table.get(SECRETS_KEY)
    codes = table.get(CODES_KEY)
    if not isinstance(held, dict) or held.get("phase") != phase or not isinstance(codes, dict):
        return None
    code = codes.get(power)
    return str(code) if code else None


def forget_seal(table: dict[str, Any], power: str) -> None:
    """``power`` reopened its seal: its code is gone (a new seal gives a new one if it changed)."""
    codes = table.get(CODES_KEY)
    if isinstance(codes, dict):
        codes.pop(power, None)


def reveal_codes(table: dict[str, Any], phase: str) -> dict[str, str]:
    """The reveal of ``phase``: every seal's code becomes public (beside the revealed orders)."""
    held = table.get(SECRETS_KEY)
    codes = table.get(CODES_KEY)
    out = {str(p): str(c) for p, c in codes.items()} if isinstance(codes, dict) and isinstance(held, dict) \
        and held.get("phase") == phase else {}
    table[REVEALED_KEY] = {"phase": phase, "codes": out}
    table.pop(SECRETS_KEY, None)
    table.pop(CODES_KEY, None)
    return out


def revealed_codes(table: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    held = table.get(REVEALED_KEY)
    if not isinstance(held, dict) or not isinstance(held.get("codes"), dict):
        return "", {}
    return str(held.get("phase", "")), {str(p): str(c) for p, c in held["codes"].items()}
