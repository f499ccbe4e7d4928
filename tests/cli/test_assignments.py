"""Student copies and nbgrader assignments (acl-lab student / assignments): derived from every
chapter, nbgrader metadata only in the copies, and a real round trip through nbgrader."""
import json
import os
import re
import shutil
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

import acl_lab
from acl_lab import exercises
from acl_lab.cli import assignments
from acl_lab.cli import main

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
GRADE_ID = re.compile(r"^ex\d\d_\d+$")


def _nb(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def _tagged(nb: dict, tag: str) -> list[dict]:
    return [c for c in nb["cells"] if tag in c["metadata"].get("tags", [])]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = tmp_path_factory.mktemp("course")
    assert main(["assignments", str(out), "--notebooks", str(ROOT / "notebooks")]) == 0
    assert main(["student", str(out / "student"), "--notebooks", str(ROOT / "notebooks")]) == 0
    return out


@pytest.mark.parametrize("chapter", NOTEBOOKS, ids=lambda p: p.stem)
def test_source_notebook_has_a_solution_and_a_locked_grade_cell_per_exercise(tree, chapter):
    original = _nb(chapter)
    path = tree / "source" / f"ch{chapter.name[:2]}" / chapter.name
    nb = _nb(path)
    nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))
    graded = [c for c in nb["cells"] if "nbgrader" in c["metadata"]]
    exercise_ids = [re.search(r'exercises\.check\("(\d\d\.\d+)"', _src(c).splitlines()[-1])[1]
                    for c in _tagged(original, "exercise")]
    assert len(graded) == 2 * len(exercise_ids)
    for ex_id, (answer, grade) in zip(exercise_ids, zip(graded[::2], graded[1::2])):
        grade_id = "ex" + ex_id.replace(".", "_")
        a, g = answer["metadata"]["nbgrader"], grade["metadata"]["nbgrader"]
        assert a == {"schema_version": 3, "grade_id": f"{grade_id}_solution", "solution": True,
                     "grade": False, "locked": False}
        assert g == {"schema_version": 3, "grade_id": grade_id, "solution": False,
                     "grade": True, "locked": True, "points": 1}
        assert GRADE_ID.match(g["grade_id"])
        lines = _src(answer).splitlines()
        begin = next(i for i, line in enumerate(lines) if line.strip() == "### BEGIN SOLUTION")
        end = next(i for i, line in enumerate(lines) if line.strip() == "### END SOLUTION")
        assert begin + 1 < end and lines[0].startswith(f"# Exercise {ex_id}")
        # the kit's solution, where the placeholder was; the check ends the cell
        assert textwrap.dedent("\n".join(lines[begin + 1:end])) == \
            exercises.solution(ex_id).code
        assert not any(exercises.PLACEHOLDER.match(line) for line in lines)
        assert lines[-1].startswith(f'exercises.check("{ex_id}"')
        # the grade cell checks again, with a fresh copy of the check: never exercises.last()
        args = lines[-1][len(f'exercises.check("{ex_id}"'):]
        assert f'run_module("acl_lab.exercises.grading")["grade"]("{ex_id}"{args}' \
            in _src(grade)
        assert "exercises.last" not in _src(grade) and "exercises.check" not in _src(grade)
        assert _src(grade).splitlines()[-1].startswith("assert _result")
    # every other cell is the chapter's own, outputs cleared
    assert not _tagged(nb, "exercise")
    others = [c for c in nb["cells"] if "nbgrader" not in c["metadata"]]
    mine = [c for c in original["cells"] if "exercise" not in c["metadata"].get("tags", [])]
    assert [_src(c) for c in others] == [_src(c) for c in mine]
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")


def test_the_chapters_carry_no_nbgrader_metadata():
    for path in NOTEBOOKS:
        assert "nbgrader" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("chapter", NOTEBOOKS, ids=lambda p: p.stem)
