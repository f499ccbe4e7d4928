"""acl.rt.memcpy of 256 MiB device -> device against np.copyto of the same bytes.

Steady state: both device buffers already touched, so the copy is one numpy assignment plus
the simulator's checks and the trace. First touch: fresh buffers, whose 64 KiB chunks are
filled with garbage when first read or written; compared with np.copyto between fresh
np.empty arrays (which page-faults too). Simulator and numpy timings alternate, so both see
the same machine.
"""
from __future__ import annotations

import numpy as np

import acl_lab
from acl_lab.constants import ACL_MEMCPY_DEVICE_TO_DEVICE

from . import Row, fresh_acl, malloc, ms, timed

NBYTES = 256 << 20
REPEAT = 7
FIRST_TOUCH_REPEAT = 3
GOAL = 1.3


def _gbps(seconds: float) -> str:
    return f"{NBYTES / seconds / 1e9:.1f} GB/s"


def _np_fresh_copy() -> None:
    np.copyto(np.empty(NBYTES, np.uint8), np.empty(NBYTES, np.uint8))


def run() -> list[Row]:
    acl = fresh_acl()

    def copy(dst, src):
        acl_lab.check(acl.rt.memcpy(dst, NBYTES, src, NBYTES, ACL_MEMCPY_DEVICE_TO_DEVICE))

    first, np_first = [], []
    for _ in range(FIRST_TOUCH_REPEAT):   # free + malloc again makes the chunks fresh again
        dst, src = malloc(acl, NBYTES), malloc(acl, NBYTES)
        first.append(timed(lambda: copy(dst, src)))
        for p in (dst, src):
            acl_lab.check(acl.rt.free(p))
        np_first.append(timed(_np_fresh_copy))

    dst, src = malloc(acl, NBYTES), malloc(acl, NBYTES)
    copy(dst, src)
    a, b = np.full(NBYTES, 1, np.uint8), np.full(NBYTES, 2, np.uint8)
    steady, np_steady = [], []
    for _ in range(REPEAT):
        steady.append(timed(lambda: copy(dst, src)))
        np_steady.append(timed(lambda: np.copyto(b, a)))
    acl_lab.reset()   # drops the simulated process and the RAM its storage held

    ratio = min(steady) / min(np_steady)
    return [
        Row("memcpy 256 MiB D2D, steady state", f"{ms(min(steady))} ({_gbps(min(steady))})",
            f"np.copyto {ms(min(np_steady))}", ratio, f"<= {GOAL}x", ratio <= GOAL),
        Row("memcpy 256 MiB D2D, first touch",
            f"{ms(min(first))} ({_gbps(min(first))}; very first {ms(first[0])})",
            f"np.copyto fresh {ms(min(np_first))}", min(first) / min(np_first)),
    ]
