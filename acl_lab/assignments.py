"""Student copies and nbgrader assignments, derived from the committed chapters.

A chapter's exercise is one cell (tagged ``exercise``: what to do, the given code with a
``...`` placeholder line, then ``exercises.check("NN.k", ...)``); its solution lives in the
kit (``exercises.solution("NN.k")``: the code that replaces the placeholder line). A chapter
not converted yet may still follow the exercise with a hidden solution cell (tagged
``solution``: ``# Solution to exercise NN.k: ...``, the whole code, the same check). From
them:

- ``student(OUT)``: every chapter without any solution; the exercise cells stay, so each
  check still says "not yet" until the learner's code works.
- ``assignments(OUT)``: an nbgrader source tree, ``OUT/source/chNN/<chapter>.ipynb``. Each
  exercise becomes a solution cell (the given code, the solution's own lines between
  ``### BEGIN SOLUTION`` / ``### END SOLUTION``, the check) and a locked grade cell
  ``exNN_k`` that runs the check again and asserts it passed. nbgrader metadata lives only
  in these copies, never in the chapters. Solution comments come in the edition's language.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path

from . import exercises as _exercises
from .i18n import _, get_language, join_list, set_language

SOLUTION_HEADER = "# Solution to exercise "
CHECK = re.compile(r'^exercises\.check\("(?P<id>\d\d\.\d+)"(?P<args>.*)\)\s*$')
NBGRADER_SCHEMA = 3
POINTS = 1


@dataclass
class Exercise:
    id: str             # "02.1"
    cell: dict          # the exercise cell
    solution: dict | None   # its hidden solution cell (a chapter not converted yet), or None
    check: str          # the check call, as written: exercises.check("02.1", acl, pages)
    code: str = ""      # the kit's solution: the code that replaces the placeholder line

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
    first code cell sets it), "" if the kit has none."""
    spec = _exercises._spec(exercise_id)
    if not spec.solution:
        return ""
    first = next((_source(c) for c in nb["cells"] if c["cell_type"] == "code"), "")
    found = LANGUAGE_LINE.search(first)
    before = get_language()
    set_language(found["lang"] if found else "en")
    try:
        return _exercises._translated(spec.solution)
    finally:
        set_language(before)


def exercises_of(nb: dict) -> list[Exercise]:
    """The chapter's exercises, each with its solution (the kit's, or a hidden solution
    cell) and check call."""
    found, cells = [], nb["cells"]
    for i, cell in enumerate(cells):
        if "exercise" not in _tags(cell):
            continue
        last = _source(cell).rstrip().splitlines()[-1]
        match = CHECK.match(last)
        if match is None:
            raise ValueError(_("exercise cell does not end with its check: {line}").format(
                line=repr(last)))
        code = _solution_code(nb, match["id"])
        solution = next((c for c in cells[i + 1:] if {"solution", "exercise"} & set(_tags(c))),
                        None)
        if solution is not None and "solution" not in _tags(solution):
            solution = None
        if solution is None and not code:
            raise ValueError(_("exercise {id} has no solution cell after it").format(
                id=match["id"]))
        found.append(Exercise(match["id"], cell, solution, last, code))
    return found


def _code_cell(cell_id: str, source: str, metadata: dict) -> dict:
    return {"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": metadata,
            "outputs": [], "source": source}


def _split(ex: Exercise) -> tuple[list[str], list[str], list[str], list[str]]:
    """(what to do, given code before, the solution's own lines, given code after): the
    exercise's comment header, and the lines it shares with its solution around the
    placeholder, so the learner keeps the code the exercise gives."""
    lines = _source(ex.cell).rstrip().splitlines()[:-1]          # without the check
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        head += 1
    task, given = lines[:head], lines[head:]
    if ex.solution is None:
        at = next(i for i, line in enumerate(given) if _exercises.PLACEHOLDER.match(line))
        pad = _exercises.PLACEHOLDER.match(given[at])["indent"]
        own = [pad + line if line.strip() else line for line in ex.code.splitlines()]
        rest = [line for line in given[at + 1:] if not _exercises.PLACEHOLDER.match(line)]
        return task, given[:at], own, rest          # the solution fills every placeholder
    answer = _source(ex.solution).rstrip().splitlines()
    if answer and answer[0].startswith(SOLUTION_HEADER):
        answer = answer[1:]
    if answer and answer[-1] == ex.check:
        answer = answer[:-1]
    before = 0
    while before < min(len(given), len(answer)) and given[before] == answer[before] \
            and "..." not in given[before]:
        before += 1
    after = 0
    while after < min(len(given), len(answer)) - before and given[-1 - after] == \
            answer[-1 - after] and "..." not in given[-1 - after]:
        after += 1
    own = answer[before:len(answer) - after]
    while own and not own[-1].strip():
        own.pop()
    return task, given[:before], own, given[len(given) - after:]


def _indent(lines: list[str]) -> str:
    first = next((line for line in lines if line.strip()), "")
    return first[:len(first) - len(first.lstrip())]


def _nbgrader(grade_id: str, *, solution: bool, grade: bool, locked: bool) -> dict:
    meta = {"schema_version": NBGRADER_SCHEMA, "grade_id": grade_id, "solution": solution,
            "grade": grade, "locked": locked}
    if grade:
        meta["points"] = POINTS
    return meta


def assignment_cells(ex: Exercise) -> list[dict]:
    """The solution cell and the locked grade cell that replace an exercise and its solution."""
    task, before, own, after = _split(ex)
    pad = _indent(own)
    checks_itself = ex.solution is not None and any(f'exercises.check("{ex.id}"' in line for line in own)
    # a solution that checks, then releases what the check looked at, must not be checked
    # again after it: the grade cell reads that check's result instead
    last = _("# Check your answer with {check}").format(check=ex.check) if checks_itself \
        else ex.check
    lines = [*task, *before, f"{pad}### BEGIN SOLUTION", *own, f"{pad}### END SOLUTION",
             *after, last]
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


def _without_solutions(nb: dict, replace) -> dict:
    out = copy.deepcopy(nb)
    by_cell = {id(ex.cell): ex for ex in exercises_of(out)}
    cells = []
    for cell in out["cells"]:
        if "solution" in _tags(cell):
            continue
        ex = by_cell.get(id(cell))
        cells.extend(replace(ex) if ex is not None else [cell])
    out["cells"] = cells
    return out


#: what a student copy's first code cell adds after it imports the exercises
SOLUTIONS_OFF = "exercises.switch_solutions_off()"


def student_notebook(nb: dict) -> dict:
    """The chapter without any solution (outputs kept: each check says "not yet"): no
    solution cells, and its first code cell switches exercises.solution() off."""
    out = _without_solutions(nb, lambda ex: [ex.cell])
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
    out = _without_solutions(nb, assignment_cells)
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
