"""Peak memory and CPU time of each chapter's kernel, for sizing workshop servers.

Runs every chapter top to bottom in a fresh kernel (as a learner's "Run all" does), then asks
that kernel for its own peak resident set size and CPU time (resource.getrusage). Also
measures an idle JupyterLab server, the other process each learner has on a hub.

    .venv/bin/python tools/measure_chapters.py            # every chapter, then the server
    .venv/bin/python tools/measure_chapters.py notebooks/06_*.ipynb --no-server

Prints a Markdown table (docs/workshops.md quotes it).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
USAGE = ("import resource as _r; _u = _r.getrusage(_r.RUSAGE_SELF); "
         "print('USAGE', _u.ru_maxrss, _u.ru_utime + _u.ru_stime)")
MiB_PER_KiB = 1 / 1024            # Linux reports ru_maxrss in KiB


def kernel_usage(cells: list[str], cwd: Path) -> tuple[float, float, float]:
    """(peak RSS MiB, CPU seconds, wall seconds) of a fresh kernel that ran ``cells``."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells]
                                  + [nbformat.v4.new_code_cell(USAGE)])
    started = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()
    wall = time.perf_counter() - started
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    rss_kib, cpu = re.search(r"USAGE (\d+) ([\d.]+)", text).groups()
    return int(rss_kib) * MiB_PER_KiB, float(cpu), wall


def chapter_usage(path: Path) -> tuple[float, float, float]:
    nb = nbformat.read(path, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    with tempfile.TemporaryDirectory() as work:     # chapters write files (models/) beside them
        return kernel_usage(code, Path(work))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: server extensions of the test extra (nbgrader): not in the workshop image, not measured
TEST_ONLY_EXTENSIONS = ("nbgrader.server_extensions.formgrader",
                        "nbgrader.server_extensions.validate_assignment",
                        "nbgrader.server_extensions.assignment_list",
                        "nbgrader.server_extensions.course_list")


def server_rss(settle_s: float = 8.0) -> float:
    """Resident MiB of an idle JupyterLab server (no kernel) a few seconds after start."""
    import psutil

    port = _free_port()
    with tempfile.TemporaryDirectory() as work:
        config = Path(work, "config")
        config.mkdir()
        (config / "jupyter_server_config.json").write_text(json.dumps(
            {"ServerApp": {"jpserver_extensions": dict.fromkeys(TEST_ONLY_EXTENSIONS, False)}}))
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
             "--ip=127.0.0.1", "--IdentityProvider.token=", "--allow-root",
             f"--ServerApp.root_dir={work}"],
            env={**os.environ, "JUPYTER_CONFIG_DIR": str(config)},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.5)
            time.sleep(settle_s)
            if server.poll() is not None:
                raise RuntimeError(f"the JupyterLab server exited ({server.returncode})")
            return psutil.Process(server.pid).memory_info().rss / (1 << 20)
        finally:
            server.terminate()
            server.wait(timeout=30)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--no-server", action="store_true", help="skip the JupyterLab server")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; one fresh kernel per row\n")
    print("| kernel | peak RSS (MiB) | CPU (s) | wall (s) |")
    print("|---|---:|---:|---:|")
    rows = [("`import acl_lab; acl_lab.load()` only",
             kernel_usage(["import acl_lab\nacl = acl_lab.load()"], ROOT))]
    print(f"| {rows[0][0]} | {rows[0][1][0]:.0f} | {rows[0][1][1]:.1f} | {rows[0][1][2]:.1f} |")
    for path in paths:
        rss, cpu, wall = chapter_usage(path.resolve())
        print(f"| {path.stem} | {rss:.0f} | {cpu:.1f} | {wall:.1f} |", flush=True)
    if not args.no_server:
        print(f"\nidle JupyterLab server (no kernel): {server_rss():.0f} MiB resident")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
