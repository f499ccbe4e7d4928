"""Performance figures for acl_lab, printed as one table: ``python -m benchmarks [name ...]``.

Each module measures one goal of the simulator and returns rows; nothing here asserts, so a
slow machine prints a slow figure instead of failing a build. Timings are best-of-N wall-clock
times taken in the same run as their reference (numpy, the untraced simulator), so the ratios
mean more than the raw numbers.
"""
from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import acl_lab
from acl_lab.constants import ACL_MEM_MALLOC_HUGE_FIRST

PROFILE = "910b"
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Row:
    benchmark: str
    figure: str                 # the measurement, with its unit
    compared: str = ""          # what it is compared with
    ratio: float | None = None  # figure / compared (a cost ratio: lower is better)
    goal: str = ""
    met: bool | None = None     # None where the row carries no goal

    HEADER = ("benchmark", "figure", "compared with", "ratio", "goal", "verdict")

    def cells(self) -> tuple[str, ...]:
        ratio = "" if self.ratio is None else f"{self.ratio:.2f}x"
        verdict = "" if self.met is None else ("met" if self.met else "MISSED")
        return (self.benchmark, self.figure, self.compared, ratio, self.goal, verdict)


def table(rows: list[Row]) -> str:
    lines = [Row.HEADER] + [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(Row.HEADER))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
                     for line in lines)


def timed(fn: Callable[[], object]) -> float:
    """Wall-clock seconds of one call of ``fn()``."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` timings of ``fn()``: the run least disturbed by the machine."""
    return min(timed(fn) for _ in range(repeat))


def run_python(code: str, *flags: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter from the repository root (so acl_lab imports)."""
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=ROOT, check=True,
                          capture_output=True, text=True)


def fresh_acl(traced: bool = True):
    """A fresh simulated process with device 0 set: the traced ``acl`` learners get from
    ``acl_lab.load()``, or (``traced=False``) the simulator's own facade without the trace."""
    if traced:
        acl_lab.reset(PROFILE)
        acl = acl_lab.load(profile=PROFILE)
    else:
        from acl_lab.sim.facade import Simulator
        from acl_lab.sim.profiles import get_profile
        acl = Simulator(get_profile(PROFILE)).acl
    acl_lab.check(acl.init())
    acl_lab.check(acl.rt.set_device(0))
    return acl


def malloc(acl, nbytes: int) -> int:
    ptr, ret = acl.rt.malloc(nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
    acl_lab.check(ret)
    return ptr


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"
