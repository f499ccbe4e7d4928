"""The exercises of chapters 05-07, driven as a learner drives them: ``exercises.start`` builds
the state, the test does the learner's part (right, or wrong in a way a learner would), and
the check passes, or fails cleanly (a ❌, never an exception) with a hint that names the
real cause. The kernel-driven proof that every solution passes in its notebook cell is
tests/chapters/test_exercises_anytime.py."""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab import exercises
from acl_lab.exercises import ch05, ch07
from acl_lab.exercises.ch06 import CAPTURE_QUIZ

H2D = C.ACL_MEMCPY_HOST_TO_DEVICE


def passes(exercise_id, *args):
    result = exercises.check(exercise_id, *args)
    assert result.passed, result.message
    return result


def fails(exercise_id, *args, hint=None, then=None):
    """The check fails; its first not-yet says ``hint``, the one after it ``then``."""
    exercises._TRIES.pop(exercise_id, None)          # hints from the first (start kept)
    result = exercises.check(exercise_id, *args)
    assert not result.passed and "❌" in repr(result)
    if hint is not None:
        assert hint in result.message, result.message
    if then is not None:
        again = exercises.check(exercise_id, *args)
        assert not again.passed and then in again.message, again.message
    exercises._TRIES.pop(exercise_id, None)
    return result


def solve(exercise_id, acl, **names):
    """Run the exercise's own solution on the handles ``start`` gave (as the notebook cell
    does), in a namespace like the chapter's first cell; the names it binds."""
    scope = {"acl": acl, "acl_lab": acl_lab, "np": np, "exercises": exercises,
             "align_up": ch05.align_up, "segment_size": ch05.segment_size,
             "FLOAT": np.dtype(np.float32).num, "N": ch07.N, "NBYTES": ch07.NBYTES,
             **{k: getattr(C, k) for k in dir(C) if k.startswith("ACL_")}, **names}
    exec(compile(exercises.solution(exercise_id).code, f"<solution {exercise_id}>", "exec"),
         scope)
    return scope


@pytest.fixture(autouse=True)
def english():
    acl_lab.set_language("en")
    yield
    acl_lab.set_language("en")


# ----- 05 -------------------------------------------------------------------------------
def test_05_1_layout(acl):
    lengths = exercises.start("05.1", acl)
    assert lengths == list(ch05.LAYOUT_LENGTHS)
    offsets = solve("05.1", acl, lengths=lengths)["offsets"]
    assert offsets == ch05.runtime_offsets(lengths) == [0, 192, 320, 3392]
    passes("05.1", offsets)
    fails("05.1", ..., hint="m = ALIGN_UP(len, 32) + 32", then="ALIGN_UP(previous end, 64)")
    fails("05.1", [0, 100, 140, 3140], hint="[1] = 100 is not where the 40-byte segment",
          then="starts at offset 192")                                   # packed
    fails("05.1", [0, 160, 256, 3296], hint="ends at offset 160",
          then="ALIGN_UP(160, 64) = 192")                                # m, no alignment
    fails("05.1", [0, 192, 320], hint="4 numbers")


def test_05_1_matches_the_pool(acl):
    from acl_lab.pool import MemoryPool
    pool = MemoryPool(acl, 16 * 1024)
    assert [pool.alloc(n) - pool.base for n in ch05.LAYOUT_LENGTHS] == \
        ch05.runtime_offsets(ch05.LAYOUT_LENGTHS)


def _carved(acl):
    block, pinned, stream = exercises.start("05.2", acl)
    acl.util.ptr_to_numpy(pinned, (64,), np.dtype(np.uint8).num)[:] = np.arange(64)
    return block, pinned, stream


