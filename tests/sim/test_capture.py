"""Capture (ACL Graph, seed 002): rules 17-24 of docs/rules.md with the codes
hicann/runtime returns (src/acl/aclrt_impl/model_ri.cpp, src/runtime/feature/aclgraph/),
the seed's add sample, replay, the debug JSON, and the modeled time a replay saves. One
test, or a few, per rule."""
from __future__ import annotations

import json
import threading

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import get_profile
from simhelpers import capture_status, device_buffer, model_entry, read, run_in_thread, tensor

GLOBAL, THREAD_LOCAL, RELAXED = (C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
MODES = {"GLOBAL": GLOBAL, "THREAD_LOCAL": THREAD_LOCAL, "RELAXED": RELAXED}
NONE, ACTIVE, INVALIDATED = (C.ACL_MODEL_RI_CAPTURE_STATUS_NONE,
                             C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
                             C.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED)
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
N = 256


def pinned(acl, fill: int, n: int = N) -> int:
    ptr, ret = acl.rt.malloc_host(n)
    assert ret == 0
    acl.util.ptr_to_numpy(ptr, (n,), np.dtype(np.uint8).num)[:] = fill
    return ptr


def end(acl, stream: int) -> int:
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0, acl.get_recent_err_msg()
    return model


def model_tasks(model: int) -> list[dict]:
    return model_entry(model)["tasks"]


def filled(value: int, n: int = N) -> bytes:
    return bytes([value]) * n


def in_thread(acl, fn):
    """``fn()`` on a new thread that made this thread's context current; its result."""
    ctx, ret = acl.rt.get_context()
    assert ret == 0

    def with_context():
        assert acl.rt.set_context(ctx) == 0
        return fn()
    return run_in_thread(with_context)


# ----- rule 17: before capture, tasks execute as usual -------------------------------------
def test_rule17_work_issued_before_capture_begins_still_runs(acl, stream):
    buf = device_buffer(acl)
    assert acl.rt.memset_async(buf, N, 7, N, stream) == 0     # queued, not yet waited for
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 9, N, stream) == 0     # recorded only
    model = end(acl, stream)
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, buf, N) == filled(7)
    assert [t["kind"] for t in model_tasks(model)] == ["memset"]


# ----- rule 18: during capture, tasks are only recorded ------------------------------------
def test_rule18_captured_tasks_change_nothing_until_the_model_runs(acl, stream):
    buf, host = device_buffer(acl), pinned(acl, 0x5A)
    assert acl.rt.memset(buf, N, 0, N) == 0
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memcpy_async(buf, N, host, N, H2D, stream) == 0
    assert acl.rt.memset_async(buf, N, 0x11, 16, stream) == 0
    assert acl.mdl.ri_capture_thread_exchange_mode(RELAXED) == (GLOBAL, 0)
    assert read(acl, buf, N) == filled(0)           # a RELAXED thread may look, mid-capture
    assert acl.mdl.ri_capture_thread_exchange_mode(GLOBAL) == (RELAXED, 0)
    model = end(acl, stream)
    assert acl.rt.synchronize_device() == 0
    assert read(acl, buf, N) == filled(0)
    assert [(t["kind"], t["nbytes"]) for t in model_tasks(model)] == [("memcpy", N),
                                                                      ("memset", 16)]
    assert acl.mdl.ri_execute_async(model, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, buf, N) == filled(0x11, 16) + filled(0x5A, N - 16)


@pytest.mark.parametrize("thread_mode", [GLOBAL, RELAXED], ids=["thread", "relaxed thread"])
@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
def test_rule18_syncing_the_stream_or_device_is_illegal_in_every_mode(acl, stream, mode,
                                                                      thread_mode):
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(stream, mode) == 0
    assert acl.rt.memset_async(buf, N, 1, N, stream) == 0
    acl.mdl.ri_capture_thread_exchange_mode(thread_mode)
    assert acl.rt.synchronize_stream(stream) == C.ACL_ERROR_RT_STREAM_CAPTURED
    assert "capturing" in acl.get_recent_err_msg()
    assert acl.rt.synchronize_device() == C.ACL_ERROR_RT_STREAM_CAPTURED
    assert in_thread(acl, acl.rt.synchronize_device) == C.ACL_ERROR_RT_STREAM_CAPTURED
    acl.mdl.ri_capture_thread_exchange_mode(GLOBAL)
    assert capture_status(acl, stream) == ACTIVE        # refused, but the capture goes on
    assert acl.rt.memset_async(buf, N, 2, N, stream) == 0
    assert len(model_tasks(end(acl, stream))) == 2


