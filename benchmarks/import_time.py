"""``import acl_lab`` against ``import numpy``, each in fresh interpreters.

The figure is the import statement alone (interpreter start-up excluded). ``import acl_lab``
should not need numpy (the simulator loads on first use); -X importtime tells whether it does.
"""
from __future__ import annotations

import statistics

from . import Row, ms, run_python

RUNS = 7
GOAL = 2.0


def _import_seconds(module: str) -> float:
    code = (f"import time; t0 = time.perf_counter(); import {module}; "
            f"print(time.perf_counter() - t0)")
    return float(run_python(code).stdout)


def _imports_numpy(module: str) -> bool:
    log = run_python(f"import {module}", "-X", "importtime").stderr
    return any(line.rsplit("|", 1)[-1].strip() == "numpy" for line in log.splitlines())


def run() -> list[Row]:
    times = {"acl_lab": [], "numpy": []}
    for _ in range(RUNS):   # interleaved, so both see the same machine load
        for module, samples in times.items():
            samples.append(_import_seconds(module))
    best = {m: min(s) for m, s in times.items()}
    median = {m: statistics.median(s) for m, s in times.items()}
    ratio = best["acl_lab"] / best["numpy"]
    numpy_too = "imports numpy" if _imports_numpy("acl_lab") else "numpy not imported"
    return [Row("import acl_lab (fresh interpreter)",
                f"{ms(best['acl_lab'])} (median {ms(median['acl_lab'])}; {numpy_too})",
                f"import numpy {ms(best['numpy'])} (median {ms(median['numpy'])})",
                ratio, f"<= {GOAL:g}x", ratio <= GOAL)]
