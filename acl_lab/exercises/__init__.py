"""Checks for the chapters' exercises: a clear pass or fail, and a hint when it fails.

Each chapter has a module (``ch02.py`` ...) whose checks are registered with ``@exercise``.
Checks see the runtime only through the pyACL shape and ``acl_lab.snapshot()``, so they
work on the simulator and on real hardware alike.

    from acl_lab import exercises
    exercises.check("02.1", acl, ptr)     # -> ✅ 02.1 ... / ❌ 02.1 ... hint
"""
from __future__ import annotations

import importlib
import inspect
import numbers
import os
import sysconfig
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..i18n import _, join_sentences

_CHECKS: dict[str, tuple[str, str, Callable]] = {}
WELL_DONE = "well done."


class NotYet(Exception):
    """Raised by a check to fail with a specific hint (the message)."""


@dataclass(frozen=True)
class Result:
    exercise: str
    title: str
    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        mark = "✅" if self.passed else "❌"
        verdict = _("passed") if self.passed else _("not yet")
        return _("{mark} Exercise {exercise} ({title}) {verdict}: {message}").format(
            mark=mark, exercise=self.exercise, title=_(self.title), verdict=verdict,
            message=_(self.message))


def message_ids() -> set[str]:
    """The texts of every chapter's checks (titles, hints) and of the results, as gettext
    message ids."""
    for module in sorted(_KIT.joinpath("exercises").glob("ch*.py")):
        importlib.import_module(f"{__name__}.{module.stem}")
    return ({"passed", "not yet", WELL_DONE,
             "{mark} Exercise {exercise} ({title}) {verdict}: {message}"}
            | {text for title, hint, _fn in _CHECKS.values() for text in (title, hint)})


#: How hard an exercise is, as the chapter self-tests grade them.
LEVELS = ("easy", "medium", "hard")
_LEVELS: dict[str, str] = {}


def exercise(exercise_id: str, title: str, hint: str, level: str = "medium"):
    """Register a check. It returns a success message, or raises NotYet(hint) / fails an
    assert (then the registered ``hint`` is shown). ``level`` is one of LEVELS."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")

    def register(fn: Callable) -> Callable:
        _CHECKS[exercise_id] = (title, hint, fn)
        _LEVELS[exercise_id] = level
        return fn
    return register


#: The setting a course's image or hub sets to keep solutions (and the self-tests' answers)
#: from its learners: ACL_LAB_SOLUTIONS=off.
SOLUTIONS_SETTING = "ACL_LAB_SOLUTIONS"


def solutions_allowed() -> bool:
    """Whether solutions and self-test answers may be shown: yes, unless the course set
    ACL_LAB_SOLUTIONS to off (or 0, no, false)."""
    return os.environ.get(SOLUTIONS_SETTING, "on").strip().lower() not in (
        "off", "0", "no", "false")


def level(exercise_id: str) -> str:
    """'easy', 'medium' or 'hard': how the chapter's self-test grades the exercise."""
    _lookup(exercise_id)
    return _LEVELS[exercise_id]


def title(exercise_id: str) -> str:
    """The exercise's title in the current language."""
    return _(_lookup(exercise_id)[0])


