"""Every widget renders in a real JupyterLab, in headless Chromium, and answers a click.

Starts JupyterLab on loopback (no token, no XSRF check, autosave off, settings and
runtime files in a temporary directory), opens a notebook that shows each widget, runs
it, fails on "Error displaying widget" / "model not found", clicks "allocate" in the pool
view and picks a task in the capture graph, waits for the kernel's answers, and saves a
screenshot to test-artifacts/widgets-jupyterlab.png.

Needs Debian's chromium (`apt-get install chromium`) and Playwright (the `test` extra).
Without them the test fails when CI=true and is skipped elsewhere.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACT = ROOT / "test-artifacts" / "widgets-jupyterlab.png"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]
WIDGET_ERRORS = ("Error displaying widget", "model not found")
CELLS = [   # the first cell may run twice (see run_all_cells), so it starts a fresh process
    "import acl_lab\n"
    "acl_lab.reset()\n"
    "from acl_lab.pool import MemoryPool\n"
    "from acl_lab.widgets import (AlignmentExplorer, CaptureGraph, MemoryGauge, PoolView,\n"
    "                             StreamTimeline)\n"
    "acl = acl_lab.load()\n"
    "acl_lab.check(acl.init())\n"
    "acl_lab.check(acl.rt.set_device(0))\n"
    "pool = MemoryPool(acl, 4096)\n"
    "ptrs = [pool.alloc(n) for n in (100, 1, 300)]\n"
    "stream, _ = acl.rt.create_stream()\n"
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
    "CaptureGraph(model)",
]
# Lab settings: no autosave (the test must not write the notebook), no kernel dialog, no
# news or extension manager (no network), every cell rendered (no windowing, so the
# screenshot shows all).
SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
    "@jupyterlab/extensionmanager-extension/plugin": {"enabled": False},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none",
                                               "autoStartDefaultKernel": True},
}


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


@pytest.fixture(scope="module")
def chromium_path():
    return require_browser_tools()


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


@pytest.fixture
def lab(tmp_path):
    """URL of a JupyterLab serving ``tmp_path``, where widgets.ipynb shows every widget."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, tmp_path / "widgets.ipynb")
    home = tmp_path / ".home"
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
         "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={tmp_path}",
         "--allow-root", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly"],
        env=env, stdout=subprocess.DEVNULL, stderr=open(home / "lab.log", "w"))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not start:\n" + (home / "lab.log").read_text())
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def kernel_idle(lab: str) -> bool:
    with urllib.request.urlopen(f"{lab}/api/kernels", timeout=2) as r:
        return any(k["execution_state"] == "idle" for k in json.load(r))


def run_all_cells(page, lab: str, within_s: float = 40) -> None:
    """Run > Run All Cells once the kernel is up, again until every cell is queued: a
    click made while the kernel's connection is still being set up can be lost."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + within_s
    page.wait_for_function(f"document.querySelectorAll('.jp-Notebook .jp-Cell').length"
                           f" == {len(CELLS)}", timeout=30_000)
    while not kernel_idle(lab) and time.monotonic() < deadline:
        time.sleep(0.3)
    while True:
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator("[data-command='runmenu:run-all']").click()
        try:
            page.wait_for_function("Array.from(document.querySelectorAll('.jp-InputPrompt'))"
                                   ".every(p => !p.innerText.includes('[ ]'))", timeout=3_000)
            return
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise


def test_every_widget_renders_and_answers(chromium_path, lab):
    from playwright.sync_api import sync_playwright

    ARTIFACT.parent.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, headless=True,
                                    args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 2900})
        try:
            page.goto(f"{lab}/lab/tree/widgets.ipynb")
            run_all_cells(page, lab)
            # PoolView, AlignmentExplorer, StreamTimeline, CaptureGraph pictures; gauge bars
            page.wait_for_function(
                "document.querySelectorAll('.jp-OutputArea-output img.widget-image').length >= 4"
                " && document.querySelectorAll('.jp-OutputArea-output .widget-hprogress')"
                ".length >= 3", timeout=30_000)
            text = page.inner_text(".jp-Notebook")
            for error in WIDGET_ERRORS + ("Traceback",):
                assert error not in text, f"{error!r} in the notebook:\n{text}"
            assert page.locator(".jp-OutputArea-output").count() == 5
            assert "3 segments" in text and "get_mem_info" in text
            assert "2 tasks on 1 stream" in text and "2 replays" in text
            picture = page.locator(".jp-OutputArea-output img.widget-image").first
            shown = picture.get_attribute("src")
            page.locator("button", has_text="allocate").click()      # a round trip to the kernel
            page.wait_for_function(
                "([shown]) => document.querySelector('.jp-Notebook').innerText"
                ".includes('4 segments') && document.querySelector("
                "'.jp-OutputArea-output img.widget-image').src !== shown",
                arg=[shown], timeout=15_000)
            # CaptureGraph, the last output: pick its second task, see it outlined and described
            graph = page.locator(".jp-OutputArea-output").last
            assert "seq = 1" in graph.locator("code").last.inner_text()
            shown = graph.locator("img.widget-image").get_attribute("src")
            graph.locator("select").select_option(index=1)
            page.wait_for_function(
                "([shown]) => { const out = Array.from(document.querySelectorAll("
                "'.jp-OutputArea-output')).pop(); return out.innerText.includes('seq = 2')"
                " && out.querySelector('img.widget-image').src !== shown; }",
                arg=[shown], timeout=15_000)
            page.screenshot(path=str(ARTIFACT), full_page=True)
        except Exception:
            page.screenshot(path=str(ARTIFACT.with_name("widgets-jupyterlab-failure.png")))
            raise
        finally:
            browser.close()
