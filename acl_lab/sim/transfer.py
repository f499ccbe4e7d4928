"""memset / memcpy / memcpy2d, synchronous and on streams: validation, direction, time.

The checks run in the order hicann/runtime runs them (src/acl/aclrt_impl/memory.cpp):
count 0 succeeds first, then NULL pointers, then the kind, then count against the
destination maximum. The simulator then checks what the driver or the hardware would trip
over (unknown pointers, overruns, an impossible direction) and says so in plain words.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.memory import Allocation
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task

from acl_lab.spec.memory_rules import ACCEPTED_KINDS, D2D, D2H, DEFAULT, DIRECTION, H2D, H2H, async_kind_refusal, kind_name, kind_refusal
from acl_lab.spec.transfer_rules import check_aligned64, check_count, check_no_overlap, check_stream_can_write, check_writable


def _not_null(call: str, **pointers: int) -> None:
    for name, p in pointers.items():
        if p == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {what} is NULL (0).").format(call=call, what=name))


def _check_kind(call: str, kind: int) -> None:
    if kind not in ACCEPTED_KINDS:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: kind {kind} is not accepted here; use ACL_MEMCPY_HOST_TO_HOST "
                         "(0), HOST_TO_DEVICE (1), DEVICE_TO_HOST (2), DEVICE_TO_DEVICE (3) or "
                         "DEFAULT (4).").format(call=call, kind=kind))


def _direction(rt, call: str, kind: int, dst: Allocation, src: Allocation, strict: bool) -> int:
    """The copy's real direction, which the addresses decide; ``strict`` (the 2D copies)
    refuses a kind that disagrees with them."""
    refusal = kind_refusal(call, kind, dst, src) if strict else None
    if refusal:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, refusal)
    if dst.location == src.location == "device":
        rt.peer.check_copy(call, dst, src)
    return DIRECTION[(src.location, dst.location)]


def _copier(dst: Allocation, dst_off: int, src: Allocation, src_off: int, count: int,
            call: str):
    def run() -> None:
        dst.write(dst_off, count, lambda out: src.read_into(src_off, count, out), call)
    return run


PIECE = 4 << 20      # bytes a 2D copy moves at once


def _copy_rows(dst: np.ndarray, src: np.ndarray) -> None:
    """dst[:] = src (2D byte views), PIECE bytes at a time: numpy copies operands that may
    overlap (rows interleaved in one block) through a temporary as big as the whole copy."""
    height, width = dst.shape
    rows = max(1, PIECE // width)
    for r in range(0, height, rows):
        if width <= PIECE:
            np.copyto(dst[r:r + rows], src[r:r + rows])
        else:
            for c in range(0, width, PIECE):
                np.copyto(dst[r, c:c + PIECE], src[r, c:c + PIECE])


# ----- memset ----------------------------------------------------------------------------
def memset(rt, ptr: int, maximum: int, value: int, count: int, stream: int | None = None) -> None:
    call = "aclrtMemset" if stream is None else "aclrtMemsetAsync"
    if count == 0:
        return
    s = rt.stream(stream, call) if stream is not None else None
    _not_null(call, devPtr=ptr)
    check_count(call, count, maximum, "maxCount")
    a = rt.memory.map.resolve(ptr, count, "devPtr", call)
    check_writable(call, a, "devPtr", ptr, count)
    if s is not None:
        check_stream_can_write(call, ptr, a)
    byte, off = value & 0xFF, ptr - a.ptr
    task = Task("memset", rt.profile.rates.memset_us(count, a.location == "device"),
                run=lambda: a.write(off, count, lambda out: out.fill(byte), call),
                nbytes=count, uses=(a,), detail={"ptr": ptr, "value": byte, "size": count})
    submit(rt, call, s, task, ((a, off, count),))


# ----- memcpy ----------------------------------------------------------------------------
def memcpy(rt, dst: int, dst_max: int, src: int, count: int, kind: int,
           stream: int | None = None, call: str | None = None) -> None:
    call = call or ("aclrtMemcpy" if stream is None else "aclrtMemcpyAsync")
    if count == 0:
        return
    s = rt.stream(stream, call) if stream is not None else None
    _not_null(call, dst=dst, src=src)
    _check_kind(call, kind)
    check_count(call, count, dst_max, "destMax")
    if dst == src:
        return
    d = rt.memory.map.resolve(dst, count, "dst", call)
    sa = rt.memory.map.resolve(src, count, "src", call)
    check_writable(call, d, "dst", dst, count)
    check_no_overlap(call, dst, src, count)
    direction = _direction(rt, call, kind, d, sa, strict=False)
    refusal = async_kind_refusal(call, kind, d, sa) \
        if s is not None and rt.profile.run_mode == C.ACL_HOST else None
    if refusal:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, refusal)
    if s is not None and direction == H2H and rt.profile.run_mode == C.ACL_HOST:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       _("{call}: asynchronous host-to-host copies are not supported when the "
                         "application runs on the host (ACL_HOST). Copy host memory with the "
                         "synchronous aclrtMemcpy.").format(call=call))
    pageable = d.pool is None and not d.pinned or sa.pool is None and not sa.pinned
    if s is not None and pageable:
        if direction == H2H or direction == D2D:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT if direction == H2H
                           else C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: an asynchronous {kind} copy cannot use pageable memory. "
                             "Allocate with aclrtMallocHost, or copy synchronously.").format(
                               call=call, kind=kind_name(direction)))
        rt.stream_sync_for_pageable(s, call)   # ACL turns it into sync stream + sync copy
        s = None
    elif s is not None:
        check_aligned64(call, dst=dst, src=src)
    task = Task("memcpy", rt.profile.rates.copy_us(direction, count, not pageable),
                run=_copier(d, dst - d.ptr, sa, src - sa.ptr, count, call), nbytes=count,
                uses=(d, sa), detail={"dst": dst, "src": src, "size": count,
                                      "kind": kind_name(direction), "pinned": not pageable})
    submit(rt, call, s, task, ((d, dst - d.ptr, count),),
           lambda: sa.read_scratch(src - sa.ptr, count))


def memcpy2d(rt, dst: int, dpitch: int, src: int, spitch: int, width: int, height: int,
             kind: int, stream: int | None = None) -> None:
    call = "aclrtMemcpy2d" if stream is None else "aclrtMemcpy2dAsync"
    if width == 0 or height == 0:
        return
    s = rt.stream(stream, call) if stream is not None else None
    _not_null(call, dst=dst, src=src)
    if width > spitch or width > dpitch:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: width {width} is wider than a pitch (spitch {spitch}, dpitch "
                         "{dpitch}). The pitch is the row stride in bytes, at least the "
                         "width.").format(call=call, width=width, spitch=spitch, dpitch=dpitch))
    # 11-03: sync H2D / D2H (the runtime also infers DEFAULT); async adds D2D on the SoCs
    # whose docs list it (acl_lab.spec.socs, memcpy2d_async_d2d), else ACL_ERROR_INVALID_PARAM
    allowed = (H2D, D2H, DEFAULT) if s is None else \
        (H2D, D2H, DEFAULT) + ((D2D,) if rt.profile.soc.memcpy2d_async_d2d else ())
    if kind not in allowed:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: kind {kind} is not allowed; use {allowed}.").format(
                           call=call, kind=kind_name(kind),
                           allowed=", ".join(kind_name(k) for k in allowed)))
    dspan, sspan = (height - 1) * dpitch + width, (height - 1) * spitch + width
    d = rt.memory.map.resolve(dst, dspan, "dst", call)
    check_writable(call, d, "dst", dst, dspan)
    sa = rt.memory.map.resolve(src, sspan, "src", call)
    direction = _direction(rt, call, kind, d, sa, strict=True)
    if direction not in allowed:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: the pointers make this a {kind} copy, which {call} does not "
                         "do. Use aclrtMemcpy for it.").format(call=call,
                                                               kind=kind_name(direction)))

    def run() -> None:
        dv = as_strided(d.view(dst - d.ptr, dspan, call=call), (height, width), (dpitch, 1))
        sv = as_strided(sa.view(src - sa.ptr, sspan, call=call), (height, width), (spitch, 1))
        _copy_rows(dv, sv)

    pinned = d.pool is not None and sa.pool is not None
    task = Task("memcpy2d", rt.profile.rates.copy_us(direction, width * height, pinned), run=run,
                nbytes=width * height, uses=(d, sa),
                detail={"dst": dst, "src": src, "kind": kind_name(direction),
                        "width": width, "height": height})
    submit(rt, call, s, task, ((d, dst - d.ptr, dspan), (sa, src - sa.ptr, sspan)))


def _touch_edges(rt, call: str, task: Task) -> int:
    """A task was queued: the fresh chunks it writes only in part get their garbage now
    (Allocation.touch_edges), so its promise of RAM covers only the chunks it writes whole
    and many small writes queued on one fresh chunk take its RAM once (each promised the
    whole chunk again). Moves their bytes from promised to used; the change in promise."""
    budget, promised = rt.memory.ram, task.fresh_bytes()
    budget.reserved -= promised
    try:
        for a, offset, n in task.touches:
            a.touch_edges(offset, n, call)
    finally:
        still = task.fresh_bytes()
        budget.reserved += still
    return still - promised


def submit(rt, call: str, stream, task: Task, touches=(), scratch=None) -> None:
    """Run a synchronous task now, or queue an asynchronous one on its stream. ``touches``:
    the (allocation, offset, count) ranges it gives bytes to, ``scratch()``: host RAM it needs
    while it runs; together the RAM it would newly take now — refused (SimulatorLimit) before
    anything happens if it does not fit, and promised to a queued task until it runs. A
    captured task keeps both for its replays to ask again (capture.py, _replay_task)."""
    task.touches, task.scratch = touches, scratch
    budget, ram = rt.memory.ram, task.fresh_bytes() + (scratch() if scratch else 0)
    if stream is None:
        budget.need(ram, call)
        clock = rt.sched.now_us
        try:
            rt.before_blocking_call(call)
            rt.sched.blocking(task)
        except BaseException:      # interrupted, or out of memory: the clock did not move
            rt.sched.now_us = clock
            raise
        return
    budget.reserve(ram, call)
    try:
        rt.issue(stream, task, call)
    except BaseException:
        budget.reserved -= ram
        raise
    if task.touches and stream.capture is None:
        ram += _touch_edges(rt, call, task)
    if ram and stream.capture is None:
        run = task.run

        def run_and_settle() -> None:
            budget.reserved -= ram     # the bytes are counted as used as they are touched
            task.ram_reserved = 0
            try:
                run()
            except BaseException:
                budget.reserved += ram
                task.ram_reserved = ram
                raise
        task.run, task.ram_reserved = run_and_settle, ram   # dropped unrun: HostRam.unreserve
    else:                          # a captured task runs only when the model is replayed
        budget.reserved -= ram
