"""Chapter 01 checks: contexts per thread, ordering streams with events, release order."""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import _

from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name, start_handles


def _main_context(acl):
    """01.1: the context set_device made current on the main thread."""
    ctx, ret = acl.rt.get_context()
    acl_lab.check(ret)
    return ctx


@exercise("01.1", "A context for the worker thread",
          "A new thread starts with no current context, so create_stream there fails with "
          "107002 (ACL_ERROR_RT_CONTEXT_NULL). Which context does the main thread have, and "
          "how does another thread make a context its own?",
          level="medium",
          more=("In the worker, before acl.rt.create_stream(), make the main thread's context, "
                "default_ctx, current for this thread (aclrtSetContext).",),
          setup=_main_context,
          solution="""
          acl.rt.set_context(default_ctx)          # the current context is per thread
          """)
def worker_stream(acl, out: dict):
    out_name = learner_name(out, "worker_result")
    ret = out.get("ret")
    if not isinstance(ret, int):
        raise NotYet(_("the worker did not store the ret of acl.rt.create_stream() in "
                       "{out}['ret']: keep the worker's last line.").format(out=out_name))
    if ret != C.ACL_SUCCESS:
        error = explain(ret).split(":")[0]
        ctx = learner_name(start_handles(), "default_ctx")
        raise NotYet(_("create_stream in the worker returned {error}: that thread has no "
                       "current context. The current context is per thread.").format(
                           error=error),
                     _("create_stream in the worker returned {error}. In the worker, call "
                       "acl.rt.set_context({ctx}) before acl.rt.create_stream().").format(
                           error=error, ctx=ctx))
    stream = out.get("stream")
    assert any(s["handle"] == stream for s in acl_lab.snapshot()["streams"])
    return _("the worker made ctx current and created stream {stream}.").format(
        stream=f"0x{stream:x}")


def _last(calls, name: str, stream: int) -> int:
    """Index of the last successful ``name`` call whose stream (last argument) is ``stream``."""
    return max((i for i, c in enumerate(calls) if c.name == name and c.args[-1:] == (stream,)
                and c.ret == C.ACL_SUCCESS), default=-1)


def _waits_between(calls, lo: int, hi: int, producer: int, consumer: int) -> bool:
    """Between ``lo`` and ``hi``: an event recorded on producer, then consumer waiting on it."""
    recorded = set()
    for c in calls[lo + 1:hi]:
        if c.ret != C.ACL_SUCCESS:
            continue
        if c.name == "rt.record_event" and c.args[1:] == (producer,):
            recorded.add(c.args[0])
        elif c.name == "rt.stream_wait_event" and c.args[0] == consumer \
                and c.args[1] in recorded:
            return True
    return False


def _two_streams(acl):
    """01.2: producer, consumer, the device buffer they share, a pinned out, an event."""
    producer, _r = acl.rt.create_stream()
    consumer, _r = acl.rt.create_stream()
    shared, _r = acl.rt.malloc(8, C.ACL_MEM_MALLOC_HUGE_FIRST)
    out, _r = acl.rt.malloc_host(8)
    ready, _r = acl.rt.create_event()
    return producer, consumer, shared, out, ready


@exercise("01.2", "One stream waits for another",
          "consumer must not run its copy before producer's memset has run, and the host must "
          "not wait in between. An event marks a point on one stream; another stream can be "
          "told to wait for that point.",
          level="medium",
          more=("After the memset: record the event ready on producer (aclrtRecordEvent), then "
                "make consumer wait for it (aclrtStreamWaitEvent), before the copy is "
                "issued.",),
          setup=_two_streams,
          solution="""
          acl.rt.record_event(ready, producer)           # marks "memset done" on producer
          acl.rt.stream_wait_event(consumer, ready)      # consumer's later tasks wait for it
          """)
def cross_stream_order(acl, out: int, producer: int, consumer: int):
    calls = calls_since_start()
    fill = _last(calls, "rt.memset_async", producer)
    copy = _last(calls, "rt.memcpy_async", consumer)
    names = {"producer": learner_name(producer, "producer"),
             "consumer": learner_name(consumer, "consumer")}
    if fill < 0 or copy < fill:
        raise NotYet(_("run the whole cell: the memset on {producer}, then the copy on "
                       "{consumer}.").format(**names))
    if not _waits_between(calls, fill, copy, producer, consumer):
        handles = start_handles()
        ready = learner_name(handles[4], "ready") if isinstance(handles, tuple) else "ready"
        raise NotYet(_("{consumer} does not wait for {producer} yet: its copy may run before "
                       "the memset. Synchronizing {producer} from the host would work, but it "
                       "blocks the host; an event keeps the order on the device.").format(
                           **names),
                     _("{consumer} does not wait for {producer} yet. After the memset, call "
                       "acl.rt.record_event({ready}, {producer}), then "
                       "acl.rt.stream_wait_event({consumer}, {ready}), before the copy.").format(
                           ready=ready, **names))
    seen = list(acl.util.ptr_to_bytes(out, 8))
    assert seen == [9] * 8
    return _("consumer copied only after producer's memset, and the host never waited for "
             "it.")


def _to_release(acl):
    """01.3: a stream, an event and a device buffer to release."""
    s, _r = acl.rt.create_stream()
    e, _r = acl.rt.create_event()
    buf, _r = acl.rt.malloc(1024, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return s, e, buf


@exercise("01.3", "Release in order",
          "Release in the reverse order of creation: what the process made last goes first; "
          "the device, then the process, come last. Whatever reset_device has to clean up for "
          "you is reported as a leak.",
          level="easy",
          more=("Each object you hold has its partner call: buf (device memory) aclrtFree, "
                "s (a stream) aclrtDestroyStream, e (an event) aclrtDestroyEvent. Release all "
                "three yourself; only then reset device 0, and finalize AscendCL last.",
                "The order: destroy the event, destroy the stream, free the buffer, reset "
                "device 0, then finalize."),
          setup=_to_release, needs=None,
          solution="""
          acl.rt.destroy_event(e)                  # reverse order of creation
          acl.rt.destroy_stream(s)
          acl.rt.free(buf)
          acl.rt.reset_device(0)                   # the device after what lives on it
          acl.finalize()                           # the process last
          """)
def released(acl):
    snap = acl_lab.snapshot()
    if snap["reports"]:
        raise NotYet(_("something was released for you: {report}").format(
            report=snap["reports"][0]))
    if any(d["open"] for d in snap["devices"].values()):
        raise NotYet(_("device 0 is still set: reset it once what lives on it is released, "
                       "then finalize."))
    if snap["initialized"]:
        raise NotYet(_("AscendCL is still initialized: acl.finalize() comes last."))
    assert not snap["streams"] and not snap["allocations"]
    return _("streams, memory, device and process released in order, nothing leaked.")
