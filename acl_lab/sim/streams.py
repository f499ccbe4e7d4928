"""Task queues, deferred execution and modeled time.

A stream is an ordered queue. Issuing a task fixes its modeled start and end at once (so
times are deterministic), but its effect on bytes runs only when something waits for it:
synchronizing the stream, the device or an event, or another stream waiting on an event.
A learner who forgets to synchronize therefore reads stale data, as on real hardware.
"""
from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

from acl_lab.spec.snapshot_schema import EventRow, StreamRow, TimelineRow
from acl_lab.sim.simerror import TaskFailed
from acl_lab.support import threads

STOP_ON_FAILURE = 1      # aclrtStopOnFailure's ACL_STOP_ON_FAILURE (acl_rt.h)

TIMELINE_LIMIT = 20_000


@dataclass(eq=False)
class Task:
    kind: str                         # memcpy, memset, record, wait, op, model ...
    duration_us: float
    run: Callable[[], None] | None = None   # the effect on bytes; None for markers
    nbytes: int = 0
    detail: dict = field(default_factory=dict)
    stream: int = 0
    seq: int = 0                      # position on its stream, counting from 1
    start_us: float = 0.0
    end_us: float = 0.0
    wait_for: tuple | None = None     # (Stream, seq, end_us) of the task that must run first
    uses: tuple = ()                  # Allocations the task reads or writes
    touches: tuple = ()               # (Allocation, offset, count) it gives bytes to
    scratch: Callable[[], int] | None = None   # host RAM it needs while it runs
    thread: int = 0                   # the thread that issued it, numbered (task_reports.py)

    def fresh_bytes(self) -> int:
        """Host RAM the ranges it gives bytes to would newly take now."""
        total = 0
        for a, offset, n in self.touches:       # a loop, not sum(): every copy asks this
            total += a.fresh_bytes(offset, n)
        return total

    def timeline_row(self) -> TimelineRow:
        return {"stream": self.stream, "kind": self.kind, "start_us": self.start_us,
                "end_us": self.end_us, "nbytes": self.nbytes, "model": self.detail.get("model"),
                "event": self.detail.get("event")}


class Stream:
    def __init__(self, handle: int, ctx: int, device: int, default: bool = False):
        self.handle, self.ctx, self.device, self.default = handle, ctx, device, default
        self.pending: deque[Task] = deque()
        self.issued = 0        # tasks issued so far
        self.executed = 0      # tasks whose effect has run
        self.t_end = 0.0       # modeled time when the last issued task finishes
        self.capture = None    # the capture recording this stream, if any (capture.py)
        self.priority, self.flags = 0, 0          # aclrtCreateStreamWithConfig
        self.failure_mode = 0    # how it behaves: 1 once it or its context stops on failure
        self.mode_set = 0        # what aclrtSetStreamFailureMode set on it (StreamSetMode)
        self.stopped = 0         # the code its failed task left, under ACL_STOP_ON_FAILURE
        self.group_mode = None   # "sample" (TaskGrpBegin..End) or "update" (TaskUpdateBegin..End)
        self.group = None        # the task group being sampled or updated (capture.py)
        self.update_index = 0    # next task of the group an update launch replaces

    def __repr__(self) -> str:
        return f"Stream(0x{self.handle:x}{', default' if self.default else ''})"

    def row(self) -> StreamRow:
        return {"handle": self.handle, "device": self.device, "context": self.ctx,
                "issued": self.issued, "executed": self.executed, "pending": len(self.pending),
                "t_end_us": self.t_end}


class Event:
    """``flags`` as created (None: aclrtCreateEvent's default event); ``ex``: created by
    aclrtCreateEventExWithFlag (the runtime's "new mode", the only events a capture records)."""

    def __init__(self, handle: int, ctx: int, device: int, flags: int | None = None,
                 ex: bool = False):
        self.handle, self.ctx, self.device = handle, ctx, device
        self.flags, self.ex = flags, ex
        self.capture = None                  # the capture that recorded it, while capturing
        self.waited_by: set[int] = set()     # streams that waited on its captured record
        self.stream: Stream | None = None   # where it was last recorded
        self.recorded = False                # ever recorded on a stream (Event::HasRecord)
        self.seq = 0                         # position of the record task on that stream
        self.ts_us: float | None = None      # modeled time the stream reaches the record

    def row(self) -> EventRow:
        return {"handle": self.handle, "device": self.device,
                "stream": self.stream.handle if self.stream else None,
                "recorded_at_us": self.ts_us}