def _lookup(exercise_id: str):
    if exercise_id not in _CHECKS:
        chapter = exercise_id.split(".")[0]
        try:
            importlib.import_module(f"{__name__}.ch{chapter}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _CHECKS:
        raise KeyError(_("no exercise {exercise}; known: {known}").format(
            exercise=repr(exercise_id), known=", ".join(sorted(_CHECKS))))
    return _CHECKS[exercise_id]


def check(exercise_id: str, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer (see ``_run``); the result
    is kept for ``last``."""
    result = _LAST[exercise_id] = _run(exercise_id, *args, **kwargs)
    if result.passed:
        importlib.import_module("acl_lab.quiz").record_exercise(exercise_id,
                                                                inspect.currentframe().f_back)
    return result


def last(exercise_id: str) -> Result | None:
    """The result of the latest check of ``exercise_id`` in this process, None before any:
    an nbgrader grade cell reads it where the solution releases what the check looked at."""
    return _LAST.get(exercise_id)


_LAST: dict[str, Result] = {}


def _run(exercise_id: str, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer. A wrong or unfinished
    answer (the placeholder ``...``, a value of the wrong type, code of the learner's that
    raises) fails with a hint; an exception inside the check itself is a bug in the kit and
    propagates, so it cannot pass for "not yet"."""
    title, hint, fn = _lookup(exercise_id)
    if any(a is Ellipsis for a in (*args, *kwargs.values())):
        return Result(exercise_id, title, False, hint)
    wrong = _wrong_arguments(fn, args, kwargs)
    if wrong:
        return Result(exercise_id, title, False, join_sentences([wrong, _(hint)]))
    try:
        message = fn(*args, **kwargs)
        return Result(exercise_id, title, True, message or WELL_DONE)
    except NotYet as e:
        return Result(exercise_id, title, False, str(e) or hint)
    except AssertionError:
        return Result(exercise_id, title, False, hint)
    except Exception as e:
        if not _raised_in_learner_code(e, fn):
            _blame_the_check(e, exercise_id)
            raise
        return Result(exercise_id, title, False,
                      _("your code raised {error}: {message}. {hint}").format(
                          error=type(e).__name__, message=e, hint=_(hint)))


#: Annotations of check functions, read as "any value of this kind" (numpy ints are ints).
_KINDS = {int: numbers.Integral, float: numbers.Real}


def _wrong_arguments(fn: Callable, args: tuple, kwargs: dict) -> str:
    """Why the arguments cannot be this check's answer (wrong count or type), or ""."""
    signature = inspect.signature(fn)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return _("pass ({parameters}) to the check.").format(
            parameters=", ".join(signature.parameters))
    hints = typing.get_type_hints(fn)
    for name, value in bound.arguments.items():
        kind = _KINDS.get(hints.get(name), hints.get(name))
        if isinstance(kind, type) and not isinstance(value, kind):
            expected = getattr(hints[name], "__name__", str(hints[name]))
            text = (_("{name} should be an {kind}, not {type} ({value}).")
                    if expected[0] in "aeiou" else
                    _("{name} should be a {kind}, not {type} ({value})."))
            return text.format(name=name, kind=expected, type=type(value).__name__,
                               value=f"{value!r:.60}")
    return ""


_KIT = Path(__file__).resolve().parents[1]
_LIBRARIES = {Path(p).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")
              if (p := sysconfig.get_paths().get(key))}


#: Code a learner types that has no file: a cell of a plain IPython shell (ipykernel gives
#: notebook cells a real path under /tmp/ipykernel_<pid>/), the interactive interpreter.
_TYPED_IN = ("<ipython-input-", "<stdin>")


def _raised_in_learner_code(error: BaseException, check_fn: Callable) -> bool:
    """Did a function of the learner's (passed to the check) raise ``error``? Frames of the
    check, the kit and installed libraries do not count, nor code without a file of its own
    (``<frozen importlib._bootstrap>``, ``<string>`` from exec or a dataclass): only a
    notebook cell or a script does."""
    own = Path(check_fn.__code__.co_filename).resolve()
    tb = error.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        path = Path(name)
        if path.is_absolute():
            learner = not any(root == path.resolve() or root in path.resolve().parents
                              for root in (_KIT, own, *_LIBRARIES))
        else:
            learner = name.startswith(_TYPED_IN)
        if learner:
            return True
        tb = tb.tb_next
    return False


def _blame_the_check(error: BaseException, exercise_id: str) -> None:
    """Say under the traceback that the check broke, not the answer (Python 3.11+ shows
    exception notes; 3.10 shows the traceback alone)."""
    add_note = getattr(error, "add_note", None)
    if add_note is not None:
        add_note(_("This error comes from the check of exercise {exercise}, not from your "
                   "answer: it is a bug in acl_lab. Please report it.").format(
                       exercise=exercise_id))


def available(chapter: str | None = None) -> list[str]:
    """Every exercise id of every chapter module present, or of one chapter ("05")."""
    from importlib import resources
    for entry in resources.files(__name__).iterdir():
        if entry.name.startswith("ch") and entry.name.endswith(".py"):
            importlib.import_module(f"{__name__}.{entry.name[:-3]}")
    return sorted(e for e in _CHECKS if chapter is None or e.split(".")[0] == chapter)


# Chapter self-tests and progress: the quiz room (acl_lab/quiz) does the work.

def questions(chapter) -> list[dict]:
    """The chapter's self-test questions as data: question, choices, answer, explanation,
    explanations (see acl_lab.quiz.questions)."""
    return importlib.import_module("acl_lab.quiz").questions(chapter)


def self_test(chapter):
    """The chapter's self-test: questions with instant feedback, then its exercises by
    level, passed or not."""
    return importlib.import_module("acl_lab.quiz").self_test(chapter)


def passed(chapter=None) -> list[str]:
    """Ids of the exercises passed and the questions answered right, in this session or an
    earlier one (stored under $ACL_LAB_HOME)."""
    return importlib.import_module("acl_lab.quiz").passed(chapter)
