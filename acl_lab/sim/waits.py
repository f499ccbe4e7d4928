"""Events with flags, event reset and timestamps, host waits with a time limit, stream
polls and stream settings: the runtime's calls beyond record / wait / synchronize.

Each rule follows hicann/runtime; the function or file is named where it is applied. A wait
that times out is a wait that happened: the host's modeled clock moves by the timeout and
the work due by then has run, then the call returns the timeout code.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task
from acl_lab.spec.device_rules import device_sync_timeout

# aclrtCreateEventWithFlag accepts any OR of these (RT_EVENT_FLAG_MAX, event.hpp)...
_WITH_FLAG_MAX = 0x3F
# ...aclrtCreateEventExWithFlag these (ApiErrorDecorator::EventCreateEx)
_EX_FLAG_MAX = C.ACL_EVENT_SYNC | C.ACL_EVENT_CAPTURE_STREAM_PROGRESS | 0x04 | \
    C.ACL_EVENT_TIME_LINE | C.ACL_EVENT_IPC
_ALONE = {"aclrtCreateEventWithFlag": (C.ACL_EVENT_DEVICE_USE_ONLY, C.ACL_EVENT_EXTERNAL),
          "aclrtCreateEventExWithFlag": (C.ACL_EVENT_DEVICE_USE_ONLY, C.ACL_EVENT_EXTERNAL,
                                         C.ACL_EVENT_IPC)}


def create_event(rt, flag: int, ex: bool) -> int:
    """aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag (ApiErrorDecorator::EventCreate,
    EventCreateEx, ApiImpl::EventCreate)."""
    call = "aclrtCreateEventExWithFlag" if ex else "aclrtCreateEventWithFlag"
    top = _EX_FLAG_MAX if ex else _WITH_FLAG_MAX
    if flag & top == 0 or flag > top:
        text = (_("{call}: flag {flag} is not an OR of ACL_EVENT_SYNC (0x1), "
                  "ACL_EVENT_CAPTURE_STREAM_PROGRESS (0x2) and ACL_EVENT_TIME_LINE (0x8).") if ex
                else _("{call}: flag {flag} is not an OR of ACL_EVENT_SYNC (0x1), "
                       "ACL_EVENT_CAPTURE_STREAM_PROGRESS (0x2) and ACL_EVENT_TIME_LINE (0x8), "
                       "nor ACL_EVENT_EXTERNAL (0x20) alone."))
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, text.format(call=call, flag=f"0x{flag:x}"))
    for alone in _ALONE[call]:
        if flag & alone and flag & ~alone:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: flag {alone} must be used alone, not ORed with others "
                             "({flag}).").format(call=call, alone=f"0x{alone:x}",
                                                 flag=f"0x{flag:x}"))
    if flag in (C.ACL_EVENT_DEVICE_USE_ONLY, C.ACL_EVENT_IPC):
        text = (_("{call}: flag {flag} (device-only events) is not supported by the simulated "
                  "device.") if flag == C.ACL_EVENT_DEVICE_USE_ONLY
                else _("{call}: flag {flag} (IPC events) is not supported by the simulated "
                       "device."))
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text.format(call=call,
                                                                       flag=f"0x{flag:x}"))
    return rt.create_event(flag, ex, call)


def reset_event(rt, handle: int, stream: int) -> None:
    """aclrtResetEvent (ApiImpl::EventReset): queues a task that returns the event to
    'not recorded'. Events from aclrtCreateEventExWithFlag cannot be reset, and a capture
    cannot record the reset of an event it cannot capture."""
    call = "aclrtResetEvent"
    e = rt.event(handle, call)
    s = rt.stream(stream, call)
    if e.ex:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       _("{call}: event {event} comes from aclrtCreateEventExWithFlag; the "
                         "runtime does not reset those (record it again instead).").format(
                           call=call, event=f"0x{handle:x}"))
    if s.capture is not None and not s.default and e.flags != C.ACL_EVENT_EXTERNAL:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       _("{call}: stream {stream} is capturing and event {event} cannot be "
                         "captured. The capture stays ACTIVE.").format(
                           call=call, stream=f"0x{s.handle:x}", event=f"0x{handle:x}"))
    def forget_record() -> None:
        e.stream, e.seq, e.ts_us = None, 0, None

    # on a plain stream the reset takes effect in issue order; in a model, at every replay
    rt.issue(s, Task("reset", 0.0, run=forget_record if s.capture is not None else None,
                     detail={"event": handle}), call)
    if s.capture is None:
        forget_record()


def event_timestamp_us(rt, handle: int) -> int:
    """aclrtEventGetTimestamp (Event::GetTimeStamp): when the stream reached the record, in
    microseconds of modeled device time."""
    call = "aclrtEventGetTimestamp"
    e = rt.waitable_event(handle, call)
    if e.stream is None:
        raise SimError(C.ACL_ERROR_RT_INTERNAL_ERROR,
                       _("{call}: event {event} was never recorded, so it has no timestamp. "
                         "Record it with acl.rt.record_event(event, stream) first.").format(
                           call=call, event=f"0x{handle:x}"))
    if not rt.sched.event_done(e):
        raise SimError(C.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                       _("{call}: event {event} has not completed yet, so its timestamp is not "
                         "written. Synchronize it (acl.rt.synchronize_event) first.").format(
                           call=call, event=f"0x{handle:x}"))
    return round(e.ts_us)


def _deadline(rt, timeout_ms: int) -> float | None:
    return None if timeout_ms == -1 else rt.sched.now_us + timeout_ms * 1000.0


def _time_out(rt, stream, deadline: float) -> None:
    """The host waited until ``deadline``: the work due by then has run."""
    done = [t.seq for t in stream.pending if t.end_us <= deadline]
    if done:
        rt.sched.run_until(stream, done[-1])
    rt.sched.now_us = max(rt.sched.now_us, deadline)


def synchronize_stream(rt, handle: int, timeout_ms: int) -> None:
    """aclrtSynchronizeStreamWithTimeout (src/acl/aclrt_impl/stream.cpp): -1 waits for ever,
    below -1 is invalid; past the limit, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT."""
    call = "aclrtSynchronizeStreamWithTimeout"
    if timeout_ms < -1:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: timeout {timeout} ms is invalid; use -1 (wait for ever) or a "
                         "number of milliseconds >= 0.").format(call=call, timeout=timeout_ms))
    s = rt.stream(handle, call, other_device_ok=True)
    rt._not_capturing(s, call)
    deadline = _deadline(rt, timeout_ms)
    if deadline is None or s.t_end <= deadline:
        rt.sched.wait_stream(s)
        return
    _time_out(rt, s, deadline)
    raise SimError(C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   _("{call}: stream {stream} still had work after {timeout} ms of modeled time "
                     "(it finishes at {end} µs, the wait ended at {deadline} µs). The work due "
                     "by then has run; the rest is still queued. Wait longer, or with "
                     "acl.rt.synchronize_stream.").format(
                       call=call, stream=f"0x{s.handle:x}", timeout=timeout_ms,
                       end=f"{s.t_end:.1f}", deadline=f"{deadline:.1f}"))


def synchronize_event(rt, handle: int, timeout_ms: int) -> None:
    """aclrtSynchronizeEventWithTimeout (src/acl/aclrt_impl/event.cpp; ApiErrorDecorator::
    EventSynchronize refuses 0): past the limit, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT."""
    call = "aclrtSynchronizeEventWithTimeout"
    if timeout_ms < -1 or timeout_ms == 0:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: timeout {timeout} ms is invalid; use -1 (wait for ever) or a "
                         "positive number of milliseconds.").format(call=call,
                                                                    timeout=timeout_ms))
    e = rt.waitable_event(handle, call)
    deadline = _deadline(rt, timeout_ms)
    if e.stream is None or deadline is None or e.ts_us <= deadline:
        rt.sched.wait_event(e)       # an event never recorded is complete at once
        return
    _time_out(rt, e.stream, deadline)
    raise SimError(C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   _("{call}: event {event} was not reached after {timeout} ms of modeled time "
                     "(its stream reaches it at {reached} µs, the wait ended at {deadline} µs). "
                     "Wait longer, or with acl.rt.synchronize_event.").format(
                       call=call, event=f"0x{handle:x}", timeout=timeout_ms,
                       reached=f"{e.ts_us:.1f}", deadline=f"{deadline:.1f}"))


def stream_query(rt, handle: int) -> int:
    """aclrtStreamQuery (stream.cpp aclrtStreamQueryImpl): COMPLETE when every task issued
    to the stream has finished by now, else NOT_READY. Polling costs host time."""
    call = "aclrtStreamQuery"
    s = rt.stream(handle, call)
    rt._not_capturing(s, call)
    rt.sched.now_us += rt.profile.rates.api_us
    if s.t_end > rt.sched.now_us:
        return C.ACL_STREAM_STATUS_NOT_READY
    rt.sched.run_until(s)
    return C.ACL_STREAM_STATUS_COMPLETE


def set_failure_mode(rt, handle: int, mode: int) -> None:
    """aclrtSetStreamFailureMode: ACL_CONTINUE_ON_FAILURE (0) or ACL_STOP_ON_FAILURE (1);
    stream 0 is the default stream (ApiErrorDecorator::StreamSetMode). ApiImpl::StreamSetMode
    compares with the mode set on that stream: the same again is 0, stop back to continue is
    RT_ERROR_FEATURE_NOT_SUPPORT (207000). Stop mode holds for every stream of the stream's
    context, later ones too (06_stream_management.md 约束说明), whatever was set on them. A
    task that fails on the device (a media engine's refusal) then stops its stream
    (streams.py)."""
    call = "aclrtSetStreamFailureMode"
    s = rt.stream(handle, call)
    if mode not in (C.ACL_CONTINUE_ON_FAILURE, C.ACL_STOP_ON_FAILURE):
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: mode {mode} is not ACL_CONTINUE_ON_FAILURE (0) or "
                         "ACL_STOP_ON_FAILURE (1).").format(call=call, mode=mode))
    if s.mode_set == C.ACL_STOP_ON_FAILURE and mode == C.ACL_CONTINUE_ON_FAILURE:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       _("{call}: stream {stream} is in ACL_STOP_ON_FAILURE mode, which cannot "
                         "be changed back to ACL_CONTINUE_ON_FAILURE. Use another "
                         "stream.").format(call=call, stream=f"0x{s.handle:x}"))
    s.mode_set = mode
    if mode == C.ACL_STOP_ON_FAILURE:
        rt.contexts[s.ctx].stop_on_failure = True
        for t in rt.all_streams(s.device):
            if t.ctx == s.ctx:
                t.failure_mode = C.ACL_STOP_ON_FAILURE


def create_stream(rt, priority: int, flag: int) -> int:
    """aclrtCreateStreamWithConfig (stream.cpp): only the ACL_STREAM_* bits are passed on,
    others are ignored."""
    known = (C.ACL_STREAM_FAST_LAUNCH | C.ACL_STREAM_FAST_SYNC | C.ACL_STREAM_PERSISTENT |
             C.ACL_STREAM_HUGE | C.ACL_STREAM_CPU_SCHEDULE | C.ACL_STREAM_DEVICE_USE_ONLY)
    return rt.create_stream(priority, flag & known, "aclrtCreateStreamWithConfig")


def synchronize_device(rt, timeout_ms: int) -> None:
    """aclrtSynchronizeDeviceWithTimeout (device.cpp; api_error.cc DeviceSynchronize refuses
    0 and anything below -1): every stream of the current device, within one deadline; past
    it, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT with the work due by then run."""
    call = "aclrtSynchronizeDeviceWithTimeout"
    device_sync_timeout(call, timeout_ms)
    ctx = rt.require_ctx(call)
    streams = rt.all_streams(ctx.device)
    for s in streams:
        rt._not_capturing(s, call)
    deadline = _deadline(rt, timeout_ms)
    late = [s for s in streams if deadline is not None and s.t_end > deadline]
    if not late:
        for s in streams:
            rt.sched.wait_stream(s)
        return
    for s in streams:
        _time_out(rt, s, deadline)
    raise SimError(C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   _("{call}: device {device} still had work after {timeout} ms of modeled time "
                     "(stream {stream} finishes at {end} µs, the wait ended at {deadline} µs). "
                     "The work due by then has run; the rest is still queued. Wait longer, or "
                     "with acl.rt.synchronize_device.").format(
                       call=call, device=ctx.device, timeout=timeout_ms,
                       stream=f"0x{late[0].handle:x}", end=f"{late[0].t_end:.1f}",
                       deadline=f"{deadline:.1f}"))