# ----- rule 19: synchronous memset / memcpy / memcpy2d and the capture modes ---------------
SYNC_CALLS = {   # each writes 0x55 over all N bytes of the device buffer
    "memset": lambda acl, buf, host: acl.rt.memset(buf, N, 0x55, N),
    "memcpy": lambda acl, buf, host: acl.rt.memcpy(buf, N, host, N, H2D),
    "memcpy2d": lambda acl, buf, host: acl.rt.memcpy2d(buf, 16, host, 16, 16, N // 16, H2D),
}


@pytest.mark.parametrize("call", SYNC_CALLS.values(), ids=SYNC_CALLS.keys())
def test_rule19_sync_transfer_is_refused_in_global_mode_and_runs_once_when_relaxed(
        acl, stream, call):
    buf, other, host = device_buffer(acl), device_buffer(acl), pinned(acl, 0x55)
    assert acl.rt.memset(buf, N, 0, N) == 0
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(other, N, 1, N, stream) == 0
    assert call(acl, buf, host) == C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert "RELAXED" in acl.get_recent_err_msg()
    assert capture_status(acl, stream) == ACTIVE
    assert acl.mdl.ri_capture_thread_exchange_mode(RELAXED) == (GLOBAL, 0)
    assert read(acl, buf, N) == filled(0)           # the refused call wrote nothing
    assert call(acl, buf, host) == 0
    assert read(acl, buf, N) == filled(0x55)        # ran at once, during the capture
    assert acl.mdl.ri_capture_thread_exchange_mode(GLOBAL) == (RELAXED, 0)
    model = end(acl, stream)
    assert [(t["kind"], t["ptr"]) for t in model_tasks(model)] == [("memset", other)]
    assert acl.rt.memset(buf, N, 0, N) == 0
    assert acl.mdl.ri_execute(model, -1) == 0
    assert read(acl, buf, N) == filled(0)           # ... and was not recorded
    assert read(acl, other, N) == filled(1)


@pytest.mark.parametrize("mode, on_capturing_thread, expected", [
    (GLOBAL, True, C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT),
    (GLOBAL, False, C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT),
    (THREAD_LOCAL, True, C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT),
    (THREAD_LOCAL, False, 0),
    (RELAXED, True, 0),
    (RELAXED, False, 0),
], ids=["global-same thread", "global-other thread", "thread_local-same thread",
        "thread_local-other thread", "relaxed-same thread", "relaxed-other thread"])
def test_rule19_which_threads_a_capture_mode_restricts(acl, stream, mode, on_capturing_thread,
                                                       expected):
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(stream, mode) == 0

    def sync_memset():
        return acl.rt.memset(buf, N, 3, N)

    assert (sync_memset() if on_capturing_thread else in_thread(acl, sync_memset)) == expected
    end(acl, stream)
    assert (read(acl, buf, N) == filled(3)) == (expected == 0)


def test_rule19_thread_mode_is_per_thread(acl):
    assert acl.mdl.ri_capture_thread_exchange_mode(RELAXED) == (GLOBAL, 0)

    def other_thread():
        first = acl.mdl.ri_capture_thread_exchange_mode(THREAD_LOCAL)
        return first, acl.mdl.ri_capture_thread_exchange_mode(GLOBAL)

    assert in_thread(acl, other_thread) == ((GLOBAL, 0), (THREAD_LOCAL, 0))
    assert acl.mdl.ri_capture_thread_exchange_mode(GLOBAL) == (RELAXED, 0)


def test_rule19_exchanging_the_mode_needs_a_context_and_a_valid_mode(acl):
    result = {}
    t = threading.Thread(target=lambda: result.update(
        r=acl.mdl.ri_capture_thread_exchange_mode(RELAXED)))
    t.start()
    t.join()
    assert result["r"][1] == C.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.mdl.ri_capture_thread_exchange_mode(3)[1] == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.mdl.ri_capture_thread_exchange_mode(GLOBAL) == (GLOBAL, 0)   # unchanged


# ----- rule 20: configuration calls --------------------------------------------------------
def test_rule20_configuration_calls_during_capture_are_refused(acl, stream, tmp_path):
    cfg = tmp_path / "dump.json"
    cfg.write_text('{"dump": {"dump_list": []}}')
    assert acl.mdl.init_dump() == 0                          # before capture: fine
    assert acl.mdl.ri_capture_begin(stream, RELAXED) == 0    # refused in every mode
    assert acl.mdl.set_dump(str(cfg)) == C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert "aclmdlSetDump" in acl.get_recent_err_msg()
    assert acl.mdl.finalize_dump() == C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert capture_status(acl, stream) == ACTIVE             # the capture is not harmed
    end(acl, stream)
    assert acl.mdl.set_dump(str(cfg)) == 0
    assert acl.mdl.finalize_dump() == 0


def test_dump_configuration_order(bare_acl, tmp_path):
    acl = bare_acl
    assert acl.mdl.init_dump() == C.ACL_ERROR_UNINITIALIZE   # dump APIs do check aclInit
    assert acl.init() == 0
    assert acl.mdl.set_dump(str(tmp_path / "missing.json")) == C.ACL_ERROR_DUMP_NOT_RUN
    assert acl.mdl.init_dump() == 0
    assert acl.mdl.init_dump() == C.ACL_ERROR_DUMP_ALREADY_RUN
    assert acl.mdl.set_dump(str(tmp_path / "missing.json")) == C.ACL_ERROR_INVALID_FILE
    assert acl.mdl.finalize_dump() == 0

# ----- rule 21: captured async copies with host memory need pinned memory ------------------
@pytest.mark.parametrize("kind", [H2D, D2H], ids=["H2D", "D2H"])
def test_rule21_async_copy_with_pageable_memory_is_refused_pinned_is_recorded(acl, stream,
                                                                              kind):
    buf, host = device_buffer(acl), pinned(acl, 9)
    array = np.full(N, 9, np.uint8)
    pageable = acl.util.numpy_to_ptr(array)

    def copy(host_ptr, s=stream):
        dst, src = (buf, host_ptr) if kind == H2D else (host_ptr, buf)
        return acl.rt.memcpy_async(dst, N, src, N, kind, s)

    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    # ApiErrorDecorator::MemcpyAsync: "The pageable memory copy task does not support graph
    # capture" is RT_ERROR_INVALID_VALUE (107000), not 107027
    assert copy(pageable) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "malloc_host" in acl.get_recent_err_msg()
    other, _ = acl.rt.create_stream()
    assert copy(pageable, other) == C.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
    assert capture_status(acl, stream) == ACTIVE
    assert copy(host) == 0
    assert [t["kind"] for t in model_tasks(end(acl, stream))] == ["memcpy"]
    assert array.tolist() == [9] * N                 # the refused D2H wrote nothing


# ----- rule 22: the default stream ---------------------------------------------------------
def test_rule22_the_default_stream_cannot_capture_or_be_used_while_capturing(acl, stream):
    assert acl.mdl.ri_capture_begin(0, GLOBAL) == C.ACL_ERROR_INVALID_PARAM
    assert "default stream" in acl.get_recent_err_msg()
    buf = device_buffer(acl)
    assert acl.rt.memset(buf, N, 0, N) == 0
    event, _ = acl.rt.create_event()
    other, _ = acl.rt.create_stream()
    assert acl.mdl.ri_capture_begin(other, GLOBAL) == 0
    model = end(acl, other)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 4, N, 0) == C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
    assert acl.rt.record_event(event, 0) == C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
    assert acl.mdl.ri_execute_async(model, 0) == C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
    assert model_entry(model)["executions"] == 0
    assert capture_status(acl, stream) == ACTIVE
    assert model_tasks(end(acl, stream)) == []
    assert acl.rt.memset_async(buf, N, 4, N, 0) == 0        # fine again after the capture
    assert acl.rt.synchronize_stream(0) == 0
    assert read(acl, buf, N) == filled(4)