def test_student_copy_is_the_chapter_with_solutions_switched_off(tree, chapter):
    """The chapter as it is (it stores no solution: test_notebooks), exercises.solution()
    switched off in its first code cell."""
    original, copy = _nb(chapter), _nb(tree / "student" / chapter.name)
    kept = original["cells"]
    first = next(i for i, c in enumerate(kept) if c["cell_type"] == "code")
    assert assignments.SOLUTIONS_OFF in _src(copy["cells"][first])
    assert copy["cells"][:first] + copy["cells"][first + 1:] == kept[:first] + kept[first + 1:]
    for cell in _tagged(copy, "exercise"):
        if not cell["outputs"]:
            continue        # a chapter committed unexecuted: test_notebooks reports it
        shown = "".join("".join(o.get("data", {}).get("text/plain", o.get("text", "")))
                        for o in cell["outputs"])
        assert "not yet" in shown and "✅" not in shown


def test_student_copy_runs_and_every_check_says_not_yet(tree):
    from nbclient import NotebookClient

    path = tree / "student" / "02_host_and_device_memory.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    exercises = [c for c in nb.cells if "exercise" in c.metadata.get("tags", [])]
    assert exercises
    for cell in exercises:
        assert [o.output_type for o in cell.outputs] == ["execute_result"]
        assert "not yet" in cell.outputs[0]["data"]["text/plain"]
    ask = nbformat.v4.new_code_cell('exercises.solution("02.1")')
    nb.cells.append(ask)
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    shown = ask.outputs[0]["data"]["text/plain"]
    assert "switched off" in shown and "def pages" not in shown


def test_last_is_the_latest_result_of_each_exercise(acl):
    failed = exercises.check("00.1", acl, 99)
    assert exercises.last("00.1") is failed and not failed
    count, _ = acl.rt.get_device_count()
    passed = exercises.check("00.1", acl, count)
    assert exercises.last("00.1") is passed and passed


def test_unknown_chapter_is_an_error_not_an_empty_tree(tmp_path, capsys):
    assert main(["assignments", str(tmp_path), "--chapters", "42"]) == 2
    assert "no chapter notebooks (NN_*.ipynb) for chapters 42 in" in capsys.readouterr().err


def test_an_instructor_reading_chinese_is_told_in_chinese(tmp_path, capsys):
    acl_lab.set_language("zh_CN")
    try:
        assert main(["assignments", str(tmp_path), "--chapters", "42"]) == 2
    finally:
        acl_lab.set_language("en")
    assert "中没有第 42 章的章节 notebook" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["--lang", "ACL_LAB_LANG"])
def test_a_chinese_instructor_gets_the_chinese_edition(tmp_path, capsys, how):
    """Student copies of the Chinese chapters, from --lang or the learner's language, with
    the messages in Chinese; the language is the caller's again afterwards."""
    args = ["student", str(tmp_path), "--chapters", "02"]
    if how == "--lang":
        assert main(args + ["--lang", "zh_CN"]) == 0
    else:
        acl_lab.set_language("zh_CN")
        try:
            assert main(args) == 0
        finally:
            acl_lab.set_language("en")
    assert acl_lab.get_language() == "en"
    [copy] = tmp_path.glob("02_*.ipynb")
    chinese = json.loads((ROOT / "notebooks" / "zh_CN" / copy.name).read_text("utf-8"))
    assert [c["source"] for c in json.loads(copy.read_text("utf-8"))["cells"]
            if c["cell_type"] == "markdown"][:3] == \
        [c["source"] for c in chinese["cells"] if c["cell_type"] == "markdown"][:3]
    assert capsys.readouterr().out.startswith("已写入")


@pytest.mark.parametrize("lang, graded", [("en", "# Graded: exercise 02."),
                                           ("zh_CN", "# 评分：练习 02.")])
def test_the_grade_cells_speak_the_editions_language(tmp_path, lang, graded):
    assert main(["assignments", str(tmp_path), "--chapters", "02", "--lang", lang]) == 0
    [source] = (tmp_path / "source" / "ch02").glob("*.ipynb")
    grade_cells = [c for c in json.loads(source.read_text("utf-8"))["cells"]
                   if c["metadata"].get("nbgrader", {}).get("grade")]
    assert grade_cells and all(c["source"].startswith(graded) for c in grade_cells)


