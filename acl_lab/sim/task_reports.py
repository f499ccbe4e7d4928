"""Which thread issued which task, and what a task that failed on the device reports.

aclrtGetThreadLastTaskId answers the id of the last task the calling thread issued to a
stream it created (docs: "由用户显式创建的Stream上下发的Task"). A task that fails on the device
(a media engine that cannot read its picture, a notify wait that timed out) is reported to
the callback aclrtSetExceptionInfoCallback set, with an aclrtExceptionInfo the
aclrtGet*FromExceptionInfo calls read: valid only while the callback runs (docs:
"仅在本次回调执行期间有效"), as the runtime does (src/acl/aclrt_impl/callback.cpp; pyACL's
rt_synchronize.cpp InfoCallback passes the info as an int). The callback runs on the thread
that found the failure, when its wait reached the task (deferred execution), before that
wait returns the task's code.

Ids: a task's id is its position on its stream (1, 2, ...); threads are numbered 1, 2, ... in
the order they first issue a task (a real thread id is the OS's, and would differ run to
run); a stream's id is aclrtStreamGetId's (runtime_settings.stream_id).
"""
from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass

from acl_lab.i18n import _
from acl_lab.sim.runtime_settings import stream_id
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.support import interrupts, threads

INFO_BASE, INFO_STEP = 0x6A00_0000, 0x40


@dataclass(frozen=True)
class ExceptionInfo:
    task_id: int
    stream_id: int
    thread_id: int
    device_id: int
    error_code: int


class TaskReports:
    def __init__(self, rt):
        self.rt = rt
        self.callback = None
        self.infos: dict[int, ExceptionInfo] = {}     # live while their callback runs
        self._numbers: dict[int, int] = {}            # thread ident -> its number
        self._last = threads.Local()                  # .task_id per thread
        self._count = 0

    # ----- who issued what --------------------------------------------------------------
    def thread_number(self) -> int:
        me = threads.get_ident()
        number = self._numbers.get(me)
        if number is None:
            number = self._numbers[me] = len(self._numbers) + 1
        return number

    def issued(self, stream, task) -> None:
        """A task was queued on ``stream`` by this thread (Process.issue)."""
        task.thread = self.thread_number()
        if not stream.default:
            self._last.task_id = task.seq

    def last_task_id(self) -> int:
        return self._last.get("task_id", 0)

    # ----- failures ---------------------------------------------------------------------
    def set_callback(self, fn) -> None:
        """aclrtSetExceptionInfoCallback: the last one set wins; None clears it (pyACL)."""
        if fn is not None and not callable(fn):
            raise TypeError("acl.rt.set_exception_info_callback args parse failed")
        self.callback = fn

    def failed(self, stream, task, error: SimError) -> None:
        """``task`` on ``stream`` failed on the device with ``error``: the callback, if any,
        gets the exception information for as long as it runs. A callback that raises is
        reported and dropped, as pyACL drops its function when the call fails."""
        fn = self.callback
        if fn is None:
            return
        self._count += 1
        handle = INFO_BASE + self._count * INFO_STEP
        self.infos[handle] = ExceptionInfo(task.seq, stream_id(stream), task.thread,
                                           stream.device, error.code & 0xFFFF_FFFF)
        try:
            _run(fn, handle)
        except Exception:           # the learner's function must not take the wait down
            self.callback = None
            print("[acl_lab] " + _("the exception callback raised and was removed, as pyACL "
                                   "removes it:") + "\n" + traceback.format_exc(), file=sys.stderr)
        finally:
            del self.infos[handle]

    def info(self, handle: int, call: str) -> ExceptionInfo:
        return handles.live(self.infos, handle, call, _(
            "{call}: {handle} is not the aclrtExceptionInfo of a callback that is running; "
            "the runtime's pointer is valid only while the exception callback runs, so read "
            "it there."), _("{call}: info is NULL (0)."))


@interrupts.uncritical      # the learner's function: Ctrl-C stops it at once
def _run(fn, handle: int) -> None:
    fn(handle)