# ----- rule 23: resources must outlive the model --------------------------------------------
@pytest.mark.parametrize("execute", ["async", "sync"])
def test_rule23_replaying_a_model_whose_buffer_was_freed_fails_and_runs_nothing(acl, stream,
                                                                               execute):
    keep, gone = device_buffer(acl), device_buffer(acl)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(keep, N, 1, N, stream) == 0
    assert acl.rt.memset_async(gone, N, 2, N, stream) == 0
    model = end(acl, stream)
    assert acl.rt.memset(keep, N, 0, N) == 0
    assert acl.rt.free(gone) == 0
    device_buffer(acl)  # the freed block handed out again does not make the model valid
    ret = (acl.mdl.ri_execute_async(model, stream) if execute == "async"
           else acl.mdl.ri_execute(model, -1))
    assert ret == C.ACL_ERROR_RT_MODEL_EXECUTE
    assert f"0x{gone:x}" in acl.get_recent_err_msg()
    assert model_entry(model)["executions"] == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, keep, N) == filled(0)
    assert acl.mdl.ri_destroy(model) == 0


def test_rule23_freed_pinned_host_buffer_also_fails_the_replay(acl, stream):
    buf, host = device_buffer(acl), pinned(acl, 6)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memcpy_async(buf, N, host, N, H2D, stream) == 0
    model = end(acl, stream)
    assert acl.mdl.ri_execute(model, -1) == 0
    assert acl.rt.free_host(host) == 0
    assert acl.mdl.ri_execute_async(model, stream) == C.ACL_ERROR_RT_MODEL_EXECUTE


