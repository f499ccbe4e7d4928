"""The official hicann/runtime ``example/`` programs, re-expressed in the pyACL shape and run
on the simulator; each asserts what the example's README says it prints.

These are acl_lab's own translations of the C programs (example/<path>/main.cpp), line for
line where the pyACL shape allows. Where an example launches a custom kernel (EasyOP,
ShortOP, LongOP: "add one to an int", "double it"), the translation issues the same
arithmetic as an aclnn operator on the same stream, and stands for "long" with copies that
take modeled milliseconds; the printed lines are the README's. Values the README leaves as
"..." (timestamps, times) are checked for shape and order, not digits.

Here: 0_quickstart/1_error_handling; 1_basic_features/device/{0_device_normal, 2_device_P2P},
event/{0_event_status, 1_event_timestamp}, memory/0..6, stream/{0_simple_stream,
2_multi_stream (its stream and event parts)}; 2_advanced_features/model_ri/{0_simple_model,
1_model_update}. In test_official_runtime_queries.py: 2_system_info, context/0_context_query,
device/1_device_multi_thread and the notify part of stream/2_multi_stream. Not here, because
the simulator has no such call: 0_hello_cann (data buffers: another issue),
stream/1_stream_with_failure_mode (a failing kernel, aclrtStreamStop),
stream/3_stream_config_query (stream config handles), memory/7, 8, 11, 12 (physical memory;
9 and 10, value wait/write and IPC, are in test_official_kernel_memory_examples.py),
model_ri/2_model_switch and 3_cond_model (aclmdlRIBuild*, condition tasks) and
4_model_sync_external (aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag, which pyACL
does not bind); custom-kernel examples (0_quickstart/4_custom_kernel_launch).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from acl_lab import constants as C
from examplehelpers import check, info, lines
from acl_lab.sim.profiles import get_profile

F32, I32 = C.ACL_FLOAT, C.ACL_INT32
H2D, D2H, D2D = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST, \
    C.ACL_MEMCPY_DEVICE_TO_DEVICE


def matches(got: list[str], readme: list[str]) -> bool:
    """README lines, with "..." standing for any value."""
    pats = [re.compile(re.escape(r).replace(r"\.\.\.", ".+") + "$") for r in readme]
    return len(got) == len(pats) and all(p.match(g) for p, g in zip(pats, got))


# ----- kernels of the examples, as aclnn operators on the same stream ---------------------------
class Device:
    """Tensors over device memory, as the examples' CreateAclTensor makes them."""

    def __init__(self, acl):
        self.acl = acl

    def tensor(self, shape, dtype, data=None):
        acl, n = self.acl, int(np.prod(shape))
        item = np.dtype(np.float32 if dtype == F32 else np.int32).itemsize
        ptr, ret = acl.rt.malloc(n * item, C.ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "aclrtMalloc")
        if data is not None:
            host = np.ascontiguousarray(data, np.float32 if dtype == F32 else np.int32)
            check(acl.rt.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, H2D),
                  "aclrtMemcpy")
        strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
        t = acl.nn.create_tensor(list(shape), dtype, strides, 0, C.ACL_FORMAT_ND, list(shape), ptr)
        assert t
        return ptr, t

    def read(self, ptr, n, dtype=F32) -> np.ndarray:
        out = np.zeros(n, np.float32 if dtype == F32 else np.int32)
        check(self.acl.rt.memcpy(self.acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes,
                                 D2H), "aclrtMemcpy")
        return out

    def add(self, a, b, alpha, out, stream, dtype=F32) -> None:
        acl = self.acl
        scalar = acl.nn.create_scalar(alpha, dtype)
        ws, ex, ret = acl.nn.add_get_workspace_size(a, b, scalar, out)
        check(ret, "aclnnAddGetWorkspaceSize")
        check(acl.nn.add(0, ws, ex, stream), "aclnnAdd")

    def mul(self, a, b, out, stream) -> None:
        ws, ex, ret = self.acl.nn.mul_get_workspace_size(a, b, out)
        check(ret, "aclnnMulGetWorkspaceSize")
        check(self.acl.nn.mul(0, ws, ex, stream), "aclnnMul")


def counter(dev: Device):
    """An int32 on the device and a 1 to add to it (the kernels' ``num``)."""
    num_ptr, num = dev.tensor((1,), I32, [0])
    _, one = dev.tensor((1,), I32, [1])
    return num_ptr, num, one


