"""Build the JupyterLite site: the chapters in a browser tab, no server (``make lite``).

    make lite                                          # builds into build/lite/site
    .venv/bin/python tools/build_lite.py [OUTPUT]

The chapters (notebooks/, and notebooks/zh_CN/ when present) become the site's files, each
with one setup cell first that installs the kit in the browser's Python (``%pip install
acl_lab``, answered from the wheels shipped with the site). Chapters listed in EXCLUDED
cannot run there and are left out; the site's README says why. Wheels: acl_lab itself and
the pure-Python packages it needs that Pyodide does not ship (ipywidgets and its comm and
jupyterlab_widgets), at the versions installed here, so the widget frontend matches. Only
the package registry is used at build time: the Pyodide runtime is fetched by the site, from
its CDN, when a learner opens a notebook.
"""
from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "lite"
#: chapter -> why it is not in the site
EXCLUDED = {
    "08_offline_inference.ipynb": "it converts and runs ONNX models, and onnx has no "
                                  "WebAssembly (Pyodide) build; its callback thread "
                                  "(acl.util.start_thread) needs real threads too",
    "09_media_processing.ipynb": "it feeds its pictures to chapter 08's ONNX model, and onnx "
                                 "has no WebAssembly (Pyodide) build",
}
#: what Pyodide does not ship and acl_lab needs, as installed here (pinned to match the
#: widget extension the site carries)
SHIPPED = ("ipywidgets", "comm", "jupyterlab_widgets")
SETUP_TAG = "lite-setup"
SETUP = ("# JupyterLite (Python in this browser tab): install the kit shipped with this site\n"
         "%pip install acl_lab")
LANGS = ("", "zh_CN")
#: lab extensions installed here that need a Jupyter server: taken out of the site
SERVER_ONLY = ("@jupyter/nbgrader",)


def chapters() -> list[tuple[Path, str]]:
    """(notebook, folder in the site) for every chapter the site carries."""
    found = []
    for lang in LANGS:
        folder = ROOT / "notebooks" / lang
        found += [(p, lang) for p in sorted(folder.glob("*.ipynb")) if p.name not in EXCLUDED]
    return found


def with_setup_cell(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    cell = nbformat.v4.new_code_cell(SETUP, metadata={"tags": [SETUP_TAG]})
    cell.id = SETUP_TAG
    nb.cells.insert(0, cell)
    return nb


def contents(into: Path) -> None:
    shutil.rmtree(into, ignore_errors=True)
    for path, lang in chapters():
        (into / lang).mkdir(parents=True, exist_ok=True)
        nbformat.write(with_setup_cell(path), into / lang / path.name)
    left_out = "\n".join(f"- `{name}`: {why}." for name, why in EXCLUDED.items())
    (into / "README.md").write_text(
        "# acl_lab in your browser (JupyterLite)\n\n"
        "Every chapter runs here on the simulator, in Python compiled to WebAssembly "
        "(Pyodide): nothing to install. Run each notebook's first cell first (it installs "
        "the kit in this tab). Threads cannot start in this Python: the chapters' "
        "\"another thread\" runs as a simulated thread (`acl_lab.run_in_thread`). "
        "Simulated memory is limited to 1 GiB of touched bytes, and one buffer below 2 GiB."
        f"\n\nNot in this site:\n{left_out}\n\nOpen those in JupyterLab (`make lab`) or "
        "on Binder.\n", encoding="utf-8")


def wheels(into: Path) -> list[Path]:
    shutil.rmtree(into, ignore_errors=True)
    pins = [f"{d}=={importlib.metadata.version(d)}" for d in SHIPPED]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(into), str(ROOT), *pins], check=True)
    return sorted(into.glob("*.whl"))


def build(output: Path) -> Path:
    WORK.mkdir(parents=True, exist_ok=True)
    contents(WORK / "contents")
    args = [sys.executable, "-m", "jupyter", "lite", "build", "--no-sourcemaps", "--contents",
            str(WORK / "contents"), "--output-dir", str(output)]
    for wheel in wheels(WORK / "wheels"):
        args += ["--piplite-wheels", str(wheel)]
    shutil.rmtree(output, ignore_errors=True)
    subprocess.run(args, check=True, cwd=WORK)
    without_server_extensions(output)
    return output


def without_server_extensions(site: Path) -> None:
    """Take out the lab extensions that need a Jupyter server (they come along from this
    environment: nbgrader's menus would only fail in a browser tab)."""
    config_path = site / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    data = config["jupyter-config-data"]
    data["federated_extensions"] = [e for e in data["federated_extensions"]
                                    if e["name"] not in SERVER_ONLY]
    config_path.write_text(json.dumps(config, indent=2))
    for name in SERVER_ONLY:
        shutil.rmtree(site / "extensions" / name, ignore_errors=True)


def main(argv: list[str]) -> int:
    output = Path(argv[0]).resolve() if argv else WORK / "site"
    build(output)
    print(f"JupyterLite site in {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}"
          f" — serve it with: python -m http.server -d {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
