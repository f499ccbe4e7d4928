"""The runtime's built-in device tasks beyond copies: cache maintenance, reduce, value
write / wait, and copies described by a descriptor or checked for page-locked memory.

Checks in the runtime's order (hicann/runtime src/acl/aclrt_impl/memory.cpp: aclrtMemFlush,
aclrtCmoAsync, aclrtReduceAsync, aclrtValueWrite / Wait, aclrtGetMemcpyDescSize,
aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc, aclrtMemcpyAsyncWithCondition; then
api_c_memory.cc / api_c_standard_soc.cc and api_error.cc for the rts layer): ACL's NULL and
zero checks (ACL_ERROR_INVALID_PARAM), the chip's feature (spec/rt_features.py,
ACL_ERROR_RT_FEATURE_NOT_SUPPORT), the runtime's value checks (ACL_ERROR_RT_PARAM_INVALID).
The simulator's memory is coherent, so cache maintenance changes no byte; it still costs
its modeled time.
"""
from __future__ import annotations

import struct
import threading
import time

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import transfer
from acl_lab.sim.simerror import SimError, TaskFailed
from acl_lab.sim.streams import Task
from acl_lab.spec import dtypes, rt_features
from acl_lab.spec.memory_rules import ACCEPTED_KINDS, kind_name
from acl_lab.support import interrupts

MEMCPY_KIND_MAX = 8            # RT_MEMCPY_KIND_MAX (pkg_inc/runtime/runtime/mem_base.h)
MAX_D2D = 4 << 30              # MAX_MEMCPY_SIZE_OF_D2D (core/inc/spec/base_info.hpp)
#: aclDataType values the ACL layer maps for aclrtReduceAsync (memory.cpp kMapDataType)
REDUCE_ACL_TYPES = (C.ACL_FLOAT, C.ACL_FLOAT16, C.ACL_INT16, C.ACL_INT4, C.ACL_INT8,
                    C.ACL_INT32, C.ACL_BF16, C.ACL_UINT8, C.ACL_UINT16, C.ACL_UINT32)
REDUCE_NAMES = {C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: "SUM", C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
                "MAX", C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: "MIN",
                C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL: "EQUAL"}
WAIT_NAMES = {C.ACL_STREAM_WAIT_VALUE_GEQ: "GEQ", C.ACL_STREAM_WAIT_VALUE_EQ: "EQ",
              C.ACL_STREAM_WAIT_VALUE_AND: "AND", C.ACL_STREAM_WAIT_VALUE_NOR: "NOR"}
#: longest a value wait waits (real seconds) for another thread to queue the write it waits
#: for (official sample memory/9 starts the writer a second after the wait); a device would
#: wait for ever, the kernel must not
VALUE_WAIT_LIMIT_S = 10.0
DESC = struct.Struct("<IIIIQQ")     # rtMemcpyAddrInfo: resv0..2, len, src, dst (32 bytes)


def _null(call: str, **values: int) -> None:
    for name, value in values.items():
        if value == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {what} is 0 (NULL, or no bytes).").format(call=call, what=name))


def _feature(rt, feature: str, call: str, what: str) -> None:
    if not rt_features.has(rt.profile.soc_name, feature):
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
            "{call}: {soc} does not have {what}.").format(call=call, soc=rt.profile.soc_name,
                                                         what=what))


def _device(rt, ptr: int, n: int, what: str, call: str, device: int | None = None):
    """The device memory holding [ptr, ptr+n) (of ``device`` if given)."""
    a = rt.memory.map.resolve(ptr, n, what, call)
    if a.location != "device" or device is not None and a.device != device:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: {what} {ptr} is {block}; this task works on device memory of the stream's "
            "device.").format(call=call, what=what, ptr=f"0x{ptr:x}", block=a.describe()))
    return a


def _issue(rt, stream, kind: str, nbytes: int, run, uses, detail: dict, call: str,
           touches=()) -> None:
    """Queue a device task on ``stream`` (``touches``: the ranges it writes)."""
    rates = rt.profile.rates
    duration = rates.dma_setup_us + nbytes / rates.device + rates.completion_us
    task = Task(kind, duration, run=run, nbytes=nbytes, uses=uses, detail=detail)
    transfer.submit(rt, call, stream, task, touches)


# ----- cache maintenance ----------------------------------------------------------------
def flush(rt, ptr: int, size: int, call: str) -> None:
    """aclrtMemFlush / aclrtMemInvalidate: the range must be memory this process has."""
    _null(call, devPtr=ptr, size=size)
    rt.require_ctx(call)
    rt.memory.map.resolve(ptr, size, "devPtr", call)
    rt.sched.now_us += rt.profile.rates.api_us


