"""Cross-stream capture: fork and join across streams with ACL_EVENT_SYNC events into one
model (hicann/runtime docs/zh/dev_guide/04-02_cross_stream_capture.md; ApiImpl::EventRecord,
ApiImpl::StreamWaitEvent in src/runtime/api/impl/api_impl.cc; Context::
CheckCaptureModelValidity in src/runtime/feature/aclgraph/context_aclgraph.cc)."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from simhelpers import capture_status, device_buffer, model_entry, read, tensor

GLOBAL, RELAXED = C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED
ACTIVE, INVALIDATED = C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, C.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
N = 256


@pytest.fixture
def streams(acl):
    out = [acl.rt.create_stream()[0] for _ in range(3)]
    assert all(out)
    return out


def sync_event(acl) -> int:
    e, ret = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    assert ret == 0, acl.get_recent_err_msg()
    return e


def cross_stream_add(acl, s1: int, s2: int) -> dict:
    """The runtime docs' example: copy in on stream1, aclnnAdd on stream2 (forked with
    event1), copy out on stream1 after joining with event2; replayed eight times."""
    f32 = C.ACL_FLOAT
    self_d, other_d, out_d = device_buffer(acl, 32), device_buffer(acl, 32), device_buffer(acl, 32)
    self_t, other_t, out_t = (tensor(acl, p, (4, 2), f32) for p in (self_d, other_d, out_d))
    alpha = acl.nn.create_scalar(1.1, f32)
    ws_size, executor, ret = acl.nn.add_get_workspace_size(self_t, other_t, alpha, out_t)
    assert ret == 0
    self_h, other_h = acl.rt.malloc_host(32)[0], acl.rt.malloc_host(32)[0]
    host = {p: acl.util.ptr_to_numpy(p, (8,), np.dtype(np.float32).num) for p in (self_h, other_h)}
    host[self_h][:], host[other_h][:] = 0.0, 1.0
    e1, e2 = sync_event(acl), sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.memcpy_async(self_d, 32, self_h, 32, H2D, s1) == 0
    assert acl.mdl.ri_capture_thread_exchange_mode(RELAXED) == (GLOBAL, 0)
    assert acl.rt.memcpy(other_d, 32, other_h, 32, H2D) == 0     # once, not recorded
    assert acl.mdl.ri_capture_thread_exchange_mode(GLOBAL) == (RELAXED, 0)
    assert acl.rt.record_event(e1, s1) == 0                       # fork
    assert acl.rt.stream_wait_event(s2, e1) == 0
    assert acl.nn.add(0, ws_size, executor, s2) == 0
    assert acl.rt.record_event(e2, s2) == 0                       # join
    assert acl.rt.stream_wait_event(s1, e2) == 0
    assert acl.rt.memcpy_async(self_h, 32, out_d, 32, D2H, s1) == 0
    model, ret = acl.mdl.ri_capture_end(s1)
    assert ret == 0, acl.get_recent_err_msg()
    rows = []
    for _ in range(8):
        assert acl.mdl.ri_execute_async(model, s1) == 0
        assert acl.rt.synchronize_stream(s1) == 0
        rows.append([round(float(v), 4) for v in host[self_h]])
    return {"model": model, "rows": rows, "events": (e1, e2)}


def test_fork_join_capture_makes_one_model_that_replays_on_two_streams(acl, streams):
    s1, s2, _ = streams
    out = cross_stream_add(acl, s1, s2)
    assert out["rows"] == [[round(k * 1.1, 4)] * 8 for k in range(1, 9)]
    m = model_entry(out["model"])
    assert m["stream"] == s1 and m["streams"] == [s1, s2]
    assert [(t["kind"], t["stream"]) for t in m["tasks"]] == [
        ("memcpy", s1), ("record", s1), ("wait", s2), ("op", s2), ("record", s2),
        ("wait", s1), ("memcpy", s1)]
    assert capture_status(acl, s2) == C.ACL_MODEL_RI_CAPTURE_STATUS_NONE  # both left the capture


def test_a_stream_that_waits_on_a_captured_event_joins_the_capture(acl, streams):
    s1, s2, _ = streams
    e = sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert capture_status(acl, s2) == C.ACL_MODEL_RI_CAPTURE_STATUS_NONE
    assert acl.rt.stream_wait_event(s2, e) == 0
    assert acl.mdl.ri_capture_get_info(s2)[:2] == acl.mdl.ri_capture_get_info(s1)[:2]
    assert acl.rt.synchronize_stream(s2) == C.ACL_ERROR_RT_STREAM_CAPTURED   # s2 captures now


def test_capture_end_with_a_stream_not_joined_back_fails_unjoined(acl, streams):
    """CheckCaptureModelValidity: a forked stream whose last task is not a record the origin
    waits on -> RT_ERROR_STREAM_UNJOINED (107025); the model is destroyed."""
    s1, s2, _ = streams
    e = sync_event(acl)
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.stream_wait_event(s2, e) == 0
    assert acl.rt.memset_async(buf, N, 1, N, s2) == 0
    assert acl.mdl.ri_capture_end(s1) == (0, C.ACL_ERROR_RT_STREAM_UNJOINED)
    assert "join" in acl.get_recent_err_msg()
    assert not acl_lab.snapshot()["models"]
    assert capture_status(acl, s2) == C.ACL_MODEL_RI_CAPTURE_STATUS_NONE
    assert acl.rt.memset_async(buf, N, 2, N, s2) == 0                # s2 runs eagerly again
    assert acl.rt.synchronize_stream(s2) == 0
    assert read(acl, buf, N) == bytes([2]) * N


def test_join_record_nobody_waits_on_fails_unjoined(acl, streams):
    s1, s2, _ = streams
    e1, e2 = sync_event(acl), sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e1, s1) == 0
    assert acl.rt.stream_wait_event(s2, e1) == 0
    assert acl.rt.record_event(e2, s2) == 0                       # but s1 never waits on it
    assert acl.mdl.ri_capture_end(s1) == (0, C.ACL_ERROR_RT_STREAM_UNJOINED)


def test_a_chain_of_streams_joins_back_through_the_middle_one(acl, streams):
    """The docs' stream3 -> stream2 -> origin return path is a valid join."""
    s1, s2, s3 = streams
    fork1, fork2, back3, back2 = (sync_event(acl) for _ in range(4))
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(fork1, s1) == 0
    assert acl.rt.stream_wait_event(s2, fork1) == 0
    assert acl.rt.record_event(fork2, s2) == 0
    assert acl.rt.stream_wait_event(s3, fork2) == 0
    assert acl.rt.record_event(back3, s3) == 0
    assert acl.rt.stream_wait_event(s2, back3) == 0
    assert acl.rt.record_event(back2, s2) == 0
    assert acl.rt.stream_wait_event(s1, back2) == 0
    model, ret = acl.mdl.ri_capture_end(s1)
    assert ret == 0, acl.get_recent_err_msg()
    assert model_entry(model)["streams"] == [s1, s2, s3]


