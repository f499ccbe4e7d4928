"""The views in a real JupyterLab, in headless Chromium.

One JupyterLab on loopback (no token, no XSRF check, autosave off, settings and runtime
files in a temporary directory, ``window.jupyterapp`` exposed so the test can run
commands) serves copies of the chapters and two notebooks of its own. The tests:

- every chapter (every notebook under notebooks/, whatever its number): clear the outputs,
  Run All, wait for the last cell, fail on an error output, "Error displaying widget" or
  "model not found", check every view rendered live, and that no view shows "no device
  open", "pool is closed", "no task" or an error unless the text above it says so; a
  screenshot of the chapter and one of each view go to test-artifacts/chapters/;
- one notebook showing every view: click "allocate" in the pool view and pick a task in the
  capture graph, wait for the kernel's answers (test-artifacts/widgets-jupyterlab.png, and
  one picture per view in test-artifacts/widgets/);
- presenting: JupyterLab's presentation mode (no extension) with a live view that answers a
  click, and speaker notes that stay folded until the presenter opens them
  (test-artifacts/presenting.png).

Needs Debian's chromium (`apt-get install chromium`) and Playwright (the `test` extra).
Without them the tests fail when CI=true and are skipped elsewhere.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
ZH_START = ROOT / "notebooks" / "zh_CN" / "00_start_here.ipynb"
# Draws ``text`` and a code point no font has (its "tofu" box) in the font of the notebook's
# prose; the same pixels mean Chinese shows as boxes (no CJK font in the system).
TOFU = """([text]) => {
  const prose = document.querySelector('.jp-RenderedMarkdown p');
  const font = getComputedStyle(prose).fontSize + ' ' + getComputedStyle(prose).fontFamily;
  const draw = (s) => { const c = document.createElement('canvas'); c.width = 64; c.height = 32;
    const g = c.getContext('2d'); g.font = font; g.fillText(s, 2, 24);
    return Array.from(g.getImageData(0, 0, 64, 32).data).join(); };
  return Array.from(text).filter(ch => draw(ch) === draw('\\u{10FFFD}'));
}"""
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]
WIDGET_ERRORS = ("Error displaying widget", "model not found")
# What a view must not show after Run All unless the text above it says so.
GONE_WORDS = ("no device open", "pool is closed", "no task", "error")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CELLS = [   # the first cell may run twice (see run_all), so it starts a fresh process
    "import acl_lab\n"
    "acl_lab.reset()\n"
    "from acl_lab.pool import MemoryPool\n"
    "from acl_lab.widgets import (AlignmentExplorer, CaptureGraph, CopyMap, MemoryGauge,\n"
    "                             MemoryMap, PoolView, StreamTimeline)\n"
    "acl = acl_lab.load()\n"
    "acl_lab.check(acl.init())\n"
    "acl_lab.check(acl.rt.set_device(0))\n"
    "pool = MemoryPool(acl, 4096)\n"
    "ptrs = [pool.alloc(n) for n in (100, 1, 300)]\n"
    "host, _ = acl.rt.malloc_host(4096)\n"
    "acl_lab.check(acl.rt.memcpy(ptrs[0], 100, host, 100, 1))\n"
    "stream, _ = acl.rt.create_stream()\n"
    "acl_lab.name(stream, 'work')\n"
    "acl_lab.check(acl.mdl.ri_capture_begin(stream, 0))\n"
    "acl_lab.check(acl.rt.memset_async(ptrs[0], 100, 1, 100, stream))\n"
    "acl_lab.check(acl.rt.memset_async(ptrs[2], 300, 2, 300, stream))\n"
    "model, _ = acl.mdl.ri_capture_end(stream)\n"
    "for _ in range(2):\n"
    "    acl_lab.check(acl.mdl.ri_execute_async(model, stream))",
    "PoolView(pool)",
    "AlignmentExplorer(100, 64)",
    "MemoryGauge(acl)",
    "StreamTimeline()",
    "MemoryMap()",
    "CopyMap()",
    "CaptureGraph(model)",     # the last: the test picks a task in it
]
NOTES = ("<details><summary>Speaker notes</summary>\n\n"
         "Ask the room what m will be for len = 100 before you click allocate.\n</details>")
PRESENTING = [   # (cell type, source, slide type)
    ("markdown", "# Pools in one slide", "slide"),
    ("markdown", NOTES, "notes"),
    ("code", "import acl_lab\nacl_lab.reset()\nfrom acl_lab.pool import MemoryPool\n"
             "from acl_lab.widgets import PoolView\nacl = acl_lab.load()\n"
             "acl_lab.check(acl.init())\nacl_lab.check(acl.rt.set_device(0))\n"
             "PoolView(MemoryPool(acl, 4096))", "-"),
]
# Lab settings: no autosave (the test must not write the notebooks), no kernel dialog, no
# news or extension manager (no network), every cell rendered (no windowing, so every view
# is in the page).
SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
    "@jupyterlab/extensionmanager-extension/plugin": {"enabled": False},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none",
                                               "autoStartDefaultKernel": True},
}
# Per cell: its input text (rendered markdown or code), whether it is code, and the text of
# each view in its outputs without the pictures' hover titles.
CELL_TEXTS = """() => Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell')).map(cell => ({
    code: cell.classList.contains('jp-CodeCell'),
    input: (cell.querySelector('.jp-InputArea') || {}).innerText || '',
    views: Array.from(cell.querySelectorAll('.jp-OutputArea-output'))
        .filter(o => o.querySelector('.jupyter-widgets'))
        .map(o => { const c = o.cloneNode(true);
                    c.querySelectorAll('title').forEach(t => t.remove());
                    return c.textContent; }),
}))"""
# The execution counts of the open notebook's code cells (null: not run since cleared).
COUNTS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code').map(cell => cell.model.executionCount)"""


