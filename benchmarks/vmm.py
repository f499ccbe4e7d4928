"""Chapter 10: an expandable segment against chapter 05's fixed pool on one trace of growing
and shrinking tensors (acl_lab.caching.TRACE), and map + unmap pairs per second.

The allocator row compares what each holds of the device: the pool is sized, before the
first tensor, to the smallest that serves the whole trace, and holds it throughout; the
segment holds its mapped 2 MiB chunks, and gives idle ones back at empty_cache. Both rows
name their peak, their mean over the trace's steps, what is held at the end and the worst
fragmentation inside what is held. The map row times aclrtMapMem + aclrtUnmapMem of one
2 MiB handle in a reserved range (a segment growing and shrinking by a chunk), traced and
untraced, best of many short windows.
"""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C
from acl_lab.caching import ExpandableSegment, replay, smallest_pool
from acl_lab.pool import MemoryPool

from . import Row, fresh_acl, timed

MiB = 1 << 20
PAIRS, WINDOWS = 500, 20
PROP = {"handleType": 0, "allocationType": 0, "memAttr": C.ACL_HBM_MEM_HUGE,
        "location": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}, "reserve": 0}


def _held(rows) -> str:
    held = [r[2] / MiB for r in rows]
    frag = max(r[3] for r in rows)
    return (f"peak {max(held):.0f} MiB, mean {sum(held) / len(held):.1f} MiB, end "
            f"{held[-1]:.0f} MiB, fragmentation <= {frag:.2f}")


def _allocators() -> list[Row]:
    acl = fresh_acl()
    pool = MemoryPool(acl, smallest_pool(acl))
    pool_rows = replay(pool)
    pool.close(force=True)
    segment = ExpandableSegment(acl, 1 << 30)
    seg_rows = replay(segment)
    segment.close()
    mean = [sum(r[2] for r in rows) / len(rows) for rows in (seg_rows, pool_rows)]
    return [Row("expandable segment vs fixed pool, one trace (held)", _held(seg_rows),
                f"pool {_held(pool_rows)}", mean[0] / mean[1])]


def _map_pairs(traced: bool):
    acl = fresh_acl(traced)
    va, ret = acl.rt.reserve_mem_address(2 * MiB, 0, 0, 0)
    handle, ret = acl.rt.malloc_physical(2 * MiB, PROP, 0)
    map_mem, unmap_mem = acl.rt.map_mem, acl.rt.unmap_mem

    def pairs():
        for _ in range(PAIRS):
            map_mem(va, 2 * MiB, 0, handle, 0)
            unmap_mem(va)
    return pairs


def _rate(seconds: float) -> str:
    return f"{1 / seconds / 1e3:.1f}k pairs/s ({seconds * 1e6:.1f} us)"


def _mapping() -> list[Row]:
    loops = {traced: _map_pairs(traced) for traced in (True, False)}
    best = {traced: float("inf") for traced in loops}
    for _ in range(WINDOWS):
        for traced, loop in loops.items():
            best[traced] = min(best[traced], timed(loop) / PAIRS)
    return [Row("map_mem + unmap_mem of a 2 MiB chunk", _rate(best[True]),
                f"untraced {_rate(best[False])}", best[True] / best[False])]


def run() -> list[Row]:
    rows = _allocators() + _mapping()
    acl_lab.reset()
    return rows
