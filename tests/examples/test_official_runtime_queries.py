"""More official hicann/runtime ``example/`` programs in the pyACL shape, now that the
simulator has their calls (issue 31, part A): 0_quickstart/2_system_info,
1_basic_features/context/0_context_query, device/1_device_multi_thread and the notify part of
stream/2_multi_stream. Translated as test_official_runtime_examples.py translates (a custom
kernel becomes the same arithmetic as an aclnn operator on the same stream); each asserts
the lines its README prints, "<...>" and "x" standing for values the device decides.
aclsysGetVersionNum, which pyACL does not bind, is left out of 2_system_info.
"""
from __future__ import annotations

import re
import threading

import numpy as np

from acl_lab import constants as C
from examplehelpers import check, info, lines

F32, I32 = C.ACL_FLOAT, C.ACL_INT32
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST


def matches(got: list[str], readme: list[str]) -> bool:
    """README lines; "<...>" stands for any value."""
    pats = [re.compile(re.sub(r"<[a-z_]+>", ".+", re.escape(r)) + "$") for r in readme]
    return len(got) == len(pats) and all(p.match(g) for p, g in zip(pats, got))


def tensor(acl, values, dtype=F32):
    """Device memory holding ``values`` and an aclTensor over it."""
    host = np.ascontiguousarray(values, np.float32 if dtype == F32 else np.int32)
    ptr, ret = acl.rt.malloc(host.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "aclrtMalloc")
    check(acl.rt.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, H2D),
          "aclrtMemcpy")
    n = host.size
    return ptr, acl.nn.create_tensor([n], dtype, [1], 0, C.ACL_FORMAT_ND, [n], ptr)


def add(acl, a, b, out, stream, dtype=F32, alpha=1.0) -> None:
    ws, ex, ret = acl.nn.add_get_workspace_size(a, b, acl.nn.create_scalar(alpha, dtype), out)
    check(ret, "aclnnAddGetWorkspaceSize")
    check(acl.nn.add(0, ws, ex, stream), "aclnnAdd")


# ----- 0_quickstart/2_system_info ---------------------------------------------------------------
def test_system_info(acl, capsys):
    check(acl.init(), "aclInit")
    info("ACL init successfully")
    version, ret = acl.get_version_str("runtime")
    check(ret, "aclsysGetVersionStr")
    info(f"CANN package [runtime] version string: {version}")
    mode, ret = acl.rt.get_run_mode()
    check(ret, "aclrtGetRunMode")
    info(f"Current run mode: {'ACL_HOST' if mode == C.ACL_HOST else 'ACL_DEVICE'}")
    fp16 = acl.float_to_float16(1.625)
    info(f"Float conversion: {1.625:.6f} -> 0x{fp16:04x} -> {acl.float16_to_float(fp16):.6f}")
    info(f"Data type size: ACL_FLOAT={acl.data_type_size(C.ACL_FLOAT)}, "
         f"ACL_FLOAT16={acl.data_type_size(C.ACL_FLOAT16)}, "
         f"ACL_INT64={acl.data_type_size(C.ACL_INT64)}")
    check(acl.finalize(), "aclFinalize")
    info("ACL finalize successfully")
    assert matches(lines(capsys), [
        "[INFO]  ACL init successfully",
        "[INFO]  CANN package [runtime] version string: <version>",
        "[INFO]  Current run mode: ACL_HOST",
        "[INFO]  Float conversion: 1.625000 -> 0x3e80 -> 1.625000",
        "[INFO]  Data type size: ACL_FLOAT=4, ACL_FLOAT16=2, ACL_INT64=8",
        "[INFO]  ACL finalize successfully"])


