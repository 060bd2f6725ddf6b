"""The host's passphrase: which ones hold against an offline guess, and a generated one.

The passphrase wraps the game key (``io.vault``): whoever copies a secret game's file can try
passphrases offline, one scrypt (N = 2**17, r = 8) each — about 0.5 to 0.8 s of one core
(``bench/pin_kdf.py`` measures it).  So a passphrase found in a word list falls in minutes;
``passphrase_problem`` refuses it.

* The strength is estimated by ``zxcvbn`` (the Python port of Dropbox's estimator, maintained on
  PyPI): it knows common passwords, English words and names, keyboard walks, dates, repeats and
  l33t substitutions, and estimates how many guesses a cracker ordering its guesses well needs.
  A passphrase is refused below ``MIN_GUESSES`` (10**10): at 0.5 s a guess that is at least
  about 80 core-years on average for the weakest one accepted (docs/reference/threat-model.md).
  The game's own words (``diplomacy``, the powers, ``table``...) count as known words.
* ``generate_passphrase`` draws ``WORDS`` (five) words from the list shipped beside this module
  (``passphrase_words.txt``: about 1,250 common English nouns written for this project) with the
  operating system's random numbers (``secrets``): about 51 bits, some 2 * 10**15 guesses.
"""

from __future__ import annotations

import math
import re
import secrets
from functools import lru_cache
from pathlib import Path

#: the fewest guesses (zxcvbn's estimate) a passphrase may need
MIN_GUESSES = 10 ** 10
MIN_LENGTH = 8
#: zxcvbn looks at this many characters at most (its matching grows fast with the length; a
#: longer passphrase is no weaker for it)
_CHECKED_LENGTH = 64
#: how many words a generated passphrase has (four or more)
WORDS = 5
WORD_LIST = Path(__file__).with_name("passphrase_words.txt")
#: words about this game that a guesser tries first
GAME_WORDS = ("diplomacy", "diplomacy desktop", "table", "host", "passphrase", "password", "secret", "austria",
              "england", "france", "germany", "italy", "russia", "turkey", "spring", "autumn", "fall", "winter",
              "convoy", "support", "army", "fleet")


@lru_cache(maxsize=1)
def word_list() -> tuple[str, ...]:
    """The shipped list's words (each once, lower case)."""
    words = {w.strip().lower() for w in WORD_LIST.read_text(encoding="utf-8").split()}
    return tuple(sorted(w for w in words if w.isalpha()))


def generate_passphrase(words: int = WORDS) -> str:
    """``words`` words of the shipped list, drawn with ``secrets``, separated by spaces."""
    if words < 4:
        raise ValueError("a generated passphrase has four words or more")
    pool = word_list()
    return " ".join(secrets.choice(pool) for _ in range(words))


def generated_bits(words: int = WORDS) -> float:
    """The entropy of a generated passphrase of ``words`` words, in bits."""
    return words * math.log2(len(word_list()))


#: how many separators (space, hyphen, dot...) a guesser tries between the game's words
_SEPARATORS = 10


def game_words_guesses(passphrase: str) -> float | None:
    """The guesses of a passphrase made only of the game's words and numbers, for a guesser who
    tries those first (each word one of ``GAME_WORDS``, each number its digits, one separator
    for the phrase); None when it has any other word.  zxcvbn counts each space between words
    as a character guessed blind, so it put "france england germany" (about 10**5 such
    guesses) at 7.6 * 10**12 (red team, issue 31)."""
    tokens = re.findall(r"[^\W\d_]+|\d+", passphrase.lower())
    single = {w for w in GAME_WORDS if " " not in w}
    if not tokens or any(not t.isdigit() and t not in single for t in tokens):
        return None
    guesses = float(_SEPARATORS)
    for t in tokens:
        guesses *= 10.0 ** len(t) if t.isdigit() else len(single)
    return guesses


def estimated_guesses(passphrase: str) -> float:
    """zxcvbn's estimate of the guesses ``passphrase`` needs (the game's words known), or fewer
    when it is made only of the game's words (``game_words_guesses``)."""
    from zxcvbn import zxcvbn  # imported when a passphrase is chosen, not at start

    result = zxcvbn(passphrase[:_CHECKED_LENGTH], user_inputs=list(GAME_WORDS))
    own = game_words_guesses(passphrase)
    return float(result["guesses"]) if own is None else min(float(result["guesses"]), own)


def passphrase_problem(passphrase: str) -> str | None:
    """Why ``passphrase`` may not guard a game (a sentence), or None when it may."""
    if not isinstance(passphrase, str) or len(passphrase) < MIN_LENGTH:
        return f"a passphrase is at least {MIN_LENGTH} characters"
    if len(set(passphrase)) < 3:
        return "a passphrase of one or two characters repeated is guessed at once: choose another"
    if estimated_guesses(passphrase) < MIN_GUESSES:
        return ("that passphrase is among the first a cracker tries (a common word, password or pattern): use "
                "four or more unrelated words, or the suggested one")
    return None
