"""Streams and events (chapters 01, 03, 07).

Compared: values after a synchronisation, event status codes, return codes. Not compared:
timings (elapsed time only has to be a non-negative number of milliseconds) and what a
buffer holds before synchronising (the simulator defers the work; hardware races it).
"""
import numpy as np

from acl_lab import constants as C

U8 = np.dtype(np.uint8).num
N = 4096


def _kinds(run_mode):
    """(to device, from device) for malloc_host memory in this run mode."""
    if run_mode == C.ACL_HOST:
        return C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
    return (C.ACL_MEMCPY_DEVICE_TO_DEVICE,) * 2


def _buffers(acl):
    host, _ = acl.rt.malloc_host(N)
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return host, dev, acl.util.ptr_to_numpy(host, (N,), U8)


def test_async_copies_have_landed_after_synchronize_stream(acl, run_mode):
    to_dev, from_dev = _kinds(run_mode)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    host, dev, view = _buffers(acl)
    view[:] = np.arange(N) % 251
    assert acl.rt.memcpy_async(dev, N, host, N, to_dev, stream) == 0
    assert acl.rt.memset_async(dev, N, 9, 16, stream) == 0
    assert acl.rt.memcpy_async(host, N, dev, N, from_dev, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    expected = np.arange(N) % 251
    expected[:16] = 9
    np.testing.assert_array_equal(view, expected)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0


def test_an_event_completes_once_synchronised(acl):
    stream, _ = acl.rt.create_stream()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.query_event_status(end) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.memset_async(dev, N, 1, N, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_event(end) == 0
    assert acl.rt.query_event_status(end) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0 and ms >= 0
    for e in (start, end):
        assert acl.rt.destroy_event(e) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_a_stream_waits_for_an_event_recorded_on_another(acl, run_mode):
    _, from_dev = _kinds(run_mode)
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    host, dev, view = _buffers(acl)
    view[:] = 0
    assert acl.rt.memset_async(dev, N, 0x5A, N, a) == 0
    assert acl.rt.record_event(event, a) == 0
    assert acl.rt.stream_wait_event(b, event) == 0
    assert acl.rt.memcpy_async(host, N, dev, N, from_dev, b) == 0
    assert acl.rt.synchronize_stream(b) == 0
    assert (view == 0x5A).all()


def test_the_default_stream_cannot_be_destroyed(acl):
    assert acl.rt.destroy_stream(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.synchronize_device() == 0


def test_async_copies_need_64_byte_aligned_addresses(acl, run_mode, refused):
    """docs/rules.md#rule-11. hicann/runtime does not check it itself: on hardware the guard
    enforces it, with the simulator's code."""
    to_dev, _ = _kinds(run_mode)
    stream, _ = acl.rt.create_stream()
    host, dev, _ = _buffers(acl)
    refused(acl.rt.memcpy_async(dev + 32, 64, host, 64, to_dev, stream),
            C.ACL_ERROR_RT_ADDR_UNALIGNED)
    assert acl.rt.memcpy_async(dev + 64, 64, host, 64, to_dev, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
