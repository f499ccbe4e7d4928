"""A chapter self-test in a real JupyterLab, in headless Chromium: the learner clicks a wrong
choice, reads why, clicks the right one, and the pass lands in the progress file of
$ACL_LAB_HOME (a home of this test's own: the session's, tests/conftest.py, is the one nbval's
kernels share, and a question answered here would change what chapter 05 shows there).
Screenshot: test-artifacts/self-test-jupyterlab.png.
"""
import json
import os
import subprocess

import nbformat
import pytest

from test_widgets_in_jupyterlab import (ARTIFACTS, browser, open_notebook, run_all,  # noqa: F401
                                        serve, write_notebook)

CELLS = ["import acl_lab\nfrom acl_lab import exercises\nexercises.self_test('05')",
         "acl_lab.progress()"]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """(URL, ACL_LAB_HOME of its kernels) of a JupyterLab serving the self-test notebook."""
    root = tmp_path_factory.mktemp("quiz-lab")
    home = tmp_path_factory.mktemp("quiz-home")
    write_notebook(root / "self_test.ipynb", [nbformat.v4.new_code_cell(c) for c in CELLS])
    session_home = os.environ["ACL_LAB_HOME"]
    os.environ["ACL_LAB_HOME"] = str(home)           # the server's kernels inherit it
    try:
        url, proc = serve(root)
    finally:
        os.environ["ACL_LAB_HOME"] = session_home
    try:
        yield url, home
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_wrong_then_the_right_answer(browser, lab):  # noqa: F811 - the imported fixture
    url, home = lab
    from acl_lab.exercises.quiz.bank import BANK
    question = BANK["05"][0]
    wrong = next(c for c in range(len(question.choices)) if c != question.answer)
    progress_file = home / "progress.json"
    artifact = ARTIFACTS / "self-test-jupyterlab.png"
    artifact.parent.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1100, "height": 1800})
    try:
        open_notebook(page, url, "self_test.ipynb", len(CELLS))
        run_all(page, within_s=60)
        view = page.locator(".jp-OutputArea-output:has(.jupyter-widgets)").first
        view.locator("button.jupyter-button").first.wait_for(timeout=30_000)
        assert "Self-test · chapter 05" in view.inner_text()
        assert view.locator("svg").count() >= 1              # the exercises, drawn
        buttons = view.locator("button.jupyter-button")
        assert buttons.count() == sum(len(q.choices) for q in BANK["05"])
        buttons.nth(wrong).click()
        page.wait_for_function("document.querySelector('.jp-OutputArea-output')"
                               ".innerText.includes('Not right.')", timeout=15_000)
        assert question.explanations[wrong][:40] in view.inner_text()
        buttons.nth(question.answer).click()
        page.wait_for_function("!document.querySelector('.jp-OutputArea-output')"
                               ".innerText.includes('Not right.')", timeout=15_000)
        assert "Right." in view.inner_text()
        assert question.explanations[question.answer][:40] in view.inner_text()
        assert question.id in json.loads(progress_file.read_text())["questions"]
        page.screenshot(path=str(artifact), full_page=True)
    except Exception:
        page.screenshot(path=str(artifact.with_name("self-test-jupyterlab-failure.png")))
        raise
    finally:
        page.close()