# ----- 1_basic_features/context/0_context_query -------------------------------------------------
def test_context_query(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    check(acl.rt.set_context(context), "aclrtSetCurrentContext")
    current, ret = acl.rt.get_context()
    check(ret, "aclrtGetCurrentContext")
    assert current == context, "Current context is different from the created context."
    info("Get current context successfully")
    stream, ret = acl.rt.ctx_get_current_default_stream()
    check(ret, "aclrtCtxGetCurrentDefaultStream")
    info(f"Get current default stream successfully, stream={stream:#x}")
    cube, ret = acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_CUBE_CORE)
    check(ret, "aclrtGetResInCurrentThread")
    info(f"Get current thread cube core limit: {cube}")
    vector, ret = acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_VECTOR_CORE)
    check(ret, "aclrtGetResInCurrentThread")
    info(f"Get current thread vector core limit: {vector}")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    info("[SUCCESS] Context query sample completed successfully")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    got = lines(capsys)
    assert matches(got, [
        "[INFO]  Get current context successfully",
        "[INFO]  Get current default stream successfully, stream=<stream_pointer>",
        "[INFO]  Get current thread cube core limit: <cube_core_limit>",
        "[INFO]  Get current thread vector core limit: <vector_core_limit>",
        "[INFO]  [SUCCESS] Context query sample completed successfully"]), got
    assert got[2].endswith(": 20") and got[3].endswith(": 40")     # the 910B3's cores


# ----- 1_basic_features/device/1_device_multi_thread ---------------------------------------------
def test_device_multi_thread(acl, capsys):
    total = 1024

    def device_info_query():
        info(f"Current Ascend chipset platform is: {acl.get_soc_name()}.")
        count, ret = acl.rt.get_device_count()
        check(ret, "aclrtGetDeviceCount")
        info(f"Get device count success. deviceCount: {count}.")
        status, ret = acl.rt.query_device_status(0)
        check(ret, "aclrtQueryDeviceStatus")
        info(f"Query device status success. deviceStatus: {status}.")
        mode, ret = acl.rt.get_run_mode()
        check(ret, "aclrtGetRunMode")
        info("RunMode is ACL_HOST." if mode == C.ACL_HOST else "RunMode is ACL_DEVICE.")
        util, ret = acl.rt.get_device_utilization_rate(0)
        check(ret, "aclrtGetDeviceUtilizationRate")
        least, greatest, ret = acl.rt.device_get_stream_priority_range()
        check(ret, "aclrtDeviceGetStreamPriorityRange")
        vectors, ret = acl.rt.get_device_info(0, C.ACL_DEV_ATTR_VECTOR_CORE_NUM)
        check(ret, "aclrtGetDeviceInfo")

    def run_thread():
        check(acl.rt.set_device(0), "aclrtSetDevice")
        stream, ret = acl.rt.create_stream()
        check(ret, "aclrtCreateStream")
        device_info_query()
        src = np.arange(total, dtype=np.float32)
        a_ptr, a = tensor(acl, src)
        b_ptr, b = tensor(acl, src)
        out_ptr, out = tensor(acl, np.zeros(total))
        limit, ret = acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_VECTOR_CORE)
        check(ret, "aclrtGetDeviceResLimit")
        info(f"Get device resLimit success. VECTOR_CORE {limit}.")
        add(acl, a, b, out, stream)         # AddDo(resLimitValue, stream, ...)
        check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
        dst = np.zeros(total, np.float32)
        check(acl.rt.memcpy(acl.util.numpy_to_ptr(dst), dst.nbytes, out_ptr, dst.nbytes, D2H),
              "aclrtMemcpy")
        info("The results (first 10 elements) of the kernel function:")
        for i in range(10):
            info(f"Result: hostDst[{i}]: {dst[i]:f} Expected value: {src[i] + src[i]:f}")
        check(acl.rt.reset_device_res_limit(0), "aclrtResetDeviceResLimit")
        for p in (a_ptr, b_ptr, out_ptr):
            check(acl.rt.free(p), "aclrtFree")
        check(acl.rt.destroy_stream(stream), "aclrtDestroyStream")
        check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")

    info("Start to run device_multi_thread sample.")
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    check(acl.rt.set_device_res_limit(0, C.ACL_RT_DEV_RES_VECTOR_CORE, 1),
          "aclrtSetDeviceResLimit")
    t = threading.Thread(target=run_thread)
    t.start()
    t.join()
    check(acl.finalize(), "aclFinalize")
    info("Run the device_multi_thread sample successfully.")
    got = lines(capsys)
    assert got[:5] == ["[INFO]  Start to run device_multi_thread sample.",
                       "[INFO]  Current Ascend chipset platform is: Ascend910B3.",
                       "[INFO]  Get device count success. deviceCount: 8.",
                       "[INFO]  Query device status success. deviceStatus: 0.",
                       "[INFO]  RunMode is ACL_HOST."], got
    assert got[5] == "[INFO]  Get device resLimit success. VECTOR_CORE 1."
    assert got[7] == "[INFO]  Result: hostDst[0]: 0.000000 Expected value: 0.000000"
    assert got[16] == "[INFO]  Result: hostDst[9]: 18.000000 Expected value: 18.000000"
    assert got[-1] == "[INFO]  Run the device_multi_thread sample successfully."


