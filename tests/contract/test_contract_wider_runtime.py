"""The runtime's wider calls (issue 13): forced release, events with flags, timeouts, stream
polls and settings, last error, peer access, cross-stream capture.

Compared: return codes, statuses, values after a synchronisation. Not compared: timings
(a timeout's exact moment, timestamps' values). On hardware, the calls pass straight
through the guard to pyACL; the capture tests need a device that supports ACL Graph.
"""
import numpy as np
import pytest

from acl_lab import constants as C

N = 4096
U8 = np.dtype(np.uint8).num


def test_forced_release_of_streams_and_devices(acl):
    stream, ret = acl.rt.create_stream_with_config(0, 0)
    assert ret == 0 and stream
    assert acl.rt.destroy_stream_force(stream) == 0
    assert acl.rt.set_device(0) == 0                 # set twice
    assert acl.rt.reset_device_force(0) == 0         # released at once
    assert acl.rt.set_device(0) == 0                 # the fixture's teardown expects a device


def test_events_with_flags_record_time_and_reset(acl):
    stream, _ = acl.rt.create_stream()
    start, ret = acl.rt.create_event_with_flag(C.ACL_EVENT_TIME_LINE)
    assert ret == 0
    end, ret = acl.rt.create_event_with_flag(C.ACL_EVENT_TIME_LINE | C.ACL_EVENT_SYNC)
    assert ret == 0
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.memset_async(dev, N, 1, N, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_event_with_timeout(end, -1) == 0
    t0, r0 = acl.rt.event_get_timestamp(start)
    t1, r1 = acl.rt.event_get_timestamp(end)
    assert r0 == r1 == 0 and t1 >= t0
    assert acl.rt.reset_event(end, stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, -1) == 0
    assert acl.rt.query_event_status(end) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    for e in (start, end):
        assert acl.rt.destroy_event(e) == 0
    assert acl.rt.free(dev) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_bad_event_flags_and_timeouts_are_refused(acl):
    assert acl.rt.create_event_with_flag(0)[1] == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.create_event_with_flag(C.ACL_EVENT_EXTERNAL | C.ACL_EVENT_SYNC)[1] == \
        C.ACL_ERROR_RT_PARAM_INVALID
    stream, _ = acl.rt.create_stream()
    assert acl.rt.synchronize_stream_with_timeout(stream, -2) == C.ACL_ERROR_RT_PARAM_INVALID
    event, _ = acl.rt.create_event()
    assert acl.rt.synchronize_event_with_timeout(event, -2) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.destroy_event(event) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_stream_query_and_failure_mode(acl):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.set_stream_failure_mode(stream, C.ACL_STOP_ON_FAILURE) == 0
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(dev, N, 2, N, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_COMPLETE, 0)
    assert acl.rt.free(dev) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_last_error_is_kept_by_peek_and_cleared_by_get(acl):
    assert acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL) is not None     # start clean
    assert acl.rt.set_device(10_000) != 0
    code = acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL)
    assert code != 0
    assert acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL) == code
    assert acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL) == 0


def test_peer_copy_between_two_devices(acl):
    count, ret = acl.rt.get_device_count()
    if count < 2:
        pytest.skip("peer access needs two devices")
    can, ret = acl.rt.device_can_access_peer(0, 1)
    if ret != 0 or can != 1:
        pytest.skip("this machine's devices cannot access each other")
    src, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(src, N, 103, N) == 0
    assert acl.rt.set_device(1) == 0
    assert acl.rt.device_enable_peer_access(0, 0) == 0
    dst, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(dst, N, src, N, C.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    host, _ = acl.rt.malloc_host(N)
    assert acl.rt.memcpy(host, N, dst, N, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(host, N) == bytes([103]) * N
    assert acl.rt.device_disable_peer_access(0) == 0
    assert acl.rt.free_host(host) == 0 and acl.rt.free(dst) == 0
    assert acl.rt.reset_device_force(1) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.free(src) == 0


def test_cross_stream_capture_forks_and_joins_into_one_model(acl, run_mode, capturing):
    if not hasattr(acl, "mdl") or not hasattr(acl.mdl, "ri_capture_begin"):
        pytest.skip("this pyACL binds no aclmdlRI capture calls")
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    fork, r1 = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    join, r2 = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    assert r1 == r2 == 0
    a, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    b, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(s1, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(a, N, 5, N, s1) == 0
    assert acl.rt.record_event(fork, s1) == 0
    assert acl.rt.stream_wait_event(s2, fork) == 0
    assert acl.rt.memcpy_async(b, N, a, N, C.ACL_MEMCPY_DEVICE_TO_DEVICE, s2) == 0
    assert acl.rt.record_event(join, s2) == 0
    assert acl.rt.stream_wait_event(s1, join) == 0
    model, ret = acl.mdl.ri_capture_end(s1)
    assert ret == 0
    assert acl.mdl.ri_execute_async(model, s1) == 0
    assert acl.rt.synchronize_stream(s1) == 0
    host, _ = acl.rt.malloc_host(N)
    kind = C.ACL_MEMCPY_DEVICE_TO_HOST if run_mode == C.ACL_HOST else C.ACL_MEMCPY_DEVICE_TO_DEVICE
    assert acl.rt.memcpy(host, N, b, N, kind) == 0
    assert acl.util.ptr_to_bytes(host, N) == bytes([5]) * N
    assert acl.mdl.ri_destroy(model) == 0
    for e in (fork, join):
        assert acl.rt.destroy_event(e) == 0
    for p in (a, b):
        assert acl.rt.free(p) == 0
    assert acl.rt.free_host(host) == 0
    for s in (s1, s2):
        assert acl.rt.destroy_stream(s) == 0
