"""Chapter self-tests and persistent progress (acl_lab/quiz): the questions as data in both
languages, the store under $ACL_LAB_HOME (atomic, merging, never raising into a notebook),
the self-test widget and acl_lab.progress()."""
import dataclasses
from html import escape
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import acl_lab
from acl_lab import exercises
from acl_lab.exercises import quiz
from acl_lab.exercises.quiz import store as store_module
from acl_lab.exercises.quiz.bank import BANK

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = [f"{n:02d}" for n in range(1, 10)]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh, empty ACL_LAB_HOME for the test."""
    monkeypatch.setenv("ACL_LAB_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(store_module, "_STORES", {})
    return tmp_path / "home"


@pytest.fixture(params=["en", "zh_CN"])
def language(request):
    acl_lab.set_language(request.param)
    yield request.param
    acl_lab.set_language("en")


def on_disk(home: Path) -> dict:
    return json.loads((home / "progress.json").read_text(encoding="utf-8"))


# --- the questions --------------------------------------------------------------------------

@pytest.mark.parametrize("chapter", CHAPTERS)
def test_each_chapter_has_at_least_four_well_formed_questions(chapter, language):
    qs = exercises.questions(chapter)
    assert len(qs) >= 4
    for q in qs:
        assert 3 <= len(q["choices"]) <= 4, q["question"]
        assert len(set(q["choices"])) == len(q["choices"]), q["question"]
        assert 0 <= q["answer"] < len(q["choices"])
        assert len(q["explanations"]) == len(q["choices"])
        assert all(e.strip() for e in q["explanations"])
        assert len(set(q["explanations"])) == len(q["explanations"]), q["question"]
        assert q["explanation"] == q["explanations"][q["answer"]]
        if language == "zh_CN":
            assert CJK.search(q["question"]) and CJK.search(q["explanation"])
        else:
            assert not CJK.search(q["question"] + "".join(q["choices"] + q["explanations"]))


def test_question_ids_are_unique_and_name_their_chapter():
    ids = [q.id for chapter, qs in BANK.items() for q in qs
           if q.id.startswith(chapter + ".q")]
    assert len(ids) == len(set(ids)) == sum(len(qs) for qs in BANK.values())


def test_chapters_are_named_either_way_and_one_without_questions_has_none():
    assert exercises.questions(5) == exercises.questions("5") == exercises.questions("05")
    assert exercises.questions("00") == []


def test_without_solutions_the_data_keeps_the_answers_back(monkeypatch):
    monkeypatch.setenv("ACL_LAB_SOLUTIONS", "off")
    for q in exercises.questions("06"):
        assert q["answer"] is None and q["explanation"] is None
        assert q["explanations"] == [None] * len(q["choices"])
        assert q["question"] and q["choices"]


# --- the store ------------------------------------------------------------------------------

ids = st.lists(st.from_regex(r"0[0-8]\.(q)?[1-9]", fullmatch=True), max_size=12)


@settings(max_examples=40, deadline=None)
@given(exercise_ids=ids, question_ids=ids)
def test_passes_survive_a_restart(tmp_path_factory, exercise_ids, question_ids):
    directory = tmp_path_factory.mktemp("home")
    first = store_module.Store(directory)
    for i in exercise_ids:
        first.record("exercises", i)
    for i in question_ids:
        first.record("questions", i)
    restarted = store_module.Store(directory)           # a new kernel: nothing in memory
    assert restarted.passed("exercises") == set(exercise_ids)
    assert restarted.passed("questions") == set(question_ids)
    assert not list(directory.glob(".progress-*"))       # no temporary file left behind


def test_acl_lab_home_is_where_the_file_goes(home):
    quiz.record_exercise("02.1")
    assert on_disk(home)["exercises"] == ["02.1"]
    assert exercises.passed() == ["02.1"]


def test_default_homes(monkeypatch, tmp_path):
    monkeypatch.delenv("ACL_LAB_HOME")
    monkeypatch.delenv("ACL_LAB_PLATFORM", raising=False)
    import platformdirs
    assert store_module.home() == Path(platformdirs.user_data_dir("acl_lab", appauthor=False))
    monkeypatch.setenv("ACL_LAB_PLATFORM", "pyodide")        # JupyterLite: the browser's drive
    monkeypatch.chdir(tmp_path)
    assert store_module.home() == tmp_path / ".acl_lab"           # no drive mounted
    monkeypatch.setattr(Path, "cwd", lambda: Path("/drive/zh_CN"))  # a chapter of the site
    assert store_module.home() == Path("/drive/.acl_lab")


def test_the_test_session_never_writes_the_real_home():
    import platformdirs
    session_home = Path(os.environ["ACL_LAB_HOME"])       # set by tests/conftest.py
    assert session_home.resolve() != Path(platformdirs.user_data_dir("acl_lab")).resolve()
    assert session_home.name.startswith("acl_lab_home-")


def test_a_corrupt_or_foreign_file_reads_as_no_passes_and_is_repaired(home):
    home.mkdir()
    for text in ("{not json", "[1, 2]", '{"exercises": "01.1", "questions": [3]}', ""):
        (home / "progress.json").write_text(text)
        assert exercises.passed() == []
    quiz.record_exercise("01.1")
    assert on_disk(home)["exercises"] == ["01.1"]


def test_an_interrupted_write_leaves_the_old_file_whole(home, monkeypatch):
    quiz.record_exercise("01.1")
    before = (home / "progress.json").read_bytes()
    real_replace = os.replace

    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        quiz.record_exercise("01.2")
    assert (home / "progress.json").read_bytes() == before
    assert not list(home.glob(".progress-*"))
    monkeypatch.setattr(os, "replace", real_replace)
    quiz.record_exercise("01.3")                          # the next write saves both
    assert on_disk(home)["exercises"] == ["01.1", "01.2", "01.3"]


def test_a_home_that_cannot_be_written_says_so_once_and_keeps_passes(tmp_path, monkeypatch,
                                                                       capsys):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("ACL_LAB_HOME", str(blocker / "home"))   # no folder can be made there
    monkeypatch.setattr(store_module, "_STORES", {})
    quiz.record_exercise("03.1")
    quiz.record_exercise("03.2")
    assert exercises.passed() == ["03.1", "03.2"]
    warned = capsys.readouterr().err
    assert warned.count("cannot save your progress") == 1
    assert "ACL_LAB_HOME" in warned and "this session only" in warned


def test_two_kernels_keep_each_others_passes(home):
    home.mkdir()
    a, b = store_module.Store(home), store_module.Store(home)
    a.record("exercises", "01.1")
    b.record("exercises", "02.1")                         # b never read a's pass before
    a.record("questions", "01.q1")
    assert store_module.Store(home).passed("exercises") == {"01.1", "02.1"}
    assert on_disk(home)["questions"] == ["01.q1"]


def test_a_file_system_without_locks_still_saves(home, monkeypatch, capsys):
    import fcntl

    def no_locks(*args):
        raise OSError(38, "Function not implemented")     # Pyodide's MEMFS, some network drives
    monkeypatch.setattr(fcntl, "flock", no_locks)
    quiz.record_exercise("04.1")
    assert on_disk(home)["exercises"] == ["04.1"]
    assert capsys.readouterr().err == ""


class TwoKernels(RuleBasedStateMachine):
    """Two kernels (stores on one home) record passes in any order and restart at any time:
    a fresh kernel always sees every pass either ever recorded."""

    def __init__(self):
        super().__init__()
        self.directory = Path(tempfile.mkdtemp(prefix="acl_lab_home-"))
        self.kernels = [store_module.Store(self.directory) for _k in range(2)]
        self.recorded = {kind: set() for kind in store_module.KINDS}

    @rule(k=st.integers(0, 1), kind=st.sampled_from(store_module.KINDS),
          item=st.from_regex(r"0[1-8]\.(q)?[1-6]", fullmatch=True))
    def record(self, k, kind, item):
        self.kernels[k].record(kind, item)
        self.recorded[kind].add(item)

    @rule(k=st.integers(0, 1))
    def restart(self, k):
        self.kernels[k] = store_module.Store(self.directory)

    @invariant()
    def nothing_is_lost(self):
        fresh = store_module.Store(self.directory)
        for kind in store_module.KINDS:
            assert fresh.passed(kind) == self.recorded[kind]

    def teardown(self):
        shutil.rmtree(self.directory, ignore_errors=True)


TestTwoKernels = TwoKernels.TestCase
TestTwoKernels.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)


def test_two_processes_writing_at_once_lose_nothing(home):
    home.mkdir()
    script = ("import sys\nfrom acl_lab.exercises.quiz.store import Store\nfrom pathlib import Path\n"
              "s = Store(Path(sys.argv[1]))\n"
              "for n in range(40):\n    s.record('exercises', f'{sys.argv[2]}.{n}')\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", script, str(home), tag], env=env)
             for tag in ("A", "B")]
    assert [p.wait(60) for p in procs] == [0, 0]
    assert len(on_disk(home)["exercises"]) == 80


def test_a_passing_check_is_recorded_and_a_failing_one_is_not(home):
    assert not exercises.check("05.1", [0, 100, 200, 300])
    assert exercises.passed() == []
    assert exercises.check("05.1", [0, 192, 320, 3392])
    assert exercises.passed() == ["05.1"]
    assert on_disk(home)["exercises"] == ["05.1"]


# --- the self-test widget -------------------------------------------------------------------

def wrong_and_right(q):
    return next(c for c in range(len(q.choices)) if c != q.answer), q.answer


def test_clicking_a_choice_gives_feedback_and_a_right_one_is_recorded(home):
    view = exercises.self_test("05")
    q = view.questions[1]
    wrong, right = wrong_and_right(q)
    view.buttons[1][wrong].click()
    assert "Not right." in view.feedback[1].value
    assert q.explanations[wrong].split(":")[0] in view.feedback[1].value
    assert view.buttons[1][wrong].button_style == "danger"
    assert exercises.passed() == []
    view.buttons[1][right].click()
    assert "Right." in view.feedback[1].value and "Not right" not in view.feedback[1].value
    assert view.buttons[1][right].button_style == "success"
    assert view.buttons[1][wrong].button_style == ""
    assert exercises.passed() == [q.id]
    assert "1 of 5 questions answered right" in repr(view)
    assert "1 of 5" in repr(exercises.self_test("05"))    # a new view, the same progress


def test_without_solutions_a_wrong_pick_is_only_told_to_try_again(home, monkeypatch):
    monkeypatch.setenv("ACL_LAB_SOLUTIONS", "off")
    view = exercises.self_test("03")
    q = view.questions[0]
    wrong, right = wrong_and_right(q)
    assert view.choose(0, wrong) is False
    text = view.feedback[0].value
    assert "Not right, try again." in text
    assert all(escape(e) not in text for e in q.explanations)
    assert view.choose(0, right) is True
    assert escape(q.explanations[right]) in view.feedback[0].value


def test_the_picture_lists_every_question_and_choice_and_gives_no_answer_away(home):
    view = exercises.self_test("02")
    picture = view.svg()
    for q in view.questions:
        assert q.text.replace("`", "")[:30] in picture
        for choice in q.choices:
            assert choice[:20] in picture
    for q_index, q in enumerate(view.questions):       # move every answer: the same picture
        view.questions[q_index] = dataclasses.replace(q, answer=(q.answer + 1) % len(q.choices))
    assert view.svg() == picture
    assert view._repr_mimebundle_()["image/svg+xml"] == picture


def test_the_self_test_lists_the_chapters_exercises_by_level(home):
    quiz.record_exercise("06.2")
    view = exercises.self_test("06")
    levels = [level for level, _rows in view.rows]
    assert levels == [lv for lv in exercises.LEVELS if lv in levels]
    rows = {i: ok for _level, items in view.rows for i, _t, ok in items}
    assert rows == {"06.1": False, "06.2": True, "06.3": False}
    assert "06.2" in view.exercises_svg() and exercises.title("06.2") in view.svg()


def test_the_self_test_speaks_chinese(home):
    acl_lab.set_language("zh_CN")
    try:
        view = exercises.self_test("01")
        assert repr(view).startswith("自测 · 第01章")
        view.choose(0, view.questions[0].answer)
        assert "正确。" in view.feedback[0].value
        assert CJK.search(view.svg())
    finally:
        acl_lab.set_language("en")


# --- progress() -----------------------------------------------------------------------------

def test_progress_shows_each_chapter_as_of_now(home):
    quiz.record_exercise("02.1")
    view = exercises.self_test("02")
    view.choose(0, view.questions[0].answer)
    shown = acl_lab.progress()
    rows = {c.chapter: c for c in shown.chapters}
    assert list(rows) == [f"{n:02d}" for n in range(11)]
    assert rows["02"].exercises_passed == ("02.1",)
    assert rows["02"].questions_right == ("02.q1",)
    assert rows["03"].exercises_passed == () and rows["00"].questions == 0
    text = repr(shown)
    line = next(t for t in text.splitlines() if t.startswith("02 "))
    assert "1 of 2 (02.1)" in line and "1 of 6" in line
    bundle = shown._repr_mimebundle_()
    assert bundle["text/plain"] == text and bundle["image/svg+xml"].startswith("<svg")
    assert "base64" in bundle["text/html"]
    quiz.record_exercise("02.2")
    assert repr(shown) == text                             # the view of that moment


def test_progress_repr_shows_no_machine_path(home):
    assert str(home) not in repr(acl_lab.progress())
