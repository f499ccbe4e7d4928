"""The runtime calls beyond the chapters' basics, one test per rule and code, each rule as
hicann/runtime implements it (file and function named in the test's docstring)."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from simhelpers import device_buffer, read, run_in_thread, write

N = 256
BIG = 16 << 20
D2D = C.ACL_MEMCPY_DEVICE_TO_DEVICE
SYNC = C.ACL_EVENT_SYNC


def event(acl, flag: int | None = None, ex: bool = False) -> int:
    if flag is None:
        e, ret = acl.rt.create_event()
    elif ex:
        e, ret = acl.rt.create_event_ex_with_flag(flag)
    else:
        e, ret = acl.rt.create_event_with_flag(flag)
    assert ret == 0, acl.get_recent_err_msg()
    return e


def long_copy(acl, stream: int) -> None:
    """Queue host-to-device copies that take modeled milliseconds (8 × 16 MiB over a
    25 GB/s link: over 5 ms), so a 1 ms timeout runs out; the same two buffers keep RAM low."""
    src, ret = acl.rt.malloc_host(BIG)
    assert ret == 0
    dst = device_buffer(acl, BIG)
    for _ in range(8):
        assert acl.rt.memcpy_async(dst, BIG, src, BIG, C.ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0


# ----- forced release ------------------------------------------------------------------------
def test_reset_device_force_releases_the_device_however_often_it_was_set(acl):
    """aclrtResetDeviceForce (device.cpp, ApiImpl::DeviceResetForce): one call releases a
    device set several times; afterwards the thread has no context."""
    assert acl.rt.set_device(0) == 0                        # set twice now
    assert acl.rt.reset_device_force(0) == 0
    assert acl_lab.snapshot()["devices"][0] == {"refs": 0, "open": False}
    assert acl.rt.create_stream()[1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.rt.reset_device_force(0) == C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert acl.rt.reset_device_force(99) == C.ACL_ERROR_RT_INVALID_DEVICEID


def test_destroy_stream_force_discards_queued_work(acl, stream):
    """aclrtDestroyStreamForce: the stream goes without waiting; its queued tasks never run
    (stream.cpp aclrtDestroyStreamForceImpl: NULL is ACL_ERROR_INVALID_PARAM)."""
    buf = device_buffer(acl)
    write(acl, buf, bytes(N))
    assert acl.rt.memset_async(buf, N, 7, N, stream) == 0
    assert acl.rt.destroy_stream_force(stream) == 0
    assert read(acl, buf, N) == bytes(N)
    assert acl.rt.destroy_stream_force(stream) == C.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.destroy_stream_force(0) == C.ACL_ERROR_INVALID_PARAM


# ----- events with flags -----------------------------------------------------------------------
@pytest.mark.parametrize("flag", [SYNC, C.ACL_EVENT_TIME_LINE, SYNC | C.ACL_EVENT_TIME_LINE,
                                  C.ACL_EVENT_CAPTURE_STREAM_PROGRESS, C.ACL_EVENT_EXTERNAL])
def test_create_event_with_flag_accepts_the_header_flags(acl, flag):
    e = event(acl, flag)
    assert acl.rt.destroy_event(e) == 0


@pytest.mark.parametrize("flag, ex", [(0, False), (0x40, False), (0, True), (0x80, True),
                                      (C.ACL_EVENT_EXTERNAL, True),
                                      (C.ACL_EVENT_EXTERNAL | SYNC, False)])
def test_create_event_rejects_flags_outside_the_header(acl, flag, ex):
    """ApiErrorDecorator::EventCreate / EventCreateEx: no known bit, a bit beyond the
    maximum, or EXTERNAL ORed with others is RT_ERROR_INVALID_VALUE (107000)."""
    call = acl.rt.create_event_ex_with_flag if ex else acl.rt.create_event_with_flag
    assert call(flag) == (0, C.ACL_ERROR_RT_PARAM_INVALID)
    assert "flag" in acl.get_recent_err_msg()


def test_reset_event_returns_an_event_to_not_recorded(acl, stream):
    """aclrtResetEvent(event, stream): a reset task; the event reads NOT_READY again."""
    e = event(acl, SYNC)
    assert acl.rt.record_event(e, stream) == 0
    assert acl.rt.synchronize_event(e) == 0
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
    assert acl.rt.reset_event(e, stream) == 0
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)


def test_reset_event_refuses_events_created_ex(acl, stream):
    """ApiImpl::EventReset: events in the runtime's new mode (aclrtCreateEventExWithFlag)
    return RT_ERROR_FEATURE_NOT_SUPPORT."""
    assert acl.rt.reset_event(event(acl, SYNC, ex=True), stream) == \
        C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


def test_event_timestamp_is_when_the_stream_reached_the_record(acl, stream):
    """aclrtEventGetTimestamp (Event::GetTimeStamp): µs of device time; the difference of
    two timestamps agrees with aclrtEventElapsedTime."""
    start, stop = event(acl, C.ACL_EVENT_TIME_LINE), event(acl, C.ACL_EVENT_TIME_LINE)
    assert acl.rt.record_event(start, stream) == 0
    long_copy(acl, stream)
    assert acl.rt.record_event(stop, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    t0, r0 = acl.rt.event_get_timestamp(start)
    t1, r1 = acl.rt.event_get_timestamp(stop)
    ms, ret = acl.rt.event_elapsed_time(start, stop)
    assert (r0, r1, ret) == (0, 0, 0)
    assert t1 > t0 and abs((t1 - t0) / 1000 - ms) < 0.01


def test_event_timestamp_of_an_event_never_recorded_fails(acl):
    """Event::GetTimeStamp: no record is RT_ERROR_EVENT_RECORDER_NULL (507000)."""
    assert acl.rt.event_get_timestamp(event(acl)) == (0, C.ACL_ERROR_RT_INTERNAL_ERROR)


def test_event_timestamp_before_the_event_completes_is_invalid(acl, stream):
    e = event(acl)
    long_copy(acl, stream)
    assert acl.rt.record_event(e, stream) == 0
    assert acl.rt.event_get_timestamp(e) == (0, C.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID)


def test_external_event_cannot_be_synchronized_or_timed(acl, stream):
    """ApiErrorDecorator::EventSynchronize / EventElapsedTime / EventGetTimeStamp: an
    ACL_EVENT_EXTERNAL event is RT_ERROR_FEATURE_NOT_SUPPORT."""
    e = event(acl, C.ACL_EVENT_EXTERNAL)
    assert acl.rt.record_event(e, stream) == 0
    assert acl.rt.synchronize_event(e) == C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert acl.rt.event_get_timestamp(e)[1] == C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


def test_waiting_on_a_plain_event_never_recorded_is_refused(acl, stream):
    """Event::Wait (hicann/runtime event.cc): an event without ACL_EVENT_SYNC / EXTERNAL that
    was never recorded -> RT_ERROR_INVALID_VALUE (107000); once recorded (even if reset
    since), waiting is fine."""
    e = event(acl)
    assert acl.rt.stream_wait_event(stream, e) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "never been recorded" in acl.get_recent_err_msg()
    assert acl.rt.record_event(e, stream) == 0
    assert acl.rt.reset_event(e, stream) == 0
    assert acl.rt.stream_wait_event(stream, e) == 0


def test_waiting_on_an_ex_event_never_recorded_does_not_block(acl, stream):
    """Event::WaitSendCheck: an aclrtCreateEventExWithFlag event not recorded yet ->
    success, the stream goes on at once ("wait first, return suc")."""
    buf = device_buffer(acl)
    assert acl.rt.stream_wait_event(stream, event(acl, SYNC, ex=True)) == 0
    assert acl.rt.memset_async(buf, N, 3, N, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, buf, N) == bytes([3]) * N


# ----- host waits with a limit ---------------------------------------------------------------
def test_synchronize_stream_with_timeout_times_out_in_modeled_time(acl, stream):
    """aclrtSynchronizeStreamWithTimeout (stream.cpp): past the limit,
    ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046); the host clock moved by the timeout."""
    long_copy(acl, stream)
    before = acl_lab.snapshot()["now_us"]
    assert acl.rt.synchronize_stream_with_timeout(stream, 1) == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    assert acl_lab.snapshot()["now_us"] == pytest.approx(before + 1000)
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_NOT_READY, 0)
    assert acl.rt.synchronize_stream_with_timeout(stream, -1) == 0
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_COMPLETE, 0)


def test_synchronize_stream_with_timeout_rejects_below_minus_one(acl, stream):
    assert acl.rt.synchronize_stream_with_timeout(stream, -2) == C.ACL_ERROR_RT_PARAM_INVALID


def test_synchronize_stream_with_a_long_enough_timeout_succeeds(acl, stream):
    long_copy(acl, stream)
    assert acl.rt.synchronize_stream_with_timeout(stream, 10_000) == 0


def test_synchronize_event_with_timeout_times_out_in_modeled_time(acl, stream):
    """aclrtSynchronizeEventWithTimeout (event.cpp): ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
    (507047); 0 and below -1 are invalid (ApiErrorDecorator::EventSynchronize)."""
    e = event(acl)
    long_copy(acl, stream)
    assert acl.rt.record_event(e, stream) == 0
    assert acl.rt.synchronize_event_with_timeout(e, 1) == C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
    assert acl.rt.synchronize_event_with_timeout(e, 0) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.synchronize_event_with_timeout(e, -2) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.synchronize_event_with_timeout(e, -1) == 0
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)


def test_synchronize_event_with_timeout_on_an_event_never_recorded_returns_at_once(acl):
    assert acl.rt.synchronize_event_with_timeout(event(acl), 1) == 0


# ----- streams: poll, settings, configuration --------------------------------------------------
def test_stream_query_reports_not_ready_then_complete(acl, stream):
    """aclrtStreamQuery: ACL_STREAM_STATUS_NOT_READY while work is due, COMPLETE after."""
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_COMPLETE, 0)
    long_copy(acl, stream)
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_NOT_READY, 0)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_COMPLETE, 0)


def test_stream_query_during_capture_is_illegal(acl, stream):
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.stream_query(stream)[1] == C.ACL_ERROR_RT_STREAM_CAPTURED
    assert acl.mdl.ri_capture_end(stream)[1] == 0


def test_set_stream_failure_mode_takes_the_two_modes_and_the_default_stream(acl, stream):
    assert acl.rt.set_stream_failure_mode(stream, C.ACL_STOP_ON_FAILURE) == 0
    assert acl.rt.set_stream_failure_mode(0, C.ACL_CONTINUE_ON_FAILURE) == 0
    assert acl.rt.set_stream_failure_mode(stream, 2) == C.ACL_ERROR_RT_PARAM_INVALID


def test_set_stream_failure_mode_takes_a_uint64_mode_as_the_header_declares(acl, stream):
    """A mode above 32 bits reaches the runtime's mode check; only one past 64 bits is a
    parameter that does not fit (aclrtSetStreamFailureMode(aclrtStream, uint64_t mode))."""
    assert acl.rt.set_stream_failure_mode(stream, 1 << 32 | 1) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "is not ACL_CONTINUE_ON_FAILURE" in acl.get_recent_err_msg()
    assert acl.rt.set_stream_failure_mode(stream, -1) == C.ACL_ERROR_INVALID_PARAM
    assert "uint64_t" in acl.get_recent_err_msg()


def test_create_stream_with_config_makes_a_working_stream(acl):
    """aclrtCreateStreamWithConfig(priority, flag) -> (stream, ret), as pyACL binds it."""
    s, ret = acl.rt.create_stream_with_config(0, C.ACL_STREAM_FAST_LAUNCH)
    assert ret == 0
    buf = device_buffer(acl)
    assert acl.rt.memset_async(buf, N, 5, N, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert read(acl, buf, N) == bytes([5]) * N
    assert acl.rt.destroy_stream(s) == 0


# ----- last error ------------------------------------------------------------------------------
def test_peek_keeps_and_get_clears_the_last_error(acl):
    """aclrtPeekAtLastError / aclrtGetLastError (context.cpp, ApiImpl::PeekLastErr /
    GetLastErr): the thread's last failure code; get clears it, peek does not."""
    assert acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL) == 0
    assert acl.rt.malloc(0, 0)[1] == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.create_stream()[1] == 0                    # success does not clear it
    assert acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL) == 0


