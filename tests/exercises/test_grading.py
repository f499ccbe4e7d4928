"""Grading (acl_lab.exercises.grading): the check runs again, fresh, on what the simulated
process and its trace show; nothing a learner's cell sets in one line passes it, and the
learner's own modules are as they were afterwards."""
import sys

import pytest

import acl_lab
from acl_lab import exercises
from acl_lab.exercises import checking, grading
from acl_lab.exercises.ch02 import BLOCKS_MADE


def _free_all(acl, blocks):
    acl.rt.free_host(blocks["malloc_host"])
    acl.rt.free(blocks["malloc"])
    acl.rt.free(blocks["malloc_align32"])
    acl.media.dvpp_free(blocks["dvpp_malloc"])


FORGERIES = {
    "results_table": lambda monkeypatch: monkeypatch.setitem(
        checking._LAST, "02.2", exercises.Result("02.2", "t", True, "forged")),
    "last": lambda monkeypatch: monkeypatch.setattr(exercises, "last", lambda i: True),
    "check": lambda monkeypatch: monkeypatch.setattr(exercises, "check", lambda *a: True),
    "registered_check": lambda monkeypatch: monkeypatch.setattr(
        exercises._spec("02.2"), "check", lambda acl, blocks: "forged"),
    "chapter_function": lambda monkeypatch: monkeypatch.setattr(
        sys.modules["acl_lab.exercises.ch02"].freed_with_partner, "__code__",
        (lambda acl, blocks: "forged").__code__),
    "helpers": lambda monkeypatch: monkeypatch.setattr(exercises, "calls_since_start",
                                                       lambda: []),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_what_a_cell_sets_in_one_line_does_not_pass_the_grade(acl, monkeypatch, forgery):
    blocks = exercises.start("02.2", acl)
    FORGERIES[forgery](monkeypatch)
    result = grading.grade("02.2", acl, blocks)
    assert not result and "not yet" in repr(result), repr(result)
    _free_all(acl, blocks)
    assert grading.grade("02.2", acl, blocks), "the right answer still passes"


def test_the_grade_uses_the_sessions_acl_not_the_one_passed(acl):
    blocks = exercises.start("02.2", acl)
    _free_all(acl, blocks)

    class Fake:                  # an acl a learner built to please a check
        def __getattr__(self, name):
            raise AssertionError("the grade must not use the acl it was given")
    assert grading.grade("02.2", Fake(), blocks)


def test_grading_records_nothing_and_puts_the_learners_modules_back(acl):
    before = {n: m for n, m in sys.modules.items() if n.startswith("acl_lab.exercises")}
    blocks = exercises.start("02.2", acl)
    _free_all(acl, blocks)
    passed, last = exercises.passed("02"), exercises.last("02.2")
    assert grading.grade("02.2", acl, blocks)
    assert exercises.passed("02") == passed and exercises.last("02.2") is last
    after = {n: m for n, m in sys.modules.items() if n.startswith("acl_lab.exercises")}
    assert all(after[n] is m for n, m in before.items())
    assert sys.modules["acl_lab.exercises"] is exercises
    assert sorted(blocks) == sorted(BLOCKS_MADE)
    acl_lab.reset()
