"""Chapter 05 checks: the segment rule by hand, an aligned hand-carved segment, guard bytes."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.align import RUNTIME_ALIGN, align_up, segment_size
from acl_lab.errors import AclLabError
from acl_lab.i18n import _
from acl_lab.pool import MemoryPool

from . import NotYet, exercise

#: Exercise 05.1: segment lengths placed one after another in a fresh runtime-rule pool.
LAYOUT_LENGTHS = (100, 40, 3000, 1)


def runtime_offsets(lengths) -> list[int]:
    """Offsets from the pool's (64-byte aligned) base of segments placed back to back."""
    offsets, end = [], 0
    for n in lengths:
        start = align_up(end, RUNTIME_ALIGN)
        offsets.append(start)
        end = start + segment_size(n)
    return offsets


@exercise("05.1", "Lay out segments by hand",
          "Each segment takes m = ALIGN_UP(len, 32) + 32 bytes; the next one starts at the "
          "first multiple of 64 at or after the previous end. carve() above does exactly "
          "that: offsets, end = carve(lengths).")
def layout(offsets: Iterable):
    offsets = list(offsets)
    want = runtime_offsets(LAYOUT_LENGTHS)
    if len(offsets) != len(want):
        raise NotYet(_("give one offset per length {lengths}: {count} numbers.").format(
            lengths=list(LAYOUT_LENGTHS), count=len(want)))
    end = 0
    for n, got, start in zip(LAYOUT_LENGTHS, offsets, want):
        if got != start:
            raise NotYet(_("the {length}-byte segment starts at offset {start}, not {got}: the "
                           "previous segment ends at {end}, and ALIGN_UP({end}, 64) = "
                           "{start}.").format(length=n, start=start, got=repr(got), end=end))
        end = start + segment_size(n)
    return _("offsets {offsets}; the pool would report the same addresses.").format(
        offsets=want)


@exercise("05.2", "Carve an aligned segment",
          "ptr = block + align_up(segment_size(100), 64); fill pinned: "
          "acl.util.ptr_to_numpy(pinned, (64,), np.dtype(np.uint8).num)[:] = np.arange(64); "
          "then acl.rt.memcpy_async(ptr, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream) "
          "and acl.rt.synchronize_stream(stream).")
def hand_carved(acl, block: int, ptr: int):
    blocks = [a for a in acl_lab.snapshot()["allocations"] if a["ptr"] == block]
    if not blocks:
        raise NotYet(_("block must be the live aclrtMallocAlign32 block you carve."))
    want = block + align_up(segment_size(100), RUNTIME_ALIGN)
    if ptr != want:
        got = f"block + {ptr - block}" if isinstance(ptr, int) else repr(ptr)
        raise NotYet(_("the segment after a 100-byte one starts at block + {offset}, not "
                       "{got}: m = ALIGN_UP(100, 32) + 32 = {m}, rounded up to a multiple of "
                       "64.").format(offset=want - block, got=got, m=segment_size(100)))
    if acl.rt.synchronize_device() != 0:
        raise NotYet(_("synchronizing failed: {message}").format(
            message=acl.get_recent_err_msg()))
    host = np.zeros(64, dtype=np.uint8)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(host), 64, ptr, 64, C.ACL_MEMCPY_DEVICE_TO_HOST)
    if ret != 0 or not np.array_equal(host, np.arange(64, dtype=np.uint8)):
        raise NotYet(_("the segment does not hold 0, 1, ..., 63 yet: fill pinned "
                       "(acl.util.ptr_to_numpy(pinned, (64,), np.dtype(np.uint8).num)[:] = "
                       "np.arange(64)), then acl.rt.memcpy_async(ptr, 64, pinned, 64, "
                       "ACL_MEMCPY_HOST_TO_DEVICE, stream) and "
                       "acl.rt.synchronize_stream(stream)."))
    return _("block + {offset}: 64-byte aligned, so the async copy was accepted.").format(
        offset=want - block)


@exercise("05.3", "Which segment overran?",
          "Call suspects.check_guards() inside try/except acl_lab.AclLabError and print the "
          "error: it names the segment whose guard bytes changed. Set culprit to that name.")
def overrun_detective(pool: MemoryPool, name: str):
    segments = {blk.segment.name: blk.segment for blk in pool.blocks() if blk.kind == "segment"}
    if name not in segments:
        raise NotYet(_("{name} is not a live segment of this pool; its segments are "
                       "{names}.").format(name=repr(name), names=sorted(segments)))
    try:
        pool.check_guards()
    except AclLabError as e:
        if segments[name].label in str(e):       # the report names each overrun by its label
            return _("'{name}' wrote past its end: its guard bytes give it away.").format(
                name=name)
        raise NotYet(_("'{name}' kept within its length; read the message of "
                       "pool.check_guards() again.").format(name=name)) from None
    raise NotYet(_("every guard byte is intact now: nothing overran (or it was freed)."))
