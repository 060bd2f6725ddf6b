"""The lesson library: positions with their orders, a text that explains them and the expected result.

A lesson is a case of a DATC case file (see :mod:`.scenario`) with a title and a text:

* the rulebook's numbered examples (``rulebook_examples.txt``, texts in ``rulebook.toml``),
* every DATC v3.0 test case (``datc_v3_6*.txt``, texts in ``datc_v3.toml``, chapter 6 of the DATC),
* the Formal Diplomacy cases (``formal_diplomacy.txt``, seed 003: one per restriction and relation;
  a case's text is the ``#`` comment lines right above its ``CASE`` line),
* a teacher's own case files from a folder: a case's title is its name, its text the ``#``
  comment lines right above its ``CASE`` line.

Everything ships inside the package (``resources.lessons_dir()``).  A case the DATC gives in two
editions (``6.G.8`` and ``6.G.8.classic``) is two lessons, each under its own edition.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..engine.board import Board
from ..engine.rules import Edition
from ..resources import lessons_dir
from .scenario import CaseError, Scenario, read_scenarios

RULEBOOK, DATC, FORMAL, OWN = "rulebook", "datc", "formal", "own"


class LessonError(ValueError):
    """A lesson file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True, slots=True)
class Lesson:
    key: str  # "Example 4", "6.F.14", "6.G.8.classic", or a teacher's case name
    title: str
    source: str  # where it comes from, for a person: "Rules IX.5", "DATC 6.F (Convoys)", a file name
    text: str
    scenario: Scenario
    edition: Edition
    kind: str  # RULEBOOK, DATC or OWN

    @property
    def label(self) -> str:
        return f"{self.key} — {self.title}" if self.title and self.title != self.key else self.key

    def matches(self, query: str) -> bool:
        """Whether every word of ``query`` is in the lesson's number, title, source or text."""
        hay = f"{self.key} {self.title} {self.source} {self.text}".lower()
        return all(word in hay for word in query.lower().split())


def _cases(path: Path, board: Board) -> list[Scenario]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise LessonError(f"{path.name}: cannot be read ({exc})") from exc
    items = read_scenarios(text, board)
    errors = [i for i in items if isinstance(i, CaseError)]
    if errors:
        raise LessonError(f"{path.name}: case {errors[0].name!r}: {errors[0].message}")
    return [i for i in items if isinstance(i, Scenario)]


def _texts(path: Path) -> dict[str, dict[str, str]]:
    with open(path, "rb") as f:
        return tomllib.load(f)


def _datc_number(name: str) -> str:
    """``6.G.8.classic`` -> ``6.G.8``; ``6.H.1.movement`` -> ``6.H.1``."""
    return ".".join(name.split(".")[:3])


def _edition(name: str) -> Edition:
    return Edition.CLASSIC if ".classic" in name else Edition.Y2023


def builtin_lessons(board: Board, folder: Path | None = None) -> list[Lesson]:
    """The rulebook's examples, then the DATC v3.0 cases in their order, then the Formal Diplomacy cases."""
    folder = folder or lessons_dir()
    out: list[Lesson] = []
    texts = _texts(folder / "rulebook.toml")
    for sc in _cases(folder / "rulebook_examples.txt", board):
        base = " ".join(sc.name.split()[:2])  # "Example 3 with Austrian support" -> "Example 3"
        meta = texts.get(base, {})
        text = meta.get("text", "")
        if sc.name != base and sc.comments:  # a variant the example's text describes: say which
            text = "\n".join(sc.comments) + ("\n\n" + text if text else "")
        out.append(Lesson(sc.name, meta.get("title", sc.name), f"Rules {meta.get('section', '')}".strip(),
                          text, sc, Edition.CLASSIC, RULEBOOK))
    texts = _texts(folder / "datc_v3.toml")
    for path in sorted(folder.glob("datc_v3_6*.txt")):
        for sc in _cases(path, board):
            number = _datc_number(sc.name)
            meta = texts.get(number, {})
            out.append(Lesson(sc.name, meta.get("title", sc.name), f"DATC {number[:3]} ({meta.get('chapter', '')})",
                              meta.get("text", ""), sc, _edition(sc.name), DATC))
    formal = folder / "formal_diplomacy.txt"
    if formal.exists():
        for sc in _cases(formal, board):
            key, _, title = sc.name.partition(" ")
            out.append(Lesson(key, title or key, "Formal Diplomacy (seed 003)", "\n".join(sc.comments), sc,
                              Edition.CLASSIC, FORMAL))
    return out


def folder_lessons(folder: Path, board: Board) -> list[Lesson]:
    """A teacher's own lessons: every case of every ``*.txt`` file in ``folder``."""
    out: list[Lesson] = []
    for path in sorted(folder.glob("*.txt")):
        for sc in _cases(path, board):
            out.append(Lesson(sc.name, sc.name, path.name, "\n".join(sc.comments), sc, _edition(sc.name), OWN))
    return out


def search(lessons: Iterable[Lesson], query: str) -> list[Lesson]:
    """The lessons whose number, title or text has every word of ``query`` (all of them for none)."""
    return [lesson for lesson in lessons if lesson.matches(query)]


def by_key(lessons: Sequence[Lesson], key: str) -> Lesson:
    for lesson in lessons:
        if lesson.key == key:
            return lesson
    raise KeyError(key)