def cmo_async(rt, src: int, size: int, cmo_type: int, stream: int,
              call: str = "aclrtCmoAsync") -> None:
    _null(call, src=src, size=size)
    _feature(rt, rt_features.CMO, call, _("cache maintenance tasks (RT_FEATURE_TASK_CMO)"))
    if cmo_type not in (C.ACL_RT_CMO_TYPE_PREFETCH, C.ACL_RT_CMO_TYPE_WRITEBACK,
                        C.ACL_RT_CMO_TYPE_INVALID, C.ACL_RT_CMO_TYPE_FLUSH):
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
            "{call}: cmoType {type} is not ACL_RT_CMO_TYPE_PREFETCH (0), _WRITEBACK, _INVALID "
            "or _FLUSH (3).").format(call=call, type=cmo_type))
    s = rt.stream(stream, call)
    a = _device(rt, src, size, "src", call, s.device)
    _issue(rt, s, "cmo", 0, None, (a,), {"ptr": src, "size": size}, call)


# ----- reduce ---------------------------------------------------------------------------
def _bf16_to_f32(raw: np.ndarray) -> np.ndarray:
    return (raw.astype(np.uint32) << 16).view(np.float32)


def _f32_to_bf16(values: np.ndarray) -> np.ndarray:
    bits = values.astype(np.float32).view(np.uint32)
    rounded = bits + 0x7FFF + ((bits >> 16) & 1)        # round to nearest, ties to even
    return np.where(np.isnan(values), 0x7FC0, rounded >> 16).astype(np.uint16)


def _reduced(kind: int, dtype: int, dst: np.ndarray, src: np.ndarray) -> np.ndarray:
    """dst OP src element-wise, in the data type; EQUAL gives 1 where they are equal."""
    if dtype == C.ACL_BF16:
        a, b = _bf16_to_f32(dst.view(np.uint16)), _bf16_to_f32(src.view(np.uint16))
    else:
        a, b = dst.view(dtypes.NUMPY[dtype]), src.view(dtypes.NUMPY[dtype])
    with np.errstate(all="ignore"):
        out = {C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: np.add,
               C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: np.maximum,
               C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: np.minimum}.get(
                   kind, lambda x, y: (x == y).astype(x.dtype))(a, b)
    return (_f32_to_bf16(out) if dtype == C.ACL_BF16 else out.astype(a.dtype)).view(np.uint8)


def reduce_async(rt, dst: int, src: int, count: int, kind: int, dtype: int, stream: int,
                 reserve: int, call: str = "aclrtReduceAsync") -> None:
    """dst = dst OP src over ``count`` bytes of ``dtype`` elements (a tail shorter than one
    element is left as it was)."""
    _null(call, dst=dst, src=src)
    if reserve != 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: reserve is a reserved parameter and must be 0 (NULL).").format(call=call))
    if dtype not in REDUCE_ACL_TYPES:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: data type {type} is not one a reduce task takes.").format(
                call=call, type=dtypes.name(dtype)))
    soc = rt.profile.soc_name
    if dtype not in rt_features.reduce_types(soc):
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
            "{call}: {soc} does not reduce {type} (it takes: {types}).").format(
                call=call, soc=soc, type=dtypes.name(dtype),
                types=", ".join(dtypes.name(t) for t in rt_features.reduce_types(soc)) or "-"))
    if count == 0 or kind not in REDUCE_NAMES or \
            kind == C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM and count > MAX_D2D:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: count {count} or kind {kind} is out of range: count is 1 B or more (at "
            "most 4 GiB for SUM), kind one of ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM (10), _MAX, "
            "_MIN, _EQUAL (13).").format(call=call, count=count, kind=kind))
    s = rt.stream(stream, call)
    d = _device(rt, dst, count, "dst", call, s.device)
    sa = _device(rt, src, count, "src", call, s.device)
    n = count // dtypes.size(dtype) * dtypes.size(dtype)
    rt.memory.ram.need(3 * n, call, _("a reduce task"))

    def run() -> None:
        if n:
            a = d.view(dst - d.ptr, n, call).copy()
            b = sa.view(src - sa.ptr, n, call).copy()
            result = _reduced(kind, dtype, a, b)
            d.write(dst - d.ptr, n, lambda out: np.copyto(out, result), call)
    _issue(rt, s, "reduce", 2 * count, run, (d, sa),
           {"dst": dst, "src": src, "size": count, "op": REDUCE_NAMES[kind]}, call,
           ((d, dst - d.ptr, n),))


