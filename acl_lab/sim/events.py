"""The event calls of one simulated process (create, record, wait, synchronize, query,
time): Process inherits them, so they read its tables, scheduler and capture directly."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.hostram import OBJECT_BYTES
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Event, Task

EVENT_BASE = 0x3000_0000


class EventCalls:
    def create_event(self, flags: int | None = None, ex: bool = False,
                     call: str = "aclrtCreateEvent") -> int:
        ctx = self.require_ctx(call)
        self.memory.ram.need(OBJECT_BYTES, call, _("one more event"))
        e = Event(self._handle(EVENT_BASE), ctx.handle, ctx.device, flags, ex)
        self.events[e.handle] = e
        ctx.events.add(e.handle)
        return e.handle

    def event(self, handle: int, call: str) -> Event:
        self.require_ctx(call)
        return self._live(self.events, handle, _(
            "{call}: {handle} is not a live event. Use a handle from acl.rt.create_event() "
            "that has not been destroyed."), call)

    def destroy_event(self, handle: int) -> None:
        e = self.event(handle, "aclrtDestroyEvent")
        del self.events[handle]
        self.contexts[e.ctx].events.discard(handle)

    def record_event(self, handle: int, stream: int) -> None:
        e = self.event(handle, "aclrtRecordEvent")
        s = self.stream(stream, "aclrtRecordEvent")
        if self.capture.record_event(s, e, "aclrtRecordEvent"):
            return
        task = self.issue(s, Task("record", 0.0, detail={"event": handle}), "aclrtRecordEvent")
        if s.capture is None:       # an EXTERNAL event recorded into a model is not recorded now
            e.stream, e.seq, e.ts_us, e.recorded = s, task.seq, task.end_us, True

    def stream_wait_event(self, stream: int, handle: int) -> None:
        s = self.stream(stream, "aclrtStreamWaitEvent")
        e = self.event(handle, "aclrtStreamWaitEvent")
        if self.capture.wait_event(s, e, "aclrtStreamWaitEvent"):
            return
        if not (e.recorded or e.ex or (e.flags or 0) & (C.ACL_EVENT_SYNC | C.ACL_EVENT_EXTERNAL)):
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: event {event} has never been recorded, so there is "
                             "nothing to wait for. Record it first (acl.rt.record_event) on the "
                             "stream whose work must come first, then wait on it.").format(
                               call="aclrtStreamWaitEvent", event=f"0x{handle:x}"))
        # an event from aclrtCreateEventExWithFlag not recorded yet lets the stream go on at
        # once (Event::WaitSendCheck); a SYNC / EXTERNAL one is waited for its next record on
        # hardware, which the simulator does not model: it goes on at once too
        wait = (e.stream, e.seq, e.ts_us) if e.stream is not None else None
        # in a model, an EXTERNAL event's wait holds each replay until the event's latest
        # record outside the model has run (the official model_ri/1_model_update pattern)
        run = (lambda: e.stream is not None and self.sched.run_until(e.stream, e.seq)) \
            if s.capture is not None else None
        self.issue(s, Task("wait", 0.0, run=run, wait_for=wait, detail={"event": handle}),
                   "aclrtStreamWaitEvent")

    def synchronize_event(self, handle: int) -> None:
        call = "aclrtSynchronizeEvent"
        self.callbacks.notice(call)
        self.sched.wait_event(self.waitable_event(handle, call))

    def waitable_event(self, handle: int, call: str) -> Event:
        """An event the host may wait on or time: not EXTERNAL, not inside a capture in
        progress (ApiErrorDecorator::EventSynchronize / EventElapsedTime / EventGetTimeStamp)."""
        e = self.event(handle, call)
        if e.flags == C.ACL_EVENT_EXTERNAL:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           _("{call}: event {event} is an ACL_EVENT_EXTERNAL event; it exists to "
                             "order a model against work outside it, and the host cannot wait "
                             "on it or time it. Use an event without that flag.").format(
                               call=call, event=f"0x{handle:x}"))
        self.not_in_capture(e, call)
        return e

    def not_in_capture(self, e: Event, call: str) -> None:
        """The host may not wait on, time or query an event recorded inside a capture in
        progress (ApiErrorDecorator: ACL_ERROR_RT_EVENT_CAPTURED)."""
        cap = self.capture.event_capture(e)
        if cap is not None:
            raise SimError(C.ACL_ERROR_RT_EVENT_CAPTURED,
                           _("{call}: event {event} was recorded inside the capture of stream "
                             "{stream}, which is still in progress; its record runs only when "
                             "the model runs. End the capture first.").format(
                               call=call, event=f"0x{e.handle:x}",
                               stream=f"0x{cap.stream.handle:x}"))

    def query_event(self, handle: int) -> int:
        e = self.event(handle, "aclrtQueryEventStatus")
        self.sched.now_us += self.profile.rates.api_us    # polling takes host time
        # aclrtQueryEventStatus reports aclrtEventRecordedStatus (NOT_READY=0, COMPLETE=1);
        # an event never recorded is NOT_READY.
        done = e.stream is not None and self.sched.event_done(e)
        return C.ACL_EVENT_RECORDED_STATUS_COMPLETE if done else C.ACL_EVENT_RECORDED_STATUS_NOT_READY

    def elapsed_ms(self, start: int, end: int) -> float:
        call = "aclrtEventElapsedTime"
        a, b = self.waitable_event(start, call), self.waitable_event(end, call)
        for e in (a, b):
            if e.stream is None:
                raise SimError(C.ACL_ERROR_RT_INTERNAL_ERROR,
                               _("{call}: event {event} was never recorded. Record both events "
                                 "with acl.rt.record_event(event, stream) first.").format(
                                   call=call, event=f"0x{e.handle:x}"))
            if e.ts_us > self.sched.now_us:
                raise SimError(C.ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                               _("{call}: event {event} has not completed yet. Synchronize it "
                                 "(acl.rt.synchronize_event) before measuring.").format(
                                   call=call, event=f"0x{e.handle:x}"))
        for e in (a, b):    # checked first, so a refused call runs no queued work
            self.sched.event_done(e)
        return (b.ts_us - a.ts_us) / 1000.0
