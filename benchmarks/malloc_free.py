"""acl.rt.malloc + acl.rt.free pairs per second while 1k, 10k or 100k allocations are live.

Measured through the traced ``acl`` learners get from acl_lab.load(), and through the
simulator's own facade (no trace), so the cost of tracing shows. Two heaps:
- packed: the live blocks sit end to end, so each pair takes and returns the free tail;
- fragmented: every other block of 2N was freed, so each pair lands in a hole between live
  blocks (best fit), the case where sorted address maps pay for their size.
Many short timed windows, traced and untraced interleaved: the best window is the one the
rest of the machine disturbed least.
"""
from __future__ import annotations

from typing import Callable

import acl_lab
from acl_lab.constants import ACL_MEM_MALLOC_HUGE_FIRST

from . import Row, fresh_acl, malloc, timed

LIVE = (1_000, 10_000, 100_000)
SIZES = (64, 200, 1_000, 4_096, 10_000, 65_536)   # all <= 1 MiB: the HBM normal-page pool
PAIRS = 1_000      # per timed window
WINDOWS = 30
GOAL_AT = 10_000
GOAL_RATE = {False: 200_000, True: 100_000}   # packed, fragmented heap (issue 12)
GOAL_GROWTH = 1.5


def _pairs(traced: bool, live: int, fragmented: bool) -> Callable[[], None]:
    """A fresh process holding ``live`` allocations, and a loop of PAIRS malloc + free."""
    acl = fresh_acl(traced)
    held = [malloc(acl, SIZES[i % len(SIZES)]) for i in range(2 * live if fragmented else live)]
    if fragmented:
        for p in held[1::2]:
            acl_lab.check(acl.rt.free(p))
    rt_malloc, rt_free = acl.rt.malloc, acl.rt.free
    sizes = [SIZES[i % len(SIZES)] for i in range(PAIRS)]

    def pairs():
        for size in sizes:
            ptr, _ = rt_malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            rt_free(ptr)
    return pairs


def _pair_seconds(live: int, fragmented: bool) -> dict[bool, float]:
    """Best time of one pair, traced (True) and untraced (False)."""
    loops = {traced: _pairs(traced, live, fragmented) for traced in (True, False)}
    best = {traced: float("inf") for traced in loops}
    for _ in range(WINDOWS):
        for traced, loop in loops.items():
            best[traced] = min(best[traced], timed(loop) / PAIRS)
    return best


def _rate(seconds: float) -> str:
    return f"{1 / seconds / 1e3:.0f}k pairs/s ({seconds * 1e6:.2f} us)"


def run() -> list[Row]:
    rows = []
    for fragmented in (False, True):
        heap = "fragmented" if fragmented else "packed"
        cost = [_pair_seconds(n, fragmented) for n in LIVE]
        for n, c in zip(LIVE, cost):
            goal = n == GOAL_AT
            rows.append(Row(f"malloc+free, {n // 1000}k live, {heap}", _rate(c[True]),
                            f"untraced {_rate(c[False])}", c[True] / c[False],
                            f">= {GOAL_RATE[fragmented] // 1000}k/s" if goal else "",
                            1 / c[True] >= GOAL_RATE[fragmented] if goal else None))
        growth = {traced: cost[-1][traced] / cost[0][traced] for traced in (True, False)}
        rows.append(Row(f"malloc+free cost growth 1k->100k, {heap}", f"x{growth[True]:.2f}",
                        f"untraced x{growth[False]:.2f}", None, f"<= {GOAL_GROWTH}x",
                        growth[True] <= GOAL_GROWTH))
    acl_lab.reset()
    return rows
