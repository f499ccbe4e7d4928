"""Eight threads, ten thousand mixed calls each, on their own contexts and streams.

Each thread opens a context on device 0 or 1 (so threads share page pools), then mixes
malloc/free of every kind, memset and memcpy (sync and async), events, stream syncs,
get_mem_info and get_context; every call must succeed and every byte read back must be the
thread's own. At the end: no thread is stuck (joins are bounded), the memory still held
is exactly what get_mem_info reports missing, freeing it gives every byte back, and the
trace is consistent (unique, increasing sequence numbers; every thread present; bounded).
"""
from __future__ import annotations

import itertools
import random
import sys
import threading
import time

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.align import align_up, malloc_footprint
from acl_lab.trace import DEFAULT_LIMIT

THREADS, CALLS = 8, 10_000
FINAL_CALLS = 200            # after the barrier: every thread is in the trace's last window
JOIN_TIMEOUT_S = 120
SWITCH_INTERVAL_S = 1e-5     # switch threads 500x more often than Python's default
BUF = 4096
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
SIZES = (1, 100, 4096, 70_000, 3 << 20)


def _held(size: int) -> int:
    """What a HUGE_FIRST block of ``size`` holds of its pool: above 1 MiB padded it lies in
    huge pages, taken whole (2 MiB each)."""
    padded = malloc_footprint(size)
    return align_up(padded, 2 << 20) if padded > 1 << 20 else padded


class Worker:
    """One thread's workload; ``call`` counts and checks every API call it makes."""

    def __init__(self, acl, index: int, barrier: threading.Barrier):
        self.acl, self.index, self.barrier = acl, index, barrier
        self.device = index % 2
        self.rng = random.Random(index)
        self.calls = 0
        self.errors: list[str] = []
        self.live: dict[int, int] = {}        # device ptr -> size, still allocated at the end
        self.live_host: dict[int, int] = {}

    def call(self, name: str, *args):
        """acl.rt.<name>(*args), which must succeed; its value(s) without the code."""
        result = getattr(self.acl.rt, name)(*args)
        self.calls += 1
        values, ret = (result[:-1], result[-1]) if isinstance(result, tuple) else ((), result)
        if ret != 0:
            self.errors.append(f"thread {self.index}: {name}{args} -> {ret}: "
                               f"{self.acl.get_recent_err_msg()}")
        return values[0] if len(values) == 1 else values

    def expect(self, ok: bool, what: str) -> None:
        if not ok:
            self.errors.append(f"thread {self.index}: {what}")

    def run(self) -> None:
        try:
            self.setup()
            while self.calls < CALLS:
                self.step()
            self.barrier.wait()
            target = self.calls + FINAL_CALLS
            while self.calls < target:
                self.step()
            self.teardown()
        except Exception as e:     # noqa: BLE001 - reported by the test thread
            self.errors.append(f"thread {self.index}: {type(e).__name__}: {e}")
            self.barrier.abort()

    def setup(self) -> None:
        self.ctx = self.call("create_context", self.device)
        self.stream = self.call("create_stream")
        self.event = self.call("create_event")
        self.dev = self.call("malloc", BUF, C.ACL_MEM_MALLOC_HUGE_FIRST)
        self.host = self.call("malloc_host", BUF)
        self.pattern = np.full(BUF, self.index + 1, np.uint8)
        self.pattern_ptr = self.acl.util.numpy_to_ptr(self.pattern)

    def step(self) -> None:
        rng, acl = self.rng, self.acl
        op = rng.randrange(12)
        if op == 0 or op == 1 and not self.live:
            size = rng.choice(SIZES)
            self.live[self.call("malloc", size, C.ACL_MEM_MALLOC_HUGE_FIRST)] = size
        elif op == 1:
            ptr = rng.choice(list(self.live))
            del self.live[ptr]
            self.call("free", ptr)
        elif op == 2 or op == 3 and not self.live_host:
            size = rng.choice(SIZES[:4])
            self.live_host[self.call("malloc_host", size)] = size
        elif op == 3:
            ptr = rng.choice(list(self.live_host))
            del self.live_host[ptr]
            self.call("free_host", ptr)
        elif op == 4:        # device bytes through the stream, read back after the event
            value = rng.randrange(256)
            self.call("memset_async", self.dev, BUF, value, BUF, self.stream)
            self.call("memcpy_async", self.host, BUF, self.dev, BUF, D2H, self.stream)
            self.call("record_event", self.event, self.stream)
            self.call("synchronize_event", self.event)
            data = acl.util.ptr_to_bytes(self.host, BUF)
            self.expect(data == bytes([value]) * BUF, f"async bytes: wanted {value}")
        elif op == 5:        # a synchronous round trip of the thread's own pattern
            self.call("memcpy", self.dev, BUF, self.pattern_ptr, BUF, H2D)
            self.call("memcpy", self.host, BUF, self.dev, BUF, D2H)
            self.expect(acl.util.ptr_to_bytes(self.host, BUF) == self.pattern.tobytes(),
                        "sync round trip returned another thread's bytes")
        elif op == 6:
            self.call("memset", self.host, BUF, self.index, BUF)
        elif op == 7:
            self.call("query_event_status", self.event)
        elif op == 8:
            self.call("synchronize_stream", self.stream)
        elif op == 9:
            free, total = self.call("get_mem_info", C.ACL_HBM_MEM)
            self.expect(free <= total, "get_mem_info: free > total")
        elif op == 10:
            self.expect(self.call("get_context") == self.ctx, "get_context: not my context")
        else:
            self.expect(self.call("get_device") == self.device, "get_device: not my device")

    def teardown(self) -> None:
        """Everything but the blocks in ``live`` / ``live_host`` goes back."""
        self.call("free", self.dev)
        self.call("free_host", self.host)
        self.call("destroy_event", self.event)
        self.call("destroy_stream", self.stream)


