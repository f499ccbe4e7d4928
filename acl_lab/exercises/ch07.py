"""Chapter 07 checks: handing work between streams, pool segments per rule, a clean teardown."""
from __future__ import annotations

import acl_lab
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
        raise NotYet(f"uploaded was never recorded. {HAND_OFF_HINT}")
    if e["stream"] != a:
        raise NotYet("record uploaded on copy_stream, the stream that does the upload: "
                     "acl.rt.record_event(uploaded, copy_stream).")
    timeline = snap["timeline"]
    uploads = [t for t in timeline if t["stream"] == a and t["kind"] == "memcpy"]
    if not uploads or uploads[-1]["end_us"] > e["recorded_at_us"]:
        raise NotYet("record uploaded after the upload's memcpy_async on copy_stream, so that "
                     "it marks the upload's end.")
    waits = [t for t in timeline if t["stream"] == b and t["kind"] == "wait"
             and t["start_us"] >= e["recorded_at_us"]]
    if not waits:
        raise NotYet("compute_stream never waited for uploaded's latest record: call "
                     "acl.rt.stream_wait_event(compute_stream, uploaded) after recording it, "
                     "before the multiply.")
    work = [t for t in timeline if t["stream"] == b and t["kind"] not in ("wait", "record")
            and t["start_us"] >= waits[-1]["end_us"]]
    if not work:
        raise NotYet("nothing ran on compute_stream after the wait: issue the multiply on "
                     "compute_stream after stream_wait_event.")
    return "compute_stream started only once the upload on copy_stream was done."


@exercise("07.2", "A media segment in the same pool",
          "scratch = pool.alloc(3000, name='scratch', rule='dvpp') gives a segment whose start "
          "is 128-byte aligned; check it while it is allocated.")
def dvpp_segment(pool: MemoryPool, ptr: int):
    seg = next((blk.segment for blk in pool.blocks()
                if blk.kind == "segment" and blk.segment.start == ptr), None)
    if seg is None:
        raise NotYet("scratch is not a live segment of this pool: scratch = "
                     "pool.alloc(3000, name='scratch', rule='dvpp'), freed only after the check.")
    if seg.length < 3000:
        raise NotYet(f"the segment holds {seg.length} B; ask for 3000.")
    if seg.rule != "dvpp" or ptr % RULES["dvpp"]:
        raise NotYet(f"the segment follows the {seg.rule} rule (start % 128 = {ptr % 128}); "
                     f"media processing needs rule='dvpp' (128-byte aligned start).")
    return (f"m = ALIGN_UP(3000, 32) + 32 = {seg.size} B at a 128-byte aligned start, in the "
            f"same block as the runtime-rule segments.")


TEARDOWN_HINT = ("Release in order: acl.mdl.ri_destroy(graph); acl.rt.destroy_stream for "
                 "copy_stream and compute_stream; acl.rt.destroy_event for each event in ev and uploaded; "
                 "acl.nn.destroy_tensor for each tensor in tensor, acl.nn.destroy_scalar(one); "
                 "pool.free each segment, then pool.close(); acl.rt.free_host(in_h) and (out_h); "
                 "acl.rt.reset_device(0); acl.finalize().")


@exercise("07.3", "Leave nothing behind", TEARDOWN_HINT)
def clean_teardown(acl):
    snap = acl_lab.snapshot()
    if snap["models"]:
        raise NotYet(f"a captured model is still alive (it uses the pool's memory). "
                     f"{TEARDOWN_HINT}")
    if snap["reports"]:
        raise NotYet("something was released for you instead of by you: "
                     + snap["reports"][-1])
    if snap["streams"] or snap["events"]:
        raise NotYet(f"{len(snap['streams'])} stream(s) and {len(snap['events'])} event(s) "
                     f"are still alive: destroy them before resetting the device.")
    left = [a for a in snap["allocations"] if a["pool"] != "pageable"]
    if left:
        raise NotYet(f"{len(left)} allocation(s) still live (e.g. {left[0]['size']} B from "
                     f"{left[0]['api']}): free the segments, pool.close(), free_host.")
    _device, ret = acl.rt.get_device()
    if ret == 0:
        raise NotYet("the device is still set: acl.rt.reset_device(0).")
    if snap["initialized"]:
        raise NotYet("ACL is still initialized: acl.finalize().")
    return "everything released by you, in order: nothing leaked."