# ----- value write and wait ---------------------------------------------------------------
def _value_target(rt, addr: int, stream: int, call: str):
    _null(call, devAddr=addr)
    _feature(rt, rt_features.VALUE_WAIT, call,
             _("value write / wait tasks (RT_FEATURE_TASK_VALUE_WAIT)"))
    s = rt.stream(stream, call)
    return s, _device(rt, addr, 8, "devAddr", call)


def value_write(rt, addr: int, value: int, flag: int, stream: int,
                call: str = "aclrtValueWrite") -> None:
    s, a = _value_target(rt, addr, stream, call)
    if flag != 0:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: flag must be 0.").format(call=call))
    data = np.frombuffer(struct.pack("<Q", value), np.uint8)
    _issue(rt, s, "value_write", 8,
           lambda: a.write(addr - a.ptr, 8, lambda out: np.copyto(out, data), call), (a,),
           {"ptr": addr, "value": value}, call, ((a, addr - a.ptr, 8),))


def _holds(flag: int, current: int, value: int) -> bool:
    return {C.ACL_STREAM_WAIT_VALUE_GEQ: current >= value,
            C.ACL_STREAM_WAIT_VALUE_EQ: current == value,
            C.ACL_STREAM_WAIT_VALUE_AND: current & value != 0,
            C.ACL_STREAM_WAIT_VALUE_NOR: ~(current | value) & (1 << 64) - 1 != 0}[flag]


def _another_thread_may_write() -> bool:
    """Is another thread of the program alive, which may still queue the write? (Not a daemon
    thread: Jupyter's own are daemons, and a lone notebook cell must not wait.)"""
    me = threading.current_thread()
    return any(t is not me and t.is_alive() and not t.daemon for t in threading.enumerate())


def value_wait(rt, addr: int, value: int, flag: int, stream: int,
               call: str = "aclrtValueWait") -> None:
    """The stream waits until the 64-bit value at ``addr`` satisfies ``flag`` against
    ``value``. Work queued on other streams runs, task by task, until it does; then, while
    another thread of the program lives, it waits (lock released) for that thread to queue
    the write, at most VALUE_WAIT_LIMIT_S; after that the task fails instead of waiting for
    ever as the device would."""
    s, a = _value_target(rt, addr, stream, call)
    if flag not in WAIT_NAMES:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: flag {flag} is not ACL_STREAM_WAIT_VALUE_GEQ (0), _EQ, _AND or _NOR "
            "(3).").format(call=call, flag=flag))
    here = np.empty(8, np.uint8)

    def current() -> int:
        a.read_into(addr - a.ptr, 8, here)
        return int.from_bytes(here.tobytes(), "little")

    def run() -> None:
        sched, deadline = rt.sched, None
        while not _holds(flag, current(), value):
            other = next((o for o in sched.queued_streams() if o is not s and o.pending
                          and o.pending[0] not in sched.running), None)
            if other is not None:
                sched.run_until(other, other.pending[0].seq)
                continue
            deadline = deadline or time.monotonic() + VALUE_WAIT_LIMIT_S
            alone = not _another_thread_may_write()
            if alone or time.monotonic() > deadline:
                raise TaskFailed(C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, _(
                    "{call}: stream {stream} waits for the value at {ptr} to be {cond} {value}, "
                    "and {reason}: on a device this wait never ends. Write the value first "
                    "(acl.rt.value_write on another stream, or a copy).").format(
                        call=call, stream=f"0x{s.handle:x}", ptr=f"0x{addr:x}",
                        cond=WAIT_NAMES[flag], value=value,
                        reason=_("nothing queued writes it so") if alone else
                        _("no other thread queued such a write within {limit:g} s").format(
                            limit=VALUE_WAIT_LIMIT_S)))
            interrupts.checkpoint()
            threading.Condition(rt.lock).wait(0.05)     # the lock released: others go on
    _issue(rt, s, "value_wait", 8, run, (a,), {"ptr": addr, "value": value}, call)


# ----- copies by descriptor, and copies of page-locked memory only -----------------------
def _copy_kind(call: str, kind: int, *, inner_only: bool) -> None:
    if not 0 <= kind < MEMCPY_KIND_MAX:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: kind {kind} is not an aclrtMemcpyKind (0 .. 7).").format(call=call,
                                                                           kind=kind))
    if inner_only and kind != C.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
            "{call}: kind {kind} is not supported: descriptor copies are "
            "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (6) only.").format(call=call,
                                                                   kind=kind_name(kind)))