# ----- rule 24: the seed's add sample --------------------------------------------------------
def seed_add_sample(acl) -> dict:
    """The seed's single-stream capture of aclnnAdd, call for call, printing what its ACL_LOG
    prints; returns the model, the stream and the buffers."""
    shape, size = [4, 2], 8
    nbytes = size * 4

    def create_acl_tensor():
        ptr = device_buffer(acl, nbytes)
        return ptr, tensor(acl, ptr, shape, C.ACL_FLOAT)

    (self_d, self_t), (other_d, other_t), (out_d, out_t) = (create_acl_tensor()
                                                            for _ in range(3))
    alpha = acl.nn.create_scalar(1.1, C.ACL_FLOAT)
    ws_size, executor, ret = acl.nn.add_get_workspace_size(self_t, other_t, alpha, out_t)
    acl_lab.check(ret)
    workspace = device_buffer(acl, ws_size) if ws_size > 0 else 0
    self_h, other_h = pinned(acl, 0, nbytes), pinned(acl, 0, nbytes)
    f32 = np.dtype(np.float32).num
    self_np = acl.util.ptr_to_numpy(self_h, (size,), f32)
    self_np[:] = 0
    acl.util.ptr_to_numpy(other_h, (size,), f32)[:] = 1
    stream, _ = acl.rt.create_stream()
    acl_lab.check(acl.mdl.ri_capture_begin(stream, GLOBAL))
    acl_lab.check(acl.rt.memcpy_async(self_d, nbytes, self_h, nbytes, H2D, stream))
    mode, ret = acl.mdl.ri_capture_thread_exchange_mode(RELAXED)
    acl_lab.check(ret)
    acl_lab.check(acl.rt.memcpy(other_d, nbytes, other_h, nbytes, H2D))
    acl_lab.check(acl.mdl.ri_capture_thread_exchange_mode(mode))
    acl_lab.check(acl.nn.add(workspace, ws_size, executor, stream))
    acl_lab.check(acl.rt.memcpy_async(self_h, nbytes, out_d, nbytes, D2H, stream))
    model, ret = acl.mdl.ri_capture_end(stream)
    acl_lab.check(ret)
    for _ in range(8):
        acl_lab.check(acl.mdl.ri_execute_async(model, stream))
        acl_lab.check(acl.rt.synchronize_stream(stream))
        print("[INFO] " + " ".join(f"{x:f}" for x in self_np))
    return {"model": model, "stream": stream, "self_d": self_d, "self_h": self_h,
            "out_d": out_d}


def test_rule24_seed_add_sample_prints_1_1_to_8_8(acl, capsys):
    seed_add_sample(acl)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["[INFO] " + " ".join([f"{k * 1.1:.6f}"] * 8) for k in range(1, 9)]


