"""An expandable segment: one reserved range of device addresses, physical memory mapped in
granule-sized chunks as tensors need them, unmapped when the cache is emptied.

torch_npu does this with ``PYTORCH_NPU_ALLOC_CONF=expandable_segments:True``
(torch_npu/csrc/core/npu/NPUCachingAllocator.cpp, ``ExpandableSegment``: ``map`` reserves
once with aclrtReserveMemAddress, then per chunk aclrtMallocPhysical + aclrtMapMem;
``unmap`` synchronizes the device, then aclrtUnmapMem + aclrtFreePhysical; an out-of-memory
from aclrtMallocPhysical frees the chunks it took for the request and reports OOM). Its
chunks are 2 MiB for the small pool and 20 MiB for the large one; this one uses one chunk
size, the granularity by default. Blocks inside the segment are placed best fit on 512-byte
boundaries (torch's kMinBlockSize), so a freed block is reused before the segment grows.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.errors import AclLabError
from acl_lab.i18n import _
from acl_lab.support.freelist import FreeList

BLOCK_ALIGN = 512          # torch_npu's kMinBlockSize: every block starts on 512 bytes


def _ok(result, what: str):
    """The value of a ``(value, ret)`` pair, or AclLabError with the call's code."""
    value, ret = result if isinstance(result, tuple) else (None, result)
    if ret != 0:
        raise AclLabError(ret, _("{what} failed").format(what=what))
    return value


class ExpandableSegment:
    def __init__(self, acl, reserve: int, chunk: int | None = None, device: int = 0,
                 mem_attr: int = C.ACL_HBM_MEM_HUGE):
        self.acl = acl
        self.prop = {"handleType": C.ACL_MEM_HANDLE_TYPE_NONE,
                     "allocationType": C.ACL_MEM_ALLOCATION_TYPE_PINNED, "memAttr": mem_attr,
                     "location": {"id": device, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE},
                     "reserve": 0}
        granule = _ok(acl.rt.mem_get_allocation_granularity(
            self.prop, C.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM), "mem_get_allocation_granularity")
        self.chunk = align_up(chunk or granule, granule)
        self.size = align_up(reserve, self.chunk)
        self.va = _ok(acl.rt.reserve_mem_address(self.size, 0, 0, 0), "reserve_mem_address")
        self.handles: dict[int, int] = {}          # chunk index -> physical handle
        self.blocks = FreeList(self.va, self.size)
        self.live: dict[int, int] = {}             # block start -> its bytes
        self.peak_mapped = 0

    # ----- tensors ---------------------------------------------------------------------
    def malloc(self, size: int) -> int:
        """A block of ``size`` bytes; the chunks under it are mapped first if they are not."""
        nbytes = align_up(max(size, 1), BLOCK_ALIGN)
        ptr = self.blocks.alloc(nbytes, BLOCK_ALIGN)
        if ptr is None:
            raise AclLabError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, _(
                "the segment's {size} B of addresses hold no free run of {n} B").format(
                    size=self.size, n=nbytes))
        try:
            self._map(ptr, nbytes)
        except AclLabError:
            self.blocks.give_back(ptr, nbytes)
            raise
        self.live[ptr] = nbytes
        return ptr

    def free(self, ptr: int) -> None:
        """Back to the segment's cache: the chunks stay mapped until empty_cache()."""
        self.blocks.give_back(ptr, self.live.pop(ptr))

    def _chunks(self, ptr: int, nbytes: int) -> range:
        return range((ptr - self.va) // self.chunk, (ptr + nbytes - 1 - self.va) // self.chunk + 1)

    def _map(self, ptr: int, nbytes: int) -> None:
        taken = []
        try:
            for i in self._chunks(ptr, nbytes):
                if i in self.handles:
                    continue
                handle = _ok(self.acl.rt.malloc_physical(self.chunk, self.prop, 0),
                             "malloc_physical")
                taken.append((i, handle))
                _ok(self.acl.rt.map_mem(self.va + i * self.chunk, self.chunk, 0, handle, 0),
                    "map_mem")
                self.handles[i] = handle
        except AclLabError:          # as torch_npu: give back what this request took
            for i, handle in taken:
                if self.handles.pop(i, None) is not None:
                    self.acl.rt.unmap_mem(self.va + i * self.chunk)
                self.acl.rt.free_physical(handle)
            raise
        self.peak_mapped = max(self.peak_mapped, self.mapped)

    def empty_cache(self) -> int:
        """Unmap and free every chunk no live block touches; the bytes given back."""
        busy = {i for ptr, n in self.live.items() for i in self._chunks(ptr, n)}
        idle = sorted(set(self.handles) - busy)
        if idle:
            _ok(self.acl.rt.synchronize_device(), "synchronize_device")  # unmap does not wait
        for i in idle:
            _ok(self.acl.rt.unmap_mem(self.va + i * self.chunk), "unmap_mem")
            _ok(self.acl.rt.free_physical(self.handles.pop(i)), "free_physical")
        return len(idle) * self.chunk

    def close(self) -> None:
        """Every block forgotten, every chunk unmapped and freed, the range released."""
        self.live.clear()
        self.blocks = FreeList(self.va, self.size)
        self.empty_cache()
        _ok(self.acl.rt.release_mem_address(self.va), "release_mem_address")

    # ----- what it holds -----------------------------------------------------------------
    @property
    def mapped(self) -> int:
        """Device memory the segment holds now: its mapped chunks."""
        return len(self.handles) * self.chunk

    @property
    def used(self) -> int:
        return sum(self.live.values())

    def fragmentation(self) -> float:
        """1 - largest free stretch / free bytes, over the mapped chunks only (the bytes the
        segment holds but no tensor uses), as chapter 05's pool reports it."""
        stretches, run, free = [], 0, 0
        mapped = set(self.handles)
        for start, length in self.blocks.free_blocks():
            for i in self._chunks(start, length) if length else ():
                lo = max(start, self.va + i * self.chunk)
                hi = min(start + length, self.va + (i + 1) * self.chunk)
                if i in mapped:
                    free += hi - lo
                    run += hi - lo
                else:
                    stretches.append(run)
                    run = 0
            stretches.append(run)
            run = 0
        return 0.0 if free == 0 else 1 - max(stretches) / free

    def __repr__(self) -> str:
        return (f"ExpandableSegment(0x{self.va:x}, {self.size} B reserved, {self.mapped} B "
                f"mapped in {len(self.handles)} chunk(s), {self.used} B used)")