# ----- 1_basic_features/stream/2_multi_stream: NotifySynchronization -----------------------------
def test_multi_stream_notify(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    stream1, _ = acl.rt.create_stream()
    stream2, _ = acl.rt.create_stream()
    notify, ret = acl.rt.create_notify(0x00)
    check(ret, "aclrtCreateNotify")
    check(acl.rt.set_stream_failure_mode(stream1, C.ACL_STOP_ON_FAILURE),
          "aclrtSetStreamFailureMode")
    check(acl.rt.set_stream_failure_mode(stream2, C.ACL_STOP_ON_FAILURE),
          "aclrtSetStreamFailureMode")
    info("Use notify synchronize.")
    num_ptr, num = tensor(acl, [0], I32)
    _, one = tensor(acl, [1], I32)
    info("Applied resource successfully, begin assigning task.")
    info("Begin a long task, num += 1.")
    big = 16 << 20                            # LongOP: copies that take modeled time, then +1
    src, _ = acl.rt.malloc_host(big)
    dst, _ = acl.rt.malloc(big, C.ACL_MEM_MALLOC_HUGE_FIRST)
    for _ in range(8):
        check(acl.rt.memcpy_async(dst, big, src, big, H2D, stream1), "aclrtMemcpyAsync")
    add(acl, num, one, num, stream1, I32)
    info("Stream synchronize.")
    check(acl.rt.record_notify(notify, stream1), "aclrtRecordNotify")
    check(acl.rt.wait_and_reset_notify(notify, stream2, 0), "aclrtWaitAndResetNotify")
    info("Begin a short task, num *= 2.")
    add(acl, num, num, num, stream2, I32)     # ShortOP: num *= 2, as num + num
    check(acl.rt.synchronize_stream(stream2), "aclrtSynchronizeStream")
    out = np.zeros(1, np.int32)
    check(acl.rt.memcpy(acl.util.numpy_to_ptr(out), 4, num_ptr, 4, D2H), "aclrtMemcpy")
    info(f"The answer is {out[0]}.")
    check(acl.rt.destroy_notify(notify), "aclrtDestroyNotify")
    for s in (stream1, stream2):
        check(acl.rt.destroy_stream_force(s), "aclrtDestroyStreamForce")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    info("Resource cleanup completed.")
    assert lines(capsys) == [
        "[INFO]  Use notify synchronize.",
        "[INFO]  Applied resource successfully, begin assigning task.",
        "[INFO]  Begin a long task, num += 1.",
        "[INFO]  Stream synchronize.",
        "[INFO]  Begin a short task, num *= 2.",
        "[INFO]  The answer is 2.",
        "[INFO]  Resource cleanup completed."]
