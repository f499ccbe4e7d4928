"""Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem ...):
reserved address ranges, physical memory behind handles, the mappings between them.

The sequence the CANN docs give (hicann/runtime
docs/zh/api_ref/11-04_virtual_memory_management.md): reserve → malloc_physical → map → use → unmap → free_physical → release. Reserving takes addresses,
no memory; physical memory takes pages of a device pool (aclrtGetMemInfo sees it) and has no
address; a mapping gives physical memory an address inside a reserved range, where copies,
memset and ptr_to_numpy reach its bytes (a ``Mapped`` block in the address map: another
address of the same storage, so one handle mapped into two ranges shows the same bytes).

Codes mirror hicann/runtime: ACL's own checks (src/acl/aclrt_impl/memory.cpp, aclrt*Impl:
NULL, a zero size, flags) are ACL_ERROR_INVALID_PARAM; what the driver refuses
(halMemAddressReserve / halMemCreate / halMemMap / halMemUnmap / halMemRelease, through
NpuDriver in src/runtime/driver/npu_driver_mem.cc: DRV_ERROR_INVALID_VALUE) is
ACL_ERROR_RT_PARAM_INVALID; out of memory ACL_ERROR_RT_MEMORY_ALLOCATION; a chip without
the feature ACL_ERROR_RT_FEATURE_NOT_SUPPORT (spec/socs.py says which).

Where the kit differs, on purpose: aclrtUnmapMem waits for queued work that uses the range
(hardware does not: torch_npu synchronizes first, and forgetting to is a field bug that
corrupts memory, which a sandbox must not do); one process plays both sides of sharing, as
sim/ipc.py does; an array view (ptr_to_numpy, an aclnn tensor) must lie inside one mapping,
while copies and memset may span adjacent ones (a ``Run``).
"""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.codes import acl_lab_check
from acl_lab.sim.ipc import PROCESS_ID, Alias
from acl_lab.sim.memory import Allocation
from acl_lab.sim.simerror import SimError
from acl_lab.spec import socs, vmm_rules

TiB = 1 << 40
VA_BASE, VA_SIZE = 16 * TiB, 2 * TiB   # reserved ranges (the docs' 16T-24T, below the pools)
HANDLE_BASE = 0x5D00_0000_0000          # aclrtDrvMemHandle values (modeled, deterministic)
HANDLE_STEP = 0x40
SHAREABLE_BASE = 0x5348_0000_0000       # shareable handles (modeled)
RESERVE_ALIGN = vmm_rules.GRANULARITY["huge"]


class Physical:
    """Memory from aclrtMallocPhysical: pages of a pool, no address of its own."""

    def __init__(self, block: Allocation, prop: vmm_rules.Prop):
        self.block, self.prop = block, prop
        self.handles: list[Handle] = []     # live handles (the exporter's and importers')
        self.mappings: list[Mapped] = []    # where it is mapped
        self.shareable: int | None = None
        self.check_pid, self.pids = True, set()

    @property
    def size(self) -> int:
        return self.block.size


class Handle:
    def __init__(self, number: int, physical: Physical, device: int, imported: bool):
        self.number, self.physical, self.device, self.imported = (number, physical, device,
                                                                  imported)


class Mapped(Alias):
    """A mapped part of a reserved range: another address of a physical allocation's bytes.
    ``access``: (location type, id) -> aclrtMemAccessFlags; aclrtMapMem grants its own
    device read-write, aclrtMemMapNoAccess nothing (sim/vmm_access.py sets the rest)."""

    __slots__ = ("handle", "access")

    def __init__(self, va: int, handle: Handle, access: bool = True):
        physical = handle.physical
        super().__init__(va, physical.block, 0, physical.size, {})
        self.api, self.device, self.handle = "map_mem", handle.device, handle
        self.access = {self.own: C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE} if access else {}

    @property
    def own(self) -> tuple[int, int]:
        return C.ACL_MEM_LOCATION_TYPE_DEVICE, self.handle.device

    @property
    def reachable(self) -> bool:
        """Its device may touch it: only then is it in the address map."""
        return self.own in self.access

    def alive(self) -> bool:
        return True          # unmapped explicitly (or at a device reset), never by itself


