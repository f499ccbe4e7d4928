"""What streams and events tell beyond record / wait / synchronize (ids, what is left to
create, the deprecated event query, the wait status), the overflow status a stream copies
out or clears, and aborting the work queued on a stream or a device.

Rules and codes as hicann/runtime: src/acl/aclrt_impl/stream.cpp, event.cpp, device.cpp (the
ACL layer), src/runtime/api/api_c_stream.cc (rtsStreamGetAvailableNum: a chip feature) and
src/runtime/api/impl/api_error.cc / api_impl.cc (GetStreamId, GetAvailStreamNum,
GetAvailEventNum, GetEventID, EventQuery, EventQueryWaitStatus, GetDeviceSatStatus,
CleanDeviceSatStatus, StreamAbort, DeviceTaskAbort).
"""
from __future__ import annotations

from collections import deque

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import device_facts as facts
from acl_lab.sim import transfer
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task
from acl_lab.spec import device_rules as rules

OVERFLOW_BYTES = 64          # api_error.cc GetDeviceSatStatus: OVERFLOW_OUTPUT_SIZE


def _feature(rt, name: str, call: str) -> None:
    if name not in facts.chip(rt.profile.soc_name).features:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       _("{call} is not supported on {soc}.").format(
                           call=call, soc=rt.profile.soc_name))


# ----- counts and ids ----------------------------------------------------------------------
def available_streams(rt) -> int:
    """What the device has left to create: the chip's streams less the current device's
    (default streams included)."""
    call = "aclrtGetStreamAvailableNum"
    _feature(rt, facts.AVAILABLE_STREAMS, call)
    device = rt.require_ctx(call).device
    return max(0, facts.chip(rt.profile.soc_name).streams - len(rt.all_streams(device)))


def available_events(rt) -> int:
    device = rt.require_ctx("aclrtGetEventAvailNum").device
    used = sum(1 for e in rt.events.values() if e.device == device)
    return max(0, facts.chip(rt.profile.soc_name).events - used)


def event_id(rt, handle: int) -> int:
    """aclrtGetEventId: the simulator numbers events from 1 in the order they were created
    (a device numbers its own)."""
    from acl_lab.sim.process import EVENT_BASE, HANDLE_STEP
    rt.event(handle, "aclrtGetEventId")
    return (handle - EVENT_BASE) // HANDLE_STEP


def _queryable(rt, handle: int, call: str, new_mode_ok: bool):
    """An event these queries accept: not from aclrtCreateEventExWithFlag where the call
    refuses those, not EXTERNAL, not recorded inside a capture in progress."""
    e = rt.event(handle, call)
    if (e.ex and not new_mode_ok) or e.flags == C.ACL_EVENT_EXTERNAL:
        raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       _("{call}: event {event} comes from aclrtCreateEventExWithFlag or is an "
                         "ACL_EVENT_EXTERNAL event; the runtime does not answer this query "
                         "for it. Use acl.rt.query_event_status.").format(
                           call=call, event=f"0x{handle:x}"))
    rt.not_in_capture(e, call)
    rt.sched.now_us += rt.profile.rates.api_us        # polling takes host time
    return e


def query_event(rt, handle: int) -> int:
    """aclrtQueryEvent (deprecated): aclrtEventStatus, COMPLETE (0) once the record ran or
    if nothing was recorded (event.cpp aclrtQueryEventImpl)."""
    e = _queryable(rt, handle, "aclrtQueryEvent", new_mode_ok=False)
    done = e.stream is None or rt.sched.event_done(e)
    return C.ACL_EVENT_STATUS_COMPLETE if done else C.ACL_EVENT_STATUS_NOT_READY


def query_wait_status(rt, handle: int) -> int:
    """aclrtQueryEventWaitStatus: COMPLETE once every stream task waiting on the event has
    run by now (none waiting: COMPLETE; event.cc Event::QueryEventWaitStatus)."""
    _queryable(rt, handle, "aclrtQueryEventWaitStatus", new_mode_ok=False)
    waits = [(s, t) for s in rt.sched.queued_streams() for t in s.pending
             if t.kind == "wait" and t.detail.get("event") == handle]
    if any(t.end_us > rt.sched.now_us for _s, t in waits):
        return C.ACL_EVENT_WAIT_STATUS_NOT_READY
    for s, t in waits:
        rt.sched.run_until(s, t.seq)
    return C.ACL_EVENT_WAIT_STATUS_COMPLETE


