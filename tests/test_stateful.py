"""Random sequences of the whole pyACL-shaped API against an independent model of ACL.

A hypothesis RuleBasedStateMachine issues init/finalize, devices, contexts, streams, events,
every allocator and its free, memset/memcpy/memcpy2d (sync and async), capture begin/end/
execute/destroy (alone, and as whole capture-and-replay flows), get_mem_info, MemoryPool
operations and wrongly typed calls, with valid and invalid arguments mixed, on every device
profile. A model written from the rules (docs/rules.md and the hicann/runtime sources
README.md cites), not from the simulator, predicts each return code and keeps a shadow copy of
every byte written. After every step:

- the call returned the code the model expected, and a failed call changed nothing
  (acl_lab.snapshot() identical, the modeled clock included) and explained itself;
- allocations never overlap, sit in the pool their policy allows, are aligned, and
  get_mem_info / the pool figures equal the sum of the model's footprints;
- contexts, streams, events, models and pool segments are the ones the model expects;
- bytes read back equal the shadow copy wherever no unsynchronised work could still change
  them (a race-free program sees exactly what it wrote).

Steps: at least ACL_LAB_FUZZ_STEPS (default 10,000, ~15 s; derandomized, so CI runs the same
sequences); setting the variable also makes the run random: ACL_LAB_FUZZ_STEPS=100000 for a
longer hunt, which prints how often each call returned each code.
"""
from __future__ import annotations

import itertools
import json
import math
import os
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule, run_state_machine_as_test)

import acl_lab
from acl_lab import constants as C
from acl_lab.align import align_up, segment_size
from acl_lab.backends import _sim_backend
from acl_lab.errors import AclLabError, SimulatorLimit
from acl_lab.pool import GUARD_BYTE, RULES, MemoryPool
from acl_lab.sim.profiles import PROFILES, GiB, MiB

FUZZ_STEPS = int(os.environ.get("ACL_LAB_FUZZ_STEPS", "10000"))
STEPS_PER_EXAMPLE = 50
WINDOW = 4096                  # bytes of each block the shadow copy tracks (from its start)
WILD_PTR = 0x0000_0BAD_0000    # inside no pool and no registration
OK = C.ACL_SUCCESS
STATS = Counter()              # steps, calls, expected failures, ... (printed by the test)
CALLS = Counter()              # (call, return code) -> how often

H2H, H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)
DIRECTION = {("host", "host"): H2H, ("host", "device"): H2D,
             ("device", "host"): D2H, ("device", "device"): D2D}