def test_seed_model_records_copy_in_add_copy_out(acl, capsys):
    model = seed_add_sample(acl)["model"]
    tasks = model_tasks(model)
    assert [(t["kind"], t["nbytes"]) for t in tasks] == [("memcpy", 32), ("op", 96),
                                                        ("memcpy", 32)]
    assert tasks[1]["op"] == "Add"
    assert (tasks[0]["direction"], tasks[2]["direction"]) == ("ACL_MEMCPY_HOST_TO_DEVICE",
                                                              "ACL_MEMCPY_DEVICE_TO_HOST")
    assert model_entry(model)["executions"] == 8


# ----- debug JSON ----------------------------------------------------------------------------
def test_debug_json_print_lists_every_task_with_kind_size_pointers_and_stream(acl, capsys,
                                                                              tmp_path):
    sample = seed_add_sample(acl)
    model, stream = sample["model"], sample["stream"]
    path = tmp_path / "modelRI.json"
    assert acl.mdl.ri_debug_json_print(model, str(path),
                                       C.ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY) == 0
    trace = json.loads(path.read_text())
    assert [e["name"] for e in trace] == ["MEMCPY", "OP", "MEMCPY"]
    assert [e["args"]["Task Id"] for e in trace] == [1, 2, 3]
    assert all(e["ph"] == "X" and e["args"]["Model Id"] == model and
               e["args"]["Stream Id"] == stream and e["tid"] == f"stream{stream:#x}"
               for e in trace)
    copy_in, add, copy_out = (e["args"] for e in trace)
    assert copy_in["Bytes"] == copy_out["Bytes"] == 32
    assert (copy_in["Kind"], copy_out["Kind"]) == ("ACL_MEMCPY_HOST_TO_DEVICE",
                                                   "ACL_MEMCPY_DEVICE_TO_HOST")
    assert (copy_in["Src"], copy_in["Dst"]) == (hex(sample["self_h"]), hex(sample["self_d"]))
    assert (add["Op"], add["Shape"], add["Out"]) == ("Add", [4, 2], hex(sample["out_d"]))
    assert (copy_out["Src"], copy_out["Dst"]) == (hex(sample["out_d"]), hex(sample["self_h"]))
    assert all("Modeled Duration Us" not in e["args"] for e in trace)

    assert acl.mdl.ri_debug_json_print(model, str(path),
                                       C.ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) == 0
    verbose = json.loads(path.read_text())
    assert all(e["args"]["Modeled Duration Us"] == e["dur"] > 0 for e in verbose)
    assert [e["ts"] for e in verbose] == [e["ts"] for e in trace]


def test_debug_json_print_refusals(acl, stream, tmp_path):
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    model = end(acl, stream)
    assert acl.mdl.ri_debug_json_print(0, str(tmp_path / "m.json")) == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.ri_debug_json_print(model, str(tmp_path / "no" / "m.json")) == \
        C.ACL_ERROR_RT_PARAM_INVALID
    assert "cannot write" in acl.get_recent_err_msg()


# ----- a plain event on a capturing stream: refused, the capture stays ACTIVE -----------------
@pytest.mark.parametrize("call", ["record_event", "stream_wait_event"])
def test_plain_event_on_capturing_stream_is_refused_and_the_capture_stays_active(
        acl, stream, call):
    """ApiImpl::EventRecord / StreamWaitEvent (hicann/runtime api_impl.cc) return
    RT_ERROR_FEATURE_NOT_SUPPORT for events not created by aclrtCreateEventExWithFlag before
    any capture handling: nothing is recorded and nothing is invalidated."""
    buf, event = device_buffer(acl), acl.rt.create_event()[0]
    assert acl.rt.record_event(event, stream) == 0           # recorded before the capture
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 9, N, stream) == 0
    args = (event, stream) if call == "record_event" else (stream, event)
    assert getattr(acl.rt, call)(*args) == C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "stays ACTIVE" in acl.get_recent_err_msg()
    assert capture_status(acl, stream) == ACTIVE
    model = end(acl, stream)                                  # capture end succeeds
    assert [t["kind"] for t in acl_lab.snapshot()["models"][0]["tasks"]] == ["memset"]
    assert acl.mdl.ri_execute(model, -1) == 0
    assert read(acl, buf, N) == filled(9)