def long_work(acl, stream, mib: int = 16, times: int = 8) -> None:
    """Copies that keep ``stream`` busy for modeled milliseconds (LongOP's length)."""
    src, ret = acl.rt.malloc_host(mib << 20)
    check(ret, "aclrtMallocHost")
    dst, ret = acl.rt.malloc(mib << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "aclrtMalloc")
    for _ in range(times):
        check(acl.rt.memcpy_async(dst, mib << 20, src, mib << 20, H2D, stream), "aclrtMemcpyAsync")


def very_long_work(acl, stream, seconds: float) -> None:
    """Work of modeled seconds, issued as one task: a captured model of host-to-device
    copies, replayed once (nothing of it runs before a wait reaches it, so a timeout costs
    no real copying)."""
    size = 16 << 20
    src, ret = acl.rt.malloc_host(size)
    check(ret, "aclrtMallocHost")
    dst, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "aclrtMalloc")
    rate = get_profile("910b").rates.h2d_pinned           # bytes per µs
    copies = int(seconds * 1e6 * rate / size) + 1
    capture, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    check(acl.mdl.ri_capture_begin(capture, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
          "aclmdlRICaptureBegin")
    for _ in range(copies):
        check(acl.rt.memcpy_async(dst, size, src, size, H2D, capture), "aclrtMemcpyAsync")
    model, ret = acl.mdl.ri_capture_end(capture)
    check(ret, "aclmdlRICaptureEnd")
    check(acl.mdl.ri_execute_async(model, stream), "aclmdlRIExecuteAsync")


# ----- 0_quickstart/1_error_handling ---------------------------------------------------------
def test_error_handling(acl, capsys):
    """main.cpp: an expected invalid-parameter error, read with aclrtPeekAtLastError,
    aclrtGetLastError and aclGetRecentErrMsg, then all three read empty. (pyACL cannot pass
    aclrtGetRunMode a NULL pointer; an invalid device id stands in. aclrtGetErrorVerbose is
    not simulated: its line is left out.)"""
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    info("ACL init and set device successfully")
    mode, ret = acl.rt.get_run_mode()
    check(ret, "aclrtGetRunMode")
    info(f"Current run mode: {C.RUN_MODE_NAMES[mode]}")
    info("Triggering an expected invalid-parameter error with aclrtGetRunMode(nullptr)")
    ret = acl.rt.set_device(-1)
    peek = acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL)
    last = acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL)
    msg = acl.get_recent_err_msg()
    print(f"[ERROR] Diagnostics: ret={ret}, peekErr={peek}, lastErr={last}, recentErrMsg={msg}")
    assert ret == peek == last != 0 and msg
    peek = acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL)
    last = acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL)
    msg = acl.get_recent_err_msg() or "<null>"
    info(f"After diagnostics are consumed once: peekErr={peek}, lastErr={last}, recentErrMsg={msg}")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    assert matches(lines(capsys), [
        "[INFO]  ACL init and set device successfully",
        "[INFO]  Current run mode: ACL_HOST",
        "[INFO]  Triggering an expected invalid-parameter error with aclrtGetRunMode(nullptr)",
        "[ERROR] Diagnostics: ret=..., peekErr=..., lastErr=..., recentErrMsg=...",
        "[INFO]  After diagnostics are consumed once: peekErr=0, lastErr=0, recentErrMsg=<null>"])