# ----- the overflow status ------------------------------------------------------------------
def _status_stream(rt, stream: int, call: str):
    """A stream these tasks may use: of the current device, not capturing."""
    _feature(rt, facts.SAT_STATUS, call)
    s = rt.stream(stream, call)
    rt._not_capturing(s, call)
    return s


def get_overflow_status(rt, ptr: int, size: int, stream: int) -> None:
    """aclrtGetOverflowStatus: a task copies the 64 bytes of the device's overflow status to
    device memory at ``ptr`` (api_impl.cc GetDeviceSatStatus: a device-to-device copy). No
    simulated task overflows, so the status reads as zeros."""
    call = "aclrtGetOverflowStatus"
    if ptr == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: outputAddr is NULL (0).").format(call=call))
    if size != OVERFLOW_BYTES:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: outputSize {size} is not {need}; the status is exactly {need} "
                         "bytes.").format(call=call, size=size, need=OVERFLOW_BYTES))
    s = _status_stream(rt, stream, call)
    a = rt.memory.map.resolve(ptr, size, "outputAddr", call)
    if a.location != "device":
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: outputAddr {ptr} is host memory; the status is copied device "
                         "to device. Pass memory from acl.rt.malloc.").format(
                           call=call, ptr=f"0x{ptr:x}"))
    offset = ptr - a.ptr

    def write_zeros() -> None:
        a.write(offset, size, lambda view: view.fill(0), call)
    task = Task("overflow", rt.profile.rates.copy_us(C.ACL_MEMCPY_DEVICE_TO_DEVICE, size, True),
                run=write_zeros, nbytes=size, detail={"dst": ptr, "size": size}, uses=(a,))
    transfer.submit(rt, call, s, task, touches=((a, offset, size),))


def reset_overflow_status(rt, stream: int) -> None:
    """aclrtResetOverflowStatus: a task clears the device's overflow status."""
    call = "aclrtResetOverflowStatus"
    s = _status_stream(rt, stream, call)
    rt.issue(s, Task("overflow", rt.profile.rates.completion_us), call)


# ----- aborting queued work -------------------------------------------------------------------
def abort(rt, s) -> None:
    """Stop ``s`` now: the work due by now (modeled time) has run, the rest never will. Its
    tasks leave the queue and the timeline (they did not happen); the stream counts them
    done."""
    due = [t.seq for t in s.pending if t.end_us <= rt.sched.now_us]
    if due:
        rt.sched.run_until(s, due[-1])
    dropped = list(s.pending)
    if not dropped:
        return
    rt.capture.discard(dropped)
    rt.memory.ram.unreserve(dropped)
    rt.sched.pending_tasks -= len(dropped)
    s.pending.clear()
    s.executed = s.issued        # done, as a failed task is: it left the queue unrun
    s.t_end = min(s.t_end, rt.sched.now_us)
    gone = set(dropped)
    timeline = rt.sched.timeline
    rt.sched.timeline = deque((t for t in timeline if t not in gone), maxlen=timeline.maxlen)


def stream_abort(rt, handle: int) -> None:
    """aclrtStreamAbort: NULL is the current default stream (api_error.cc StreamAbort); a
    stream of another device is ACL_ERROR_RT_STREAM_CONTEXT (ApiImpl::StreamAbort)."""
    call = "aclrtStreamAbort"
    _feature(rt, facts.STREAM_ABORT, call)
    s = rt.stream(handle, call)
    rt._not_capturing(s, call)
    abort(rt, s)


def device_task_abort(rt, device: int, timeout_ms: int) -> None:
    """aclrtDeviceTaskAbort: every stream of ``device`` stops (api_error.cc DeviceTaskAbort:
    the chip feature first, then the timeout, then the device id). It finishes at once here,
    well within any timeout."""
    call = "aclrtDeviceTaskAbort"
    _feature(rt, facts.TASK_ABORT, call)
    rules.task_abort_timeout(call, timeout_ms)
    rt.check_device_id(device, call)
    for s in rt.all_streams(device):
        rt._not_capturing(s, call)
    for s in rt.all_streams(device):
        abort(rt, s)