# ----- capture end on another thread ---------------------------------------------------------
@pytest.mark.parametrize("mode", [GLOBAL, THREAD_LOCAL], ids=["GLOBAL", "THREAD_LOCAL"])
def test_capture_end_on_another_thread_is_refused_and_discards_the_capture(acl, stream, mode):
    assert acl.mdl.ri_capture_begin(stream, mode) == 0
    assert in_thread(acl, lambda: acl.mdl.ri_capture_end(stream)) == \
        (0, C.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD)
    assert capture_status(acl, stream) == NONE
    assert acl.mdl.ri_capture_begin(stream, mode) == 0       # the stream can capture again
    end(acl, stream)


def test_relaxed_capture_may_end_on_another_thread(acl, stream):
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(stream, RELAXED) == 0
    assert acl.rt.memset_async(buf, N, 5, N, stream) == 0
    model, ret = in_thread(acl, lambda: acl.mdl.ri_capture_end(stream))
    assert ret == 0 and capture_status(acl, stream) == NONE
    assert acl.mdl.ri_execute(model, -1) == 0
    assert read(acl, buf, N) == filled(5)


# ----- misuse of begin / end / execute / destroy ---------------------------------------------
def test_begin_end_execute_destroy_refusals(acl, stream):
    assert acl.mdl.ri_capture_end(stream) == (0, C.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
    assert acl.mdl.ri_capture_begin(stream, 3) == C.ACL_ERROR_RT_PARAM_INVALID
    assert capture_status(acl, stream) == NONE              # the refused begin changed nothing
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    ready = end(acl, stream)

    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == C.ACL_ERROR_RT_STREAM_CAPTURED
    st, capturing, _ = acl.mdl.ri_capture_get_info(stream)
    assert st == ACTIVE and capturing
    assert acl.mdl.ri_execute_async(ready, stream) == C.ACL_ERROR_RT_STREAM_CAPTURED
    other, _ = acl.rt.create_stream()
    assert acl.mdl.ri_execute_async(capturing, other) == C.ACL_ERROR_RT_MODEL_CAPTURED
    assert acl.mdl.ri_destroy(capturing) == C.ACL_ERROR_RT_MODEL_CAPTURED
    assert acl.rt.destroy_stream(stream) == C.ACL_ERROR_RT_STREAM_CAPTURED
    assert end(acl, stream) == capturing

    assert acl.mdl.ri_execute(ready, 0) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.mdl.ri_execute(0, -1) == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.ri_destroy(ready) == 0
    assert acl.mdl.ri_destroy(ready) == C.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.mdl.ri_execute_async(ready, other) == C.ACL_ERROR_RT_INVALID_HANDLE


def test_synchronous_model_execution_is_refused_under_a_global_capture(acl, stream):
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 5, N, stream) == 0
    model = end(acl, stream)
    other, _ = acl.rt.create_stream()
    assert acl.mdl.ri_capture_begin(other, GLOBAL) == 0
    assert acl.mdl.ri_execute(model, -1) == C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert "aclmdlRIExecute" in acl.get_recent_err_msg()
    assert model_entry(model)["executions"] == 0
    previous, _ = acl.mdl.ri_capture_thread_exchange_mode(RELAXED)
    assert acl.mdl.ri_execute(model, -1) == 0             # relaxed: runs once, now
    assert read(acl, buf, N) == filled(5)
    acl.mdl.ri_capture_thread_exchange_mode(previous)
    end(acl, other)


def test_get_info_reports_none_then_active_with_the_model_then_none(acl, stream):
    assert acl.mdl.ri_capture_get_info(stream) == (NONE, 0, 0)
    assert acl.mdl.ri_capture_begin(stream, THREAD_LOCAL) == 0
    st, model, _ = acl.mdl.ri_capture_get_info(stream)
    assert st == ACTIVE
    assert end(acl, stream) == model
    assert acl.mdl.ri_capture_get_info(stream) == (NONE, 0, 0)
    assert acl.mdl.ri_capture_get_info(0)[-1] == C.ACL_ERROR_INVALID_PARAM