class Run(Allocation):
    """Mappings that follow each other in one reserved range, as one block of the address
    map: a copy or memset may span them, as it does on hardware (torch_npu's tensors span
    the chunks of an expandable segment)."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: list[Mapped]):
        first = pieces[0]
        super().__init__(first.ptr, pieces[-1].end - first.ptr, 0, "map_mem", "device",
                         first.device, first.pool)
        self.pieces = pieces

    def alive(self) -> bool:
        return True

    def _parts(self, offset: int, n: int):
        """(piece, offset in it, offset in the request, bytes) of [offset, offset+n)."""
        at, end = self.ptr + offset, self.ptr + offset + max(n, 0)
        for p in self.pieces:
            lo, hi = max(at, p.ptr), min(end, p.end)
            if lo < hi or (n == 0 and p.ptr <= at < p.end):
                yield p, lo - p.ptr, lo - at, hi - lo

    def _one(self, offset: int, n: int, call: str):
        parts = list(self._parts(offset, n))
        if len(parts) == 1:
            return parts[0][0], parts[0][1]
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, acl_lab_check(_(
            "{call}: [0x{at:x}, +{n}) spans {count} mappings; the simulator gives one array "
            "view of one mapping at a time (copies and memset may span them). Use a view "
            "inside one mapping, or copy the bytes out with acl.rt.memcpy.").format(
                call=call or "acl_lab", at=self.ptr + offset, n=n, count=len(parts))))

    def view(self, offset, n, call=""):
        piece, at = self._one(offset, n, call)
        return piece.view(at, n, call)

    def window(self, offset, n, call=""):
        piece, at = self._one(offset, n, call)
        return piece.window(at, n, call)

    def write(self, offset, n, writer, call=""):
        parts = list(self._parts(offset, n))
        if len(parts) == 1:
            parts[0][0].write(parts[0][1], n, writer, call)
            return
        data = np.empty(n, np.uint8)
        writer(data)
        for piece, at, start, k in parts:
            piece.write(at, k, lambda out, s=start, k=k: np.copyto(out, data[s:s + k]), call)

    def read_into(self, offset, n, out):
        for piece, at, start, k in self._parts(offset, n):
            piece.read_into(at, k, out[start:start + k])

    def read_scratch(self, offset, n):
        return sum(piece.read_scratch(at, k) for piece, at, _s, k in self._parts(offset, n))

    def touch_edges(self, offset, n, call=""):
        for piece, at, _s, k in self._parts(offset, n):
            piece.touch_edges(at, k, call)

    def fresh_bytes(self, offset, n):
        return sum(piece.fresh_bytes(at, k) for piece, at, _s, k in self._parts(offset, n))


class Reservation:
    def __init__(self, va: int, size: int):
        self.va, self.size = va, size
        self.mappings: dict[int, Mapped] = {}
        self.runs: list[Run] = []          # the blocks of the address map it holds

    @property
    def end(self) -> int:
        return self.va + self.size


def _null(call: str, what: str) -> SimError:
    return SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: {what} is NULL (0).").format(
        call=call, what=what))


def _invalid(message: str) -> SimError:
    return SimError(C.ACL_ERROR_RT_PARAM_INVALID, message)


class VirtualMemory:
    def __init__(self, rt):
        self.rt = rt
        self.reservations: dict[int, Reservation] = {}
        self.handles: dict[int, Handle] = {}
        self.shared: dict[int, Physical] = {}
        self.deferred: list[Physical] = []    # freed while mapped: pages kept until unmapped
        self._count = 0
        rt.memory.map.unmapped = self.unmapped_why

    # ----- what the chip offers ---------------------------------------------------------
    def supported(self, call: str) -> None:
        """The SoC table's virtual_memory columns (the 310B in its RC form refuses)."""
        self.rt.require_ctx(call)
        profile = self.rt.profile
        try:
            soc = socs.soc_of(profile.soc_name)
        except KeyError:
            return
        rc = profile.run_mode == C.ACL_DEVICE
        if not (soc.virtual_memory_rc if rc else soc.virtual_memory):
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: {soc} (profile '{profile}'{rc}) has no virtual memory management. "
                "Use acl.rt.malloc, or a profile that has it (910b, 310p).").format(
                    call=call, soc=profile.soc_name, profile=profile.name,
                    rc=_(", ACL_DEVICE run mode") if rc else ""))

    def _prop(self, call: str, prop) -> vmm_rules.Prop:
        p = vmm_rules.read_prop(call, prop)
        vmm_rules.check_prop(call, p)
        return p

    def _device_prop(self, call: str, p: vmm_rules.Prop) -> int:
        device = vmm_rules.device_location(call, p, self.rt.profile.device_count)
        if p.page == "huge1g" and not self.rt.profile.soc.huge1g_pages:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: {name}: {soc} has no 1 GiB huge pages (Atlas A2 / A3 have them). Use "
                "ACL_HBM_MEM_HUGE.").format(call=call, name=C.MEM_ATTR_NAMES[p.mem_attr],
                                            soc=self.rt.profile.soc_name))
        return device

    def granularity(self, prop, option: int) -> int:
        call = "aclrtMemGetAllocationGranularity"
        p = self._prop(call, prop)
        self.supported(call)
        self._device_prop(call, p)
        if option not in (C.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
                          C.ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED):
            raise _invalid(_("{call}: option {option} is neither "
                             "ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM (0) nor _RECOMMENDED (1)."
                             ).format(call=call, option=option))
        return p.granularity

    # ----- addresses --------------------------------------------------------------------
    def reserve(self, size: int, alignment: int, expect_ptr: int, flags: int) -> int:
        call = "aclrtReserveMemAddress"
        if size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: size is 0. Reserve at least one granule (2 MiB).").format(call=call))
        if flags not in (0, 1):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: flags is {flags}; pass 0.").format(call=call, flags=flags))
        self.supported(call)
        if alignment != 0:
            raise _invalid(_("{call}: alignment is {alignment}; it is reserved and must be 0 "
                             "(ranges start on a 2 MiB boundary).").format(
                                 call=call, alignment=alignment))
        span = -(-size // RESERVE_ALIGN) * RESERVE_ALIGN
        align = vmm_rules.GIB if size > vmm_rules.GIB else RESERVE_ALIGN
        if expect_ptr:
            va = self._reserve_at(call, expect_ptr, span, align)
        else:
            va = self._first_fit(span, align)
        if va is None:
            raise SimError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, _(
                "{call}: no free range of {size} B is left among this process's reservable "
                "addresses. Release ranges you no longer need.").format(call=call, size=size))
        self.reservations[va] = Reservation(va, span)
        return va

    def _reserve_at(self, call: str, want: int, span: int, align: int) -> int:
        """A chosen start (experimental in CANN): inside the range, aligned, free."""
        fits = VA_BASE <= want and want + span <= VA_BASE + VA_SIZE and want % align == 0
        if fits and any(want < r.end and r.va < want + span
                        for r in self.reservations.values()):
            fits = False
        if not fits:
            raise _invalid(_(
                "{call}: expectPtr 0x{want:x} is not a free, {align} B-aligned start inside "
                "the reservable addresses (0x{lo:x} to 0x{hi:x} in the simulator). Pass 0 and "
                "let the runtime choose: a chosen address is an experimental feature.").format(
                    call=call, want=want, align=align, lo=VA_BASE, hi=VA_BASE + VA_SIZE))
        return want

    def _first_fit(self, span: int, align: int) -> int | None:
        """The lowest free, aligned start for ``span`` bytes (deterministic addresses)."""
        at = VA_BASE
        for r in sorted(self.reservations.values(), key=lambda r: r.va):
            if at + span <= r.va:
                break
            at = max(at, -(-r.end // align) * align)
        return at if at + span <= VA_BASE + VA_SIZE else None

    def release(self, va: int) -> None:
        call = "aclrtReleaseMemAddress"
        if va == 0:
            raise _null(call, "virPtr")
        self.supported(call)
        r = self._reservation_at(call, va)
        if r.mappings:
            raise _invalid(_(
                "{call}: range 0x{va:x} still has {n} mapping(s) ({where}). Unmap them first "
                "(acl.rt.unmap_mem), then release the range.").format(
                    call=call, va=va, n=len(r.mappings),
                    where=", ".join(f"0x{m:x}" for m in sorted(r.mappings)[:4])))
        del self.reservations[va]

    def _reservation_at(self, call: str, va: int) -> Reservation:
        r = self.reservations.get(va)
        if r is None:
            inside = self.reservation_of(va)
            raise _invalid(_(
                "{call}: 0x{va:x} is {what}. Pass the address acl.rt.reserve_mem_address "
                "returned.").format(call=call, va=va, what=_(
                    "inside range 0x{start:x}, not its start").format(start=inside.va)
                    if inside else _("not a reserved range of this process")))
        return r

    def unmapped_why(self, call: str, what: str, va: int) -> str | None:
        """Why a copy, memset or view at a reserved but unmapped address fails."""
        r = self.reservation_of(va)
        if r is None:
            return None
        m = self.mapping_at(va)
        if m is not None:       # a device fault on hardware, found when the stream runs
            return acl_lab_check(_(
                "{call}: {what} 0x{va:x} is in the mapping at 0x{start:x}, made without "
                "access (acl.rt.mem_map_no_access): device {device} has no page table for it "
                "yet. Grant access first: acl.rt.mem_set_access(0x{start:x}, {size}, "
                "[{{'flags': ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 'location': {{'id': {device}, "
                "'type': ACL_MEM_LOCATION_TYPE_DEVICE}}}}]).").format(
                    call=call, what=what, va=va, start=m.ptr, device=m.handle.device,
                    size=m.size))
        return _("{call}: {what} 0x{va:x} is inside reserved range 0x{start:x} ({size} B), "
                 "but nothing is mapped there: reserving takes addresses, not memory. Map "
                 "physical memory first (acl.rt.malloc_physical, then acl.rt.map_mem).").format(
                     call=call, what=what, va=va, start=r.va, size=r.size)

    def reservation_of(self, va: int) -> Reservation | None:
        return next((r for r in self.reservations.values() if r.va <= va < r.end), None)

    def mapping_at(self, va: int) -> Mapped | None:
        """The mapping holding ``va``, with access or without."""
        r = self.reservation_of(va)
        return next((m for m in r.mappings.values() if m.ptr <= va < m.end), None) if r else None

    # ----- physical memory --------------------------------------------------------------
    def malloc_physical(self, size: int, prop, flags: int) -> int:
        call = "aclrtMallocPhysical"
        p = self._prop(call, prop)
        if size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: size is 0. Ask for a multiple of the granularity "
                "(acl.rt.mem_get_allocation_granularity).").format(call=call))
        if flags != 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: flags is {flags}; it is reserved and must be 0.").format(
                    call=call, flags=flags))
        self.supported(call)
        device = self._device_prop(call, p)
        block = self._pages(call, device, size, p)
        physical = Physical(block, p)
        return self._new_handle(physical, device, imported=False).number

    def _pages(self, call: str, device: int, size: int, p: vmm_rules.Prop) -> Allocation:
        """Whole granules of a pool of the page kind the attribute takes (HBM first)."""
        memory = self.rt.memory
        taken = -(-size // p.granularity) * p.granularity
        kind = "HBM" if "HBM" in self.rt.profile.kinds else "DDR"   # DDR-only chips: DDR
        pools = [pool for pool in memory.device_pools[device]
                 if pool.spec.kind == kind and pool.spec.page == p.page and pool.spec.p2p == p.p2p]
        if not pools:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: {soc} has no {name} pages on device {device}.").format(
                    call=call, soc=self.rt.profile.soc_name, name=C.MEM_ATTR_NAMES[p.mem_attr],
                    device=device))
        for pool in pools:
            ptr = pool.blocks.alloc(taken, pool.spec.page_size) if taken < 1 << 62 else None
            if ptr is not None:
                break
        else:
            raise SimError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, _(
                "{call}: cannot take {taken} B ({size} B asked) of {name} on device {device}: "
                "{free} B free, largest block {largest} B. Free physical memory you no longer "
                "need, or ask for less.").format(
                    call=call, taken=taken, size=size, name=C.MEM_ATTR_NAMES[p.mem_attr],
                    device=device, free=sum(q.blocks.free for q in pools),
                    largest=max(q.blocks.largest_free for q in pools)))
        block = Allocation(ptr, size, taken, "malloc_physical", "device", device, pool,
                           occupied=taken)
        pool.storage.claim(ptr - pool.base, taken)    # fresh memory: garbage
        return block

    def _new_handle(self, physical: Physical, device: int, imported: bool) -> Handle:
        self._count += 1
        h = Handle(HANDLE_BASE + self._count * HANDLE_STEP, physical, device, imported)
        physical.handles.append(h)
        self.handles[h.number] = h
        return h

    def handle(self, call: str, number: int) -> Handle:
        if number == 0:
            raise _null(call, "handle")
        h = self.handles.get(number)
        if h is None:
            raise _invalid(_("{call}: handle 0x{h:x} is not a live physical memory handle "
                             "(never allocated, or freed already). Use what "
                             "acl.rt.malloc_physical returned.").format(call=call, h=number))
        return h

    def free_physical(self, number: int) -> None:
        call = "aclrtFreePhysical"
        if number == 0:
            raise _null(call, "handle")
        self.supported(call)
        h = self.handle(call, number)
        del self.handles[number]
        physical = h.physical
        physical.handles.remove(h)
        if physical.mappings and not physical.handles and physical not in self.deferred:
            self.deferred.append(physical)    # the pages go at the last unmap (11-04)
        self._maybe_release(physical)

    def _maybe_release(self, physical: Physical) -> None:
        if physical.handles or physical.mappings:
            return
        if physical in self.deferred:
            self.deferred.remove(physical)
        if physical.shareable is not None:
            self.shared.pop(physical.shareable, None)
        block = physical.block
        block.pool.blocks.give_back(block.ptr, block.occupied)
        block.pool.storage.forget(block.ptr - block.pool.base, block.footprint)

    # ----- mapping ------------------------------------------------------------------------
    def map(self, va: int, size: int, offset: int, number: int, flags: int,
            call: str = "aclrtMapMem") -> None:
        """aclrtMapMem; aclrtMemMapNoAccess (the same checks in memory.cpp's Impl and the
        driver) maps without access: nothing reaches it until aclrtMemSetAccess."""
        if va == 0:
            raise _null(call, "virPtr")
        if number == 0:
            raise _null(call, "handle")
        if size == 0 or flags != 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: size {size} and flags {flags}: size must be the physical "
                "allocation's size and flags 0.").format(call=call, size=size, flags=flags))
        self.supported(call)
        h = self.handle(call, number)
        self._check_map(call, va, size, offset, h)
        m, r = Mapped(va, h, access=call == "aclrtMapMem"), self.reservation_of(va)
        r.mappings[va] = m
        h.physical.mappings.append(m)
        self.rejoin(r, _("remapped"))

    def rejoin(self, r: Reservation, why: str) -> None:
        """The address map's blocks of ``r``: one Run per stretch of adjacent mappings."""
        memory_map = self.rt.memory.map
        for run in r.runs:
            memory_map.drop(run, why)
        r.runs, pieces = [], []
        for m in sorted((m for m in r.mappings.values() if m.reachable), key=lambda m: m.ptr):
            if pieces and pieces[-1].end != m.ptr:
                r.runs.append(Run(pieces))
                pieces = []
            pieces.append(m)
        if pieces:
            r.runs.append(Run(pieces))
        for run in r.runs:
            memory_map.add(run)

    def _check_map(self, call: str, va: int, size: int, offset: int, h: Handle) -> None:
        physical, r = h.physical, self.reservation_of(va)
        why = None
        if offset != 0:
            why = _("offset is {offset}; it must be 0 (a mapping starts at the beginning of "
                    "its physical memory).").format(offset=offset)
        elif r is None:
            why = _("0x{va:x} is not inside a reserved range. Reserve one first "
                    "(acl.rt.reserve_mem_address).").format(va=va)
        elif size != physical.size:
            why = _("size {size} differs from the physical allocation's {phys} B: a map "
                    "covers one whole handle.").format(size=size, phys=physical.size)
        elif size % physical.prop.granularity or va % physical.prop.granularity:
            why = _("address 0x{va:x} and size {size} must be multiples of the granularity, "
                    "{g} B.").format(va=va, size=size, g=physical.prop.granularity)
        elif va + size > r.end:
            why = _("[0x{va:x}, +{size}) runs past the end of range 0x{start:x} "
                    "({rsize} B).").format(va=va, size=size, start=r.va, rsize=r.size)
        else:
            clash = next((m for m in r.mappings.values()
                          if m.ptr < va + size and va < m.end), None)
            other = next(iter(r.mappings.values()), None)
            if clash is not None:
                why = _("[0x{va:x}, +{size}) overlaps the mapping at 0x{at:x}: a range is "
                        "mapped once. Unmap it first, or map at a free offset.").format(
                            va=va, size=size, at=clash.ptr)
            elif other is not None and other.handle.device != h.device:
                why = _("range 0x{start:x} already maps device {other}'s memory; a range does "
                        "not mix devices. Reserve another range for device {device}.").format(
                            start=r.va, other=other.handle.device, device=h.device)
            elif other is not None and other.handle.imported != h.imported:
                why = _("range 0x{start:x} already maps {kind} memory; a range does not mix "
                        "this process's handles with imported ones.").format(
                            start=r.va, kind=_("imported") if other.handle.imported
                            else _("this process's"))
        if why:
            raise _invalid(_("{call}: {why}").format(call=call, why=why))

    def unmap(self, va: int) -> None:
        call = "aclrtUnmapMem"
        if va == 0:
            raise _null(call, "virPtr")
        self.supported(call)
        r = self.reservation_of(va)
        m = r.mappings.get(va) if r else None
        if m is None:
            raise _invalid(_("{call}: nothing is mapped at 0x{va:x}. Pass the address you "
                             "gave acl.rt.map_mem.").format(call=call, va=va))
        if self.rt.sched.queued:       # see the module's docstring
            for run in r.runs:
                if run.ptr <= va < run.end:
                    self.rt._finish_work_on(run)
        self._drop(m, r, _("unmapped by {call}; its range is still reserved, with no "
                           "physical memory behind it").format(call=call))

    def _drop(self, m: Mapped, r: Reservation, why: str) -> None:
        del r.mappings[m.ptr]
        self.rejoin(r, why)
        physical = m.handle.physical
        physical.mappings.remove(m)
        self._maybe_release(physical)

    # ----- sharing between processes ----------------------------------------------------
    def export(self, number: int, handle_type: int, flags: int) -> int:
        call = "aclrtMemExportToShareableHandle"
        if number == 0:
            raise _null(call, "handle")
        if handle_type != C.ACL_MEM_HANDLE_TYPE_NONE:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: handleType must be ACL_MEM_HANDLE_TYPE_NONE (0), not {v}.").format(
                    call=call, v=handle_type))
        if flags > C.ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION:
            raise _invalid(_("{call}: flags {flags} is neither ACL_RT_VMM_EXPORT_FLAG_DEFAULT "
                             "(0) nor _DISABLE_PID_VALIDATION (1).").format(call=call,
                                                                         flags=flags))
        self.supported(call)
        h = self.handle(call, number)
        if h.imported or h.physical.shareable is not None:
            raise _invalid(_(
                "{call}: handle 0x{h:x} {why}; a handle and its shareable handle are one to "
                "one.").format(call=call, h=number, why=_("was imported") if h.imported
                               else _("is exported already")))
        physical = h.physical
        physical.shareable = SHAREABLE_BASE + self._count
        physical.check_pid = not flags & C.ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION
        self.shared[physical.shareable] = physical
        return physical.shareable

    def _shared(self, call: str, shareable: int) -> Physical:
        physical = self.shared.get(shareable)
        if physical is None or not physical.handles:
            raise _invalid(_("{call}: 0x{s:x} is not a shareable handle of live physical "
                             "memory (never exported, or every handle to it was freed)."
                             ).format(call=call, s=shareable))
        return physical

    def set_pids(self, shareable: int, pids: list[int]) -> None:
        call = "aclrtMemSetPidToShareableHandle"
        if not pids:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the pid list is empty; list the importing processes "
                "(acl.rt.device_get_bare_tgid gives a process's pid).").format(call=call))
        self.supported(call)
        self._shared(call, shareable).pids.update(pids)

    def import_(self, shareable: int, device: int) -> int:
        call = "aclrtMemImportFromShareableHandle"
        self.supported(call)
        if not 0 <= device < self.rt.profile.device_count:
            raise SimError(C.ACL_ERROR_RT_INVALID_DEVICEID, _(
                "{call}: deviceId {device} is not a device of this board.").format(
                    call=call, device=device))
        physical = self._shared(call, shareable)
        if physical.check_pid and PROCESS_ID not in physical.pids:
            raise SimError(C.ACL_ERROR_RT_NO_PERMISSION, _(
                "{call}: this process (pid {pid}) is not on the shareable handle's list. The "
                "exporting process adds it with acl.rt.mem_set_pid_to_shareable_handle("
                "shareable, [pid]), or exports with "
                "ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION.").format(call=call,
                                                                        pid=PROCESS_ID))
        return self._new_handle(physical, device, imported=True).number

    # ----- the device goes; what the snapshot shows ------------------------------------
    def forget(self, device: int, call: str) -> None:
        """aclrtResetDevice: the device's mappings and handles go with it, reported."""
        mine = [h for h in self.handles.values() if h.device == device]
        maps = [(m, r) for r in self.reservations.values() for m in r.mappings.values()
                if m.handle.device == device]
        if mine or maps:
            self.rt.report(_("{call}({device}): {handles} physical memory handle(s) never "
                             "freed and {maps} mapping(s) never unmapped; released now. Unmap, "
                             "free_physical and release_mem_address before resetting the "
                             "device.").format(call=call, device=device, handles=len(mine),
                                               maps=len(maps)))
        for m, r in maps:
            self._drop(m, r, _("released by {call}").format(call=f"{call}({device})"))
        for h in mine:
            del self.handles[h.number]
            h.physical.handles.remove(h)
            self._maybe_release(h.physical)

    def snapshot(self) -> dict:
        physicals = {id(h.physical): h.physical for h in self.handles.values()}
        physicals.update({id(p): p for p in self.deferred})
        return {
            "reservations": [
                {"va": r.va, "size": r.size,
                 "mappings": [{"va": m.ptr, "size": m.size, "handle": m.handle.number,
                               "device": m.handle.device, "access": [
                                   {"type": kind, "id": ident, "flags": flags}
                                   for (kind, ident), flags in sorted(m.access.items())]}
                              for m in
                              sorted(r.mappings.values(), key=lambda m: m.ptr)]}
                for r in sorted(self.reservations.values(), key=lambda r: r.va)],
            "physical": [
                {"handles": [h.number for h in p.handles], "size": p.size,
                 "occupied": p.block.occupied, "device": p.block.device,
                 "mem_attr": C.MEM_ATTR_NAMES[p.prop.mem_attr], "pool": p.block.pool.label,
                 "granularity": p.prop.granularity, "shareable": p.shareable,
                 "deferred_free": not p.handles,
                 "mapped_at": sorted(m.ptr for m in p.mappings)}
                for p in sorted(physicals.values(), key=lambda p: p.block.ptr)],
        }
