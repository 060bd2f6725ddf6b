"""Seal codes (issue 20, build 5): three words of what a power sealed."""

from __future__ import annotations

import hashlib

from diplomacy_desktop.table.sealcodes import WORDS, new_phase_secret, seal_code


def test_sealcodes_a_fixed_list_of_256_distinct_words() -> None:
    assert len(WORDS) == 256 and len(set(WORDS)) == 256
    assert all(w.isalpha() and w.islower() for w in WORDS)
    # the list is part of the code's formula: the same 256 words in the same order as when codes
    # were first given (a saved game's codes are recomputed with it)
    assert hashlib.sha256(" ".join(WORDS).encode()).hexdigest() == (
        "619e896af4e594a457aefb2197b7ae0f287029fb7a2d6f0d4158588c2cccbd74")


def test_sealcodes_same_orders_same_code_in_any_order() -> None:
    secret = new_phase_secret()
    a = seal_code(secret, "france", "S1901M", ["A par - bur", "F bre - mao"])
    assert a == seal_code(secret, "france", "S1901M", ["F bre - mao", "A par - bur"])
    assert len(a.split()) == 3 and all(w in WORDS for w in a.split())


def test_sealcodes_a_changed_seal_shows_a_new_code() -> None:
    secret = new_phase_secret()
    a = seal_code(secret, "france", "S1901M", ["A par - bur"])
    assert a != seal_code(secret, "france", "S1901M", ["A par - pic"])
    assert a != seal_code(secret, "germany", "S1901M", ["A par - bur"])
    assert a != seal_code(secret, "france", "F1901M", ["A par - bur"])


def test_sealcodes_need_the_phase_secret() -> None:
    # another secret gives other codes: a code says nothing without the phase's secret
    codes = {seal_code(new_phase_secret(), "france", "S1901M", ["A par - bur"]) for _ in range(8)}
    assert len(codes) > 1


def test_sealcodes_declarations_are_coded_too() -> None:
    secret = new_phase_secret()
    a = seal_code(secret, "france", "S1901M", {"germany": "war", "italy": "alliance"})
    assert a == seal_code(secret, "france", "S1901M", {"italy": "alliance", "germany": "war"})
    assert a != seal_code(secret, "france", "S1901M", {"italy": "alliance", "germany": "neutral"})
