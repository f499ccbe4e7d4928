"""Ctrl-C at any bytecode of random API sequences leaves the process whole (issue 24).

Random programs (seeded: the same in every run) allocate, free, copy, queue work, create and destroy streams
and events, register Python buffers, carve a MemoryPool and start fresh processes, each call
hit by a SIGINT from one of two sources:

- delivered by ``sys.settrace`` at a random bytecode (opcode events: the handler is called
  with that frame, as the interpreter calls it), and
- a real SIGINT, sent by a ``setitimer`` alarm a random number of microseconds in.

After every call, interrupted or not: the KeyboardInterrupt reached the program (during the
call, or put off to its end: acl_lab/support/interrupts.py); what ``snapshot()`` shows is what the
program holds, the interrupted call having happened completely or not at all (a call whose
result was lost counts as happened: the program takes what the snapshot shows); every free
list tiles its range with the live blocks; the books add up (pool use, RAM counted, tasks
issued = executed + pending). At the end: the next calls work, and the child's peak RSS
stayed within its budget plus a fixed allowance.

The program runs in a child process (its own RSS, its own signals); a hang fails the test
after TIMEOUT_S. ``python tests/support/test_interrupt_property.py`` runs the test without pytest
(numpy and sortedcontainers are all it needs): CI runs it so under every Python the kit
supports (.ci/run).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import random
import threading
import time

BUDGET_MIB = 256
ALLOWANCE_MIB = 300       # Python, numpy and the simulator's own code
TIMEOUT_S = 600
EXAMPLES = int(os.environ.get("ACL_LAB_INTERRUPT_EXAMPLES", "120"))
STEPS = 30
MiB = 1 << 20


def test_random_api_sequences_survive_ctrl_c_anywhere():
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("ACL_LAB_")},
           "ACL_LAB_HOST_RAM": f"{BUDGET_MIB}MiB", "ACL_LAB_INTERRUPT_EXAMPLES": str(EXAMPLES),
           "PYTHONPATH": os.pathsep.join(filter(None, [_repo(), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, __file__, "--child"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(TIMEOUT_S, proc.kill)
    timer.start()
    try:
        _, status, _usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    output = proc.stdout.read()
    code = os.waitstatus_to_exitcode(status)
    assert code == 0, f"exit {code} (negative: a signal; a hang is killed after " \
                      f"{TIMEOUT_S} s)\n{output[-4000:]}"
    assert "INTERRUPTED" in output, output[-2000:]
    # the child's own high-water mark: ru_maxrss would count the pages it shared with this
    # process between fork and exec (a long pytest run is hundreds of MiB)
    peak = float(output.rsplit("PEAK_RSS_MIB", 1)[1].split()[0])
    assert peak <= BUDGET_MIB + ALLOWANCE_MIB, f"peak RSS {peak:.0f} MiB"
    print(output.strip().splitlines()[-2], f"peak RSS {peak:.0f} MiB")


def _repo() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ----- the child: random programs under Ctrl-C ------------------------------------------------
class Interrupter:
    """One SIGINT per call, from the chosen source; ``run`` says whether the program got
    its KeyboardInterrupt."""

    def __init__(self):
        signal.signal(signal.SIGALRM, self._alarm)
        self.deferred = 0     # Ctrl-Cs that hit a critical call and came at its end

    def _alarm(self, signum, frame):
        self.sent = True
        signal.raise_signal(signal.SIGINT)

    def run(self, fn, source: str, at: int):
        self.left, self.fired, self.sent = at, False, False
        result = None
        try:
            try:
                if source == "trace":
                    sys.settrace(self._global)
                elif source == "timer":
                    self.fired = True
                    signal.setitimer(signal.ITIMER_REAL, at / 1e6)
                result = fn()
            finally:
                sys.settrace(None)
                signal.setitimer(signal.ITIMER_REAL, 0)
            self._settle()
            assert not self.sent, "a Ctrl-C never reached the program"
        except KeyboardInterrupt as e:
            self.deferred += getattr(e, "acl_lab_deferred", False)
            self._settle_quietly()
            return result, True
        return result, False

    def _global(self, frame, event, arg):
        frame.f_trace_opcodes = True
        return self._local

    def _local(self, frame, event, arg):
        if event == "opcode" and not self.fired:
            self.left -= 1
            if self.left <= 0:
                self.fired = self.sent = True
                signal.getsignal(signal.SIGINT)(signal.SIGINT, frame)
        return self._local

    @staticmethod
    def _settle():
        """A Ctrl-C put off until its call ended arrives within milliseconds."""
        from acl_lab.support import interrupts
        deadline = time.monotonic() + 2.0
        while interrupts.state.noted and time.monotonic() < deadline:
            time.sleep(0.0005)
        time.sleep(0.001)     # a timer SIGINT raised just before the alarm was cancelled

    def _settle_quietly(self):
        try:
            self._settle()
        except KeyboardInterrupt:
            raise AssertionError("one SIGINT gave two KeyboardInterrupts") from None


class Program:
    """What the program holds: the handles its calls gave it."""

    def __init__(self, acl):
        import numpy as np

        from acl_lab.pool import MemoryPool
        self.acl = acl
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        self.dev: dict[int, int] = {}         # ptr -> size (aclrtMalloc)
        self.host: dict[int, int] = {}        # ptr -> size (aclrtMallocHost)
        self.streams: list[int] = []
        self.events: list[int] = []
        self.buffers: list = []               # registered numpy arrays / bytes, kept alive
        self.views: list = []                 # ptr_to_numpy arrays, kept (even after a free)
        self.pool = MemoryPool(acl, MiB)
        self.segments: dict[int, int] = {}    # pool segment start -> length
        self.np = np

    def holds(self) -> dict:
        return {"allocations": {p for p in self.dev} | {p for p in self.host} | {self.pool.base},
                "streams": set(self.streams), "events": set(self.events),
                "segments": set(self.segments)}


def shown(p: Program) -> dict:
    import acl_lab
    snap = acl_lab.snapshot()
    return {"allocations": {a["ptr"] for a in snap["allocations"]
                            if a["api"] not in ("numpy", "bytes")},
            "streams": {s["handle"] for s in snap["streams"]},
            "events": {e["handle"] for e in snap["events"]},
            "segments": set(p.pool._live)}


def adopt(p: Program, before: dict, now: dict, name: str) -> None:
    """The interrupted call ``name`` happened completely or not at all: take what it left."""
    added = {k: now[k] - before[k] for k in now}
    removed = {k: before[k] - now[k] for k in now}
    changes = {k for k in now if added[k] or removed[k]}
    assert len(changes) <= 1 and sum(len(added[k]) + len(removed[k]) for k in now) <= 1, \
        f"{name} interrupted: a half call? added {added}, removed {removed}"
    rows = __import__("acl_lab").snapshot()["allocations"]
    p.dev = {a["ptr"]: a["size"] for a in rows if a["api"] == "malloc"}
    p.host = {a["ptr"]: a["size"] for a in rows if a["api"] == "malloc_host"}
    p.streams, p.events = sorted(now["streams"]), sorted(now["events"])
    p.segments = {start: seg.length for start, seg in p.pool._live.items()}


def books_add_up(p: Program) -> None:
    import acl_lab
    from acl_lab.session import SESSION
    rt = SESSION.simulator.rt
    snap = acl_lab.snapshot()
    for pool in rt.memory.all_pools():
        ours = sorted((a.ptr, a.occupied) for a in rt.memory.allocs.values() if a.pool is pool)
        _tiles(pool.blocks, ours, pool.label)
        for part in [pool.storage._pool, *pool.storage._big.values()]:
            m = part._m
            assert (0 if m is None else int(m.touched.sum())) == part.touched_chunks
    for row in snap["pools"]:
        assert row["used"] == sum(a["occupied"] for a in snap["allocations"]
                                  if a["pool"] == row["label"]), row
    assert rt.memory.ram.used == rt.memory.touched_bytes()
    for s in rt.all_streams():
        assert s.issued == s.executed + len(s.pending), s
    pending = sum(len(s.pending) for s in rt.all_streams())
    assert rt.sched.pending_tasks == pending
    assert rt.memory.ram.reserved >= 0 and (pending or rt.memory.ram.reserved == 0)
    if not p.pool.closed:
        _tiles(p.pool._free, sorted((s.start, s.size) for s in p.pool._live.values()), "pool")


def _tiles(free_list, used: list, label: str) -> None:
    """The free blocks and the ``used`` (start, length) blocks cover the free list's range
    exactly once; its sorted index holds exactly its blocks."""
    blocks = sorted(free_list.free_blocks() + used)
    at = free_list.base
    for start, length in blocks:
        assert start == at and length > 0, (label, hex(start), hex(at), length)
        at += length
    assert at == free_list.end, (label, hex(at), hex(free_list.end))
    assert free_list.used == sum(n for _, n in used), label
    bits, base = free_list._bits, free_list.base
    assert sorted(free_list._index) == sorted(n << bits | s - base
                                              for s, n in free_list._by_start.items()), label
    assert all(free_list._by_end[s + n] == s for s, n in free_list._by_start.items()), label


# ----- the calls a program makes ------------------------------------------------------------
def calls(p: Program, rnd: random.Random):
    """(name, function) for one random call on ``p``; the function updates ``p`` with the
    call's result once it returns."""
    from acl_lab import constants as C
    acl, np = p.acl, p.np
    pick = lambda items: rnd.choice(sorted(items))   # noqa: E731
    size = rnd.choice([64, 4096, 100_000, 3 * MiB, 64 * MiB])
    options = []

    def malloc():
        ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
        if ret == 0:
            p.dev[ptr] = size
    options.append(("malloc", malloc))

    def malloc_host():
        ptr, ret = acl.rt.malloc_host(size)
        if ret == 0:
            p.host[ptr] = size
    options.append(("malloc_host", malloc_host))
    if p.dev:
        d = pick(p.dev)

        def free():
            assert acl.rt.free(d) == 0
            del p.dev[d]

        def memset():
            assert acl.rt.memset(d, p.dev[d], 7, p.dev[d]) == 0
        options += [("free", free), ("memset", memset)]
        if p.streams:
            s = pick(p.streams)

            def memset_async():
                assert acl.rt.memset_async(d, p.dev[d], 3, p.dev[d], s) == 0
            options.append(("memset_async", memset_async))
    if p.host:
        h = pick(p.host)

        def free_host():
            assert acl.rt.free_host(h) == 0
            del p.host[h]
        options.append(("free_host", free_host))

        def view():
            """ptr_to_numpy, kept: after free_host or a reset, writes through it count"""
            v = acl.util.ptr_to_numpy(h, (p.host[h],), np.dtype(np.uint8).num)
            v[:64] = 9
            p.views[-2:] = [v]
        options.append(("view", view))
        if p.dev:
            n = min(p.host[h], p.dev[d])

            def memcpy():
                assert acl.rt.memcpy(d, p.dev[d], h, n, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
                assert acl.rt.memcpy(h, p.host[h], d, n, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
            options.append(("memcpy", memcpy))
            if p.streams:
                def memcpy_async():
                    assert acl.rt.memcpy_async(h, p.host[h], d, n, C.ACL_MEMCPY_DEVICE_TO_HOST,
                                               s) == 0
                options.append(("memcpy_async", memcpy_async))

    def create_stream():
        s, ret = acl.rt.create_stream()
        assert ret == 0
        p.streams.append(s)

    def create_event():
        e, ret = acl.rt.create_event()
        assert ret == 0
        p.events.append(e)

    def synchronize_device():
        assert acl.rt.synchronize_device() == 0
    options += [("create_stream", create_stream), ("create_event", create_event),
                ("synchronize_device", synchronize_device)]
    if p.streams:
        s2 = pick(p.streams)

        def destroy_stream():
            assert acl.rt.destroy_stream(s2) == 0
            p.streams.remove(s2)

        def synchronize_stream():
            assert acl.rt.synchronize_stream(s2) == 0
        options += [("destroy_stream", destroy_stream), ("synchronize_stream",
                                                         synchronize_stream)]
        if p.events:
            e = pick(p.events)

            def record_event():
                assert acl.rt.record_event(e, s2) == 0
            options.append(("record_event", record_event))
    if p.events:
        e2 = pick(p.events)

        def destroy_event():
            assert acl.rt.destroy_event(e2) == 0
            p.events.remove(e2)
        options.append(("destroy_event", destroy_event))

    def register():
        array = np.full(size // 8 or 1, 5, np.uint8)
        assert acl.util.numpy_to_ptr(array) != 0
        obj = bytes(size // 8 or 2)
        assert acl.util.bytes_to_ptr(obj) != 0
        p.buffers[-4:] = [array, obj]
    options.append(("register", register))
    if p.views:
        def write_views():
            for v in p.views:
                v[:] = 1
        options.append(("write_views", write_views))
    length = rnd.choice([1, 100, 5000])

    def pool_alloc():
        from acl_lab.errors import AclLabError
        try:
            p.segments[p.pool.alloc(length)] = length
        except AclLabError:
            pass
    options.append(("pool_alloc", pool_alloc))
    if p.segments:
        seg = pick(p.segments)

        def pool_free():
            p.pool.free(seg)
            del p.segments[seg]
        options.append(("pool_free", pool_free))
    return rnd.choice(options)


def child() -> None:
    import acl_lab
    from acl_lab import SimulatorLimit
    acl = acl_lab.load()
    interrupter = Interrupter()
    tally = {"calls": 0, "interrupted": 0, "limits": 0, "resets": 0}

    def fresh(views=()) -> Program:
        acl_lab.reset()
        p = Program(acl)
        p.views = list(views)[-2:]     # views of the old process: stale, still written
        return p

    def program(rnd: random.Random) -> None:
        p = fresh()
        for _ in range(STEPS):
            name, fn = ("reset", lambda: fresh(p.views)) if rnd.random() < 0.03 \
                else calls(p, rnd)
            source = rnd.choice(["trace", "trace", "timer", "none"])
            at = rnd.randint(1, 1500) if source == "trace" else rnd.randint(1, 2000)
            before = p.holds()
            try:
                result, interrupted = interrupter.run(fn, source, at)
            except SimulatorLimit:
                tally["limits"] += 1
                result, interrupted = None, False
            tally["calls"] += 1
            tally["interrupted"] += interrupted
            if name == "reset":      # interrupted: the old process or a fresh one, whole
                p = result if result is not None else fresh(p.views)
                tally["resets"] += 1
            elif interrupted:
                adopt(p, before, shown(p), name)
            assert shown(p) == p.holds(), (name, interrupted)
            books_add_up(p)
        h, ret = acl.rt.malloc_host(4096)
        assert ret == 0 and acl.rt.memset(h, 4096, 0x2A, 4096) == 0
        assert acl.util.ptr_to_bytes(h, 2) == b"**"

    for seed in range(EXAMPLES):
        try:
            program(random.Random(seed))
        except BaseException:
            print(f"seed {seed}:", flush=True)
            raise
    acl_lab.reset()
    print(f"INTERRUPTED {tally['interrupted']} of {tally['calls']} calls "
          f"({interrupter.deferred} put off to the end of a critical call; "
          f"{tally['limits']} budget limits, {tally['resets']} resets), Python "
          f"{sys.version.split()[0]}", flush=True)
    print("PEAK_RSS_MIB", _peak_rss_mib(), flush=True)


def _peak_rss_mib() -> float:
    """This process's peak RSS since exec (VmHWM), where /proc tells it."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":        # CI under other Pythons: without pytest
    child() if "--child" in sys.argv else test_random_api_sequences_survive_ctrl_c_anywhere()
