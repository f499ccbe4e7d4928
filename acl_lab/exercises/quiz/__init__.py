"""Chapter self-tests and the learner's progress, kept across sessions.

    from acl_lab import exercises
    exercises.questions("05")   # the chapter's questions as data, in the current language
    exercises.self_test("05")   # the questions to click, then the exercises easy → hard
    exercises.passed()          # ids passed so far: exercises ("05.1") and questions ("05.q2")
    acl_lab.progress()          # per chapter: what is passed, of how many

Questions live in ``bank.py``, the store of passes in ``store.py`` (a JSON file under
``$ACL_LAB_HOME``), the views in ``self_test_view.py`` and ``progress_view.py`` (ipywidgets is
imported only by the self-test).

A graded course that switches solutions off (ACL_LAB_SOLUTIONS=off, see
``exercises.solutions_allowed``) switches the self-test's answers off with them. What stays
fair: a learner still learns at once whether a pick is right. A right pick shows its
explanation (it gives away nothing the learner has not found); a wrong pick says only "not
right, try again" (a wrong choice's explanation often names the right one); and
``questions()`` returns no answer index and no explanations.
"""
from __future__ import annotations

from acl_lab.i18n import _
from acl_lab.exercises.quiz.bank import BANK, Question
from acl_lab.exercises.quiz.store import current_store
from acl_lab.exercises.registry import LEVELS, available, level, title
from acl_lab.exercises.solutions import solutions_allowed

CHAPTERS = tuple(f"{n:02d}" for n in range(11))    # the chapters progress() lists


def chapter_id(chapter) -> str:
    """'5', 5 or '05' -> '05'."""
    return f"{int(chapter):02d}"


def bank(chapter) -> list[Question]:
    """The chapter's questions (none for a chapter without a self-test)."""
    return BANK.get(chapter_id(chapter), [])


def answers_allowed() -> bool:
    return solutions_allowed()


def questions(chapter) -> list[dict]:
    """The chapter's questions as data in the current language: question, choices, answer
    (index), explanation (why the answer is right) and explanations (one per choice). With
    solutions switched off, answer and the explanations are None."""
    shown = answers_allowed()
    return [{"id": q.id,
             "question": _(q.text),
             "choices": [_(c) for c in q.choices],
             "answer": q.answer if shown else None,
             "explanation": _(q.explanations[q.answer]) if shown else None,
             "explanations": [_(e) if shown else None for e in q.explanations]}
            for q in bank(chapter)]


def judge(question: Question, choice: int) -> tuple[bool, str | None]:
    """Whether ``choice`` is right, and its explanation, or None where a course without
    solutions keeps it back (see the module docstring). A right answer is recorded."""
    right = choice == question.answer
    if right:
        current_store().record("questions", question.id)
    if right or answers_allowed():
        return right, _(question.explanations[choice])
    return right, None


def record_exercise(exercise_id: str) -> None:
    """Remember a passed exercise (``exercises.check`` calls it). No solution runs unasked,
    so a pass is the learner's own."""
    current_store().record("exercises", exercise_id)


def passed(chapter=None) -> list[str]:
    """Ids passed here or in an earlier session, of every chapter or of one: exercises
    ("05.1") and questions answered right ("05.q2")."""
    s = current_store()
    ids = s.passed("exercises") | s.passed("questions")
    if chapter is not None:
        ids = {i for i in ids if i.split(".")[0] == chapter_id(chapter)}
    return sorted(ids)


def exercise_rows(chapter) -> list[tuple[str, list[tuple[str, str, bool]]]]:
    """The chapter's exercises as (level, [(id, title, passed)]), easy first; levels
    without exercises left out."""
    chapter = chapter_id(chapter)
    done = set(passed(chapter))
    ids = available(chapter)
    return [(lv, [(i, title(i), i in done) for i in ids if level(i) == lv])
            for lv in LEVELS if any(level(i) == lv for i in ids)]


def self_test(chapter):
    """The chapter's self-test: its questions with instant feedback, then its exercises by
    level (easy, medium, hard), passed or not. The view gets the data and a judge; it knows
    nothing of exercises."""
    from acl_lab.widgets.self_test import SelfTest
    chapter = chapter_id(chapter)
    questions_ = bank(chapter)
    right = {q.id for q in questions_} & set(passed(chapter))
    return SelfTest(chapter, questions_, right, rows=lambda: exercise_rows(chapter),
                    judge=judge)


def progress():
    """What the learner has passed, per chapter 00–09, as of now (a picture and a text)."""
    from acl_lab.widgets.progress import ChapterProgress, Progress
    done = set(passed())
    rows = []
    for chapter in CHAPTERS:
        ids = tuple(available(chapter))
        asked = bank(chapter)
        rows.append(ChapterProgress(chapter, ids, tuple(i for i in ids if i in done),
                                    len(asked), tuple(q.id for q in asked if q.id in done)))
    return Progress(rows)
