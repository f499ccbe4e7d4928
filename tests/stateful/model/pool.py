"""The model's verdicts on acl_lab's MemoryPool (secondary allocation over this acl): the
backing block it takes, the seed's segment rule m = ALIGN_UP(len, 32) + 32 at aligned
starts, the guard bytes in each segment's padding, and closing. Each operation is shaped
like a pyACL call: success, or the code of the AclLabError it raises."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.align import segment_size
from acl_lab.pool import GUARD_BYTE, RULES

from .objects import OK, FREE_CALL, Fail, PoolModel
from .state import State

_TAKES_POLICY = ("malloc", "malloc_align32", "malloc_cached")


class PoolRules(State):
    def pool_create(self, size: int, rule: str, allocator: str | None):
        """MemoryPool(acl, size, rule=rule, allocator=allocator)."""
        api = allocator or {"runtime": "malloc_align32", "dvpp": "dvpp_malloc"}[rule]
        if size <= 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        policy = C.ACL_MEM_MALLOC_HUGE_FIRST if api in _TAKES_POLICY else None
        effect, also = self._allocate(api, size, policy)

        def record(result):
            pool = result[0]
            effect((pool.base, OK))
            self.pools.append(PoolModel(pool, api, self.blocks[pool.base], RULES[rule]))
        return record, also

    def guard_outcomes(self, p: PoolModel, segments: list) -> set:
        """Codes a guard check of ``segments`` (start, length, m) may end with: the read
        itself may fail; a guard byte the shadow knows changed is an overrun; one it does
        not know may or may not be."""
        lo = min(start + length for start, length, _ in segments)
        hi = max(start + size for start, _, size in segments)
        b = self.find(lo)
        if b is None or hi > b.end:
            return {C.ACL_ERROR_RT_PARAM_INVALID}
        host_readable = self.profile.run_mode == C.ACL_DEVICE or p.api == "malloc_host"
        if host_readable and b.location == "device" and self.profile.run_mode == C.ACL_HOST:
            return {C.ACL_ERROR_INVALID_PARAM}
        if not host_readable:
            if b.location != "device":
                return {C.ACL_ERROR_RT_PARAM_INVALID}
            self.check_submit(None)           # a synchronous copy (raises 107030 in capture)
        unsure, changed = self.pending_writes(b), False
        outcomes = set()
        for start, length, size in segments:
            g0, g1 = start + length - b.ptr, start + size - b.ptr
            known = b.known[g0:g1] & ~unsure[g0:g1]
            if len(known) < g1 - g0 or not known.all():
                outcomes.add(C.ACL_ERROR_RT_PARAM_INVALID)      # maybe overwritten
            changed |= bool((known & (b.data[g0:g1] != GUARD_BYTE)).any())
        return {C.ACL_ERROR_RT_PARAM_INVALID} if changed else outcomes | {OK}

    def pool_alloc(self, p: PoolModel, length: int):
        """p.pool.alloc(length)."""
        if p.closed:
            raise Fail(C.ACL_ERROR_RT_INVALID_HANDLE)
        if length <= 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        size = segment_size(length)
        stats = p.pool.stats()
        if stats.largest_free < size:
            raise Fail(C.ACL_ERROR_RT_MEMORY_ALLOCATION)
        tight = stats.largest_free < size + p.align        # alignment may not leave room
        also = {C.ACL_ERROR_RT_MEMORY_ALLOCATION} if tight else set()
        if self.blocks.get(p.base) is not p.block:     # its block was freed under it
            also.add(C.ACL_ERROR_RT_PARAM_INVALID)
        else:
            try:
                self.check_submit(None)         # the guard memset is synchronous
            except Fail as f:
                raise Fail(*f.codes, *also) from None

        def effect(result):
            start = result[0]
            assert start % p.align == 0 and p.base <= start <= p.base + p.capacity - size
            assert all(start + size <= s or s + n <= start for s, (_, n) in p.segments.items())
            p.segments[start] = (length, size)
            b = self.find(start + length)
            off = start + length - b.ptr

            def guard():
                b.data[off:off + size - length] = GUARD_BYTE
                b.known[off:off + size - length] = True
            self.run(None, [], [(b, off, off + size - length)], guard)
        return effect, also

    def pool_free(self, p: PoolModel, ptr: int, check: bool):
        """p.pool.free(ptr, check=check)."""
        if p.closed:
            raise Fail(C.ACL_ERROR_RT_INVALID_HANDLE)
        if ptr not in p.segments:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        length, size = p.segments[ptr]
        outcomes = self.guard_outcomes(p, [(ptr, length, size)]) if check else {OK}
        if OK not in outcomes:
            raise Fail(*outcomes)

        def effect(_):
            del p.segments[ptr]
            p.freed.append(ptr)
        return effect, outcomes - {OK}

    def pool_check_guards(self, p: PoolModel):
        """p.pool.check_guards()."""
        if not p.segments:
            return None
        outcomes = self.guard_outcomes(p, [(s, n, m_) for s, (n, m_) in p.segments.items()])
        if OK not in outcomes:
            raise Fail(*outcomes)
        return None, outcomes - {OK}

    def pool_close(self, p: PoolModel, force: bool):
        """p.pool.close(force=force): the backing block goes back to its allocator."""
        if p.closed:
            return None                       # closing twice is harmless
        if p.segments and not force:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        effect = self._release(FREE_CALL[p.api], p.base)

        def close(result):
            effect(result)
            p.closed = True
            p.segments.clear()
        return close
