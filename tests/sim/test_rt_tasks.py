"""acl.rt's streams, events and notifies beyond the basics, and the exception information of
a failed task (issue 31, part A): each call's success, each failure code the runtime gives
(hicann/runtime stream.cpp, event.cpp, notify.cpp, callback.cpp; api_c_stream.cc,
api_c_event.cc, api_error.cc, api_impl.cc), what a refused call leaves, and the snapshot."""
from __future__ import annotations

import os
import threading

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.device_facts import CHIPS
from simhelpers import refused, unchanged


def stream_row(handle):
    return next(s for s in acl_lab.snapshot()["streams"] if s["handle"] == handle)


# ----- ids and counts ------------------------------------------------------------------------
def test_stream_and_event_ids_follow_creation_order(acl):
    first, _ = acl.rt.create_stream()
    second, _ = acl.rt.create_stream()
    assert acl.rt.stream_get_id(first) == (1, 0)
    assert acl.rt.stream_get_id(second) == (2, 0)
    assert acl.rt.stream_get_id(0) == (0, 0)
    assert stream_row(second)["settings"]["id"] == 2
    e1, _ = acl.rt.create_event()
    e2, _ = acl.rt.create_event()
    assert acl.rt.get_event_id(e1) == (1, 0) and acl.rt.get_event_id(e2) == (2, 0)
    refused(acl, acl.rt.get_event_id(0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl, acl.rt.stream_get_id(0xDEAD), C.ACL_ERROR_RT_INVALID_HANDLE)


@pytest.mark.parametrize("profile", ["910b", "310p", "310b"])
def test_available_counts_fall_as_streams_and_events_are_made(acl_on, profile):
    acl = acl_on(profile)
    streams, ret = acl.rt.get_stream_available_num()
    assert ret == 0
    events, ret = acl.rt.get_event_avail_num()
    assert ret == 0
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    assert acl.rt.get_stream_available_num() == (streams - 1, 0)
    assert acl.rt.get_event_avail_num() == (events - 1, 0)
    assert acl.rt.destroy_stream(s) == 0 and acl.rt.destroy_event(e) == 0
    assert acl.rt.get_stream_available_num() == (streams, 0)


def test_available_streams_is_a_chip_feature(acl_on):
    acl = acl_on("310")
    refused(acl, acl.rt.get_stream_available_num(), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.get_event_avail_num() == (CHIPS["Ascend310"].events, 0)


# ----- attributes and overflow ----------------------------------------------------------------
def test_stream_attributes(acl, stream):
    assert acl.rt.get_stream_attribute(stream, C.ACL_STREAM_ATTR_FAILURE_MODE) == (
        {"failureMode": 0}, 0)
    assert acl.rt.set_stream_attribute(stream, C.ACL_STREAM_ATTR_FAILURE_MODE,
                                       {"failureMode": C.ACL_STOP_ON_FAILURE}) == 0
    assert acl.rt.get_stream_attribute(stream, C.ACL_STREAM_ATTR_FAILURE_MODE) == (
        {"failureMode": 1}, 0)
    assert acl.rt.set_stream_attribute(stream, C.ACL_STREAM_ATTR_USER_CUSTOM_TAG,
                                       {"userCustomTag": 77}) == 0
    assert acl.rt.get_stream_attribute(stream, C.ACL_STREAM_ATTR_USER_CUSTOM_TAG) == (
        {"userCustomTag": 77}, 0)
    assert acl.rt.set_stream_attribute(stream, C.ACL_STREAM_ATTR_PRIORITY, {"reserved": [3]}) == 0
    assert acl.rt.get_stream_attribute(stream, C.ACL_STREAM_ATTR_PRIORITY) == (
        {"reserved": [3, 0, 0, 0]}, 0)
    settings = stream_row(stream)["settings"]
    assert settings["failure_mode"] == 1 and settings["user_custom_tag"] == 77
    # refusals: the union pyACL returns still has the key asked for
    assert acl.rt.get_stream_attribute(0xDEAD, C.ACL_STREAM_ATTR_USER_CUSTOM_TAG) == (
        {"userCustomTag": 0}, C.ACL_ERROR_RT_INVALID_HANDLE)
    refused(acl, unchanged(lambda: acl.rt.set_stream_attribute(
        stream, C.ACL_STREAM_ATTR_FAILURE_MODE, {"failureMode": 5})), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.set_stream_attribute(stream, 9, {}), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.set_stream_attribute(stream, C.ACL_STREAM_ATTR_PRIORITY,
                                             {"reserved": [8]}), C.ACL_ERROR_RT_PARAM_INVALID)
    with pytest.raises(TypeError, match="not dict"):
        acl.rt.set_stream_attribute(stream, C.ACL_STREAM_ATTR_FAILURE_MODE, 1)


def test_overflow_switch_per_chip(acl_on):
    acl = acl_on("910b")
    s, _ = acl.rt.create_stream()
    assert acl.rt.get_stream_overflow_switch(s) == (0, 0)
    assert acl.rt.set_stream_overflow_switch(s, 1) == 0
    assert acl.rt.get_stream_overflow_switch(s) == (1, 0)
    assert acl.rt.get_stream_attribute(s, C.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK) == (
        {"overflowSwitch": 1}, 0)
    refused(acl, acl.rt.set_stream_overflow_switch(s, 2), C.ACL_ERROR_INVALID_PARAM)
    acl = acl_on("310p")            # no per-stream switch: accepted, and always on
    s, _ = acl.rt.create_stream()
    assert acl.rt.set_stream_overflow_switch(s, 0) == 0
    assert acl.rt.get_stream_overflow_switch(s) == (1, 0)


def test_overflow_status_is_copied_to_device_memory(acl, stream):
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset(dev, 64, 0xAB, 64) == 0
    assert acl.rt.get_overflow_status(dev, 64, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    host = np.zeros(64, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 64, dev, 64,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert not host.any()                                   # no task overflowed
    assert acl.rt.reset_overflow_status(stream) == 0
    refused(acl, acl.rt.get_overflow_status(dev, 32, stream), C.ACL_ERROR_RT_PARAM_INVALID, "64")
    refused(acl, acl.rt.get_overflow_status(0, 64, stream), C.ACL_ERROR_INVALID_PARAM)
    pinned, _ = acl.rt.malloc_host(64)
    refused(acl, unchanged(lambda: acl.rt.get_overflow_status(pinned, 64, stream)),
            C.ACL_ERROR_RT_PARAM_INVALID, "host memory")
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(pinned) == 0
    kinds = {t["kind"] for t in acl_lab.snapshot()["timeline"]}
    assert "overflow" in kinds


def test_overflow_status_is_not_on_every_chip(acl_on):
    acl = acl_on("310")
    dev, _ = acl.rt.malloc(64, 0)
    refused(acl, acl.rt.reset_overflow_status(0), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


# ----- events ---------------------------------------------------------------------------------
def test_query_event_and_wait_status(acl):
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    assert acl.rt.query_event(e) == (C.ACL_EVENT_STATUS_COMPLETE, 0)        # nothing recorded
    assert acl.rt.query_event_wait_status(e) == (C.ACL_EVENT_WAIT_STATUS_COMPLETE, 0)
    n = 64 << 20
    dev, _ = acl.rt.malloc(n, 0)
    host, _ = acl.rt.malloc_host(n)
    assert acl.rt.memcpy_async(dev, n, host, n, C.ACL_MEMCPY_HOST_TO_DEVICE, a) == 0
    assert acl.rt.record_event(e, a) == 0
    assert acl.rt.stream_wait_event(b, e) == 0
    assert acl.rt.query_event(e) == (C.ACL_EVENT_STATUS_NOT_READY, 0)
    assert acl.rt.query_event_wait_status(e) == (C.ACL_EVENT_WAIT_STATUS_NOT_READY, 0)
    assert acl.rt.synchronize_stream(b) == 0
    assert acl.rt.query_event(e) == (C.ACL_EVENT_STATUS_COMPLETE, 0)
    assert acl.rt.query_event_wait_status(e) == (C.ACL_EVENT_WAIT_STATUS_COMPLETE, 0)
    ex, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    refused(acl, acl.rt.query_event(ex), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl, acl.rt.query_event_wait_status(ex), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl, acl.rt.query_event(0), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0


# ----- notifies -------------------------------------------------------------------------------
def test_notify_orders_two_streams(acl):
    first, _ = acl.rt.create_stream()
    second, _ = acl.rt.create_stream()
    n, ret = acl.rt.create_notify(C.ACL_NOTIFY_DEFAULT)
    assert ret == 0 and acl.rt.get_notify_id(n) == (0, 0)
    size = 32 << 20
    dev, _ = acl.rt.malloc(size, 0)
    host = np.full(size, 5, np.uint8)
    pinned, _ = acl.rt.malloc_host(size)
    assert acl.rt.memcpy(pinned, size, acl.util.numpy_to_ptr(host), size,
                         C.ACL_MEMCPY_HOST_TO_HOST) == 0
    assert acl.rt.memcpy_async(dev, size, pinned, size, C.ACL_MEMCPY_HOST_TO_DEVICE, first) == 0
    assert acl.rt.record_notify(n, first) == 0
    assert acl.rt.wait_and_reset_notify(n, second, 0) == 0
    out, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy_async(out, 64, dev + size - 64, 64, C.ACL_MEMCPY_DEVICE_TO_HOST,
                               second) == 0
    notifies = acl_lab.snapshot()["notifies"]
    assert notifies == [{"handle": n, "id": 0, "device": 0, "set_pending": False,
                         "exported": False, "imported": False}]
    assert acl.rt.synchronize_stream(second) == 0      # runs the first stream up to the record
    assert acl.util.ptr_to_bytes(out, 64) == bytes([5]) * 64   # the copy came first
    kinds = [t["kind"] for t in acl_lab.snapshot()["timeline"]]
    assert "notify_record" in kinds and "notify_wait" in kinds
    wait = next(t for t in acl_lab.snapshot()["timeline"] if t["kind"] == "notify_wait")
    copy = next(t for t in acl_lab.snapshot()["timeline"] if t["kind"] == "memcpy"
                and t["stream"] == first)
    assert wait["start_us"] >= copy["end_us"]
    for p in (dev,):
        assert acl.rt.free(p) == 0
    assert acl.rt.free_host(pinned) == 0 and acl.rt.free_host(out) == 0
    assert acl.rt.destroy_notify(n) == 0
    refused(acl, acl.rt.destroy_notify(n), C.ACL_ERROR_RT_INVALID_HANDLE)


def test_a_wait_with_nothing_recorded(acl, stream):
    n, _ = acl.rt.create_notify(0)
    refused(acl, unchanged(lambda: acl.rt.wait_and_reset_notify(n, stream, 0)),
            C.ACL_ERROR_RT_PARAM_INVALID, "for ever")
    assert acl.rt.wait_and_reset_notify(n, stream, 2) == 0       # times out on the device
    refused(acl, acl.rt.synchronize_stream(stream), C.ACL_ERROR_RT_WAIT_TIMEOUT, "timed out")
    assert stream_row(stream)["pending"] == 0
    with pytest.raises(TypeError, match="negative"):
        acl.rt.wait_and_reset_notify(n, stream, -1)


def test_notify_refusals(acl, stream):
    refused(acl, acl.rt.create_notify(2), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.record_notify(0, stream), C.ACL_ERROR_INVALID_PARAM)
    refused(acl, acl.rt.record_notify(0x999, stream), C.ACL_ERROR_RT_INVALID_HANDLE)
    refused(acl, acl.rt.notify_batch_reset([]), C.ACL_ERROR_RT_PARAM_INVALID)
    n, _ = acl.rt.create_notify(0)
    refused(acl, unchanged(lambda: acl.rt.notify_batch_reset([n, 0])),
            C.ACL_ERROR_RT_PARAM_INVALID)


def test_batch_reset_clears_a_flag_that_is_set(acl):
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    n, _ = acl.rt.create_notify(0)
    assert acl.rt.record_notify(n, a) == 0
    assert acl.rt.synchronize_stream(a) == 0
    assert acl.rt.notify_batch_reset([n]) == 0
    refused(acl, acl.rt.wait_and_reset_notify(n, b, 0), C.ACL_ERROR_RT_PARAM_INVALID)


def test_notify_limits_and_device_reset(acl_on):
    acl = acl_on("310")
    limit = CHIPS["Ascend310"].notifies
    made = [acl.rt.create_notify(0)[0] for _ in range(limit)]
    assert all(made)
    refused(acl, acl.rt.create_notify(0), C.ACL_ERROR_RT_NO_NOTIFY_RESOURCE)
    refused(acl, acl.rt.notify_batch_reset(made[:1]), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.reset_device(0) == 0
    assert acl_lab.snapshot()["notifies"] == []


def test_notify_needs_a_device(bare_acl):
    assert bare_acl.init() == 0
    refused(bare_acl, bare_acl.rt.create_notify(0), C.ACL_ERROR_RT_CONTEXT_NULL)


def test_sharing_a_notify_by_key(acl):
    n, _ = acl.rt.create_notify(0)
    key, ret = acl.rt.notify_get_export_key(n, 65, C.ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT)
    assert ret == 0 and key and len(key) < 65
    refused(acl, acl.rt.notify_import_by_key(key, 0), C.ACL_ERROR_RT_NO_PERMISSION, "whitelist")
    assert acl.rt.notify_set_import_pid(n, [os.getpid()]) == 0
    other, ret = acl.rt.notify_import_by_key(key, C.ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS)
    assert ret == 0 and other != n
    assert acl.rt.get_notify_id(other) == acl.rt.get_notify_id(n)
    # the importing side records, the creating side waits: one flag
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    assert acl.rt.record_notify(other, a) == 0
    assert acl.rt.wait_and_reset_notify(n, b, 0) == 0
    assert acl.rt.synchronize_device() == 0
    assert [r["imported"] for r in acl_lab.snapshot()["notifies"]] == [False, True]
    refused(acl, acl.rt.notify_get_export_key(n, 64, 0), C.ACL_ERROR_RT_PARAM_INVALID, "65")
    refused(acl, acl.rt.notify_get_export_key(n, 65, 1), C.ACL_ERROR_RT_PARAM_INVALID)
    with pytest.raises(ValueError):
        acl.rt.notify_get_export_key(n, 1024, 0)
    refused(acl, acl.rt.notify_import_by_key("no such key", 0), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.destroy_notify(n) == 0                       # the key goes with its creator
    refused(acl, acl.rt.notify_import_by_key(key, 0), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.destroy_notify(other) == 0


def test_sharing_without_the_pid_check(acl):
    n, _ = acl.rt.create_notify(0)
    key, _ = acl.rt.notify_get_export_key(
        n, 128, C.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    assert acl.rt.notify_import_by_key(key, 0)[1] == 0


def test_sharing_notifies_is_a_chip_feature(acl_on):
    acl = acl_on("310b")
    n, _ = acl.rt.create_notify(0)
    refused(acl, acl.rt.notify_get_export_key(n, 65, 0), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


def test_notify_tasks_are_not_captured(acl):
    s, _ = acl.rt.create_stream()
    n, _ = acl.rt.create_notify(0)
    assert acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    refused(acl, acl.rt.record_notify(n, s), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "capturing")
    model, ret = acl.mdl.ri_capture_end(s)
    assert ret == 0 and acl.mdl.ri_destroy(model) == 0


# ----- the exception callback and task ids ------------------------------------------------------
def test_a_failed_task_is_reported_to_the_exception_callback(acl):
    seen = []

    def callback(info):
        seen.append((acl.rt.get_error_code_from_exception_info(info),
                     acl.rt.get_task_id_from_exception_info(info),
                     acl.rt.get_stream_id_from_exception_info(info),
                     acl.rt.get_thread_id_from_exception_info(info),
                     acl.rt.get_device_id_from_exception_info(info)))
        seen.append(info)
    assert acl.rt.set_exception_info_callback(callback) == 0
    s, _ = acl.rt.create_stream()
    n, _ = acl.rt.create_notify(0)
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(dev, 64, 1, 64, s) == 0
    assert acl.rt.wait_and_reset_notify(n, s, 1) == 0
    assert acl.rt.get_thread_last_task_id() == (2, 0)
    assert acl.rt.synchronize_stream(s) == C.ACL_ERROR_RT_WAIT_TIMEOUT
    assert seen[0] == (C.ACL_ERROR_RT_WAIT_TIMEOUT, 2, 1, 1, 0)
    # the info is the runtime's only while the callback runs
    assert acl.rt.get_task_id_from_exception_info(seen[1]) == 0xFFFF_FFFF
    assert "while the exception callback runs" in acl.get_recent_err_msg()
    assert acl.rt.get_device_id_from_exception_info(0) == 0xFFFF_FFFF
    # cleared: the next failure reaches nobody
    assert acl.rt.set_exception_info_callback(None) == 0
    assert acl.rt.wait_and_reset_notify(n, s, 1) == 0
    assert acl.rt.synchronize_stream(s) == C.ACL_ERROR_RT_WAIT_TIMEOUT
    assert len(seen) == 2
    with pytest.raises(TypeError):
        acl.rt.set_exception_info_callback(42)
    assert acl.rt.free(dev) == 0


def test_a_callback_that_raises_is_removed_and_the_kernel_lives(acl, capsys):
    calls = []

    def broken(info):
        calls.append(info)
        raise RuntimeError("learner bug")
    assert acl.rt.set_exception_info_callback(broken) == 0
    s, _ = acl.rt.create_stream()
    n, _ = acl.rt.create_notify(0)
    for _ in range(2):
        assert acl.rt.wait_and_reset_notify(n, s, 1) == 0
        assert acl.rt.synchronize_stream(s) == C.ACL_ERROR_RT_WAIT_TIMEOUT
    assert len(calls) == 1                       # removed after it raised, as pyACL does
    assert "learner bug" in capsys.readouterr().err


def test_last_task_id_is_per_thread_and_counts_explicit_streams(acl, stream):
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.get_thread_last_task_id() == (0, 0)
    assert acl.rt.memset_async(dev, 64, 0, 64, 0) == 0            # the default stream: no
    assert acl.rt.get_thread_last_task_id() == (0, 0)
    for _ in range(3):
        assert acl.rt.memset_async(dev, 64, 0, 64, stream) == 0
    assert acl.rt.get_thread_last_task_id() == (3, 0)
    other = []

    def worker():
        assert acl.rt.set_device(0) == 0
        other.append(acl.rt.get_thread_last_task_id())
    t = threading.Thread(target=worker)
    t.start(), t.join()
    assert other == [(0, 0)]
    assert acl.rt.synchronize_stream(stream) == 0 and acl.rt.free(dev) == 0
