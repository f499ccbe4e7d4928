"""The checks of chapters 04–07: each passes with the solution, and fails cleanly (a ❌, never
an exception) with the placeholder ``...`` and with a plausible wrong answer."""
import numpy as np

from acl_lab import constants as C
from acl_lab import exercises
from acl_lab.align import malloc_footprint
from acl_lab.exercises.ch04 import FOOTPRINT_SIZES

MiB = 1 << 20


def passes(exercise_id, *args):
    exercises.forget()                  # no start() of an earlier test is remembered
    result = exercises.check(exercise_id, *args)
    assert result.passed, result.message
    return result


def fails(exercise_id, *args, hint=None):
    """Fails with ``hint`` in its first (least specific) message."""
    exercises.forget()
    result = exercises.check(exercise_id, *args)
    assert not result.passed
    assert "❌" in repr(result)
    if hint is not None:
        assert hint in result.message, result.message
    return result


# ----- 04 -------------------------------------------------------------------------------
def test_04_1_footprints(acl):
    sizes = FOOTPRINT_SIZES
    passes("04.1", [malloc_footprint(s) for s in sizes])
    fails("04.1", ...)
    fails("04.1", list(sizes), hint=f"aclrtMalloc({sizes[0]}) takes 64 B")   # the size asked
    fails("04.1", [64], hint="one drop per size")


def test_04_2_which_attribute(acl):
    ptr, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    passes("04.2", ptr, C.ACL_HBM_MEM_HUGE)
    fails("04.2", ..., ...)
    fails("04.2", ptr, C.ACL_HBM_MEM, hint="sums several pools")
    fails("04.2", ptr, C.ACL_HBM_MEM_NORMAL, hint="HBM huge (device 0)")
    small, _ = acl.rt.malloc(100, C.ACL_MEM_MALLOC_HUGE_FIRST)
    fails("04.2", small, C.ACL_HBM_MEM_NORMAL, hint="exactly 3 MiB")
    acl.rt.free(ptr)
    fails("04.2", ptr, C.ACL_HBM_MEM_HUGE, hint="not a live allocation")


def test_04_2_follows_the_profile(acl_on):
    acl = acl_on("310")
    ptr, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    passes("04.2", ptr, C.ACL_DDR_MEM_HUGE)
    fails("04.2", ptr, C.ACL_HBM_MEM_HUGE)


def _board_copy(acl, kind=C.ACL_MEMCPY_DEVICE_TO_DEVICE):
    host, _ = acl.rt.malloc_host(64)
    acl.util.ptr_to_numpy(host, (64,), np.dtype(np.uint8).num)[:] = np.arange(64, dtype=np.uint8)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(dev, 64, host, 64, kind)
    return host, dev


def test_04_3_board_copy(acl_on):
    acl = acl_on("200dk")
    host, dev = _board_copy(acl)
    passes("04.3", acl, host, dev)
    fails("04.3", acl, ..., ...)
    fails("04.3", acl, dev, host, hint="malloc_host")
    dev2, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)        # no copy: garbage
    fails("04.3", acl, host, dev2, hint="should hold 0, 1, ..., 63")
    _, dev3 = _board_copy(acl, kind=C.ACL_MEMCPY_HOST_TO_DEVICE)   # the addresses decide
    passes("04.3", acl, host, dev3)


def test_04_3_needs_the_board(acl):
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    fails("04.3", acl, host, dev, hint='exercises.start("04.3", acl)')


# ----- 06 -------------------------------------------------------------------------------
def _capture_quiz_codes(acl):
    s, _ = acl.rt.create_stream()
    buf, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    pinned, _ = acl.rt.malloc_host(64)
    pageable = np.zeros(16, dtype=np.float32)
    ev, _ = acl.rt.create_event()
    H2D = C.ACL_MEMCPY_HOST_TO_DEVICE
    acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    codes = [acl.rt.synchronize_stream(s), acl.rt.memcpy(buf, 64, pinned, 64, H2D),
             acl.rt.memcpy_async(buf, 64, pinned, 64, H2D, s),
             acl.rt.memset_async(buf, 64, 0, 64, 0),
             acl.rt.memcpy_async(buf, 64, acl.util.numpy_to_ptr(pageable), 64, H2D, s),
             acl.rt.record_event(ev, s)]
    acl.mdl.ri_capture_end(s)
    return codes


def test_06_1_quiz_matches_the_simulator(acl):
    codes = _capture_quiz_codes(acl)
    passes("06.2", codes)
    fails("06.2", ...)
    fails("06.2", [0] * 6, hint="call 1 returns 107027")
    wrong = list(codes)
    wrong[1] = C.ACL_ERROR_RT_STREAM_CAPTURED      # confusing 107030 with 107027
    fails("06.2", wrong, hint="call 2 returns 107030")
    fails("06.2", codes[:5], hint="6 codes")