@pytest.fixture
def nbgrader_api(tmp_path, monkeypatch):
    """nbgrader's own API on a course in tmp_path (its database migrations run `alembic`,
    which must be on PATH)."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(tmp_path)
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    return NbGraderAPI(config=config)


def test_nbgrader_round_trip_scores_a_correct_and_a_wrong_submission(tmp_path, nbgrader_api):
    """nbgrader accepts every chapter; chapter 04 is graded: the right submission is the
    source notebook (the kit's solutions), the blank one the released notebook."""
    from nbgrader.api import Gradebook

    assignments.write_assignments(ROOT / "notebooks", tmp_path)
    for chapter in NOTEBOOKS:
        done = nbgrader_api.generate_assignment(f"ch{chapter.name[:2]}")
        assert done["success"], done.get("error")
    name = "04_meminfo_and_run_mode.ipynb"
    released = (tmp_path / "release" / "ch04" / name).read_text(encoding="utf-8")
    assert "raise NotImplementedError()" in released and "### BEGIN SOLUTION" not in released
    for student, notebook in (("right", tmp_path / "source" / "ch04" / name),
                              ("blank", tmp_path / "release" / "ch04" / name)):
        (tmp_path / "submitted" / student / "ch04").mkdir(parents=True)
        shutil.copy(notebook, tmp_path / "submitted" / student / "ch04" / name)
        done = nbgrader_api.autograde("ch04", student)
        assert done["success"], done.get("error")
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gradebook:
        scores = {s: gradebook.find_submission("ch04", s) for s in ("right", "blank")}
        fractions = {s: sub.score / sub.max_score for s, sub in scores.items()}
        assert scores["right"].max_score == 3
    assert fractions == {"right": 1.0, "blank": 0.0}


def _executed(cells: list[dict], folder: Path):
    from nbclient import NotebookClient
    nb = nbformat.v4.new_notebook(cells=[nbformat.from_dict(c) for c in cells])
    for cell in nb.cells:
        cell.source = _src(cell) if isinstance(cell.source, list) else cell.source
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return nb


def _errors(cell) -> list[str]:
    return [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]


@pytest.mark.parametrize("forgery", ['exercises.checking._LAST["02.2"] = True',
                                     "exercises.last = lambda exercise_id: True",
                                     "exercises.check = lambda *args: True"])
def test_a_grade_cell_is_not_forged_by_one_line_of_the_answer(tmp_path, forgery):
    """In a real kernel, as nbgrader runs it: the answer cell leaves the blocks allocated
    and adds one line setting what the old grade cell trusted; the grade cell fails."""
    nb = _nb(ROOT / "notebooks" / "02_host_and_device_memory.ipynb")
    setup = next(c for c in nb["cells"] if c["cell_type"] == "code")
    ex = next(e for e in assignments.exercises_of(nb) if e.id == "02.2")
    answer, grade = assignments.assignment_cells(ex)
    lines = _src(answer).splitlines()
    begin = next(i for i, line in enumerate(lines) if "BEGIN SOLUTION" in line)
    end = next(i for i, line in enumerate(lines) if "END SOLUTION" in line)
    answer["source"] = "\n".join(lines[:begin] + lines[end + 1:] + [forgery])
    done = _executed([setup, answer, grade], tmp_path)
    assert not _errors(done.cells[1]), _errors(done.cells[1])
    errors = _errors(done.cells[2])
    assert errors and errors[0].startswith("AssertionError: ❌ Exercise 02.2"), errors


@pytest.mark.parametrize("chapter", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_grade_cell_passes_with_the_kits_solutions(tmp_path, chapter):
    """The source notebook (the kit's solutions in place) run in a kernel: each grade cell,
    checking afresh, passes."""
    source = assignments.source_notebook(_nb(chapter))
    done = _executed(source["cells"], ROOT / "notebooks")
    graded = [c for c in done.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert graded and all(not _errors(c) for c in graded), \
        [(c.metadata["nbgrader"]["grade_id"], _errors(c)) for c in graded if _errors(c)]
