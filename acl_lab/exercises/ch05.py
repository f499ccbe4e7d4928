"""Chapter 05 exercises: the segment rule by hand, an aligned hand-carved segment, guard bytes.

Each setup builds what its exercise works on in the fresh process ``exercises.start`` opens.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.align import RUNTIME_ALIGN, align_up, segment_size
from acl_lab.errors import AclLabError, explain
from acl_lab.i18n import _
from acl_lab.pool import MemoryPool
from acl_lab.trace import untraced

from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name

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


def _lengths(acl):
    return list(LAYOUT_LENGTHS)


@exercise("05.1", "Lay out segments by hand",
          "Each segment of len bytes takes m = ALIGN_UP(len, 32) + 32 bytes and starts on a "
          "multiple of 64 (the runtime rule); the first one starts at offset 0.",
          level="easy",
          more=("Walk the lengths in order: a segment starts at ALIGN_UP(previous end, 64) "
                "and ends m bytes later. align_up and segment_size (imported in the first "
                "cell) compute both.",),
          setup=_lengths, needs=None,
          solution="""
          offsets, end = [], 0
          for n in lengths:
              offset = align_up(end, 64)         # each segment starts on a multiple of 64
              offsets.append(offset)
              end = offset + segment_size(n)     # and takes m = ALIGN_UP(n, 32) + 32 bytes
          """)
def layout(offsets: Iterable):
    name = learner_name(offsets, "offsets")
    offsets = list(offsets)
    want = runtime_offsets(LAYOUT_LENGTHS)
    if len(offsets) != len(want):
        raise NotYet(_("{name} holds {got} number(s): give one offset per length in {lengths}, "
                       "{count} numbers.").format(name=name, got=len(offsets),
                                                  lengths=list(LAYOUT_LENGTHS), count=len(want)))
    end = 0
    for i, (n, got, start) in enumerate(zip(LAYOUT_LENGTHS, offsets, want)):
        if got != start:
            raise NotYet(
                _("{name}[{i}] = {got} is not where the {length}-byte segment starts: the "
                  "segment before it ends at offset {end}; round that up to a multiple of "
                  "64.").format(name=name, i=i, got=repr(got), length=n, end=end),
                _("the {length}-byte segment starts at offset {start}, not {got}: the "
                  "previous segment ends at {end}, and ALIGN_UP({end}, 64) = {start}.").format(
                    length=n, start=start, got=repr(got), end=end))
        end = start + segment_size(n)
    return _("offsets {offsets}; the pool would report the same addresses.").format(
        offsets=want)


def _block_and_pinned(acl):
    stream, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    block, ret = acl.rt.malloc_align32(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl_lab.check(ret)
    pinned, ret = acl.rt.malloc_host(128)
    acl_lab.check(ret)
    return block, pinned, stream


#: Exercise 05.2: where the copy goes (after a 100-byte segment at offset 0) and what it holds.
CARVED_AFTER = 100
CARVED_BYTES = np.arange(64, dtype=np.uint8)


@exercise("05.2", "Carve an aligned segment",
          "A segment takes more bytes than its payload, and the next one may only start at "
          "an aligned address: section 2 gives both rules. An async copy needs that "
          "alignment, and it only runs when something waits for its stream.",
          level="medium",
          more=("What a 100-byte segment takes is segment_size(100) (the padding rule of "
                "section 2); the runtime's alignment for a start is 64 bytes. Then fill "
                "pinned, copy it to ptr with the async copy on stream, and wait for stream.",
                "ptr is block plus the 100-byte segment's m rounded up to a multiple "
                "of 64 (align_up and segment_size). Fill pinned with 0..63 through "
                "acl.util.ptr_to_numpy, copy 64 bytes from pinned to ptr with "
                "acl.rt.memcpy_async on stream, then acl.rt.synchronize_stream(stream).",),
          setup=_block_and_pinned,
          solution="""
          ptr = block + align_up(segment_size(100), 64)   # after m bytes, at a multiple of 64
          acl.util.ptr_to_numpy(pinned, (64,), np.dtype(np.uint8).num)[:] = np.arange(64, dtype=np.uint8)
          acl_lab.check(acl.rt.memcpy_async(ptr, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream))
          acl_lab.check(acl.rt.synchronize_stream(stream))   # the copy runs when someone waits
          """)
def hand_carved(acl, block: int, ptr: int):
    snap = acl_lab.snapshot()
    if not any(a["ptr"] == block for a in snap["allocations"]):
        raise NotYet(_("{name} is not a live allocation: pass the block exercises.start "
                       "gave you.").format(name=learner_name(block, "block")))
    name = learner_name(ptr, "ptr")
    want = block + align_up(segment_size(CARVED_AFTER), RUNTIME_ALIGN)
    if ptr != want:
        got = f"block + {ptr - block}"
        raise NotYet(
            _("{name} = {got} is not where the next segment starts: count what the 100-byte "
              "segment really takes (payload, padding, the bytes after it) and where the "
              "next aligned start is (section 2).").format(name=name, got=got),
            _("the segment after a 100-byte one starts at block + {offset}, not {got}: m = "
              "ALIGN_UP(100, 32) + 32 = {m}, rounded up to a multiple of 64.").format(
                offset=want - block, got=got, m=segment_size(CARVED_AFTER)))
    calls = calls_since_start()
    copies = [c for c in calls if c.name == "rt.memcpy_async" and c.args[:1] == (ptr,)]
    if not copies and any(c.name == "rt.memcpy" and c.args[:1] == (ptr,) for c in calls):
        raise NotYet(_("you copied to {name} with the synchronous acl.rt.memcpy, which needs "
                       "no alignment; the exercise is the async copy that does: "
                       "acl.rt.memcpy_async on stream.").format(name=name))
    if not copies:
        raise NotYet(_("nothing was copied to {name} yet: the exercise copies pinned's 64 "
                       "bytes to it, asynchronously, on stream.").format(name=name),
                     _("nothing was copied to {name} yet: fill pinned, then "
                       "acl.rt.memcpy_async({name}, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, "
                       "stream).").format(name=name))
    if copies[-1].ret != 0:
        raise NotYet(_("your acl.rt.memcpy_async to {name} returned {ret}: {meaning}").format(
            name=name, ret=copies[-1].ret, meaning=explain(copies[-1].ret)))
    if any(s["pending"] for s in snap["streams"]):
        raise NotYet(_("the copy is queued but has not run: nothing waited for the stream. "
                       "Call acl.rt.synchronize_stream(stream) after the copy."))
    host = np.zeros(CARVED_BYTES.size, dtype=np.uint8)
    ret = untraced(acl.rt.memcpy)(untraced(acl.util.numpy_to_ptr)(host), host.nbytes, ptr,
                                  host.nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST)
    if ret != 0 or not np.array_equal(host, CARVED_BYTES):
        raise NotYet(_("the copy ran, but the segment holds {got}..., not 0, 1, ..., 63: "
                       "write the bytes into pinned before the copy (acl.util.ptr_to_numpy("
                       "pinned, (64,), np.dtype(np.uint8).num)[:] = np.arange(64)).").format(
            got=host[:4].tolist()))
    return _("block + {offset}: 64-byte aligned, so the async copy was accepted.").format(
        offset=want - block)


#: Exercise 05.3: the segments of the suspects pool, the bytes written into each.
SUSPECTS = (("rgb", 300, 300), ("depth", 100, 110), ("mask", 64, 64))


def _suspects(acl):
    pool = MemoryPool(acl, 4096)
    for name, length, written in SUSPECTS:
        ptr = pool.alloc(length, name=name)
        data = np.ones(written, dtype=np.uint8)
        acl_lab.check(acl.rt.memcpy(ptr, written, acl.util.numpy_to_ptr(data), written,
                                    C.ACL_MEMCPY_HOST_TO_DEVICE))
    return pool


@exercise("05.3", "Which segment overran?",
          "The bytes after each segment's payload are guard bytes: the pool can read them "
          "and tell you which segment wrote past its end.",
          level="easy",
          more=("Call suspects.check_guards() inside try/except acl_lab.AclLabError and print "
                "the error: it names the segment whose guard bytes changed. Set culprit to "
                "that name.",),
          setup=_suspects,
          solution="""
          try:
              suspects.check_guards()        # reads every guard byte of the pool
          except acl_lab.AclLabError as e:
              print(e)                       # names the segment that wrote past its end
          culprit = "depth"
          """)
def overrun_detective(suspects: MemoryPool, culprit: str):
    pool, name = suspects, culprit
    pool_name = learner_name(suspects, "suspects")      # the learner's name for the pool
    segments = {blk.segment.name: blk.segment for blk in pool.blocks() if blk.kind == "segment"}
    if name not in segments:
        raise NotYet(_("{name} is not a live segment of {pool}; its segments are "
                       "{names}.").format(name=repr(name), pool=pool_name,
                                          names=sorted(segments)))
    try:
        pool.check_guards()
    except AclLabError as e:
        if segments[name].label in str(e):       # the report names each overrun by its label
            return _("'{name}' wrote past its end: its guard bytes give it away.").format(
                name=name)
        raise NotYet(_("'{name}' kept within its length; read the message of "
                       "{pool}.check_guards() again.").format(name=name, pool=pool_name)) \
            from None
    raise NotYet(_("every guard byte is intact now: nothing overran (or it was freed)."))
