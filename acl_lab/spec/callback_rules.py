"""What a host callback must not call, and why: one rule, read by the simulator (which
reports such a call) and by chapter 08's exercise (which refuses it).

hicann/runtime docs/zh/api_ref/12_execution_control.md, aclrtLaunchCallback 约束说明: a
callback touches shared resources (locks), so it "should not call resource allocation,
resource release, stream synchronisation, device synchronisation, task submission or task
abort interfaces, otherwise errors or deadlock may follow". The runtime does not check it;
a copy the callback needs is queued with aclrtMemcpyAsync before aclrtLaunchCallback.
"""
from __future__ import annotations

import re

from acl_lab.i18n import _

#: C names a callback must not call: allocate or free, synchronize, submit or abort a task
#: (a synchronous aclrtMemcpy / aclrtMemset is a task the runtime submits and waits for)
_FORBIDDEN = re.compile(
    r"acl(rt|dvpp)(Malloc|Free)\w*|aclrt(Synchronize|Memcpy|Memset|LaunchCallback|"
    r"CreateStream|DestroyStream|StreamAbort|RecordEvent|StreamWaitEvent)\w*|"
    r"aclmdl(Execute|RIExecute)\w*|aclnn\w+|acldvpp\w*Async")


def forbidden_in_callback(c_name: str) -> bool:
    """May a host callback not call ``c_name`` ("aclrtMemcpy")?"""
    return _FORBIDDEN.fullmatch(c_name) is not None


def callback_misuse(c_name: str) -> str:
    """Why ``c_name`` does not belong in a callback, and what to do instead."""
    return _("{call} was called inside a host callback. A callback must not allocate or free "
             "memory, synchronize or submit tasks (aclrtLaunchCallback's constraints): on "
             "hardware it may fail or deadlock. Queue the work on the stream before "
             "aclrtLaunchCallback (a copy the callback reads: aclrtMemcpyAsync) and let the "
             "callback only read host memory.").format(call=c_name)
