"""aclrtLaunchHostFunc: a host function as a task of a stream (not in pyACL;
``acl.rt.launch_host_func`` by the kit's convention for unbound calls).

hicann/runtime src/acl/aclrt_impl/callback.cpp (aclrtLaunchHostFuncImpl), api_error.cc
ApiErrorDecorator::LaunchHostFunc (a NULL function is refused; a stream a thread subscribed
with aclrtSubscribeReport is ACL_ERROR_RT_STREAM_SUBSCRIBE: host functions and
launch_callback are not mixed on one stream) and api_impl.cc ApiImpl::LaunchHostFunc (the
runtime makes its own callback thread per context: no subscription, no process_report).
The function blocks the stream's later tasks until it returns; allocating, freeing,
synchronizing or launching inside it risks deadlock (the docs' warning: Callbacks.notice
reports such calls, as for launch_callback).

In the simulator the thread that waits for the stream plays the runtime's callback thread:
the function runs when the stream reaches it, in stream order, in modeled time.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.callbacks import Report
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task


def launch(rt, stream: int, fn, args) -> None:
    call = "aclrtLaunchHostFunc"
    s = rt.stream(stream, call)
    if s in rt.callbacks.by_stream:
        raise SimError(C.ACL_ERROR_RT_STREAM_SUBSCRIBE, _(
            "{call}: stream {stream} reports to a thread of yours (acl.rt.subscribe_report): "
            "host functions and launch_callback are not mixed on one stream. Use another "
            "stream, or launch_callback.").format(call=call, stream=f"0x{s.handle:x}"))
    report = Report(fn, args, s.handle, True, sched=rt.sched)
    report.task = rt.issue(s, Task("host_func", rt.profile.rates.api_us, run=report.run,
                                   detail={"block": True}), call)