def test_05_2_solution_and_the_real_causes(acl):
    block, pinned, stream = exercises.start("05.2", acl)
    fails("05.2", acl, block, ..., hint="section 2 gives both rules")
    ptr = solve("05.2", acl, block=block, pinned=pinned, stream=stream)["ptr"]
    assert ptr == block + 192
    passes("05.2", acl, block, ptr)

    block, pinned, stream = _carved(acl)
    fails("05.2", acl, block, block + 160, hint="block + 160 is not where",
          then="starts at block + 192")
    fails("05.2", acl, block, block + 192, hint="asynchronously, on stream",
          then="acl.rt.memcpy_async(ptr, 64, pinned, 64")
    acl.rt.memcpy(block + 192, 64, pinned, 64, H2D)                     # the synchronous copy
    fails("05.2", acl, block, block + 192, hint="synchronous acl.rt.memcpy")
    acl.rt.memcpy_async(block + 192, 64, pinned, 64, H2D, stream)
    fails("05.2", acl, block, block + 192, hint="queued but has not run")   # no synchronize
    acl.rt.synchronize_stream(stream)
    passes("05.2", acl, block, block + 192)


def test_05_2_says_when_the_copy_failed_or_the_block_is_gone(acl):
    block, pinned, stream = exercises.start("05.2", acl)        # pinned never filled
    acl.rt.memcpy_async(block + 192, 64, pinned, 64, H2D, stream)
    acl.rt.synchronize_stream(stream)
    fails("05.2", acl, block, block + 192, hint="write the bytes into pinned before the copy")
    block, pinned, stream = _carved(acl)
    acl.rt.memcpy_async(block + 192, 64, pinned, 128, H2D, stream)       # count > destMax
    fails("05.2", acl, block, block + 192, hint="returned 107000")
    acl.rt.free(block)
    fails("05.2", acl, block, block + 192, hint="released")
    fails("05.2", acl, block + 64, block + 256, hint="pass the block exercises.start")


def test_05_3_overrun_detective(acl):
    suspects = exercises.start("05.3", acl)
    passes("05.3", suspects, solve("05.3", acl, suspects=suspects)["culprit"])
    fails("05.3", suspects, ..., hint="guard bytes", then="suspects.check_guards()")
    fails("05.3", suspects, "rgb", hint="kept within its length")
    fails("05.3", suspects, "image", hint="not a live segment")
    suspects.free(next(b.segment.start for b in suspects.blocks()
                       if b.kind == "segment" and b.segment.name == "depth"), check=False)
    fails("05.3", suspects, "depth", hint="not a live segment")
    suspects.close(force=True)
    fails("05.3", suspects, "depth", hint="is closed")


def test_05_3_finds_the_culprit_in_the_chinese_edition_too(acl):
    """The check reads the pool's report, which is Chinese there."""
    suspects = exercises.start("05.3", acl)
    acl_lab.set_language("zh_CN")
    assert "'depth' 写越界了" in repr(passes("05.3", suspects, "depth"))
    assert "'rgb' 没有超出它的长度" in repr(fails("05.3", suspects, "rgb"))


# ----- 06 -------------------------------------------------------------------------------
def _capture_add(acl, stream, x_t, one):
    ws, ex, ret = acl.nn.add_get_workspace_size(x_t, x_t, one, x_t)
    assert ret == 0
    acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    acl.nn.add(0, ws, ex, stream)
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    return model


def test_06_1_solution_doubles_x(acl):
    x_dev, x_t, one, s2 = exercises.start("06.1", acl)
    doubling = solve("06.1", acl, x_dev=x_dev, x_t=x_t, one=one, s2=s2)["doubling"]
    assert "3 replays" in passes("06.1", acl, doubling, x_dev).message
    fails("06.1", acl, ..., x_dev, hint="Prepare the Add before the capture",
          then="Phase 1 gives ws and an executor")


