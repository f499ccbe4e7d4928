"""Stream capture (ACL Graph): recording tasks into a model RI, replaying it, its rules.

Rules and codes follow hicann/runtime (src/acl/aclrt_impl/model_ri.cpp and the aclgraph
runtime): a call that is illegal during capture returns its code but does not invalidate
the capture (an event the capture cannot record, too: ApiImpl::EventRecord and
ApiImpl::StreamWaitEvent refuse it before any capture handling; a synchronize returns 107027
/ 107030 and the capture stays ACTIVE, though the seed and the runtime FAQ say sync calls
fail the capture). The runtime terminates a capture (TerminateCapture) when recording,
waiting on or resetting a captured event fails, and when it cannot allocate a task for the
capture; then capture end returns ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED and destroys the
model. Here: a captured event that would link two captures (107032) invalidates both.

Cross-stream capture (hicann/runtime docs/zh/dev_guide/04-02_cross_stream_capture.md): an event
from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC) recorded on a capturing stream is captured;
another stream that waits on it joins the capture (fork), and must hand its work back with
a record the origin stream waits on (join) before capture end (Context::
CheckCaptureModelValidity). Every task keeps the stream it was issued on. A replay issues the recorded tasks as one launch, without
validating them again; a buffer freed while a model still uses it is reported at replay.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.support import threads
from acl_lab.i18n import _
from acl_lab.spec.codes import acl_lab_check
from acl_lab.spec.snapshot_schema import ModelRow, TaskRow
from acl_lab.spec.socs import captures
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.sim.streams import Stream, Task

MODEL_BASE, GROUP_BASE = 0x4000_0000, 0x4800_0000
GLOBAL, THREAD_LOCAL, RELAXED = (C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
ACTIVE, INVALIDATED = C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, C.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED


def _mode_name(mode: int) -> str:
    return C.CAPTURE_MODE_NAMES.get(mode, str(mode))


# Event flags whose events add no wait task in a capture (Event::IsEventWithoutWaitTask:
# none of RT_EVENT_DDSYNC_NS = ACL_EVENT_SYNC, RT_EVENT_DDSYNC 0x4, EXTERNAL, IPC)
_WAITABLE = C.ACL_EVENT_SYNC | 0x04 | C.ACL_EVENT_EXTERNAL | C.ACL_EVENT_IPC


@dataclass(eq=False)
class ModelRI:
    handle: int
    device: int
    stream: int                    # the stream it was captured on (the origin stream)
    tasks: list = field(default_factory=list)
    streams: list = field(default_factory=list)   # origin first, then streams that joined
    ready: bool = False            # capture ended successfully
    executions: int = 0
    in_flight: int = 0             # replays issued whose effect has not run yet


@dataclass(eq=False)
class TaskGroup:
    """aclrtTaskGrp: operator tasks recorded between TaskGrpBegin and TaskGrpEnd, which a
    later TaskUpdateBegin..End replaces one by one (Context::StreamBeginTaskGrp and after)."""
    handle: int
    model: ModelRI
    tasks: list = field(default_factory=list)
    error: int = 0                 # the first failure while sampling (SetTaskGroupErrCode)
    updating: bool = False


@dataclass(eq=False)
class Capture:
    stream: Stream
    mode: int
    thread: int
    model: ModelRI
    status: int = ACTIVE
    why_invalid: str = ""
    streams: list = field(default_factory=list)   # Stream objects: origin, then joined ones


class CaptureManager:
    def __init__(self, rt):
        self.rt = rt
        self.models: dict[int, ModelRI] = {}
        self.task_count = 0       # tasks kept in every model (host RAM: hostram.OBJECT_BYTES)
        self.active: dict[int, Capture] = {}     # stream handle -> capture in progress
        self.groups: dict[int, TaskGroup] = {}   # closed task groups of live models
        self._count = 0
        self._group_count = 0

    # ----- the thread's capture mode -------------------------------------------------------
    def thread_mode(self) -> int:
        return self.rt._local.get("capture_mode", GLOBAL)

    def exchange_mode(self, mode: int) -> int:
        self.rt.require_ctx("aclmdlRICaptureThreadExchangeMode")
        if mode not in C.CAPTURE_MODE_NAMES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _not_a_mode(
                "aclmdlRICaptureThreadExchangeMode", mode))
        previous = self.thread_mode()
        self.rt._local.capture_mode = mode
        return previous

    def restricting(self, device: int) -> Capture | None:
        """The capture that makes unsafe calls illegal for this thread on ``device``, if any."""
        if self.thread_mode() == RELAXED:
            return None
        me = threads.get_ident()
        for cap in self.active.values():
            if cap.stream.device == device and cap.status == ACTIVE and (
                    cap.mode == GLOBAL or cap.mode == THREAD_LOCAL and cap.thread == me):
                return cap
        return None

    # ----- begin / end / info ------------------------------------------------------------
    def begin(self, stream: Stream, mode: int) -> None:
        call = "aclmdlRICaptureBegin"
        soc = self.rt.profile.soc_name
        if not captures(soc):   # rtStreamBeginCapture: RT_FEATURE_MODEL_ACL_GRAPH (spec/socs.py)
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: {soc} ({product}) cannot capture a stream into a model (ACL Graph): "
                "its runtime lacks the feature (the SoC table, acl_lab.spec.socs). Issue the "
                "work directly on the stream, or use a profile that captures "
                "(acl_lab.reset(\"910b\")).").format(call=call, soc=soc,
                                                     product=self.rt.profile.soc.product))
        if mode not in C.CAPTURE_MODE_NAMES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _not_a_mode(call, mode))
        if stream.capture is not None:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURED,
                           _("{call}: stream {stream} is already capturing. End that capture "
                             "(aclmdlRICaptureEnd) before beginning another.").format(
                               call=call, stream=f"0x{stream.handle:x}"))
        self._count += 1
        model = ModelRI(MODEL_BASE + self._count * 0x40, stream.device, stream.handle,
                      streams=[stream.handle])
        cap = Capture(stream, mode, threads.get_ident(), model, streams=[stream])
        self.models[model.handle] = model
        self.active[stream.handle] = cap
        stream.capture = cap

    def capturing(self, stream: Stream, call: str) -> Capture:
        cap = stream.capture
        if cap is None:
            raise SimError(C.ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                           _("{call}: stream {stream} is not capturing. Call "
                             "aclmdlRICaptureBegin on it first.").format(
                               call=call, stream=f"0x{stream.handle:x}"))
        return cap

    def end(self, stream: Stream) -> int:
        call = "aclmdlRICaptureEnd"
        cap = self.capturing(stream, call)
        if cap.stream is not stream:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                           _("{call}: stream {stream} joined the capture of stream {origin} by "
                             "waiting on its event; the capture was not begun here. End it on "
                             "the origin stream {origin}.").format(
                               call=call, stream=f"0x{stream.handle:x}",
                               origin=f"0x{cap.stream.handle:x}"))
        if cap.mode != RELAXED and cap.thread != threads.get_ident():
            self._close(cap, keep_model=False)
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                           _("{call}: the capture on stream {stream} began on another thread in "
                             "{mode} mode; only RELAXED captures may end on another thread. The "
                             "capture has been discarded: begin again and end it on the thread "
                             "that began it.").format(call=call, stream=f"0x{stream.handle:x}",
                                                      mode=_mode_name(cap.mode)))
        if cap.status == INVALIDATED:
            self._close(cap, keep_model=False)
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                           _("{call}: the capture on stream {stream} was invalidated ({why}); "
                             "its model is destroyed. The stream works normally again: fix the "
                             "call and capture again.").format(
                               call=call, stream=f"0x{stream.handle:x}", why=cap.why_invalid))
        self._check_joined(cap)
        if any(s.group_mode == "sample" for s in cap.streams):
            self._close(cap, keep_model=False)
            raise SimError(C.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                           _("{call}: a task group begun with aclmdlRICaptureTaskGrpBegin is "
                             "still open. Close it with aclmdlRICaptureTaskGrpEnd before capture "
                             "end; the model is destroyed, capture again.").format(call=call))
        self._close(cap, keep_model=True)
        cap.model.ready = True
        return cap.model.handle

    def _check_joined(self, cap: Capture) -> None:
        """Every stream that joined must end with an event record that another stream waited
        on, and one such wait must be on the origin stream (Context::
        CheckCaptureModelValidity); otherwise capture end fails and the model is destroyed."""
        tasks, origin = cap.model.tasks, cap.stream.handle
        problem, back_home = "", False
        for s in cap.streams[1:]:
            mine = [i for i, t in enumerate(tasks) if t.stream == s.handle]
            last = tasks[mine[-1]] if mine else None
            if last is None or last.kind != "record":
                problem = _("the last task on stream {stream} is not an event record; record "
                            "an event there (acl.rt.record_event)").format(
                                stream=f"0x{s.handle:x}")
                break
            ev = last.detail["event"]
            waiters = {t.stream for t in tasks[mine[-1] + 1:]
                       if t.kind == "wait" and t.detail.get("event") == ev}
            if not waiters:
                problem = _("stream {stream} ends with a record of event {event} that no stream "
                            "waits on").format(stream=f"0x{s.handle:x}", event=f"0x{ev:x}")
                break
            back_home = back_home or origin in waiters
        if not problem and len(cap.streams) > 1 and not back_home:
            problem = _("the origin stream {stream} waits on no event recorded by the streams "
                        "that joined, so their work is not joined back").format(
                            stream=f"0x{origin:x}")
        if problem:
            self._close(cap, keep_model=False)
            raise SimError(C.ACL_ERROR_RT_STREAM_UNJOINED,
                           _("{call}: {problem}. In a cross-stream capture every stream that "
                             "joined (by waiting on a captured event) must come back: record an "
                             "ACL_EVENT_SYNC event on it and make the origin stream wait on that "
                             "event before capture end. The model is destroyed; capture "
                             "again.").format(call="aclmdlRICaptureEnd", problem=problem))

    def _close(self, cap: Capture, keep_model: bool) -> None:
        del self.active[cap.stream.handle]
        for s in cap.streams:
            s.capture = None
            if s.group_mode == "sample":
                s.group_mode = s.group = None
        if not keep_model:
            self._forget_model(cap.model.handle)

    def _forget_model(self, handle: int) -> None:
        self.task_count -= len(self.models.pop(handle).tasks)
        for h in [h for h, g in self.groups.items() if g.model.handle == handle]:
            del self.groups[h]

    def info(self, stream: Stream) -> tuple[int, int]:
        cap = stream.capture
        if cap is None:
            return C.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0
        return cap.status, cap.model.handle

    # ----- what happens on a capturing stream ----------------------------------------------
    def record(self, stream: Stream, task: Task) -> Task:
        """Keep ``task`` in the model instead of running it (nothing runs while capturing);
        the task keeps the stream it was issued on."""
        cap = stream.capture
        group = stream.group if stream.group_mode == "sample" else None
        if group is not None and task.kind != "op":   # Stream::PackingTaskGroup
            group.error = group.error or C.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
            raise SimError(C.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
                           _("a {kind} task cannot join the task group open on stream {stream}: "
                             "only operator (Cube/Vector core) tasks can. Issue it before "
                             "aclmdlRICaptureTaskGrpBegin or after TaskGrpEnd; TaskGrpEnd will "
                             "now fail with this code.").format(
                               kind=task.kind, stream=f"0x{stream.handle:x}"))
        self.rt.sched.now_us += self.rt.profile.rates.launch_us
        if cap.status == ACTIVE:
            task.stream, task.seq = stream.handle, len(cap.model.tasks) + 1
            cap.model.tasks.append(task)
            self.task_count += 1
            if group is not None:
                group.tasks.append(task)
        return task

    # ----- task groups: record a group, later replace its operators (model update) --------
    def group_begin(self, stream: Stream) -> None:
        call = "aclmdlRICaptureTaskGrpBegin"
        _group_idle(stream, call)
        cap = self.capturing(stream, call)
        self._group_count += 1
        stream.group_mode = "sample"
        stream.group = TaskGroup(GROUP_BASE + self._group_count * 0x40, cap.model)

    def group_end(self, stream: Stream) -> int:
        call = "aclmdlRICaptureTaskGrpEnd"
        if stream.group_mode != "sample":
            raise SimError(C.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                           _("{call}: stream {stream} has no task group open. Call "
                             "aclmdlRICaptureTaskGrpBegin on it first.").format(
                               call=call, stream=f"0x{stream.handle:x}"))
        cap = self.capturing(stream, call)
        group = stream.group
        stream.group_mode = stream.group = None
        if group.error:
            raise SimError(group.error, _("{call}: a task issued inside the group failed (code "
                                          "{code}); the group is discarded (handle NULL).").format(
                                              call=call, code=group.error))
        if cap.status == INVALIDATED:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                           _("{call}: the capture on stream {stream} was invalidated ({why}); "
                             "the group is discarded.").format(
                               call=call, stream=f"0x{cap.stream.handle:x}", why=cap.why_invalid))
        self.groups[group.handle] = group
        return group.handle

    def update_begin(self, stream: Stream, handle: int) -> None:
        call = "aclmdlRICaptureTaskUpdateBegin"
        _group_idle(stream, call)
        group = handles.live(self.groups, handle, call, _(
            "{call}: {handle} is not a task group of a live model. Use the handle "
            "aclmdlRICaptureTaskGrpEnd returned, before aclmdlRIDestroy."),
            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE, null_code=C.ACL_ERROR_RT_INVALID_HANDLE)
        if group.updating:
            raise SimError(C.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                           _("{call}: task group {group} is already being updated by another "
                             "stream; one stream at a time.").format(
                               call=call, group=f"0x{handle:x}"))
        group.updating = True
        stream.group_mode, stream.group, stream.update_index = "update", group, 0

    def update_end(self, stream: Stream) -> None:
        call = "aclmdlRICaptureTaskUpdateEnd"
        if stream.group_mode != "update":
            raise SimError(C.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                           _("{call}: stream {stream} is not updating a task group. Call "
                             "aclmdlRICaptureTaskUpdateBegin first.").format(
                               call=call, stream=f"0x{stream.handle:x}"))
        group, done = stream.group, stream.update_index
        group.updating = False
        stream.group_mode = stream.group = None
        if done != len(group.tasks):   # Context::StreamEndTaskUpdate: RT_ERROR_STREAM_TASKGRP_UPDATE
            raise SimError(C.ACL_ERROR_RT_INTERNAL_ERROR,
                           _("{call}: task group {group} has {count} task(s) but {done} were "
                             "issued in the update; the tasks not replaced keep their old "
                             "arguments. Issue one operator per task of the group.").format(
                               call=call, group=f"0x{group.handle:x}", count=len(group.tasks),
                               done=done))

    def update_task(self, stream: Stream, task: Task, call: str) -> Task:
        """A launch on a stream in update mode: instead of running, a task on that stream
        replaces the group's next operator in the model when the stream reaches it."""
        group = stream.group
        if task.kind != "op":
            raise SimError(C.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
                           _("{call}: stream {stream} is updating task group {group}; only "
                             "operator launches update it.").format(
                               call=call, stream=f"0x{stream.handle:x}",
                               group=f"0x{group.handle:x}"))
        if stream.update_index >= len(group.tasks):   # Stream::UpdateTask
            raise SimError(C.ACL_ERROR_RT_INTERNAL_ERROR,
                           _("{call}: task group {group} has only {count} task(s); this launch "
                             "has nothing left to replace.").format(
                               call=call, group=f"0x{group.handle:x}", count=len(group.tasks)))
        target = group.tasks[stream.update_index]
        stream.update_index += 1

        def patch() -> None:
            target.run, target.detail = task.run, {**task.detail, "updated": True}
            target.uses, target.nbytes, target.duration_us = task.uses, task.nbytes, \
                task.duration_us

        update = Task("update", 0.0, run=patch, detail={"model": group.model.handle,
                                                        "task": target.seq})
        return self.rt.sched.issue(stream, update, self.rt.profile.rates.launch_us)

    # ----- events in a capture: fork and join across streams -------------------------------
    @staticmethod
    def event_capture(e) -> Capture | None:
        """The capture in progress that recorded ``e`` (Event::IsCapturing), if any."""
        cap = e.capture
        return cap if cap is not None and cap.stream.capture is cap else None

    def record_event(self, s: Stream, e, call: str) -> bool:
        """aclrtRecordEvent on a capturing stream (ApiImpl::EventRecord); True when the
        capture took it (or, for an event that adds no wait task, silently dropped it)."""
        cap = s.capture
        if cap is None or e.flags == C.ACL_EVENT_EXTERNAL:
            return False            # an EXTERNAL event is recorded as an ordinary task
        if not e.ex:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _not_capturable(s, e, call))
        if not (e.flags or 0) & _WAITABLE:
            return True             # the runtime warns and returns success, recording nothing
        other = self.event_capture(e)
        if other is not None and other is not cap:      # CaptureEventRecord: cross-model
            self.invalidate((cap, other),
                            _("{call} linked it to another capture").format(call=call),
                            C.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                            _("{call}: stream {stream} is in the capture begun on stream "
                              "{origin}, but event {event} belongs to the capture of stream "
                              "{other}; one event cannot link two captures.").format(
                                call=call, stream=f"0x{s.handle:x}",
                                origin=f"0x{cap.stream.handle:x}", event=f"0x{e.handle:x}",
                                other=f"0x{other.stream.handle:x}"))
        if cap.status == ACTIVE:
            e.capture = cap
        self.record(s, Task("record", 0.0, detail={"event": e.handle}))
        return True

    def wait_event(self, s: Stream, e, call: str) -> bool:
        """aclrtStreamWaitEvent where a capture is involved (ApiImpl::StreamWaitEvent);
        True when the capture took the wait. A stream that waits on a captured event joins
        that capture (fork)."""
        cap = self.event_capture(e)
        if cap is not None:
            if s.default:
                raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                               _("{call}: event {event} was recorded in the capture of stream "
                                 "{origin}; the default stream cannot join a capture. Wait on "
                                 "it with a stream from acl.rt.create_stream().").format(
                                   call=call, event=f"0x{e.handle:x}",
                                   origin=f"0x{cap.stream.handle:x}"))
            if s.capture is not None and s.capture is not cap:
                self.invalidate((s.capture, cap),
                                _("{call} linked it to another capture").format(call=call),
                                C.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                                _("{call}: stream {stream} is in the capture begun on stream "
                                  "{origin}, but event {event} was recorded in the capture of "
                                  "stream {other}; one event cannot link two captures.").format(
                                    call=call, stream=f"0x{s.handle:x}",
                                    origin=f"0x{s.capture.stream.handle:x}",
                                    event=f"0x{e.handle:x}", other=f"0x{cap.stream.handle:x}"))
            if s.capture is None:
                s.capture = cap
                cap.streams.append(s)
                cap.model.streams.append(s.handle)
            self.record(s, Task("wait", 0.0, detail={"event": e.handle}))
            return True
        if s.capture is None or e.flags == C.ACL_EVENT_EXTERNAL:
            return False
        if not e.ex:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _not_capturable(s, e, call))
        if e.stream is not None:
            raise SimError(C.ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                           _("{call}: event {event} was recorded outside the capture of stream "
                             "{origin}, so the model cannot depend on it (its record is not in "
                             "the model). Record the event on a capturing stream first; to wait "
                             "on work outside the model use an ACL_EVENT_EXTERNAL event. The "
                             "capture stays ACTIVE.").format(
                               call=call, event=f"0x{e.handle:x}",
                               origin=f"0x{s.capture.stream.handle:x}"))
        return False

    def invalidate(self, caps: tuple, why: str, code: int, message: str) -> None:
        """A failure while recording a captured event's record or wait: the runtime terminates
        the event's capture and the stream's (TerminateCapture, hicann/runtime
        src/runtime/feature/aclgraph/capture_model_utils.cc; it also does so when it cannot
        allocate a task for a capture, Stream::AllocCaptureTaskWithoutLock)."""
        for cap in caps:
            cap.status, cap.why_invalid = INVALIDATED, why
        raise SimError(code, _("{message} Both captures are now INVALIDATED: "
                               "aclmdlRICaptureEnd on either origin stream will return "
                               "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED.").format(
                                   message=message))

    # ----- models --------------------------------------------------------------------------
    def model(self, handle: int, call: str) -> ModelRI:
        m = handles.live(self.models, handle, call, _(
            "{call}: {handle} is not a live model RI. Use the handle aclmdlRICaptureEnd "
            "returned, before aclmdlRIDestroy."), _("{call}: modelRI is NULL (0)."),
            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)
        if not m.ready:
            raise SimError(C.ACL_ERROR_RT_MODEL_CAPTURED,
                           _("{call}: model {model} is still being captured on stream {stream}. "
                             "End the capture first.").format(
                               call=call, model=f"0x{handle:x}", stream=f"0x{m.stream:x}"))
        return m

    def _replay_task(self, m: ModelRI, call: str) -> Task:
        """One task that runs all recorded ones (checked only for freed buffers)."""
        live = self.rt.memory.allocs
        for t in m.tasks:
            for a in t.uses:
                if live.get(a.ptr) is not a:
                    raise SimError(C.ACL_ERROR_RT_MODEL_EXECUTE, acl_lab_check(
                                   _("{call}: task {seq} ({kind}) of model {model} uses {ptr} "
                                     "({size} B from {api}), which was freed after capture. "
                                     "Resources of captured tasks must stay valid until "
                                     "aclmdlRIDestroy; nothing ran.").format(
                                       call=call, seq=t.seq, kind=t.kind, model=f"0x{m.handle:x}",
                                       ptr=f"0x{a.ptr:x}", size=a.size, api=a.api)))
        tasks = list(m.tasks)
        ram = self.rt.memory.ram

        def fits() -> None:
            """A replay runs whole or not at all: the host RAM all its tasks may newly take
            must fit before the first one runs (a replay stopped half way by the budget kept
            its first effects, and a retry applied them twice)."""
            ranges = {(id(a), offset, n): (a, offset, n) for t in tasks
                      for a, offset, n in t.touches}     # many tasks write the same buffer
            ram.need(sum(a.fresh_bytes(offset, n) for a, offset, n in ranges.values())
                     + max((t.scratch() for t in tasks if t.scratch), default=0), call,
                     _("replaying model {model}").format(model=f"0x{m.handle:x}"))

        def run() -> None:       # each task's effect is looked up now: an update may replace it
            fits()
            for t in tasks:
                if t.run is not None:
                    t.run()
            m.in_flight -= 1

        fits()
        duration = _critical_path_us(m.tasks, self.rt.profile.rates.replay_task_us)
        return Task("model", duration, run=run, nbytes=sum(t.nbytes for t in m.tasks),
                    uses=tuple(a for t in m.tasks for a in t.uses),   # a free waits for it
                    detail={"model": m.handle, "tasks": len(m.tasks),
                            "execution": m.executions + 1})

    def execute_async(self, handle: int, stream: Stream) -> None:
        call = "aclmdlRIExecuteAsync"
        m = self.model(handle, call)
        if stream.capture is not None:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURED,
                           _("{call}: stream {stream} is capturing; a model cannot be launched "
                             "into a capture. Use a stream that is not capturing.").format(
                               call=call, stream=f"0x{stream.handle:x}"))
        if stream.device != m.device:
            raise SimError(C.ACL_ERROR_RT_STREAM_CONTEXT,
                           _("{call}: model {model} was captured on device {device}; stream "
                             "{stream} is on device {other}.").format(
                               call=call, model=f"0x{handle:x}", device=m.device,
                               stream=f"0x{stream.handle:x}", other=stream.device))
        task = self._replay_task(m, call)
        self.rt.issue(stream, task, call)     # the default stream is refused during a capture
        m.executions += 1
        m.in_flight += 1

    def execute(self, handle: int, timeout_ms: int) -> None:
        call = "aclmdlRIExecute"
        if timeout_ms == 0 or timeout_ms < -1:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: timeout {timeout} ms is invalid; use -1 (wait forever) or "
                             "a positive number of milliseconds.").format(
                               call=call, timeout=timeout_ms))
        m = self.model(handle, call)
        task = self._replay_task(m, call)
        self.rt.before_blocking_call(call)
        m.executions += 1
        m.in_flight += 1
        self.rt.sched.now_us += self.rt.profile.rates.launch_us
        self.rt.sched.blocking(task)

    def destroy(self, handle: int) -> None:
        call = "aclmdlRIDestroy"
        if handle in self.models and not self.models[handle].ready:
            raise SimError(C.ACL_ERROR_RT_MODEL_CAPTURED,
                           _("{call}: model {model} is still being captured. End the capture "
                             "first.").format(call=call, model=f"0x{handle:x}"))
        m = self.model(handle, call)
        if m.in_flight:     # the runtime waits for running replays before destroying
            for s in self.rt.all_streams():
                if any(t.detail.get("model") == handle for t in s.pending):
                    self.rt.sched.wait_stream(s)
        self._forget_model(handle)

    def discard(self, tasks) -> None:
        """Queued replays thrown away (aclrtDestroyStreamForce) are no longer in flight."""
        for t in tasks:
            m = self.models.get(t.detail.get("model")) if t.kind == "model" else None
            if m is not None:
                m.in_flight -= 1

    def drop(self, gone) -> None:
        """Contexts or a device are torn down: captures on their streams end, and the models
        ``gone(model)`` names are destroyed with them (as the runtime's teardown does)."""
        for cap in [c for c in self.active.values() if gone(c.model)]:
            self._close(cap, keep_model=False)
        for h in [h for h, m in self.models.items() if gone(m)]:
            self._forget_model(h)

    def debug_json(self, handle: int, path: str, flags: int) -> None:
        call = "aclmdlRIDebugJsonPrint"
        m = self.model(handle, call)
        if not path:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: path is empty.").format(call=call))
        verbose = bool(flags & C.ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
        # The runtime lays tasks out with fixed per-type spacing; the simulator writes each
        # task's modeled start within one replay and its modeled duration instead, so the
        # JSON agrees with events, the trace and the views.
        events, ts = [], 0.0
        replay_task_us = self.rt.profile.rates.replay_task_us
        for t in m.tasks:
            args = {"Model Id": m.handle, "Stream Id": t.stream, "Task Id": t.seq,
                    "Task Type": t.kind.upper(), "Bytes": t.nbytes}
            args.update({k.title(): hex(v) if k in ("dst", "src", "ptr", "out", "workspace") else v
                         for k, v in t.detail.items()})
            if verbose:
                args["Modeled Duration Us"] = round(t.duration_us, 3)
            events.append({"name": t.kind.upper(), "pid": "acl_lab aclGraph",
                           "tid": f"stream{t.stream:#x}", "ts": round(ts, 3),
                           "dur": round(t.duration_us, 3), "ph": "X", "args": args})
            ts += t.duration_us + replay_task_us
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(events, f, indent=1)
        except OSError as e:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: cannot write {path} ({reason}). Pass a path in a folder "
                             "you can write to.").format(call=call, path=repr(path),
                                                         reason=e.strerror)) from None

    def snapshot(self) -> list[ModelRow]:
        return [{"handle": m.handle, "device": m.device, "stream": m.stream,
                 "streams": list(m.streams),
                 "ready": m.ready, "executions": m.executions, "in_flight": m.in_flight,
                 "tasks": [_task_row(t) for t in m.tasks]}
                for m in self.models.values()]


