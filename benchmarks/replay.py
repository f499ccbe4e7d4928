"""Replaying a captured 1,000-task model against issuing the same 1,000 tasks eagerly.

The tasks cycle through what the capture chapter records: an H2D copy from pinned memory,
an aclnnAdd (its executor prepared each time, as the two-phase API requires), a D2D copy and
a memset, on small buffers so that launching, not moving bytes, is the cost. Eager issue pays
argument checks, the trace and a launch per task; a replay launches once and runs the
recorded tasks without checking them again. Both wall times include running the tasks'
effects (synchronize). Modeled time is what events measure, the figure a notebook prints.
"""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C

from . import Row, best_of, fresh_acl, malloc, ms

TASKS = 1_000
NBYTES = 4_096
REPEAT = 5
GOAL = 3.0           # replay at least this many times faster than eager issue (wall time)


class _Program:
    """Buffers, tensors and a stream, and the task list issued on them."""

    def __init__(self, acl):
        self.acl = acl
        self.stream, ret = acl.rt.create_stream()
        acl_lab.check(ret)
        self.a, self.b, self.out = (malloc(acl, NBYTES) for _ in range(3))
        self.host, ret = acl.rt.malloc_host(NBYTES)
        acl_lab.check(ret)
        shape = [NBYTES // 4]
        self.tensors = [acl.nn.create_tensor(shape, C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND,
                                             shape, p) for p in (self.a, self.b, self.out)]
        self.alpha = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
        for p in (self.a, self.b, self.out, self.host):     # no garbage floats in the adds
            acl_lab.check(acl.rt.memset(p, NBYTES, 0, NBYTES))

    def issue(self) -> None:
        acl, s, n = self.acl, self.stream, NBYTES
        for i in range(TASKS // 4):
            acl_lab.check(acl.rt.memcpy_async(self.a, n, self.host, n,
                                              C.ACL_MEMCPY_HOST_TO_DEVICE, s))
            ws, executor, ret = acl.nn.add_get_workspace_size(*self.tensors[:2], self.alpha,
                                                              self.tensors[2])
            acl_lab.check(ret)
            acl_lab.check(acl.nn.add(0, ws, executor, s))
            acl_lab.check(acl.rt.memcpy_async(self.b, n, self.out, n,
                                              C.ACL_MEMCPY_DEVICE_TO_DEVICE, s))
            acl_lab.check(acl.rt.memset_async(self.out, n, i & 0xFF, n, s))

    def sync(self) -> None:
        acl_lab.check(self.acl.rt.synchronize_stream(self.stream))

    def modeled_ms(self, work) -> float:
        """Event-measured modeled time of ``work()`` on the stream."""
        acl, s = self.acl, self.stream
        start, stop = acl.rt.create_event()[0], acl.rt.create_event()[0]
        acl_lab.check(acl.rt.record_event(start, s))
        work()
        acl_lab.check(acl.rt.record_event(stop, s))
        acl_lab.check(acl.rt.synchronize_event(stop))
        elapsed, ret = acl.rt.event_elapsed_time(start, stop)
        acl_lab.check(ret)
        return elapsed


def run() -> list[Row]:
    acl = fresh_acl()
    prog = _Program(acl)
    acl_lab.check(acl.mdl.ri_capture_begin(prog.stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
    prog.issue()
    model, ret = acl.mdl.ri_capture_end(prog.stream)
    acl_lab.check(ret)

    def replay():
        acl_lab.check(acl.mdl.ri_execute_async(model, prog.stream))

    def eager_and_wait():
        prog.issue()
        prog.sync()

    def replay_and_wait():
        replay()
        prog.sync()

    eager_s = best_of(eager_and_wait, REPEAT)
    replay_s = best_of(replay_and_wait, REPEAT)
    eager_ms, replay_ms = prog.modeled_ms(prog.issue), prog.modeled_ms(replay)
    acl_lab.reset()
    speedup = eager_s / replay_s
    return [
        Row(f"replay {TASKS // 1000}k-task model, wall",
            f"{ms(replay_s)} ({speedup:.1f}x faster)",
            f"eager issue {ms(eager_s)}", replay_s / eager_s, f">= {GOAL:g}x faster",
            speedup >= GOAL),
        Row(f"replay {TASKS // 1000}k-task model, modeled", f"{replay_ms * 1e3:.0f} us",
            f"eager issue {eager_ms * 1e3:.0f} us", replay_ms / eager_ms),
    ]
