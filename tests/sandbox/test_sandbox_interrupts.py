"""Ctrl-C at any moment leaves a consistent simulated process.

A SIGINT reaches Python code where the interpreter checks for signals — on entering a
Python function, among other places. The injector below delivers one (calls the SIGINT
handler, as the interpreter would) on the n-th Python function call of an operation
(memset, memcpy, synchronize, a pool's first touch, ...), for every n the operation makes
(sampled evenly when there are many); a KeyboardInterrupt the handler put off until the call
returned (acl_lab/support/interrupts.py) is awaited. After each:

- the books add up: every pool's used bytes are what its allocations occupy, every
  stream's issued tasks are executed + pending, the RAM the budget counts is the RAM the
  storage holds, and nothing stays reserved for work that is no longer queued;
- a synchronous call either did not happen (snapshot and bytes exactly as before) or
  happened completely (exactly as an uninterrupted run leaves them);
- queued work is not lost: synchronizing again gives the bytes of an uninterrupted run;
- the next calls work.
"""
from __future__ import annotations

import signal
import sys
import time

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.pool import MemoryPool
from acl_lab.session import SESSION

MiB = 1 << 20
MAX_POINTS = 120          # interrupt points tried per operation (evenly spread)
H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST,
                 C.ACL_MEMCPY_DEVICE_TO_DEVICE)


WATCHED = ("acl_lab", "numpy", "sortedcontainers")   # code a call into the API runs


class Injector:
    """Deliver SIGINT on the ``at``-th Python function call (None: only count)."""

    def __init__(self, at: int | None = None):
        self.at, self.calls, self.fired = at, 0, False

    def __call__(self, frame, event, arg):
        if event == "call" and any(part in frame.f_code.co_filename for part in WATCHED):
            self.calls += 1
            if self.calls == self.at:
                self.fired = True
                signal.getsignal(signal.SIGINT)(signal.SIGINT, frame)
        return None

    def run(self, fn):
        """Run ``fn`` with the injector; True if a KeyboardInterrupt came (during ``fn`` or,
        put off, just after it)."""
        try:
            try:
                sys.settrace(self)
                fn()
            finally:
                sys.settrace(None)
            deadline = time.monotonic() + 1.0
            while self.fired and time.monotonic() < deadline:
                time.sleep(0.001)    # a put-off Ctrl-C arrives within milliseconds
        except KeyboardInterrupt:
            return True
        return False