def test_capture_end_on_a_joined_stream_is_unmatched(acl, streams):
    """StreamEndCapture: a stream that did not begin the capture ->
    RT_ERROR_STREAM_CAPTURE_UNMATCHED (107036); the capture goes on."""
    s1, s2, _ = streams
    e = sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.stream_wait_event(s2, e) == 0
    assert acl.mdl.ri_capture_end(s2) == (0, C.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED)
    assert capture_status(acl, s1) == ACTIVE


def test_event_recorded_outside_the_capture_cannot_be_waited_in_it(acl, streams):
    """StreamWaitEvent: an Ex event whose record is not in the model ->
    RT_ERROR_STREAM_CAPTURE_ISOLATION, i.e. ACL_ERROR_RT_CAPTURE_DEPENDENCY (107024); the
    capture stays ACTIVE."""
    s1, s2, _ = streams
    e = sync_event(acl)
    assert acl.rt.record_event(e, s2) == 0
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.stream_wait_event(s1, e) == C.ACL_ERROR_RT_CAPTURE_DEPENDENCY
    assert capture_status(acl, s1) == ACTIVE
    assert acl.mdl.ri_capture_end(s1)[1] == 0


def test_ex_event_without_sync_flag_is_silently_not_recorded(acl, streams):
    """EventRecord: an event that adds no wait task (no ACL_EVENT_SYNC) returns success and
    records nothing (COND_RETURN_WARN(IsEventWithoutWaitTask, RT_ERROR_NONE))."""
    s1, _, _ = streams
    e, ret = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_TIME_LINE)
    assert ret == 0
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    model, ret = acl.mdl.ri_capture_end(s1)
    assert ret == 0 and model_entry(model)["tasks"] == []


