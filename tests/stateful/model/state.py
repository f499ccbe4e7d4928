"""What the model knows of one process, and the bookkeeping every rule shares: looking up
handles (each miss is the code the runtime returns), the work queued on streams with the
shadow copy of every byte it writes, and where memory may be placed and how much is used.

The model never asks the runtime what a call should return. It reads ``observe()`` (the
runtime's acl_lab.snapshot()) only for what the runtime is free to choose: the handle a
new context or model got, where an allocation landed, and how fragmented a pool is (its
largest free block) before an allocation."""
from __future__ import annotations

from typing import Callable

import numpy as np

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.sim.profiles import MiB

from .objects import (ACTIVE, GLOBAL, MEM_ATTRS, RELAXED, Block, Cap, Ctx, Evt, Fail, Op,
                      PoolModel, Strm)


def overlaps(xs, ys) -> bool:
    """Whether two lists of (block, lo, hi) regions share a byte."""
    return any(a is b and lo < hi2 and lo2 < hi for a, lo, hi in xs for b, lo2, hi2 in ys)


def forget(regions) -> None:
    """The shadow no longer knows what these (block, lo, hi) regions hold."""
    for b, lo, hi in regions:
        b.known[lo:hi] = False     # slices past the window are empty


def copier(d: Block, doff: int, src: Block, soff: int, n: int):
    """The shadow's effect of copying ``n`` bytes from ``src``+soff to ``d``+doff."""
    def copy():
        m_ = min(n, max(len(d.data) - doff, 0))           # tracked destination bytes
        k = min(m_, max(len(src.data) - soff, 0))          # of which tracked at the source
        vals, known = src.data[soff:soff + k].copy(), src.known[soff:soff + k].copy()
        d.data[doff:doff + k], d.known[doff:doff + k] = vals, known
        d.known[doff + k:doff + m_] = False
    return copy


