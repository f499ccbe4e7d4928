"""Exercises a learner can do in any order, at any time: each starts from a state it builds
itself, fails with hints that grow more specific, and has a solution shown only when asked.

How a chapter module registers an exercise
------------------------------------------
Each chapter has a module (``ch02.py`` ...) that registers its checks with ``@exercise``::

    def _blocks(acl):                        # setup: (acl) -> the handles start() returns
        return {"malloc": acl.rt.malloc(512, ACL_MEM_MALLOC_HUGE_FIRST)[0], ...}

    @exercise("02.2", "Free with the partner",
              "nudge: what to look at and which rule; never the code",     # 1st not-yet
              level="easy",                   # easy | medium | hard (the self-tests grade by it)
              more=("more specific: the rule on the learner's objects",),  # 2nd, 3rd ...
              setup=_blocks,                  # optional; without it start() returns None
              profile="910b",                 # the fresh simulated process start() builds
              needs="device",                 # "device" | "process" | None: what must still be
                                              # open when the check runs (None: 01.3 releases all)
              solution='''\\
    acl.rt.free(blocks["malloc"])             # each allocator has one partner
    ''')
    def freed_with_partner(acl, blocks: dict):
        ...                                   # return a success text, or raise NotYet(...)

- ``setup`` runs inside ``start()`` after ``acl_lab.reset(profile)``, ``acl.init()`` and
  ``acl.rt.set_device(0)`` (``device=False``: neither). Return one handle or a tuple.
- ``solution`` is the code that replaces the cell's placeholder line (``...  # your code``,
  ``x = ...``, ``return ...``), written at column 0; the test indents it to the placeholder.
  Its ``#`` comments are gettext ids (message_ids() lists them): write them in English and
  translate them in the room's .po. One code text per solution, for both editions.
- A check raises ``NotYet(first, more_specific, ...)``: the first time the learner makes that
  mistake they see the first text, the next time the next, and so on (``NotYet(one)``: then
  ``one`` followed by each ``more``). Name the learner's variables with
  ``learner_name(obj, "default")``; read the calls made since start() with
  ``calls_since_start()`` and its handles with ``start_handles()``; say what released a
  handle with ``released_by(handle)``.
- The framework itself says "not yet" for an empty exercise (a ``...`` argument, or a
  placeholder line still in the cell and the check not passing) with ``hint`` then ``more``,
  and names the real cause first when the process or device the exercise needs is gone
  (acl.finalize(), acl.rt.reset_device(0), acl_lab.reset() since start()), or a handle
  start() gave and the learner passes to the check was released since (a freed buffer, a
  destroyed stream or model: released_by), or a pool passed to the check is closed. It does
  so only where start() and check() run in the same code (the exercise cell).
- Hints escalate per mistake (``hints.py``): the same mistake again (the same ``raise
  NotYet`` in the check, or the placeholder still there) shows its next hint, a new mistake
  its own first one; below the last, no hint is the answer in words. ``forget(id)`` starts an
  exercise over (unit tests call it, so no earlier test's start() or count leaks in).
  tests/chapters/test_exercises_anytime.py runs every chapter's solutions in a real kernel.

The notebook cell (tag ``exercise``)::

    # Exercise 02.2: release each block in `blocks` with its allocator's partner.
    blocks = exercises.start("02.2", acl)
    ...  # your code
    exercises.check("02.2", acl, blocks)

``exercises.solution("02.2")`` shows the answer (a code block in Jupyter, plain text
elsewhere), unless the course set ACL_LAB_SOLUTIONS=off. Checks see the runtime only through
the pyACL shape, ``acl_lab.snapshot()`` and the trace, so they work on hardware too.
"""
from __future__ import annotations

import importlib

from acl_lab.exercises import hints
from acl_lab.exercises.checking import (PLACEHOLDER, WELL_DONE, Result, check, last,
                                        MESSAGE_IDS)
from acl_lab.exercises.hints import _TRIES  # noqa: F401  (tests start a mistake's hints over)
from acl_lab.exercises.registry import (_CHECKS, LEVELS, NEEDS, RELEASES, NotYet, Spec,
                                        available, calls_since_start, exercise, forget_start,
                                        learner_name, level, registered_specs, released_by,
                                        start, start_handles, title)
from acl_lab.exercises.registry import spec as _spec  # noqa: F401  (tests)
from acl_lab.exercises.solutions import (PLACEHOLDER_LINE, SOLUTIONS_SETTING, Solution,
                                         solution, solutions_allowed, switch_solutions_off)
from acl_lab.exercises.solutions import comments as _comments
from acl_lab.exercises.solutions import translated as _translated  # noqa: F401

__all__ = ["LEVELS", "NEEDS", "PLACEHOLDER", "PLACEHOLDER_LINE", "RELEASES", "SOLUTIONS_SETTING",
           "WELL_DONE", "NotYet", "Result", "Solution", "Spec", "available", "calls_since_start",
           "check", "exercise", "forget", "last", "learner_name", "level", "message_ids",
           "passed", "questions", "released_by", "self_test", "solution", "solutions_allowed",
           "start", "start_handles", "switch_solutions_off", "title"]


def forget(exercise_id: str | None = None) -> None:
    """Start one exercise (or all) over: hints from the first, least specific one, and no
    start() remembered (a check then reads whatever state there is, as in unit tests)."""
    hints.forget(exercise_id)
    forget_start(exercise_id)


def message_ids() -> set[str]:
    """The texts of every chapter's checks (titles, hints, solution comments) and of the
    results, as gettext message ids."""
    ids = set(MESSAGE_IDS)
    for found in registered_specs():
        ids |= {found.title, *found.hints}
        ids |= {text for _line, _col, text in _comments(found.solution)}
    return ids


# Chapter self-tests and progress: the quiz room (acl_lab/exercises/quiz) does the work.

def questions(chapter) -> list[dict]:
    """The chapter's self-test questions as data: question, choices, answer, explanation,
    explanations (see acl_lab.exercises.quiz.questions)."""
    return importlib.import_module("acl_lab.exercises.quiz").questions(chapter)


def self_test(chapter):
    """The chapter's self-test: questions with instant feedback, then its exercises by
    level, passed or not."""
    return importlib.import_module("acl_lab.exercises.quiz").self_test(chapter)


def passed(chapter=None) -> list[str]:
    """Ids of the exercises passed and the questions answered right, in this session or an
    earlier one (stored under $ACL_LAB_HOME)."""
    return importlib.import_module("acl_lab.exercises.quiz").passed(chapter)
