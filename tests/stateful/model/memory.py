"""The model's verdicts on memory: every allocator and its free, get_mem_info, and memset /
memcpy / memcpy2d, synchronous and on a stream (``acl.rt.*``, ``acl.media.dvpp_*``). A call
that succeeds applies its bytes to the shadow copy of the blocks it writes."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.support.host_budget import budget

from .objects import (D2D, DIRECTION, FREE_CALL, H2D, D2H, H2H, PAGEABLE, Block, Fail,
                      check_int, check_size)
from .state import State, copier

#: how far below "budget less touched bytes" the host RAM left may be (an allowance)


#: host RAM the simulator may hold beyond touched bytes in a fuzz run (tasks, streams,
#: events at 1 KiB each, loaded models): a pinning this close to the budget may fail
BOOKKEEPING = 64 << 20


class MemoryRules(State):
    # ----- allocate and free ----------------------------------------------------------------
    def malloc(self, size, policy):
        return self._allocate("malloc", size, policy)

    def malloc_align32(self, size, policy):
        return self._allocate("malloc_align32", size, policy)

    def malloc_cached(self, size, policy):
        return self._allocate("malloc_cached", size, policy)

    def dvpp_malloc(self, size):
        return self._allocate("dvpp_malloc", size, None)

    def malloc_host(self, size):
        return self._allocate("malloc_host", size, None)

    def _pinning(self, footprint: int) -> bool:
        """Pinned host memory is host RAM: more than the budget has left is 207001 (sim/memory
        _pinnable). The budget's use is at least the touched bytes, and at most that plus
        the simulator's own bookkeeping (BOOKKEEPING): True when the call may fail."""
        left = budget()[0] - self.observe()["touched_bytes"]
        if footprint > left:
            raise Fail(C.ACL_ERROR_RT_MEMORY_ALLOCATION)
        return footprint > left - BOOKKEEPING

    def _allocate(self, api: str, size: int, policy: int | None):
        """Allocating ``size`` bytes with ``api`` (``policy`` None: the call takes none)."""
        check_size(size)
        if policy is not None:
            check_int(policy)
        if size == 0 or align_up(size, 32) >= 1 << 64:   # checked before the context
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        device = self.ctx().device
        base = self.normalise_policy(policy or 0)
        footprint = self.footprint(api, size, base)
        location, owner, align = "device", device, 128 if api == "dvpp_malloc" else 64
        pinning = False
        if api == "malloc_host":
            if self.profile.host_pinned:
                pools, location, owner = [(None, "host normal")], "host", None
                pinning = self._pinning(footprint)
            else:   # ACL_DEVICE: "host" memory is normal device pages of device 0
                pools, owner, align = [(0, s.label) for s in self.profile.pools
                                       if s.page == "normal" and not s.p2p], 0, 32
        else:
            if footprint >= 1 << 64:        # the padding overflows size_t
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            pools = self.candidate_pools(device, base, footprint)
            if not pools:
                raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        possible, may_fail = self.place(pools, footprint, align)
        if not possible:
            raise Fail(C.ACL_ERROR_RT_MEMORY_ALLOCATION)
        may_fail = may_fail or pinning

        def effect(result):
            ptr = result[0]
            a = next(a for a in self.observe()["allocations"] if a["ptr"] == ptr)
            pool = (a["device"] if location == "device" else None,
                    a["pool"].rsplit(" (", 1)[0])
            assert pool in possible, f"{api}({size}, {policy}) landed in {pool}, not {possible}"
            assert ptr % align == 0, f"{api} returned 0x{ptr:x}, not {align}-byte aligned"
            self.blocks[ptr] = Block(ptr, size, api, location, owner, footprint, pool[1],
                                     occupied=self.occupied(pool, footprint))
        return effect, {C.ACL_ERROR_RT_MEMORY_ALLOCATION} if may_fail else set()

    def free(self, ptr):
        return self._release("free", ptr)

    def free_host(self, ptr):
        return self._release("free_host", ptr)

    def dvpp_free(self, ptr):
        return self._release("dvpp_free", ptr)

    def _release(self, call: str, ptr: int):
        """``call`` (free / free_host / dvpp_free) of ``ptr``: only what its allocator made."""
        if check_size(ptr) == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        b = self.blocks.get(ptr)
        if b is None or FREE_CALL.get(b.api) != call:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)

        def effect(_):
            self.finish_work_on(b)
            self.drop_block(b)
        return effect

    def get_mem_info(self, attr):
        expected = self.mem_info(check_int(attr))

        def effect(result):
            assert result[:2] == expected, f"get_mem_info({attr}) = {result}, model {expected}"
        return effect

    # ----- memset / memcpy ------------------------------------------------------------------
    def memset(self, ptr, maximum, value, count):
        return self._memset(ptr, maximum, value, count, None)

    def memset_async(self, ptr, maximum, value, count, sh):
        return self._memset(ptr, maximum, value, count, sh)

    def _memset(self, ptr: int, maximum: int, value: int, count: int, sh: int | None):
        """memset (``sh`` None) or memset_async on stream ``sh``."""
        is_async = sh is not None
        check_size(ptr), check_size(maximum), check_int(value), check_size(count)
        if is_async:
            check_size(sh)
        if count == 0:
            return None
        s = self.stream(sh) if is_async else None
        if ptr == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        if count > maximum:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        b = self.resolve(ptr, count)
        if b.read_only or is_async and b.api in PAGEABLE:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        self.check_submit(s)
        off = ptr - b.ptr
        region = [(b, off, off + count)]

        def write():
            b.data[off:off + count] = value & 0xFF
            b.known[off:off + count] = True
        return lambda _: self.submit(s, [], region, write)

    def memcpy(self, dst, dmax, src, count, kind):
        return self._memcpy(dst, dmax, src, count, kind, None)

    def memcpy_async(self, dst, dmax, src, count, kind, sh):
        return self._memcpy(dst, dmax, src, count, kind, sh)

    def _memcpy(self, dst: int, dmax: int, src: int, count: int, kind: int, sh: int | None):
        """memcpy (``sh`` None) or memcpy_async on stream ``sh``."""
        is_async = sh is not None
        check_size(dst), check_size(dmax), check_size(src), check_size(count)
        check_int(kind)
        if is_async:
            check_size(sh)
        if count == 0:
            return None
        s = self.stream(sh) if is_async else None
        if dst == 0 or src == 0 or kind not in range(6):
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        if count > dmax:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        if dst == src:
            return None
        d, sa = self.resolve(dst, count), self.resolve(src, count)
        if d.read_only or dst < src + count and src < dst + count:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        actual = DIRECTION[(sa.location, d.location)]    # the addresses decide, not kind
        if actual == D2D and not self.peer_ok(d.device, sa.device):
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        pageable = d.api in PAGEABLE or sa.api in PAGEABLE
        if is_async and pageable and self.profile.run_mode == C.ACL_HOST and kind < 4:
            # the runtime's MemcpyKindReviseMap: with pageable memory only these kinds pass
            where = ("pageable" if sa.api in PAGEABLE else sa.location,
                     "pageable" if d.api in PAGEABLE else d.location)
            allowed = {("pageable", "device"): (H2D, D2D), ("device", "pageable"): (D2H, D2D),
                       ("host", "pageable"): (H2H, H2D), ("pageable", "host"): (H2H, D2H),
                       ("pageable", "pageable"): (H2H, H2D, D2H, D2D)}[where]
            if kind not in allowed:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        if is_async and actual == H2H and (pageable or self.profile.run_mode == C.ACL_HOST):
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)   # no async H2H on a host
        if is_async and pageable:      # "synchronize the stream, then copy" (ACL)
            if s.capture is not None:   # "does not support graph capture": invalid value
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            if self.restricting(s.device):
                raise Fail(C.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)
        elif is_async and (dst % 64 or src % 64):
            raise Fail(C.ACL_ERROR_RT_ADDR_UNALIGNED)
        via = None if pageable else s
        self.check_submit(via)
        doff, soff = dst - d.ptr, src - sa.ptr
        reads, writes = [(sa, soff, soff + count)], [(d, doff, doff + count)]

        def effect(_):
            if is_async and pageable:
                self.synced(s.key)
            self.submit(via, reads, writes, copier(d, doff, sa, soff, count))
        return effect

    def memcpy2d(self, dst, dpitch, src, spitch, width, height, kind):
        return self._memcpy2d(dst, dpitch, src, spitch, width, height, kind, None)

    def memcpy2d_async(self, dst, dpitch, src, spitch, width, height, kind, sh):
        return self._memcpy2d(dst, dpitch, src, spitch, width, height, kind, sh)

    def _memcpy2d(self, dst, dpitch, src, spitch, width, height, kind, sh):
        """memcpy2d (``sh`` None) or memcpy2d_async on stream ``sh``: ``height`` rows of
        ``width`` bytes, each row ``dpitch`` / ``spitch`` bytes after the last."""
        is_async = sh is not None
        check_size(dst), check_size(dpitch), check_size(src), check_size(spitch)
        check_int(kind)
        if is_async:
            check_size(sh)
        if width == 0 or height == 0:
            return None
        s = self.stream(sh) if is_async else None
        if dst == 0 or src == 0 or width > spitch or width > dpitch:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        # 11-03: D2D only in the async form, only on the SoCs whose docs list it
        allowed = (H2D, D2H, C.ACL_MEMCPY_DEFAULT) + (
            (D2D,) if is_async and self.profile.soc.key in ("950", "A3", "910b") else ())
        if kind not in allowed:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        dspan, sspan = (height - 1) * dpitch + width, (height - 1) * spitch + width
        d = self.resolve(dst, dspan)
        if d.read_only:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        sa = self.resolve(src, sspan)
        actual = DIRECTION[(sa.location, d.location)]
        if kind not in (C.ACL_MEMCPY_DEFAULT, actual) or actual not in allowed or (
                actual == D2D and not self.peer_ok(d.device, sa.device)):
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        self.check_submit(s)
        doff, soff = dst - d.ptr, src - sa.ptr
        reads = [(sa, soff + r * spitch, soff + r * spitch + width) for r in range(height)]
        writes = [(d, doff + r * dpitch, doff + r * dpitch + width) for r in range(height)]

        def copy():
            staged = Block(0, d.size, "stage", "host", None, 0, None)
            staged.data, staged.known = d.data.copy(), d.known.copy()
            for r, w in zip(reads, writes):    # read every row before writing any
                copier(staged, w[1], sa, r[1], width)()
            d.data[:], d.known[:] = staged.data, staged.known
        return lambda _: self.submit(s, reads, writes, copy)
