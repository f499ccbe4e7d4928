"""Chapter 07 checks: handing work between streams, pool segments per rule, a clean teardown."""
from __future__ import annotations

import acl_lab
from acl_lab.i18n import _
from acl_lab.pool import RULES, MemoryPool

from . import NotYet, exercise


HAND_OFF_HINT = ("Redo the cell above with two more calls after the upload: "
                 "acl.rt.record_event(uploaded, copy_stream), then "
                 "acl.rt.stream_wait_event(compute_stream, uploaded), then the multiply and "
                 "the download on compute_stream.")


@exercise("07.1", "Hand off between streams", HAND_OFF_HINT)
def hand_off(a: int, b: int, event: int):
    """``a`` uploads (copy_stream), ``b`` computes (compute_stream), ``event`` hands off."""
    snap = acl_lab.snapshot()
    e = next((e for e in snap["events"] if e["handle"] == event), None)
    if e is None or e["stream"] is None:
        raise NotYet(_("uploaded was never recorded. {hint}").format(hint=_(HAND_OFF_HINT)))
    if e["stream"] != a:
        raise NotYet(_("record uploaded on copy_stream, the stream that does the upload: "
                       "acl.rt.record_event(uploaded, copy_stream)."))
    timeline = snap["timeline"]
    uploads = [t for t in timeline if t["stream"] == a and t["kind"] == "memcpy"]
    if not uploads or uploads[-1]["end_us"] > e["recorded_at_us"]:
        raise NotYet(_("record uploaded after the upload's memcpy_async on copy_stream, so "
                       "that it marks the upload's end."))
    waits = [t for t in timeline if t["stream"] == b and t["kind"] == "wait"
             and t["start_us"] >= e["recorded_at_us"]]
    if not waits:
        raise NotYet(_("compute_stream never waited for uploaded's latest record: call "
                       "acl.rt.stream_wait_event(compute_stream, uploaded) after recording it, "
                       "before the multiply."))
    work = [t for t in timeline if t["stream"] == b and t["kind"] not in ("wait", "record")
            and t["start_us"] >= waits[-1]["end_us"]]
    if not work:
        raise NotYet(_("nothing ran on compute_stream after the wait: issue the multiply on "
                       "compute_stream after stream_wait_event."))
    return _("compute_stream started only once the upload on copy_stream was done.")


@exercise("07.2", "A media segment in the same pool",
          "scratch = pool.alloc(3000, name='scratch', rule='dvpp') gives a segment whose start "
          "is 128-byte aligned; check it while it is allocated.")
def dvpp_segment(pool: MemoryPool, ptr: int):
    seg = next((blk.segment for blk in pool.blocks()
                if blk.kind == "segment" and blk.segment.start == ptr), None)
    if seg is None:
        raise NotYet(_("scratch is not a live segment of this pool: scratch = "
                       "pool.alloc(3000, name='scratch', rule='dvpp'), freed only after the "
                       "check."))
    if seg.length < 3000:
        raise NotYet(_("the segment holds {length} B; ask for 3000.").format(length=seg.length))
    if seg.rule != "dvpp" or ptr % RULES["dvpp"]:
        raise NotYet(_("the segment follows the {rule} rule (start % 128 = {remainder}); media "
                       "processing needs rule='dvpp' (128-byte aligned start).").format(
            rule=seg.rule, remainder=ptr % 128))
    return _("m = ALIGN_UP(3000, 32) + 32 = {size} B at a 128-byte aligned start, in the same "
             "block as the runtime-rule segments.").format(size=seg.size)


TEARDOWN_HINT = ("Release in order: acl.mdl.ri_destroy(graph); acl.rt.destroy_stream for "
                 "copy_stream and compute_stream; acl.rt.destroy_event for each event in ev and uploaded; "
                 "acl.nn.destroy_tensor for each tensor in tensor, acl.nn.destroy_scalar(one); "
                 "pool.free each segment, then pool.close(); acl.rt.free_host(in_h) and (out_h); "
                 "acl.rt.reset_device(0); acl.finalize().")


@exercise("07.3", "Leave nothing behind", TEARDOWN_HINT)
def clean_teardown(acl):
    snap = acl_lab.snapshot()
    if snap["models"]:
        raise NotYet(_("a captured model is still alive (it uses the pool's memory). "
                       "{hint}").format(hint=_(TEARDOWN_HINT)))
    if snap["reports"]:
        raise NotYet(_("something was released for you instead of by you: {report}").format(
            report=snap["reports"][-1]))
    if snap["streams"] or snap["events"]:
        raise NotYet(_("{streams} stream(s) and {events} event(s) are still alive: destroy "
                       "them before resetting the device.").format(
            streams=len(snap["streams"]), events=len(snap["events"])))
    left = [a for a in snap["allocations"] if a["pool"] != "pageable"]
    if left:
        raise NotYet(_("{count} allocation(s) still live (e.g. {size} B from {api}): free the "
                       "segments, pool.close(), free_host.").format(
            count=len(left), size=left[0]["size"], api=left[0]["api"]))
    _device, ret = acl.rt.get_device()
    if ret == 0:
        raise NotYet(_("the device is still set: acl.rt.reset_device(0)."))
    if snap["initialized"]:
        raise NotYet(_("ACL is still initialized: acl.finalize()."))
    return _("everything released by you, in order: nothing leaked.")
