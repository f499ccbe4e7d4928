"""Checks for the chapters' exercises: a clear pass or fail, and a hint when it fails.

Each chapter has a module (``ch02.py`` ...) whose checks are registered with ``@exercise``.
Checks see the runtime only through the pyACL shape and ``acl_lab.snapshot()``, so they
work on the simulator and on real hardware alike.

    from acl_lab import exercises
    exercises.check("02.1", acl, ptr)     # -> ✅ 02.1 ... / ❌ 02.1 ... hint
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

_CHECKS: dict[str, tuple[str, str, Callable]] = {}


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
        verdict = "passed" if self.passed else "not yet"
        return f"{mark} Exercise {self.exercise} ({self.title}) {verdict}: {self.message}"


def exercise(exercise_id: str, title: str, hint: str):
    """Register a check. It returns a success message, or raises NotYet(hint) / fails an
    assert (then the registered ``hint`` is shown)."""
    def register(fn: Callable) -> Callable:
        _CHECKS[exercise_id] = (title, hint, fn)
        return fn
    return register


def _lookup(exercise_id: str):
    if exercise_id not in _CHECKS:
        chapter = exercise_id.split(".")[0]
        try:
            importlib.import_module(f"{__name__}.ch{chapter}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _CHECKS:
        raise KeyError(f"no exercise {exercise_id!r}; known: {', '.join(sorted(_CHECKS))}")
    return _CHECKS[exercise_id]


def check(exercise_id: str, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer; never raises for a wrong
    answer (an unfinished answer such as ``...`` simply fails with the hint)."""
    title, hint, fn = _lookup(exercise_id)
    try:
        message = fn(*args, **kwargs)
        return Result(exercise_id, title, True, message or "well done.")
    except NotYet as e:
        return Result(exercise_id, title, False, str(e) or hint)
    except (AssertionError, TypeError, ValueError, KeyError, IndexError, AttributeError):
        return Result(exercise_id, title, False, hint)


def available() -> list[str]:
    """Every exercise id of every chapter module present."""
    from importlib import resources
    for entry in resources.files(__name__).iterdir():
        if entry.name.startswith("ch") and entry.name.endswith(".py"):
            importlib.import_module(f"{__name__}.{entry.name[:-3]}")
    return sorted(_CHECKS)
