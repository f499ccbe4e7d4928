"""msproftx and step info on the simulator (aclprofCreateStamp, SetStampTraceMessage, Mark,
MarkEx, Push / Pop, RangeStart / RangeStop; aclprofCreateStepInfo, GetStepTimestamp): marks
and ranges on the host's modeled clock, a MarkEx and a step tag as a task on the stream,
all kept for the profile the running collection writes (profiling.py).

As hicann/runtime src/dfx/msprof: msprof/msproftx/src/msprof_tx_manager.cpp (stamps exist
only while a collection with ACL_PROF_MSPROFTX runs: CreateStamp gives NULL otherwise, and
Mark, Push, Pop, RangeStart, RangeStop, MarkEx fail with PROFILING_FAILED, the -1 the
aclprof* call then returns; a message of 128 bytes or more -1; a Pop with nothing pushed -1;
a RangeStop of an id no RangeStart gave -1; MarkEx needs a stream and a message of 1 to 127
bytes), profimpl/adapter/src/msproftx_adaptor.cpp (a NULL stamp to Push or RangeStart
ACL_ERROR_INVALID_PARAM) and msprofiler/prof_acl_core.cpp (a NULL step info, or a tag given
twice to one step info, ACL_ERROR_INVALID_PARAM; a stream the runtime refuses
ACL_ERROR_GE_FAILURE).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import profiling
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task
from acl_lab.spec import handles
from acl_lab.spec.profile_data import HostMark
from acl_lab.support import threads

PROFILING_FAILED = -1      # errno/error_code.h: what the msproftx manager returns
MESSAGE_MAX = 128          # MAX_MSG_LEN / MAX_MESSAGE_LEN: bytes with the terminating NUL
STAMP_BASE, STEP_BASE, HANDLE_STEP = 0xB400_0000, 0xB800_0000, 0x40


@dataclass(eq=False)
class Stamp:
    message: str = ""
    start_us: float | None = None


@dataclass(eq=False)
class StepInfo:
    index: int
    started: bool = False
    ended: bool = False


@dataclass(eq=False)
class Tx:
    """The stamps, push stacks, ranges and step infos of one process."""
    rt: object
    stamps: dict = field(default_factory=dict)
    steps: dict = field(default_factory=dict)
    stacks: dict = field(default_factory=dict)      # thread -> pushed stamps
    ranges: dict = field(default_factory=dict)      # range id -> stamp
    labels: dict = field(default_factory=dict)      # thread ident -> its label in a profile
    made: int = 0

    def _new(self, base: int, table: dict, obj) -> int:
        self.made += 1
        handle = base + self.made * HANDLE_STEP
        table[handle] = obj
        return handle

    def _failed(self, call: str, why: str) -> SimError:
        return SimError(PROFILING_FAILED, "{call}: {why}".format(call=call, why=why))

    def _on(self, call: str) -> None:
        if not profiling.of(self.rt).tx_on:
            raise self._failed(call, _(
                "msproftx is off: it works while a collection with ACL_PROF_MSPROFTX runs "
                "(acl.prof.start with that data type). PROFILING_FAILED (-1) came back."))

    def _stamp(self, handle: int, call: str) -> Stamp:
        return handles.live(self.stamps, handle, call, _(
            "{call}: stamp {handle} is not a live stamp (destroyed, or never created by "
            "acl.prof.create_stamp)."), _("{call}: stamp is NULL."),
            dead_code=PROFILING_FAILED, null_code=PROFILING_FAILED)

    def _mark(self, start: float, end: float, message: str) -> None:
        marks = profiling.of(self.rt).marks
        if len(marks) < profiling.MAX_MARKS:
            marks.append(HostMark(start, end, self._thread(), message))

    def _thread(self) -> str:
        """"main", or "thread <n>" in the order threads first marked (no varying ids)."""
        if threads.is_main():
            return "main"
        ident = threads.get_ident()
        if ident not in self.labels:
            self.labels[ident] = f"thread {len(self.labels) + 1}"
        return self.labels[ident]

    # ----- stamps -------------------------------------------------------------------------------
    def create_stamp(self) -> int:
        self._on("aclprofCreateStamp")
        return self._new(STAMP_BASE, self.stamps, Stamp())

    def destroy_stamp(self, handle: int) -> None:
        self._stamp(handle, "aclprofDestroyStamp")
        del self.stamps[handle]

    def set_message(self, handle: int, message: str, length: int) -> None:
        call = "aclprofSetStampTraceMessage"
        stamp = self._stamp(handle, call)
        data = message.encode()
        if length >= MESSAGE_MAX:
            raise self._failed(call, _("msgLen is {n}; a message holds fewer than {most} bytes. "
                                       "PROFILING_FAILED (-1) came back.").format(
                                           n=length, most=MESSAGE_MAX))
        stamp.message = data[:length].decode(errors="replace")

    def mark(self, handle: int) -> None:
        call = "aclprofMark"
        self._on(call)
        stamp = self._stamp(handle, call)
        now = self.rt.sched.now_us
        self._mark(now, now, stamp.message)

    def mark_ex(self, message: str, stream: int) -> None:
        call = "aclprofMarkEx"
        self._on(call)
        data = message.encode()
        if stream == 0 or not 1 <= len(data) <= MESSAGE_MAX - 1:
            raise self._failed(call, _("a stream and a message of 1 to {most} bytes are needed. "
                                       "PROFILING_FAILED (-1) came back.").format(
                                           most=MESSAGE_MAX - 1))
        s = self.rt.stream(stream, call)
        task = self.rt.issue(s, Task("mark", 0.0, detail={"message": message}), call)
        self._mark(task.start_us, task.start_us, message)

    # ----- push / pop and ranges ----------------------------------------------------------------
    def push(self, handle: int) -> None:
        call = "aclprofPush"
        if handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: stamp is NULL.").format(
                call=call))
        self._on(call)
        stamp = self._stamp(handle, call)
        stamp.start_us = self.rt.sched.now_us
        self.stacks.setdefault(threads.get_ident(), []).append(stamp)

    def pop(self) -> None:
        call = "aclprofPop"
        self._on(call)
        stack = self.stacks.get(threads.get_ident())
        if not stack:
            raise self._failed(call, _("nothing was pushed on this thread "
                                       "(acl.prof.push first). PROFILING_FAILED (-1) came "
                                       "back."))
        stamp = stack.pop()
        self._mark(stamp.start_us, self.rt.sched.now_us, stamp.message)

    def range_start(self, handle: int) -> int:
        call = "aclprofRangeStart"
        if handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: stamp is NULL.").format(
                call=call))
        self._on(call)
        stamp = self._stamp(handle, call)
        stamp.start_us = self.rt.sched.now_us
        range_id = len(self.ranges) + 1
        self.ranges[range_id] = stamp
        return range_id

    def range_stop(self, range_id: int) -> None:
        call = "aclprofRangeStop"
        self._on(call)
        stamp = self.ranges.get(range_id)
        if stamp is None or stamp.start_us is None:
            raise self._failed(call, _("range {id} was not started by acl.prof.range_start. "
                                       "PROFILING_FAILED (-1) came back.").format(id=range_id))
        self._mark(stamp.start_us, self.rt.sched.now_us, stamp.message)
        stamp.start_us = None

    # ----- step info ------------------------------------------------------------------------------
    def create_step(self) -> int:
        return self._new(STEP_BASE, self.steps, StepInfo(len(self.steps) + 1))

    def step(self, handle: int, call: str) -> StepInfo:
        return handles.live(self.steps, handle, call, _(
            "{call}: stepInfo {handle} is not a live step info (destroyed, or never created "
            "by acl.prof.create_step_info)."), _("{call}: stepInfo is NULL."))

    def destroy_step(self, handle: int) -> None:
        self.step(handle, "aclprofDestroyStepInfo")
        del self.steps[handle]

    def step_timestamp(self, handle: int, tag: int, stream: int) -> None:
        call = "aclprofGetStepTimestamp"
        info = self.step(handle, call)
        start = tag == C.ACL_STEP_START
        if (info.started if start else info.ended):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: this step info was already given ACL_STEP_{tag}; a step has one "
                "start and one end.").format(call=call, tag="START" if start else "END"))
        if stream and stream not in self.rt.streams:    # profSetStepInfo's failure
            raise SimError(C.ACL_ERROR_GE_FAILURE, _(
                "{call}: {stream} is not a live stream; the step's timestamp goes onto a "
                "stream (0: the default one).").format(call=call, stream=f"0x{stream:x}"))
        s = self.rt.stream(stream, call)
        self.rt.issue(s, Task("step", 0.0, detail={"step": info.index, "tag": tag}), call)
        if start:
            info.started = True
        else:
            info.ended = True


def of(rt) -> Tx:
    found = getattr(rt, "profiler_tx", None)
    if found is None:
        found = rt.profiler_tx = Tx(rt)
    return found
