"""Host callbacks on streams: aclrtSubscribeReport / LaunchCallback / ProcessReport /
UnSubscribeReport, and pyACL's acl.util.start_thread / stop_thread.

A callback is a task in stream order. When the stream reaches it (deferred execution:
when someone waits on the stream, or when the subscribed thread asks for its next report),
the host function is handed to the thread subscribed to that stream, which runs it inside
acl.rt.process_report. A blocking callback (ACL_CALLBACK_BLOCK) holds the stream until the
function returned. Rules and codes as hicann/runtime: src/acl/aclrt_impl/callback.cpp
(block type, timeout checks), src/runtime/api/impl/api_impl.cc ApiImpl::CallbackLaunch
(an unsubscribed stream is ACL_ERROR_RT_STREAM_NO_CB_REG), api_error.cc ProcessReport and
src/runtime/core/src/utils/subscribe.cc CbSubscribe::Insert/Delete (a stream subscribed
twice ACL_ERROR_RT_STREAM_SUBSCRIBE, a thread that has no such subscription
ACL_ERROR_RT_THREAD_SUBSCRIBE), api_c.cc (no report in time: ACL_ERROR_RT_REPORT_TIMEOUT).
"""
from __future__ import annotations

import sys
import threading
import time
import traceback
from collections import deque
from contextlib import nullcontext
from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.support import interrupts
from acl_lab.support import threads
from acl_lab.i18n import _
from acl_lab.spec.callback_rules import callback_misuse, forbidden_in_callback
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Stream, Task

#: longest a stream waits (real seconds) for its subscribed thread to take a blocking
#: callback; real hardware would hang for ever, the kernel must not
HANDOFF_LIMIT_S = 10.0
#: longest a start_thread worker's process_report waits for its first subscription
WORKER_GRACE_S = 0.1


def _name(ident: int) -> str:
    """A thread's name (stable across runs, unlike its ident) for messages."""
    found = next((t.name for t in threading.enumerate() if t.ident == ident), None)
    return repr(found) if found else _("{ident} (not a running thread)").format(ident=ident)


@dataclass(eq=False)
class Report:
    fn: object
    user_data: object
    stream: int
    block: bool
    delivered: bool = False     # handed to the thread (a stream task re-run after Ctrl-C
    done: bool = False          # must not hand it over twice)
    task: Task | None = None    # its task on the stream: when the stream reached it
    sched: object = None        # the scheduler whose clock the callback's calls run on

    @interrupts.uncritical      # the learner's function: Ctrl-C stops it at once
    def run(self) -> None:
        issued = self.task is not None and self.task.end_us > 0    # not one a capture recorded
        clock = (self.sched.callback_clock(self.task.start_us) if issued and self.sched
                 else nullcontext())
        me = threads.get_ident()
        _RUNNING.add(me)
        try:
            with clock:         # its calls happen when the stream reached it, in modeled time
                self.fn(self.user_data)
        except Exception:       # a failing callback must not take the thread down
            print("[acl_lab] " + _("a callback raised:") + "\n" + traceback.format_exc(),
                  file=sys.stderr)
        finally:
            _RUNNING.discard(me)


#: threads running a callback now (Callbacks.notice says what they must not call)
_RUNNING: set[int] = set()


@dataclass(eq=False)
class Subscriber:
    thread: int
    device: int
    streams: set = field(default_factory=set)
    inbox: deque = field(default_factory=deque)
    #: let a blocking callback wait HANDOFF_LIMIT_S without calling process_report: later
    #: ones go on at once (no 10 s each) until it calls process_report again
    unresponsive: bool = False


