"""Chapter 07 checks: handing work between streams, pool segments per rule, a clean teardown."""
from __future__ import annotations

import acl_lab
from acl_lab.pool import RULES

from . import NotYet, exercise


@exercise("07.1", "Hand off between streams",
          "Upload on stream a, record the event on a after the upload, make stream b wait for "
          "it (acl.rt.stream_wait_event(b, event)), then compute on b: pass (a, b, event).")
def hand_off(a, b, event):
    snap = acl_lab.snapshot()
    e = next((e for e in snap["events"] if e["handle"] == event), None)
    if e is None or e["stream"] is None:
        raise NotYet("the event was never recorded: acl.rt.record_event(event, a) after the "
                     "upload.")
    if e["stream"] != a:
        raise NotYet("record the event on stream a, the stream that does the upload.")
    timeline = snap["timeline"]
    uploads = [t for t in timeline if t["stream"] == a and t["kind"] == "memcpy"]
    if not uploads or uploads[-1]["end_us"] > e["recorded_at_us"]:
        raise NotYet("the event must be recorded after the upload on stream a, so that it "
                     "marks the upload's end.")
    waits = [t for t in timeline if t["stream"] == b and t["kind"] == "wait"
             and t["start_us"] >= e["recorded_at_us"]]
    if not waits:
        raise NotYet("stream b never waited for the event's latest record: call "
                     "acl.rt.stream_wait_event(b, event) after recording it, before the compute.")
    work = [t for t in timeline if t["stream"] == b and t["kind"] not in ("wait", "record")
            and t["start_us"] >= waits[-1]["end_us"]]
    if not work:
        raise NotYet("nothing ran on stream b after the wait: issue the compute on b after "
                     "stream_wait_event.")
    return "stream b started only once the upload on stream a was done."


@exercise("07.2", "A media segment in the same pool",
          "pool.alloc(3000, name='scratch', rule='dvpp') gives a segment whose start is "
          "128-byte aligned; pass (pool, ptr) while it is allocated.")
def dvpp_segment(pool, ptr):
    seg = next((blk.segment for blk in pool.blocks()
                if blk.kind == "segment" and blk.segment.start == ptr), None)
    if seg is None:
        raise NotYet("ptr is not a live segment of this pool: use the address pool.alloc "
                     "returned, and free it only after the check.")
    if seg.length < 3000:
        raise NotYet(f"the segment holds {seg.length} B; ask for 3000.")
    if seg.rule != "dvpp" or ptr % RULES["dvpp"]:
        raise NotYet(f"the segment follows the {seg.rule} rule (start % 128 = {ptr % 128}); "
                     f"media processing needs rule='dvpp' (128-byte aligned start).")
    return (f"m = ALIGN_UP(3000, 32) + 32 = {seg.size} B at a 128-byte aligned start, in the "
            f"same block as the runtime-rule segments.")


@exercise("07.3", "Leave nothing behind",
          "Release in order: destroy the graph, the streams and events, the tensors and scalar; "
          "free the segments and close the pool; free the pinned buffers; reset the device; "
          "finalize. Then check('07.3', acl).")
def clean_teardown(acl):
    snap = acl_lab.snapshot()
    if snap["models"]:
        raise NotYet("a captured model is still alive: acl.mdl.ri_destroy(graph) first — it "
                     "uses the pool's memory.")
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