GLOBAL, THREAD_LOCAL, RELAXED = (C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
ACTIVE, INVALIDATED = (C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
                       C.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED)

# aclrtGetMemInfo attribute -> (memory kind or None for any, page or None for huge+normal, p2p)
MEM_ATTRS = {
    C.ACL_DDR_MEM: ("DDR", None, False), C.ACL_HBM_MEM: ("HBM", None, False),
    C.ACL_DDR_MEM_HUGE: ("DDR", "huge", False), C.ACL_DDR_MEM_NORMAL: ("DDR", "normal", False),
    C.ACL_HBM_MEM_HUGE: ("HBM", "huge", False), C.ACL_HBM_MEM_NORMAL: ("HBM", "normal", False),
    C.ACL_DDR_MEM_P2P_HUGE: ("DDR", "huge", True),
    C.ACL_DDR_MEM_P2P_NORMAL: ("DDR", "normal", True),
    C.ACL_HBM_MEM_P2P_HUGE: ("HBM", "huge", True),
    C.ACL_HBM_MEM_P2P_NORMAL: ("HBM", "normal", True),
    C.ACL_HBM_MEM_HUGE1G: ("HBM", "huge1g", False),
    C.ACL_HBM_MEM_P2P_HUGE1G: ("HBM", "huge1g", True),
    C.ACL_MEM_NORMAL: (None, "normal", False), C.ACL_MEM_HUGE: (None, "huge", False),
    C.ACL_MEM_HUGE1G: (None, "huge1g", False), C.ACL_MEM_P2P_NORMAL: (None, "normal", True),
    C.ACL_MEM_P2P_HUGE: (None, "huge", True), C.ACL_MEM_P2P_HUGE1G: (None, "huge1g", True),
}
PAGEABLE = ("numpy", "bytes")   # Python's memory registered through acl.util
FREE_CALL = {"malloc": "free", "malloc_align32": "free", "malloc_cached": "free",
             "dvpp_malloc": "dvpp_free", "malloc_host": "free_host"}


class Fail(Exception):
    """The model's verdict that a call must fail, with the codes it may return. ``on_fail``
    is for the few failures that do change state (a capture that breaks): it records the
    change in the model and returns the snapshot expected after the call."""

    def __init__(self, *codes: int, on_fail=None):
        super().__init__(codes)
        self.codes, self.on_fail = set(codes), on_fail


# ----- the model's objects -----------------------------------------------------------------
@dataclass(eq=False)
class Block:
    """A live allocation or registration, with the shadow copy of its first WINDOW bytes."""
    ptr: int
    size: int
    api: str
    location: str                 # "device" or "host"
    device: int | None
    footprint: int
    pool: str | None              # pool label; None for pageable registrations
    array: np.ndarray | None = None
    internal: bool = False        # the machine's own read-back buffer
    read_only: bool = False       # a registered array numpy will not let anyone write
    data: np.ndarray = field(init=False)
    known: np.ndarray = field(init=False)

    def __post_init__(self):
        n = min(self.size, WINDOW)
        self.data = np.zeros(n, np.uint8)
        self.known = np.zeros(n, bool)
        if self.array is not None:
            self.data[:] = self.array.reshape(-1).view(np.uint8)[:n]
            self.known[:] = True

    @property
    def end(self) -> int:
        return self.ptr + self.size


@dataclass(eq=False)
class Ctx:
    handle: int
    device: int
    default: bool
    streams: set = field(default_factory=set)
    events: set = field(default_factory=set)


@dataclass(eq=False)
class Strm:
    handle: int                   # 0 for a context's default stream
    ctx: int
    device: int
    capture: Cap | None = None

    @property
    def key(self):
        return self.handle if self.handle else ("default", self.ctx)


@dataclass(eq=False)
class Evt:
    handle: int
    ctx: int
    rec: tuple | None = None      # (stream key, seq) of the last record
    clock_done: bool = False      # the host's modeled clock has certainly passed the record
    flags: int | None = None      # aclrtCreateEventWithFlag's flag (None: aclrtCreateEvent)
    ex: bool = False              # made by aclrtCreateEventExWithFlag: a capture can take it
    capture: Cap | None = None    # the capture that recorded it (while that capture lasts)
    ever: bool = False            # recorded on a stream at least once (Event::HasRecord)

    def captured(self) -> Cap | None:
        cap = self.capture
        return cap if cap is not None and cap.stream.capture is cap else None


@dataclass(eq=False)
class Op:
    """Work whose effect the shadow applied at issue; while pending, a race can spoil it."""
    key: object
    seq: int
    reads: list                   # (Block, lo, hi)
    writes: list
    wait: tuple | None = None     # (stream key, seq) this wait task waits for
    graph: int | None = None      # model RI replayed by this task


@dataclass(eq=False)
class Graph:
    handle: int
    device: int
    stream: int
    templates: list = field(default_factory=list)   # recorded memset/memcpy effects
    ready: bool = False
    executions: int = 0


@dataclass(eq=False)
class PoolModel:
    """A MemoryPool under test: its backing block and the segments it handed out."""
    pool: MemoryPool
    api: str                      # allocator of the backing block
    block: Block
    align: int
    segments: dict = field(default_factory=dict)     # start -> (length, m)
    freed: list = field(default_factory=list)
    closed: bool = False

    @property
    def base(self) -> int:
        return self.block.ptr

    @property
    def capacity(self) -> int:
        return self.block.size


@dataclass(eq=False)
class Cap:
    stream: Strm
    mode: int
    graph: Graph
    status: int = ACTIVE
    joined: list = field(default_factory=list)   # streams that joined through an event
    log: list = field(default_factory=list)      # (stream handle, kind, event) in model order


def _overlaps(xs, ys) -> bool:
    return any(a is b and lo < hi2 and lo2 < hi for a, lo, hi in xs for b, lo2, hi2 in ys)


def _forget(regions) -> None:
    for b, lo, hi in regions:
        b.known[lo:hi] = False     # slices past the window are empty


def check_int(v: int) -> int:
    """pyACL's int conversion: an int that does not fit 64 bits is ACL_ERROR_INVALID_PARAM."""
    if not -(1 << 63) <= v < (1 << 64):
        raise Fail(C.ACL_ERROR_INVALID_PARAM)
    return v


def check_size(v: int) -> int:
    """Sizes, pointers and handles are unsigned: a negative one is ACL_ERROR_INVALID_PARAM."""
    if check_int(v) < 0:
        raise Fail(C.ACL_ERROR_INVALID_PARAM)
    return v


def _check_range(low: int, high: int):
    def check(v: int) -> int:
        """pyACL parses some arguments as 32-bit C ints: outside, ACL_ERROR_INVALID_PARAM."""
        if not low <= check_int(v) < high:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        return v
    return check


check_i32 = _check_range(-(1 << 31), 1 << 31)
check_u32 = _check_range(0, 1 << 32)


class Model:
    """What ACL must do, per the documented rules. Methods raise Fail (the expected codes)
    or return a function that records the call's effect once the real call succeeded."""

    def __init__(self, profile):
        self.profile = profile
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
        self.graphs: dict[int, Graph] = {}
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

    # ----- capture rules ------------------------------------------------------------------
    def restricting(self, device: int) -> Cap | None:
        """A capture that forbids unsafe calls to this (the only) thread on ``device``."""
        if self.thread_mode == RELAXED:
            return None
        for cap in self.captures.values():
            if cap.stream.device == device and cap.status == ACTIVE and cap.mode != RELAXED:
                return cap
        return None

    # ----- streams of work: issue, races, synchronisation --------------------------------
    def _others(self, key) -> list[Op]:
        """Pending ops that are not ordered before new work on ``key`` (None: the host)."""
        ordered = self.waited.get(key, {})
        return [p for k, ops in self.pending.items() if k != key for p in ops
                if not (k in ordered and p.seq <= ordered[k])]

    def _taint(self, op: Op, regions) -> None:
        """``regions`` written by pending ``op`` may end up other than the shadow says; so
        may whatever later work on its stream derived from them."""
        _forget(regions)
        spoiled = list(regions)
        for later in self.pending.get(op.key, []):
            if later.seq > op.seq and _overlaps(later.reads, spoiled):
                _forget(later.writes)
                spoiled += later.writes

    def run(self, key, reads, writes, effect, **extra) -> None:
        """Apply work now in the shadow; ``key`` None is the host (synchronous work),
        otherwise the work is queued on that stream and stays pending until a sync."""
        others = self._others(key)
        # this work reads or writes what unordered work writes: its result is unsure
        ambiguous = any(_overlaps(reads + writes, p.writes) for p in others)
        spoiled = []            # unordered work whose result this work makes unsure
        for p in others:
            if _overlaps(writes, p.reads):
                spoiled.append((p, p.writes))
            elif _overlaps(writes, p.writes):
                spoiled.append((p, [w for w in p.writes if _overlaps([w], writes)]))
        effect()
        if ambiguous:
            _forget(writes)
        for p, regions in spoiled:
            self._taint(p, regions)
        if key is not None:
            self.issued[key] = self.issued.get(key, 0) + 1
            self.pending.setdefault(key, []).append(
                Op(key, self.issued[key], reads, writes, **extra))

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

    def pending_writes(self, b: Block) -> np.ndarray:
        mask = np.zeros(len(b.data), bool)
        for ops in self.pending.values():
            for p in ops:
                for w, lo, hi in p.writes:
                    if w is b:
                        mask[lo:hi] = True
        return mask

    # ----- memory placement ---------------------------------------------------------------
    def normalise_policy(self, policy: int) -> tuple[int, int]:
        """(base policy, bandwidth flags); a value outside the enum means the default."""
        flags = policy & (C.ACL_MEM_TYPE_LOW_BAND_WIDTH | C.ACL_MEM_TYPE_HIGH_BAND_WIDTH)
        base = policy & 0xFF
        if base > C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P or policy & ~0x11FF:
            return C.ACL_MEM_MALLOC_HUGE_FIRST, 0
        return base, flags

    def footprint(self, api: str, size: int, base: int) -> int:
        huge1g = base in (C.ACL_MEM_MALLOC_HUGE1G_ONLY, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        if api in ("malloc_align32", "malloc_host") or huge1g:
            return align_up(size, 32)
        return align_up(size, 32) + 32

    def candidate_pools(self, device: int, base: int, flags: int, footprint: int) -> list:
        p2p = base in (C.ACL_MEM_MALLOC_HUGE_FIRST_P2P, C.ACL_MEM_MALLOC_HUGE_ONLY_P2P,
                       C.ACL_MEM_MALLOC_NORMAL_ONLY_P2P, C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        kind_of = base % 3 if base < 6 else 3        # 0 huge first, 1 huge only, 2 normal, 3 1G
        pages = [["huge", "normal"] if footprint > MiB else ["normal"], ["huge"], ["normal"],
                 ["huge1g"]][kind_of]
        kinds = list(self.profile.kinds)
        if "HBM" in kinds:
            kinds = {C.ACL_MEM_TYPE_HIGH_BAND_WIDTH: ["HBM"],
                     C.ACL_MEM_TYPE_LOW_BAND_WIDTH: ["DDR"]}.get(flags, ["HBM", "DDR"])
        return [(device, s.label) for k in kinds for page in pages for s in self.profile.pools
                if s.kind == k and s.page == page and s.p2p == p2p]

    def place(self, pools: list, footprint: int, align: int, snapshot: dict) -> tuple[set, bool]:
        """(pools the block may land in, whether running out of memory is possible), from
        each pool's largest free block before the call."""
        largest = {(p["device"], p["label"].rsplit(" (", 1)[0]): p["largest_free"]
                   for p in snapshot["pools"]}
        possible = set()
        for pool in pools:
            lf = largest[pool]
            if lf >= footprint + align - 1:
                return possible | {pool}, False
            if lf >= footprint:
                possible.add(pool)
        return possible, True

    def used(self, pool) -> int:
        return sum(b.footprint for b in self.blocks.values()
                   if b.pool is not None and (b.device, b.pool) == pool)

    def mem_info(self, attr: int) -> tuple[int, int]:
        device = self.ctx().device
        if attr not in MEM_ATTRS:
            raise Fail(C.ACL_ERROR_RT_INVALID_MEMORY_TYPE)
        kind, page, p2p = MEM_ATTRS[attr]
        if kind == "HBM" and "HBM" not in self.profile.kinds:
            kind = "DDR"       # DDR-only SoCs answer HBM queries with DDR figures
        specs = self.profile.pools
        if page == "huge1g" and not any(s.page == "huge1g" for s in specs):
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        chosen = [(device, s.label) for s in specs
                  if (kind is None or s.kind == kind) and s.p2p == p2p
                  and (s.page == page if page else s.page in ("huge", "normal"))]
        total = sum(self.pool_sizes[p] for p in chosen)
        return total - sum(self.used(p) for p in chosen), total


def _diff(before: dict, after: dict) -> str:
    return "; ".join(f"{k}: {before.get(k)!r:.300} -> {after.get(k)!r:.300}"
                     for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k))


def _ret(result):
    return result[-1] if isinstance(result, tuple) else result


SMALL_POLICIES = [C.ACL_MEM_MALLOC_HUGE_FIRST] * 4 + [
    C.ACL_MEM_MALLOC_HUGE_ONLY, C.ACL_MEM_MALLOC_NORMAL_ONLY, C.ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    C.ACL_MEM_MALLOC_HUGE_ONLY_P2P, C.ACL_MEM_MALLOC_NORMAL_ONLY_P2P, C.ACL_MEM_MALLOC_HUGE1G_ONLY,
    C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, C.ACL_MEM_TYPE_HIGH_BAND_WIDTH | C.ACL_MEM_MALLOC_HUGE_ONLY,
    C.ACL_MEM_TYPE_LOW_BAND_WIDTH, C.ACL_MEM_TYPE_LOW_BAND_WIDTH | C.ACL_MEM_TYPE_HIGH_BAND_WIDTH,
    8, 0x206, 0x201, -1, 1 << 63, 1 << 64]
SIZES = st.one_of(
    st.integers(1, 4096), st.integers(1, 4096), st.integers(1, 4096),
    st.integers(MiB - 96, MiB + 32), st.integers(2 * MiB, 3 * MiB),
    st.sampled_from([GiB, 3 * GiB, 10 * GiB, 20 * GiB, 50 * GiB, 100 * GiB]),
    st.sampled_from([0, -1, (1 << 64) - 1, (1 << 64) - 64, 1 << 64, -(1 << 63) - 1]))


def needs(what: str):
    """Run a rule only while the model holds some ``what`` (its wrong-handle cases still
    come from the handle choosers), so examples reach deep states."""
    return precondition(lambda self: any(not getattr(x, "internal", False)
                                         for x in getattr(self.m, what).values()))


# Calls that need a current context run while there is one, and one step in eight without
# (to see ACL_ERROR_RT_CONTEXT_NULL); calls that tear state down wait for the example's
# second half, so examples first build something worth tearing down.
needs_context = precondition(lambda self: self.m.current in self.m.contexts or self.step % 8 == 0)
late = precondition(lambda self: self.step >= STEPS_PER_EXAMPLE // 2)
# Ending a capture and replaying a model need one, except one step in eight (wrong handles).
capturing = precondition(lambda self: self.m.captures or self.step % 8 == 0)
replayable = precondition(lambda self: any(g.ready for g in self.m.graphs.values())
                          or self.step % 8 == 0)


class AclMachine(RuleBasedStateMachine):
    """One simulated process per example, driven by random calls, checked by Model."""

    @initialize(profile=st.sampled_from(["910b", "910b", "310", "310p", "200dk"]),
                start=st.sampled_from(["bare", "init"] + ["device"] * 8))
    def start(self, profile, start):
        STATS["examples"] += 1
        self.step = 0
        acl_lab.reset(profile)
        self.acl = acl_lab.load(profile=profile)
        self.m = Model(PROFILES[profile])
        self.clock = 0.0
        self.arrays = []                      # registered arrays (and pools) stay alive
        self.pools: list[PoolModel] = []
        self.scratch = np.zeros(WINDOW, np.uint8)
        self.register(self.scratch, internal=True)
        if start != "bare":
            self.call(self.plan_init, self.acl.init)
        if start == "device":
            self.call(lambda: self.plan_set_device(0), self.acl.rt.set_device, 0)

    # ----- calling and checking -------------------------------------------------------------
    def call(self, plan, fn, *args, explain=None, atomic=True):
        """Call ``fn(*args)``; its code must be one the model expects; on failure nothing may
        change (unless the operation is not ``atomic``: a pool operation made of several
        calls) and ``explain()`` (default: acl.get_recent_err_msg) must say why; on success
        the model records the effect."""
        explain = explain or self.acl.get_recent_err_msg
        STATS["calls"] += 1
        on_fail = None
        try:
            effect = plan()
            if isinstance(effect, tuple):
                effect, also = effect
            else:
                also = set()
            expected = {OK} | also
        except Fail as f:
            effect, expected, on_fail = None, f.codes, f.on_fail
        before = acl_lab.snapshot() if expected != {OK} else None
        result = fn(*args)
        ret = _ret(result)
        name = getattr(fn, "__name__", repr(fn))
        CALLS[(name, ret)] += 1
        assert ret in expected, (
            f"{name}{args} returned {ret} ({C.ERROR_NAMES.get(ret)}); the model expects "
            f"{sorted(expected)}. Message: {explain()!r}")
        if ret != OK:
            STATS["expected failures"] += 1
            assert explain(), f"{name}{args} failed ({ret}) with no message"
            if atomic:
                after = acl_lab.snapshot()
                if on_fail is not None:
                    before = on_fail(before)
                assert before == after, f"failed {name}{args} ({ret}) changed: " + _diff(
                    before, after)
            return None
        if effect is not None:
            effect(result)
        return result

    def snapshot_new(self, key: str, known) -> list:
        return [x for x in acl_lab.snapshot()[key] if x["handle"] not in known]

    # ----- argument choosers: mostly valid, sometimes every kind of wrong -------------------
    @staticmethod
    def rare(data, n: int = 6) -> bool:
        """True about once in ``n`` draws. (A middle value: hypothesis favours the ends of a
        range and of a list, so the wrong choices must not sit there.)"""
        return data.draw(st.integers(0, n - 1)) == n // 2

    def draw_device(self, data) -> int:
        n = self.m.profile.device_count
        if self.rare(data):
            return data.draw(st.sampled_from([-1, n, 1 << 31, 1 << 64, -(1 << 63) - 1]))
        return data.draw(st.integers(0, n - 1))

    def draw_handle(self, data, live: list[int], zero_ok: bool = False) -> int:
        """Mostly a live handle (or 0 where 0 means a default); sometimes a wrong one."""
        good = live + [0] * zero_ok
        if good and not self.rare(data, 5):
            return data.draw(st.sampled_from(good))
        return data.draw(st.sampled_from([0, 0x1234, -1, 1 << 64] + self.m.dead_handles[-3:]))

    def draw_stream(self, data) -> int:
        return self.draw_handle(data, sorted(self.m.streams), zero_ok=True)

    def draw_event(self, data) -> int:
        return self.draw_handle(data, sorted(self.m.events))

    def live_blocks(self) -> list[Block]:
        return [b for b in self.m.blocks.values() if not b.internal]

    def draw_ptr(self, data) -> int:
        """Mostly the start of a live block or a place inside it; sometimes its end, a freed,
        NULL, unknown, negative or too-large pointer."""
        live = self.live_blocks()
        if live and not self.rare(data, 7):
            b = data.draw(st.sampled_from(live))
            if not self.rare(data, 3):
                return b.ptr
            span = max(1, min(b.size, WINDOW))
            return b.ptr + data.draw(st.one_of(st.integers(0, span - 1),
                                               st.sampled_from(range(0, span, 64))))
        how = data.draw(st.sampled_from(["end", "freed", "null", "wild", "negative", "huge"]))
        if how == "end" and live:
            return data.draw(st.sampled_from(live)).end
        if how == "freed" and self.m.freed:
            return data.draw(st.sampled_from(self.m.freed[-8:]))
        return {"null": 0, "negative": -64, "huge": 1 << 64}.get(how, WILD_PTR)

    def room(self, ptr: int) -> int:
        b = self.m.find(ptr) if 0 < ptr < (1 << 64) else None
        return b.end - ptr if b else 256

    def draw_count(self, data, room: int) -> int:
        if not self.rare(data, 8):
            return data.draw(st.integers(1, max(1, min(room, WINDOW))))
        return data.draw(st.sampled_from([0, room + 1, room + 64, -1, 1 << 64]))

    def draw_max(self, data, count: int) -> int:
        if not self.rare(data, 8):
            return count + data.draw(st.sampled_from([0, 0, 64]))
        return data.draw(st.sampled_from([count - 1, -1]))

    # ----- process, devices, contexts -----------------------------------------------------
    def plan_init(self):
        m = self.m
        if m.initialized:
            raise Fail(C.ACL_ERROR_REPEAT_INITIALIZE)

        def effect(_):
            m.initialized, m.finalized = True, False
        return effect

    @rule()
    @precondition(lambda self: not self.m.initialized or not any(self.m.refs.values()))
    def init(self):
        self.call(self.plan_init, self.acl.init)

    @rule()
    @precondition(lambda self: self.m.initialized or not any(self.m.refs.values()))
    @late
    def finalize(self):
        m = self.m

        def plan():
            if m.finalized:
                raise Fail(C.ACL_ERROR_REPEAT_FINALIZE)

            def effect(_):
                for d in [d for d, refs in m.refs.items() if refs]:
                    self.close_device(d)
                for b in [b for b in m.blocks.values() if b.api == "malloc_host"]:
                    self.drop_block(b)
                m.initialized, m.finalized = False, True
            return effect
        self.call(plan, self.acl.finalize)

    def learn_context(self, device: int, default: bool, handle: int | None = None) -> None:
        m = self.m
        if handle is None:
            new = [c for c in self.snapshot_new("contexts", m.contexts) if c["default"]]
            assert len(new) == 1 and new[0]["device"] == device, new
            handle = new[0]["handle"]
        m.contexts[handle] = Ctx(handle, device, default)
        m.default_streams[handle] = Strm(0, handle, device)
        if default:
            m.default_ctx[device] = handle
            m.refs[device] = m.refs.get(device, 0) + 1

    def plan_set_device(self, d):
        m = self.m
        m.check_device(check_int(d))

        def effect(_):
            if d in m.default_ctx:
                m.refs[d] += 1
            else:
                self.learn_context(d, default=True)
            m.current = m.default_ctx[d]
        return effect

    @rule(data=st.data())
    def set_device(self, data):
        d = self.draw_device(data)
        self.call(lambda: self.plan_set_device(d), self.acl.rt.set_device, d)

    def close_device(self, d: int) -> None:
        """Everything on device ``d`` goes: contexts, streams, events, captures, memory."""
        m = self.m
        for c in [c for c in m.contexts.values() if c.device == d]:
            self.drop_context(c)
        for h in [h for h, g in m.graphs.items() if g.device == d]:
            del m.graphs[h]
        for b in [b for b in m.blocks.values() if b.device == d]:
            self.drop_block(b)
        m.refs[d] = 0
        m.default_ctx.pop(d, None)
        m.peers = {p for p in m.peers if d not in p}

    def drop_context(self, c: Ctx) -> None:
        m = self.m
        for h in [h for h, g in m.graphs.items() if g.stream in c.streams]:
            del m.graphs[h]             # models captured in a context go with it
        for s in [m.default_streams.pop(c.handle)] + [m.streams.pop(h) for h in sorted(c.streams)]:
            m.clear(s.key)
            if s.capture is not None and s.capture.stream is s:
                for joined in s.capture.joined:
                    joined.capture = None
                del m.captures[s.handle]
                m.graphs.pop(s.capture.graph.handle, None)
            if s.handle:
                m.dead_handles.append(s.handle)
        for h in c.events:
            del m.events[h]
        del m.contexts[c.handle]
        m.dead_handles.append(c.handle)

    def drop_block(self, b: Block) -> None:
        del self.m.blocks[b.ptr]
        self.m.freed.append(b.ptr)

    @rule(data=st.data())
    @late
    def reset_device(self, data):
        m, d = self.m, self.draw_device(data)

        def plan():
            m.check_device(check_int(d))
            if not m.refs.get(d):
                raise Fail(C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR)

            def effect(_):
                m.refs[d] -= 1
                if m.refs[d] == 0:
                    self.close_device(d)
            return effect
        self.call(plan, self.acl.rt.reset_device, d)

    @rule(data=st.data())
    def create_context(self, data):
        m, d = self.m, self.draw_device(data)

        def plan():
            m.check_device(check_int(d))

            def effect(result):
                if d not in m.default_ctx:
                    self.learn_context(d, default=True)
                self.learn_context(d, default=False, handle=result[0])
                m.current = result[0]
            return effect
        self.call(plan, self.acl.rt.create_context, d)

    @rule(data=st.data())
    @late
    def destroy_context(self, data):
        m = self.m
        explicit = sorted(h for h, c in m.contexts.items() if not c.default)
        h = self.draw_handle(data, explicit or sorted(m.contexts))

        def plan():
            c = m.context(check_size(h))
            if c.default:
                raise Fail(C.ACL_ERROR_RT_CONTEXT_NULL)
            return lambda _: self.drop_context(c)     # its streams' captures go with it
        self.call(plan, self.acl.rt.destroy_context, h)

    @rule(data=st.data())
    def set_context(self, data):
        m = self.m
        h = self.draw_handle(data, sorted(m.contexts))

        def plan():
            c = m.context(check_size(h))
            return lambda _: setattr(m, "current", c.handle)
        self.call(plan, self.acl.rt.set_context, h)

    # ----- streams --------------------------------------------------------------------------
    @rule()
    @needs_context
    def create_stream(self):
        self.do_create_stream()

    def do_create_stream(self):
        m = self.m

        def plan():
            c = m.ctx()

            def effect(result):
                h = result[0]
                m.streams[h] = Strm(h, c.handle, c.device)
                c.streams.add(h)
            return effect
        return self.call(plan, self.acl.rt.create_stream)

    @rule(data=st.data())
    @needs("streams")
    @needs_context
    def destroy_stream(self, data):
        m, h = self.m, self.draw_stream(data)

        def plan():
            if check_size(h) == 0:
                m.ctx()
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            s = m.stream(h)
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

            def effect(_):
                m.clear(s.key)
                del m.streams[h]
                m.contexts[s.ctx].streams.discard(h)
                m.dead_handles.append(h)
            return effect
        self.call(plan, self.acl.rt.destroy_stream, h)

    @rule(data=st.data())
    @needs_context
    def synchronize_stream(self, data):
        m, h = self.m, self.draw_stream(data)

        def plan():
            s = m.stream(check_size(h), other_device_ok=True)   # ACL switches context for it
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)
            return lambda _: m.synced(s.key)
        self.call(plan, self.acl.rt.synchronize_stream, h)

    @rule()
    @needs_context
    def synchronize_device(self):
        m = self.m

        def plan():
            streams = m.streams_of_device(m.ctx().device)
            if any(s.capture is not None for s in streams):
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

            def effect(_):
                for s in streams:
                    m.synced(s.key)
            return effect
        self.call(plan, self.acl.rt.synchronize_device)

    # ----- events ---------------------------------------------------------------------------
    @rule()
    @needs_context
    def create_event(self):
        m = self.m

        def plan():
            c = m.ctx()

            def effect(result):
                m.events[result[0]] = Evt(result[0], c.handle)
                c.events.add(result[0])
            return effect
        self.call(plan, self.acl.rt.create_event)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def destroy_event(self, data):
        m, h = self.m, self.draw_event(data)

        def plan():
            e = m.event(check_size(h))

            def effect(_):
                del m.events[h]
                m.contexts[e.ctx].events.discard(h)
                m.dead_handles.append(h)
            return effect
        self.call(plan, self.acl.rt.destroy_event, h)

    def check_task_stream(self, s: Strm) -> None:
        """A task may not go to a default stream while a capture restricts its device."""
        if s.handle == 0 and s.capture is None and self.m.restricting(s.device):
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT)

    def event_into_capture(self, s: Strm, e: Evt, waiting: bool):
        """An event met on a capturing stream (ApiImpl::EventRecord / StreamWaitEvent): a
        function recording what the capture takes, or None for the ordinary path. Events
        not made by aclrtCreateEventExWithFlag are refused and the capture stays ACTIVE; a
        stream that waits on a captured event joins its capture (fork)."""
        m, cap = self.m, s.capture
        if waiting and e.captured() is not None:
            mine = e.captured()
            if s.handle == 0:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT)
            if cap is not None and cap is not mine:
                def on_fail(before):
                    cap.status = INVALIDATED
                    return before
                raise Fail(C.ACL_ERROR_STREAM_CAPTURE_CONFLICT, on_fail=on_fail)

            def join(_):
                if s.capture is None:
                    s.capture = mine
                    mine.joined.append(s)
                self.mark(mine, s, "wait", e)
            return join
        if cap is None:
            return None
        if not e.ex:
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        if waiting:
            if e.rec is not None:
                raise Fail(C.ACL_ERROR_RT_CAPTURE_DEPENDENCY)

            return lambda _: self.mark(cap, s, "wait", e)
        if not e.flags & C.ACL_EVENT_SYNC:
            return lambda _: None          # the runtime records nothing and says success

        def captured(_):
            if cap.status == ACTIVE:
                e.capture = cap
            self.mark(cap, s, "record", e)
        return captured

    @staticmethod
    def mark(cap: Cap, s: Strm, kind: str, e: Evt) -> None:
        """An event record or wait the capture took: a task of the model (with no effect on
        bytes), and a step of its fork/join log."""
        if cap.status == ACTIVE:
            cap.graph.templates.append(([], [], lambda: None))
            cap.log.append((s.handle, kind, e.handle))

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def record_event(self, data):
        m = self.m
        h, sh = self.draw_event(data), self.draw_stream(data)

        def plan():
            check_size(h), check_size(sh)
            e, s = m.event(h), m.stream(sh)
            taken = self.event_into_capture(s, e, waiting=False)
            if taken is not None:
                return taken
            self.check_task_stream(s)

            def effect(_):
                m.run(s.key, [], [], lambda: None)
                e.rec, e.clock_done, e.ever = (s.key, m.issued[s.key]), False, True
            return effect
        self.call(plan, self.acl.rt.record_event, h, sh)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def stream_wait_event(self, data):
        m = self.m
        sh, h = self.draw_stream(data), self.draw_event(data)

        def plan():
            check_size(sh), check_size(h)
            s = m.stream(sh)
            e = m.event(h)
            taken = self.event_into_capture(s, e, waiting=True)
            if taken is not None:
                return taken
            if not (e.ever or e.ex or (e.flags or 0) & (C.ACL_EVENT_SYNC | C.ACL_EVENT_EXTERNAL)):
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)     # Event::Wait: never recorded
            self.check_task_stream(s)

            def effect(_):
                m.run(s.key, [], [], lambda: None, wait=e.rec)
                if e.rec is not None:
                    waited = m.waited.setdefault(s.key, {})
                    waited[e.rec[0]] = max(waited.get(e.rec[0], 0), e.rec[1])
            return effect
        self.call(plan, self.acl.rt.stream_wait_event, sh, h)

    def event_reached(self, e: Evt) -> None:
        """The runtime ran ``e``'s stream up to it and the clock has passed it."""
        key, seq = e.rec
        self.m.clear(key, seq)
        for other in self.m.events.values():
            if other.rec is not None and other.rec[0] == key and other.rec[1] <= seq:
                other.clock_done = True

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def synchronize_event(self, data):
        m, h = self.m, self.draw_event(data)

        def plan():
            e = self.waitable(h)
            return lambda _: self.event_reached(e) if e.rec else None
        self.call(plan, self.acl.rt.synchronize_event, h)

    def waitable(self, h: int) -> Evt:
        """An event the host may wait on or time: not inside a capture in progress."""
        e = self.m.event(check_size(h))
        if e.captured() is not None:
            raise Fail(C.ACL_ERROR_RT_EVENT_CAPTURED)
        return e

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def query_event_status(self, data):
        m, h = self.m, self.draw_event(data)

        def plan():
            e = m.event(check_size(h))

            def effect(result):
                status = result[0]
                if e.rec is None or not e.clock_done:
                    assert status in (C.ACL_EVENT_RECORDED_STATUS_NOT_READY,
                                      C.ACL_EVENT_RECORDED_STATUS_COMPLETE) and (
                        e.rec is not None or status == C.ACL_EVENT_RECORDED_STATUS_NOT_READY)
                else:
                    assert status == C.ACL_EVENT_RECORDED_STATUS_COMPLETE, result
                if status == C.ACL_EVENT_RECORDED_STATUS_COMPLETE:
                    self.event_reached(e)
            return effect
        self.call(plan, self.acl.rt.query_event_status, h)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def event_elapsed_time(self, data):
        m = self.m
        a, b = self.draw_event(data), self.draw_event(data)

        def plan():
            check_size(a), check_size(b)
            events = self.waitable(a), self.waitable(b)
            possible = set()
            for e in events:
                if e.rec is None:
                    raise Fail(*possible, C.ACL_ERROR_RT_INTERNAL_ERROR)
                if not e.clock_done:
                    possible.add(C.ACL_ERROR_RT_EVENT_NOT_COMPLETE)

            def effect(_):
                for e in events:
                    self.event_reached(e)
            return effect, possible
        self.call(plan, self.acl.rt.event_elapsed_time, a, b)

    # ----- the runtime's wider calls: flags, resets, timeouts, polls, force, peers ---------
    EVENT_FLAGS = [C.ACL_EVENT_SYNC, C.ACL_EVENT_SYNC, C.ACL_EVENT_TIME_LINE,
                   C.ACL_EVENT_SYNC | C.ACL_EVENT_TIME_LINE, C.ACL_EVENT_CAPTURE_STREAM_PROGRESS,
                   0, 0x80, C.ACL_EVENT_EXTERNAL | C.ACL_EVENT_SYNC, C.ACL_EVENT_IPC,
                   C.ACL_EVENT_DEVICE_USE_ONLY, -1, 1 << 32]

    @rule(flag=st.sampled_from(EVENT_FLAGS), ex=st.sampled_from([True, True, False]))
    @needs_context
    def create_event_with_flag(self, flag, ex):
        m = self.m

        def plan():
            check_u32(flag)
            top = 0x4F if ex else 0x3F            # RT_EVENT_FLAG_MAX / EventCreateEx's mask
            if flag & top == 0 or flag > top:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            for alone in (0x10, 0x20, 0x40) if ex else (0x10, 0x20):
                if flag & alone and flag & ~alone:
                    raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            if flag in (C.ACL_EVENT_DEVICE_USE_ONLY, C.ACL_EVENT_IPC):
                raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
            c = m.ctx()

            def effect(result):
                m.events[result[0]] = Evt(result[0], c.handle, flags=flag, ex=ex)
                c.events.add(result[0])
            return effect
        fn = self.acl.rt.create_event_ex_with_flag if ex else self.acl.rt.create_event_with_flag
        self.call(plan, fn, flag)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def reset_event(self, data):
        m = self.m
        h, sh = self.draw_event(data), self.draw_stream(data)

        def plan():
            check_size(h), check_size(sh)
            e, s = m.event(h), m.stream(sh)
            if e.ex or s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
            self.check_task_stream(s)

            def effect(_):
                m.run(s.key, [], [], lambda: None)
                e.rec, e.clock_done = None, False
            return effect
        self.call(plan, self.acl.rt.reset_event, h, sh)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def event_get_timestamp(self, data):
        h = self.draw_event(data)

        def plan():
            e = self.waitable(h)
            if e.rec is None:
                raise Fail(C.ACL_ERROR_RT_INTERNAL_ERROR)
            return (lambda _: self.event_reached(e)), (
                set() if e.clock_done else {C.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID})
        self.call(plan, self.acl.rt.event_get_timestamp, h)

    @rule(data=st.data(), timeout=st.sampled_from([-1, -1, 10 ** 9, 0, -2, 1 << 31]))
    @needs("events")
    @needs_context
    def synchronize_event_with_timeout(self, data, timeout):
        h = self.draw_event(data)

        def plan():
            check_size(h), check_i32(timeout)
            if timeout < -1 or timeout == 0:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            e = self.waitable(h)
            return lambda _: self.event_reached(e) if e.rec else None
        self.call(plan, self.acl.rt.synchronize_event_with_timeout, h, timeout)

    @rule(data=st.data(), timeout=st.sampled_from([-1, -1, 10 ** 9, -2, 1 << 31]))
    @needs_context
    def synchronize_stream_with_timeout(self, data, timeout):
        m, h = self.m, self.draw_stream(data)

        def plan():
            check_size(h), check_i32(timeout)
            if timeout < -1:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            s = m.stream(h, other_device_ok=True)
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)
            return lambda _: m.synced(s.key)
        self.call(plan, self.acl.rt.synchronize_stream_with_timeout, h, timeout)

    @rule(data=st.data())
    @needs_context
    def stream_query(self, data):
        m, h = self.m, self.draw_stream(data)

        def plan():
            s = m.stream(check_size(h))
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

            def effect(result):
                assert result[0] in (C.ACL_STREAM_STATUS_COMPLETE, C.ACL_STREAM_STATUS_NOT_READY)
                if result[0] == C.ACL_STREAM_STATUS_COMPLETE:
                    m.synced(s.key)
            return effect
        self.call(plan, self.acl.rt.stream_query, h)

    @rule(data=st.data(), mode=st.sampled_from([0, 1, 1, 2, -1]))
    @needs_context
    def set_stream_failure_mode(self, data, mode):
        m, h = self.m, self.draw_stream(data)

        def plan():
            check_size(h), check_u32(mode)
            m.stream(h)
            if mode not in (C.ACL_CONTINUE_ON_FAILURE, C.ACL_STOP_ON_FAILURE):
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            return None
        self.call(plan, self.acl.rt.set_stream_failure_mode, h, mode)

    @rule(priority=st.sampled_from([0, 3, -1]), flag=st.sampled_from([0, 1, 2, 0x40, 1 << 32]))
    @needs_context
    def create_stream_with_config(self, priority, flag):
        m = self.m

        def plan():
            check_u32(priority), check_u32(flag)
            c = m.ctx()

            def effect(result):
                m.streams[result[0]] = Strm(result[0], c.handle, c.device)
                c.streams.add(result[0])
            return effect
        self.call(plan, self.acl.rt.create_stream_with_config, priority, flag)

    @rule(data=st.data())
    @needs("streams")
    @needs_context
    @late
    def destroy_stream_force(self, data):
        m, h = self.m, self.draw_stream(data)

        def plan():
            if check_size(h) == 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            s = m.stream(h)
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

            def effect(_):       # queued work is discarded: what it would write is unknown
                for p in m.pending.get(s.key, []):
                    _forget(p.writes)
                m.pending[s.key] = []
                del m.streams[h]
                m.contexts[s.ctx].streams.discard(h)
                m.dead_handles.append(h)
            return effect
        self.call(plan, self.acl.rt.destroy_stream_force, h)

    @rule(data=st.data())
    @late
    def reset_device_force(self, data):
        m, d = self.m, self.draw_device(data)

        def plan():
            m.check_device(check_int(d))
            if not m.refs.get(d):
                raise Fail(C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR)
            return lambda _: self.close_device(d)
        self.call(plan, self.acl.rt.reset_device_force, d)

    @rule(level=st.sampled_from([C.ACL_RT_THREAD_LEVEL, C.ACL_RT_THREAD_LEVEL, 1]))
    def last_error(self, level):
        """A failure is kept by peek and handed out once by get, per thread."""
        ret = self.acl.rt.malloc(0, 0)[1]           # size 0: ACL_ERROR_INVALID_PARAM
        assert ret == C.ACL_ERROR_INVALID_PARAM
        if level != C.ACL_RT_THREAD_LEVEL:
            assert self.acl.rt.peek_at_last_error(level) == C.ACL_ERROR_INVALID_PARAM
            assert self.acl.rt.get_last_error(level) == C.ACL_ERROR_INVALID_PARAM
            return
        assert self.acl.rt.peek_at_last_error(level) == ret
        assert self.acl.rt.get_last_error(level) == ret
        assert self.acl.rt.get_last_error(level) == self.acl.rt.peek_at_last_error(level) == 0

    def peer_pair(self, device: int, peer: int) -> None:
        m = self.m
        m.check_device(device), m.check_device(peer)
        if device == peer:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        if m.profile.run_mode != C.ACL_HOST:
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)

    @rule(data=st.data())
    @needs_context
    def device_can_access_peer(self, data):
        d, p = self.draw_device(data), self.draw_device(data)

        def plan():
            check_i32(d), check_i32(p)
            self.peer_pair(d, p)
            self.m.ctx()

            def effect(result):
                assert result[0] == 1
            return effect
        self.call(plan, self.acl.rt.device_can_access_peer, d, p)

    @rule(data=st.data(), enable=st.booleans(), flags=st.sampled_from([0, 0, 0, 1, -1]))
    @needs_context
    def device_peer_access(self, data, enable, flags):
        m, p = self.m, self.draw_device(data)

        def plan():
            check_i32(p)
            if enable:
                check_u32(flags)
                if flags:
                    raise Fail(C.ACL_ERROR_FEATURE_UNSUPPORTED)
            me = m.ctx().device
            self.peer_pair(me, p)
            if enable:
                return lambda _: m.peers.add((me, p))
            return lambda _: m.peers.discard((me, p))
        if enable:
            self.call(plan, self.acl.rt.device_enable_peer_access, p, flags)
        else:
            self.call(plan, self.acl.rt.device_disable_peer_access, p)

    # ----- memory ---------------------------------------------------------------------------
    ALLOCATORS = ("malloc", "malloc_align32", "malloc_cached", "dvpp_malloc", "malloc_host")

    @rule(data=st.data(), api=st.sampled_from(ALLOCATORS), size=SIZES,
          policy=st.sampled_from(SMALL_POLICIES))
    @needs_context
    def allocate(self, data, api, size, policy):
        fn = getattr(self.acl.media if api == "dvpp_malloc" else self.acl.rt, api)
        args = (size, policy) if api not in ("dvpp_malloc", "malloc_host") else (size,)
        self.call(self.plan_allocate(api, size, policy), fn, *args)

    def plan_allocate(self, api: str, size: int, policy: int):
        """The model's verdict on allocating ``size`` bytes with ``api``."""
        m = self.m
        takes_policy = api not in ("dvpp_malloc", "malloc_host")

        def plan():
            check_size(size)
            if takes_policy:
                check_int(policy)
            if size == 0 or align_up(size, 32) >= 1 << 64:   # checked before the context
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            device = m.ctx().device
            base, flags = m.normalise_policy(policy if takes_policy else 0)
            footprint = m.footprint(api, size, base)
            location, owner, align = "device", device, 128 if api == "dvpp_malloc" else 64
            if api == "malloc_host":
                if m.profile.host_pinned:
                    pools, location, owner = [(None, "host normal")], "host", None
                else:   # ACL_DEVICE: "host" memory is normal device pages of device 0
                    pools, owner, align = [(0, s.label) for s in m.profile.pools
                                           if s.page == "normal" and not s.p2p], 0, 32
            else:
                if api == "malloc_cached" and base == C.ACL_MEM_MALLOC_HUGE_ONLY:
                    raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
                if footprint >= 1 << 64:        # the padding overflows size_t
                    raise Fail(C.ACL_ERROR_INVALID_PARAM)
                pools = m.candidate_pools(device, base, flags, footprint)
                if not pools:
                    raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
            possible, may_fail = m.place(pools, footprint, align, acl_lab.snapshot())
            if not possible:
                raise Fail(C.ACL_ERROR_RT_MEMORY_ALLOCATION)

            def effect(result):
                ptr = result[0]
                a = next(a for a in acl_lab.snapshot()["allocations"] if a["ptr"] == ptr)
                pool = (a["device"] if location == "device" else None,
                        a["pool"].rsplit(" (", 1)[0])
                assert pool in possible, f"{api}({size}, {policy}) landed in {pool}, not {possible}"
                assert ptr % align == 0, f"{api} returned 0x{ptr:x}, not {align}-byte aligned"
                m.blocks[ptr] = Block(ptr, size, api, location, owner, footprint, pool[1])
            return effect, {C.ACL_ERROR_RT_MEMORY_ALLOCATION} if may_fail else set()
        return plan

    @rule(data=st.data(), call=st.sampled_from(["free", "free", "free_host", "dvpp_free"]))
    @needs("blocks")
    def release(self, data, call):
        fn = getattr(self.acl.media if call == "dvpp_free" else self.acl.rt, call)
        ptr = self.draw_ptr(data)
        self.call(self.plan_release(call, ptr), fn, ptr)

    def plan_release(self, call: str, ptr: int):
        """The model's verdict on ``call`` (free / free_host / dvpp_free) of ``ptr``."""
        m = self.m

        def plan():
            if check_size(ptr) == 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            b = m.blocks.get(ptr)
            if b is None or FREE_CALL.get(b.api) != call:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)

            def effect(_):
                m.finish_work_on(b)
                self.drop_block(b)
            return effect
        return plan

    def register(self, array: np.ndarray, internal: bool = False) -> int:
        ptr = self.acl.util.numpy_to_ptr(array)
        assert ptr != 0 and ptr % 64 == 0, hex(ptr)
        if ptr not in self.m.blocks:
            self.arrays.append(array)
            self.m.blocks[ptr] = Block(ptr, array.nbytes, "numpy", "host", None, array.nbytes,
                                       None, array=array, internal=internal,
                                       read_only=not array.flags.writeable)
        return ptr

    @rule(data=st.data(), size=st.integers(1, WINDOW), seed=st.integers(0, 255))
    @precondition(lambda self: sum(b.api == "numpy" for b in self.live_blocks()) < 3)
    def register_array(self, data, size, seed):
        array = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)
        array.flags.writeable = not self.rare(data, 4)
        assert self.register(array) == self.register(array)    # one array, one address

    @rule()
    def register_strided_array(self):
        before = acl_lab.snapshot()
        assert self.acl.util.numpy_to_ptr(np.zeros((8, 8), np.uint8)[:, ::2]) == 0
        assert "contiguous" in self.acl.get_recent_err_msg()
        assert acl_lab.snapshot() == before

    # ----- the sandbox: bytes objects, read-only views, bad shapes, the host budget -------------
    @rule(data=st.data(), size=st.integers(1, WINDOW), seed=st.integers(0, 255))
    @precondition(lambda self: sum(b.api == "bytes" for b in self.live_blocks()) < 2)
    def register_bytes(self, data, size, seed):
        """pyACL's bytes_to_ptr pattern: a fresh bytes object, written in place through its
        pointer. A one-byte object is one Python shares between all code: read-only."""
        if self.rare(data, 4):
            size = 1
        obj = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes()
        ptr = self.acl.util.bytes_to_ptr(obj)
        assert ptr != 0 and self.acl.util.bytes_to_ptr(obj) == ptr
        if ptr not in self.m.blocks:
            self.arrays.append(obj)                 # the program keeps it alive, as pyACL asks
            self.m.blocks[ptr] = Block(ptr, size, "bytes", "host", None, size, None,
                                       array=np.frombuffer(obj, np.uint8), read_only=size == 1)
            STATS["bytes objects registered"] += 1

    @rule(data=st.data())
    def register_read_only_view(self, data):
        """numpy_to_ptr of a read-only view makes its bytes read-only; the writable array
        registered again makes them writable (the latest registration decides)."""
        roots = [b for b in self.live_blocks() if b.api == "numpy" and b.array.flags.writeable]
        if not roots:
            return
        b = data.draw(st.sampled_from(roots))
        view = b.array[:]
        view.flags.writeable = not data.draw(st.booleans())
        assert self.acl.util.numpy_to_ptr(view if not view.flags.writeable else b.array) == b.ptr
        b.read_only = not view.flags.writeable
        STATS["read-only views registered"] += b.read_only

    @rule(data=st.data())
    def bad_shapes_and_strides(self, data):
        """Negative or huge dimensions, strides and offsets never reach memory: ValueError
        from ptr_to_numpy, a NULL tensor or ACLNN_ERR_PARAM_INVALID from aclnn."""
        before = acl_lab.snapshot()
        host = [b for b in self.live_blocks() if b.location == "host" and b.size >= 8]
        if host:
            b = data.draw(st.sampled_from(host))
            shape = data.draw(st.sampled_from([(-1,), (4, -1), (1 << 63,), (1 << 40, 1 << 40),
                                               (b.size + 1,)]))
            with pytest.raises((ValueError, AclLabError)):
                self.acl.util.ptr_to_numpy(b.ptr, shape, np.dtype(np.uint8).num)
            with pytest.raises(ValueError):
                self.acl.util.ptr_to_bytes(b.ptr, -1)
        dev = [b for b in self.live_blocks() if b.location == "device" and b.size >= 64]
        if dev:
            b, nn = data.draw(st.sampled_from(dev)), self.acl.nn
            strides, offset = data.draw(st.sampled_from([([-1], 7), ([1], -1), ([-8], 0)]))
            assert nn.create_tensor([8], C.ACL_UINT8, strides, offset, C.ACL_FORMAT_ND,
                                    [b.size], b.ptr) == 0
            assert "negative" in self.acl.get_recent_err_msg()
            dims = data.draw(st.sampled_from([[1 << 62, 4], [b.size + 1], [2, 1 << 40]]))
            t = nn.create_tensor(dims, C.ACL_UINT8, [1] * len(dims), 0, C.ACL_FORMAT_ND,
                                 [b.size], b.ptr)
            assert t != 0
            assert nn.inplace_copy_get_workspace_size(t, t)[-1] == C.ACLNN_ERR_PARAM_INVALID
            assert nn.destroy_tensor(t) == OK
        STATS["bad shapes refused"] += 1
        assert acl_lab.snapshot() == before

    @rule(data=st.data(), is_async=st.booleans())
    @needs_context
    def hit_the_host_budget(self, data, is_async):
        """A write that needs more host RAM than the budget has left raises SimulatorLimit
        and changes nothing (the budget is lowered to just below what the write needs)."""
        rt = _sim_backend(None).acl._sim.rt
        fresh = [(b, rt.memory.allocs[b.ptr]) for b in self.live_blocks()
                 if b.pool is not None and not b.read_only]
        fresh = [(b, a) for b, a in fresh if a.fresh_bytes(0, a.size)]
        ctx = self.m.contexts.get(self.m.current)
        streams = sorted(h for h, s in self.m.streams.items() if ctx and s.device == ctx.device)
        if not fresh or is_async and not streams:
            return
        b, a = data.draw(st.sampled_from(fresh))
        ram, before = rt.memory.ram, acl_lab.snapshot()
        limit = ram.limit
        ram.limit = ram.used + ram.reserved + a.fresh_bytes(0, a.size) - 1
        try:
            with pytest.raises(SimulatorLimit, match="budget"):
                if is_async:
                    self.acl.rt.memset_async(b.ptr, b.size, 1, b.size,
                                             data.draw(st.sampled_from(streams)))
                else:
                    self.acl.rt.memset(b.ptr, b.size, 1, b.size)
        finally:
            ram.limit = limit
        STATS["budget limits hit"] += 1
        assert acl_lab.snapshot() == before

    @rule(data=st.data())
    @late
    def reset_with_live_views(self, data):
        """acl_lab.reset() while ptr_to_numpy arrays of the old process are alive: the arrays
        stay safe to touch (no crash), and the new process starts clean."""
        host = [b for b in self.live_blocks() if b.location == "host" and b.pool is not None]
        views = [self.acl.util.ptr_to_numpy(b.ptr, (min(b.size, WINDOW),), np.dtype(np.uint8).num)
                 for b in host[:2]]
        self.check_bytes()
        profile = self.m.profile.name
        acl_lab.reset(profile)
        for v in views:
            v[:] = 0x5A                      # the old process's memory: mapped, harmless
        assert acl_lab.snapshot()["allocations"] == [] and acl_lab.snapshot()["touched_bytes"] == 0
        self.m = Model(PROFILES[profile])
        self.clock = 0.0
        self.arrays, self.pools = [], []
        self.scratch = np.zeros(WINDOW, np.uint8)
        self.register(self.scratch, internal=True)
        self.call(self.plan_init, self.acl.init)
        self.call(lambda: self.plan_set_device(0), self.acl.rt.set_device, 0)
        STATS["resets with live views"] += 1

    @rule(attr=st.one_of(st.integers(0, 17), st.sampled_from([-1, 18, 1 << 40, 1 << 64])))
    @needs_context
    def get_mem_info(self, attr):
        m = self.m

        def plan():
            expected = m.mem_info(check_int(attr))

            def effect(result):
                assert result[:2] == expected, f"get_mem_info({attr}) = {result}, model {expected}"
            return effect
        self.call(plan, self.acl.rt.get_mem_info, attr)

    # ----- memset / memcpy ------------------------------------------------------------------
    def submit(self, call_stream: Strm | None, reads, writes, effect, **extra) -> None:
        """Work accepted by the runtime: applied now (host) or queued / captured (stream)."""
        m = self.m
        if call_stream is None:
            m.run(None, reads, writes, effect)
        elif call_stream.capture is not None:
            if call_stream.capture.status == ACTIVE:
                call_stream.capture.graph.templates.append((reads, writes, effect))
                call_stream.capture.log.append((call_stream.handle, "task", None))
        else:
            m.run(call_stream.key, reads, writes, effect, **extra)

    def check_submit(self, s: Strm | None) -> None:
        """Sync transfers are illegal under a restricting capture; stream work is checked
        for the default stream."""
        m = self.m
        if s is None:
            c = m.contexts.get(m.current)
            if c is not None and m.restricting(c.device):
                raise Fail(C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)
        elif s.capture is None:
            self.check_task_stream(s)

    @rule(data=st.data(), is_async=st.booleans(),
          value=st.one_of(st.integers(0, 255), st.sampled_from([-1, 256 + 7, 1 << 63])))
    @needs("blocks")
    @needs_context
    def memset(self, data, is_async, value):
        ptr = self.draw_ptr(data)
        count = self.draw_count(data, self.room(ptr))
        self.do_memset(ptr, self.draw_max(data, count), value, count,
                       self.draw_stream(data) if is_async else None)

    def do_memset(self, ptr: int, maximum: int, value: int, count: int, sh: int | None):
        """memset (``sh`` None) or memset_async on stream ``sh``."""
        m, is_async = self.m, sh is not None

        def plan():
            check_size(ptr), check_size(maximum), check_int(value), check_size(count)
            if is_async:
                check_size(sh)
            if count == 0:
                return None
            s = m.stream(sh) if is_async else None
            if ptr == 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            if count > maximum:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            b = m.resolve(ptr, count)
            if b.read_only or is_async and b.api in PAGEABLE:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            self.check_submit(s)
            off = ptr - b.ptr
            region = [(b, off, off + count)]

            def write():
                b.data[off:off + count] = value & 0xFF
                b.known[off:off + count] = True
            return lambda _: self.submit(s, [], region, write)

        if is_async:
            return self.call(plan, self.acl.rt.memset_async, ptr, maximum, value, count, sh)
        return self.call(plan, self.acl.rt.memset, ptr, maximum, value, count)

    @staticmethod
    def copier(d: Block, doff: int, src: Block, soff: int, n: int):
        def copy():
            m_ = min(n, max(len(d.data) - doff, 0))           # tracked destination bytes
            k = min(m_, max(len(src.data) - soff, 0))          # of which tracked at the source
            vals, known = src.data[soff:soff + k].copy(), src.known[soff:soff + k].copy()
            d.data[doff:doff + k], d.known[doff:doff + k] = vals, known
            d.known[doff + k:doff + m_] = False
        return copy

    def draw_kind(self, data, dst: int, src: int) -> int:
        """Usually the direction the pointers make (or DEFAULT); sometimes any value."""
        d, s = (self.m.find(p) if 0 < p < (1 << 64) else None for p in (dst, src))
        if d and s and not self.rare(data, 4):
            return data.draw(st.sampled_from([DIRECTION[(s.location, d.location)],
                                              C.ACL_MEMCPY_DEFAULT]))
        return data.draw(st.sampled_from([H2H, H2D, D2H, D2D, C.ACL_MEMCPY_DEFAULT,
                                          C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 6, 7, -1, 1 << 64]))

    @rule(data=st.data(), is_async=st.booleans())
    @needs("blocks")
    @needs_context
    def memcpy(self, data, is_async):
        dst, src = self.draw_ptr(data), self.draw_ptr(data)
        kind = self.draw_kind(data, dst, src)
        count = self.draw_count(data, min(self.room(dst), self.room(src)))
        self.do_memcpy(dst, self.draw_max(data, count), src, count, kind,
                       self.draw_stream(data) if is_async else None)

    def do_memcpy(self, dst: int, dmax: int, src: int, count: int, kind: int, sh: int | None):
        """memcpy (``sh`` None) or memcpy_async on stream ``sh``."""
        m, is_async = self.m, sh is not None

        def plan():
            check_size(dst), check_size(dmax), check_size(src), check_size(count)
            check_int(kind)
            if is_async:
                check_size(sh)
            if count == 0:
                return None
            s = m.stream(sh) if is_async else None
            if dst == 0 or src == 0 or kind not in range(6):
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            if count > dmax:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            if dst == src:
                return None
            d, sa = m.resolve(dst, count), m.resolve(src, count)
            if d.read_only or dst < src + count and src < dst + count:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            actual = DIRECTION[(sa.location, d.location)]    # the addresses decide, not kind
            if actual == D2D and not m.peer_ok(d.device, sa.device):
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            pageable = d.api in PAGEABLE or sa.api in PAGEABLE
            if is_async and actual == H2H and (pageable or m.profile.run_mode == C.ACL_HOST):
                raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)   # no async H2H on a host
            if is_async and pageable:      # "synchronize the stream, then copy" (ACL)
                if s.capture is not None:
                    raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)
                if m.restricting(s.device):
                    raise Fail(C.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)
            elif is_async and (dst % 64 or src % 64):
                raise Fail(C.ACL_ERROR_RT_ADDR_UNALIGNED)
            via = None if pageable else s
            self.check_submit(via)
            doff, soff = dst - d.ptr, src - sa.ptr
            reads, writes = [(sa, soff, soff + count)], [(d, doff, doff + count)]

            def effect(_):
                if is_async and pageable:
                    m.synced(s.key)
                self.submit(via, reads, writes, self.copier(d, doff, sa, soff, count))
            return effect

        if is_async:
            return self.call(plan, self.acl.rt.memcpy_async, dst, dmax, src, count, kind, sh)
        return self.call(plan, self.acl.rt.memcpy, dst, dmax, src, count, kind)

    @rule(data=st.data(), is_async=st.booleans(),
          shape=st.tuples(st.integers(0, 48), st.integers(0, 6), st.integers(0, 16),
                          st.integers(0, 16)))
    @needs("blocks")
    @needs_context
    def memcpy2d(self, data, is_async, shape):
        m = self.m
        width, height, dpad, spad = shape
        dpitch, spitch = width + dpad - (dpad == 1) * 5, width + spad   # dpad 1: too narrow
        dst, src = self.draw_ptr(data), self.draw_ptr(data)
        kind = self.draw_kind(data, dst, src)
        sh = self.draw_stream(data) if is_async else None

        def plan():
            check_size(dst), check_size(dpitch), check_size(src), check_size(spitch)
            check_int(kind)
            if is_async:
                check_size(sh)
            if width == 0 or height == 0:
                return None
            s = m.stream(sh) if is_async else None
            if dst == 0 or src == 0 or width > spitch or width > dpitch:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            allowed = (H2D, D2H, C.ACL_MEMCPY_DEFAULT) + ((D2D,) if is_async else ())
            if kind not in allowed:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            dspan, sspan = (height - 1) * dpitch + width, (height - 1) * spitch + width
            d = m.resolve(dst, dspan)
            if d.read_only:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            sa = m.resolve(src, sspan)
            actual = DIRECTION[(sa.location, d.location)]
            if kind not in (C.ACL_MEMCPY_DEFAULT, actual) or actual not in allowed or (
                    actual == D2D and not m.peer_ok(d.device, sa.device)):
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            self.check_submit(s)
            doff, soff = dst - d.ptr, src - sa.ptr
            reads = [(sa, soff + r * spitch, soff + r * spitch + width) for r in range(height)]
            writes = [(d, doff + r * dpitch, doff + r * dpitch + width) for r in range(height)]

            def copy():
                staged = Block(0, d.size, "stage", "host", None, 0, None)
                staged.data, staged.known = d.data.copy(), d.known.copy()
                for r, w in zip(reads, writes):    # read every row before writing any
                    self.copier(staged, w[1], sa, r[1], width)()
                d.data[:], d.known[:] = staged.data, staged.known
            return lambda _: self.submit(s, reads, writes, copy)

        if is_async:
            self.call(plan, self.acl.rt.memcpy2d_async, dst, dpitch, src, spitch, width, height,
                      kind, sh)
        else:
            self.call(plan, self.acl.rt.memcpy2d, dst, dpitch, src, spitch, width, height, kind)

    # ----- capture (ACL Graph) ----------------------------------------------------------------
    def draw_graph(self, data) -> int:
        ready = sorted(h for h, g in self.m.graphs.items() if g.ready)
        return self.draw_handle(data, ready or sorted(self.m.graphs))

    def capturing_streams(self) -> list[int]:
        return sorted(self.m.captures)

    @rule(data=st.data(), mode=st.sampled_from([GLOBAL] * 3 + [THREAD_LOCAL] * 2 + [RELAXED, 3]))
    @needs("streams")
    @needs_context
    def capture_begin(self, data, mode):
        m = self.m
        self.do_capture_begin(self.draw_handle(data, sorted(set(m.streams) - set(m.captures))),
                              mode)

    def do_capture_begin(self, sh: int, mode: int):
        m = self.m

        def plan():
            check_size(sh), check_int(mode)
            if sh == 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            s = m.stream(sh)
            if mode not in (GLOBAL, THREAD_LOCAL, RELAXED):
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

            def effect(_):
                new = self.snapshot_new("models", m.graphs)
                assert len(new) == 1 and not new[0]["ready"], new
                g = Graph(new[0]["handle"], s.device, s.handle)
                m.graphs[g.handle] = g
                s.capture = m.captures[s.handle] = Cap(s, mode, g)
            return effect
        return self.call(plan, self.acl.mdl.ri_capture_begin, sh, mode)

    @rule(data=st.data())
    @needs_context
    @capturing
    def capture_end(self, data):
        self.do_capture_end(self.draw_handle(data, self.capturing_streams()
                                             or sorted(self.m.streams)))

    def do_capture_end(self, sh: int):
        m = self.m

        def close(cap: Cap) -> None:
            del m.captures[cap.stream.handle]
            for joined in [cap.stream] + cap.joined:
                joined.capture = None

        def plan():
            if check_size(sh) == 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            s = m.stream(sh)
            cap = s.capture
            if cap is None:
                raise Fail(C.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
            if cap.stream is not s:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED)

            def on_fail(before):             # the model is destroyed with the capture
                close(cap)
                del m.graphs[cap.graph.handle]
                return {**before, "models": [g for g in before["models"]
                                             if g["handle"] != cap.graph.handle]}
            if cap.status == INVALIDATED:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, on_fail=on_fail)
            if not self.joined_back(cap):
                raise Fail(C.ACL_ERROR_RT_STREAM_UNJOINED, on_fail=on_fail)

            def effect(result):
                assert result[0] == cap.graph.handle
                cap.graph.ready = True
                close(cap)
            return effect
        return self.call(plan, self.acl.mdl.ri_capture_end, sh)

    @staticmethod
    def joined_back(cap: Cap) -> bool:
        """Every joined stream ends with a record another stream waits on after it, and the
        origin waits on one of them (Context::CheckCaptureModelValidity)."""
        home = False
        for s in cap.joined:
            mine = [i for i, (h, _, _) in enumerate(cap.log) if h == s.handle]
            if not mine or cap.log[mine[-1]][1] != "record":
                return False
            ev = cap.log[mine[-1]][2]
            waiters = {h for h, kind, e in cap.log[mine[-1] + 1:] if kind == "wait" and e == ev}
            if not waiters:
                return False
            home = home or cap.stream.handle in waiters
        return home or not cap.joined

    @rule(data=st.data())
    @needs("streams")
    @needs_context
    def capture_get_info(self, data):
        m = self.m
        sh = self.draw_handle(data, self.capturing_streams() + sorted(m.streams), zero_ok=True)

        def plan():
            if check_size(sh) == 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            cap = m.stream(sh).capture

            def effect(result):
                want = (C.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0) if cap is None else (
                    cap.status, cap.graph.handle)
                assert result[:2] == want, f"capture info {result}, model {want}"
            return effect
        self.call(plan, self.acl.mdl.ri_capture_get_info, sh)

    @rule(mode=st.sampled_from([GLOBAL, THREAD_LOCAL, RELAXED, RELAXED, 3, -5]))
    @needs("streams")
    @needs_context
    def capture_thread_exchange_mode(self, mode):
        m = self.m

        def plan():
            check_int(mode)
            m.ctx()
            if mode not in (GLOBAL, THREAD_LOCAL, RELAXED):
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)

            def effect(result):
                assert result[0] == m.thread_mode
                m.thread_mode = mode
            return effect
        self.call(plan, self.acl.mdl.ri_capture_thread_exchange_mode, mode)

    def graph(self, h: int) -> Graph:
        g = self.m.graphs.get(h)
        if g is None:
            raise Fail(C.ACL_ERROR_INVALID_PARAM if h == 0 else C.ACL_ERROR_RT_INVALID_HANDLE)
        if not g.ready:
            raise Fail(C.ACL_ERROR_RT_MODEL_CAPTURED)
        return g

    def replay(self, g: Graph):
        """(reads, writes, effect) of one replay; resources freed since capture fail it."""
        for reads, writes, _ in g.templates:
            if any(self.m.blocks.get(b.ptr) is not b for b, _, _ in reads + writes):
                raise Fail(C.ACL_ERROR_RT_MODEL_EXECUTE)
        reads = [r for t in g.templates for r in t[0]]
        writes = [w for t in g.templates for w in t[1]]

        def effect():
            for _, _, apply in g.templates:
                apply()
        return reads, writes, effect

    @rule(data=st.data())
    @needs("graphs")
    @needs_context
    @replayable
    def execute_async(self, data):
        self.do_execute_async(self.draw_graph(data), self.draw_stream(data))

    def do_execute_async(self, h: int, sh: int):
        m = self.m

        def plan():
            check_size(h), check_size(sh)
            s = m.stream(sh)
            g = self.graph(h)
            if s.capture is not None:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)
            if s.device != g.device:
                raise Fail(C.ACL_ERROR_RT_STREAM_CONTEXT)
            reads, writes, apply = self.replay(g)
            self.check_task_stream(s)

            def effect(_):
                m.run(s.key, reads, writes, apply, graph=h)
                g.executions += 1
            return effect
        return self.call(plan, self.acl.mdl.ri_execute_async, h, sh)

    @rule(data=st.data(), timeout=st.sampled_from([-1, -1, 1000, 0, -2]))
    @replayable
    def execute(self, data, timeout):
        self.do_execute(self.draw_graph(data), timeout)

    def do_execute(self, h: int, timeout: int):
        m = self.m

        def plan():
            check_size(h), check_int(timeout)
            if timeout == 0 or timeout < -1:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            g = self.graph(h)
            reads, writes, apply = self.replay(g)
            self.check_submit(None)      # a blocking call, like a synchronous copy

            def effect(_):
                m.run(None, reads, writes, apply)
                g.executions += 1
            return effect
        return self.call(plan, self.acl.mdl.ri_execute, h, timeout)

    @rule(data=st.data(), mode=st.sampled_from([GLOBAL, THREAD_LOCAL, RELAXED]),
          replays=st.integers(1, 3))
    @precondition(lambda self: self.m.current in self.m.contexts)
    def capture_flow(self, data, mode, replays):
        """A whole capture in one step: begin on a stream of this device, queue a few memsets
        and copies (drawn like any others), end, then replay the model on its streams."""
        m = self.m
        device = m.ctx().device
        free = sorted(h for h, s in m.streams.items() if s.device == device and not s.capture)
        created = None if free else self.do_create_stream()
        sh = data.draw(st.sampled_from(free)) if free else created and created[0]
        if not sh or self.do_capture_begin(sh, mode) is None:
            return
        for _ in range(data.draw(st.integers(1, 4))):
            dst = self.draw_ptr(data)
            count = self.draw_count(data, self.room(dst))
            if data.draw(st.booleans()):
                self.do_memset(dst, count, data.draw(st.integers(0, 255)), count, sh)
            else:
                src = self.draw_ptr(data)
                count = min(count, self.room(src))
                self.do_memcpy(dst, count, src, count, self.draw_kind(data, dst, src), sh)
        result = self.do_capture_end(sh)
        if result is None:
            return
        on_device = sorted(h for h, s in m.streams.items() if s.device == device) + [0]
        for _ in range(replays):
            if data.draw(st.booleans()):
                self.do_execute_async(result[0], data.draw(st.sampled_from(on_device)))
            else:
                self.do_execute(result[0], -1)

    @rule(data=st.data())
    @replayable
    def destroy_graph(self, data):
        m, h = self.m, self.draw_graph(data)

        def plan():
            check_size(h)
            if h in m.graphs and not m.graphs[h].ready:
                raise Fail(C.ACL_ERROR_RT_MODEL_CAPTURED)
            self.graph(h)

            def effect(_):
                for key, ops in m.pending.items():    # running replays finish first
                    if any(p.graph == h for p in ops):
                        m.clear(key)
                del m.graphs[h]
                m.dead_handles.append(h)
            return effect
        self.call(plan, self.acl.mdl.ri_destroy, h)

    @rule(data=st.data(), flags=st.sampled_from([0, 1]), bad_path=st.booleans())
    @replayable
    def debug_json_print(self, data, flags, bad_path):
        h = self.draw_graph(data)
        path = os.path.join(self.tmp, "missing-dir" if bad_path else "", "model.json")

        def plan():
            check_size(h), check_int(flags)
            g = self.graph(h)
            if bad_path:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)

            def effect(_):
                with open(path, encoding="utf-8") as f:
                    assert len(json.load(f)) == len(g.templates)
            return effect
        self.call(plan, self.acl.mdl.ri_debug_json_print, h, path, flags)

    # ----- the memory pool (secondary allocation) over this acl ------------------------------
    def pool_call(self, name: str, action):
        """A MemoryPool action shaped like a pyACL call: (value, 0), or (None, code) of the
        AclLabError it raised (its message is the explanation call() checks)."""
        def run():
            self.pool_error = ""
            try:
                return action(), OK
            except AclLabError as e:
                self.pool_error = str(e)
                return None, e.code
        run.__name__ = name
        return run

    def adopt_registrations(self) -> None:
        """Registrations a pool made for itself (its staging buffer) join the model."""
        for a in acl_lab.snapshot()["allocations"]:
            if a["ptr"] not in self.m.blocks and a["api"] == "numpy":
                self.m.blocks[a["ptr"]] = Block(a["ptr"], a["size"], "numpy", "host", None,
                                                a["size"], None, internal=True)

    def pool_op(self, name: str, plan, action, atomic: bool = True):
        self.call(plan, self.pool_call(name, action), explain=lambda: self.pool_error,
                  atomic=atomic)
        self.adopt_registrations()

    def open_pools(self) -> list[PoolModel]:
        return [p for p in self.pools if not p.closed]

    def draw_pool(self, data) -> PoolModel:
        """Mostly an open pool; now and then a closed one."""
        closed = [p for p in self.pools if p.closed]
        if closed and self.rare(data, 8) or not self.open_pools():
            return data.draw(st.sampled_from(closed))
        return data.draw(st.sampled_from(self.open_pools()))

    @rule(size=st.one_of(st.integers(1, 16384), st.sampled_from([0, -5, 3 * MiB])),
          rule_=st.sampled_from(["runtime", "dvpp"]),
          allocator=st.sampled_from([None, None, "malloc", "malloc_align32", "dvpp_malloc",
                                     "malloc_host"]))
    @needs_context
    @precondition(lambda self: len(self.open_pools()) < 3)
    def pool_create(self, size, rule_, allocator):
        api = allocator or {"runtime": "malloc_align32", "dvpp": "dvpp_malloc"}[rule_]
        backing = self.plan_allocate(api, size, C.ACL_MEM_MALLOC_HUGE_FIRST)

        def plan():
            if size <= 0:
                raise Fail(C.ACL_ERROR_INVALID_PARAM)
            effect = backing()
            effect, also = effect if isinstance(effect, tuple) else (effect, set())

            def record(result):
                pool = result[0]
                effect((pool.base, OK))
                self.pools.append(PoolModel(pool, api, self.m.blocks[pool.base], RULES[rule_]))
                self.arrays.append(pool)
            return record, also
        self.pool_op("MemoryPool", plan, lambda: MemoryPool(self.acl, size, rule=rule_,
                                                            allocator=allocator))

    def guard_outcomes(self, p: PoolModel, segments: list) -> set:
        """Codes a guard check of ``segments`` (start, length, m) may end with: the read
        itself may fail; a guard byte the shadow knows changed is an overrun; one it does
        not know may or may not be."""
        m = self.m
        lo = min(start + length for start, length, _ in segments)
        hi = max(start + size for start, _, size in segments)
        b = m.find(lo)
        if b is None or hi > b.end:
            return {C.ACL_ERROR_RT_PARAM_INVALID}
        host_readable = m.profile.run_mode == C.ACL_DEVICE or p.api == "malloc_host"
        if host_readable and b.location == "device" and m.profile.run_mode == C.ACL_HOST:
            return {C.ACL_ERROR_INVALID_PARAM}
        if not host_readable:
            if b.location != "device":
                return {C.ACL_ERROR_RT_PARAM_INVALID}
            self.check_submit(None)           # a synchronous copy (raises 107030 in capture)
        unsure, changed = m.pending_writes(b), False
        outcomes = set()
        for start, length, size in segments:
            g0, g1 = start + length - b.ptr, start + size - b.ptr
            known = b.known[g0:g1] & ~unsure[g0:g1]
            if len(known) < g1 - g0 or not known.all():
                outcomes.add(C.ACL_ERROR_RT_PARAM_INVALID)      # maybe overwritten
            changed |= bool((known & (b.data[g0:g1] != GUARD_BYTE)).any())
        return {C.ACL_ERROR_RT_PARAM_INVALID} if changed else outcomes | {OK}

    @rule(data=st.data(), length=st.one_of(st.integers(1, 64), st.integers(1, 2048),
                                           st.sampled_from([0, -1, 100_000])))
    @precondition(lambda self: self.pools)
    def pool_alloc(self, data, length):
        m, p = self.m, self.draw_pool(data)

        def plan():
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
            if m.blocks.get(p.base) is not p.block:     # its block was freed under it
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
                b = m.find(start + length)
                off = start + length - b.ptr

                def guard():
                    b.data[off:off + size - length] = GUARD_BYTE
                    b.known[off:off + size - length] = True
                m.run(None, [], [(b, off, off + size - length)], guard)
            return effect, also
        self.pool_op("MemoryPool.alloc", plan, lambda: p.pool.alloc(length))

    @rule(data=st.data(), check=st.booleans())
    @precondition(lambda self: self.pools)
    def pool_free(self, data, check):
        p = self.draw_pool(data)
        starts = sorted(p.segments)
        if starts and not self.rare(data, 6):
            ptr = data.draw(st.sampled_from(starts))
        else:
            ptr = data.draw(st.sampled_from(p.freed[-3:] + [p.base - 64, WILD_PTR] +
                                            [s + 32 for s in starts]))

        def plan():
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
        self.pool_op("MemoryPool.free", plan, lambda: p.pool.free(ptr, check=check),
                     atomic=False)

    @rule(data=st.data())
    @precondition(lambda self: self.open_pools())
    def pool_check_guards(self, data):
        p = data.draw(st.sampled_from(self.open_pools()))

        def plan():
            if not p.segments:
                return None
            outcomes = self.guard_outcomes(p, [(s, n, m_) for s, (n, m_) in p.segments.items()])
            if OK not in outcomes:
                raise Fail(*outcomes)
            return None, outcomes - {OK}
        self.pool_op("MemoryPool.check_guards", plan, p.pool.check_guards, atomic=False)

    @rule(data=st.data(), force=st.booleans())
    @precondition(lambda self: self.pools)
    def pool_close(self, data, force):
        p = self.draw_pool(data)
        give_back = self.plan_release(FREE_CALL[p.api], p.base)

        def plan():
            if p.closed:
                return None                       # closing twice is harmless
            if p.segments and not force:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            effect = give_back()

            def close(result):
                effect(result)
                p.closed = True
                p.segments.clear()
            return close
        self.pool_op("MemoryPool.close", plan, lambda: p.pool.close(force=force))

    # ----- wrong Python types ---------------------------------------------------------------
    @rule(data=st.data(), wrong=st.sampled_from(["0", 1.5, None, [1], b"\x00"]))
    def wrong_type(self, data, wrong):
        """pyACL parses arguments before anything runs: a wrong type is a TypeError, and
        nothing changes."""
        rt, mdl = self.acl.rt, self.acl.mdl
        ptr, sh = (max(0, min(x, (1 << 64) - 1)) for x in (self.draw_ptr(data),
                                                            self.draw_stream(data)))
        calls = [(rt.set_device, (wrong,)), (rt.malloc, (wrong, 0)), (rt.malloc, (64, wrong)),
                 (rt.free, (wrong,)), (rt.free_host, (wrong,)),
                 (rt.memcpy, (ptr, 64, ptr, 64, wrong)), (rt.memset_async, (ptr, 8, 0, 8, wrong)),
                 (rt.get_mem_info, (wrong,)), (rt.record_event, (wrong, sh)),
                 (rt.create_context, (wrong,)), (rt.synchronize_stream, (wrong,)),
                 (mdl.ri_capture_begin, (sh, wrong)), (mdl.ri_execute, (wrong, -1)),
                 (self.acl.util.numpy_to_ptr, (wrong,))]
        fn, args = data.draw(st.sampled_from(calls))
        before = acl_lab.snapshot()
        with pytest.raises(TypeError):
            fn(*args)
        STATS["type errors"] += 1
        assert acl_lab.snapshot() == before

    # ----- bytes: what was written is what is read back --------------------------------------
    @rule()
    def check_bytes(self):
        """Read every block back; wherever the shadow knows a byte and no unsynchronised work
        may still write it, the runtime must hold exactly that byte."""
        m = self.m
        c = m.contexts.get(m.current)
        can_copy = c is None or m.restricting(c.device) is None
        for b in self.live_blocks():
            mask = b.known & ~m.pending_writes(b)
            n = len(b.data)
            if not mask.any():
                continue
            if b.api == "numpy":
                actual = b.array.reshape(-1).view(np.uint8)[:n]
            elif b.location == "host" or m.profile.run_mode == C.ACL_DEVICE:
                actual = np.frombuffer(self.acl.util.ptr_to_bytes(b.ptr, n), np.uint8)
            elif can_copy:
                ret = self.acl.rt.memcpy(self.scratch_ptr, n, b.ptr, n, C.ACL_MEMCPY_DEFAULT)
                assert ret == OK, self.acl.get_recent_err_msg()
                actual = self.scratch[:n]
            else:
                continue
            wrong = np.flatnonzero(mask & (actual != b.data))
            assert not wrong.size, (
                f"{b.api} block 0x{b.ptr:x}: {wrong.size} byte(s) differ from what was written, "
                f"first at +{wrong[0]}: read {actual[wrong[0]]}, wrote {b.data[wrong[0]]}")
            STATS["bytes checked"] += int(mask.sum())

    def teardown(self):
        if hasattr(self, "m"):
            self.check_bytes()

    # ----- invariants after every step ----------------------------------------------------------
    @invariant()
    def state_matches_model(self):
        STATS["invariant checks"] += 1
        self.step += 1
        m, snap = self.m, acl_lab.snapshot()
        assert snap["initialized"] == m.initialized
        assert snap["now_us"] >= self.clock, "the modeled clock went backwards"
        self.clock = snap["now_us"]
        self.check_allocations(snap)
        self.check_handles(snap)
        self.check_current_context()
        self.check_pools()

    def check_allocations(self, snap: dict) -> None:
        m = self.m
        allocs = {a["ptr"]: a for a in snap["allocations"]}
        assert set(allocs) == set(m.blocks), (
            f"allocations {sorted(map(hex, set(allocs) ^ set(m.blocks)))} differ from the model")
        for ptr, b in m.blocks.items():
            a = allocs[ptr]
            assert (a["size"], a["api"], a["location"], a["device"], a["footprint"]) == (
                b.size, b.api, b.location, b.device, b.footprint), (a, b)
            assert b.pool is None or a["pool"].startswith(b.pool + " ("), (a, b.pool)
        by_pool: dict[str, list] = {}
        for a in snap["allocations"]:
            by_pool.setdefault(a["pool"], []).append(a)
        for p in snap["pools"]:
            blocks = sorted(by_pool.get(p["label"], []), key=lambda a: a["ptr"])
            ends = [p["base"]] + [a["ptr"] + a["footprint"] for a in blocks]
            starts = [a["ptr"] for a in blocks] + [p["base"] + p["total"]]
            assert all(e <= s for e, s in zip(ends, starts)), f"overlap in {p['label']}"
            pool = (p["device"], p["label"].rsplit(" (", 1)[0])
            assert p["used"] == m.used(pool) == sum(a["footprint"] for a in blocks), pool
            assert p["total"] == m.pool_sizes[pool]

    def check_handles(self, snap: dict) -> None:
        m = self.m
        ctxs = {c["handle"]: c for c in snap["contexts"]}
        assert set(ctxs) == set(m.contexts)
        for h, c in m.contexts.items():
            assert (ctxs[h]["device"], ctxs[h]["default"], ctxs[h]["streams"],
                    ctxs[h]["events"]) == (c.device, c.default, sorted(c.streams), sorted(c.events))
        assert {s["handle"] for s in snap["streams"]} == set(m.streams)
        for s in snap["streams"]:
            ms = m.streams[s["handle"]]
            assert (s["device"], s["context"], s["issued"]) == (
                ms.device, ms.ctx, m.issued.get(ms.key, 0)), s
            assert s["pending"] <= len(m.pending.get(ms.key, [])), (
                f"stream 0x{ms.handle:x} still holds work the host has waited for")
        events = {e["handle"]: e for e in snap["events"]}
        assert set(events) == set(m.events)
        for h, e in m.events.items():
            key = e.rec[0] if e.rec else None
            assert events[h]["stream"] == (0 if isinstance(key, tuple) else key), events[h]
        graphs = {g["handle"]: g for g in snap["models"]}
        assert set(graphs) == set(m.graphs)
        for h, g in m.graphs.items():
            replays = sum(p.graph == h for ops in m.pending.values() for p in ops)
            assert (graphs[h]["ready"], graphs[h]["executions"], len(graphs[h]["tasks"])) == (
                g.ready, g.executions, len(g.templates)), graphs[h]
            assert graphs[h]["in_flight"] <= replays
        refs = {d: r for d, r in m.refs.items() if r or d in snap["devices"]}
        assert {d: v["refs"] for d, v in snap["devices"].items()} == {
            d: refs.get(d, 0) for d in snap["devices"]} and set(refs) <= set(snap["devices"])
        assert {d for d, v in snap["devices"].items() if v["open"]} == set(m.default_ctx)

    def check_pools(self) -> None:
        """Each open pool's blocks tile it exactly; its segments are the model's; its
        stats add up."""
        for p in self.open_pools():
            blocks = p.pool.blocks()
            assert [b.start for b in blocks][:1] == [p.base] and all(
                a.start + a.size == b.start for a, b in itertools.pairwise(blocks)) and (
                blocks[-1].start + blocks[-1].size == p.base + p.capacity), blocks
            segments = {b.start: (b.segment.length, b.size) for b in blocks
                        if b.kind == "segment"}
            assert segments == p.segments
            s = p.pool.stats()
            used = sum(n for _, n in segments.values())
            assert (s.capacity, s.segments, s.used, s.free, s.requested) == (
                p.capacity, len(segments), used, p.capacity - used,
                sum(n for n, _ in segments.values()))

    def check_current_context(self) -> None:
        m = self.m
        handle, ret = self.acl.rt.get_context()
        c = m.contexts.get(m.current)
        if c is None:
            assert ret == C.ACL_ERROR_RT_CONTEXT_NULL
            return
        assert (handle, ret) == (c.handle, OK)
        assert self.acl.rt.get_device() == (c.device, OK)
        attrs = list(MEM_ATTRS)     # the pool figures are checked in full from the snapshot
        for attr in (attrs[self.step % len(attrs)], attrs[(self.step * 7 + 3) % len(attrs)]):
            try:
                expected = m.mem_info(attr) + (OK,)
            except Fail as f:
                expected = (0, 0, *f.codes)
            assert self.acl.rt.get_mem_info(attr) == expected, attr

    @property
    def scratch_ptr(self) -> int:
        return self.acl.util.numpy_to_ptr(self.scratch)


