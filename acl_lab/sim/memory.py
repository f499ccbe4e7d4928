"""Page pools, allocations and the address map of one simulated process.

Device memory comes from per-device page pools (DDR/HBM x huge/normal/1G, P2P) sized by
the profile; aclrtMallocHost memory from a host pool of pinned pages; numpy arrays and
bytes passed through acl.util are registered as pageable host memory. Every allocation
is a byte range at a deterministic address; its bytes live in lazy storage.
"""
from __future__ import annotations

import ctypes
import functools
import sys
import weakref

import numpy as np

from acl_lab import constants as C
from acl_lab.support import interrupts
from acl_lab.i18n import _
from acl_lab.spec.address_map import AddressMap, Block
from acl_lab.spec.snapshot_schema import AllocationRow, PoolRow
from acl_lab.spec.memory_rules import ALLOCATORS, KEEP_DROPPED_BYTES, c_name, constant_spans, dropped_beyond_bound, note_registration, root_array
from acl_lab.align import RUNTIME_ALIGN, align32_footprint, align_up
from acl_lab.support.freelist import FreeList
from acl_lab.sim.profiles import GiB, MiB, PoolSpec, Profile
from acl_lab.sim.hostram import HostRam, mib
from acl_lab.sim.simerror import SimError
from acl_lab.sim.extents import storage_for

DEVICE_BASE = 0x12C0_0000_0000   # device d's pools start at DEVICE_BASE + d * DEVICE_STRIDE
DEVICE_STRIDE = 1 << 40
HOST_BASE = 0x7F10_0000_0000     # aclrtMallocHost (pinned) memory
PAGEABLE_BASE = 0x5610_0000_0000  # numpy arrays / bytes registered through acl.util
HUGE_FIRST_THRESHOLD = 1 * MiB   # HUGE_FIRST: padded sizes up to 1 MiB take normal pages
#: what a free call leaves for messages about the pointer: (its C name,), worded when asked;
#: ``release(a, FREED_BY_CALL[api])`` is the free call ``api`` (after ``map.check_free``)
FREED_BY_CALL = {api: (c_name(api),) for api in ("free", "free_host", "dvpp_free")}
_P2P_POLICIES = (C.ACL_MEM_MALLOC_HUGE_FIRST_P2P, C.ACL_MEM_MALLOC_HUGE_ONLY_P2P,
                 C.ACL_MEM_MALLOC_NORMAL_ONLY_P2P, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)

