"""Chapter 01 checks: contexts per thread, timing with events, release order."""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import _

from . import NotYet, exercise


@exercise("01.1", "A context for the worker thread",
          "A new thread has no current context: in the worker, call "
          "acl.rt.set_context(default_ctx) before acl.rt.create_stream().")
def worker_stream(acl, out: dict):
    ret = out.get("ret")
    if not isinstance(ret, int):
        raise NotYet(_("the worker did not store the ret of acl.rt.create_stream() in "
                       "out_dict['ret']: keep the cell's last line of the worker."))
    if ret != C.ACL_SUCCESS:
        raise NotYet(_("create_stream in the worker returned {error}. The current context is "
                       "per thread: in the worker, call acl.rt.set_context(default_ctx) before "
                       "acl.rt.create_stream().").format(error=explain(ret).split(":")[0]))
    stream = out["stream"]
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


@exercise("01.2", "One stream waits for another",
          "After the memset: acl.rt.record_event(ready, producer), then "
          "acl.rt.stream_wait_event(consumer, ready); the copy on consumer then waits.")
def cross_stream_order(acl, out: int, producer: int, consumer: int):
    calls = list(acl_lab.tracer().calls)
    fill = _last(calls, "rt.memset_async", producer)
    copy = _last(calls, "rt.memcpy_async", consumer)
    if fill < 0 or copy < fill:
        raise NotYet(_("run the whole cell: the memset on producer, then the copy on "
                       "consumer."))
    if not _waits_between(calls, fill, copy, producer, consumer):
        raise NotYet(_("consumer does not wait for producer: after the memset, call "
                       "acl.rt.record_event(ready, producer), then "
                       "acl.rt.stream_wait_event(consumer, ready), before the copy. "
                       "Synchronizing producer from the host would work too, but it blocks the "
                       "host; the event keeps the ordering on the device."))
    seen = list(acl.util.ptr_to_bytes(out, 8))
    assert seen == [9] * 8
    return _("consumer copied only after producer's memset, and the host never waited for "
             "it.")


RELEASE_HINT = ("Release in reverse order of creation: acl.rt.destroy_event(e), "
                "acl.rt.destroy_stream(s), acl.rt.free(buf), then acl.rt.reset_device(0), "
                "then acl.finalize().")


@exercise("01.3", "Release in order", RELEASE_HINT)
def released(acl):
    snap = acl_lab.snapshot()
    if snap["reports"]:
        raise NotYet(_("something was released for you: {report}").format(
            report=snap["reports"][0]))
    if any(d["open"] for d in snap["devices"].values()):
        raise NotYet(_("device 0 is still set. {hint}").format(hint=_(RELEASE_HINT)))
    if snap["initialized"]:
        raise NotYet(_("AscendCL is still initialized: acl.finalize() comes last."))
    assert not snap["streams"] and not snap["allocations"]
    return _("streams, memory, device and process released in order, nothing leaked.")
