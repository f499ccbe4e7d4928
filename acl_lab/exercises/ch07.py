"""Chapter 07 exercises: handing work between streams, pool segments per rule, a clean
teardown.

Each setup builds the part of the capstone pipeline its exercise works on, in the fresh
process ``exercises.start`` opens: the same names and sizes as the chapter.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.pool import RULES, MemoryPool
from acl_lab.trace import untraced

from acl_lab.exercises import NotYet, exercise, learner_name

#: floats per buffer, and bytes, as in the chapter
N = 256
NBYTES = N * 4
#: the weights and bias the pipeline computes with: z = x * W + BIAS
W = np.linspace(0.5, 2.0, N, dtype=np.float32)
BIAS = np.full(N, 0.25, dtype=np.float32)


@dataclass
class _Pipeline:
    pool: MemoryPool
    buf: dict
    tensor: dict
    one: int
    copy_stream: int
    compute_stream: int
    in_h: int
    out_h: int


def _pipeline(acl) -> _Pipeline:
    """The chapter's sections 1 and 2: five pool segments with tensors over them, w and b
    uploaded, two streams and two pinned buffers."""
    pool = MemoryPool(acl, 64 * 1024)
    buf = {name: pool.alloc(NBYTES, name=name) for name in ("x", "w", "b", "y", "z")}
    tensor = {name: acl.nn.create_tensor([N], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [N], ptr)
              for name, ptr in buf.items()}
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    for name, host in (("w", W), ("b", BIAS)):
        acl_lab.check(acl.rt.memcpy(buf[name], NBYTES, acl.util.numpy_to_ptr(host), NBYTES,
                                    C.ACL_MEMCPY_HOST_TO_DEVICE))
    acl_lab.check(acl.rt.memset(buf["x"], NBYTES, 0, NBYTES))
    copy_stream, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    compute_stream, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    in_h, ret = acl.rt.malloc_host(NBYTES)
    acl_lab.check(ret)
    out_h, ret = acl.rt.malloc_host(NBYTES)
    acl_lab.check(ret)
    acl_lab.name(copy_stream, "copy")
    acl_lab.name(compute_stream, "compute")
    return _Pipeline(pool, buf, tensor, one, copy_stream, compute_stream, in_h, out_h)


def _hand_off(acl):
    p = _pipeline(acl)
    acl.util.ptr_to_numpy(p.in_h, (N,), np.dtype(np.float32).num)[:] = 1.0
    uploaded, ret = acl.rt.create_event()
    acl_lab.check(ret)
    return p.buf, p.tensor, p.copy_stream, p.compute_stream, p.in_h, p.out_h, uploaded


@exercise("07.1", "Hand off between streams",
          "Two streams are unordered until you order them: the compute stream must not "
          "multiply before the copy stream's upload is done. An event recorded after the "
          "upload marks that point; a stream can wait for it without blocking the host.",
          level="medium",
          more=("Upload in_h into buf['x'] with memcpy_async on copy_stream, then "
                "acl.rt.record_event(uploaded, copy_stream) and "
                "acl.rt.stream_wait_event(compute_stream, uploaded); then the multiply "
                "(mul_get_workspace_size(tensor['x'], tensor['w'], tensor['y']), nn.mul) and "
                "the download of buf['y'] into out_h on compute_stream, and synchronize "
                "compute_stream.",),
          setup=_hand_off,
          solution="""
          acl_lab.check(acl.rt.memcpy_async(buf["x"], NBYTES, in_h, NBYTES, ACL_MEMCPY_HOST_TO_DEVICE, copy_stream))
          acl_lab.check(acl.rt.record_event(uploaded, copy_stream))           # marks the upload's end
          acl_lab.check(acl.rt.stream_wait_event(compute_stream, uploaded))   # compute waits for it
          ws, ex, ret = acl.nn.mul_get_workspace_size(tensor["x"], tensor["w"], tensor["y"])
          acl_lab.check(acl.nn.mul(0, ws, ex, compute_stream))
          acl_lab.check(acl.rt.memcpy_async(out_h, NBYTES, buf["y"], NBYTES, ACL_MEMCPY_DEVICE_TO_HOST, compute_stream))
          acl_lab.check(acl.rt.synchronize_stream(compute_stream))
          print("y =", acl.util.ptr_to_numpy(out_h, (N,), FLOAT)[:4])
          """)
def hand_off(acl, copy_stream: int, compute_stream: int, uploaded: int, out_h: int):
    """``copy_stream`` uploads, ``compute_stream`` computes, ``uploaded`` hands off, and
    ``out_h`` receives y = x * w."""
    a, b = learner_name(copy_stream, "copy_stream"), learner_name(compute_stream, "compute_stream")
    ev = learner_name(uploaded, "uploaded")
    snap = acl_lab.snapshot()
    e = next((e for e in snap["events"] if e["handle"] == uploaded), None)
    if e is None or e["stream"] is None:
        raise NotYet(_("{event} was never recorded: after the upload on {copy}, record it "
                       "there, and make {compute} wait for it.").format(
            event=ev, copy=a, compute=b),
                     _("{event} was never recorded: acl.rt.record_event({event}, {copy}) after "
                       "the upload, then acl.rt.stream_wait_event({compute}, {event}).").format(
            event=ev, copy=a, compute=b))
    if e["stream"] != copy_stream:
        raise NotYet(_("record {event} on {copy}, the stream that does the upload: "
                       "acl.rt.record_event({event}, {copy}).").format(event=ev, copy=a))
    pending = [s for s in snap["streams"] if s["handle"] in (copy_stream, compute_stream)
               and s["pending"]]
    if pending:
        raise NotYet(_("work is queued on the streams but has not run: nothing waited for "
                       "them. Call acl.rt.synchronize_stream({compute}) at the end.").format(
            compute=b))
    timeline = snap["timeline"]
    uploads = [t for t in timeline if t["stream"] == copy_stream and t["kind"] == "memcpy"]
    if not uploads or uploads[-1]["end_us"] > e["recorded_at_us"]:
        raise NotYet(_("record {event} after the upload's memcpy_async on {copy}, so that it "
                       "marks the upload's end.").format(event=ev, copy=a))
    waits = [t for t in timeline if t["stream"] == compute_stream and t["kind"] == "wait"
             and t["start_us"] >= e["recorded_at_us"]]
    if not waits:
        raise NotYet(_("{compute} never waited for {event}'s latest record: call "
                       "acl.rt.stream_wait_event({compute}, {event}) after recording it, before "
                       "the multiply.").format(compute=b, event=ev))
    work = [t for t in timeline if t["stream"] == compute_stream
            and t["kind"] not in ("wait", "record") and t["start_us"] >= waits[-1]["end_us"]]
    if not work:
        raise NotYet(_("nothing ran on {compute} after the wait: issue the multiply on "
                       "{compute} after stream_wait_event.").format(compute=b))
    y = np.array(untraced(acl.util.ptr_to_numpy)(out_h, (N,), np.dtype(np.float32).num))
    if not np.array_equal(y, W):
        raise NotYet(_("{out} does not hold y = x * w (it starts {got}): multiply "
                       "tensor['x'] by tensor['w'] into tensor['y'] on {compute}, then copy "
                       "buf['y'] into {out} there.").format(
            out=learner_name(out_h, "out_h"), got=y[:3].tolist(), compute=b))
    return _("compute_stream started only once the upload on copy_stream was done.")


def _pool(acl):
    return _pipeline(acl).pool


@exercise("07.2", "A media segment in the same pool",
          "A segment can follow a stricter rule than its pool: media processing (DVPP) needs "
          "128-byte aligned starts. Ask the pool for 3000 bytes under that rule, and check it "
          "while it is allocated.",
          level="easy",
          more=("pool.alloc(length, name=..., rule='dvpp') gives a segment whose start is "
                "128-byte aligned.",),
          setup=_pool,
          solution="""
          scratch = pool.alloc(3000, name="scratch", rule="dvpp")   # m = 3040 B at a 128-byte start
          """)
def dvpp_segment(pool: MemoryPool, scratch: int):
    ptr = scratch
    name, pool_name = learner_name(ptr, "scratch"), learner_name(pool, "pool")
    seg = next((blk.segment for blk in pool.blocks()
                if blk.kind == "segment" and blk.segment.start == ptr), None)
    if seg is None:
        raise NotYet(_("{name} is not a live segment of {pool}: take it with {pool}.alloc, and "
                       "free it only after the check.").format(name=name, pool=pool_name))
    if seg.length < 3000:
        raise NotYet(_("the segment holds {length} B; ask for 3000.").format(length=seg.length))
    if seg.rule != "dvpp" or ptr % RULES["dvpp"]:
        raise NotYet(_("the segment follows the {rule} rule (start % 128 = {remainder}); media "
                       "processing needs rule='dvpp' (128-byte aligned start).").format(
            rule=seg.rule, remainder=ptr % 128))
    return _("m = ALIGN_UP(3000, 32) + 32 = {size} B at a 128-byte aligned start, in the same "
             "block as the runtime-rule segments.").format(size=seg.size)


def _whole_pipeline(acl):
    """Everything the chapter has built by its release section, the captured graph too."""
    p = _pipeline(acl)
    s = p.compute_stream
    acl_lab.check(acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
    ws, ex, ret = acl.nn.mul_get_workspace_size(p.tensor["x"], p.tensor["w"], p.tensor["y"])
    acl_lab.check(ret)
    acl_lab.check(acl.nn.mul(0, ws, ex, s))
    ws, ex, ret = acl.nn.add_get_workspace_size(p.tensor["y"], p.tensor["b"], p.one,
                                                p.tensor["z"])
    acl_lab.check(ret)
    acl_lab.check(acl.nn.add(0, ws, ex, s))
    graph, ret = acl.mdl.ri_capture_end(s)
    acl_lab.check(ret)
    ev = {}
    for name in ("start", "uploaded", "computed", "done"):
        ev[name], ret = acl.rt.create_event()
        acl_lab.check(ret)
    return (graph, p.pool, p.tensor, p.one, p.copy_stream, p.compute_stream, ev, p.in_h,
            p.out_h)


TEARDOWN_HINT = ("Release users before what they use: the graph first (it uses the streams "
                 "and the segments), then streams and events, tensors and the scalar, the "
                 "segments and the pool, the pinned buffers, and last the device and ACL.")


@exercise("07.3", "Leave nothing behind", TEARDOWN_HINT,
          level="medium",
          more=("Look at what start() gave you: graph replays on copy_stream and "
                "compute_stream and works in the segments of pool; the tensors in tensor and "
                "the scalar one describe those segments; the events in ev mark the streams; "
                "in_h and out_h are pinned buffers. Whatever uses another goes first.",
                "acl.mdl.ri_destroy(graph); acl.rt.destroy_stream for copy_stream and "
                "compute_stream; acl.rt.destroy_event for each event in ev; "
                "acl.nn.destroy_tensor for each tensor in tensor, acl.nn.destroy_scalar(one); "
                "pool.free each segment, then pool.close(); acl.rt.free_host(in_h) and "
                "(out_h); acl.rt.reset_device(0); acl.finalize().",),
          setup=_whole_pipeline, needs=None,
          solution="""
          acl_lab.check(acl.mdl.ri_destroy(graph))           # the graph uses streams and segments
          for s in (copy_stream, compute_stream):
              acl_lab.check(acl.rt.destroy_stream(s))
          for e in ev.values():
              acl_lab.check(acl.rt.destroy_event(e))
          for t in tensor.values():
              acl_lab.check(acl.nn.destroy_tensor(t))
          acl_lab.check(acl.nn.destroy_scalar(one))
          for seg in [blk.segment for blk in pool.blocks() if blk.kind == "segment"]:
              pool.free(seg.start)                            # segments before their pool
          pool.close()
          acl_lab.check(acl.rt.free_host(in_h))
          acl_lab.check(acl.rt.free_host(out_h))
          acl_lab.check(acl.rt.reset_device(0))               # the device, then the process
          acl_lab.check(acl.finalize())
          """)
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
    kept = _aclnn_objects_left()
    if kept:
        raise NotYet(_("{count} aclnn object(s) were never destroyed ({calls}): "
                       "acl.nn.destroy_tensor for each tensor, acl.nn.destroy_scalar for "
                       "the scalar.").format(count=len(kept), calls=", ".join(sorted(set(kept)))))
    _device, ret = untraced(acl.rt.get_device)()
    if ret == 0:
        raise NotYet(_("the device is still set: acl.rt.reset_device(0)."))
    if snap["initialized"]:
        raise NotYet(_("ACL is still initialized: acl.finalize()."))
    return _("everything released by you, in order: nothing leaked.")


def _aclnn_objects_left() -> list[str]:
    """What created each tensor or scalar of this process that nothing destroyed (the trace
    starts at the process's reset, so it holds the exercise's setup too)."""
    made = {}
    for call in acl_lab.tracer().calls:
        if call.name in ("nn.create_tensor", "nn.create_scalar") and call.result:
            made[call.result] = call.name
        elif call.name in ("nn.destroy_tensor", "nn.destroy_scalar") and call.ret == 0:
            made.pop(call.args[0], None)
    return list(made.values())

