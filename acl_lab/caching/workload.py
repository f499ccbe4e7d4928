"""One trace of growing and shrinking tensors, replayed on chapter 05's fixed pool and on an
expandable segment: what each holds, uses and wastes after every step.

The trace is an inference server's day in miniature: a cache that grows by one larger
tensor per request while each request's activations come and go, then the requests end and
their tensors go, longest-lived last. A fixed pool must be sized for the worst moment up
front and keeps it; its freed blocks are too small for the next, larger tensor (chapter 05's
fragmentation). The segment maps 2 MiB chunks as tensors arrive and gives idle chunks back
at ``empty_cache()``.
"""
from __future__ import annotations

from acl_lab.errors import AclLabError
from acl_lab.pool import MemoryPool

MiB = 1 << 20
#: (op, name, bytes): "+" allocates, "-" frees, "empty" empties the segment's cache
TRACE: tuple = tuple(
    [step for i in range(1, 7) for step in (
        ("+", f"kv{i}", i * 3 * MiB // 2),             # the cache grows, one bigger tensor
        ("+", f"act{i}", 5 * MiB),                      # the request's activations ...
        ("-", f"act{i}", 0),                            # ... gone when it ends
        ("-", f"kv{i - 1}", 0) if i > 1 else ("+", "weights", 4 * MiB))]
    + [("-", "kv6", 0), ("empty", "", 0), ("+", "big", 12 * MiB), ("-", "big", 0),
       ("-", "weights", 0), ("empty", "", 0)])


def replay(allocator, trace=TRACE):
    """Run ``trace`` on a MemoryPool or an ExpandableSegment; one row per step: (label, live
    bytes, device bytes held, fragmentation). A failed allocation stops with AclLabError."""
    ptrs, rows, live = {}, [], 0
    is_pool = isinstance(allocator, MemoryPool)
    for op, name, size in trace:
        if op == "+":
            ptrs[name] = allocator.alloc(size) if is_pool else allocator.malloc(size)
            live += size
        elif op == "-":
            allocator.free(ptrs.pop(name))
            live -= dict((n, s) for o, n, s in trace if o == "+")[name]
        elif not is_pool:
            allocator.empty_cache()
        held = allocator.footprint if is_pool else allocator.mapped
        frag = allocator.stats().fragmentation if is_pool else allocator.fragmentation()
        rows.append((f"{op}{name}" if op != "empty" else "empty_cache", live, held,
                     round(frag, 4)))
    for ptr in ptrs.values():
        allocator.free(ptr)
    return rows


def smallest_pool(acl, trace=TRACE, step: int = 2 * MiB) -> int:
    """The smallest MemoryPool (a multiple of ``step``) that serves the whole trace: what a
    fixed pool must take up front."""
    size = step
    while True:
        pool = MemoryPool(acl, size)
        try:
            replay(pool, trace)
            return size
        except AclLabError:
            size += step
        finally:
            pool.close(force=True)
