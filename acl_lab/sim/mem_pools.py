"""Stream-ordered memory pools (aclrtMemPool*, include/external/acl/acl_rt_memory_soma.h):
memory taken and given back as tasks of a stream, reused in stream order.

hicann/runtime docs/zh/api_ref/11-10_ordered_stream_memory_allocation.md: aclrtMemPoolCreate
makes a pool of device memory of at most ``maxSize``; aclrtMemPoolMallocAsync gives a block
(the best-fitting idle block of the pool first, else new memory: get_mem_info sees it);
aclrtMemPoolFreeAsync gives it back to the pool when its stream reaches the free, without
freeing the memory; idle memory above the release threshold (ACL_RT_MEM_POOL_ATTR_RELEASE_
THRESHOLD, default 0) is released at the next synchronize; aclrtMemPoolTrimTo releases idle
memory down to a size kept. Experimental, Atlas A2 only (spec/socs.py stream_ordered_pools);
not in pyACL: the kit's convention for unbound calls (snake_case under acl.rt).

The simulator runs a stream's tasks when something waits for it, so "when the stream reaches
the free" and "at the next synchronize" are the same moment here: the threshold is applied
as the free task runs. Reuse across streams (the reuse attributes) is not modeled: a block
freed on one stream is reused by any stream once the free has run.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task
from acl_lab.spec import socs

POOL_BASE, POOL_STEP = 0x7A00_0000_0000, 0x100     # aclrtMemPool handles (modeled)
READ_ONLY = {C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, C.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT}
HIGH_MARKS = {C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, C.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH}
REUSE = {C.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
         C.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC,
         C.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES}


class MemPool:
    def __init__(self, handle: int, device: int, max_size: int):
        self.handle, self.device, self.max_size = handle, device, max_size
        self.live: dict[int, object] = {}      # block start -> Allocation handed out
        self.idle: list = []                    # given back, memory kept
        self.freeing: set[int] = set()          # free queued on a stream, not run yet
        self.attrs = {a: 1 for a in REUSE} | {C.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD: 0}
        self.reserved_high = self.used_high = 0

    @property
    def reserved(self) -> int:
        return sum(a.occupied for a in [*self.live.values(), *self.idle])

    @property
    def used(self) -> int:
        return sum(a.size for a in self.live.values())


class MemPools:
    def __init__(self, rt):
        self.rt = rt
        self.pools: dict[int, MemPool] = {}
        self._count = 0

    def _supported(self, call: str) -> int:
        device = self.rt.require_ctx(call).device
        try:
            has = socs.soc_of(self.rt.profile.soc_name).stream_ordered_pools
        except KeyError:
            has = True
        if not has:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: {soc} has no stream-ordered memory pools (an experimental feature of "
                "Atlas A2). Use acl.rt.malloc and acl.rt.free.").format(
                    call=call, soc=self.rt.profile.soc_name))
        return device

    def pool(self, call: str, handle: int) -> MemPool:
        p = self.pools.get(handle)
        if p is None:
            raise SimError(C.ACL_ERROR_INVALID_PARAM if handle == 0 else
                           C.ACL_ERROR_RT_PARAM_INVALID, _(
                               "{call}: 0x{h:x} is not a memory pool of this process (never "
                               "created, or destroyed).").format(call=call, h=handle))
        return p

    # ----- pools ------------------------------------------------------------------------
    def create(self, props) -> int:
        call = "aclrtMemPoolCreate"
        if not isinstance(props, dict) or not isinstance(props.get("location"), dict):
            raise TypeError(f"{call}: props must be a dict with allocType, handleType, "
                            "location {'id', 'type'} and maxSize")
        location = props["location"]
        try:
            alloc, handle_type = int(props["allocType"]), int(props["handleType"])
            loc_id, loc_type, max_size = (int(location["id"]), int(location["type"]),
                                          int(props["maxSize"]))
        except KeyError as e:
            raise KeyError(f"{call}: props has no {e}") from None
        device = self._supported(call)
        if alloc != C.ACL_MEM_ALLOCATION_TYPE_PINNED or handle_type != \
                C.ACL_MEM_HANDLE_TYPE_NONE or loc_type != C.ACL_MEM_LOCATION_TYPE_DEVICE \
                or loc_id != device or max_size <= 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: props must be allocType PINNED (0), handleType NONE (0), location "
                "DEVICE (1) of the current device ({device}) and maxSize above 0.").format(
                    call=call, device=device))
        self._count += 1
        handle = POOL_BASE + self._count * POOL_STEP
        self.pools[handle] = MemPool(handle, device, max_size)
        return handle

    def destroy(self, handle: int) -> None:
        call = "aclrtMemPoolDestroy"
        self._supported(call)
        p = self.pool(call, handle)
        if p.live:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {n} block(s) of the pool are still in use. Free them with "
                "acl.rt.mem_pool_free_async and synchronize first.").format(
                    call=call, n=len(p.live)))
        self._release_idle(p, 0, _("its pool was destroyed"))
        del self.pools[handle]

    def set_attr(self, handle: int, attr: int, value: int) -> None:
        call = "aclrtMemPoolSetAttr"
        self._supported(call)
        p = self.pool(call, handle)
        if attr in HIGH_MARKS and value == 0:          # a high mark is reset to 0
            if attr == C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
                p.reserved_high = p.reserved
            else:
                p.used_high = p.used
            return
        if attr not in p.attrs or value < 0:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: attribute {attr} cannot be set to {value} (settable: the reuse "
                "flags 1-3, the release threshold 4; the high marks 6 and 8 only to 0)."
            ).format(call=call, attr=attr, value=value))
        p.attrs[attr] = value

    def get_attr(self, handle: int, attr: int) -> int:
        call = "aclrtMemPoolGetAttr"
        self._supported(call)
        p = self.pool(call, handle)
        values = {C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT: p.reserved,
                  C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH: p.reserved_high,
                  C.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: p.used,
                  C.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH: p.used_high, **p.attrs}
        if attr not in values:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {attr} is not an aclrtMemPoolAttr (1 to 8).").format(
                    call=call, attr=attr))
        return values[attr]

    # ----- blocks, in stream order --------------------------------------------------------
    def malloc_async(self, size: int, handle: int, stream: int) -> int:
        call = "aclrtMemPoolMallocAsync"
        if size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: size is 0. Ask for at least 1 byte.").format(call=call))
        self._supported(call)
        p = self.pool(call, handle)
        self.rt.stream(stream, call)
        fits = [a for a in p.idle if a.size >= size]
        if fits:                                      # best fit among the idle blocks
            block = min(fits, key=lambda a: (a.size, a.ptr))
            p.idle.remove(block)
        else:
            self.rt.memory.check_size(size, "mem_pool")
            footprint = -(-size // 32) * 32
            if p.reserved + footprint > p.max_size:
                raise SimError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, _(
                    "{call}: the pool holds {held} B of its maxSize {most} B; {size} B more do "
                    "not fit. Free blocks (they are reused), or create the pool larger.").format(
                        call=call, held=p.reserved, most=p.max_size, size=size))
            block = self.rt.memory.place_device(p.device, size, C.ACL_MEM_MALLOC_HUGE_FIRST,
                                                "mem_pool")
        p.live[block.ptr] = block
        p.reserved_high, p.used_high = max(p.reserved_high, p.reserved), max(p.used_high,
                                                                             p.used)
        return block.ptr

    def free_async(self, ptr: int, stream: int) -> None:
        call = "aclrtMemPoolFreeAsync"
        if ptr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: ptr is NULL (0).").format(
                call=call))
        self._supported(call)
        s = self.rt.stream(stream, call)
        block = self.rt.memory.map.check_free(ptr, "mem_pool_free_async")
        p = next(q for q in self.pools.values() if q.live.get(ptr) is block)
        if ptr in p.freeing:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: 0x{ptr:x} is already being freed on a stream; free each block "
                "once.").format(call=call, ptr=ptr))
        task = Task("mem_pool_free", self.rt.profile.rates.launch_us,
                    run=lambda: self._give_back(p, block), uses=(block,),
                    detail={"ptr": ptr})
        self.rt.issue(s, task, call)
        p.freeing.add(ptr)

    def _give_back(self, p: MemPool, block) -> None:
        """The stream reached the free: the block is idle; above the threshold, released."""
        p.freeing.discard(block.ptr)
        if p.live.pop(block.ptr, None) is None:
            return
        p.idle.append(block)
        self._release_idle(p, p.attrs[C.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD],
                           _("released by its pool (above the release threshold)"))

    def trim_to(self, handle: int, keep: int) -> None:
        call = "aclrtMemPoolTrimTo"
        self._supported(call)
        p = self.pool(call, handle)
        self._release_idle(p, max(keep - p.used, 0), _("released by {call}").format(call=call))

    def _release_idle(self, p: MemPool, keep_idle: int, why: str) -> None:
        """Release idle blocks, largest first, until the idle bytes are at most keep_idle."""
        p.idle.sort(key=lambda a: (a.occupied, a.ptr))
        while p.idle and sum(a.occupied for a in p.idle) > keep_idle:
            self.rt.memory.release(p.idle.pop(), why)

    def forget(self, device: int) -> None:
        """aclrtResetDevice: the device's pools and their blocks go (as its memory does)."""
        for handle, p in list(self.pools.items()):
            if p.device == device:
                del self.pools[handle]
