"""An exercise as a learner meets it in a real JupyterLab, in headless Chromium.

Chapter 02, copied into a fresh JupyterLab: Run All, and every exercise says "not yet" (no
traceback, no answer); the learner types the solution of exercise 02.2 in place of its
placeholder and runs the cell: ✅. Then a kernel restart, only the chapter's first cell, and
the same exercise cell again: ✅. Screenshots of each step go to test-artifacts/exercises/.
Uses the JupyterLab and browser set-up of test_widgets_in_jupyterlab.py.
"""
import json
import shutil
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from acl_lab import exercises
from test_widgets_in_jupyterlab import (CHROMIUM_FLAGS, command, kernels_idle, open_notebook,
                                        require_browser_tools, run_all, serve)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "exercises"
CHAPTER = ROOT / "notebooks" / "02_host_and_device_memory.ipynb"
EXERCISE = "02.2"
# The text of each code cell's outputs, in order.
OUTPUTS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code')
    .map(cell => (cell.node.querySelector('.jp-OutputArea') || {}).innerText || '')"""
SOURCES = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code').map(cell => cell.model.sharedModel.getSource())"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(CHAPTER, root / CHAPTER.name)
    url, proc = serve(root)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def page(lab):
    chromium = require_browser_tools()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        yield page
        browser.close()


def code_index(page, needle: str) -> int:
    return next(i for i, s in enumerate(page.evaluate(SOURCES)) if needle in s)


def run_code_cell(page, index: int) -> str:
    """Select code cell ``index``, run it as Ctrl+Enter does, and return its output text
    once it has run (it has an execution count again)."""
    page.evaluate("""([k]) => { const nb = window.jupyterapp.shell.currentWidget.content;
        const cells = nb.widgets.filter(c => c.model.type === 'code');
        nb.activeCellIndex = nb.widgets.indexOf(cells[k]);
        cells[k].model.executionCount = null;          // so its next count shows the run
        cells[k].node.scrollIntoView(); }""", [index])
    count = """([k]) => window.jupyterapp.shell.currentWidget.content.widgets
        .filter(c => c.model.type === 'code')[k].model.executionCount"""
    command(page, "notebook:run-cell")
    deadline = time.monotonic() + 60
    while True:
        if page.evaluate(count, [index]) is not None:
            return page.evaluate(f"({OUTPUTS})()[{index}]")
        assert time.monotonic() < deadline, f"code cell {index} did not run"
        time.sleep(0.3)


def shoot(page, index: int, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
    cell.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def restart_kernel(lab: str) -> None:
    [kernel] = json.load(urllib.request.urlopen(f"{lab}/api/kernels", timeout=5))
    urllib.request.urlopen(urllib.request.Request(
        f"{lab}/api/kernels/{kernel['id']}/restart", method="POST"), timeout=60)
    deadline = time.monotonic() + 60
    while not kernels_idle(lab):
        assert time.monotonic() < deadline, "the kernel did not restart"
        time.sleep(0.3)


def test_a_learner_solves_an_exercise_after_run_all_and_after_a_restart(page, lab, capsys):
    nb = nbformat.read(CHAPTER, as_version=4)
    solution = exercises.solution(EXERCISE).code
    seen = {}
    try:
        open_notebook(page, lab, CHAPTER.name, len(nb.cells))
        assert not page.evaluate("window.jupyterapp.shell.currentWidget.context.model.dirty"), \
            "opening the chapter modified it (its kernelspec?)"
        run_all(page, within_s=180)
        outputs = page.evaluate(OUTPUTS)
        sources = page.evaluate(SOURCES)
        tasks = [i for i, s in enumerate(sources) if s.startswith("# Exercise ")]
        assert tasks
        for i in tasks:
            assert "not yet" in outputs[i] and "Traceback" not in outputs[i], outputs[i]
            assert not any(line.split("#")[0].strip() in outputs[i]
                           for line in solution.splitlines() if line.split("#")[0].strip())
        k = code_index(page, f"# Exercise {EXERCISE}")
        seen["after Run All"] = outputs[k]
        shoot(page, k, "1-run-all-not-yet")

        # the learner replaces the placeholder line with the solution and runs the cell
        typed = sources[k].replace("...  # your code", solution.rstrip("\n"))
        page.evaluate("""([k, text]) => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')[k].model.sharedModel.setSource(text)""",
                      [k, typed])
        seen["solved after Run All"] = run_code_cell(page, k)
        assert "✅" in seen["solved after Run All"], seen["solved after Run All"]
        shoot(page, k, "2-solved-after-run-all")

        # tomorrow: restart, run only the chapter's first cell, then the exercise
        restart_kernel(lab)
        run_code_cell(page, 0)
        seen["after a restart"] = run_code_cell(page, k)
        assert "✅" in seen["after a restart"], seen["after a restart"]
        shoot(page, k, "3-restart-first-cell-then-exercise")

        # stuck on another one: the learner asks for its solution in a new cell
        command(page, "notebook:insert-cell-below")
        page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.activeCell.model
            .sharedModel.setSource('exercises.solution("02.1")')""")
        seen["asking for a solution"] = run_code_cell(page, k + 1)
        block = page.locator(".jp-Notebook .jp-CodeCell").nth(k + 1).locator(
            ".jp-RenderedMarkdown pre")
        assert "HUGE_FIRST compares" in block.inner_text()       # a rendered code block
        shoot(page, k + 1, "4-solution-on-request")
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "failure.png"))
        raise
    with capsys.disabled():
        for step, text in seen.items():
            print(f"\n[{step}] {text.strip()}")
