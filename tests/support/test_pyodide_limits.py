"""The chapters as JupyterLite runs them: every chapter the site carries passes nbval with
Pyodide's limits imitated on CPython (ACL_LAB_PLATFORM=pyodide: threads cannot start, one
buffer per allocation under a 2 GiB cap, a 1 GiB budget), with the same outputs as in
JupyterLab; the chapter the site leaves out says why where it cannot run."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from acl_lab.support import pyodide as wasm

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import build_lite  # noqa: E402


def test_every_chapter_of_the_site_passes_nbval_under_pyodide_limits():
    chapters = [str(p.relative_to(ROOT)) for p, _ in build_lite.chapters()]
    assert len(chapters) >= 8
    env = {**os.environ, wasm.ENV: "pyodide"}
    env.pop("ACL_LAB_HOST_RAM", None)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:randomly", *chapters], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout.splitlines()[-1]


def test_chapter_08_says_why_it_cannot_run_where_onnx_is_missing(monkeypatch):
    monkeypatch.setenv(wasm.ENV, "pyodide")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "onnx" else real(name, *a))
    monkeypatch.delitem(sys.modules, "acl_lab.sample_models", raising=False)
    with pytest.raises(ModuleNotFoundError, match="no build for Pyodide.*JupyterLab"):
        import acl_lab.sample_models  # noqa: F401
    assert "08_offline_inference.ipynb" in build_lite.EXCLUDED
    assert "09_media_processing.ipynb" in build_lite.EXCLUDED      # it runs chapter 08's model