def test_random_api_sequences_keep_every_invariant(tmp_path, capsys):
    """≥ ACL_LAB_FUZZ_STEPS random steps (10,000 in CI), every invariant after each one."""
    AclMachine.tmp = str(tmp_path)
    STATS.clear()
    CALLS.clear()
    custom = "ACL_LAB_FUZZ_STEPS" in os.environ
    run_state_machine_as_test(AclMachine, settings=settings(
        # hypothesis ends examples early once their data grows: they average ~30 steps
        max_examples=math.ceil(1.8 * FUZZ_STEPS / STEPS_PER_EXAMPLE),
        stateful_step_count=STEPS_PER_EXAMPLE, deadline=None, database=None,
        derandomize=not custom, suppress_health_check=list(HealthCheck)))
    acl_lab.reset()
    steps = STATS["invariant checks"] - STATS["examples"]    # the first step is the start
    with capsys.disabled():
        print(f"\n[fuzz] {steps} steps in {STATS['examples']} examples; {STATS['calls']} calls "
              f"({STATS['expected failures']} expected failures, {STATS['type errors']} "
              f"TypeErrors, {len(CALLS)} distinct call/code outcomes); "
              f"{STATS['bytes checked']} bytes read back and checked; 0 invariant violations")
        print("[fuzz] sandbox: " + ", ".join(f"{STATS[k]} {k}" for k in (
            "bytes objects registered", "read-only views registered", "bad shapes refused",
            "budget limits hit", "resets with live views")))
        if custom:      # a long run by hand: how often each call returned each code
            for (name, ret), n in sorted(CALLS.items()):
                print(f"  {name:32} {ret:7} {n}")
    assert steps >= FUZZ_STEPS
