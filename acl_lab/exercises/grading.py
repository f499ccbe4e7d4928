"""Grading an exercise as nbgrader's locked grade cell does: the check run again, fresh.

The grade cell runs in the learner's kernel, after the learner's code, so it trusts
nothing that code can set in one line: not ``exercises.last()``, not the results table,
not the progress store (``quiz.record_exercise``), not ``exercises.check`` or a chapter's
check function (a cell can replace either). ``grade(id, acl, ...)`` loads the exercises
framework and the chapter's checks anew from the kit's files (fresh module objects; the
learner's modules are put back afterwards), runs the check on what the simulated process
and its trace hold now, with the ``acl`` the kit's session holds, and records nothing.
The grade cell loads this module anew too (``runpy.run_module``)::

    _result = runpy.run_module("acl_lab.exercises.grading")["grade"]("02.2", acl, blocks)
    assert _result, repr(_result)

What a determined learner can still do is said in docs/workshops.md.
"""
from __future__ import annotations

import contextlib
import importlib.util
import inspect
import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
PACKAGE = "acl_lab.exercises"


@contextlib.contextmanager
def _fresh_package():
    """A fresh ``acl_lab.exercises`` in sys.modules inside the block (its modules, the
    framework's and the chapters', made anew as they are imported); the learner's modules
    are back after it."""
    saved = {name: sys.modules.pop(name) for name in list(sys.modules)
             if name == PACKAGE or name.startswith(PACKAGE + ".")}
    try:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, FOLDER / "__init__.py", submodule_search_locations=[str(FOLDER)])
        package = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)
        yield package
    finally:
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        sys.modules.update(saved)


def grade(exercise_id: str, *args, **kwargs):
    """The Result of a fresh check of ``exercise_id`` on ``args`` (the check line's
    arguments; its ``acl`` is replaced by the kit's own). Truthy when it passed."""
    from acl_lab.session import SESSION

    with _fresh_package():
        registry = importlib.import_module(f"{PACKAGE}.registry")
        checking = importlib.import_module(f"{PACKAGE}.checking")
        check = registry.spec(exercise_id).check
        if args and next(iter(inspect.signature(check).parameters), "") == "acl":
            args = (SESSION.current()[1], *args[1:])
        return checking._run(exercise_id, None, *args, **kwargs)