# ----- 1_basic_features/device/2_device_P2P --------------------------------------------------
def test_device_p2p(acl, capsys):
    info("Start to run device_P2P sample.")
    check(acl.init(), "aclInit")
    count, ret = acl.rt.get_device_count()
    check(ret, "aclrtGetDeviceCount")
    assert count >= 2
    size, value = 1 << 20, 103
    check(acl.rt.set_device(0), "aclrtSetDevice")
    can, ret = acl.rt.device_can_access_peer(0, 1)
    check(ret, "aclrtDeviceCanAccessPeer")
    assert can == 1
    check(acl.rt.device_enable_peer_access(1, 0), "aclrtDeviceEnablePeerAccess")
    dev0, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST_P2P)
    check(ret, "aclrtMalloc")
    check(acl.rt.memset(dev0, size, value, size), "aclrtMemset")
    check(acl.rt.set_device(1), "aclrtSetDevice")
    check(acl.rt.device_enable_peer_access(0, 0), "aclrtDeviceEnablePeerAccess")
    dev1, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST_P2P)
    check(ret, "aclrtMalloc")
    check(acl.rt.memset(dev1, size, 0, size), "aclrtMemset")
    check(acl.rt.memcpy(dev1, size, dev0, size, D2D), "aclrtMemcpy")
    info("Device 0 to device 1 memcpy success.")
    host, ret = acl.rt.malloc_host(size)
    check(ret, "aclrtMallocHost")
    check(acl.rt.memset(host, size, 0, size), "aclrtMemset")
    check(acl.rt.memcpy(host, size, dev1, size, D2H), "aclrtMemcpy")
    info("Device 1 to host memcpy success.")
    first = acl.util.ptr_to_bytes(host, 1)[0]
    assert first == value
    info(f"The data read from the memory is {first}, verify success!")
    check(acl.rt.synchronize_device(), "aclrtSynchronizeDevice")
    check(acl.rt.device_disable_peer_access(0), "aclrtDeviceDisablePeerAccess")
    check(acl.rt.free_host(host), "aclrtFreeHost")
    check(acl.rt.free(dev1), "aclrtFree")
    check(acl.rt.reset_device_force(1), "aclrtResetDeviceForce")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    check(acl.rt.device_disable_peer_access(1), "aclrtDeviceDisablePeerAccess")
    check(acl.rt.free(dev0), "aclrtFree")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    info("Run the device_P2P sample successfully.")
    assert lines(capsys) == [
        "[INFO]  Start to run device_P2P sample.",
        "[INFO]  Device 0 to device 1 memcpy success.",
        "[INFO]  Device 1 to host memcpy success.",
        "[INFO]  The data read from the memory is 103, verify success!",
        "[INFO]  Run the device_P2P sample successfully."]