def memcpy_desc_size(rt, kind: int, call: str = "aclrtGetMemcpyDescSize") -> int:
    _copy_kind(call, kind, inner_only=False)
    _feature(rt, rt_features.STARS, call, _("copy descriptors (a STARS task scheduler)"))
    _copy_kind(call, kind, inner_only=True)
    return rt_features.MEMCPY_DESC_SIZE


def _descriptor(rt, desc: int, call: str):
    """The device memory a copy descriptor sits in (its size from aclrtGetMemcpyDescSize)."""
    return _device(rt, desc, rt_features.MEMCPY_DESC_SIZE, "desc", call)


def set_memcpy_desc(rt, desc: int, kind: int, src: int, dst: int, count: int, config: int,
                    call: str = "aclrtSetMemcpyDesc") -> int:
    _null(call, desc=desc)
    _copy_kind(call, kind, inner_only=False)
    _null(call, srcAddr=src, dstAddr=dst, count=count)
    if config != 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: config is a reserved parameter and must be 0 (NULL).").format(call=call))
    _feature(rt, rt_features.STARS, call, _("copy descriptors (a STARS task scheduler)"))
    _copy_kind(call, kind, inner_only=True)
    if count > MAX_D2D or desc % 64:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: count {count} is above 4 GiB, or desc {desc} is not 64-byte "
            "aligned.").format(call=call, count=count, desc=f"0x{desc:x}"))
    ctx = rt.require_ctx(call)
    a = _descriptor(rt, desc, call)
    _device(rt, src, count, "srcAddr", call, ctx.device)
    _device(rt, dst, count, "dstAddr", call, ctx.device)
    raw = np.frombuffer(DESC.pack(0, 0, 0, count, src, dst), np.uint8)
    rt.memory.ram.need(rt_features.MEMCPY_DESC_SIZE, call)
    a.write(desc - a.ptr, raw.size, lambda out: np.copyto(out, raw), call)
    rt.sched.now_us += rt.profile.rates.api_us
    return desc


def memcpy_async_with_desc(rt, desc: int, kind: int, stream: int,
                           call: str = "aclrtMemcpyAsyncWithDesc") -> None:
    """The copy the descriptor at ``desc`` describes (read when the task is issued)."""
    _null(call, desc=desc)
    _copy_kind(call, kind, inner_only=False)
    _null(call, stream=stream)
    _feature(rt, rt_features.STARS, call, _("copy descriptors (a STARS task scheduler)"))
    s = rt.stream(stream, call)
    _copy_kind(call, kind, inner_only=True)
    a = _descriptor(rt, desc, call)
    raw = np.empty(rt_features.MEMCPY_DESC_SIZE, np.uint8)
    a.read_into(desc - a.ptr, raw.size, raw)
    *_resv, count, src, dst = DESC.unpack(raw.tobytes())
    described = [(rt.memory.map.find(p), p) for p in (dst, src)]
    if not all(b is not None and b.location == "device" and b.device == s.device
               and p + count <= b.end for b, p in described):
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: the descriptor at {desc} does not describe a copy of this device's memory "
            "(len {count}, src {src}, dst {dst}); fill it with acl.rt.set_memcpy_desc "
            "first.").format(call=call, desc=f"0x{desc:x}", count=count, src=f"0x{src:x}",
                             dst=f"0x{dst:x}"))
    transfer.memcpy(rt, dst, count, src, count, C.ACL_MEMCPY_DEVICE_TO_DEVICE, stream,
                    call=call)


def memcpy_async_with_condition(rt, dst: int, dst_max: int, src: int, count: int, kind: int,
                                stream: int, call: str = "aclrtMemcpyAsyncWithCondition") -> None:
    """aclrtMemcpyAsync that refuses pageable host memory instead of turning synchronous
    (the runtime passes checkBitmap 0x2: check page-locked addresses)."""
    checked = count and dst and src and kind in ACCEPTED_KINDS
    for what, ptr in (("dst", dst), ("src", src)):
        block = rt.memory.map.find(ptr) if checked else None
        if block is not None and block.python_owned:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {what} {ptr} is pageable host memory ({block}); this copy takes "
                "page-locked memory only (acl.rt.malloc_host).").format(
                    call=call, what=what, ptr=f"0x{ptr:x}", block=block.describe()))
    transfer.memcpy(rt, dst, dst_max, src, count, kind, stream, call=call)
