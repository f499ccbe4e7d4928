"""Secondary allocation: one large block from ACL, cut into segments by rule 10.

Rule 10 (docs/rules.md#rule-10, from the CANN page 内存二次分配管理): when you take one
big block and divide it yourself, every segment of ``len`` bytes must

* occupy m = ALIGN_UP(len, 32) + 32 bytes, and
* start on a 64-byte boundary (the runtime rule), or a 128-byte boundary when media
  processing (DVPP) reads or writes it (the "dvpp" rule).

MemoryPool follows that rule over ANY backend: it only calls the pyACL-shaped ``acl`` it is
given (malloc / memset / memcpy / free), never the simulator, so the same notebook cell
runs on a real NPU. The bytes after each payload (the rounding plus the extra 32) hold
guard bytes; they are checked on ``free`` and on demand, so an overrun is reported with
the segment that caused it instead of silently corrupting its neighbour.

    pool = MemoryPool(acl, 1 << 20)              # 1 MiB from aclrtMallocAlign32
    a = pool.alloc(100)                           # 160 B segment, 64-byte aligned start
    pool.free(a)
    pool.close()

Which allocator backs the pool changes the numbers, as that page explains:

* aclrtMalloc adds its own 32 bytes after rounding, so a pool of ``size`` bytes costs the
  device ALIGN_UP(size,32)+32 (``pool.footprint``) and those extra bytes stay unusable;
  aclrtMallocAlign32 only rounds, which is why the page recommends it for pools.
* acldvppMalloc starts 128-byte aligned and also adds 32; the dvpp rule needs that start.
  Over 64-byte aligned memory (aclrtMalloc) a dvpp-rule pool may lose up to 64 bytes in
  front of its first segment.
* aclrtMallocHost memory is 64-byte aligned on the host; in ACL_DEVICE run mode it is
  device memory with no alignment promise, so the first segment may start further in.
Bytes lost that way show as an alignment "gap" in ``blocks()``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from acl_lab import constants as C
from acl_lab.align import DVPP_ALIGN, RUNTIME_ALIGN, align_up, segment_size
from acl_lab.errors import AclLabError, as_int
from acl_lab.support.freelist import FreeList
from acl_lab.support.interrupts import critical
from acl_lab.i18n import _, pgettext
from acl_lab.spec.memory_rules import ALLOCATORS as RULES_OF
from acl_lab.spec.codes import acl_lab_check

#: Start alignment of a segment, per rule.
RULES = {"runtime": RUNTIME_ALIGN, "dvpp": DVPP_ALIGN}
#: Value written into every padding byte; a changed byte means something wrote past a payload.
GUARD_BYTE = 0xFD
#: The smallest segment there is (len = 1): free blocks that cannot hold it are alignment gaps.
MIN_SEGMENT = segment_size(1)
#: Guard bytes of device memory are read back through a host buffer of this size.
STAGING_BYTES = 64 * 1024


@dataclass(frozen=True)
class Allocator:
    """How a pool takes and gives back its one big block, and what that block costs: the
    ACL allocator's rule (memory_rules.ALLOCATORS) and the two pyACL calls.

    ``footprint(size)`` is what the allocator takes from the device for ``size`` bytes;
    the pool may use only ``size`` of them (the rest is the runtime's own padding).
    """

    api: str             # memory_rules.ALLOCATORS key
    alloc: Callable      # (acl, size, policy) -> (ptr, ret)
    free: Callable       # (acl, ptr) -> ret

    @property
    def c_name(self) -> str:
        return RULES_OF[self.api].c_name

    def footprint(self, size: int) -> int:
        return RULES_OF[self.api].footprint(size)


ALLOCATORS = {
    # aclrtMalloc adds its own 32 bytes after rounding: the block costs ALIGN_UP(size,32)+32
    # although the pool may only use ``size`` of it.
    "malloc": Allocator("malloc", lambda acl, size, policy: acl.rt.malloc(size, policy),
                        lambda acl, ptr: acl.rt.free(ptr)),
    # What docs/rules.md#rule-10 recommends for pools: only rounds to 32, no extra padding.
    "malloc_align32": Allocator("malloc_align32",
                                lambda acl, size, policy: acl.rt.malloc_align32(size, policy),
                                lambda acl, ptr: acl.rt.free(ptr)),
    # Media-processing memory: 128-byte aligned start, ALIGN_UP(size,32)+32 taken.
    "dvpp_malloc": Allocator("dvpp_malloc", lambda acl, size, policy: acl.media.dvpp_malloc(size),
                             lambda acl, ptr: acl.media.dvpp_free(ptr)),
    # Pinned host memory (64-byte aligned) in ACL_HOST mode; in ACL_DEVICE mode it is
    # device memory with no alignment promise, so the first segment may start further in.
    "malloc_host": Allocator("malloc_host", lambda acl, size, policy: acl.rt.malloc_host(size),
                             lambda acl, ptr: acl.rt.free_host(ptr)),
}
_DEFAULT_ALLOCATOR = {"runtime": "malloc_align32", "dvpp": "dvpp_malloc"}


@dataclass(frozen=True)
class Segment:
    """One segment handed out by ``alloc``: ``length`` usable bytes in ``size`` (= m)."""

    id: int
    name: str
    start: int
    length: int
    size: int
    rule: str

    @property
    def end(self) -> int:
        return self.start + self.size

    @property
    def payload_end(self) -> int:
        """First byte after the payload: the guard bytes run from here to ``end``."""
        return self.start + self.length

    @property
    def rounding(self) -> int:
        """Bytes added by ALIGN_UP(len, 32)."""
        return align_up(self.length, 32) - self.length

    @property
    def label(self) -> str:
        return _("{name} at {start} ({length} B asked, {size} B taken)").format(
            name=self.name, start=f"0x{self.start:x}", length=self.length, size=self.size)


@dataclass(frozen=True)
class Block:
    """A stretch of the pool, by address: a ``segment``, usable ``free`` space, or a
    ``gap`` (free bytes too small, after alignment, to hold even a 1-byte segment)."""

    start: int
    size: int
    kind: str
    segment: Segment | None = None


@dataclass(frozen=True)
class PoolStats:
    """Byte accounting of a pool; ``used + free == capacity`` always holds.

    ``padding`` is what the rule adds to the lengths asked (rounding plus the extra 32 per
    segment); ``fragmentation`` = 1 - largest_free / free: 0 when all free bytes are one
    block, near 1 when they are scattered in small pieces.
    """

    capacity: int
    segments: int
    requested: int
    used: int
    padding: int
    free: int
    largest_free: int
    free_blocks: int

    @property
    def fragmentation(self) -> float:
        return 1 - self.largest_free / self.free if self.free else 0.0


class MemoryPool:
    """A user-level pool over one block of ACL memory (see the module docstring).

    acl: the pyACL-shaped object (``acl_lab.load()`` or real pyACL). size: usable bytes.
    rule: "runtime" (segment starts 64-byte aligned) or "dvpp" (128). allocator: "malloc",
    "malloc_align32", "dvpp_malloc" or "malloc_host"; by default malloc_align32 for the
    runtime rule (docs/rules.md#rule-10: no wasted +32) and dvpp_malloc for the dvpp rule.
    policy: the aclrtMemMallocPolicy for malloc / malloc_align32.

    The pool writes and reads guard bytes with synchronous memset / memcpy, so allocate
    and free outside a GLOBAL-mode capture, which forbids synchronous copies.
    """

    @critical
    def __init__(self, acl, size: int, *, rule: str = "runtime", allocator: str | None = None,
                 policy: int = C.ACL_MEM_MALLOC_HUGE_FIRST):
        if rule not in RULES:
            raise ValueError(_("unknown rule {rule}; choose 'runtime' (64-byte starts) or "
                               "'dvpp' (128-byte starts)").format(rule=repr(rule)))
        allocator = allocator or _DEFAULT_ALLOCATOR[rule]
        if allocator not in ALLOCATORS:
            raise ValueError(_("unknown allocator {allocator}; choose one of {choices}").format(
                allocator=repr(allocator), choices=", ".join(ALLOCATORS)))
        size = _positive("MemoryPool", "size", size)
        self.acl, self.rule, self.align, self.allocator = acl, rule, RULES[rule], allocator
        self._backing = ALLOCATORS[allocator]
        mode = self._ok("aclrtGetRunMode", acl.rt.get_run_mode())
        # Where the host CPU can read pool bytes directly, guards are read in place;
        # otherwise they are copied to a host buffer first.
        self._host_readable = mode == C.ACL_DEVICE or allocator == "malloc_host"
        self.base = self._ok(f"MemoryPool: {self._backing.c_name}({size})",
                             self._backing.alloc(acl, size, policy))
        self.capacity = size
        self._free = FreeList(self.base, size)
        self._live: dict[int, Segment] = {}
        self._freed: dict[int, str] = {}        # start -> which segment was freed there
        self._requested = 0
        self._next_id = 1
        self._staging: tuple[np.ndarray, int] | None = None
        self.closed = False

    # ----- the backend ---------------------------------------------------------------------
    def _ok(self, what: str, result):
        """The value of a pyACL ``(value, ret)`` result or ``ret``; AclLabError if ret != 0."""
        value, ret = result if isinstance(result, tuple) else (None, result)
        if ret != 0:
            raise AclLabError(ret, _("{what} failed: {reason}").format(
                what=what, reason=self.acl.get_recent_err_msg()))
        return value

    def _read(self, addr: int, n: int) -> np.ndarray:
        """``n`` bytes of pool memory at ``addr``, as the host sees them."""
        if self._host_readable:
            return np.frombuffer(self.acl.util.ptr_to_bytes(addr, n), dtype=np.uint8)
        if self._staging is None:
            buf = np.empty(STAGING_BYTES, dtype=np.uint8)
            self._staging = (buf, self.acl.util.numpy_to_ptr(buf))
        buf, ptr = self._staging
        self._ok(_("MemoryPool: reading guard bytes (aclrtMemcpy)"),
                 self.acl.rt.memcpy(ptr, STAGING_BYTES, addr, n, C.ACL_MEMCPY_DEVICE_TO_HOST))
        return buf[:n]

    def _write_guard(self, seg: Segment) -> None:
        n = seg.end - seg.payload_end
        self._ok(_("MemoryPool: writing guard bytes (aclrtMemset)"),
                 self.acl.rt.memset(seg.payload_end, n, GUARD_BYTE, n))

    # ----- segments ------------------------------------------------------------------------
    @critical
    def alloc(self, length: int, *, name: str | None = None, rule: str | None = None) -> int:
        """Start address of a new segment for ``length`` bytes.

        It takes m = ALIGN_UP(length, 32) + 32 bytes at a start aligned for ``rule`` (the
        pool's rule by default), best fit among the free blocks. ``name`` labels it in
        messages and pictures (default "#<id>").
        """
        self._require_open("alloc")
        length = _positive("MemoryPool.alloc", "length", length)
        rule = rule or self.rule
        if rule not in RULES:
            raise ValueError(_("unknown rule {rule}; choose 'runtime' or 'dvpp'").format(
                rule=repr(rule)))
        size, align = segment_size(length), RULES[rule]
        start = self._free.alloc(size, align)
        if start is None:
            raise AclLabError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, self._why_full(length, size, align))
        seg = Segment(self._next_id, name or f"#{self._next_id}", start, length, size, rule)
        try:
            self._write_guard(seg)
        except AclLabError:
            self._free.give_back(start, size)
            raise
        self._next_id += 1
        self._live[start] = seg
        self._freed.pop(start, None)
        self._requested += length
        return start

    def _why_full(self, length: int, size: int, align: int) -> str:
        s = self.stats()
        if s.free >= size:
            why = _("MemoryPool.alloc({length}): a segment needs m = ALIGN_UP({length},32)+32 = "
                    "{size} B at a {align}-byte aligned start, and {free} B are free, but in "
                    "{pieces} pieces (largest {largest} B): the pool is fragmented. Free "
                    "neighbouring segments so they merge, or allocate big segments first.")
        else:
            why = _("MemoryPool.alloc({length}): a segment needs m = ALIGN_UP({length},32)+32 = "
                    "{size} B at a {align}-byte aligned start, but only {free} B of {capacity} "
                    "are free. Free segments you no longer need, or create a bigger pool.")
        return why.format(length=length, size=size, align=align, free=s.free,
                          pieces=s.free_blocks, largest=s.largest_free, capacity=s.capacity)

    @critical
    def free(self, ptr: int, *, check: bool = True) -> None:
        """Give a segment back (it merges with free neighbours).

        With ``check`` (default) its guard bytes are read first: if the payload overran,
        AclLabError names the segment and the segment stays allocated; ``check=False``
        frees it without looking.
        """
        self._require_open("free")
        seg = self._segment_at(ptr)
        if check:
            self._raise_overruns([seg], "MemoryPool.free")
        self._free.give_back(seg.start, seg.size)
        del self._live[seg.start]
        self._freed[seg.start] = seg.name
        self._requested -= seg.length

    def _segment_at(self, ptr) -> Segment:
        ptr = as_int("MemoryPool.free", "ptr", ptr)
        seg = self._live.get(ptr)
        if seg is not None:
            return seg
        names = {"call": f"MemoryPool.free(0x{ptr:x})", "ptr": f"0x{ptr:x}"}
        if ptr in self._freed:
            why = _("{call}: segment {name} at {ptr} was already freed. Free each segment "
                    "exactly once, and stop using the pointer after.").format(
                name=self._freed[ptr], **names)
        elif not self.base <= ptr < self.base + self.capacity:
            why = _("{call}: {ptr} did not come from this pool (it spans {first} to {end}). "
                    "Give memory back to whoever handed it out: acl.rt.free for acl.rt.malloc, "
                    "the other pool for its segments.").format(
                first=f"0x{self.base:x}", end=f"0x{self.base + self.capacity:x}", **names)
        else:
            inside = next((s for s in self._live.values() if s.start < ptr < s.end), None)
            why = (_("{call}: {ptr} points {offset} B inside segment {segment}. Pass the exact "
                     "address alloc returned.").format(offset=ptr - inside.start,
                                                       segment=inside.label, **names)
                   if inside else
                   _("{call}: {ptr} is free space inside the pool, not a segment start. Pass "
                     "the exact address alloc returned.").format(**names))
        raise AclLabError(C.ACL_ERROR_RT_PARAM_INVALID, why)

    # ----- guards --------------------------------------------------------------------------
    def check_guards(self) -> None:
        """Read every live segment's guard bytes; AclLabError naming each segment that
        wrote past its payload. Guards are read in as few copies as possible."""
        self._require_open("check_guards")
        self._raise_overruns(sorted(self._live.values(), key=lambda s: s.start),
                             "MemoryPool.check_guards")

    def _overruns(self, segments: list[Segment]) -> list[tuple[Segment, int]]:
        """(segment, number of changed guard bytes) for each overrun among ``segments``
        (sorted by address); guards close together are read with one copy."""
        found, i = [], 0
        while i < len(segments):
            lo, j = segments[i].payload_end, i
            while j + 1 < len(segments) and segments[j + 1].end - lo <= STAGING_BYTES:
                j += 1
            data = self._read(lo, segments[j].end - lo)
            for seg in segments[i:j + 1]:
                changed = int(np.count_nonzero(
                    data[seg.payload_end - lo:seg.end - lo] != GUARD_BYTE))
                if changed:
                    found.append((seg, changed))
            i = j + 1
        return found

    def _raise_overruns(self, segments: list[Segment], call: str) -> None:
        found = self._overruns(segments)
        if not found:
            return
        lines = [_("segment {segment}: {changed} of the {guards} guard bytes after its "
                   "payload were overwritten").format(segment=seg.label, changed=changed,
                                                      guards=seg.size - seg.length)
                 for seg, changed in found]
        raise AclLabError(C.ACL_ERROR_RT_PARAM_INVALID, acl_lab_check(_(
            "{call}: {count} segment(s) wrote past their end — {segments}. Keep every write "
            "within the length you asked for (the padding belongs to the pool; past it lies "
            "the next segment). The segments stay allocated; free(ptr, check=False) releases "
            "one anyway.").format(call=call, count=len(found),
                                  segments=pgettext("clauses", "; ").join(lines))))

    # ----- views -------------------------------------------------------------------------
    def stats(self) -> PoolStats:
        blocks = self._free.free_blocks()
        return PoolStats(capacity=self.capacity, segments=len(self._live),
                         requested=self._requested, used=self._free.used,
                         padding=self._free.used - self._requested, free=self._free.free,
                         largest_free=self._free.largest_free, free_blocks=len(blocks))

    def blocks(self) -> list[Block]:
        """Every byte of the pool, as segments and free blocks in address order."""
        out = [Block(s.start, s.size, "segment", s) for s in self._live.values()]
        for start, size in self._free.free_blocks():
            usable = align_up(start, self.align) + MIN_SEGMENT <= start + size
            out.append(Block(start, size, "free" if usable else "gap"))
        return sorted(out, key=lambda b: b.start)

    @property
    def footprint(self) -> int:
        """Bytes the backing allocator takes from the device for this pool (capacity plus
        the allocator's own rounding and padding, which the pool cannot use)."""
        return self._backing.footprint(self.capacity)

    # ----- lifetime ----------------------------------------------------------------------
    def _require_open(self, call: str) -> None:
        if self.closed:
            raise AclLabError(C.ACL_ERROR_RT_INVALID_HANDLE, _(
                "MemoryPool.{call}: the pool is closed; its memory went back to {allocator}'s "
                "free call. Create a new pool.").format(call=call,
                                                        allocator=self._backing.c_name))

    @critical
    def close(self, *, force: bool = False) -> None:
        """Give the big block back with the free call that matches its allocator.

        Live segments make this an error (their pointers would dangle) unless ``force``.
        Closing twice is harmless.
        """
        if self.closed:
            return
        if self._live and not force:
            names = ", ".join(s.name for s in list(self._live.values())[:5])
            raise AclLabError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "MemoryPool.close: {count} segment(s) are still allocated ({names}); their "
                "pointers would dangle. Free them first, or close(force=True) if nothing uses "
                "them any more.").format(count=len(self._live),
                                         names=names + (", ..." if len(self._live) > 5 else "")))
        self._ok(_("MemoryPool.close: freeing the pool's block"),
                 self._backing.free(self.acl, self.base))
        self.closed = True
        self._live.clear()

    def __enter__(self) -> "MemoryPool":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(force=exc_type is not None)

    def __repr__(self) -> str:
        if self.closed:
            return _("<MemoryPool {capacity} B, closed>").format(capacity=self.capacity)
        s = self.stats()
        return _("<MemoryPool {capacity} B {rule}/{allocator}: {segments} segments, {used} B "
                 "used, {free} B free>").format(capacity=s.capacity, rule=self.rule,
                                                allocator=self.allocator, segments=s.segments,
                                                used=s.used, free=s.free)


def _positive(call: str, name: str, value) -> int:
    v = as_int(call, name, value)
    if v <= 0:
        raise AclLabError(C.ACL_ERROR_INVALID_PARAM,
                          _("{call}: {name} is {value}; ask for at least 1 byte.").format(
                              call=call, name=name, value=v))
    return v