class State:
    """The process as the model sees it."""

    def __init__(self, profile, observe: Callable[[], dict]):
        self.profile = profile
        self.observe = observe
        self.initialized = self.finalized = False
        self.refs: dict[int, int] = {}
        self.default_ctx: dict[int, int] = {}
        self.contexts: dict[int, Ctx] = {}
        self.default_streams: dict[int, Strm] = {}     # ctx handle -> its default stream
        self.streams: dict[int, Strm] = {}
        self.events: dict[int, Evt] = {}
        self.blocks: dict[int, Block] = {}
        self.freed: list[int] = []
        self.dead_handles: list[int] = []
        self.current: int | None = None
        self.thread_mode = GLOBAL
        self.captures: dict[int, Cap] = {}             # stream handle -> capture
        self.peers: set = set()                        # (device, peer it may access)
        self.graphs: dict = {}                         # model RI handle -> Graph
        self.pools: list[PoolModel] = []               # every MemoryPool made, closed too
        self.pending: dict[object, list[Op]] = {}
        self.issued: dict[object, int] = {}
        self.waited: dict[object, dict] = {}           # key -> {other key: seq waited for}
        self.pool_sizes = {(d, s.label): s.size for d in range(profile.device_count)
                           for s in profile.pools}
        if profile.host_pinned:
            self.pool_sizes[(None, "host normal")] = profile.host_pinned

    def peer_ok(self, a: int, b: int) -> bool:
        """A copy between devices ``a`` and ``b``: the same device, or the current device
        enabled access to the other one."""
        c = self.contexts.get(self.current)
        me = c.device if c is not None else None
        return a == b or me in (a, b) and (me, b if me == a else a) in self.peers

    # ----- lookups (each raises the code the runtime returns) ---------------------------
    def ctx(self) -> Ctx:
        c = self.contexts.get(self.current)
        if c is None:
            raise Fail(C.ACL_ERROR_RT_CONTEXT_NULL)
        return c

    def check_device(self, d: int) -> int:
        if not 0 <= d < self.profile.device_count:
            raise Fail(C.ACL_ERROR_RT_INVALID_DEVICEID)
        return d

    def stream(self, h: int, other_device_ok: bool = False) -> Strm:
        c = self.ctx()
        if h == 0:
            return self.default_streams[c.handle]
        s = self.streams.get(h)
        if s is None:
            raise Fail(C.ACL_ERROR_RT_INVALID_HANDLE)
        if s.device != c.device and not other_device_ok:
            raise Fail(C.ACL_ERROR_RT_STREAM_CONTEXT)
        return s

    def event(self, h: int) -> Evt:
        self.ctx()
        e = self.events.get(h)
        if e is None:
            raise Fail(C.ACL_ERROR_INVALID_PARAM if h == 0 else C.ACL_ERROR_RT_INVALID_HANDLE)
        return e

    def context(self, h: int) -> Ctx:
        c = self.contexts.get(h)
        if c is None:
            raise Fail(C.ACL_ERROR_INVALID_PARAM if h == 0 else C.ACL_ERROR_RT_INVALID_HANDLE)
        return c

    def find(self, addr: int) -> Block | None:
        for b in self.blocks.values():
            if b.ptr <= addr < b.ptr + max(b.size, 1):
                return b
        return None

    def resolve(self, addr: int, count: int) -> Block:
        """The block holding [addr, addr+count): unknown, freed or overrun -> 107000."""
        if addr == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        b = self.find(addr)
        if b is None or addr + count > b.end:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        return b

    def streams_of_device(self, device: int | None) -> list[Strm]:
        every = list(self.default_streams.values()) + list(self.streams.values())
        return [s for s in every if device is None or s.device == device]

    def open_pools(self) -> list[PoolModel]:
        return [p for p in self.pools if not p.closed]

    # ----- what a capture in progress forbids ---------------------------------------------
    def restricting(self, device: int) -> Cap | None:
        """A capture that forbids unsafe calls to this (the only) thread on ``device``."""
        if self.thread_mode == RELAXED:
            return None
        for cap in self.captures.values():
            if cap.stream.device == device and cap.status == ACTIVE and cap.mode != RELAXED:
                return cap
        return None

    def check_task_stream(self, s: Strm) -> None:
        """A task may not go to a default stream while a capture restricts its device."""
        if s.handle == 0 and s.capture is None and self.restricting(s.device):
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT)

    def check_submit(self, s: Strm | None) -> None:
        """Sync transfers are illegal under a restricting capture; stream work is checked
        for the default stream."""
        if s is None:
            c = self.contexts.get(self.current)
            if c is not None and self.restricting(c.device):
                raise Fail(C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)
        elif s.capture is None:
            self.check_task_stream(s)

    # ----- streams of work: issue, races, synchronisation --------------------------------
    def _others(self, key) -> list[Op]:
        """Pending ops that are not ordered before new work on ``key`` (None: the host)."""
        ordered = self.waited.get(key, {})
        return [p for k, ops in self.pending.items() if k != key for p in ops
                if not (k in ordered and p.seq <= ordered[k])]

    def _taint(self, op: Op, regions) -> None:
        """``regions`` written by pending ``op`` may end up other than the shadow says; so
        may whatever later work on its stream derived from them."""
        forget(regions)
        spoiled = list(regions)
        for later in self.pending.get(op.key, []):
            if later.seq > op.seq and overlaps(later.reads, spoiled):
                forget(later.writes)
                spoiled += later.writes

    def run(self, key, reads, writes, effect, **extra) -> None:
        """Apply work now in the shadow; ``key`` None is the host (synchronous work),
        otherwise the work is queued on that stream and stays pending until a sync."""
        others = self._others(key)
        # this work reads or writes what unordered work writes: its result is unsure
        ambiguous = any(overlaps(reads + writes, p.writes) for p in others)
        spoiled = []            # unordered work whose result this work makes unsure
        for p in others:
            if overlaps(writes, p.reads):
                spoiled.append((p, p.writes))
            elif overlaps(writes, p.writes):
                spoiled.append((p, [w for w in p.writes if overlaps([w], writes)]))
        effect()
        if ambiguous:
            forget(writes)
        for p, regions in spoiled:
            self._taint(p, regions)
        if key is not None:
            self.issued[key] = self.issued.get(key, 0) + 1
            self.pending.setdefault(key, []).append(
                Op(key, self.issued[key], reads, writes, **extra))

    def submit(self, call_stream: Strm | None, reads, writes, effect, **extra) -> None:
        """Work accepted by the runtime: applied now (host) or queued / captured (stream)."""
        if call_stream is None:
            self.run(None, reads, writes, effect)
        elif call_stream.capture is not None:
            if call_stream.capture.status == ACTIVE:
                call_stream.capture.graph.templates.append((reads, writes, effect))
                call_stream.capture.log.append((call_stream.handle, "task", None))
        else:
            self.run(call_stream.key, reads, writes, effect, **extra)

    def clear(self, key, upto: int | None = None) -> None:
        """The runtime ran ``key``'s work (up to ``upto``), and what it waited for."""
        ops = self.pending.get(key, [])
        done = [p for p in ops if upto is None or p.seq <= upto]
        self.pending[key] = [p for p in ops if p not in done]
        for p in done:
            if p.wait is not None:
                self.clear(*p.wait)

    def finish_work_on(self, b: Block) -> None:
        """Freeing waits for the queued work that uses the block, and what precedes it."""
        for key, ops in list(self.pending.items()):
            uses = [p.seq for p in ops if any(x is b for x, _, _ in p.reads + p.writes)]
            if uses:
                self.clear(key, max(uses))

    def synced(self, key) -> None:
        """The host waited for all of ``key``'s work: its events are done by the clock."""
        self.clear(key)
        for e in self.events.values():
            if e.rec is not None and e.rec[0] == key:
                e.clock_done = True

    def event_reached(self, e: Evt) -> None:
        """The runtime ran ``e``'s stream up to it and the clock has passed it."""
        key, seq = e.rec
        self.clear(key, seq)
        for other in self.events.values():
            if other.rec is not None and other.rec[0] == key and other.rec[1] <= seq:
                other.clock_done = True

    def pending_writes(self, b: Block) -> np.ndarray:
        """The bytes of ``b``'s window that queued work may still write."""
        mask = np.zeros(len(b.data), bool)
        for ops in self.pending.values():
            for p in ops:
                for w, lo, hi in p.writes:
                    if w is b:
                        mask[lo:hi] = True
        return mask

    # ----- memory placement ---------------------------------------------------------------
    def normalise_policy(self, policy: int) -> int:
        """The policy aclrtMalloc acts on: one enum value, else the default (an OR-ed
        bandwidth flag makes the value match none: aclMallocMemInner)."""
        return policy if 0 <= policy <= C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P \
            else C.ACL_MEM_MALLOC_HUGE_FIRST

    def footprint(self, api: str, size: int, base: int) -> int:
        huge1g = base in (C.ACL_MEM_MALLOC_HUGE1G_ONLY, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        if api == "malloc_host":
            return size                      # aclrtMallocHost rounds nothing
        if api == "malloc_align32" or huge1g:
            return align_up(size, 32)
        return align_up(size, 32) + 32

    def page_size(self, pool) -> int | None:
        """The page a pool hands out whole (2 MiB, 1 GiB), None for normal pages."""
        spec = next((s for s in self.profile.pools if s.label == pool[1]), None)
        return {"huge": 2 * MiB, "huge1g": 1 << 30}.get(spec.page) if spec else None

    def occupied(self, pool, footprint: int) -> int:
        """What a block of ``footprint`` holds of ``pool``: whole pages on huge pages (the
        runtime FAQ: a 1 KB HUGE_ONLY block occupies 2 MB)."""
        page = self.page_size(pool)
        return align_up(footprint, page) if page else footprint

    def candidate_pools(self, device: int, base: int, footprint: int) -> list:
        p2p = base in (C.ACL_MEM_MALLOC_HUGE_FIRST_P2P, C.ACL_MEM_MALLOC_HUGE_ONLY_P2P,
                       C.ACL_MEM_MALLOC_NORMAL_ONLY_P2P, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        kind_of = base % 3 if base < 6 else 3        # 0 huge first, 1 huge only, 2 normal, 3 1G
        pages = [["huge", "normal"] if footprint > MiB else ["normal"], ["huge"], ["normal"],
                 ["huge1g"]][kind_of]
        return [(device, s.label) for k in self.profile.kinds for page in pages
                for s in self.profile.pools if s.kind == k and s.page == page and s.p2p == p2p]

    def place(self, pools: list, footprint: int, align: int) -> tuple[set, bool]:
        """(pools the block may land in, whether running out of memory is possible), from
        each pool's largest free block before the call."""
        largest = {(p["device"], p["label"].rsplit(" (", 1)[0]): p["largest_free"]
                   for p in self.observe()["pools"]}
        possible = set()
        for pool in pools:
            lf, need = largest[pool], self.occupied(pool, footprint)
            if lf >= need + (self.page_size(pool) or align) - 1:
                return possible | {pool}, False
            if lf >= need:
                possible.add(pool)
        return possible, True

    def used(self, pool) -> int:
        return sum(b.occupied for b in self.blocks.values()
                   if b.pool is not None and (b.device, b.pool) == pool)

    def mem_info(self, attr: int) -> tuple[int, int]:
        """(free, total) that aclrtGetMemInfo reports for ``attr`` on the current device."""
        device = self.ctx().device
        if attr not in MEM_ATTRS:
            raise Fail(C.ACL_ERROR_RT_INVALID_MEMORY_TYPE)
        kind, page, p2p = MEM_ATTRS[attr]
        if kind == "HBM" and "HBM" not in self.profile.kinds:
            kind = "DDR"       # DDR-only SoCs answer HBM queries with DDR figures
        specs = self.profile.pools
        if page == "huge1g" and not self.profile.soc.huge1g_pages:
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        chosen = [(device, s.label) for s in specs
                  if (kind is None or s.kind == kind) and s.p2p == p2p
                  and (s.page == page if page else s.page in ("huge", "normal"))]
        total = sum(self.pool_sizes[p] for p in chosen)
        return total - sum(self.used(p) for p in chosen), total

    # ----- learning and forgetting --------------------------------------------------------
    def new_in(self, key: str) -> list:
        """Entries of the snapshot's ``key`` list whose handle the model does not know yet."""
        known = {"contexts": self.contexts, "models": self.graphs}[key]
        return [x for x in self.observe()[key] if x["handle"] not in known]

    def learn_context(self, device: int, default: bool, handle: int | None = None) -> None:
        """A context appeared (``handle`` None: the default one set_device just made)."""
        if handle is None:
            new = [c for c in self.new_in("contexts") if c["default"]]
            assert len(new) == 1 and new[0]["device"] == device, new
            handle = new[0]["handle"]
        self.contexts[handle] = Ctx(handle, device, default)
        self.default_streams[handle] = Strm(0, handle, device)
        if default:
            self.default_ctx[device] = handle
            self.refs[device] = self.refs.get(device, 0) + 1

    def add_registration(self, ptr: int, size: int, api: str, array=None,
                         internal: bool = False, read_only: bool = False) -> None:
        """Python memory (``api`` "numpy" or "bytes") registered through acl.util: pageable
        host memory outside every pool."""
        self.blocks[ptr] = Block(ptr, size, api, "host", None, size, None, array=array,
                                 internal=internal, read_only=read_only)

    def close_device(self, d: int) -> None:
        """Everything on device ``d`` goes: contexts, streams, events, captures, memory."""
        for c in [c for c in self.contexts.values() if c.device == d]:
            self.drop_context(c)
        for h in [h for h, g in self.graphs.items() if g.device == d]:
            del self.graphs[h]
        for b in [b for b in self.blocks.values() if b.device == d]:
            self.drop_block(b)
        self.refs[d] = 0
        self.default_ctx.pop(d, None)
        self.peers = {p for p in self.peers if d not in p}

    def drop_context(self, c: Ctx) -> None:
        for h in [h for h, g in self.graphs.items() if g.stream in c.streams]:
            del self.graphs[h]             # models captured in a context go with it
        for s in [self.default_streams.pop(c.handle)] + [self.streams.pop(h)
                                                         for h in sorted(c.streams)]:
            self.clear(s.key)
            if s.capture is not None and s.capture.stream is s:
                for joined in s.capture.joined:
                    joined.capture = None
                del self.captures[s.handle]
                self.graphs.pop(s.capture.graph.handle, None)
            if s.handle:
                self.dead_handles.append(s.handle)
        for h in c.events:
            del self.events[h]
        del self.contexts[c.handle]
        self.dead_handles.append(c.handle)

    def drop_block(self, b: Block) -> None:
        del self.blocks[b.ptr]
        self.freed.append(b.ptr)