def test_06_1_names_each_real_cause(acl):
    x_dev, x_t, one, s2 = exercises.start("06.1", acl)
    ws, ex, _ = acl.nn.add_get_workspace_size(x_t, x_t, one, x_t)
    acl.mdl.ri_capture_begin(s2, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    acl.nn.add(0, ws, ex, s2)
    fails("06.1", acl, 0, x_dev, hint="capture is still open")
    result = acl.mdl.ri_capture_end(s2)
    fails("06.1", acl, result, x_dev, hint="whole (model, ret) tuple")
    model = result[0]
    fails("06.1", acl, model, x_dev, hint="never replayed")
    acl.mdl.ri_execute_async(model, s2)
    fails("06.1", acl, model, x_dev, hint="queued but have not run")
    acl.rt.synchronize_stream(s2)
    passes("06.1", acl, model, x_dev)
    acl.mdl.ri_destroy(model)
    fails("06.1", acl, model, x_dev, hint="destroyed by acl.mdl.ri_destroy")


def test_06_1_rejects_a_model_that_writes_elsewhere_or_reuploads(acl):
    x_dev, x_t, one, s2 = exercises.start("06.1", acl)
    y, _ = acl.rt.malloc(32, C.ACL_MEM_MALLOC_HUGE_FIRST)
    y_t = acl.nn.create_tensor([8], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [8], y)
    ws, ex, _ = acl.nn.add_get_workspace_size(x_t, x_t, one, y_t)
    acl.mdl.ri_capture_begin(s2, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    acl.nn.add(0, ws, ex, s2)
    elsewhere, _ = acl.mdl.ri_capture_end(s2)
    acl.mdl.ri_execute_async(elsewhere, s2)
    acl.rt.synchronize_stream(s2)
    fails("06.1", acl, elsewhere, x_dev, hint="out = x")
    # Capturing the upload too resets x on every replay: x never grows past 2 * start.
    pinned, _ = acl.rt.malloc_host(32)
    acl.util.ptr_to_numpy(pinned, (8,), np.dtype(np.float32).num)[:] = np.arange(1, 9)
    ws, ex, _ = acl.nn.add_get_workspace_size(x_t, x_t, one, x_t)
    acl.mdl.ri_capture_begin(s2, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    acl.rt.memcpy_async(x_dev, 32, pinned, 32, H2D, s2)
    acl.nn.add(0, ws, ex, s2)
    reupload, _ = acl.mdl.ri_capture_end(s2)
    for _ in range(3):
        acl.mdl.ri_execute_async(reupload, s2)
    acl.rt.synchronize_stream(s2)
    fails("06.1", acl, reupload, x_dev, hint="Capture only the Add")


def test_06_2_quiz_matches_the_simulator(acl):
    s, buf, pinned, pageable, ev = exercises.start("06.2", acl)
    codes = solve("06.2", acl, s=s, buf=buf, pinned=pinned, pageable=pageable, ev=ev)["codes"]
    assert codes == [want for want, _why in CAPTURE_QUIZ]
    passes("06.2", codes)
    fails("06.2", ..., hint="Predict each code", then="a list named codes")
    wrong = list(codes)
    wrong[1] = C.ACL_ERROR_RT_STREAM_CAPTURED       # a prediction typed over what call 2 said
    fails("06.2", wrong, hint=f"but your calls returned {codes}")
    fails("06.2", codes[:5], hint="6 codes")


def test_06_2_names_a_wrong_call(acl):
    """The codes are what the calls returned, but call 2 was not the one asked for (its
    own copy on the capturing stream is recorded, so it returns 0)."""
    s, buf, pinned, pageable, ev = exercises.start("06.2", acl)
    acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    codes = [acl.rt.synchronize_stream(s),
             acl.rt.memcpy_async(buf, 64, pinned, 64, H2D, s),
             acl.rt.memcpy_async(buf, 64, pinned, 64, H2D, s),
             acl.rt.memset_async(buf, 64, 0, 64, 0),
             acl.rt.memcpy_async(buf, 64, acl.util.numpy_to_ptr(pageable), 64, H2D, s),
             acl.rt.record_event(ev, s)]
    acl.mdl.ri_capture_end(s)
    fails("06.2", codes, hint="call 2 does not return 0", then="call 2 returns 107030")


def test_06_2_names_a_capture_never_begun_or_never_ended(acl):
    s, buf, pinned, pageable, ev = exercises.start("06.2", acl)
    fails("06.2", [acl.rt.synchronize_stream(s)] + [0] * 5,
          hint="acl.rt.synchronize_stream before any capture began on s")
    s, buf, pinned, pageable, ev = exercises.start("06.2", acl)
    codes = solve("06.2", acl, s=s, buf=buf, pinned=pinned, pageable=pageable,
                  ev=ev)["codes"]                   # the solution ends its capture: begin again
    acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    again = [acl.rt.synchronize_stream(s),
             acl.rt.memcpy(buf, 64, pinned, 64, H2D),
             acl.rt.memcpy_async(buf, 64, pinned, 64, H2D, s),
             acl.rt.memset_async(buf, 64, 0, 64, 0),
             acl.rt.memcpy_async(buf, 64, acl.util.numpy_to_ptr(pageable), 64, H2D, s),
             acl.rt.record_event(ev, s)]
    assert again == codes
    fails("06.2", again, hint="now end the capture")


def test_06_3_replay_time_with_the_learners_names(acl):
    graph, s, t0, t1 = exercises.start("06.3", acl)
    fails("06.3", acl, t0, t1, 0.0, hint="acl.rt.event_elapsed_time(t0, t1) fails")
    ms = solve("06.3", acl, graph=graph, s=s, t0=t0, t1=t1)["ms"]
    assert "32 tasks" in passes("06.3", acl, t0, t1, ms).message
    fails("06.3", acl, t0, t1, (ms, 0), hint="whole (ms, ret) tuple")
    fails("06.3", acl, t0, t1, "0.07", hint="should be what acl.rt.event_elapsed_time(t0, t1)")
    fails("06.3", acl, t0, t1, ms * 1000, hint="returns")                   # microseconds
    acl.rt.record_event(t0, s)
    for _ in range(2):
        acl.mdl.ri_execute_async(graph, s)
    acl.rt.record_event(t1, s)
    acl.rt.synchronize_event(t1)
    fails("06.3", acl, t0, t1, acl.rt.event_elapsed_time(t0, t1)[0], hint="2 replays ran")
    acl.rt.record_event(t0, s)            # nothing replayed between the events now
    acl.rt.record_event(t1, s)
    acl.rt.synchronize_event(t1)
    fails("06.3", acl, t0, t1, acl.rt.event_elapsed_time(t0, t1)[0], hint="no model replay ran")
    other, _ = acl.rt.create_stream()
    acl.rt.record_event(t1, other)
    fails("06.3", acl, t0, t1, 0.0, hint="different streams")


# ----- 07 -------------------------------------------------------------------------------
def _hand_off(acl, *, record=True, wait=True, before_upload=False, sync=True):
    buf, tensor, copy_stream, compute_stream, in_h, out_h, uploaded = \
        exercises.start("07.1", acl)
    nbytes = ch07.NBYTES
    if record and before_upload:
        acl.rt.record_event(uploaded, copy_stream)
    acl.rt.memcpy_async(buf["x"], nbytes, in_h, nbytes, H2D, copy_stream)
    if record and not before_upload:
        acl.rt.record_event(uploaded, copy_stream)
    if wait:
        acl.rt.stream_wait_event(compute_stream, uploaded)
    ws, ex, _ = acl.nn.mul_get_workspace_size(tensor["x"], tensor["w"], tensor["y"])
    acl.nn.mul(0, ws, ex, compute_stream)
    acl.rt.memcpy_async(out_h, nbytes, buf["y"], nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST,
                        compute_stream)
    if sync:
        acl.rt.synchronize_stream(compute_stream)
        acl.rt.synchronize_stream(copy_stream)
    return copy_stream, compute_stream, uploaded, out_h


def test_07_1_solution_hands_off(acl):
    handles = exercises.start("07.1", acl)
    buf, tensor, copy_stream, compute_stream, in_h, out_h, uploaded = handles
    solve("07.1", acl, buf=buf, tensor=tensor, copy_stream=copy_stream,
          compute_stream=compute_stream, in_h=in_h, out_h=out_h, uploaded=uploaded)
    passes("07.1", acl, copy_stream, compute_stream, uploaded, out_h)
    fails("07.1", acl, ..., ..., ..., ..., hint="Two streams are unordered",
          then="acl.rt.stream_wait_event(compute_stream, uploaded)")


def test_07_1_names_each_real_cause(acl):
    fails("07.1", acl, *_hand_off(acl, record=False, wait=False), hint="was never recorded")
    fails("07.1", acl, *_hand_off(acl, wait=False), hint="never waited")
    fails("07.1", acl, *_hand_off(acl, before_upload=True), hint="after the upload")
    fails("07.1", acl, *_hand_off(acl, sync=False), hint="has not run")
    a, b, ev, out_h = _hand_off(acl)
    passes("07.1", acl, a, b, ev, out_h)
    fails("07.1", acl, b, a, ev, out_h, hint="record uploaded on copy_stream")


def test_07_1_wants_y_in_out_h(acl):
    buf, tensor, copy_stream, compute_stream, in_h, out_h, uploaded = \
        exercises.start("07.1", acl)
    nbytes = ch07.NBYTES
    acl.rt.memcpy_async(buf["x"], nbytes, in_h, nbytes, H2D, copy_stream)
    acl.rt.record_event(uploaded, copy_stream)
    acl.rt.stream_wait_event(compute_stream, uploaded)
    ws, ex, _ = acl.nn.mul_get_workspace_size(tensor["x"], tensor["w"], tensor["y"])
    acl.nn.mul(0, ws, ex, compute_stream)
    acl.rt.synchronize_stream(compute_stream)            # no download
    fails("07.1", acl, copy_stream, compute_stream, uploaded, out_h,
          hint="does not hold y = x * w")


def test_07_2_dvpp_segment(acl):
    pool = exercises.start("07.2", acl)
    scratch = solve("07.2", acl, pool=pool)["scratch"]
    passes("07.2", pool, scratch)
    fails("07.2", pool, ..., hint="stricter rule", then="rule='dvpp'")
    fails("07.2", pool, pool.alloc(3000), hint="rule='dvpp'")
    fails("07.2", pool, pool.alloc(300, rule="dvpp"), hint="ask for 3000")
    pool.free(scratch)
    fails("07.2", pool, scratch, hint="not a live segment of pool")
    pool.close(force=True)
    fails("07.2", pool, scratch, hint="is closed")


def test_07_3_solution_leaves_nothing(acl):
    names = dict(zip(("graph", "pool", "tensor", "one", "copy_stream", "compute_stream", "ev",
                      "in_h", "out_h"), exercises.start("07.3", acl)))
    fails("07.3", ..., hint="Release users before what they use",
          then="Look at what start() gave you")
    solve("07.3", acl, **names)
    passes("07.3", acl)


def test_07_3_names_what_is_left(acl):
    graph, pool, tensor, one, copy_stream, compute_stream, ev, in_h, out_h = \
        exercises.start("07.3", acl)
    fails("07.3", acl, hint="captured model is still alive")
    acl.mdl.ri_destroy(graph)
    fails("07.3", acl, hint="stream(s)")
    for s in (copy_stream, compute_stream):
        acl.rt.destroy_stream(s)
    for e in ev.values():
        acl.rt.destroy_event(e)
    fails("07.3", acl, hint="allocation(s) still live")
    pool.close(force=True)
    acl.rt.free_host(in_h)
    acl.rt.free_host(out_h)
    fails("07.3", acl, hint="aclnn object(s) were never destroyed")
    for t in tensor.values():
        acl.nn.destroy_tensor(t)
    acl.nn.destroy_scalar(one)
    fails("07.3", acl, hint="reset_device")
    acl.rt.reset_device(0)
    fails("07.3", acl, hint="finalize")
    acl.finalize()
    passes("07.3", acl)


def test_07_3_names_what_reset_released_for_you(acl):
    exercises.start("07.3", acl)
    acl.rt.reset_device(0)               # releases streams and memory itself, and says so
    acl.finalize()
    fails("07.3", acl, hint="released for you")
