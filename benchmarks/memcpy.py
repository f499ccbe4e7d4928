"""acl.rt.memcpy of 256 MiB device -> device against np.copyto of the same bytes.

Steady state: two blocks allocated one after the other from one pool, so the second starts
256 MiB + 64 B above the first (the pool's 64-byte placement), both already written; the
copy runs both ways, low -> high and high -> low (glibc's memmove is slow one way when the
two host addresses are 1..256 bytes apart modulo 4 KiB). First touch: memset of a fresh
256 MiB block against np.ones of the same size (both take the pages from the kernel). Per
call: a 64 B device -> device copy through the traced acl. Simulator and numpy timings
alternate, so both see the same machine.
"""
from __future__ import annotations

import numpy as np

import acl_lab
from acl_lab.constants import ACL_MEMCPY_DEVICE_TO_DEVICE

from . import Row, best_of, fresh_acl, malloc, ms, timed

NBYTES = 256 << 20
REPEAT = 7
FIRST_TOUCH_REPEAT = 3
SMALL, SMALL_CALLS = 64, 2_000
GOAL, FIRST_TOUCH_GOAL = 1.3, 2.0


def _gbps(seconds: float) -> str:
    return f"{NBYTES / seconds / 1e9:.1f} GB/s"


def run() -> list[Row]:
    acl = fresh_acl()

    def copy(dst, src, n=NBYTES):
        acl_lab.check(acl.rt.memcpy(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE))

    def memset(ptr):
        acl_lab.check(acl.rt.memset(ptr, NBYTES, 7, NBYTES))

    first, np_first = [], []
    for _ in range(FIRST_TOUCH_REPEAT):   # free + malloc again makes the block fresh again
        block = malloc(acl, NBYTES)
        first.append(timed(lambda: memset(block)))
        acl_lab.check(acl.rt.free(block))
        np_first.append(timed(lambda: np.ones(NBYTES, np.uint8)))

    low, high = malloc(acl, NBYTES), malloc(acl, NBYTES)
    assert high - low == NBYTES + 64, hex(high - low)      # the layout this row is about
    memset(low), memset(high)
    a, b = np.full(NBYTES, 1, np.uint8), np.full(NBYTES, 2, np.uint8)
    up, down, np_steady = [], [], []
    for _ in range(REPEAT):
        up.append(timed(lambda: copy(high, low)))
        down.append(timed(lambda: copy(low, high)))
        np_steady.append(timed(lambda: np.copyto(b, a)))

    small_dst, small_src = malloc(acl, SMALL), malloc(acl, SMALL)
    per_call = best_of(lambda: [copy(small_dst, small_src, SMALL) for _ in range(SMALL_CALLS)],
                       5) / SMALL_CALLS
    acl_lab.reset()   # drops the simulated process and the RAM its storage held

    rows = []
    for label, times in (("low -> high (dst = src + 256 MiB + 64 B)", up),
                         ("high -> low (dst = src - 256 MiB - 64 B)", down)):
        ratio = min(times) / min(np_steady)
        rows.append(Row(f"memcpy 256 MiB D2D, {label}", f"{ms(min(times))} ({_gbps(min(times))})",
                        f"np.copyto {ms(min(np_steady))}", ratio, f"<= {GOAL}x", ratio <= GOAL))
    ratio = min(first) / min(np_first)
    rows += [
        Row("memset 256 MiB, first touch of a fresh block",
            f"{ms(min(first))} (very first {ms(first[0])})",
            f"np.ones {ms(min(np_first))}", ratio, f"<= {FIRST_TOUCH_GOAL}x",
            ratio <= FIRST_TOUCH_GOAL),
        Row("memcpy 64 B D2D, traced, per call", f"{per_call * 1e6:.1f} us"),
    ]
    return rows