@pytest.fixture
def frequent_switches():
    """Threads interleave at many more points than usual (races show up in seconds)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    yield
    sys.setswitchinterval(before)


def test_eight_threads_ten_thousand_calls_each(acl, frequent_switches):
    main_ctx, _ = acl.rt.get_context()
    assert acl.rt.set_device(1) == 0
    dev1_ctx, _ = acl.rt.get_context()
    full = {}
    for ctx, device in ((main_ctx, 0), (dev1_ctx, 1)):
        assert acl.rt.set_context(ctx) == 0
        full[device] = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    acl_lab.tracer().clear()
    barrier = threading.Barrier(THREADS, timeout=JOIN_TIMEOUT_S)
    workers = [Worker(acl, i, barrier) for i in range(THREADS)]
    threads = [threading.Thread(target=w.run, name=f"worker-{w.index}", daemon=True)
               for w in workers]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_TIMEOUT_S)
    wall = time.perf_counter() - t0
    trace = list(acl_lab.tracer().calls)     # before this thread calls anything more
    stuck = [t.name for t in threads if t.is_alive()]
    assert not stuck, f"threads did not finish within {JOIN_TIMEOUT_S} s: {stuck}"
    assert [e for w in workers for e in w.errors] == []
    calls = sum(w.calls for w in workers)
    assert all(w.calls >= CALLS + FINAL_CALLS for w in workers)
    print(f"\n[threads] {THREADS} x {CALLS} (+{FINAL_CALLS}) calls = {calls} in {wall:.1f} s "
          f"({calls / wall:,.0f} calls/s)")

    # accounting: what the threads still hold is exactly what is missing, per device
    for ctx, device in ((main_ctx, 0), (dev1_ctx, 1)):
        held = sum(_held(size) for w in workers if w.device == device
                   for size in w.live.values())
        assert acl.rt.set_context(ctx) == 0
        free, total = full[device][:2]
        assert acl.rt.get_mem_info(C.ACL_HBM_MEM) == (free - held, total, 0), device
    host_pool = next(p for p in acl_lab.snapshot()["pools"] if p["device"] is None)
    assert host_pool["used"] == sum(size for w in workers   # aclrtMallocHost: unrounded
                                    for size in w.live_host.values())

    # the trace: bounded, unique increasing sequence numbers, every thread in it
    seqs = [c.seq for c in trace]
    assert len(trace) == DEFAULT_LIMIT
    assert all(a < b for a, b in itertools.pairwise(seqs)), "trace sequence numbers out of order"
    assert seqs[-1] - seqs[0] + 1 == len(trace), "calls missing from the trace window"
    assert len({c.thread for c in trace}) == THREADS

    # giving everything back (free needs no context) returns every byte
    for w in workers:
        for ptr in w.live:
            assert acl.rt.free(ptr) == 0
        for ptr in w.live_host:
            assert acl.rt.free_host(ptr) == 0
    for ctx, device in ((main_ctx, 0), (dev1_ctx, 1)):
        assert acl.rt.set_context(ctx) == 0
        assert acl.rt.get_mem_info(C.ACL_HBM_MEM) == full[device]
    assert [a for a in acl_lab.snapshot()["allocations"] if a["api"] != "numpy"] == []
