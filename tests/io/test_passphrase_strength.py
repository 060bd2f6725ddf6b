"""Issue 31, finding 3: dictionary passphrases were accepted; a generated one is offered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from diplomacy_desktop.io.passphrase import (
    MIN_GUESSES,
    estimated_guesses,
    generate_passphrase,
    generated_bits,
    word_list,
)
from diplomacy_desktop.io.vault import Vault, VaultError, passphrase_problem

ROOT = Path(__file__).resolve().parents[2]
WEAK = ("password", "12345678", "diplomacy", "iloveyou", "Diplomacy1901!", "diplomacy1234", "france england",
        "qwertyuiop", "aaaabbbbcccc")


@pytest.mark.parametrize("weak", WEAK)
def test_passphrase_dictionary_ones_are_refused(weak: str) -> None:
    assert passphrase_problem(weak) is not None
    with pytest.raises(VaultError):
        Vault.create(weak, cost=(2 ** 4, 1, 1))


def test_passphrase_unrelated_words_are_accepted() -> None:
    for good in ("table night 7", "correct horse battery", "purple monkey dishwasher"):
        assert passphrase_problem(good) is None, good


def test_passphrase_generated_ones_are_four_words_or_more_from_the_shipped_list_and_hold() -> None:
    words = set(word_list())
    assert len(words) >= 1024  # at least 10 bits a word
    seen = set()
    for _ in range(40):
        phrase = generate_passphrase()
        parts = phrase.split(" ")
        assert len(parts) >= 4 and all(p in words for p in parts)
        assert passphrase_problem(phrase) is None
        assert estimated_guesses(phrase) >= MIN_GUESSES
        seen.add(phrase)
    assert len(seen) == 40  # drawn at random, never the same
    assert generated_bits() >= 40
    with pytest.raises(ValueError):
        generate_passphrase(3)


def test_passphrase_serve_refuses_a_passphrase_file_saying_diplomacy(tmp_path: Path) -> None:
    secret = tmp_path / "pass"
    secret.write_text("diplomacy\n", encoding="utf-8")
    game = tmp_path / "g.dipl"
    proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "serve", str(game), "--host", "127.0.0.1",
                           "--port", "0", "--passphrase-file", str(secret)], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "passphrase" in proc.stderr and "Traceback" not in proc.stderr
    assert not game.exists()


@pytest.mark.parametrize("weak", ["france england germany", "austria russia turkey italy", "spring 1901 diplomacy",
                                  "France-England-Germany", "diplomacy table host secret", "army fleet convoy 1901"])
def test_passphrase_made_only_of_the_games_words_is_refused(weak: str) -> None:
    """Red team (issue 31): zxcvbn counts each space as a guessed character, so three of the
    game's own words with spaces (about 22**3 guesses for whoever tries the game's words first)
    were estimated at 7.6 * 10**12 and accepted."""
    assert passphrase_problem(weak) is not None