def test_destroy_waits_for_replays_still_queued(acl, stream):
    buf = device_buffer(acl)
    assert acl.rt.memset(buf, N, 0, N) == 0
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 3, N, stream) == 0
    model = end(acl, stream)
    assert acl.mdl.ri_execute_async(model, stream) == 0
    assert acl.mdl.ri_destroy(model) == 0
    assert read(acl, buf, N) == filled(3)


# ----- modeled time and the trace ------------------------------------------------------------
def test_replay_pays_one_launch_instead_of_one_per_task(acl, stream):
    """N launch-bound tasks (64 B memsets) timed with events, issued eagerly and replayed."""
    tasks, buf = 50, device_buffer(acl, 64)
    rates = get_profile(acl_lab.snapshot()["profile"]).rates
    task_us = rates.memset_us(64, on_device=True)
    assert task_us < rates.launch_us           # launch-bound: the stream waits for the host
    start, stop = acl.rt.create_event()[0], acl.rt.create_event()[0]

    def timed(issue) -> float:
        assert acl.rt.record_event(start, stream) == 0
        issue()
        assert acl.rt.record_event(stop, stream) == 0
        assert acl.rt.synchronize_event(stop) == 0
        ms, ret = acl.rt.event_elapsed_time(start, stop)
        assert ret == 0
        return ms * 1000

    def memsets():
        for i in range(tasks):
            assert acl.rt.memset_async(buf, 64, i, 64, stream) == 0

    eager = timed(memsets)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    memsets()
    model = end(acl, stream)

    def replay_once():
        assert acl.mdl.ri_execute_async(model, stream) == 0

    replay = timed(replay_once)
    # eagerly every task waits for its launch; a replay pays one launch, then runs the
    # recorded tasks back to back (each at its own cost plus replay_task_us)
    assert eager == pytest.approx((tasks + 1) * rates.launch_us)   # + the stop record
    assert replay == pytest.approx(rates.launch_us + tasks * (task_us + rates.replay_task_us))
    assert replay < eager
    assert read(acl, buf, 64) == filled(tasks - 1, 64)


def test_trace_entries_carry_the_task_of_async_calls(acl, stream):
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 1, N, stream) == 0
    model = end(acl, stream)
    assert acl.rt.memset_async(buf, N, 2, N, stream) == 0
    assert acl.mdl.ri_execute_async(model, stream) == 0
    calls = {c.name: c for c in acl_lab.tracer().calls}
    eager, replay = calls["rt.memset_async"], calls["mdl.ri_execute_async"]
    assert eager.task["stream"] == replay.task["stream"] == stream
    assert (eager.task["kind"], replay.task["kind"]) == ("memset", "model")
    assert eager.task["start_us"] <= eager.task["end_us"] <= replay.task["start_us"] \
        <= replay.task["end_us"]


def test_destroying_a_context_destroys_the_models_captured_in_it(acl):
    dev_ctx, _ = acl.rt.get_context()
    ctx, _ = acl.rt.create_context(0)
    s, _ = acl.rt.create_stream()
    buf = device_buffer(acl)
    assert acl.mdl.ri_capture_begin(s, GLOBAL) == 0
    assert acl.rt.memset_async(buf, N, 9, N, s) == 0
    model = end(acl, s)
    assert acl.mdl.ri_execute_async(model, s) == 0         # queued when the context goes
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.set_context(dev_ctx) == 0
    assert read(acl, buf, N) == filled(9)                  # the queued replay still ran
    assert model not in [m["handle"] for m in acl_lab.snapshot()["models"]]
    assert acl.mdl.ri_destroy(model) == C.ACL_ERROR_RT_INVALID_HANDLE


def test_a_310b_board_cannot_capture_and_says_so(acl_on):
    """The CANN reference leaves Atlas 200I/500 A2 (Ascend 310B) out of ACL Graph: capture
    begin is ACL_ERROR_RT_FEATURE_NOT_SUPPORT there, and the stream stays usable."""
    acl = acl_on("310b")
    stream, _ = acl.rt.create_stream()
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == \
        C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "Ascend310B" in acl.get_recent_err_msg()
    assert acl.mdl.ri_capture_get_info(stream)[0] == C.ACL_MODEL_RI_CAPTURE_STATUS_NONE
    assert acl.rt.synchronize_stream(stream) == 0 and acl.rt.destroy_stream(stream) == 0
