"""A catalogue of wrong inputs: each returns the real ACL error code and explains itself.

For every case the call must return the code hicann/runtime returns (the validation in its
src/acl/aclrt_impl/), acl.get_recent_err_msg() must name the culprit (the pointer, handle,
value or parameter at fault), and nothing may change. Arguments of the wrong Python type
raise TypeError, as pyACL's argument parsing does, naming the parameter.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C

H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST,
                 C.ACL_MEMCPY_DEVICE_TO_DEVICE)
INVALID_PARAM, RT_PARAM = C.ACL_ERROR_INVALID_PARAM, C.ACL_ERROR_RT_PARAM_INVALID
U64 = 1 << 64


@pytest.fixture
def env(acl):
    """Device 0 current with a stream, an event, buffers of every kind and a captured model;
    device 1 open with its own stream and buffer; a freed pointer and dead handles."""
    rt = acl.rt
    e = SimpleNamespace(acl=acl)
    e.ctx, _ = rt.get_context()
    e.stream, _ = rt.create_stream()
    e.event, _ = rt.create_event()
    e.dev, _ = rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    e.host, _ = rt.malloc_host(256)
    e.dvpp, _ = acl.media.dvpp_malloc(256)
    e.array = np.zeros(256, np.uint8)
    e.np_ptr = acl.util.numpy_to_ptr(e.array)
    e.freed, _ = rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert rt.free(e.freed) == 0
    e.freed_host, _ = rt.malloc_host(64)
    assert rt.free_host(e.freed_host) == 0
    e.dead_stream, _ = rt.create_stream()
    assert rt.destroy_stream(e.dead_stream) == 0
    e.dead_event, _ = rt.create_event()
    assert rt.destroy_event(e.dead_event) == 0
    e.dead_ctx, _ = rt.create_context(0)
    assert rt.destroy_context(e.dead_ctx) == 0
    assert rt.set_device(1) == 0
    e.stream1, _ = rt.create_stream()
    e.dev1, _ = rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert rt.set_context(e.ctx) == 0
    e.cap_stream, _ = rt.create_stream()
    assert acl.mdl.ri_capture_begin(e.cap_stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert rt.memset_async(e.dev, 256, 1, 256, e.cap_stream) == 0
    e.model, ret = acl.mdl.ri_capture_end(e.cap_stream)
    assert ret == 0
    acl.get_recent_err_msg()            # start with no message pending
    return e


def h(x: int) -> str:
    return f"0x{x:x}"


# (id, the call, expected code, text the explanation must contain[, setup before the call])
CASES = [
    # ----- negative and huge sizes ----------------------------------------------------------
    ("malloc-negative-size", lambda e: e.acl.rt.malloc(-1, 0), INVALID_PARAM,
     lambda e: "size=-1"),
    ("malloc-zero-size", lambda e: e.acl.rt.malloc(0, 0), INVALID_PARAM, lambda e: "size is 0"),
    ("malloc-size-over-64-bits", lambda e: e.acl.rt.malloc(U64, 0), INVALID_PARAM,
     lambda e: str(U64)),
    ("malloc-size-overflows-rounding", lambda e: e.acl.rt.malloc(U64 - 1, 0), INVALID_PARAM,
     lambda e: "overflows"),
    ("malloc-more-than-the-device-has", lambda e: e.acl.rt.malloc(1 << 40, 0),
     C.ACL_ERROR_RT_MEMORY_ALLOCATION, lambda e: str(1 << 40)),
    ("malloc-host-negative-size", lambda e: e.acl.rt.malloc_host(-4096), INVALID_PARAM,
     lambda e: "-4096"),
    ("dvpp-malloc-zero-size", lambda e: e.acl.media.dvpp_malloc(0), INVALID_PARAM,
     lambda e: "size is 0"),
    ("memset-negative-count", lambda e: e.acl.rt.memset(e.dev, 256, 0, -1), INVALID_PARAM,
     lambda e: "count=-1"),
    ("memset-count-over-max", lambda e: e.acl.rt.memset(e.dev, 128, 0, 256), RT_PARAM,
     lambda e: "maxCount 128"),
    ("memcpy-count-over-dest-max",
     lambda e: e.acl.rt.memcpy(e.dev, 16, e.host, 256, H2D), RT_PARAM, lambda e: "destMax 16"),
    ("memcpy-count-over-64-bits", lambda e: e.acl.rt.memcpy(e.dev, 256, e.host, U64, H2D),
     INVALID_PARAM, lambda e: f"count={U64}"),
    ("memcpy2d-width-over-pitch",
     lambda e: e.acl.rt.memcpy2d(e.dev, 8, e.host, 16, 16, 2, H2D), INVALID_PARAM,
     lambda e: "width 16"),
    # ----- NULL pointers and handles --------------------------------------------------------
    ("free-null", lambda e: e.acl.rt.free(0), INVALID_PARAM, lambda e: "NULL"),
    ("free-host-null", lambda e: e.acl.rt.free_host(0), INVALID_PARAM, lambda e: "NULL"),
    ("dvpp-free-null", lambda e: e.acl.media.dvpp_free(0), INVALID_PARAM, lambda e: "NULL"),
    ("memset-null", lambda e: e.acl.rt.memset(0, 8, 0, 8), INVALID_PARAM,
     lambda e: "devPtr is NULL"),
    ("memcpy-null-src", lambda e: e.acl.rt.memcpy(e.dev, 8, 0, 8, H2D), INVALID_PARAM,
     lambda e: "src is NULL"),
    ("memcpy-async-null-dst", lambda e: e.acl.rt.memcpy_async(0, 8, e.host, 8, H2D, e.stream),
     INVALID_PARAM, lambda e: "dst is NULL"),
    ("destroy-stream-null", lambda e: e.acl.rt.destroy_stream(0), INVALID_PARAM,
     lambda e: "default stream"),
    ("destroy-event-null", lambda e: e.acl.rt.destroy_event(0), INVALID_PARAM,
     lambda e: "0x0"),
    ("set-context-null", lambda e: e.acl.rt.set_context(0), INVALID_PARAM, lambda e: "0x0"),
    ("capture-on-default-stream",
     lambda e: e.acl.mdl.ri_capture_begin(0, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
     INVALID_PARAM, lambda e: "default stream"),
    ("execute-null-model", lambda e: e.acl.mdl.ri_execute(0, -1), INVALID_PARAM,
     lambda e: "NULL"),
    # ----- pointers into the middle of an allocation, or past its end ---------------------
    ("free-middle-of-block", lambda e: e.acl.rt.free(e.dev + 64), RT_PARAM,
     lambda e: f"{h(e.dev + 64)} points 64 B inside"),
    ("free-host-middle-of-block", lambda e: e.acl.rt.free_host(e.host + 32), RT_PARAM,
     lambda e: "inside"),
    ("memset-from-middle-runs-past-end", lambda e: e.acl.rt.memset(e.dev + 200, 256, 0, 100),
     RT_PARAM, lambda e: "past the end"),
    ("memcpy-src-middle-runs-past-end",
     lambda e: e.acl.rt.memcpy(e.dev, 256, e.host + 128, 256, H2D), RT_PARAM,
     lambda e: f"src {h(e.host + 128)}"),
    ("memcpy-into-padding", lambda e: e.acl.rt.memcpy(e.dev + 256, 8, e.host, 8, H2D),
     RT_PARAM, lambda e: h(e.dev + 256)),
    ("memcpy-overlapping", lambda e: e.acl.rt.memcpy(e.dev + 32, 128, e.dev, 128, D2D),
     RT_PARAM, lambda e: "overlap"),
    # ----- freed pointers -------------------------------------------------------------------
    ("free-twice", lambda e: e.acl.rt.free(e.freed), RT_PARAM,
     lambda e: f"{h(e.freed)} was already released"),
    ("free-host-twice", lambda e: e.acl.rt.free_host(e.freed_host), RT_PARAM,
     lambda e: h(e.freed_host)),
    ("memset-freed", lambda e: e.acl.rt.memset(e.freed, 64, 0, 64), RT_PARAM,
     lambda e: "use-after-free"),
    ("memcpy-from-freed", lambda e: e.acl.rt.memcpy(e.host, 64, e.freed, 64, D2H), RT_PARAM,
     lambda e: h(e.freed)),
    ("replay-after-freeing-its-buffer", lambda e: e.acl.mdl.ri_execute(e.model, -1),
     C.ACL_ERROR_RT_MODEL_EXECUTE, lambda e: h(e.dev), lambda e: e.acl.rt.free(e.dev)),
    # ----- allocator pairing and foreign memory ---------------------------------------------
    ("free-host-on-device-memory", lambda e: e.acl.rt.free_host(e.dev), RT_PARAM,
     lambda e: "aclrtMalloc"),
    ("free-on-dvpp-memory", lambda e: e.acl.rt.free(e.dvpp), RT_PARAM,
     lambda e: "acldvppFree"),
    ("free-a-numpy-array", lambda e: e.acl.rt.free(e.np_ptr), RT_PARAM,
     lambda e: "numpy"),
    ("free-unknown-pointer", lambda e: e.acl.rt.free(0xBAD000), RT_PARAM,
     lambda e: "0xbad000"),
    # ----- out-of-range enum values ---------------------------------------------------------
    ("memcpy-kind-7", lambda e: e.acl.rt.memcpy(e.dev, 8, e.host, 8, 7), INVALID_PARAM,
     lambda e: "kind 7"),
    ("memcpy-kind-negative", lambda e: e.acl.rt.memcpy(e.dev, 8, e.host, 8, -1),
     INVALID_PARAM, lambda e: "kind -1"),
    ("memcpy2d-kind-disagrees-with-pointers",
     lambda e: e.acl.rt.memcpy2d(e.dev, 16, e.host, 16, 8, 2, D2H), RT_PARAM,
     lambda e: "ACL_MEMCPY_HOST_TO_DEVICE"),
    ("memcpy2d-host-to-host-kind",
     lambda e: e.acl.rt.memcpy2d(e.host, 16, e.host + 64, 16, 8, 2, C.ACL_MEMCPY_HOST_TO_HOST),
     INVALID_PARAM, lambda e: "ACL_MEMCPY_HOST_TO_HOST"),
    ("get-mem-info-attr-18", lambda e: e.acl.rt.get_mem_info(18),
     C.ACL_ERROR_RT_INVALID_MEMORY_TYPE, lambda e: "18"),
    ("get-mem-info-attr-negative", lambda e: e.acl.rt.get_mem_info(-1),
     C.ACL_ERROR_RT_INVALID_MEMORY_TYPE, lambda e: "-1"),
    ("set-device-out-of-range", lambda e: e.acl.rt.set_device(8),
     C.ACL_ERROR_RT_INVALID_DEVICEID, lambda e: "device 8"),
    ("create-context-negative-device", lambda e: e.acl.rt.create_context(-1),
     C.ACL_ERROR_RT_INVALID_DEVICEID, lambda e: "device -1"),
    ("capture-mode-3", lambda e: e.acl.mdl.ri_capture_begin(e.stream, 3), RT_PARAM,
     lambda e: "mode 3"),
    ("exchange-mode-9", lambda e: e.acl.mdl.ri_capture_thread_exchange_mode(9), RT_PARAM,
     lambda e: "mode 9"),
    ("execute-timeout-0", lambda e: e.acl.mdl.ri_execute(e.model, 0), RT_PARAM,
     lambda e: "timeout 0"),
    # ----- dead handles ---------------------------------------------------------------------
    ("synchronize-destroyed-stream", lambda e: e.acl.rt.synchronize_stream(e.dead_stream),
     C.ACL_ERROR_RT_INVALID_HANDLE, lambda e: h(e.dead_stream)),
    ("record-destroyed-event", lambda e: e.acl.rt.record_event(e.dead_event, e.stream),
     C.ACL_ERROR_RT_INVALID_HANDLE, lambda e: h(e.dead_event)),
    ("set-destroyed-context", lambda e: e.acl.rt.set_context(e.dead_ctx),
     C.ACL_ERROR_RT_INVALID_HANDLE, lambda e: h(e.dead_ctx)),
    ("execute-destroyed-model", lambda e: e.acl.mdl.ri_execute(e.model, -1),
     C.ACL_ERROR_RT_INVALID_HANDLE, lambda e: h(e.model), lambda e: e.acl.mdl.ri_destroy(e.model)),
    ("elapsed-time-unrecorded-event",
     lambda e: e.acl.rt.event_elapsed_time(e.event, e.event), C.ACL_ERROR_RT_INTERNAL_ERROR,
     lambda e: f"{h(e.event)} was never recorded"),
    # ----- streams, memory and models of another device ------------------------------------
    ("memset-async-on-other-devices-stream",
     lambda e: e.acl.rt.memset_async(e.dev, 256, 0, 256, e.stream1),
     C.ACL_ERROR_RT_STREAM_CONTEXT, lambda e: h(e.stream1)),
    ("record-event-on-other-devices-stream",
     lambda e: e.acl.rt.record_event(e.event, e.stream1), C.ACL_ERROR_RT_STREAM_CONTEXT,
     lambda e: "device 1"),
    ("destroy-other-devices-stream", lambda e: e.acl.rt.destroy_stream(e.stream1),
     C.ACL_ERROR_RT_STREAM_CONTEXT, lambda e: h(e.stream1)),
    ("capture-on-other-devices-stream",
     lambda e: e.acl.mdl.ri_capture_begin(e.stream1, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
     C.ACL_ERROR_RT_STREAM_CONTEXT, lambda e: h(e.stream1)),
    ("replay-model-on-other-devices-stream", lambda e: e.acl.mdl.ri_execute_async(e.model, 0),
     C.ACL_ERROR_RT_STREAM_CONTEXT, lambda e: "device 0", lambda e: e.acl.rt.set_device(1)),
    ("copy-between-devices", lambda e: e.acl.rt.memcpy(e.dev1, 256, e.dev, 256, D2D),
     RT_PARAM, lambda e: "device 1"),
    # ----- calls that need a context, run from a thread that has none ----------------------
    ("malloc-after-reset-device", lambda e: e.acl.rt.malloc(64, 0),
     C.ACL_ERROR_RT_CONTEXT_NULL, lambda e: "aclrtMalloc",
     lambda e: (e.acl.rt.reset_device(1), e.acl.rt.reset_device(0))),
    ("reset-device-never-set", lambda e: e.acl.rt.reset_device(5),
     C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, lambda e: "device 5"),
    # ----- capture misuse -------------------------------------------------------------------
    ("end-capture-never-begun", lambda e: e.acl.mdl.ri_capture_end(e.stream),
     C.ACL_ERROR_RT_STREAM_NOT_CAPTURED, lambda e: h(e.stream)),
    ("sync-memcpy-during-global-capture", lambda e: e.acl.rt.memcpy(e.dev, 8, e.host, 8, H2D),
     C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, lambda e: "RELAXED",
     lambda e: e.acl.mdl.ri_capture_begin(e.stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)),
    ("synchronize-a-capturing-stream", lambda e: e.acl.rt.synchronize_stream(e.stream),
     C.ACL_ERROR_RT_STREAM_CAPTURED, lambda e: h(e.stream),
     lambda e: e.acl.mdl.ri_capture_begin(e.stream, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)),
]


def _cases(table, fields: int):
    """pytest params from a table whose rows may end with an optional setup."""
    return [pytest.param(*row[1:fields + 1], row[fields + 1] if len(row) > fields + 1 else None,
                         id=row[0]) for row in table]


@pytest.mark.parametrize("call, code, culprit, setup", _cases(CASES, 3))
def test_bad_input_returns_the_real_code_and_names_the_culprit(env, call, code, culprit, setup):
    if setup:
        setup(env)
    env.acl.get_recent_err_msg()
    before = acl_lab.snapshot()
    result = call(env)
    ret = result[-1] if isinstance(result, tuple) else result
    assert ret == code, (C.ERROR_NAMES.get(ret), env.acl.get_recent_err_msg())
    message = env.acl.get_recent_err_msg()
    assert culprit(env) in message, message
    assert acl_lab.snapshot() == before


def test_non_contiguous_array_gives_null_and_says_why(env):
    before = acl_lab.snapshot()
    for view in (np.zeros((8, 8), np.uint8)[:, ::2], np.zeros((8, 8), np.uint8).T,
                 np.asfortranarray(np.zeros((4, 4), np.float32))):
        assert env.acl.util.numpy_to_ptr(view) == 0
        message = env.acl.get_recent_err_msg()
        assert "not C-contiguous" in message and "np.ascontiguousarray" in message
    assert acl_lab.snapshot() == before


def test_reading_device_memory_from_the_host_explains_the_crash(env):
    """ptr_to_bytes on device memory in ACL_HOST mode would crash real pyACL: AclLabError."""
    with pytest.raises(acl_lab.AclLabError) as err:
        env.acl.util.ptr_to_bytes(env.dev, 16)
    assert err.value.code == INVALID_PARAM and h(env.dev) in str(err.value)
    with pytest.raises(acl_lab.AclLabError) as err:
        env.acl.util.ptr_to_bytes(env.freed, 16)
    assert h(env.freed) in str(err.value)


# (id, the call, the parameter the TypeError must name[, setup before the call])
TYPE_ERRORS = [
    ("set-device-str", lambda e: e.acl.rt.set_device("0"), "deviceId"),
    ("set-device-float", lambda e: e.acl.rt.set_device(0.0), "deviceId"),
    ("malloc-size-none", lambda e: e.acl.rt.malloc(None, 0), "size"),
    ("malloc-policy-str", lambda e: e.acl.rt.malloc(64, "HUGE_FIRST"), "policy"),
    ("free-none", lambda e: e.acl.rt.free(None), "devPtr"),
    ("free-host-float", lambda e: e.acl.rt.free_host(float(e.host)), "hostPtr"),
    ("memcpy-kind-str", lambda e: e.acl.rt.memcpy(e.dev, 8, e.host, 8, "H2D"), "kind"),
    ("memcpy-count-float", lambda e: e.acl.rt.memcpy(e.dev, 8, e.host, 8.0, H2D), "count"),
    ("memset-async-stream-none",
     lambda e: e.acl.rt.memset_async(e.dev, 8, 0, 8, None), "stream"),
    ("get-mem-info-list", lambda e: e.acl.rt.get_mem_info([1]), "attr"),
    ("record-event-str", lambda e: e.acl.rt.record_event(str(e.event), e.stream), "event"),
    ("create-context-bytes", lambda e: e.acl.rt.create_context(b"\x00"), "deviceId"),
    ("capture-mode-none", lambda e: e.acl.mdl.ri_capture_begin(0, None), "mode"),
    ("execute-timeout-str", lambda e: e.acl.mdl.ri_execute(e.model, "-1"), "timeout"),
    ("debug-print-path-int", lambda e: e.acl.mdl.ri_debug_json_print(e.model, 1, 0), "path"),
    ("numpy-to-ptr-list", lambda e: e.acl.util.numpy_to_ptr([1, 2, 3]), "numpy"),
    ("bytes-to-ptr-str", lambda e: e.acl.util.bytes_to_ptr("text"), "bytes"),
    ("ptr-to-numpy-dtype-name", lambda e: e.acl.util.ptr_to_numpy(e.host, (4,), "float32"),
     "numpy type"),
    ("init-config-path-int", lambda e: e.acl.init(5), "path", lambda e: e.acl.finalize()),
]


@pytest.mark.parametrize("call, param, setup", _cases(TYPE_ERRORS, 2))
def test_wrong_python_type_raises_type_error(env, call, param, setup):
    if setup:
        setup(env)
    before = acl_lab.snapshot()
    with pytest.raises(TypeError) as err:
        call(env)
    assert param in str(err.value)
    assert acl_lab.snapshot() == before