class Scheduler:
    """Modeled clocks and deferred execution for every stream of a process.

    ``now_us`` is the host's modeled clock. A thread running a host callback has a clock of
    its own while the callback runs: it starts when the stream reached the callback task, so
    the calls the callback makes (a copy of the results) happen at that moment of modeled
    time, each after the one before, and not at whatever time the thread that waited for
    the stream had reached (deferred execution runs callbacks only then)."""

    def __init__(self):
        #: the host's modeled clock, as ``now_us`` reads it outside a callback. A commit that
        #: must not be interruptible writes it directly: one store, no call (``now_us`` is a
        #: property, and a Ctrl-C can land on a call)
        self.host_us = 0.0
        self._callback_us: dict[int, float] = {}   # thread -> its clock inside a callback
        self.timeline: deque[Task] = deque(maxlen=TIMELINE_LIMIT)
        self.running: set[Task] = set()        # tasks whose effect is running right now
        self.queued: dict[Stream, None] = {}   # streams issued to, in order, since last seen empty
        self.pending_tasks = 0                 # tasks queued on every stream, not yet run
        #: drops a stream's queued tasks unrun (Process: their promised RAM, their capture)
        self.drop_queued: Callable[[Stream], None] = lambda stream: None
        #: told (stream, task, TaskFailed) when a task fails on the device (task_reports.py)
        self.on_failure: Callable | None = None
        #: synchronous calls' tasks, kept while a profiling collection runs (profiling.py)
        self.synchronous: deque[Task] | None = None

    @property
    def now_us(self) -> float:
        if self._callback_us:
            at = self._callback_us.get(threads.get_ident())
            if at is not None:
                return at
        return self.host_us

    @now_us.setter
    def now_us(self, value: float) -> None:
        me = threads.get_ident() if self._callback_us else None
        if me is not None and me in self._callback_us:
            self._callback_us[me] = value
        else:
            self.host_us = value

    @contextmanager
    def callback_clock(self, start_us: float):
        """The calling thread's clock starts at ``start_us`` (when its stream reached the
        callback) for as long as the callback runs; the host's clock is left as it was."""
        me = threads.get_ident()
        outer = self._callback_us.get(me)
        self._callback_us[me] = start_us
        try:
            yield
        finally:
            if outer is None:
                del self._callback_us[me]
            else:
                self._callback_us[me] = outer

    def issue(self, stream: Stream, task: Task, launch_us: float) -> Task:
        """Queue ``task`` on ``stream``: the host pays the launch, the stream runs it later."""
        self.now_us += launch_us
        start = max(self.now_us, stream.t_end)
        if task.wait_for is not None:
            start = max(start, task.wait_for[2])
        stream.issued += 1
        task.stream, task.seq = stream.handle, stream.issued
        task.start_us, task.end_us = start, start + task.duration_us
        stream.t_end = task.end_us
        stream.pending.append(task)
        self.pending_tasks += 1
        self.queued[stream] = None
        self.timeline.append(task)
        return task

    def blocking(self, task: Task) -> None:
        """A synchronous call: the host waits while it runs, and its effect happens now (the
        clock moves only once it has: an interrupted call leaves the clock as it was)."""
        if task.run is not None:
            task.run()
        task.start_us, task.end_us = self.now_us, self.now_us + task.duration_us
        self.now_us = task.end_us
        if self.synchronous is not None:
            self.synchronous.append(task)

    def run_until(self, stream: Stream, seq: int | None = None) -> float:
        """Run the effects of ``stream``'s tasks up to position ``seq`` (all if None); the
        modeled end of the last one run (0.0 if none was pending). A task that waits for
        another stream's task runs that stream up to it first (a stack, not recursion: a
        chain of thousands of streams linked by events is fine)."""
        goals, end = [(stream, seq)], 0.0
        while goals:
            s, limit = goals[-1]
            pending = s.pending
            if not pending or limit is not None and pending[0].seq > limit:
                goals.pop()
                continue
            task = pending[0]     # leaves the queue only once it has run: a task interrupted
            if task in self.running:         # (Ctrl-C, MemoryError) stays queued
                goals.pop()       # another caller runs it (a blocking callback waits unlocked)
                continue
            if task.wait_for is not None:
                other, upto = task.wait_for[:2]
                first = other.pending[0] if other.pending else None
                if first is not None and first.seq <= upto and first not in self.running \
                        and (other, upto) not in goals:
                    goals.append((other, upto))
                    continue
            self.running.add(task)
            try:
                if task.run is not None:
                    task.run()
            except TaskFailed as failure:   # it ran on the device and failed there: it
                s.executed = task.seq           # leaves the queue, the exception callback
                del pending[0]                  # hears of it, the waiting call reports it
                self.pending_tasks -= 1
                if self.on_failure is not None:
                    self.on_failure(s, task, failure)
                if s.failure_mode == STOP_ON_FAILURE:   # 遇错即停: the rest never runs, and
                    s.stopped = failure.code            # the stream takes no new task
                    self.drop_queued(s)                 # (06_stream_management.md)
                raise
            finally:
                self.running.discard(task)
            s.executed = task.seq
            del pending[0]
            self.pending_tasks -= 1
            if len(goals) == 1:
                end = task.end_us
        return end

    def queued_streams(self) -> list[Stream]:
        """The streams with tasks still queued (a free checks only these, not every stream)."""
        if not self.queued:
            return []
        for s in [s for s in self.queued if not s.pending]:
            del self.queued[s]
        return list(self.queued)

    def wait_stream(self, stream: Stream, seq: int | None = None) -> None:
        """The host waits until ``stream`` has run up to ``seq`` (everything if None)."""
        end = self.run_until(stream, seq)
        self.now_us = max(self.now_us, stream.t_end if seq is None else end)

    def wait_event(self, event: Event) -> None:
        if event.stream is None:
            return
        self.run_until(event.stream, event.seq)
        self.now_us = max(self.now_us, event.ts_us)

    def event_done(self, event: Event) -> bool:
        """Has the modeled clock passed the event? (If so its work is made to have run.)"""
        if event.stream is None or event.ts_us <= self.now_us:
            if event.stream is not None:
                self.run_until(event.stream, event.seq)
            return True
        return False