def tools_missing() -> list[str]:
    missing = [] if shutil.which("chromium") else ["Debian's chromium (apt-get install chromium)"]
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright (pip install -e '.[test]')")
    return missing


def require_browser_tools() -> str:
    """Chromium's path; without the tools, fail on CI (CI=true) and skip elsewhere."""
    missing = tools_missing()
    if missing:
        why = "the browser test needs " + " and ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why)
        pytest.skip(why)
    return shutil.which("chromium")


def test_missing_browser_tools_fail_on_ci_and_skip_elsewhere(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium"):
        require_browser_tools()
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception):
        require_browser_tools()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_settings(settings_dir: Path) -> None:
    for plugin, values in SETTINGS.items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


def write_notebook(path: Path, cells) -> None:
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)


def serve(root: Path):
    """Start JupyterLab on ``root``; returns (url, process)."""
    home = root / ".home"
    write_settings(home / "settings")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "IPYTHONDIR": str(home / "ipython")}
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1",
         f"--port={port}", "--IdentityProvider.token=", "--ServerApp.password=",
         "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={root}",
         "--allow-root", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"],
        env=env, stdout=subprocess.DEVNULL, stderr=open(home / "lab.log", "w"))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status", timeout=1)
            return url, proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("JupyterLab did not start:\n" + (home / "lab.log").read_text())
            time.sleep(0.3)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """URL of one JupyterLab serving copies of the chapters, widgets.ipynb (every view) and
    presenting.ipynb."""
    root = tmp_path_factory.mktemp("lab")
    for chapter in CHAPTERS:
        shutil.copy(chapter, root / chapter.name)
    if ZH_START.exists():
        (root / "zh_CN").mkdir()
        shutil.copy(ZH_START, root / "zh_CN" / ZH_START.name)
    write_notebook(root / "widgets.ipynb", [nbformat.v4.new_code_cell(c) for c in CELLS])
    cells = []
    for kind, source, slide in PRESENTING:
        cell = (nbformat.v4.new_code_cell if kind == "code" else
                nbformat.v4.new_markdown_cell)(source)
        cell.metadata["slideshow"] = {"slide_type": slide}
        cells.append(cell)
    write_notebook(root / "presenting.ipynb", cells)
    url, proc = serve(root)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser():
    chromium = require_browser_tools()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, lab):
    page = browser.new_page(viewport={"width": 1280, "height": 2900})
    yield page
    page.close()


def kernels_idle(lab: str) -> bool:
    """True once every kernel reports idle. A 500 means a kernel is half started:
    jupyter_client puts it in the kernel list before jupyter_server gives it
    ``last_activity`` (``AsyncMappingKernelManager._async_start_kernel``), so the listing
    raises AttributeError in that moment; the caller polls again."""
    try:
        with urllib.request.urlopen(f"{lab}/api/kernels", timeout=2) as r:
            kernels = json.load(r)
    except urllib.error.HTTPError as e:
        if e.code != 500:
            raise
        return False
    return bool(kernels) and all(k["execution_state"] == "idle" for k in kernels)


def command(page, name: str) -> None:
    page.evaluate("(name) => window.jupyterapp.commands.execute(name)", name)