def _x_over(acl, values):
    x, _ = acl.rt.malloc(32, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host = np.asarray(values, dtype=np.float32)
    acl.rt.memcpy(x, 32, acl.util.numpy_to_ptr(host), 32, C.ACL_MEMCPY_HOST_TO_DEVICE)
    t = acl.nn.create_tensor([8], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [8], x)
    return x, t


def _capture_add(acl, stream, self_t, other_t, out_t, upload=None):
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    ws, ex, ret = acl.nn.add_get_workspace_size(self_t, other_t, one, out_t)
    assert ret == 0
    acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    if upload is not None:
        upload()
    acl.nn.add(0, ws, ex, stream)
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    return model


def test_06_1_doubling_model(acl):
    x, xt = _x_over(acl, np.arange(1, 9))
    s, _ = acl.rt.create_stream()
    model = _capture_add(acl, s, xt, xt, xt)
    fails("06.1", acl, model, x, hint="never replayed")
    for _ in range(3):
        acl.mdl.ri_execute_async(model, s)
    acl.rt.synchronize_stream(s)
    passes("06.1", acl, model, x)
    fails("06.1", acl, ..., ...)
    acl.mdl.ri_destroy(model)
    fails("06.1", acl, model, x, hint="not destroyed yet")


def test_06_1_rejects_a_model_that_writes_elsewhere_or_reuploads(acl):
    x, xt = _x_over(acl, np.arange(1, 9))
    y, yt = _x_over(acl, np.zeros(8))
    s, _ = acl.rt.create_stream()
    elsewhere = _capture_add(acl, s, xt, xt, yt)
    acl.mdl.ri_execute_async(elsewhere, s)
    fails("06.1", acl, elsewhere, x, hint="out = x")
    # Capturing the upload too resets x on every replay: x never grows past 2 * start.
    start = np.arange(1, 9, dtype=np.float32)
    pinned, _ = acl.rt.malloc_host(32)
    acl.util.ptr_to_numpy(pinned, (8,), np.dtype(np.float32).num)[:] = start
    reupload = _capture_add(acl, s, xt, xt, xt, upload=lambda: acl.rt.memcpy_async(
        x, 32, pinned, 32, C.ACL_MEMCPY_HOST_TO_DEVICE, s))
    for _ in range(3):
        acl.mdl.ri_execute_async(reupload, s)
    acl.rt.synchronize_stream(s)
    fails("06.1", acl, reupload, x, hint="Capture only the Add")


def test_06_3_replay_time(acl):
    x, xt = _x_over(acl, np.arange(1, 9))
    s, _ = acl.rt.create_stream()
    model = _capture_add(acl, s, xt, xt, xt)
    t0, _ = acl.rt.create_event()
    t1, _ = acl.rt.create_event()
    fails("06.3", acl, t0, t1, 0.0, hint="never recorded")
    acl.rt.record_event(t0, s)
    acl.mdl.ri_execute_async(model, s)
    acl.rt.record_event(t1, s)
    acl.rt.synchronize_event(t1)
    ms, _ = acl.rt.event_elapsed_time(t0, t1)
    passes("06.3", acl, t0, t1, ms)
    fails("06.3", acl, t0, t1, "0.07", hint="event_elapsed_time returns")
    fails("06.3", acl, t0, t1, ms * 1000, hint="event_elapsed_time returns")   # microseconds
    acl.rt.record_event(t0, s)            # nothing replayed between the events now
    acl.rt.record_event(t1, s)
    acl.rt.synchronize_event(t1)
    ms, _ = acl.rt.event_elapsed_time(t0, t1)
    fails("06.3", acl, t0, t1, ms, hint="no model replay ran")


# ----- 07 -------------------------------------------------------------------------------
def _two_streams(acl):
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    x, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    y, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    h, _ = acl.rt.malloc_host(64)
    ev, _ = acl.rt.create_event()
    upload = lambda: acl.rt.memcpy_async(x, 64, h, 64, C.ACL_MEMCPY_HOST_TO_DEVICE, a)
    compute = lambda: acl.rt.memcpy_async(y, 64, x, 64, C.ACL_MEMCPY_DEVICE_TO_DEVICE, b)
    return a, b, ev, upload, compute


def test_07_1_hand_off(acl):
    a, b, ev, upload, compute = _two_streams(acl)
    fails("07.1", a, b, ev, hint="never recorded")
    upload()
    acl.rt.record_event(ev, a)
    acl.rt.stream_wait_event(b, ev)
    compute()
    passes("07.1", a, b, ev)
    fails("07.1", ..., ..., ...)


def test_07_1_rejects_a_wait_issued_before_the_record(acl):
    a, b, ev, upload, compute = _two_streams(acl)
    acl.rt.stream_wait_event(b, ev)       # waits on nothing: the event is recorded later
    upload()
    acl.rt.record_event(ev, a)
    compute()
    fails("07.1", a, b, ev, hint="never waited")


def test_07_1_rejects_an_event_recorded_before_the_upload(acl):
    a, b, ev, upload, compute = _two_streams(acl)
    acl.rt.record_event(ev, a)
    upload()
    acl.rt.stream_wait_event(b, ev)
    compute()
    fails("07.1", a, b, ev, hint="after the upload")
    fails("07.1", b, a, ev, hint="record uploaded on copy_stream")


def test_07_1_wants_work_after_the_wait(acl):
    a, b, ev, upload, _compute = _two_streams(acl)
    upload()
    acl.rt.record_event(ev, a)
    acl.rt.stream_wait_event(b, ev)
    fails("07.1", a, b, ev, hint="nothing ran on compute_stream")


def test_07_2_dvpp_segment(acl):
    from acl_lab.pool import MemoryPool
    pool = MemoryPool(acl, 64 * 1024)
    pool.alloc(100)                       # the next 64-byte start is not 128-aligned
    runtime = pool.alloc(3000)
    fails("07.2", pool, runtime, hint="rule='dvpp'")
    small = pool.alloc(300, rule="dvpp")
    fails("07.2", pool, small, hint="ask for 3000")
    scratch = pool.alloc(3000, rule="dvpp")
    passes("07.2", pool, scratch)
    fails("07.2", pool, ...)
    fails("07.2", ..., scratch)
    pool.free(scratch)
    fails("07.2", pool, scratch, hint="not a live segment")


def test_07_3_teardown(acl):
    from acl_lab.pool import MemoryPool
    s, _ = acl.rt.create_stream()
    pool = MemoryPool(acl, 4096)
    seg = pool.alloc(100)
    fails("07.3", ...)
    fails("07.3", acl, hint="stream(s)")
    acl.rt.destroy_stream(s)
    fails("07.3", acl, hint="allocation(s) still live")
    pool.free(seg)
    pool.close()
    fails("07.3", acl, hint="reset_device")
    acl.rt.reset_device(0)
    fails("07.3", acl, hint="finalize")
    acl.finalize()
    passes("07.3", acl)


def test_07_3_names_what_reset_released_for_you(acl):
    acl.rt.create_stream()
    acl.rt.reset_device(0)               # releases the stream itself, and says so
    acl.finalize()
    fails("07.3", acl, hint="never destroyed")


# ----- 05 -------------------------------------------------------------------------------
def test_05_1_layout():
    from acl_lab.exercises.ch05 import LAYOUT_LENGTHS, runtime_offsets
    passes("05.1", runtime_offsets(LAYOUT_LENGTHS))
    fails("05.1", ...)
    fails("05.1", [0, 100, 140, 3140], hint="starts at offset 192")        # packed
    fails("05.1", [0, 160, 256, 3296], hint="starts at offset 192")        # m but no alignment
    fails("05.1", [0, 192, 320], hint="4 numbers")


def test_05_1_matches_the_pool(acl):
    from acl_lab.exercises.ch05 import LAYOUT_LENGTHS, runtime_offsets
    from acl_lab.pool import MemoryPool
    pool = MemoryPool(acl, 16 * 1024)
    assert [pool.alloc(n) - pool.base for n in LAYOUT_LENGTHS] == runtime_offsets(LAYOUT_LENGTHS)


def test_05_2_hand_carved_segment(acl):
    block, _ = acl.rt.malloc_align32(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    pinned, _ = acl.rt.malloc_host(64)
    acl.util.ptr_to_numpy(pinned, (64,), np.dtype(np.uint8).num)[:] = np.arange(64, dtype=np.uint8)
    s, _ = acl.rt.create_stream()
    ptr = block + 192
    fails("05.2", acl, block, ptr, hint="does not hold 0, 1, ..., 63")     # nothing copied yet
    assert acl.rt.memcpy_async(ptr, 64, pinned, 64, C.ACL_MEMCPY_HOST_TO_DEVICE, s) == 0
    passes("05.2", acl, block, ptr)          # the check synchronizes before reading
    fails("05.2", acl, block, ...)
    fails("05.2", acl, block, block + 160, hint="block + 192")             # m, not aligned
    fails("05.2", acl, block + 64, ptr, hint="live aclrtMallocAlign32 block")


def _suspects(acl, overrun):
    from acl_lab.pool import MemoryPool
    pool = MemoryPool(acl, 4096)
    for name, n in (("rgb", 300), ("depth", 100), ("mask", 64)):
        ptr = pool.alloc(n, name=name)
        nbytes = n + (10 if name == overrun else 0)
        data = np.ones(nbytes, dtype=np.uint8)
        acl.rt.memcpy(ptr, nbytes, acl.util.numpy_to_ptr(data), nbytes,
                      C.ACL_MEMCPY_HOST_TO_DEVICE)
    return pool


def test_05_3_overrun_detective(acl):
    pool = _suspects(acl, "depth")
    passes("05.3", pool, "depth")
    fails("05.3", pool, ...)
    fails("05.3", pool, "rgb", hint="kept within its length")
    fails("05.3", pool, "image", hint="not a live segment")
    fails("05.3", _suspects(acl, None), "depth", hint="every guard byte is intact")


def test_05_3_finds_the_culprit_in_the_chinese_edition_too(acl):
    """The check reads the pool's report, which is Chinese there."""
    import acl_lab
    pool = _suspects(acl, "depth")
    acl_lab.set_language("zh_CN")
    try:
        assert "'depth' 写越界了" in repr(passes("05.3", pool, "depth"))
        assert "'rgb' 没有超出它的长度" in repr(fails("05.3", pool, "rgb"))
    finally:
        acl_lab.set_language("en")
