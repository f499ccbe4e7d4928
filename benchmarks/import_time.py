"""``import acl_lab`` and the first view cell of a chapter, against ``import numpy``, each
in fresh interpreters.

The import figure is the import statement alone (interpreter start-up excluded).
``import acl_lab`` should not need numpy (the simulator loads on first use); -X importtime
tells whether it does. The first view cell is what a learner waits for the first time a
notebook shows a picture: importing the view, building it and drawing it (its widget and
the SVG saved beside it). The interpreter has first loaded what a Jupyter kernel holds
before that cell (IPython, ipykernel) and run the chapter's earlier cells (the simulator),
untimed; goal: at most 3x ``import numpy``.
"""
from __future__ import annotations

import statistics

from . import Row, ms, run_python

RUNS = 7
GOAL = 2.0
VIEW_GOAL = 3.0
KERNEL = "import IPython, ipykernel.ipkernel\n"
EARLIER_CELLS = (
    "import acl_lab\n"
    "from acl_lab.constants import *\n"
    "acl = acl_lab.load()\n"
    "acl_lab.check(acl.init())\n"
    "acl_lab.check(acl.rt.set_device(0))\n"
)
#: view -> (its chapter's earlier cells, the view cell)
VIEW_CELLS = {
    "PoolView": ("from acl_lab.pool import MemoryPool\n"
                 "pool = MemoryPool(acl, 16384)\n"
                 "ptrs = [pool.alloc(n) for n in (100, 1, 300, 2000)]\n",
                 "from acl_lab.widgets import PoolView\n"
                 "PoolView(pool)._repr_mimebundle_()\n"),
    "StreamTimeline": ("stream, _ = acl.rt.create_stream()\n"
                       "dev, _ = acl.rt.malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST)\n"
                       "for i in range(6):\n"
                       "    acl.rt.memset_async(dev, 4096, i, 4096, stream)\n",
                       "from acl_lab.widgets import StreamTimeline\n"
                       "StreamTimeline()._repr_mimebundle_()\n"),
    "MemoryMap": ("import numpy as np\n"
                  "host, _ = acl.rt.malloc_host(512)\n"
                  "blocks = [acl.rt.malloc(512, p)[0] for p in (0, 1, 2)]\n"
                  "media, _ = acl.media.dvpp_malloc(512)\n"
                  "samples = np.zeros(512, dtype=np.uint8)\n"
                  "acl.util.numpy_to_ptr(samples)\n",
                  "from acl_lab.widgets import MemoryMap\n"
                  "MemoryMap()._repr_mimebundle_()\n"),
    "CopyMap": ("stream, _ = acl.rt.create_stream()\n"
                "host, _ = acl.rt.malloc_host(4096)\n"
                "dev, _ = acl.rt.malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST)\n"
                "dev2, _ = acl.rt.malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST)\n"
                "for dst, src, kind in ((dev, host, 1), (dev2, dev, 3), (host, dev2, 2)):\n"
                "    acl.rt.memcpy(dst, 4096, src, 4096, kind)\n"
                "acl.rt.memcpy_async(host, 4096, dev, 4096, 2, stream)\n",
                "from acl_lab.widgets import CopyMap\n"
                "CopyMap()._repr_mimebundle_()\n"),
    "PictureView": ("from acl_lab.exercises.ch09 import _decode\n"     # chapter 09: PIL too
                    "decoded = _decode(acl)[-1]\n",
                    "from acl_lab.widgets import PictureView\n"
                    "PictureView(acl, decoded)._repr_mimebundle_()\n"),
    "SelfTest": ("from acl_lab import exercises\n",
                 "exercises.self_test('05')._repr_mimebundle_()\n"),
}


def _seconds(timed: str, setup: str = "") -> float:
    code = (f"{setup}import time\nt0 = time.perf_counter()\nexec({timed!r})\n"
            f"print(time.perf_counter() - t0)")
    return float(run_python(code).stdout)


def _imports_numpy(module: str) -> bool:
    log = run_python(f"import {module}", "-X", "importtime").stderr
    return any(line.rsplit("|", 1)[-1].strip() == "numpy" for line in log.splitlines())


def run() -> list[Row]:
    cases = {"acl_lab": ("import acl_lab", ""), "numpy": ("import numpy", "")}
    cases.update({view: (cell, KERNEL + EARLIER_CELLS + earlier)
                  for view, (earlier, cell) in VIEW_CELLS.items()})
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(RUNS):   # interleaved, so all see the same machine load
        for name, (timed, setup) in cases.items():
            times[name].append(_seconds(timed, setup))
    best = {m: min(s) for m, s in times.items()}
    median = {m: statistics.median(s) for m, s in times.items()}
    numpy = f"import numpy {ms(best['numpy'])} (median {ms(median['numpy'])})"
    ratio = best["acl_lab"] / best["numpy"]
    numpy_too = "imports numpy" if _imports_numpy("acl_lab") else "numpy not imported"
    rows = [Row("import acl_lab (fresh interpreter)",
                f"{ms(best['acl_lab'])} (median {ms(median['acl_lab'])}; {numpy_too})",
                numpy, ratio, f"<= {GOAL:g}x", ratio <= GOAL)]
    for view in VIEW_CELLS:
        ratio = best[view] / best["numpy"]
        rows.append(Row(f"first view cell: import + build + draw {view}",
                        f"{ms(best[view])} (median {ms(median[view])})", numpy, ratio,
                        f"<= {VIEW_GOAL:g}x", ratio <= VIEW_GOAL))
    return rows