class Callbacks:
    def __init__(self, rt):
        self.rt = rt
        self.cond = threading.Condition(rt.lock)
        self.by_thread: dict[int, Subscriber] = {}
        self.by_stream: dict[Stream, int] = {}       # stream -> subscribed thread id
        self.subscribed_once: set[int] = set()       # threads ever subscribed
        self.ended = False

    def end(self) -> None:
        """The process ends (acl_lab.reset): no thread waits on it any longer."""
        self.ended = True
        self.by_thread.clear()
        self.by_stream.clear()
        self.cond.notify_all()

    def notice(self, call: str) -> None:
        """``call`` (a C name) is about to run: inside a callback, report what the docs
        forbid there (spec/callback_rules.py); the runtime does not check, so it still runs."""
        if _RUNNING and threads.get_ident() in _RUNNING and forbidden_in_callback(call):
            self.rt.report(callback_misuse(call))

    def waiting(self) -> int:
        """Callbacks handed to threads and not yet taken by process_report."""
        return sum(len(sub.inbox) for sub in self.by_thread.values())

    def _stream(self, handle: int, call: str) -> Stream:
        return self.rt.stream(handle, call)

    def subscribe(self, thread: int, handle: int) -> None:
        call = "aclrtSubscribeReport"
        s = self._stream(handle, call)
        if s in self.by_stream:
            raise SimError(C.ACL_ERROR_RT_STREAM_SUBSCRIBE,
                           _("{call}: stream {stream} is already subscribed by thread {thread}. "
                             "A stream reports to one thread; unsubscribe it first.").format(
                               call=call, stream=f"0x{s.handle:x}",
                               thread=_name(self.by_stream[s])))
        sub = self.by_thread.get(thread)
        if sub is not None and sub.device != s.device:
            raise SimError(C.ACL_ERROR_RT_THREAD_SUBSCRIBE,
                           _("{call}: thread {thread} already handles streams of device "
                             "{device}; stream {stream} is on device {other}. Use another thread "
                             "for that device.").format(
                               call=call, thread=_name(thread), device=sub.device,
                               stream=f"0x{s.handle:x}", other=s.device))
        sub = sub or self.by_thread.setdefault(thread, Subscriber(thread, s.device))
        self.subscribed_once.add(thread)
        sub.streams.add(s)
        self.by_stream[s] = thread

    def unsubscribe(self, thread: int, handle: int) -> None:
        call = "aclrtUnSubscribeReport"
        s = self._stream(handle, call)
        owner = self.by_stream.get(s)
        if owner is None:
            raise SimError(C.ACL_ERROR_RT_STREAM_SUBSCRIBE,
                           _("{call}: stream {stream} is not subscribed by any thread.").format(
                               call=call, stream=f"0x{s.handle:x}"))
        if owner != thread:
            raise SimError(C.ACL_ERROR_RT_THREAD_SUBSCRIBE,
                           _("{call}: stream {stream} is subscribed by thread {owner}, not "
                             "{thread}.").format(call=call, stream=f"0x{s.handle:x}",
                                                 owner=_name(owner), thread=_name(thread)))
        self.rt.sched.wait_stream(s)        # its callbacks are delivered and run before it
        sub = self.by_thread[thread]        # unbinds (CbSubscribe::Delete waits for them)
        self._wait_for(thread, lambda: not any(r.stream == s.handle for r in sub.inbox),
                       _("unsubscribing stream {stream}").format(stream=f"0x{s.handle:x}"))
        sub.streams.discard(s)
        del self.by_stream[s]
        if not sub.streams and not sub.inbox:
            del self.by_thread[thread]
        self.cond.notify_all()

    def launch(self, fn, user_data, block_type: int, handle: int) -> None:
        call = "aclrtLaunchCallback"
        if block_type not in (C.ACL_CALLBACK_NO_BLOCK, C.ACL_CALLBACK_BLOCK):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: blockType {block_type} is neither ACL_CALLBACK_NO_BLOCK (0) "
                             "nor ACL_CALLBACK_BLOCK (1).").format(call=call,
                                                                  block_type=block_type))
        s = self._stream(handle, call)
        if s not in self.by_stream:
            raise SimError(C.ACL_ERROR_RT_STREAM_NO_CB_REG,
                           _("{call}: stream {stream} is not bound to any thread, so no one "
                             "would run the callback. Start a thread that loops on "
                             "acl.rt.process_report(timeout) and bind it with "
                             "acl.rt.subscribe_report(thread_id, stream) first.").format(
                               call=call, stream=f"0x{s.handle:x}"))
        report = Report(fn, user_data, s.handle, block_type == C.ACL_CALLBACK_BLOCK,
                        sched=self.rt.sched)
        report.task = self.rt.issue(s, Task("callback", self.rt.profile.rates.api_us,
                                            run=lambda: self._deliver(s, report),
                                            detail={"block": report.block}), call)

    def _deliver(self, s: Stream, report: Report) -> None:
        """The stream reached the callback: hand it to the subscribed thread (and, for a
        blocking one, wait until it ran)."""
        thread = self.by_stream.get(s)
        sub = self.by_thread.get(thread)
        if sub is None:
            self.rt.report(_("a callback on stream {stream} was dropped: the stream was "
                             "unsubscribed before it ran.").format(stream=f"0x{s.handle:x}"))
            return
        if not report.delivered:
            sub.inbox.append(report)
            report.delivered = True
            self.cond.notify_all()
        if report.block:
            self._wait_for(thread, lambda: report.done, _("a blocking callback on stream "
                                                          "{stream}").format(
                                                              stream=f"0x{s.handle:x}"))

    def _wait_for(self, thread: int, done, what: str) -> None:
        """Wait (lock released) until ``done()``, while ``thread`` lives and for at most
        HANDOFF_LIMIT_S; a thread never waits for itself, nor again for one that let such a
        wait run out without calling process_report. Ctrl-C ends the wait at once."""
        sub = self.by_thread.get(thread)
        if thread == threads.get_ident() or done():
            return
        if sub is not None and sub.unresponsive:
            self.rt.report(_("{what} went on without waiting: thread {thread} has not called "
                             "acl.rt.process_report since an earlier callback waited for it "
                             "in vain.").format(what=what, thread=_name(thread)))
            return
        deadline = time.monotonic() + HANDOFF_LIMIT_S
        while not done():
            interrupts.checkpoint()
            alive = any(t.ident == thread and t.is_alive() for t in threading.enumerate())
            if not alive or time.monotonic() > deadline:
                text = (_("{what} waited for thread {thread}, which is gone without calling "
                          "acl.rt.process_report; going on without it (on hardware it would "
                          "hang).") if not alive else
                        _("{what} waited for thread {thread}, which never called "
                          "acl.rt.process_report; going on without it (on hardware it would "
                          "hang)."))
                self.rt.report(text.format(what=what, thread=_name(thread)))
                if sub is not None and alive:
                    sub.unresponsive = True
                return
            self.cond.wait(0.05)

    def next_report(self, timeout_ms: int) -> Report:
        """The next callback handed to this thread, waiting up to ``timeout_ms`` real
        milliseconds (-1: until one comes). Callbacks arrive when their stream reaches them,
        i.e. when some thread waits for that stream (deferred execution keeps results
        deterministic: the device never runs ahead on its own)."""
        call = "aclrtProcessReport"
        if timeout_ms < -1 or timeout_ms == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: timeout {timeout} ms is invalid: use -1 (wait until a "
                             "callback comes) or a positive number of milliseconds.").format(
                               call=call, timeout=timeout_ms))
        me = threads.get_ident()
        end = None if timeout_ms == -1 else time.monotonic() + timeout_ms / 1000
        # a start_thread worker never subscribed yet waits a moment for its subscription: the
        # usual start_thread-then-subscribe_report must not race (the trace stays the same)
        grace = time.monotonic() + min(WORKER_GRACE_S, timeout_ms / 1000 if end else 1e9) \
            if me not in self.subscribed_once and hasattr(threading.current_thread(),
                                                          "acl_lab_process") else 0.0
        while True:
            interrupts.checkpoint()
            if self.ended:
                if getattr(threading.current_thread(), "acl_lab_process", None) is self.rt:
                    raise SystemExit    # a start_thread worker ends quietly with its process
                raise SimError(C.ACL_ERROR_RT_THREAD_SUBSCRIBE,
                               _("{call}: the process this thread served ended "
                                 "(acl_lab.reset).").format(call=call))
            sub = self.by_thread.get(me)
            if sub is None and time.monotonic() < grace:
                self.cond.wait(grace - time.monotonic())
                continue
            if sub is None:     # at once, as CbSubscribe::GetGroupIdByThreadId answers
                self.cond.wait(0.001)   # a loop on an unsubscribed thread leaves others a turn
                raise SimError(C.ACL_ERROR_RT_THREAD_SUBSCRIBE,
                               _("{call}: this thread ({thread}) is not subscribed to any "
                                 "stream. Bind it first: acl.rt.subscribe_report(thread_id, "
                                 "stream).").format(call=call, thread=_name(me)))
            sub.unresponsive = False
            if sub.inbox:
                return sub.inbox.popleft()
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                raise SimError(C.ACL_ERROR_RT_REPORT_TIMEOUT,
                               _("{call}: no callback arrived within {timeout} ms (a normal "
                                 "answer while waiting in a loop).").format(call=call,
                                                                            timeout=timeout_ms))
            self.cond.wait(min(left, 0.1) if left is not None else 0.1)

    def finished(self, report: Report) -> None:
        """The callback returned: the host has seen it end, so the host clock is at least
        its task's end (set before the thread waiting for the stream goes on, so the
        worker's next call starts at the same modeled time whichever thread runs first)."""
        if report.task is not None and report.task.end_us > 0:
            sched = self.rt.sched
            sched.now_us = max(sched.now_us, report.task.end_us)
        report.done = True
        self.cond.notify_all()
