"""The checks of chapters 00-03: each passes with the notebook's solution and fails, with a
hint, for an unfinished answer (``...``) and for a plausible wrong one."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab import exercises
from acl_lab.align import align_up

MiB = 1 << 20
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST


def passes(*args):
    exercises.forget()                  # no start() of an earlier test is remembered
    result = exercises.check(*args)
    assert result.passed, result.message
    return result


def fails(*args, hint: str = ""):
    """Fails with ``hint`` in its first (least specific) message."""
    exercises.forget()
    result = exercises.check(*args)
    assert not result.passed
    assert result.message and hint in result.message
    return result


def host_view(acl, ptr, n):
    return acl.util.ptr_to_numpy(ptr, (n,), np.dtype(np.uint8).num)


# ----- 00 ----------------------------------------------------------------------------------
def test_00_1_count_the_devices(acl):
    fails("00.1", acl, ...)
    fails("00.1", acl, acl.rt.get_device_count(), hint="keep only its first element")
    assert "unpack it" in exercises.check("00.1", acl, acl.rt.get_device_count()).message
    fails("00.1", acl, 7)
    assert "8 device(s)" in passes("00.1", acl, acl.rt.get_device_count()[0]).message


def test_00_2_name_the_failure(acl):
    fails("00.2", acl, ...)
    fails("00.2", acl, acl.rt.set_device(7), hint="succeeded")
    fails("00.2", acl, acl.rt.malloc(0, C.ACL_MEM_MALLOC_HUGE_FIRST)[1])
    count, _ = acl.rt.get_device_count()
    passes("00.2", acl, acl.rt.set_device(count))


# ----- 01 ----------------------------------------------------------------------------------
def run_worker(acl, ctx=None) -> dict:
    out = {}

    def worker():
        if ctx is not None:
            acl.rt.set_context(ctx)
        out["stream"], out["ret"] = acl.rt.create_stream()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    return out


def test_01_1_worker_needs_a_context(acl):
    fails("01.1", acl, ...)
    fails("01.1", acl, run_worker(acl), hint="no current context")
    again = exercises.check("01.1", acl, run_worker(acl))         # more specific
    assert "acl.rt.set_context(default_ctx)" in again.message
    ctx, _ = acl.rt.get_context()
    assert "created stream" in passes("01.1", acl, run_worker(acl, ctx)).message


@pytest.fixture
def two_streams(acl):
    producer, _ = acl.rt.create_stream()
    consumer, _ = acl.rt.create_stream()
    shared, _ = acl.rt.malloc(8, C.ACL_MEM_MALLOC_HUGE_FIRST)
    out, _ = acl.rt.malloc_host(8)
    ready, _ = acl.rt.create_event()
    return producer, consumer, shared, out, ready


def order_streams(acl, producer, consumer, shared, out, between):
    acl.rt.memset(out, 8, 0, 8)
    acl.rt.memset_async(shared, 8, 9, 8, producer)
    between()
    acl.rt.memcpy_async(out, 8, shared, 8, D2H, consumer)
    acl.rt.synchronize_stream(consumer)


def test_01_2_one_stream_waits_for_another(acl, two_streams):
    producer, consumer, shared, out, ready = two_streams
    fails("01.2", acl, ..., producer, consumer)
    order_streams(acl, producer, consumer, shared, out, lambda: None)
    fails("01.2", acl, out, producer, consumer, hint="does not wait")
    # waiting on the host gives the right bytes but is not the lesson
    order_streams(acl, producer, consumer, shared, out,
                  lambda: acl.rt.synchronize_stream(producer))
    assert list(acl.util.ptr_to_bytes(out, 8)) == [9] * 8
    fails("01.2", acl, out, producer, consumer, hint="blocks the host")

    def wait_on_device():
        acl.rt.record_event(ready, producer)
        acl.rt.stream_wait_event(consumer, ready)

    order_streams(acl, producer, consumer, shared, out, wait_on_device)
    passes("01.2", acl, out, producer, consumer)
    # a later unordered run is not excused by the earlier correct one
    order_streams(acl, producer, consumer, shared, out, lambda: None)
    fails("01.2", acl, out, producer, consumer, hint="does not wait")


def fresh_process_with_resources(acl):
    acl_lab.reset()
    acl.init()
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    buf, _ = acl.rt.malloc(1024, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return stream, event, buf


def test_01_3_release_in_order(acl):
    stream, event, buf = fresh_process_with_resources(acl)
    fails("01.3", acl, hint="still set")

    acl.rt.reset_device(0)             # forgot the stream and the buffer
    acl.finalize()
    fails("01.3", acl, hint="never destroyed")

    stream, event, buf = fresh_process_with_resources(acl)
    acl.rt.destroy_event(event)
    acl.rt.destroy_stream(stream)
    acl.rt.free(buf)
    acl.rt.reset_device(0)
    fails("01.3", acl, hint="finalize")
    acl.finalize()
    passes("01.3", acl)


# ----- 02 ----------------------------------------------------------------------------------
def pages_solution(size, policy):
    if policy == C.ACL_MEM_MALLOC_HUGE_ONLY:
        return "huge"
    if policy == C.ACL_MEM_MALLOC_NORMAL_ONLY:
        return "normal"
    return "huge" if align_up(size, 32) + 32 > MiB else "normal"


def test_02_1_predict_the_pages(acl):
    fails("02.1", acl, ...)
    fails("02.1", acl, lambda size, policy: ...)
    unpadded = lambda size, policy: ("huge" if size > MiB else "normal") \
        if policy == C.ACL_MEM_MALLOC_HUGE_FIRST else pages_solution(size, policy)
    fails("02.1", acl, unpadded, hint="put the block on huge pages")
    assert "padded size" in exercises.check("02.1", acl, unpadded).message   # more specific
    before = acl_lab.snapshot()["allocations"]
    passes("02.1", acl, pages_solution)
    assert acl_lab.snapshot()["allocations"] == before     # the check cleans up after itself
    assert not any(c.name == "rt.malloc" for c in acl_lab.tracer().calls)   # and stays quiet


def allocate_blocks(acl) -> dict:
    policy = C.ACL_MEM_MALLOC_HUGE_FIRST
    return {"malloc_host": acl.rt.malloc_host(512)[0],
            "malloc": acl.rt.malloc(512, policy)[0],
            "malloc_align32": acl.rt.malloc_align32(512, policy)[0],
            "dvpp_malloc": acl.media.dvpp_malloc(512)[0]}


def test_02_2_free_with_the_partner(acl):
    fails("02.2", acl, ...)
    blocks = allocate_blocks(acl)
    fails("02.2", acl, blocks, hint="malloc_host")
    for ptr in blocks.values():           # plausible but wrong: free for everything
        acl.rt.free(ptr)
    fails("02.2", acl, blocks, hint="malloc_host")
    acl.rt.free_host(blocks["malloc_host"])
    fails("02.2", acl, blocks, hint="dvpp_malloc")
    acl.media.dvpp_free(blocks["dvpp_malloc"])
    passes("02.2", acl, blocks)


def test_02_2_freed_at_an_address_reused_later_does_not_count(acl):
    blocks = allocate_blocks(acl)
    acl.rt.free_host(blocks["malloc_host"])
    acl.rt.free(blocks["malloc"])
    acl.rt.free(blocks["malloc_align32"])
    acl.media.dvpp_free(blocks["dvpp_malloc"])
    again = allocate_blocks(acl)          # best fit hands out the same addresses again
    assert again == blocks
    fails("02.2", acl, again)


# ----- 03 ----------------------------------------------------------------------------------
def test_03_1_round_trip(acl):
    data = (np.arange(64) * 3).astype(np.uint8)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    result = np.zeros(64, dtype=np.uint8)
    fails("03.1", acl, dev, result, data, hint="host to device")
    fails("03.1", acl, ..., result, data)
    # copying host to host skips the device
    acl.rt.memcpy(acl.util.numpy_to_ptr(result), 64, acl.util.numpy_to_ptr(data), 64,
                  C.ACL_MEMCPY_HOST_TO_HOST)
    fails("03.1", acl, dev, result, data, hint="host to device")
    result[:] = 0
    acl.rt.memcpy(dev, 64, acl.util.numpy_to_ptr(data), 64, H2D)
    fails("03.1", acl, dev, result, data, hint="device to host")
    acl.rt.memcpy(acl.util.numpy_to_ptr(result), 64, dev, 64, D2H)
    passes("03.1", acl, dev, result, data)


def upload_twice(acl, stream, staging, dev_a, dev_b, between):
    first, second = np.full(64, 1, np.uint8), np.full(64, 2, np.uint8)
    host_view(acl, staging, 64)[:] = first
    acl.rt.memcpy_async(dev_a, 64, staging, 64, H2D, stream)
    between()
    host_view(acl, staging, 64)[:] = second
    acl.rt.memcpy_async(dev_b, 64, staging, 64, H2D, stream)
    acl.rt.synchronize_stream(stream)
    return first, second


def test_03_2_do_not_overwrite_a_buffer_in_flight(acl):
    stream, _ = acl.rt.create_stream()
    staging, _ = acl.rt.malloc_host(64)
    dev_a, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    dev_b, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    first, second = upload_twice(acl, stream, staging, dev_a, dev_b, lambda: None)
    fails("03.2", acl, dev_a, dev_b, first, second, hint="second")
    fails("03.2", acl, ..., dev_b, first, second)
    first, second = upload_twice(acl, stream, staging, dev_a, dev_b,
                                 lambda: acl.rt.synchronize_stream(stream))
    passes("03.2", acl, dev_a, dev_b, first, second)


def test_03_3_truly_asynchronous_upload(acl):
    stream, _ = acl.rt.create_stream()
    staging, _ = acl.rt.malloc_host(4096)
    dev_in, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    payload = (np.arange(4096) % 251).astype(np.uint8)
    fails("03.3", acl, dev_in, payload, stream, hint="no successful")
    fails("03.3", acl, ..., payload, stream)
    # straight from the numpy array: right bytes, but ACL ran it synchronously
    acl.rt.memcpy_async(dev_in, 4096, acl.util.numpy_to_ptr(payload), 4096, H2D, stream)
    fails("03.3", acl, dev_in, payload, stream, hint="pageable")
    # staged in pinned memory, but still queued when the check looks
    acl.rt.memset(dev_in, 4096, 0, 4096)
    host_view(acl, staging, 4096)[:] = payload
    acl.rt.memcpy_async(dev_in, 4096, staging, 4096, H2D, stream)
    fails("03.3", acl, dev_in, payload, stream, hint="synchronize")
    acl.rt.synchronize_stream(stream)
    passes("03.3", acl, dev_in, payload, stream)


def test_every_exercise_of_these_chapters_has_a_check():
    ids = exercises.available()
    for chapter, count in (("00", 2), ("01", 3), ("02", 2), ("03", 3)):
        assert [i for i in ids if i.startswith(chapter + ".")] == \
            [f"{chapter}.{k}" for k in range(1, count + 1)]
