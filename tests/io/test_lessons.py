"""The lesson library: every lesson reads, has its text, and adjudicates to its expected result."""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.lessons import (
    DATC,
    FORMAL,
    OWN,
    RULEBOOK,
    LessonError,
    builtin_lessons,
    by_key,
    folder_lessons,
    search,
)

BOARD = load_board()
LESSONS = builtin_lessons(BOARD)


def test_lessons_library_holds_the_rulebook_examples_and_every_datc_case() -> None:
    rulebook = [lesson for lesson in LESSONS if lesson.kind == RULEBOOK]
    datc = [lesson for lesson in LESSONS if lesson.kind == DATC]
    assert {f"Example {n}" for n in range(1, 14)} <= {lesson.key for lesson in rulebook}
    numbers = {".".join(lesson.key.split(".")[:3]) for lesson in datc}
    assert len(numbers) == 164  # 6.A.1 ... 6.J.11
    assert all(lesson.text.strip() for lesson in LESSONS), [lesson.key for lesson in LESSONS if not lesson.text]


def test_lessons_texts_are_the_documents_own() -> None:
    ex4 = by_key(LESSONS, "Example 4")
    assert ex4.title == "Beleaguered Garrison" and ex4.source == "Rules IX.5"
    assert ex4.text.startswith("Example 4. AUSTRIA: A Ser H.")
    f14 = by_key(LESSONS, "6.F.14")
    assert f14.title == "Simple Convoy Paradox"
    assert f14.source == "DATC 6.F (Convoys)"
    assert "The support of London is not cut" in f14.text or "support of London" in f14.text
    assert by_key(LESSONS, "6.G.8.classic").edition is Edition.CLASSIC
    assert by_key(LESSONS, "6.G.8").edition is Edition.Y2023


def test_lessons_formal_diplomacy_cases_are_lessons_with_their_own_text() -> None:
    formal = [lesson for lesson in LESSONS if lesson.kind == FORMAL]
    assert len(formal) >= 20 and all(lesson.source == "Formal Diplomacy (seed 003)" for lesson in formal)
    fd1 = by_key(LESSONS, "FD.1")
    assert fd1.title == "neutral: the seed's France / Germany / Belgium example"
    # the text is the comment block right above the case, not the file's header
    assert fd1.text.startswith("Seed 003, neutral powers, the example") and "Run:" not in fd1.text
    assert all(lesson.scenario.relations is not None for lesson in formal)
    assert by_key(LESSONS, "FD.2") in search(LESSONS, "neutral void")


def test_lessons_search_by_number_title_and_words() -> None:
    assert [lesson.key for lesson in search(LESSONS, "6.F.14")] == ["6.F.14"]
    assert by_key(LESSONS, "Example 4") in search(LESSONS, "beleaguered garrison")
    hits = search(LESSONS, "szykman")
    assert hits and all("szykman" in (lesson.text + lesson.title).lower() for lesson in hits)
    assert search(LESSONS, "") == LESSONS


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.key for lesson in LESSONS])
def test_lessons_each_adjudicates_to_its_expected_result(lesson) -> None:  # type: ignore[no-untyped-def]
    run = run_case(lesson.scenario, BOARD, RuleSet.for_edition(lesson.edition))
    assert run.checked and run.matched, run.mismatches


def test_lessons_from_a_teachers_folder(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("""# Two armies bounce in Burgundy:
# neither moves.
CASE Bounce in Burgundy
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  France: A par
  Germany: A mun
ORDERS
  France: A par-bur
  Germany: A mun-bur
POSTSTATE_SAME
END
""", encoding="utf-8")
    (lesson,) = folder_lessons(tmp_path, BOARD)
    assert (lesson.key, lesson.kind, lesson.source) == ("Bounce in Burgundy", OWN, "mine.txt")
    assert lesson.text == "Two armies bounce in Burgundy:\nneither moves."
    assert run_case(lesson.scenario, BOARD, RuleSet.for_edition(lesson.edition)).matched


def test_lessons_a_broken_teachers_file_names_file_and_case(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("CASE Broken\nPRESTATE\n  France: A xyz\nEND\n", encoding="utf-8")
    with pytest.raises(LessonError, match=r"bad\.txt: case 'Broken'"):
        folder_lessons(tmp_path, BOARD)


SHARED = Path(__file__).resolve().parents[3] / "shared"


@pytest.mark.skipif(not (SHARED / "reference" / "datc" / "DATC_v3_0.txt").exists(),
                    reason="the reference documents (../shared) are not beside the checkout")
def test_lessons_texts_match_the_reference_documents() -> None:
    import importlib.util

    lessons = Path(__file__).resolve().parents[2] / "lessons"
    spec = importlib.util.spec_from_file_location("build_lessons", lessons / "build" / "build_lessons.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    datc = build.datc_lessons((SHARED / "reference" / "datc" / "DATC_v3_0.txt").read_text(encoding="utf-8"))
    by_number = {lesson.key: lesson for lesson in LESSONS}
    assert len(datc) == 164
    for number, title, _chapter, text in datc:
        assert by_number[number].title == title
        assert by_number[number].text == text