def test_last_error_is_per_thread(acl):
    assert acl.rt.malloc(0, 0)[1] == C.ACL_ERROR_INVALID_PARAM
    assert run_in_thread(lambda: acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL)) == 0
    assert acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL) == C.ACL_ERROR_INVALID_PARAM


def test_last_error_level_other_than_thread_is_invalid(acl):
    assert acl.rt.peek_at_last_error(1) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.get_last_error(1) == C.ACL_ERROR_INVALID_PARAM


# ----- peer access ---------------------------------------------------------------------------
def test_copy_between_devices_needs_peer_access(acl):
    """The official 1_basic_features/device/2_device_P2P flow: refused before the current
    device enables access to the other, a plain D2D copy once it has."""
    src = device_buffer(acl)
    write(acl, src, bytes([103]) * N)
    assert acl.rt.set_device(1) == 0
    dst = device_buffer(acl)
    assert acl.rt.memcpy(dst, N, src, N, D2D) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "peer access" in acl.get_recent_err_msg()
    assert acl.rt.device_can_access_peer(1, 0) == (1, 0)
    assert acl.rt.device_enable_peer_access(0, 0) == 0
    assert acl.rt.memcpy(dst, N, src, N, D2D) == 0
    assert read(acl, dst, N) == bytes([103]) * N
    assert acl.rt.device_disable_peer_access(0) == 0
    assert acl.rt.memcpy(dst, N, src, N, D2D) == C.ACL_ERROR_RT_PARAM_INVALID


