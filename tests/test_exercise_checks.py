"""exercises.check: a wrong answer fails with a hint, a bug in a check does not hide behind
"not yet"."""
import importlib
import inspect
import sys

import numpy as np
import pytest

from acl_lab import exercises
from acl_lab.exercises import _CHECKS, NotYet, exercise


@pytest.fixture
def registered():
    """Register throw-away checks under ids no chapter uses; remove them afterwards."""
    ids = []

    def register(exercise_id, fn, hint="the hint"):
        exercise(exercise_id, "a test check", hint)(fn)
        ids.append(exercise_id)

    yield register
    for i in ids:
        del _CHECKS[i]


def test_a_check_that_breaks_raises_instead_of_saying_not_yet(registered):
    def broken_key(answer: int):
        return {}["missing"]

    def broken_type(answer: int):
        return len(answer)

    registered("99.1", broken_key)
    registered("99.2", broken_type)
    with pytest.raises(KeyError):
        exercises.check("99.1", 3)
    with pytest.raises(TypeError):
        exercises.check("99.2", 3)


def test_a_wrong_answer_fails_with_the_hint(registered):
    def needs_an_int(answer: int):
        if answer != 3:
            raise NotYet("not three")
        return "three"

    registered("99.3", needs_an_int, hint="pass 3")
    assert exercises.check("99.3", 3).passed
    for wrong, says in ((..., "pass 3"), ("3", "answer should be an int, not str"),
                        (4, "not three")):
        result = exercises.check("99.3", wrong)
        assert not result.passed and says in result.message, result.message
    result = exercises.check("99.3", 3, 4)            # one argument too many
    assert not result.passed and "pass (answer)" in result.message


def test_an_error_in_the_learners_own_function_is_not_yet(registered):
    def calls_back(fn):
        return fn(1)

    cell = {}                      # a function typed in a notebook cell
    exec(compile("def learner(x):\n    return x / 0\n", "<ipython-input-1>", "exec"), cell)
    learner = cell["learner"]

    registered("99.4", calls_back, hint="fix your function")
    result = exercises.check("99.4", learner)
    assert not result.passed
    assert "your code raised ZeroDivisionError" in result.message
    assert "fix your function" in result.message


def test_a_check_that_breaks_inside_frozen_or_generated_code_still_raises(registered):
    """Frames without a file of their own (the import machinery, exec'd code) belong to the
    check that called them, not to the learner."""
    def imports_a_missing_module(answer: int):
        return importlib.import_module("acl_lab.no_such_module")

    def evaluates_a_bad_lookup(answer: int):
        return eval("{}['missing']")

    registered("99.5", imports_a_missing_module)
    registered("99.6", evaluates_a_bad_lookup)
    with pytest.raises(ModuleNotFoundError) as broken:
        exercises.check("99.5", 3)
    with pytest.raises(KeyError):
        exercises.check("99.6", 3)
    if sys.version_info >= (3, 11):     # exception notes
        assert any("check of exercise 99.5" in note and "bug in acl_lab" in note
                   for note in broken.value.__notes__)


#: Answers a learner might pass by mistake: wrong types, empty and odd containers, bad ints.
WRONG_ANSWERS = (None, "x", 1.5, -1, 0, 1 << 70, (1,), [], ["a"], [None], [1.5, "q"],
                 {}, {"a": None}, {"x": (1, 2)}, np.zeros(3))


@pytest.mark.parametrize("exercise_id", exercises.available())
def test_every_check_answers_wrong_values_with_not_yet(acl, exercise_id):
    """Whatever a learner passes in place of an answer, a check says "not yet": it never
    lets a TypeError (or any error of its own) escape."""
    _title, _hint, fn = _CHECKS[exercise_id]
    names = list(inspect.signature(fn).parameters)
    for name in names:
        if name == "acl":
            continue
        for wrong in WRONG_ANSWERS:
            args = [acl if n == "acl" else wrong if n == name else 0 for n in names]
            result = exercises.check(exercise_id, *args)
            assert not result.passed, (name, wrong, result)