class Pool:
    """One page pool: an address range, its free list and its lazily stored bytes."""

    def __init__(self, spec: PoolSpec, device: int | None, base: int, ram: HostRam):
        self.spec, self.device, self.base = spec, device, base
        self.blocks = FreeList(base, spec.size)
        self.storage = storage_for(spec.size, salt=base // GiB * 37, ram=ram)

    @property
    def label(self) -> str:
        """The pool as snapshot() names it: "HBM normal (device 0)"."""
        where = "host" if self.device is None else f"device {self.device}"
        return f"{self.spec.label} ({where})"

    def words(self) -> str:
        """The pool in the learner's language, for messages: "HBM normal (device 0)"."""
        page = {"huge": _("huge"), "normal": _("normal"), "huge1g": _("huge1g")}[self.spec.page]
        where = _("host") if self.device is None else _("device {device}").format(
            device=self.device)
        return _("{kind} {page} ({where})").format(
            kind=f"{self.spec.kind}{' P2P' if self.spec.p2p else ''}", page=page, where=where)


class Allocation(Block):
    """One live block: device / pinned host memory from a pool, or a registered Python
    buffer (pageable host memory, ``pool`` None), with the bytes it holds."""

    __slots__ = ("footprint", "pool", "pinned", "policy")

    def __init__(self, ptr: int, size: int, footprint: int, api: str, location: str,
                 device: int | None, pool: Pool | None = None, pinned: bool = False,
                 policy: int | None = None, _owner=None):
        Block.__init__(self, ptr, size, api, location, device, _owner)
        self.footprint = footprint      # bytes taken from the pool (ALIGN_UP + padding)
        self.pool, self.pinned, self.policy = pool, pinned, policy

    @property
    def where(self) -> str:
        return self.pool.words() if self.pool else _("pageable host memory")

    def view(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """Writable uint8 view of ``n`` bytes at ``offset`` into this allocation."""
        if self.pool is not None:
            return self.pool.storage.view(self.ptr - self.pool.base + offset, n, call)
        return _flat_bytes(self.owner())[offset:offset + n]

    def window(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """view() for the program to keep (ptr_to_numpy): it counts against the budget
        for as long as it lives, even after the memory is freed (storage.Window)."""
        if self.pool is not None:
            return self.pool.storage.window(self.ptr - self.pool.base + offset, n, call)
        return _flat_bytes(self.owner())[offset:offset + n]

    def write(self, offset: int, n: int, writer, call: str = "") -> None:
        """``writer(view)`` writes all ``n`` bytes at ``offset`` (fresh memory it covers needs
        no garbage first)."""
        if self.pool is not None:
            self.pool.storage.write(self.ptr - self.pool.base + offset, n, writer, call)
        else:
            writer(_flat_bytes(self.owner())[offset:offset + n])

    def read_into(self, offset: int, n: int, out: np.ndarray) -> None:
        """Copy ``n`` bytes at ``offset`` into ``out`` (fresh memory is not touched by reading)."""
        if self.pool is not None:
            self.pool.storage.read_into(self.ptr - self.pool.base + offset, n, out)
        else:
            out[:] = _flat_bytes(self.owner())[offset:offset + n]

    def read_scratch(self, offset: int, n: int) -> int:
        """Host RAM read_into needs for a moment (reading fresh memory without touching it)."""
        if self.pool is None:
            return 0
        return self.pool.storage.read_scratch(self.ptr - self.pool.base + offset, n)

    def touch_edges(self, offset: int, n: int, call: str = "") -> None:
        """Before queueing a write of [offset, offset+n): the fresh chunks it covers in part
        get their garbage now (storage.py), so its promise of RAM is counted once."""
        if self.pool is not None:
            self.pool.storage.touch_edges(self.ptr - self.pool.base + offset, n, call)

    def fresh_bytes(self, offset: int, n: int) -> int:
        """Host RAM writing [offset, offset+n) would newly take."""
        if self.pool is None:
            return 0
        return self.pool.storage.fresh_bytes(self.ptr - self.pool.base + offset, n)


@interrupts.critical(callback=True)
def _array_gone(dead: list, key: int, _ref) -> None:
    """A registered array died: the next registration forgets it. (Python ignores an
    exception raised in a weakref callback: a Ctrl-C landing here waits until it ended.)"""
    dead.append(key)


def _flat_bytes(obj) -> np.ndarray:
    """The bytes of a registered object as a uint8 array, writable where pyACL writes too: a
    ``bytes`` object is written in place, as pyACL does through bytes_to_ptr's pointer."""
    if isinstance(obj, np.ndarray):     # in memory order (a Fortran-ordered array too)
        return obj.ravel(order="K").view(np.uint8)
    if isinstance(obj, bytes) and len(obj) > 1:    # one-byte objects are shared: read-only
        raw = (ctypes.c_uint8 * len(obj)).from_address(
            ctypes.cast(ctypes.c_char_p(obj), ctypes.c_void_p).value)
        raw.owner = obj     # a view handed out keeps the bytes object alive
        return np.ctypeslib.as_array(raw)
    return np.frombuffer(obj, dtype=np.uint8)



class Memory:
    """All memory of one simulated process."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self.ram = HostRam()
        self.device_pools: dict[int, list[Pool]] = {}
        for d in range(profile.device_count):
            base, pools = DEVICE_BASE + d * DEVICE_STRIDE, []
            for spec in profile.pools:
                pools.append(Pool(spec, d, base, self.ram))
                base += align_up(spec.size, GiB) + GiB   # a 1 GiB hole between pools
            self.device_pools[d] = pools
        host_spec = PoolSpec("host", "normal", profile.host_pinned)
        self.host_pool = Pool(host_spec, None, HOST_BASE, self.ram) if profile.host_pinned \
            else None
        self.map = AddressMap()               # every live allocation, by address
        self.allocs: dict[int, Allocation] = self.map.blocks
        self._pageable: dict[int, Allocation] = {}   # real buffer address -> registration
        self._next_pageable = PAGEABLE_BASE
        self._dead: list[int] = []   # registrations whose numpy array was garbage-collected
        self._sweep_bytes_at = 64    # registrations of bytes: look for dropped ones this often,
        self._bytes_since_sweep = 0  # or once this many bytes of them came since the last look
        self._plans: dict[tuple, tuple] = {}   # (device, policy, api) -> _plan's answer

    # ----- allocation -------------------------------------------------------------------
    def _pools_for(self, device: int, policy: int, footprint: int) -> list[Pool]:
        """Pools to try, in order, for a device allocation with this policy
        (docs/rules.md#rule-3)."""
        flags = policy & (C.ACL_MEM_TYPE_LOW_BAND_WIDTH | C.ACL_MEM_TYPE_HIGH_BAND_WIDTH)
        base = policy & 0xFF
        if base not in C.MALLOC_POLICY_NAMES or policy & ~C.MALLOC_POLICY_BITS:
            base, flags = C.ACL_MEM_MALLOC_HUGE_FIRST, 0   # unknown values: default flags
        p2p = base in _P2P_POLICIES
        if base in (C.ACL_MEM_MALLOC_HUGE_FIRST, C.ACL_MEM_MALLOC_HUGE_FIRST_P2P):
            # the driver compares the padded size: strictly above 1 MiB goes to huge pages
            pages = ["huge", "normal"] if footprint > HUGE_FIRST_THRESHOLD else ["normal"]
        elif base in (C.ACL_MEM_MALLOC_HUGE_ONLY, C.ACL_MEM_MALLOC_HUGE_ONLY_P2P):
            pages = ["huge"]
        elif base in (C.ACL_MEM_MALLOC_NORMAL_ONLY, C.ACL_MEM_MALLOC_NORMAL_ONLY_P2P):
            pages = ["normal"]
        else:
            pages = ["huge1g"]
        kinds = list(self.profile.kinds)
        if "HBM" in kinds:   # HBM is used first; the bandwidth flags pick one kind
            kinds = {C.ACL_MEM_TYPE_HIGH_BAND_WIDTH: ["HBM"],
                     C.ACL_MEM_TYPE_LOW_BAND_WIDTH: ["DDR"]}.get(flags, ["HBM", "DDR"])
        pools = self.device_pools[device]
        return [p for kind in kinds for page in pages for p in pools
                if p.spec.kind == kind and p.spec.page == page and p.spec.p2p == p2p]

    @staticmethod
    def check_size(size: int, call: str) -> None:
        """ACL refuses a zero size, or one whose rounding overflows size_t, before anything.
        ``call``: a C name, or an allocator's key (memory_rules.c_name words it)."""
        if 0 < size <= (1 << 64) - 32:   # ALIGN_UP(size, 32) fits in size_t
            return
        call = c_name(call)
        if size <= 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: size is {size}. Ask for at least 1 byte.").format(
                               call=call, size=size))
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: size {size} overflows size_t when rounded up to 32 "
                         "bytes. Ask for less.").format(call=call, size=size))

    def malloc(self, device: int, size: int, policy: int, api: str) -> Allocation:
        self.check_size(size, api)
        return self.place_device(device, size, policy, api)

    def place_device(self, device: int, size: int, policy: int, api: str) -> Allocation:
        """A device allocation from ``api`` (an ALLOCATORS key) for a size check_size passed."""
        plan = self._plans.get((device, policy, api)) or self._plan(device, policy, api)
        footprint, align, small, big = plan
        footprint = footprint(size)
        if footprint >= 1 << 64:   # C: size + padding wraps around size_t
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: size {size} plus {extra} B of rounding and padding "
                             "overflows size_t. Ask for less.").format(
                               call=c_name(api), size=size, extra=footprint - size))
        pools = big if footprint > HUGE_FIRST_THRESHOLD else small
        if not pools:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           _("{call}: {soc} (profile '{profile}') has no pages for policy "
                             "{policy}. Use ACL_MEM_MALLOC_HUGE_FIRST.").format(
                               call=c_name(api), soc=self.profile.soc_name,
                               profile=self.profile.name,
                               policy=C.MALLOC_POLICY_NAMES.get(policy & 0xFF, policy)))
        return self._place(pools, size, footprint, align, api, "device", device, policy)

    def _plan(self, device: int, policy: int, api: str) -> tuple:
        """How ``api`` allocates with ``policy`` on ``device``: (footprint rule, start
        alignment, pools for padded sizes up to 1 MiB, pools above), kept for next time."""
        base = C.ACL_MEM_MALLOC_HUGE_FIRST if policy & ~C.MALLOC_POLICY_BITS else policy & 0xFF
        if api == "malloc_cached" and base == C.ACL_MEM_MALLOC_HUGE_ONLY:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: cached memory cannot be ACL_MEM_MALLOC_HUGE_ONLY (the "
                             "driver refuses it). Use ACL_MEM_MALLOC_HUGE_FIRST or "
                             "NORMAL_ONLY.").format(call=c_name(api)))
        rule = ALLOCATORS[api]
        huge1g = base in (C.ACL_MEM_MALLOC_HUGE1G_ONLY, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        plan = (align32_footprint if huge1g else rule.footprint, rule.align,
                self._pools_for(device, policy, HUGE_FIRST_THRESHOLD),
                self._pools_for(device, policy, HUGE_FIRST_THRESHOLD + 1))
        if not policy & ~C.MALLOC_POLICY_BITS:   # only defined bits: a bounded set of keys
            self._plans[(device, policy, api)] = plan
        return plan

    def malloc_host(self, size: int, api: str = "malloc_host") -> Allocation:
        """aclrtMallocHost (or another host allocator, ``api``) for a size check_size passed."""
        footprint = align32_footprint(size)   # the runtime rounds host sizes to 32 bytes
        if self.host_pool is None:   # ACL_DEVICE run mode: "host" memory is device memory
            pools = [p for p in self.device_pools[0] if p.spec.page == "normal" and not p.spec.p2p]
            return self._place(pools, size, footprint, 32, api, "device", 0, None)
        self._pinnable(size, footprint)
        return self._place([self.host_pool], size, footprint, RUNTIME_ALIGN,
                           api, "host", None, None, pinned=True)

    def _pinnable(self, size: int, footprint: int) -> None:
        """Pinned memory is real host RAM (the driver's halMemAlloc of MEM_HOST pages): more
        than the host has left fails with ACL_ERROR_RT_MEMORY_ALLOCATION
        (NpuDriver::HostMemAlloc, errcode_manage.cc: DRV_ERROR_OUT_OF_MEMORY). The
        simulated host's RAM is the host-RAM budget."""
        left = self.ram.limit - self.ram.in_use
        if footprint > left:
            raise SimError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, _(
                "{call}: cannot pin {footprint} B ({size} B asked): pinned host memory is "
                "real host RAM, and this simulated host has {left} left of its {budget} "
                "({source}). Free pinned memory you no longer need, or ask for less.").format(
                    call="aclrtMallocHost", footprint=footprint, size=size, left=mib(left),
                    budget=mib(self.ram.limit), source=self.ram.source))

    def _place(self, pools, size, footprint, align, api, location, device, policy,
               pinned=False) -> Allocation:
        for pool in pools:
            ptr = pool.blocks.alloc(footprint, align)
            if ptr is not None:
                break
        else:
            names = ", ".join(_("{pool}: {free} B free, largest block {largest} B").format(
                pool=p.words(), free=p.blocks.free, largest=p.blocks.largest_free) for p in pools)
            raise SimError(C.ACL_ERROR_RT_MEMORY_ALLOCATION,
                           _("{call}: cannot take {footprint} B ({size} B asked) — {pools}. "
                             "Free memory you no longer need, ask for less, or use a policy "
                             "that may fall back to other pages.").format(
                               call=c_name(api), footprint=footprint, size=size, pools=names))
        a = Allocation(ptr, size, footprint, api, location, device, pool, pinned, policy)
        pool.storage.claim(ptr - pool.base, footprint)   # fresh memory: garbage, not old data
        self.map.add(a)
        return a

    # ----- release ---------------------------------------------------------------------
    def release(self, a: Allocation, why) -> None:
        """Release ``a``; ``why`` says so in messages about its pointer later."""
        self.map.drop(a, why)
        pool = a.pool
        if pool is not None and a.footprint:     # (a mapping of another block has none)
            pool.blocks.give_back(a.ptr, a.footprint)
            pool.storage.forget(a.ptr - pool.base, a.footprint)   # its host RAM goes back now

    # ----- pageable host memory ----------------------------------------------------------
    def register(self, obj) -> int:
        """Register a numpy array or bytes-like object as pageable host memory; its address."""
        self._sweep()
        if isinstance(obj, np.ndarray):
            root = root_array(obj)
            if not (root.flags.c_contiguous or root.flags.f_contiguous):
                root = obj      # its buffer is not one run of bytes: only the array passed
            real = root.__array_interface__["data"][0]
            offset = obj.__array_interface__["data"][0] - real
            found = next(((p, at) for p in self.all_pools()
                          if (at := p.storage.offset_of(root)) is not None), None)
            if found is not None:    # a view from ptr_to_numpy: its address is the pool's
                return found[0].base + found[1] + offset
            key, size, api = real, root.nbytes, "numpy"
            owner = weakref.ref(root, functools.partial(_array_gone, self._dead, key))
        else:
            view = memoryview(obj)
            real, offset = id(obj), 0
            key, size, api, owner = real, view.nbytes, "bytes", obj   # bytes take no weakrefs
            self._bytes_since_sweep += size
            spans = constant_spans(obj, sys._getframe(1)) if isinstance(obj, bytes) else []
        a = self._pageable.get(key)
        if a is not None and not a.alive() and self.allocs.get(a.ptr) is a:
            self.release(a, a.gone_why())       # a bytearray resized since: a new pointer
        if a is None or a.owner() is None or a.ptr not in self.allocs:
            ptr = self._next_pageable
            a = Allocation(ptr, size, size, api, "host", None, _owner=owner)
            self._next_pageable += align_up(max(size, 1), RUNTIME_ALIGN) + RUNTIME_ALIGN
            self._pageable[key] = a
            self.map.add(a)
            if api == "bytes":
                a.read_only_spans = spans
        if api == "numpy":
            a.read_only_spans = note_registration(a.read_only_spans, offset, obj,
                                                  obj.flags.writeable)
        return a.ptr + offset

    def _sweep(self) -> None:
        """Forget registrations whose numpy array was garbage-collected, and (now and then,
        so registering stays cheap) bytes objects the program no longer holds."""
        if len(self._pageable) >= self._sweep_bytes_at or \
                self._bytes_since_sweep > KEEP_DROPPED_BYTES:
            self._bytes_since_sweep = 0
            regs = [(key, a) for key, a in self._pageable.items() if a.api == "bytes"]
            gone = {id(a) for a in dropped_beyond_bound([a for _, a in regs], "_owner")}
            for key, a in regs:
                if id(a) in gone:
                    del self._pageable[key]
                    if self.allocs.get(a.ptr) is a:
                        self.release(a, _("the program dropped its bytes object (pyACL keeps "
                                        "no reference to it)"))
            self._sweep_bytes_at = 2 * len(self._pageable) + 64
        while self._dead:
            key = self._dead.pop()
            a = self._pageable.get(key)
            if a is not None and a.owner() is None:
                del self._pageable[key]
                if self.allocs.get(a.ptr) is a:
                    self.release(a, _("its numpy array was garbage-collected"))

    # ----- accounting ------------------------------------------------------------------
    def pools_for_attr(self, device: int, attr: int) -> list[Pool]:
        """Pools an aclrtMemAttr covers on ``device`` (aclrtGetMemInfo's rules)."""
        name = C.MEM_ATTR_NAMES.get(attr)
        if name is None:
            raise SimError(C.ACL_ERROR_RT_INVALID_MEMORY_TYPE,
                           _("{call}: {attr} is not an aclrtMemAttr value (ACL_DDR_MEM=0 ... "
                             "ACL_MEM_P2P_HUGE1G=17).").format(call="aclrtGetMemInfo", attr=attr))
        rest = name[len("ACL_"):].split("_")          # e.g. HBM MEM P2P HUGE / MEM NORMAL
        kind = rest[0] if rest[0] in ("DDR", "HBM") else None
        if kind == "HBM" and "HBM" not in self.profile.kinds:
            kind = "DDR"     # DDR-only SoCs answer HBM queries with their DDR figures
        words = rest[2:] if kind else rest[1:]
        p2p = "P2P" in words
        page = next((w.lower() for w in words if w in ("HUGE", "NORMAL", "HUGE1G")), None)
        pools = self.device_pools[device]
        if page == "huge1g" and not any(p.spec.page == "huge1g" for p in pools):
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           _("{call}: {name}: {soc} has no 1 GiB huge pages. Ask about "
                             "ACL_HBM_MEM / ACL_DDR_MEM instead.").format(
                               call="aclrtGetMemInfo", name=name, soc=self.profile.soc_name))
        return [p for p in pools
                if (kind is None or p.spec.kind == kind) and p.spec.p2p == p2p
                and (page is None and p.spec.page != "huge1g" or p.spec.page == page)]

    def snapshot(self, open_devices) -> tuple[list[AllocationRow], list[PoolRow], int]:
        """The memory part of the snapshot: live allocations by address, the pools of open
        devices (and of the host, and any still holding memory), the bytes that hold data."""
        allocations: list[AllocationRow] = [
            {"ptr": a.ptr, "size": a.size, "footprint": a.footprint, "api": a.api,
             "location": a.location, "device": a.device,
             "pool": a.pool.label if a.pool else "pageable", "pinned": a.pinned}
            for a in sorted(self.allocs.values(), key=lambda a: a.ptr)]
        pools: list[PoolRow] = [
            {"label": p.label, "device": p.device, "kind": p.spec.kind, "page": p.spec.page,
             "p2p": p.spec.p2p, "base": p.base, "total": p.spec.size, "used": p.blocks.used,
             "largest_free": p.blocks.largest_free}
            for p in self.all_pools()
            if p.device is None or p.device in open_devices or p.blocks.used]
        return allocations, pools, self.touched_bytes()

    def live(self, device: int | None = None, apis=None) -> list[Allocation]:
        return [a for a in self.allocs.values()
                if (device is None or a.device == device) and (apis is None or a.api in apis)]

    def all_pools(self) -> list[Pool]:
        pools = [p for ps in self.device_pools.values() for p in ps]
        return pools + [self.host_pool] if self.host_pool else pools

    def touched_bytes(self) -> int:
        return sum(p.storage.touched_bytes for p in self.all_pools())

    def release_storage(self) -> None:
        """The simulated process ends: its bytes give their host RAM back at once."""
        for p in self.all_pools():
            p.storage.release()
