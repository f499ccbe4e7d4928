"""Exercises a learner can do in any order, at any time, run as a learner runs them: in a
fresh Jupyter kernel (nbclient), for every chapter in both editions.

(a) Run All, then each exercise cell again with its solution (``exercises.solution``) typed
    in place of the placeholder: each passes. On the way, each exercise as committed (empty)
    says "not yet", with no traceback and no line of its solution.
(b) A fresh kernel, only the chapter's first cell, then each exercise as committed (empty,
    in reverse order): "not yet" without traceback or answer; then each with its solution,
    in reverse order, run twice: each passes both times.

One kernel per notebook per scenario."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import nbformat
import pytest

import acl_lab
from acl_lab import exercises

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) + \
    sorted((ROOT / "notebooks" / "zh_CN").glob("[0-9][0-9]_*.ipynb"))
EXERCISE_ID = re.compile(r'exercises\.check\("(\d\d\.\d+)"')


def exercise_cells(nb) -> list[tuple[str, str]]:
    """(exercise id, source) of each exercise cell, in the chapter's order."""
    return [(EXERCISE_ID.findall(c.source)[-1], c.source) for c in nb.cells
            if c.cell_type == "code" and "exercise" in c.metadata.get("tags", [])]


def typed_in(cell: str, code: str) -> str:
    """``cell`` with ``code`` where the first placeholder line was (same indent), the other
    placeholder lines gone: what a learner who types the solution runs."""
    out, done = [], False
    for line in cell.splitlines():
        match = exercises.PLACEHOLDER.match(line)
        if match is None:
            out.append(line)
        elif not done:
            out.append(textwrap.indent(code, match["indent"], lambda _line: True))
            done = True
    assert done, f"no placeholder in:\n{cell}"
    return "\n".join(out)


def solution_in(path: Path, exercise_id: str) -> str:
    language = "zh_CN" if path.parent.name == "zh_CN" else "en"
    acl_lab.set_language(language)
    try:
        return exercises.solution(exercise_id).code
    finally:
        acl_lab.set_language("en")


def run(path: Path, sources: list[str]) -> list:
    """Run ``sources`` as the cells of one notebook in a fresh kernel; the executed cells."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.metadata = nbformat.read(path, as_version=4).metadata
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb.cells


def text_of(cell) -> str:
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            parts.append(out.data.get("text/plain", ""))
        elif out.output_type == "error":
            parts.append(f"TRACEBACK {out.ename}: {out.evalue}")
    return "\n".join(parts)


def assert_passed(cell, exercise_id: str, when: str) -> None:
    text = text_of(cell)
    assert "✅" in text and "❌" not in text and "TRACEBACK" not in text, \
        f"{exercise_id} {when}:\n{cell.source}\n---\n{text}"


def label(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}" if path.parent.name == "zh_CN" else path.stem


@pytest.mark.parametrize("path", NOTEBOOKS, ids=label)
def test_after_run_all_every_solution_passes(path):
    nb = nbformat.read(path, as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    tasks = exercise_cells(nb)
    solved = [typed_in(source, solution_in(path, ex)) for ex, source in tasks]
    ran = run(path, cells + solved)
    by_source = {c.source: c for c in ran[:len(cells)]}
    for ex, source in tasks:
        assert_not_yet_without_the_answer(by_source[source], path, ex, "in Run All")
    for (ex, _source), cell in zip(tasks, ran[len(cells):]):
        assert_passed(cell, ex, "after Run All")


def assert_not_yet_without_the_answer(cell, path: Path, exercise_id: str, when: str) -> None:
    """(c): "not yet" (❌), no traceback, and no line of the solution's code."""
    text = text_of(cell)
    assert "❌" in text and "TRACEBACK" not in text, f"{exercise_id} {when}:\n{text}"
    for line in solution_in(path, exercise_id).splitlines():
        code = line.split("#")[0].strip()
        assert len(code) < 12 or code not in text, \
            f"{exercise_id} {when} shows its solution ({code!r}):\n{text}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=label)
def test_after_a_restart_each_exercise_passes_alone_in_reverse_order_twice(path):
    nb = nbformat.read(path, as_version=4)
    first = next(c.source for c in nb.cells if c.cell_type == "code")
    tasks = exercise_cells(nb)[::-1]
    solved = [typed_in(source, solution_in(path, ex)) for ex, source in tasks]
    ran = run(path, [first] + [source for _ex, source in tasks] +
              [s for s in solved for _twice in (1, 2)])
    for i, (ex, _source) in enumerate(tasks):
        assert_not_yet_without_the_answer(ran[1 + i], path, ex, "empty, after a restart")
        at = 1 + len(tasks) + 2 * i
        assert_passed(ran[at], ex, "after a restart, first run")
        assert_passed(ran[at + 1], ex, "run again")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=label)
def test_exercises_come_last_and_every_one_has_a_solution(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    first = next(i for i, c in enumerate(code) if "exercise" in c.metadata.get("tags", []))
    assert all("exercise" in c.metadata.get("tags", []) for c in code[first:]), \
        "no chapter cell after the exercises: they end the chapter"
    for ex, source in exercise_cells(nb):
        assert f'exercises.start("{ex}", acl)' in source, ex
        assert exercises.solution(ex).code, ex
