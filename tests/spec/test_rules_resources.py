"""The resource rules of seed 004 (rules 14-16 of docs/rules.md), devices and their reference count, deferred
execution on streams, and events (record, query, synchronize, elapsed time, cross-stream
waits)."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import PROFILES
from simhelpers import read, write

D2H, H2D = C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE


def buffers(acl, n=256):
    """A device buffer and a pinned host buffer of ``n`` bytes."""
    dev, ret = acl.rt.malloc(n, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    host, ret = acl.rt.malloc_host(n)
    assert ret == 0
    return dev, host


# ----- rule 14 -----------------------------------------------------------------------------
def test_rule14_set_device_creates_default_context_and_stream(bare_acl):
    acl = bare_acl
    assert acl.init() == 0
    assert acl.rt.get_context() == (0, C.ACL_ERROR_RT_CONTEXT_NULL)
    assert acl.rt.memset_async(0x1000, 1, 0, 1, 0) == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.rt.set_device(0) == 0
    ctx, ret = acl.rt.get_context()
    assert ret == 0
    assert acl_lab.snapshot()["contexts"] == [
        {"handle": ctx, "device": 0, "default": True, "streams": [], "events": []}]
    assert acl.rt.get_device() == (0, 0)
    dev, host = buffers(acl)
    assert acl.rt.memcpy_async(host, 256, dev, 256, D2H, 0) == 0   # the default stream exists
    assert acl.rt.synchronize_stream(0) == 0


def test_rule14_default_context_cannot_be_destroyed(acl):
    ctx, _ = acl.rt.get_context()
    assert acl.rt.destroy_context(ctx) == C.ACL_ERROR_RT_CONTEXT_NULL
    msg = acl.get_recent_err_msg()
    assert f"0x{ctx:x}" in msg and "default context" in msg and "reset_device" in msg
    assert acl.rt.get_context() == (ctx, 0)


def test_rule14_default_stream_cannot_be_destroyed(acl):
    assert acl.rt.destroy_stream(0) == C.ACL_ERROR_INVALID_PARAM
    assert "default stream" in acl.get_recent_err_msg()
    dev, host = buffers(acl)
    assert acl.rt.memcpy_async(host, 256, dev, 256, D2H, 0) == 0


def test_rule14_explicit_context_can_be_destroyed(acl):
    default_ctx, _ = acl.rt.get_context()
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0 and ctx != default_ctx
    assert acl.rt.get_context() == (ctx, 0)          # create_context makes it current
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.destroy_context(ctx) == C.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.destroy_context(0) == C.ACL_ERROR_INVALID_PARAM


def test_rule14_reset_device_releases_default_context_and_stream(acl):
    assert acl.rt.reset_device(0) == 0
    snap = acl_lab.snapshot()
    assert snap["contexts"] == [] and snap["devices"][0] == {"refs": 0, "open": False}
    assert acl.rt.get_context() == (0, C.ACL_ERROR_RT_CONTEXT_NULL)
    assert acl.rt.synchronize_stream(0) == C.ACL_ERROR_RT_CONTEXT_NULL


def test_rule14_reset_device_counts_references_then_507007(acl):
    assert acl.rt.set_device(0) == 0                 # the fixture set it once already
    assert acl.rt.reset_device(0) == 0
    assert acl_lab.snapshot()["devices"][0] == {"refs": 1, "open": True}
    assert acl.rt.malloc(64, 0)[1] == 0              # still usable
    assert acl.rt.reset_device(0) == 0
    assert acl_lab.snapshot()["devices"][0] == {"refs": 0, "open": False}
    assert acl.rt.reset_device(0) == C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert "not set" in acl.get_recent_err_msg()
    assert acl.rt.reset_device(1) == C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR   # never set


def test_rule14_set_device_rejects_a_device_that_does_not_exist(acl):
    count, ret = acl.rt.get_device_count()
    assert ret == 0 and count == PROFILES["910b"].device_count
    for bad in (count, -1):
        assert acl.rt.set_device(bad) == C.ACL_ERROR_RT_INVALID_DEVICEID
        assert f"device {bad} does not exist" in acl.get_recent_err_msg()


def test_rule14_reset_device_reports_leaks(acl, capsys):
    dev, _ = acl.rt.malloc(1000, C.ACL_MEM_MALLOC_HUGE_FIRST)
    stream, _ = acl.rt.create_stream()
    capsys.readouterr()
    assert acl.rt.reset_device(0) == 0
    err = capsys.readouterr().err
    assert f"0x{stream:x}" in err and "never destroyed" in err
    assert f"0x{dev:x}" in err and "never freed" in err
    assert acl_lab.snapshot()["allocations"] == []
    assert acl.rt.free(dev) == C.ACL_ERROR_RT_PARAM_INVALID      # released by the reset
    assert "aclrtResetDevice" in acl.get_recent_err_msg()


# ----- rule 15 -----------------------------------------------------------------------------
@pytest.mark.parametrize("explicit", [False, True], ids=["stream0", "created"])
def test_rule15_tasks_on_a_stream_run_in_issue_order(acl, explicit):
    stream = acl.rt.create_stream()[0] if explicit else 0
    dev, host = buffers(acl)
    for value in (1, 2, 3):
        assert acl.rt.memset_async(dev, 256, value, 256, stream) == 0
    assert acl.rt.memcpy_async(host, 256, dev, 256, D2H, stream) == 0
    assert acl.rt.memset_async(dev, 256, 4, 256, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, host, 256) == b"\x03" * 256
    assert read(acl, dev, 256) == b"\x04" * 256
    tasks = [c.task for c in acl_lab.tracer().calls if c.task is not None]
    assert len(tasks) == 5 and {t["stream"] for t in tasks} == {stream}
    assert all(a["end_us"] <= b["start_us"] for a, b in zip(tasks, tasks[1:]))


def test_rule15_stream_0_is_the_current_contexts_default_stream(acl):
    dev, host = buffers(acl)
    write(acl, host, b"\x09" * 256)
    assert acl.rt.memcpy_async(dev, 256, host, 256, H2D, 0) == 0
    assert acl.rt.synchronize_device() == 0          # waits for the default stream too
    assert read(acl, dev, 256) == b"\x09" * 256


# ----- rule 16 -----------------------------------------------------------------------------
def test_rule16_release_in_reverse_order_is_clean(acl, capsys):
    stream, _ = acl.rt.create_stream()
    dev, host = buffers(acl)
    assert acl.rt.memcpy_async(host, 256, dev, 256, D2H, stream) == 0
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0
    assert capsys.readouterr().err == "" and acl_lab.snapshot()["reports"] == []


def test_rule16_reset_before_destroy_stream_is_reported(acl, capsys):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.reset_device(0) == 0
    assert f"0x{stream:x}" in capsys.readouterr().err
    assert acl.rt.destroy_stream(stream) == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.finalize() == 0


def test_rule16_finalize_before_reset_device_is_reported(acl, capsys):
    host, _ = acl.rt.malloc_host(64)
    assert acl.finalize() == 0
    err = capsys.readouterr().err
    assert "device 0 was still set" in err and f"0x{host:x}" in err
    assert acl_lab.snapshot()["devices"][0]["open"] is False


# ----- deferred execution --------------------------------------------------------------------
def test_async_copy_is_not_visible_before_synchronize(acl):
    stream, _ = acl.rt.create_stream()
    dev, host = buffers(acl)
    assert acl.rt.memset(dev, 256, 0x11, 256) == 0
    assert acl.rt.memset(host, 256, 0xAA, 256) == 0
    assert acl.rt.memcpy_async(host, 256, dev, 256, D2H, stream) == 0
    assert acl.util.ptr_to_bytes(host, 256) == b"\xaa" * 256      # stale: not waited for
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.util.ptr_to_bytes(host, 256) == b"\x11" * 256


def test_async_copy_with_pageable_memory_synchronizes_then_copies(acl):
    stream, _ = acl.rt.create_stream()
    dev, host = buffers(acl)
    assert acl.rt.memset(host, 256, 5, 256) == 0
    assert acl.rt.memcpy_async(dev, 256, host, 256, H2D, stream) == 0      # pending
    array = np.zeros(256, np.uint8)
    assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(array), 256, dev, 256, D2H, stream) == 0
    assert (array == 5).all()     # the earlier task ran first, then the copy ran at once


# ----- events --------------------------------------------------------------------------------
def _timed_copy(acl, nbytes):
    """Record start, one H2D copy of ``nbytes`` pinned bytes, record end, on a new stream."""
    stream, _ = acl.rt.create_stream()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    dev, _ = acl.rt.malloc(nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(nbytes)
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.memcpy_async(dev, nbytes, host, nbytes, H2D, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    return start, end


def test_event_query_is_not_ready_until_synchronized(acl):
    never, _ = acl.rt.create_event()
    assert acl.rt.query_event_status(never) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    start, end = _timed_copy(acl, 64 << 20)
    assert acl.rt.query_event_status(end) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    assert acl.rt.synchronize_event(end) == 0
    assert acl.rt.query_event_status(end) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
    assert acl.rt.query_event_status(start) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)


def test_event_elapsed_time_is_modeled_and_deterministic(acl):
    nbytes = 64 << 20
    start, end = _timed_copy(acl, nbytes)
    assert acl.rt.event_elapsed_time(start, end) == (0.0, C.ACL_ERROR_RT_EVENT_NOT_COMPLETE)
    assert acl.rt.synchronize_event(end) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    rates = PROFILES["910b"].rates
    # one launch between the records, then the copy: DMA setup, the bytes at the pinned
    # link bandwidth, the completion
    copy_us = rates.dma_setup_us + nbytes / rates.h2d_pinned + rates.completion_us
    assert ret == 0 and ms == pytest.approx((rates.launch_us + copy_us) / 1e3)

    acl_lab.reset()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    start, end = _timed_copy(acl, nbytes)
    assert acl.rt.synchronize_event(end) == 0
    assert acl.rt.event_elapsed_time(start, end) == (ms, 0)


def test_event_elapsed_time_needs_recorded_events(acl):
    a, _ = acl.rt.create_event()
    b, _ = acl.rt.create_event()
    assert acl.rt.event_elapsed_time(a, b) == (0.0, C.ACL_ERROR_RT_INTERNAL_ERROR)
    assert f"0x{a:x} was never recorded" in acl.get_recent_err_msg()


def test_stream_wait_event_orders_work_across_streams(acl):
    producer, _ = acl.rt.create_stream()
    consumer, _ = acl.rt.create_stream()
    ready, _ = acl.rt.create_event()
    dev, host = buffers(acl, 4 << 20)
    assert acl.rt.memset(host, 4 << 20, 0, 4 << 20) == 0
    assert acl.rt.memset_async(dev, 4 << 20, 0x22, 4 << 20, producer) == 0
    assert acl.rt.record_event(ready, producer) == 0
    assert acl.rt.stream_wait_event(consumer, ready) == 0
    assert acl.rt.memcpy_async(host, 4 << 20, dev, 4 << 20, D2H, consumer) == 0

    timeline = acl_lab.snapshot()["timeline"]
    memset, copy = timeline[0], timeline[-1]
    assert (memset["kind"], copy["kind"]) == ("memset", "memcpy")
    assert copy["start_us"] >= memset["end_us"]       # modeled: the copy waits for the memset

    assert acl.rt.synchronize_stream(consumer) == 0   # only the consumer is waited for ...
    assert acl.util.ptr_to_bytes(host, 16) == b"\x22" * 16   # ... yet the producer ran first


def test_synchronizing_another_devices_stream_is_allowed_using_it_is_not(acl):
    s1, _ = acl.rt.create_stream()
    assert acl.rt.set_device(1) == 0                   # this thread is now on device 1
    assert acl.rt.synchronize_stream(s1) == 0          # the runtime switches context to wait
    assert acl.rt.memset_async(0x1, 1, 0, 1, s1) != 0  # but queueing work on it is refused
    assert acl.rt.record_event(acl.rt.create_event()[0], s1) == C.ACL_ERROR_RT_STREAM_CONTEXT
    assert "device 0" in acl.get_recent_err_msg()


def test_work_a_free_waited_for_keeps_its_modeled_time(acl):
    """free() waits for queued work on the block: the host clock moves to its end, and a
    stream told to wait for an event after it still waits in modeled time."""
    a, b = acl.rt.create_stream()[0], acl.rt.create_stream()[0]
    big, _ = acl.rt.malloc(64 << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    ev, _ = acl.rt.create_event()
    assert acl.rt.memset_async(big, 64 << 20, 1, 64 << 20, a) == 0
    assert acl.rt.record_event(ev, a) == 0
    recorded_at = next(e["recorded_at_us"] for e in acl_lab.snapshot()["events"]
                       if e["handle"] == ev)
    assert acl.rt.free(big) == 0                      # runs the memset: the host waited for it
    assert acl_lab.snapshot()["now_us"] >= recorded_at
    assert acl.rt.query_event_status(ev) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
    assert acl.rt.stream_wait_event(b, ev) == 0
    wait = acl_lab.snapshot()["timeline"][-1]
    assert wait["kind"] == "wait" and wait["start_us"] >= recorded_at
