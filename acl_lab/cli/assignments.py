"""Student copies and nbgrader assignments, derived from the committed chapters.

A chapter's exercise is one cell (tagged ``exercise``: what to do, the given code with a
``...`` placeholder line, then ``exercises.check("NN.k", ...)``); its solution lives in the
kit (``exercises.solution("NN.k")``: the code that replaces the placeholder line). The
chapters store no solution, so from them:

- ``student(OUT)``: every chapter as it is, its first code cell switching
  ``exercises.solution()`` off; each check still says "not yet" until the learner's code
  works.
- ``assignments(OUT)``: an nbgrader source tree, ``OUT/source/chNN/<chapter>.ipynb``. Each
  exercise becomes a solution cell (the given code, the kit's solution in place of the
  placeholder between ``### BEGIN SOLUTION`` / ``### END SOLUTION``, the check) and a
  locked grade cell ``exNN_k`` that asserts that check passed. nbgrader metadata lives only
  in these copies, never in the chapters. Solution comments come in the edition's language.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path

from acl_lab import exercises as _exercises
from acl_lab.exercises.registry import spec as exercise_spec
from acl_lab.exercises.solutions import translated
from acl_lab.i18n import _, get_language, join_list, set_language

CHECK = re.compile(r'^exercises\.check\("(?P<id>\d\d\.\d+)"(?P<args>.*)\)\s*$')
NBGRADER_SCHEMA = 3
POINTS = 1


@dataclass
class Exercise:
    id: str             # "02.1"
    cell: dict          # the exercise cell
    check: str          # the check call, as written: exercises.check("02.1", acl, pages)
    code: str           # the kit's solution: the code that replaces the placeholder line

    @property
    def grade_id(self) -> str:
        return "ex" + self.id.replace(".", "_")


def _source(cell: dict) -> str:
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else src


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


LANGUAGE_LINE = re.compile(r'^acl_lab\.set_language\("(?P<lang>[\w-]+)"\)', re.M)


def _solution_code(nb: dict, exercise_id: str) -> str:
    """The kit's solution of ``exercise_id`` with comments in the notebook's language (its
    first code cell sets it), whether or not this process may show solutions."""
    spec = exercise_spec(exercise_id)
    if not spec.solution:
        raise ValueError(_("exercise {exercise} has no solution").format(exercise=exercise_id))
    first = next((_source(c) for c in nb["cells"] if c["cell_type"] == "code"), "")
    found = LANGUAGE_LINE.search(first)
    before = get_language()
    set_language(found["lang"] if found else "en")
    try:
        return translated(spec.solution)
    finally:
        set_language(before)


def exercises_of(nb: dict) -> list[Exercise]:
    """The chapter's exercises, each with its check call and the kit's solution."""
    found = []
    for cell in nb["cells"]:
        if "exercise" not in _tags(cell):
            continue
        last = _source(cell).rstrip().splitlines()[-1]
        match = CHECK.match(last)
        if match is None:
            raise ValueError(_("exercise cell does not end with its check: {line}").format(
                line=repr(last)))
        found.append(Exercise(match["id"], cell, last, _solution_code(nb, match["id"])))
    return found


def _code_cell(cell_id: str, source: str, metadata: dict) -> dict:
    return {"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": metadata,
            "outputs": [], "source": source}


def _split(ex: Exercise) -> tuple[list[str], list[str], str, list[str]]:
    """(what to do, given code before, the indent of the placeholder, given code after): the
    exercise's comment header, and the given code around its first placeholder line (the
    other placeholder lines dropped: the kit's solution fills every one), so the learner
    keeps the code the exercise gives."""
    lines = _source(ex.cell).rstrip().splitlines()[:-1]          # without the check
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        head += 1
    task, given = lines[:head], lines[head:]
    at = next(i for i, line in enumerate(given) if _exercises.PLACEHOLDER.match(line))
    pad = _exercises.PLACEHOLDER.match(given[at])["indent"]
    rest = [line for line in given[at + 1:] if not _exercises.PLACEHOLDER.match(line)]
    return task, given[:at], pad, rest


def _nbgrader(grade_id: str, *, solution: bool, grade: bool, locked: bool) -> dict:
    meta = {"schema_version": NBGRADER_SCHEMA, "grade_id": grade_id, "solution": solution,
            "grade": grade, "locked": locked}
    if grade:
        meta["points"] = POINTS
    return meta


def assignment_cells(ex: Exercise) -> list[dict]:
    """The solution cell and the locked grade cell that replace an exercise cell. The grade
    cell asserts the result of the solution cell's own check (``exercises.last``), and runs
    the check itself only if the learner removed that line."""
    task, before, pad, after = _split(ex)
    own = [pad + line if line.strip() else line for line in ex.code.splitlines()]
    lines = [*task, *before, f"{pad}### BEGIN SOLUTION", *own, f"{pad}### END SOLUTION",
             *after, ex.check]
    meta = {k: v for k, v in ex.cell["metadata"].items() if k != "tags"}
    meta["nbgrader"] = _nbgrader(f"{ex.grade_id}_solution", solution=True, grade=False,
                                 locked=False)
    answer = _code_cell(f"{ex.grade_id}_solution", "\n".join(lines), meta)
    grade = _code_cell(ex.grade_id, "\n".join([
        _("# Graded: exercise {id} passed its check ({points} point).").format(
            id=ex.id, points=POINTS),
        f'_result = exercises.last("{ex.id}") or {ex.check}',
        "assert _result, repr(_result)"]),
        {"nbgrader": _nbgrader(ex.grade_id, solution=False, grade=True, locked=True)})
    return [answer, grade]


#: what a student copy's first code cell adds after it imports the exercises
SOLUTIONS_OFF = "exercises.switch_solutions_off()"


def student_notebook(nb: dict) -> dict:
    """The chapter without any solution (outputs kept: each check says "not yet"): its
    first code cell switches exercises.solution() off."""
    out = copy.deepcopy(nb)
    first = next((c for c in out["cells"] if c["cell_type"] == "code"), None)
    if first is not None and "from acl_lab import exercises" in _source(first):
        lines = _source(first).split("\n")
        at = next(i for i, line in enumerate(lines) if "from acl_lab import exercises" in line)
        lines.insert(at + 1, SOLUTIONS_OFF + "   " +
                     _("# a student copy: no solutions; follow the hints"))
        first["source"] = "\n".join(lines)
    return out


def source_notebook(nb: dict) -> dict:
    """The chapter as an nbgrader source notebook, outputs cleared (nbgrader runs it)."""
    out = copy.deepcopy(nb)
    by_cell = {id(ex.cell): ex for ex in exercises_of(out)}
    out["cells"] = [new for cell in out["cells"] for new in
                    (assignment_cells(by_cell[id(cell)]) if id(cell) in by_cell else [cell])]
    for cell in out["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
            cell["metadata"].pop("jupyter", None)
    return out


def _chapters(notebooks: Path, only: list[str] | None) -> list[Path]:
    paths = sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))
    if only:
        paths = [p for p in paths if p.name[:2] in only]
    if not paths:
        raise FileNotFoundError(
            _("no chapter notebooks (NN_*.ipynb) for chapters {chapters} in {folder}").format(
                chapters=join_list(only), folder=notebooks) if only else
            _("no chapter notebooks (NN_*.ipynb) in {folder}").format(folder=notebooks))
    return paths


def _write(nb: dict, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write_student(notebooks: Path, out: Path, only: list[str] | None = None) -> list[Path]:
    """OUT/<chapter>.ipynb for each chapter, without solutions."""
    return [_write(student_notebook(_read(p)), out / p.name) for p in _chapters(notebooks, only)]


NBGRADER_CONFIG = '''\
# nbgrader configuration for the acl_lab chapters (written by `acl-lab assignments`).
# In this folder: nbgrader generate_assignment chNN, then collect submissions into
# submitted/<student>/chNN/ and run nbgrader autograde chNN.
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "acl_lab"
c.ExecutePreprocessor.timeout = 300
'''


def write_assignments(notebooks: Path, out: Path, only: list[str] | None = None) -> list[Path]:
    """OUT/source/chNN/<chapter>.ipynb for each chapter, and OUT/nbgrader_config.py."""
    written = [_write(source_notebook(_read(p)), out / "source" / f"ch{p.name[:2]}" / p.name)
               for p in _chapters(notebooks, only)]
    config = out / "nbgrader_config.py"
    if not config.exists():
        config.write_text(NBGRADER_CONFIG, encoding="utf-8")
    return written