def world():
    """A process with host and device buffers, some touched, some fresh, and a stream."""
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    w = {"acl": acl}
    w["stream"], _ = acl.rt.create_stream()
    w["host"], _ = acl.rt.malloc_host(2 * MiB)
    w["dev"], _ = acl.rt.malloc(2 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    w["dev2"], _ = acl.rt.malloc(2 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(w["host"], 2 * MiB, 3, 1 * MiB) == 0
    w["pool"] = MemoryPool(acl, 64 * 1024)
    return w


def queued(w):
    """Work waiting on the stream: the next operation (synchronize) runs it."""
    acl, s = w["acl"], w["stream"]
    assert acl.rt.memset_async(w["dev"], 2 * MiB, 9, 2 * MiB, s) == 0
    assert acl.rt.memcpy_async(w["dev2"], 2 * MiB, w["dev"], 2 * MiB, D2D, s) == 0
    assert acl.rt.memcpy_async(w["host"], 2 * MiB, w["dev2"], MiB, D2H, s) == 0


OPERATIONS = {
    # name: (prepare, operation, synchronous)
    "memset": (None, lambda w: w["acl"].rt.memset(w["dev"], 2 * MiB, 7, 2 * MiB - 100), True),
    "memcpy_h2d": (None, lambda w: w["acl"].rt.memcpy(w["dev"], 2 * MiB, w["host"], 2 * MiB - 64,
                                                      H2D), True),
    "memcpy_d2d_fresh": (None, lambda w: w["acl"].rt.memcpy(w["dev2"] + 64, MiB, w["dev"], MiB,
                                                            D2D), True),
    "malloc": (None, lambda w: w["acl"].rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST), True),
    "free": (None, lambda w: w["acl"].rt.free(w["dev2"]), True),
    "ptr_to_numpy_first_touch": (None, lambda w: w["acl"].util.ptr_to_numpy(
        w["host"] + MiB, (MiB,), np.dtype(np.uint8).num), True),
    "synchronize_stream": (queued, lambda w: w["acl"].rt.synchronize_stream(w["stream"]), False),
    "synchronize_device": (queued, lambda w: w["acl"].rt.synchronize_device(), False),
    "memset_async_issue": (None, lambda w: w["acl"].rt.memset_async(
        w["dev"], 2 * MiB, 1, 2 * MiB, w["stream"]), True),
    "synchronize_device_with_timeout": (queued, lambda w: w["acl"].rt.
                                        synchronize_device_with_timeout(1), False),
    "stream_abort": (queued, lambda w: w["acl"].rt.stream_abort(w["stream"]), True),
    "reset": (None, lambda w: acl_lab.reset(), False),
    "reset_device": (None, lambda w: w["acl"].rt.reset_device(0), True),
    "pool_alloc": (None, lambda w: w["pool"].alloc(5000), True),
    "pool_free": (lambda w: w.update(segment=w["pool"].alloc(100)),
                  lambda w: w["pool"].free(w["segment"]), True),
}


def first_touch_world():
    """A process whose pools were never touched: the operation maps the pool first."""
    acl_lab.reset("310p")
    acl = acl_lab.load(profile="310p")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    w = {"acl": acl}
    w["stream"], _ = acl.rt.create_stream()
    w["dev"], _ = acl.rt.malloc(4 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return w


def state(w):
    """Everything a learner can observe: the snapshot (less what the simulator's own
    garbage filling may change) and the bytes of every buffer."""
    snap = acl_lab.snapshot()
    snap.pop("touched_bytes")
    pool = w.get("pool")
    if pool is not None:       # what the program's MemoryPool holds
        snap["segments"] = sorted((s.start, s.size) for s in pool._live.values())
        snap["pool_used"] = pool._free.used
    acl = w["acl"]
    data = {}
    for name in ("host", "dev", "dev2"):
        ptr = w.get(name)
        if ptr and any(a["ptr"] == ptr for a in snap["allocations"]):
            data[name] = bytes(acl.util.ptr_to_bytes(ptr, 2 * MiB)) if name == "host" \
                else _device_bytes(acl, ptr)
    return snap, data


def _device_bytes(acl, ptr):
    sim = SESSION.simulator
    a = sim.rt.memory.allocs[ptr]
    out = np.empty(a.size, np.uint8)
    a.read_into(0, a.size, out)       # reads without a call (no trace, no clock)
    return out.tobytes()


def books_add_up():
    sim = SESSION.simulator
    rt, snap = sim.rt, acl_lab.snapshot()
    for p in snap["pools"]:
        ours = [a for a in snap["allocations"] if a["pool"] == p["label"]]
        assert p["used"] == sum(a["occupied"] for a in ours), p["label"]
    for p in rt.memory.all_pools():
        assert p.blocks.used == sum(a.occupied for a in rt.memory.allocs.values()
                                    if a.pool is p), p.label
        for part in [p.storage._pool, *p.storage._big.values()]:     # pool, big blocks
            m = part._m
            touched = 0 if m is None else int(m.touched.sum())
            assert touched == part.touched_chunks, p.label
    assert rt.memory.ram.used == rt.memory.touched_bytes()
    for s in rt.all_streams():
        assert s.issued == s.executed + len(s.pending), s
    pending = sum(len(s.pending) for s in rt.all_streams())
    assert rt.memory.ram.reserved >= 0 and (pending or rt.memory.ram.reserved == 0)


def next_calls_work():
    acl = acl_lab.load()
    if acl.rt.get_context()[1] != 0:
        assert acl.init() in (0, C.ACL_ERROR_REPEAT_INITIALIZE) and acl.rt.set_device(0) == 0
    d, ret = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    h, ret2 = acl.rt.malloc_host(4096)
    assert ret == ret2 == 0
    assert acl.rt.memset(d, 4096, 0x2A, 4096) == 0
    assert acl.rt.memcpy(h, 4096, d, 4096, D2H) == 0
    assert acl.rt.synchronize_device() == 0
    assert acl.util.ptr_to_bytes(h, 4096) == b"\x2a" * 4096


def points(total: int) -> list[int]:
    if total <= MAX_POINTS:
        return list(range(1, total + 1))
    return sorted({1 + round(i * (total - 1) / (MAX_POINTS - 1)) for i in range(MAX_POINTS)})


@pytest.mark.parametrize("name", list(OPERATIONS) + ["first_touch"])
def test_an_interrupt_anywhere_leaves_consistent_state(name):
    if name == "first_touch":
        make = first_touch_world
        prepare, op, sync = None, (lambda w: w["acl"].rt.memset(w["dev"], 4 * MiB, 1, 4 * MiB)), True
    else:
        make = world
        prepare, op, sync = OPERATIONS[name]

    def fresh():
        w = make()
        if prepare:
            prepare(w)
        return w

    w = fresh()
    before_ref = state(w)
    counter = Injector()
    counter.run(lambda: op(w))
    after_ref = state(w) if name != "reset" else None
    assert counter.calls > 3, "the injector saw no Python calls"

    tried = 0
    for at in points(counter.calls):
        w = fresh()
        inject = Injector(at)
        interrupted = inject.run(lambda: op(w))
        if not inject.fired:
            continue
        assert interrupted, f"the Ctrl-C delivered at call {at} never reached the program"
        tried += 1
        books_add_up()
        if name != "reset":
            now = state(w)
            if sync:
                assert now in (before_ref, after_ref), f"interrupt at call {at} left a half call"
            else:
                assert w["acl"].rt.synchronize_device() == 0
                assert state(w)[1] == after_ref[1], f"interrupt at call {at} lost queued work"
        books_add_up()
        next_calls_work()
        books_add_up()
    assert tried >= min(counter.calls, MAX_POINTS) // 2


def test_a_ctrl_c_in_a_standard_library_weakref_callback_is_not_lost():
    """Python ignores an exception raised in a weakref callback: a Ctrl-C that lands while
    the garbage collector empties a WeakSet entry would vanish (seen under Python 3.10 in
    the interrupt property test). It arrives once the callback returned."""
    import weakref

    acl_lab.load()                      # the kit's SIGINT handler is in place

    class Thing:
        pass

    remove = weakref.WeakSet()._remove.__code__
    hit = []

    def tracer(frame, event, arg):
        if frame.f_code is remove and not hit:
            hit.append(frame)
            signal.getsignal(signal.SIGINT)(signal.SIGINT, frame)
        return None

    things = weakref.WeakSet()
    thing = Thing()
    things.add(thing)
    with pytest.raises(KeyboardInterrupt):
        sys.settrace(tracer)
        try:
            del thing                   # the WeakSet's callback runs here
        finally:
            sys.settrace(None)
        time.sleep(1.0)                 # the Ctrl-C, sent again, arrives in this wait
    assert hit