# ----- 1_basic_features/event/0_event_status -----------------------------------------------
def test_event_status(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    check(acl.rt.set_stream_failure_mode(stream, C.ACL_STOP_ON_FAILURE), "aclrtSetStreamFailureMode")
    event, ret = acl.rt.create_event()
    check(ret, "aclrtCreateEvent")
    status, ret = acl.rt.query_event_status(event)
    check(ret, "aclrtQueryEventStatus")
    info(f"After create event, current event status is {status}.")
    dev = Device(acl)
    num_ptr, num, one = counter(dev)
    info("Applied resource successfully, begin assigning task.")
    info("Begin a long task.")
    long_work(acl, stream)                                   # LongOP: long, then num += 1
    dev.add(num, one, 1, num, stream, I32)
    check(acl.rt.record_event(event, stream), "aclrtRecordEvent")
    status, ret = acl.rt.query_event_status(event)
    check(ret, "aclrtQueryEventStatus")
    info("0 is incompleted, 1 is completed.")
    info(f"After record but before synchronize, current event status is {status}.")
    check(acl.rt.synchronize_event(event), "aclrtSynchronizeEvent")
    status, ret = acl.rt.query_event_status(event)
    check(ret, "aclrtQueryEventStatus")
    info(f"After synchronize, current event status is {status}.")
    info(f"The answer is {dev.read(num_ptr, 1, I32)[0]}.")
    check(acl.rt.destroy_event(event), "aclrtDestroyEvent")
    check(acl.rt.destroy_stream_force(stream), "aclrtDestroyStreamForce")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    acl.finalize()
    info("Resource cleanup completed.")
    assert lines(capsys) == [
        "[INFO]  After create event, current event status is 0.",
        "[INFO]  Applied resource successfully, begin assigning task.",
        "[INFO]  Begin a long task.",
        "[INFO]  0 is incompleted, 1 is completed.",
        "[INFO]  After record but before synchronize, current event status is 0.",
        "[INFO]  After synchronize, current event status is 1.",
        "[INFO]  The answer is 1.",
        "[INFO]  Resource cleanup completed."]


# ----- 1_basic_features/event/1_event_timestamp --------------------------------------------
def test_event_timestamp(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    check(acl.rt.set_stream_failure_mode(stream, C.ACL_STOP_ON_FAILURE), "aclrtSetStreamFailureMode")
    start, ret = acl.rt.create_event()
    check(ret, "aclrtCreateEvent")
    end, ret = acl.rt.create_event()
    check(ret, "aclrtCreateEvent")
    dev = Device(acl)
    times = []
    for label, long in (("short", False), ("long", True)):
        num_ptr, num, one = counter(dev)
        info("Begin a short task.")               # the README prints "short" both times
        check(acl.rt.record_event(start, stream), "aclrtRecordEvent")
        if long:                                  # ShortOP leaves num; LongOP adds one
            long_work(acl, stream)
            dev.add(num, one, 1, num, stream, I32)
        else:
            long_work(acl, stream, mib=1, times=1)
        check(acl.rt.record_event(end, stream), "aclrtRecordEvent")
        check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
        info(f"After completing the {label} task, the answer is {dev.read(num_ptr, 1, I32)[0]}.")
        info("After synchronize, check the time.")
        t0, ret = acl.rt.event_get_timestamp(start)
        check(ret, "aclrtEventGetTimestamp")
        info(f"Start event timestamp: {t0}.")
        t1, ret = acl.rt.event_get_timestamp(end)
        check(ret, "aclrtEventGetTimestamp")
        info(f"End event timestamp: {t1}.")
        ms, ret = acl.rt.event_elapsed_time(start, end)
        check(ret, "aclrtEventElapsedTime")
        info(f"The short task consume time {ms:f} ms.")
        times.append(ms)
    check(acl.rt.destroy_event(start), "aclrtDestroyEvent")
    check(acl.rt.destroy_event(end), "aclrtDestroyEvent")
    check(acl.rt.destroy_stream_force(stream), "aclrtDestroyStreamForce")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    acl.finalize()
    info("Resource cleanup completed.")
    assert times[1] > times[0] > 0
    assert matches(lines(capsys), [
        "[INFO]  Begin a short task.",
        "[INFO]  After completing the short task, the answer is 0.",
        "[INFO]  After synchronize, check the time.",
        "[INFO]  Start event timestamp: ...",
        "[INFO]  End event timestamp: ...",
        "[INFO]  The short task consume time ... ms.",
        "[INFO]  Begin a short task.",
        "[INFO]  After completing the long task, the answer is 1.",
        "[INFO]  After synchronize, check the time.",
        "[INFO]  Start event timestamp: ...",
        "[INFO]  End event timestamp: ...",
        "[INFO]  The short task consume time ... ms.",
        "[INFO]  Resource cleanup completed."])


# ----- 1_basic_features/stream/0_simple_stream ---------------------------------------------
def test_simple_stream(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    dev = Device(acl)
    info("Use default stream assigning task.")
    num_ptr, num, one = counter(dev)
    info("Applied resource successfully, begin assigning task.")
    dev.add(num, one, 1, num, 0, I32)                        # EasyOP on the default stream
    check(acl.rt.synchronize_stream(0), "aclrtSynchronizeStream")
    info("After assigning the task through the default stream, the current result is: "
         f"{dev.read(num_ptr, 1, I32)[0]}.")
    info("Use created stream assigning task.")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    check(acl.rt.set_stream_failure_mode(stream, C.ACL_STOP_ON_FAILURE), "aclrtSetStreamFailureMode")
    dev.add(num, one, 1, num, stream, I32)
    check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    info("After assigning the task through the created stream, the current result is: "
         f"{dev.read(num_ptr, 1, I32)[0]}.")
    info("Begin 3000 task.")
    for _ in range(3000):
        dev.add(num, one, 1, num, stream, I32)
    check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    status, ret = acl.rt.stream_query(stream)
    check(ret, "aclrtStreamQuery")
    info(f"After synchronize, stream status is: {status}.")
    info(f"After loop, the current result is: {dev.read(num_ptr, 1, I32)[0]}.")
    check(acl.rt.free(num_ptr), "aclrtFree")
    check(acl.rt.destroy_stream_force(stream), "aclrtDestroyStreamForce")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    acl.finalize()
    info("Resource cleanup completed.")
    assert lines(capsys) == [
        "[INFO]  Use default stream assigning task.",
        "[INFO]  Applied resource successfully, begin assigning task.",
        "[INFO]  After assigning the task through the default stream, the current result is: 1.",
        "[INFO]  Use created stream assigning task.",
        "[INFO]  After assigning the task through the created stream, the current result is: 2.",
        "[INFO]  Begin 3000 task.",
        "[INFO]  After synchronize, stream status is: 0.",
        "[INFO]  After loop, the current result is: 3002.",
        "[INFO]  Resource cleanup completed."]


# ----- 1_basic_features/stream/2_multi_stream (stream and event parts) ----------------------
def _multi_stream_part(acl, use_event: bool) -> None:
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    s1, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    s2, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    for s in (s1, s2):
        check(acl.rt.set_stream_failure_mode(s, C.ACL_STOP_ON_FAILURE), "aclrtSetStreamFailureMode")
    event = None
    if use_event:
        event, ret = acl.rt.create_event()
        check(ret, "aclrtCreateEvent")
    dev = Device(acl)
    num_ptr, num, one = counter(dev)
    _, two = dev.tensor((1,), I32, [2])
    info("Applied resource successfully, begin assigning task.")
    info("Begin a long task, num += 1.")
    long_work(acl, s1)
    dev.add(num, one, 1, num, s1, I32)
    if use_event:
        check(acl.rt.record_event(event, s1), "aclrtRecordEvent")
        info("Stream wait event.")
        check(acl.rt.stream_wait_event(s2, event), "aclrtStreamWaitEvent")
    else:
        info("Stream synchronize.")
        check(acl.rt.synchronize_stream(s1), "aclrtSynchronizeStream")
    info("Begin a short task, num *= 2.")
    dev.mul(num, two, num, s2)
    check(acl.rt.synchronize_stream(s2), "aclrtSynchronizeStream")
    info(f"The answer is {dev.read(num_ptr, 1, I32)[0]}.")
    info("Simulate timeout, wait 1000ms, the task will fail.")
    very_long_work(acl, s1, seconds=1.5)
    if use_event:
        check(acl.rt.reset_event(event, s1), "aclrtResetEvent")
        check(acl.rt.record_event(event, s1), "aclrtRecordEvent")
        ret, call = acl.rt.synchronize_event_with_timeout(event, 1000), \
            "aclrtSynchronizeEventWithTimeout(event, kWaitTimeMs)"
    else:
        ret, call = acl.rt.synchronize_stream_with_timeout(s1, 1000), \
            "aclrtSynchronizeStreamWithTimeout(stream1, kWaitTimeMs)"
    print(f"[ERROR]  Operation failed: {call} returned error code {ret}")
    check(acl.rt.destroy_stream_force(s1), "aclrtDestroyStreamForce")
    check(acl.rt.destroy_stream_force(s2), "aclrtDestroyStreamForce")
    if use_event:
        check(acl.rt.destroy_event(event), "aclrtDestroyEvent")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    acl.finalize()
    info("Resource cleanup completed.")


def test_multi_stream_synchronize_and_timeout(acl, capsys):
    info("Use stream synchronize.")
    _multi_stream_part(acl, use_event=False)
    assert lines(capsys) == [
        "[INFO]  Use stream synchronize.",
        "[INFO]  Applied resource successfully, begin assigning task.",
        "[INFO]  Begin a long task, num += 1.",
        "[INFO]  Stream synchronize.",
        "[INFO]  Begin a short task, num *= 2.",
        "[INFO]  The answer is 2.",
        "[INFO]  Simulate timeout, wait 1000ms, the task will fail.",
        "[ERROR]  Operation failed: aclrtSynchronizeStreamWithTimeout(stream1, kWaitTimeMs) "
        "returned error code 507046",
        "[INFO]  Resource cleanup completed."]


def test_multi_stream_event_and_timeout(acl, capsys):
    """The event part (the README elides its lines with "..."): the same answer, and the
    event wait times out with ACL_ERROR_RT_EVENT_SYNC_TIMEOUT (507047)."""
    info("Use event synchronize.")
    _multi_stream_part(acl, use_event=True)
    got = lines(capsys)
    assert "[INFO]  The answer is 2." in got
    assert got[-2].endswith("returned error code 507047")


# ----- 2_advanced_features/model_ri/0_simple_model -----------------------------------------
def _vector(values) -> str:
    return "The vector data is: " + "  ".join(f"{v:.4f}" for v in values)


def test_model_ri_simple_model(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    dev = Device(acl)
    self_ptr, self_t = dev.tensor((4, 2), F32)
    other_ptr, other_t = dev.tensor((4, 2), F32)
    out_ptr, out_t = dev.tensor((4, 2), F32)
    _, tmp_t = dev.tensor((4, 2), F32)
    alpha = acl.nn.create_scalar(1.1, F32)
    add_ws, add_ex, ret = acl.nn.add_get_workspace_size(self_t, other_t, alpha, tmp_t)
    check(ret, "aclnnAddGetWorkspaceSize")
    mul_ws, mul_ex, ret = acl.nn.mul_get_workspace_size(tmp_t, other_t, out_t)
    check(ret, "aclnnMulGetWorkspaceSize")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    size = 32
    self_host, ret = acl.rt.malloc_host(size)
    check(ret, "aclrtMallocHost")
    self_data = np.arange(1, 9, dtype=np.float32)
    other_data = np.full(8, 2, np.float32)
    check(acl.rt.memcpy(self_host, size, acl.util.numpy_to_ptr(self_data), size,
                        C.ACL_MEMCPY_HOST_TO_HOST), "aclrtMemcpy")
    check(acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
          "aclmdlRICaptureBegin")
    check(acl.rt.memcpy_async(self_ptr, size, self_host, size, H2D, stream), "aclrtMemcpyAsync")
    mode, ret = acl.mdl.ri_capture_thread_exchange_mode(C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
    check(ret, "aclmdlRICaptureThreadExchangeMode")
    check(acl.rt.memcpy(other_ptr, size, acl.util.numpy_to_ptr(other_data), size, H2D),
          "aclrtMemcpy")
    check(acl.mdl.ri_capture_thread_exchange_mode(mode)[1], "aclmdlRICaptureThreadExchangeMode")
    check(acl.nn.add(0, add_ws, add_ex, stream), "aclnnAdd")
    check(acl.nn.mul(0, mul_ws, mul_ex, stream), "aclnnMul")
    model, ret = acl.mdl.ri_capture_end(stream)
    check(ret, "aclmdlRICaptureEnd")
    for i in range(4):
        info(f"execute model, loop count: {i + 1}.")
        check(acl.mdl.ri_execute_async(model, stream), "aclmdlRIExecuteAsync")
        check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
        info(_vector(dev.read(out_ptr, 8)))
    check(acl.mdl.ri_destroy(model), "aclmdlRIDestroy")
    check(acl.rt.destroy_stream(stream), "aclrtDestroyStream")
    check(acl.rt.free_host(self_host), "aclrtFreeHost")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    expected = "[INFO]  The vector data is: 6.4000  8.4000  10.4000  12.4000  14.4000  16.4000  " \
               "18.4000  20.4000"
    got = lines(capsys)
    assert got[0::2] == [f"[INFO]  execute model, loop count: {i}." for i in range(1, 5)]
    assert got[1::2] == [expected] * 4


# ----- 2_advanced_features/model_ri/1_model_update -----------------------------------------
def test_model_ri_model_update(acl, capsys):
    """A task group captured around the second aclnnAdd, updated between replays on another
    stream with a new alpha; an ACL_EVENT_EXTERNAL event orders each replay after the
    update (the model waits on it, and resets it)."""
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    dev = Device(acl)
    self_ptr, self_t = dev.tensor((4, 2), F32)
    other_ptr, other_t = dev.tensor((4, 2), F32)
    out_ptr, out_t = dev.tensor((4, 2), F32)
    _, tmp_t = dev.tensor((4, 2), F32)
    alpha, new_alpha = acl.nn.create_scalar(1.1, F32), acl.nn.create_scalar(2.2, F32)
    ws1, first, ret = acl.nn.add_get_workspace_size(self_t, other_t, alpha, tmp_t)
    check(ret, "aclnnAddGetWorkspaceSize")
    ws2, second, ret = acl.nn.add_get_workspace_size(tmp_t, other_t, alpha, out_t)
    check(ret, "aclnnAddGetWorkspaceSize")
    ws3, update, ret = acl.nn.add_get_workspace_size(tmp_t, other_t, new_alpha, out_t)
    check(ret, "aclnnAddGetWorkspaceSize")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    event, ret = acl.rt.create_event_with_flag(C.ACL_EVENT_EXTERNAL)
    check(ret, "aclrtCreateEventWithFlag")
    self_data, other_data = np.arange(1, 9, dtype=np.float32), np.full(8, 2, np.float32)
    check(acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
          "aclmdlRICaptureBegin")
    check(acl.rt.memcpy(self_ptr, 32, acl.util.numpy_to_ptr(self_data), 32, H2D), "aclrtMemcpy")
    check(acl.rt.memcpy(other_ptr, 32, acl.util.numpy_to_ptr(other_data), 32, H2D), "aclrtMemcpy")
    check(acl.nn.add(0, ws1, first, stream), "aclnnAdd")
    check(acl.rt.stream_wait_event(stream, event), "aclrtStreamWaitEvent")
    check(acl.rt.reset_event(event, stream), "aclrtResetEvent")
    check(acl.mdl.ri_capture_task_grp_begin(stream), "aclmdlRICaptureTaskGrpBegin")
    check(acl.nn.add(0, ws2, second, stream), "aclnnAdd")
    handle, ret = acl.mdl.ri_capture_task_grp_end(stream)
    check(ret, "aclmdlRICaptureTaskGrpEnd")
    model, ret = acl.mdl.ri_capture_end(stream)
    check(ret, "aclmdlRICaptureEnd")
    update_stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    for i in range(2):
        info(f"Execute model, loop count: {i + 1}.")
        check(acl.mdl.ri_execute_async(model, stream), "aclmdlRIExecuteAsync")
        if i == 1:
            check(acl.mdl.ri_capture_task_update_begin(update_stream, handle),
                  "aclmdlRICaptureTaskUpdateBegin")
            check(acl.nn.add(0, ws3, update, update_stream), "aclnnAdd")
            info("Update alpha value of aclnnAdd")
            check(acl.mdl.ri_capture_task_update_end(update_stream), "aclmdlRICaptureTaskUpdateEnd")
        check(acl.rt.record_event(event, update_stream), "aclrtRecordEvent")
        check(acl.rt.synchronize_stream(update_stream), "aclrtSynchronizeStream")
        check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
        info(_vector(dev.read(out_ptr, 8)))
    check(acl.mdl.ri_destroy(model), "aclmdlRIDestroy")
    check(acl.rt.destroy_stream(stream), "aclrtDestroyStream")
    check(acl.rt.destroy_stream(update_stream), "aclrtDestroyStream")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    assert lines(capsys) == [
        "[INFO]  Execute model, loop count: 1.",
        "[INFO]  The vector data is: 5.4000  6.4000  7.4000  8.4000  9.4000  10.4000  11.4000  "
        "12.4000",
        "[INFO]  Execute model, loop count: 2.",
        "[INFO]  Update alpha value of aclnnAdd",
        "[INFO]  The vector data is: 7.6000  8.6000  9.6000  10.6000  11.6000  12.6000  13.6000  "
        "14.6000"]


# ----- 1_basic_features/memory/0..6: one int copied between host and device -----------------
MEMORY_EXAMPLES = {
    # name: (source location, destination location, async, README lines after "Write")
    "0_h2h_memory_copy": ("host", "host", False,
                          ["[INFO]  Source data: 123", "[INFO]  Copy memory from memory 0x... to "
                           "memory 0x...", "[INFO]  Destination data: 123"]),
    "1_h2d_sync_memory_copy": ("host", "device", False,
                               ["[INFO]  Source data: 123", "[INFO]  Copy memory from memory 0x... "
                                "to memory 0x...", "Destination data: 123"]),
    "2_h2d_async_memory_copy": ("host", "device", True,
                                ["[INFO]  Source data: 123", "[INFO]  Copy memory from memory "
                                 "0x... to memory 0x...", "Destination data: 123"]),
    "3_d2h_sync_memory_copy": ("device", "host", False,
                               ["[INFO]  Copy memory from memory 0x... to memory 0x...",
                                "[INFO]  Destination data: 123", "Source data: 123"]),
    "4_d2h_async_memory_copy": ("device", "host", True,
                                ["[INFO]  Copy memory from memory 0x... to memory 0x...",
                                 "[INFO]  Destination data: 123", "Source data: 123"]),
    "5_d2d_sync_memory_copy": ("device", "device", False,
                               ["[INFO]  Copy memory from memory 0x... to memory 0x...",
                                "Source data: 123", "Destination data: 123"]),
    "6_d2d_async_memory_copy": ("device", "device", True,
                                ["[INFO]  Copy memory from memory 0x... to memory 0x...",
                                 "Source data: 123", "Destination data: 123"]),
}


@pytest.mark.parametrize("name", sorted(MEMORY_EXAMPLES))
def test_memory_copy_examples(acl, capsys, name):
    """The examples write 123 with a kernel (WriteDo) and print device values from kernels
    (ReadDo, lines without "[INFO]"); here an async copy from pinned memory writes, and the
    values are read back after synchronizing. The printed lines are the README's."""
    src_loc, dst_loc, is_async, after_write = MEMORY_EXAMPLES[name]
    size = 4
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")

    def alloc(loc):
        ptr, ret = (acl.rt.malloc_host(size) if loc == "host"
                    else acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST))
        check(ret, "aclrtMallocHost" if loc == "host" else "aclrtMalloc")
        info(f"Allocate memory on the {loc} memory 0x{ptr:x} successfully")
        return ptr

    def value(ptr, loc) -> int:
        if loc == "host":
            return int(acl.util.ptr_to_numpy(ptr, (1,), np.dtype(np.int32).num)[0])
        out = np.zeros(1, np.int32)
        check(acl.rt.memcpy(acl.util.numpy_to_ptr(out), size, ptr, size, D2H), "aclrtMemcpy")
        return int(out[0])

    src, dst = alloc(src_loc), alloc(dst_loc)
    if src_loc == "host":
        acl.util.ptr_to_numpy(src, (1,), np.dtype(np.int32).num)[0] = 123
    else:                                                  # WriteDo, a device-side write
        staging, ret = acl.rt.malloc_host(size)
        check(ret, "aclrtMallocHost")
        acl.util.ptr_to_numpy(staging, (1,), np.dtype(np.int32).num)[0] = 123
        check(acl.rt.memcpy_async(src, size, staging, size, H2D, stream), "aclrtMemcpyAsync")
        check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    word = "address" if name.startswith("0_") else "memory"
    info(f"Write the data 123 to the virtual {word} 0x{src:x}")
    kind = {("host", "host"): C.ACL_MEMCPY_HOST_TO_HOST, ("host", "device"): H2D,
            ("device", "host"): D2H, ("device", "device"): D2D}[(src_loc, dst_loc)]
    printed = {"src": f"Source data: {value(src, src_loc)}"}
    if is_async:
        check(acl.rt.memcpy_async(dst, size, src, size, kind, stream), "aclrtMemcpyAsync")
        check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    else:
        check(acl.rt.memcpy(dst, size, src, size, kind), "aclrtMemcpy")
    printed["dst"] = f"Destination data: {value(dst, dst_loc)}"
    for line in after_write:
        if line.startswith("[INFO]  Copy"):
            info(f"Copy memory from memory 0x{src:x} to memory 0x{dst:x}")
        else:
            text = printed["src" if "Source" in line else "dst"]
            print(f"[INFO]  {text}" if line.startswith("[INFO]") else text)
    check(acl.rt.destroy_stream_force(stream), "aclrtDestroyStreamForce")
    for ptr, loc in ((src, src_loc), (dst, dst_loc)):
        check(acl.rt.free_host(ptr) if loc == "host" else acl.rt.free(ptr), "aclrtFree")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    first = [f"[INFO]  Allocate memory on the {loc} memory 0x... successfully"
             for loc in (src_loc, dst_loc)]
    assert matches(lines(capsys), first + [
        f"[INFO]  Write the data 123 to the virtual {word} 0x..."] + after_write)


# ----- 1_basic_features/device/0_device_normal ----------------------------------------------
def test_device_normal(acl, capsys):
    info("Start to run device_normal sample.")
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    dev = Device(acl)
    self_ptr, self_t = dev.tensor((4, 2), F32, np.arange(8))
    other_ptr, other_t = dev.tensor((4, 2), F32, [1, 1, 1, 2, 2, 2, 3, 3])
    out_ptr, out_t = dev.tensor((4, 2), F32, np.zeros(8))
    dev.add(self_t, other_t, 1.2, out_t, stream)
    check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    for i, v in enumerate(dev.read(out_ptr, 8)):
        info(f"result[{i}] is: {v:f}")
    check(acl.rt.synchronize_device(), "aclrtSynchronizeDevice")
    for p in (self_ptr, other_ptr, out_ptr):
        check(acl.rt.free(p), "aclrtFree")
    check(acl.rt.destroy_stream(stream), "aclrtDestroyStream")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    info("Run the device_normal sample successfully.")
    assert lines(capsys) == ["[INFO]  Start to run device_normal sample."] + [
        f"[INFO]  result[{i}] is: {v}" for i, v in enumerate(
            ["1.200000", "2.200000", "3.200000", "5.400000", "6.400000", "7.400000",
             "9.600000", "10.600000"])] + ["[INFO]  Run the device_normal sample successfully."]
