"""Stream capture (ACL Graph): recording tasks into a model RI, replaying it, its rules.

Rules and codes follow hicann/runtime (src/acl/aclrt_impl/model_ri.cpp and the aclgraph
runtime): a call that is illegal during capture returns its code but does not invalidate
the capture; only a failure while recording (an event record/wait the capture cannot
take) invalidates it, and then capture end returns ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
and destroys the model. A replay issues the recorded tasks as one launch, without
validating them again; a buffer freed while a model still uses it is reported at replay.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from .. import constants as C
from .simerror import SimError
from .streams import Stream, Task

MODEL_BASE = 0x4000_0000
GLOBAL, THREAD_LOCAL, RELAXED = (C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
ACTIVE, INVALIDATED = C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, C.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED


def _mode_name(mode: int) -> str:
    return C.CAPTURE_MODE_NAMES.get(mode, str(mode))


@dataclass(eq=False)
class Model:
    handle: int
    device: int
    stream: int                    # the stream it was captured on
    tasks: list = field(default_factory=list)
    ready: bool = False            # capture ended successfully
    executions: int = 0
    in_flight: int = 0             # replays issued whose effect has not run yet


@dataclass(eq=False)
class Capture:
    stream: Stream
    mode: int
    thread: int
    model: Model
    status: int = ACTIVE
    why_invalid: str = ""


class CaptureManager:
    def __init__(self, rt):
        self.rt = rt
        self.models: dict[int, Model] = {}
        self.active: dict[int, Capture] = {}     # stream handle -> capture in progress
        self._count = 0

    # ----- the thread's capture mode -------------------------------------------------------
    def thread_mode(self) -> int:
        return getattr(self.rt._local, "capture_mode", GLOBAL)

    def exchange_mode(self, mode: int) -> int:
        self.rt.require_ctx("aclmdlRICaptureThreadExchangeMode")
        if mode not in C.CAPTURE_MODE_NAMES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           f"aclmdlRICaptureThreadExchangeMode: mode {mode} is not GLOBAL (0), "
                           f"THREAD_LOCAL (1) or RELAXED (2).")
        previous = self.thread_mode()
        self.rt._local.capture_mode = mode
        return previous

    def restricting(self, device: int) -> Capture | None:
        """The capture that makes unsafe calls illegal for this thread on ``device``, if any."""
        if self.thread_mode() == RELAXED:
            return None
        me = threading.get_ident()
        for cap in self.active.values():
            if cap.stream.device == device and cap.status == ACTIVE and (
                    cap.mode == GLOBAL or cap.mode == THREAD_LOCAL and cap.thread == me):
                return cap
        return None

    # ----- begin / end / info ------------------------------------------------------------
    def begin(self, stream: Stream, mode: int) -> None:
        call = "aclmdlRICaptureBegin"
        if mode not in C.CAPTURE_MODE_NAMES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           f"{call}: mode {mode} is not GLOBAL (0), THREAD_LOCAL (1) or "
                           f"RELAXED (2).")
        if stream.capture is not None:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURED,
                           f"{call}: stream 0x{stream.handle:x} is already capturing. End that "
                           f"capture (aclmdlRICaptureEnd) before beginning another.")
        self._count += 1
        model = Model(MODEL_BASE + self._count * 0x40, stream.device, stream.handle)
        cap = Capture(stream, mode, threading.get_ident(), model)
        self.models[model.handle] = model
        self.active[stream.handle] = cap
        stream.capture = cap

    def capturing(self, stream: Stream, call: str) -> Capture:
        cap = stream.capture
        if cap is None:
            raise SimError(C.ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                           f"{call}: stream 0x{stream.handle:x} is not capturing. Call "
                           f"aclmdlRICaptureBegin on it first.")
        return cap

    def end(self, stream: Stream) -> int:
        call = "aclmdlRICaptureEnd"
        cap = self.capturing(stream, call)
        if cap.mode != RELAXED and cap.thread != threading.get_ident():
            self._close(cap, keep_model=False)
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                           f"{call}: the capture on stream 0x{stream.handle:x} began on another "
                           f"thread in {_mode_name(cap.mode)} mode; only RELAXED captures may end "
                           f"on another thread. The capture has been discarded: begin again and "
                           f"end it on the thread that began it.")
        if cap.status == INVALIDATED:
            self._close(cap, keep_model=False)
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                           f"{call}: the capture on stream 0x{stream.handle:x} was invalidated "
                           f"({cap.why_invalid}); its model is destroyed. The stream works "
                           f"normally again: fix the call and capture again.")
        self._close(cap, keep_model=True)
        cap.model.ready = True
        return cap.model.handle

    def _close(self, cap: Capture, keep_model: bool) -> None:
        del self.active[cap.stream.handle]
        cap.stream.capture = None
        if not keep_model:
            del self.models[cap.model.handle]

    def info(self, stream: Stream) -> tuple[int, int]:
        cap = stream.capture
        if cap is None:
            return C.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0
        return cap.status, cap.model.handle

    # ----- what happens on a capturing stream ----------------------------------------------
    def record(self, cap: Capture, task: Task) -> Task:
        """Keep ``task`` in the model instead of running it (nothing runs while capturing)."""
        self.rt.sched.now_us += self.rt.profile.rates.launch_us
        if cap.status == ACTIVE:
            task.stream, task.seq = cap.stream.handle, len(cap.model.tasks) + 1
            cap.model.tasks.append(task)
        return task

    def invalidate(self, cap: Capture, why: str, code: int, message: str) -> None:
        """A failure while recording: the capture is invalidated (aclgraph TerminateCapture)."""
        cap.status, cap.why_invalid = INVALIDATED, why
        raise SimError(code, message + " The capture is now INVALIDATED: aclmdlRICaptureEnd "
                       "will return ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED.")

    # ----- models --------------------------------------------------------------------------
    def model(self, handle: int, call: str) -> Model:
        if handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, f"{call}: modelRI is NULL (0).")
        m = self.models.get(handle)
        if m is None:
            raise SimError(C.ACL_ERROR_RT_INVALID_HANDLE,
                           f"{call}: 0x{handle:x} is not a live model RI. Use the handle "
                           f"aclmdlRICaptureEnd returned, before aclmdlRIDestroy.")
        if not m.ready:
            raise SimError(C.ACL_ERROR_RT_MODEL_CAPTURED,
                           f"{call}: model 0x{handle:x} is still being captured on stream "
                           f"0x{m.stream:x}. End the capture first.")
        return m

    def _replay_task(self, m: Model, call: str) -> Task:
        """One task that runs all recorded ones (checked only for freed buffers)."""
        live = self.rt.memory.allocs
        for t in m.tasks:
            for a in t.uses:
                if live.get(a.ptr) is not a:
                    raise SimError(C.ACL_ERROR_RT_MODEL_EXECUTE,
                                   f"{call}: task {t.seq} ({t.kind}) of model 0x{m.handle:x} "
                                   f"uses 0x{a.ptr:x} ({a.size} B from {a.api}), which was "
                                   f"freed after capture. Resources of captured tasks must "
                                   f"stay valid until aclmdlRIDestroy; nothing ran.")
        runs = [t.run for t in m.tasks if t.run is not None]

        def run() -> None:
            for r in runs:
                r()
            m.in_flight -= 1

        r = self.rt.profile.rates
        duration = sum(t.duration_us for t in m.tasks) + r.replay_task_us * len(m.tasks)
        return Task("model", duration, run=run, nbytes=sum(t.nbytes for t in m.tasks),
                    uses=tuple(a for t in m.tasks for a in t.uses),   # a free waits for it
                    detail={"model": m.handle, "tasks": len(m.tasks),
                            "execution": m.executions + 1})

    def execute_async(self, handle: int, stream: Stream) -> None:
        call = "aclmdlRIExecuteAsync"
        m = self.model(handle, call)
        if stream.capture is not None:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURED,
                           f"{call}: stream 0x{stream.handle:x} is capturing; a model cannot be "
                           f"launched into a capture. Use a stream that is not capturing.")
        if stream.device != m.device:
            raise SimError(C.ACL_ERROR_RT_STREAM_CONTEXT,
                           f"{call}: model 0x{handle:x} was captured on device {m.device}; "
                           f"stream 0x{stream.handle:x} is on device {stream.device}.")
        task = self._replay_task(m, call)
        self.rt.issue(stream, task, call)     # the default stream is refused during a capture
        m.executions += 1
        m.in_flight += 1

    def execute(self, handle: int, timeout_ms: int) -> None:
        call = "aclmdlRIExecute"
        if timeout_ms == 0 or timeout_ms < -1:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           f"{call}: timeout {timeout_ms} ms is invalid; use -1 (wait forever) "
                           f"or a positive number of milliseconds.")
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
                           f"{call}: model 0x{handle:x} is still being captured. End the "
                           f"capture first.")
        m = self.model(handle, call)
        if m.in_flight:     # the runtime waits for running replays before destroying
            for s in self.rt.all_streams():
                if any(t.detail.get("model") == handle for t in s.pending):
                    self.rt.sched.wait_stream(s)
        del self.models[handle]

    def drop(self, gone) -> None:
        """Contexts or a device are torn down: captures on their streams end, and the models
        ``gone(model)`` names are destroyed with them (as the runtime's teardown does)."""
        for cap in [c for c in self.active.values() if gone(c.model)]:
            self._close(cap, keep_model=False)
        for h in [h for h, m in self.models.items() if gone(m)]:
            del self.models[h]

    def debug_json(self, handle: int, path: str, flags: int) -> None:
        call = "aclmdlRIDebugJsonPrint"
        m = self.model(handle, call)
        if not path:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, f"{call}: path is empty.")
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
                           f"{call}: cannot write {path!r} ({e.strerror}). Pass a path in a "
                           f"folder you can write to.") from None

    def snapshot(self) -> list[dict]:
        return [{"handle": m.handle, "device": m.device, "stream": m.stream,
                 "ready": m.ready, "executions": m.executions, "in_flight": m.in_flight,
                 "tasks": [_task_row(t) for t in m.tasks]}
                for m in self.models.values()]


def _task_row(t: Task) -> dict:
    """A recorded task as plain data; a copy's direction (its detail "kind") is "direction"."""
    detail = {("direction" if k == "kind" else k): v for k, v in t.detail.items()}
    return {**detail, "seq": t.seq, "kind": t.kind, "nbytes": t.nbytes,
            "duration_us": t.duration_us}
