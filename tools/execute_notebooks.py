"""Re-execute notebooks in place, top to bottom in a fresh kernel, so their committed
outputs are the ones nbval will compare against.

    .venv/bin/python tools/execute_notebooks.py                 # every notebook
    .venv/bin/python tools/execute_notebooks.py notebooks/03_*.ipynb
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def execute(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}},
                            allow_errors=False)
    client.execute()
    for cell in nb.cells:          # timing metadata changes every run: keep it out of git
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    print(f"executed {path.relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    # a fresh progress store: what a self-test shows must not depend on this machine's
    # learner (the kernels inherit the environment)
    with tempfile.TemporaryDirectory(prefix="acl_lab_home-") as home:
        os.environ["ACL_LAB_HOME"] = home
        paths = [Path(p).resolve() for p in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
        for p in paths:
            execute(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
