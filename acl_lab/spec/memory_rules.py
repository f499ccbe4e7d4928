"""ACL's memory rules as data, shared by the simulator and the real-hardware guard: which
call frees what, what each allocator is called in C, which copy kinds exist and which
direction two pointers make. One table each, so both backends judge misuse alike."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

from acl_lab import constants as C
from acl_lab.align import DVPP_ALIGN, RUNTIME_ALIGN, align32_footprint, align_up, malloc_footprint
from acl_lab.i18n import N_, _
from acl_lab.spec.codes import acl_lab_check
from acl_lab.spec.refusal import Refusal

H2H, H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)
DEFAULT, BUF_H2D = C.ACL_MEMCPY_DEFAULT, C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE
#: kinds aclrtMemcpy / aclrtMemcpyAsync accept (others: ACL_ERROR_INVALID_PARAM)
ACCEPTED_KINDS = (H2H, H2D, D2H, D2D, DEFAULT, BUF_H2D)
#: (source location, destination location) -> the copy's real direction
DIRECTION = {("host", "host"): H2H, ("host", "device"): H2D,
             ("device", "host"): D2H, ("device", "device"): D2D}


@dataclass(frozen=True)
class AllocatorRule:
    """One way ACL hands out memory: its C name, the bytes it takes for ``size`` (None:
    Python's own buffer, registered as it is), the alignment of its starts, where its blocks
    live, and the one call that frees them (the seeds' pairing rules; None: nothing may)."""
    c_name: str
    footprint: Callable[[int], int] | None
    align: int
    location: str
    freed_by: str | None


ALLOCATORS = {
    "malloc": AllocatorRule("aclrtMalloc", malloc_footprint, RUNTIME_ALIGN, "device", "free"),
    "malloc_align32": AllocatorRule("aclrtMallocAlign32", align32_footprint, RUNTIME_ALIGN,
                                    "device", "free"),
    "malloc_cached": AllocatorRule("aclrtMallocCached", malloc_footprint, RUNTIME_ALIGN,
                                   "device", "free"),
    "dvpp_malloc": AllocatorRule("acldvppMalloc", malloc_footprint, DVPP_ALIGN, "device",
                                 "dvpp_free"),
    # aclrtMallocHost takes the size as asked: only its start is 64-byte aligned
    # (aclrtMallocHostImpl, src/acl/aclrt_impl/memory.cpp, passes size on unrounded)
    "malloc_host": AllocatorRule("aclrtMallocHost", lambda size: size, RUNTIME_ALIGN, "host",
                                 "free_host"),
    # the WithCfg allocators pass the size to the driver rounded to 32 B, without ACL's
    # padding (aclrtMallocInnerWithCfg; ApiImpl::DevMalloc / HostMallocWithCfg)
    "malloc_with_cfg": AllocatorRule("aclrtMallocWithCfg", align32_footprint, RUNTIME_ALIGN,
                                     "device", "free"),
    "malloc_for_task_scheduler": AllocatorRule("aclrtMallocForTaskScheduler", align32_footprint,
                                               RUNTIME_ALIGN, "device", "free"),
    "malloc_host_with_cfg": AllocatorRule("aclrtMallocHostWithCfg", align32_footprint,
                                          RUNTIME_ALIGN, "host", "free_host"),
    # the 64 KiB a thread's aclrtKernelArgsInit list is built in: the runtime's own
    "kernel_args": AllocatorRule(N_("aclrtKernelArgsInit (argument buffer)"), align32_footprint,
                                 RUNTIME_ALIGN, "host", None),
    # another process's device memory mapped by aclrtIpcMemImportByKey; aclrtIpcMemClose
    # unmaps it (no bytes of its own: footprint 0)
    "ipc_import": AllocatorRule("aclrtIpcMemImportByKey", lambda size: 0, RUNTIME_ALIGN,
                                "device", "ipc_mem_close"),
    # a reserved range mapped to physical memory (aclrtMapMem; sim/vmm.py), and the device
    # address of host memory aclrtHostRegister pinned: other addresses of bytes held elsewhere
    "map_mem": AllocatorRule("aclrtMapMem", lambda size: 0, RUNTIME_ALIGN, "device", "unmap_mem"),
    "host_register": AllocatorRule("aclrtHostRegister", lambda size: 0, RUNTIME_ALIGN, "device",
                                   "host_unregister"),
    # a block of a stream-ordered pool (sim/mem_pools.py): back to its pool in stream order
    "mem_pool": AllocatorRule("aclrtMemPoolMallocAsync", align32_footprint, RUNTIME_ALIGN,
                              "device", "mem_pool_free_async"),
    "model_work": AllocatorRule(N_("aclmdlLoadFromFile (model work memory)"), malloc_footprint,
                                RUNTIME_ALIGN, "device", "unload"),
    "model_weight": AllocatorRule(N_("aclmdlLoadFromFile (model weight memory)"), malloc_footprint,
                                  RUNTIME_ALIGN, "device", "unload"),
    "numpy": AllocatorRule("acl.util.numpy_to_ptr", None, RUNTIME_ALIGN, "host", None),
    "bytes": AllocatorRule("acl.util.bytes_to_ptr", None, RUNTIME_ALIGN, "host", None),
}
#: page types whose blocks take whole pages: a huge-page allocation occupies ALIGN_UP(its
#: padded size, page size) of the pool ("如何选择合适的内存分配策略", hicann/runtime
#: docs/zh/FAQ: a 1 KB HUGE_ONLY block "实际占用 2MB（大页对齐）", 10 MB with HUGE_FIRST
#: "对齐到2M"); normal-page blocks take their padded size
WHOLE_PAGES = ("huge", "huge1g")


def occupied(footprint: int, page: str, page_size: int) -> int:
    """Bytes of a pool of ``page`` pages (``page_size`` each) a block of ``footprint`` padded
    bytes occupies: whole pages on huge pages, the padded size on normal ones."""
    return align_up(footprint, page_size) if page in WHOLE_PAGES else footprint


def single_policy(policy: int) -> int:
    """The aclrtMemMallocPolicy ``policy`` acts as: itself when it is one enum value, else
    ACL_MEM_MALLOC_HUGE_FIRST (the default flags). aclMallocMemInner compares the policy
    with each enum value (src/acl/aclrt_impl/memory.cpp), so a value OR-ed with
    ACL_MEM_TYPE_*_BAND_WIDTH matches none: the runtime ignores the flag (the docs allow
    OR-ing on IPV350 only: acl_lab.spec.socs, malloc_policy_or)."""
    return policy if policy in _POLICIES else C.ACL_MEM_MALLOC_HUGE_FIRST


#: the aclrtMemMallocPolicy values aclMallocMemInner knows (HUGE_FIRST ... HUGE1G_ONLY_P2P)
_POLICIES = range(C.ACL_MEM_MALLOC_HUGE_FIRST, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P + 1)


#: allocator -> the one call that frees it (docs/rules.md#rule-1 and #rule-2)
FREED_BY = {api: rule.freed_by for api, rule in ALLOCATORS.items() if rule.freed_by}
_C_NAMES = {**{api: rule.c_name for api, rule in ALLOCATORS.items()},
            "free": "aclrtFree", "free_host": "aclrtFreeHost", "dvpp_free": "acldvppFree",
            "unload": "aclmdlUnload", "ipc_mem_close": "aclrtIpcMemClose",
            "unmap_mem": "aclrtUnmapMem", "host_unregister": "aclrtHostUnregister",
            "mem_pool_free_async": "aclrtMemPoolFreeAsync"}
#: numpy type numbers acl.util.ptr_to_numpy accepts (np.dtype(np.float32).num == 11)


def c_name(api: str) -> str:
    """The C name of a pyACL allocator / free call ("malloc_host" -> "aclrtMallocHost"), as
    a message shows it: what it adds to a C name in the learner's language."""
    return _(_C_NAMES.get(api, api))


def kind_name(kind: int) -> str:
    return C.MEMCPY_KIND_NAMES.get(kind, str(kind))


def root_array(arr: np.ndarray) -> np.ndarray:
    """The ndarray that owns ``arr``'s buffer, so views of one buffer share one registration."""
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr


def free_refusal(api: str, ptr: int, block, released: str | None, inside) -> str | None:
    """Why ``api`` (free / free_host / dvpp_free) must not release ``ptr``, or None if it may.

    ``block``: the live block starting at ``ptr``; ``released``: why ``ptr`` was released
    earlier, if it was; ``inside``: the live block containing ``ptr``. Blocks have ``ptr``,
    ``api`` and ``describe()``. Every refusal is ACL_ERROR_RT_PARAM_INVALID (the driver's
    DRV_ERROR_INVALID_VALUE, passed on by ACL)."""
    cname = c_name(api)
    if block is None:
        if released:
            return _("{call}: {ptr} was already released ({released}). Free each block "
                     "exactly once, and stop using the pointer after.").format(
                         call=cname, ptr=f"0x{ptr:x}", released=released)
        if inside is not None:
            return _("{call}: {ptr} points {offset} B inside {block}. Free the start "
                     "address the allocator returned, not an address inside the block.").format(
                         call=cname, ptr=f"0x{ptr:x}", offset=ptr - inside.ptr,
                         block=inside.describe())
        return _("{call}: {ptr} was not returned by any ACL allocator in this process. Only "
                 "free what aclrtMalloc / aclrtMallocHost / acldvppMalloc gave you.").format(
                     call=cname, ptr=f"0x{ptr:x}")
    wanted = FREED_BY.get(block.api)
    if wanted is None:
        return _("{call}: {ptr} is {block} — memory Python owns. Let the array / bytes "
                 "object go; ACL must not free it.").format(
                     call=cname, ptr=f"0x{ptr:x}", block=block.describe())
    if wanted != api:
        src, right = c_name(block.api), c_name(wanted)
        return _("{call}: {ptr} came from {src}, which is paired with {right}. {src} memory "
                 "is freed only by {right}, and {call} frees only what its own allocator "
                 "returned.").format(call=cname, ptr=f"0x{ptr:x}", src=src, right=right)
    return None


def range_refusal(call: str, what: str, addr: int, count: int, block,
                  released: str | None) -> str | None:
    """Why [addr, addr+count) is not usable memory (unknown, released, overrun), or None.
    ``block`` is the live block containing ``addr``; refusals are ACL_ERROR_RT_PARAM_INVALID."""
    if block is None:
        if released:
            return _("{call}: {what} {addr} was released ({released}); using it is a "
                     "use-after-free. Allocate again and use the new pointer.").format(
                         call=call, what=what, addr=f"0x{addr:x}", released=released)
        return _("{call}: {what} {addr} is not inside any memory this process allocated. "
                 "Use pointers from aclrtMalloc / aclrtMallocHost, or register a numpy array "
                 "with acl.util.numpy_to_ptr.").format(call=call, what=what, addr=f"0x{addr:x}")
    end = block.ptr + block.size
    if addr + count > end:
        return acl_lab_check(_(
            "{call}: {count} B at {what} {addr} run {past} B past the end of {block}. Use at "
            "most {most} B from there. (Real ACL cannot always see this; on hardware it "
            "corrupts memory or crashes.)").format(
                call=call, count=count, what=what, addr=f"0x{addr:x}", past=addr + count - end,
                block=block.describe(), most=end - addr))
    return None


def note_registration(spans: list, offset: int, array, writeable: bool) -> list:
    """The read-only spans ``(offset, nbytes)`` of a registered buffer after numpy_to_ptr of
    ``array`` at ``offset``: a read-only view makes its bytes read-only; registering a
    writable array over them again makes them writable (the latest registration decides)."""
    span = (offset, array.nbytes)
    if not writeable:
        return spans if span in spans else spans + [span]
    return [(lo, n) for lo, n in spans if not (offset <= lo and lo + n <= offset + array.nbytes)]


def constant_spans(obj, frame) -> list:
    """The read-only spans of a bytes object registered from ``frame``: all of it if it is a
    constant of the code running there or in a caller (a bytes literal: every run of that
    code shares the object, and writing into it would rewrite the literal); else none."""
    while frame is not None:
        if any(c is obj for c in frame.f_code.co_consts):
            return [(0, len(obj))]
        frame = frame.f_back
    return []


def is_read_only(owner, spans: list, offset: int, n: int) -> bool:
    """May nobody write [offset, offset+n) of pageable memory ``owner`` (a numpy array or a
    bytes-like object)? A read-only array or view (on hardware the write would fault or
    change data numpy promised nobody changes), the one-byte bytes objects every Python
    program shares, and bytes literals of the program's code (constant_spans). A program's
    own bytes object is written in place, as pyACL does."""
    if not isinstance(owner, np.ndarray):
        return isinstance(owner, bytes) and (len(owner) <= 1 or bool(spans))
    return not owner.flags.writeable or any(lo < offset + n and offset < lo + size
                                            for lo, size in spans)


def read_only_refusal(call: str, what: str, addr: int, block) -> str:
    """Why ``call`` must not write ``what`` at ``addr`` inside read-only ``block``."""
    owner = block.owner()
    if isinstance(owner, bytes) and len(owner) > 1:
        return _("{call}: {what} {addr} is {block}, a bytes literal of your code: every run "
                 "of that code shares the object, so writing into it would change the literal "
                 "itself. Copy into bytes(n) or bytearray(n) made when the code runs, or into "
                 "a numpy array, instead.").format(call=call, what=what, addr=f"0x{addr:x}",
                                                    block=block.describe())
    return _("{call}: {what} {addr} is {block}, which is read-only (a read-only numpy array "
             "or view, or a bytes object of at most one byte, which Python shares between all "
             "code). Write into a writable numpy array, a fresh bytes object of your own "
             "(np_data.tobytes()) or aclrtMallocHost memory instead.").format(
                 call=call, what=what, addr=f"0x{addr:x}", block=block.describe())


def kind_refusal(call: str, kind: int, dst, src) -> str | None:
    """Why an aclrtMemcpy2d must not copy from ``src`` to ``dst`` (blocks with ``location``
    and ``describe()``) with ``kind``, or None. Only the 2D copies compare the kind with the
    pointers: for aclrtMemcpy(Async) the kind is reserved and the addresses decide (the
    runtime passes it on and the driver copies by the addresses, hicann/runtime
    NpuDriver::MemCopySync)."""
    actual = DIRECTION[(src.location, dst.location)]
    if (H2D if kind == BUF_H2D else kind) in (DEFAULT, actual):
        return None
    return _("{call}: kind {kind} does not match the pointers: the source is {src_memory} "
             "({src}) and the destination is {dst_memory} ({dst}), so this is {actual}. Pass "
             "{actual} (or ACL_MEMCPY_DEFAULT).").format(
                 call=call, kind=kind_name(kind), src_memory=_memory_word(src.location),
                 src=src.describe(), dst_memory=_memory_word(dst.location), dst=dst.describe(),
                 actual=kind_name(actual))


#: (source pageable?, source location, destination pageable?, destination location) -> the
#: kinds aclrtMemcpyAsync accepts when pageable memory (a numpy array, bytes) takes part: the
#: runtime's MemcpyKindReviseMap (src/runtime/api/impl/api_error.cc), where pageable memory
#: is RT_MEMORY_LOC_UNREGISTERED; pinned and device memory get their kind corrected instead
_PAGEABLE_KINDS = {
    ("pageable", "device"): (H2D, D2D), ("device", "pageable"): (D2H, D2D),
    ("host", "pageable"): (H2H, H2D), ("pageable", "host"): (H2H, D2H),
    ("pageable", "pageable"): (H2H, H2D, D2H, D2D),
}


def async_kind_refusal(call: str, kind: int, dst, src) -> str | None:
    """Why aclrtMemcpyAsync must not copy ``src`` to ``dst`` (blocks with ``location``,
    ``python_owned`` and ``describe()``) with ``kind`` in ACL_HOST run mode, or None. For the
    async copy the kind is a real parameter (11-03 aclrtMemcpyAsync): the runtime corrects a
    kind that contradicts pinned or device memory (MemcpyKindAutoCorrect), but where pageable
    memory takes part only the kinds of _PAGEABLE_KINDS pass (RT_ERROR_INVALID_VALUE, i.e.
    ACL_ERROR_RT_PARAM_INVALID, otherwise)."""
    key = ("pageable" if src.python_owned else src.location,
           "pageable" if dst.python_owned else dst.location)
    allowed = _PAGEABLE_KINDS.get(key)
    if allowed is None or kind in allowed or kind not in (H2H, H2D, D2H, D2D):
        return None          # DEFAULT is inferred; other kinds skip the correction
    return _("{call}: kind {kind} does not fit these pointers: the source is {src} and the "
             "destination {dst}. With pageable memory (a numpy array or bytes) in an "
             "asynchronous copy the runtime accepts only {allowed} (or ACL_MEMCPY_DEFAULT); "
             "pass the kind that names the copy's direction.").format(
                 call=call, kind=kind_name(kind), src=src.describe(), dst=dst.describe(),
                 allowed=", ".join(kind_name(k) for k in allowed))


def _memory_word(location: str) -> str:
    """"host memory" / "device memory" in the learner's language."""
    return _("device memory") if location == "device" else _("host memory")


def _refcount(holder, attr: str) -> int:
    return sys.getrefcount(getattr(holder, attr))


class _Probe:
    owner = None


_PROBE = _Probe()
_PROBE.owner = bytearray(1)
_HELD_ONCE = _refcount(_PROBE, "owner")


def program_holds(holder, attr: str) -> bool:
    """Does anything besides ``holder.attr`` still reference that object?"""
    return _refcount(holder, attr) > _HELD_ONCE


#: bytes objects the program already dropped that a registry keeps alive anyway: pyACL keeps
#: no reference, yet official samples pass a temporary (bytes_to_ptr(image.tobytes())) and
#: use the pointer afterwards, which on hardware only works while the freed memory is left
#: alone. The newest ones stay valid; beyond this bound they are released.
KEEP_DROPPED, KEEP_DROPPED_BYTES = 64, 64 << 20


def dropped_beyond_bound(registrations: list, attr: str) -> list:
    """Of bytes ``registrations`` (oldest first, each with ``size`` and the object at
    ``attr``), those whose object the program dropped, beyond the newest KEEP_DROPPED (at
    most KEEP_DROPPED_BYTES): the ones to release."""
    dropped = [r for r in registrations if not program_holds(r, attr)]
    kept, total = 0, 0
    for r in reversed(dropped):
        if kept == KEEP_DROPPED or total + r.size > KEEP_DROPPED_BYTES:
            break
        kept, total = kept + 1, total + r.size
    return dropped[:len(dropped) - kept]


def would_crash(message: str) -> str:
    """``explain`` for a host read real pyACL would make and crash on."""
    return _("{message} On real hardware this call would read invalid memory and crash the "
             "Python process.").format(message=message)


def host_readable(address_map, ptr: int, nbytes: int, call: str, run_mode: int,
                  what: str = "ptr", code: int | None = None):
    """The block holding the ``nbytes`` at ``ptr`` that the host CPU is about to read
    (``acl.util.ptr_to_numpy`` / ``ptr_to_bytes``, the aclprofGetOp* getters); where real
    pyACL would read invalid memory and crash the process, a Refusal that says so (``code``:
    the call's own where it has one). In ACL_HOST mode device memory is such memory (the CPU
    cannot reach HBM); in ACL_DEVICE mode the code runs on the device's CPU, which can."""
    block = address_map.resolve(ptr, nbytes, what, call, code=code, explain=would_crash)
    if block.location == "device" and run_mode == C.ACL_HOST:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                      _("{call}: {ptr} is device memory ({block}). The host CPU cannot read "
                        "it: real pyACL would crash the process (segmentation fault). Copy "
                        "it to host memory first with acl.rt.memcpy(..., "
                        "ACL_MEMCPY_DEVICE_TO_HOST).").format(call=call, ptr=f"0x{ptr:x}",
                                                               block=block.describe()))
    return block