def open_notebook(page, lab: str, name: str, cells: int) -> None:
    """Open ``name`` once every cell is on the page and its kernel is up; close the others
    first, so one kernel runs at a time."""
    for session in json.load(urllib.request.urlopen(f"{lab}/api/sessions", timeout=5)):
        req = urllib.request.Request(f"{lab}/api/sessions/{session['id']}", method="DELETE")
        urllib.request.urlopen(req, timeout=10)
    page.goto(f"{lab}/lab/tree/{name}?reset")         # a fresh workspace: only this notebook
    page.wait_for_function(f"document.querySelectorAll('.jp-Notebook .jp-Cell').length"
                           f" == {cells}", timeout=60_000)
    deadline = time.monotonic() + 60
    while not kernels_idle(lab):
        assert time.monotonic() < deadline, "the kernel did not start"
        time.sleep(0.3)


def run_all(page, within_s: float) -> None:
    """Clear every output, Run All, and wait until every code cell has run; an error output
    fails at once (Run All stops there)."""
    command(page, "notebook:clear-all-cell-outputs")
    page.wait_for_function(f"({COUNTS})().every(n => n === null)", timeout=10_000)
    command(page, "notebook:run-all-cells")
    deadline = time.monotonic() + within_s
    while not all(page.evaluate(COUNTS)):
        errors = page.locator(".jp-OutputArea-output[data-mime-type="
                              "'application/vnd.jupyter.stderr']:has-text('Traceback'), "
                              ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
        if errors.count():
            pytest.fail("a cell failed in Run All:\n" + errors.first.inner_text()[:2000])
        assert time.monotonic() < deadline, "Run All did not finish in time"
        time.sleep(0.5)


def view_count(path: Path) -> int:
    """How many views the committed notebook shows (outputs carrying a widget)."""
    nb = nbformat.read(path, as_version=4)
    return sum(WIDGET_VIEW in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
               for o in c.outputs)


def unexplained(cells: list[dict]) -> list[str]:
    """Words of GONE_WORDS a view shows that neither its cell nor the cell above mentions."""
    found = []
    for i, cell in enumerate(cells):
        above = (cells[i - 1]["input"] if i else "") + cell["input"]
        for k, text in enumerate(cell["views"]):
            for word in GONE_WORDS:
                if word in text.lower() and word not in above.lower():
                    found.append(f"cell {i + 1}, view {k + 1} shows {word!r}: {text[:300]}")
    return found


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_run_all_leaves_every_view_as_its_text_says(page, lab, chapter):
    shots = ARTIFACTS / "chapters"
    shots.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(chapter, as_version=4)
    try:
        open_notebook(page, lab, chapter.name, len(nb.cells))
        run_all(page, within_s=180)
        expected = view_count(chapter)
        page.wait_for_function(f"document.querySelectorAll('.jp-OutputArea-output "
                               f".jupyter-widgets svg').length >= {expected}", timeout=30_000)
        text = page.evaluate("document.querySelector('.jp-Notebook').textContent")
        for error in WIDGET_ERRORS:
            assert error not in text, f"{error!r} in {chapter.name}"
        cells = page.evaluate(CELL_TEXTS)
        assert sum(len(c["views"]) for c in cells) == expected
        page.screenshot(path=str(shots / f"{chapter.stem}.png"))
        for k, view in enumerate(page.locator(".jp-OutputArea-output:has(.jupyter-widgets)")
                                 .all()):
            view.screenshot(path=str(shots / f"{chapter.stem}-view{k + 1}.png"))
        problems = unexplained(cells)
        assert not problems, "\n".join(problems)
    except Exception:
        page.screenshot(path=str(shots / f"{chapter.stem}-failure.png"))
        raise


def test_unexplained_words_are_found_and_explained_ones_pass():
    cells = [{"input": "Now the pool is closed; the view keeps its picture.", "views": []},
             {"input": "PoolView(pool)", "views": ["MemoryPool: the pool is closed"]},
             {"input": "MemoryGauge(acl)", "views": ["no device open: call acl.init()"]}]
    assert unexplained(cells) == [f"cell 3, view 1 shows 'no device open': "
                                  f"{cells[2]['views'][0]}"]
    cells[0]["input"] = "Close the pool."
    assert len(unexplained(cells)) == 2


def test_every_widget_renders_and_answers(page, lab):
    artifact = ARTIFACTS / "widgets-jupyterlab.png"
    artifact.parent.mkdir(exist_ok=True)
    try:
        open_notebook(page, lab, "widgets.ipynb", len(CELLS))
        run_all(page, within_s=60)
        views = len(CELLS) - 1
        page.wait_for_function("document.querySelectorAll('.jp-OutputArea-output "
                               f".jupyter-widgets svg').length >= {views}", timeout=30_000)
        text = page.evaluate("document.querySelector('.jp-Notebook').textContent")
        for error in WIDGET_ERRORS + ("Traceback",):
            assert error not in text, f"{error!r} in the notebook:\n{text}"
        assert page.locator(".jp-OutputArea-output").count() == views
        assert "3 segments" in text and "get_mem_info" in text
        assert "2 tasks on 1 stream" in text and "2 replays" in text and "work" in text
        assert "Where memory lives: 2 blocks" in text and "pinned (page-locked)" in text
        assert "Copies by direction: 1 copy, 100 B" in text and "H2D: 1 copy, 100 B" in text
        shots = ARTIFACTS / "widgets"
        shots.mkdir(exist_ok=True)
        for k, view in enumerate(page.locator(".jp-OutputArea-output").all()):
            view.screenshot(path=str(shots / f"{CELLS[k + 1].split('(')[0]}.png"))
        pool = page.locator(".jp-OutputArea-output").first
        shown = pool.locator("svg").first.inner_html()
        pool.locator("button", has_text="allocate").click()      # a round trip to the kernel
        page.wait_for_function(
            "([shown]) => { const svg = document.querySelector('.jp-OutputArea-output svg');"
            " return svg.textContent.includes('4 segments') && svg.innerHTML !== shown; }",
            arg=[shown], timeout=15_000)
        # CaptureGraph, the last output: pick its second task, see it outlined and described
        graph = page.locator(".jp-OutputArea-output").last
        assert "seq\t1" in graph.locator("table").inner_text()
        shown = graph.locator("svg").first.inner_html()
        graph.locator("select").select_option(index=1)
        page.wait_for_function(
            "([shown]) => { const out = Array.from(document.querySelectorAll("
            "'.jp-OutputArea-output')).pop(); return out.querySelector('table').innerText"
            ".includes('seq\\t2') && out.querySelector('svg').innerHTML !== shown; }",
            arg=[shown], timeout=15_000)
        page.screenshot(path=str(artifact), full_page=True)
    except Exception:
        page.screenshot(path=str(artifact.with_name("widgets-jupyterlab-failure.png")))
        raise


def test_presenting_keeps_views_live_and_notes_folded(page, lab):
    artifact = ARTIFACTS / "presenting.png"
    artifact.parent.mkdir(exist_ok=True)
    try:
        open_notebook(page, lab, "presenting.ipynb", len(PRESENTING))
        command(page, "application:toggle-presentation-mode")
        page.wait_for_selector(".jp-mod-presentationMode", timeout=10_000)
        run_all(page, within_s=60)
        view = page.locator(".jp-OutputArea-output:has(.jupyter-widgets)")
        view.locator("svg").first.wait_for(timeout=30_000)
        notes = page.locator("details", has_text="Speaker notes")
        assert notes.count() == 1 and not notes.evaluate("d => d.open")
        assert not notes.locator("p", has_text="Ask the room").is_visible()      # folded for the room
        view.locator("button", has_text="allocate").click()           # the view is live
        page.wait_for_function("document.querySelector('.jp-OutputArea-output svg')"
                               ".textContent.includes('1 segments')", timeout=15_000)
        notes.locator("summary").click()                              # the presenter opens them
        assert notes.locator("p", has_text="Ask the room").is_visible()
        page.screenshot(path=str(artifact))
    except Exception:
        page.screenshot(path=str(artifact.with_name("presenting-failure.png")))
        raise


def test_the_chinese_edition_shows_chinese_not_boxes(page, lab):
    """Chapter 00 of notebooks/zh_CN/ runs, its views render, and its Chinese prose and view
    text are drawn with real glyphs (.ci/run installs fonts-noto-cjk for the browser)."""
    if not ZH_START.exists():
        pytest.fail("notebooks/zh_CN/00_start_here.ipynb is missing")
    shot = ARTIFACTS / "chapters" / "zh_CN-00_start_here.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(ZH_START, as_version=4)
    try:
        open_notebook(page, lab, f"zh_CN/{ZH_START.name}", len(nb.cells))
        run_all(page, within_s=120)
        text = page.evaluate("document.querySelector('.jp-Notebook').textContent")
        for error in WIDGET_ERRORS:
            assert error not in text
        assert "运行" in text and "练习" in text
        assert page.evaluate(TOFU, ["运行管理资源内存练习通过"]) == [], \
            "Chinese is drawn as boxes: install a CJK font (fonts-noto-cjk)"
        page.screenshot(path=str(shot))
    except Exception:
        page.screenshot(path=str(shot.with_name("zh_CN-00_start_here-failure.png")))
        raise