def test_captured_event_cannot_be_synchronized_or_timed_until_capture_end(acl, streams):
    """ApiErrorDecorator::EventSynchronize / EventElapsedTime: RT_ERROR_EVENT_CAPTURED."""
    s1, _, _ = streams
    e = sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.synchronize_event(e) == C.ACL_ERROR_RT_EVENT_CAPTURED
    assert acl.rt.event_elapsed_time(e, e)[1] == C.ACL_ERROR_RT_EVENT_CAPTURED
    assert acl.mdl.ri_capture_end(s1)[1] == 0
    assert acl.rt.synchronize_event(e) == 0


def test_default_stream_cannot_wait_on_a_captured_event(acl, streams):
    s1, _, _ = streams
    e = sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.stream_wait_event(0, e) == C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
    assert capture_status(acl, s1) == ACTIVE


def test_linking_two_captures_through_an_event_invalidates(acl, streams):
    """CaptureEventWait: the event's model differs from the waiting stream's ->
    RT_ERROR_STREAM_CAPTURE_CONFLICT (107032), and TerminateCapture (capture_model_utils.cc)
    invalidates the event's capture and the stream's."""
    s1, s2, _ = streams
    e = sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.mdl.ri_capture_begin(s2, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.stream_wait_event(s2, e) == C.ACL_ERROR_STREAM_CAPTURE_CONFLICT
    assert capture_status(acl, s2) == INVALIDATED and capture_status(acl, s1) == INVALIDATED
    assert acl.mdl.ri_capture_end(s2) == (0, C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
    assert acl.mdl.ri_capture_end(s1) == (0, C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
    assert acl_lab.snapshot()["models"] == []


def test_recording_another_captures_event_invalidates_both(acl, streams):
    """CaptureEventRecord: an event captured in one model recorded on a stream of another
    -> 107032, both captures terminated."""
    s1, s2, _ = streams
    e = sync_event(acl)
    assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
    assert acl.mdl.ri_capture_begin(s2, GLOBAL) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.record_event(e, s2) == C.ACL_ERROR_STREAM_CAPTURE_CONFLICT
    assert capture_status(acl, s1) == INVALIDATED and capture_status(acl, s2) == INVALIDATED
    for s in (s1, s2):
        assert acl.mdl.ri_capture_end(s) == (0, C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)


def test_parallel_branches_replay_in_the_time_of_the_longest(acl, streams):
    """A replay's modeled time follows the critical path: two forked branches of equal
    work cost one branch, not two."""
    s1, s2, _ = streams
    a, b = device_buffer(acl, 1 << 20), device_buffer(acl, 1 << 20)

    def capture(fork: bool) -> int:
        e1, e2 = sync_event(acl), sync_event(acl)
        assert acl.mdl.ri_capture_begin(s1, GLOBAL) == 0
        if fork:
            assert acl.rt.record_event(e1, s1) == 0
            assert acl.rt.stream_wait_event(s2, e1) == 0
        assert acl.rt.memset_async(a, 1 << 20, 1, 1 << 20, s1) == 0
        assert acl.rt.memset_async(b, 1 << 20, 2, 1 << 20, s2 if fork else s1) == 0
        if fork:
            assert acl.rt.record_event(e2, s2) == 0
            assert acl.rt.stream_wait_event(s1, e2) == 0
        model, ret = acl.mdl.ri_capture_end(s1)
        assert ret == 0, acl.get_recent_err_msg()
        return model

    def replay_us(model: int) -> float:
        assert acl.mdl.ri_execute_async(model, s1) == 0
        assert acl.rt.synchronize_stream(s1) == 0
        t = [t for t in acl_lab.snapshot()["timeline"] if t["model"] == model][-1]
        return t["end_us"] - t["start_us"]

    serial, forked = replay_us(capture(False)), replay_us(capture(True))
    assert forked < 0.75 * serial