def _task_row(t: Task) -> TaskRow:
    """A recorded task as plain data; a copy's direction (its detail "kind") is "direction"."""
    detail = {("direction" if k == "kind" else k): v for k, v in t.detail.items()}
    return {**detail, "seq": t.seq, "stream": t.stream, "kind": t.kind, "nbytes": t.nbytes,
            "duration_us": t.duration_us}


def _not_a_mode(call: str, mode: int) -> str:
    return _("{call}: mode {mode} is not GLOBAL (0), THREAD_LOCAL (1) or RELAXED (2).").format(
        call=call, mode=mode)


def _not_capturable(s: Stream, e, call: str) -> str:
    made = ("aclrtCreateEvent" if e.flags is None
            else f"aclrtCreateEventWithFlag(0x{e.flags:x})")
    return _("{call}: stream {stream} is capturing, and event {event} comes from {made}, which "
             "a capture cannot record or wait on. For cross-stream capture create the event "
             "with acl.rt.create_event_ex_with_flag(ACL_EVENT_SYNC). The capture stays ACTIVE: "
             "nothing was recorded, and aclmdlRICaptureEnd still succeeds.").format(
                 call=call, stream=f"0x{s.handle:x}", event=f"0x{e.handle:x}", made=made)


def _critical_path_us(tasks: list, per_task_us: float) -> float:
    """A replay's modeled duration: streams of the model run side by side, a wait holds its
    stream until the captured record it waits on (one launch, so no host cost per task)."""
    clock: dict[int, float] = {}
    recorded: dict[int, float] = {}
    for t in tasks:
        now = clock.get(t.stream, 0.0) + t.duration_us + per_task_us
        event = t.detail.get("event")
        if t.kind == "wait" and event in recorded:
            now = max(now, recorded[event])
        elif t.kind == "record":
            recorded[event] = now
        clock[t.stream] = now
    return max(clock.values(), default=0.0)


def _group_idle(stream: Stream, call: str) -> None:
    if stream.group_mode == "sample":
        raise SimError(C.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                       _("{call}: stream {stream} is already recording a task group. End that "
                         "first (TaskGrpEnd / TaskUpdateEnd).").format(
                           call=call, stream=f"0x{stream.handle:x}"))
    if stream.group_mode is not None:
        raise SimError(C.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                       _("{call}: stream {stream} is already updating a task group. End that "
                         "first (TaskGrpEnd / TaskUpdateEnd).").format(
                           call=call, stream=f"0x{stream.handle:x}"))
