"""The first figure cell of a chapter against the same cell without its figure, in fresh
interpreters: what a learner waits for the first time a chapter draws a matplotlib figure
(importing matplotlib, building the figure, rendering its PNG) beyond the measurements the
cell makes anyway (``plot=False``: the same numbers, no figure). The interpreter has first
loaded what a Jupyter kernel holds (IPython, ipykernel) and run the chapter's earlier cells,
untimed. Goal: the figure costs at most 3x ``import numpy`` more than the cell without it.

A row without a goal shows the floor under it: importing what every figure needs
(matplotlib's Figure and its Agg canvas; no pyplot, no backend module of Jupyter's) in the
same interpreter state. The figure cannot cost less than that import.
"""
from __future__ import annotations

import statistics

from . import Row, ms, run_python
from .import_time import EARLIER_CELLS, KERNEL

RUNS = 7
GOAL = 3.0
#: what every figure imports: the floor of the first figure cell
MATPLOTLIB = ("from matplotlib.figure import Figure\n"
              "from matplotlib.backends.backend_agg import FigureCanvasAgg\n")
#: chapter -> (its earlier cells, the figure cell with ``{plot}`` for True / False)
CELLS = {
    "03 copy_time": ("", "figures.copy_time(acl, plot={plot})"),
    "06 replay_vs_eager": ("", "figures.replay_vs_eager(acl, plot={plot})"),
}


def _seconds(timed: str, setup: str) -> float:
    code = (f"{setup}import time\nt0 = time.perf_counter()\nexec({timed!r})\n"
            f"print(time.perf_counter() - t0)")
    return float(run_python(code).stdout)


def _cell(template: str, plot: bool) -> str:
    """The cell: with its figure rendered to PNG (what Jupyter shows), or the numbers only."""
    head = "from acl_lab import figures\n"
    return head + template.format(plot=plot) + (".png()\n" if plot else "\n")


def run() -> list[Row]:
    setup = KERNEL + EARLIER_CELLS
    cases = {"numpy": ("import numpy", ""), "matplotlib": (MATPLOTLIB, setup)}
    for name, (earlier, template) in CELLS.items():
        cases[f"{name} figure"] = (_cell(template, True), setup + earlier)
        cases[f"{name} numbers"] = (_cell(template, False), setup + earlier)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(RUNS):   # interleaved, so all see the same machine load
        for name, (timed, before) in cases.items():
            times[name].append(_seconds(timed, before))
    best = {m: min(s) for m, s in times.items()}
    median = {m: statistics.median(s) for m, s in times.items()}
    numpy = f"import numpy {ms(best['numpy'])} (median {ms(median['numpy'])})"
    rows = [Row("matplotlib's import alone (Figure + Agg canvas): the floor",
                f"{ms(best['matplotlib'])} (median {ms(median['matplotlib'])})", numpy,
                best["matplotlib"] / best["numpy"])]
    for name in CELLS:
        extra = best[f"{name} figure"] - best[f"{name} numbers"]
        ratio = extra / best["numpy"]
        rows.append(Row(f"first figure cell {name}: what the figure adds",
                        f"{ms(extra)} ({ms(best[f'{name} figure'])} with, "
                        f"{ms(best[f'{name} numbers'])} without)", numpy, ratio,
                        f"<= {GOAL:g}x", ratio <= GOAL))
    return rows