def test_peer_access_with_itself_is_an_invalid_parameter(acl):
    """memory.cpp: deviceId == peerDeviceId is ACL_ERROR_INVALID_PARAM."""
    assert acl.rt.device_can_access_peer(0, 0) == (0, C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.device_enable_peer_access(0, 0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.device_disable_peer_access(0) == C.ACL_ERROR_INVALID_PARAM


def test_peer_access_flags_are_reserved(acl):
    """aclrtDeviceEnablePeerAccessImpl: flags other than 0 are ACL_ERROR_FEATURE_UNSUPPORTED."""
    assert acl.rt.device_enable_peer_access(1, 1) == C.ACL_ERROR_FEATURE_UNSUPPORTED


def test_peer_access_to_a_missing_device_is_an_invalid_device(acl):
    assert acl.rt.device_can_access_peer(0, 99) == (0, C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert acl.rt.device_enable_peer_access(99, 0) == C.ACL_ERROR_RT_INVALID_DEVICEID


def test_peer_access_is_not_supported_in_device_run_mode(acl_on):
    """ApiImpl::DeviceCanAccessPeer: offline (ACL_DEVICE) run mode is not supported."""
    from acl_lab.sim.profiles import PROFILES
    board = next(n for n, p in PROFILES.items() if p.run_mode == C.ACL_DEVICE)
    acl = acl_on(board)
    assert acl.rt.device_can_access_peer(0, 1)[1] in (C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                                      C.ACL_ERROR_RT_INVALID_DEVICEID)


def test_resetting_a_device_forgets_its_peer_access(acl):
    assert acl.rt.device_enable_peer_access(1, 0) == 0
    assert acl.rt.reset_device_force(0) == 0
    assert acl.rt.set_device(0) == 0
    src = device_buffer(acl)
    assert acl.rt.set_device(1) == 0
    assert acl.rt.set_context(acl_lab.snapshot()["contexts"][0]["handle"]) == 0
    assert acl.rt.memcpy(device_buffer(acl), N, src, N, D2D) in (C.ACL_ERROR_RT_PARAM_INVALID, 0)
    assert acl_lab.snapshot()["contexts"]     # the process is still consistent


def test_int_arguments_out_of_their_c_range_get_a_code(acl):
    assert acl.rt.create_event_with_flag(-1) == (0, C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.device_enable_peer_access(1 << 40, 0) == C.ACL_ERROR_INVALID_PARAM
    with pytest.raises(TypeError):
        acl.rt.create_event_with_flag("SYNC")
    assert np.int64(1) == 1     # numpy ints are ints to pyACL's parser
    e, ret = acl.rt.create_event_with_flag(np.int64(SYNC))
    assert ret == 0 and e
