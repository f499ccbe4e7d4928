"""acl.rt's device queries and settings, contexts' default stream and system options,
resource limits, device-wide waits and aborts, operator timeouts (issue 31, part A): each
call's success, each failure code the runtime gives (hicann/runtime device.cpp, context.cpp,
api_error.cc, api_impl.cc), what a refused call leaves (nothing changed), and what the
snapshot shows."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.device_facts import CHIPS
from simhelpers import refused, unchanged

PROFILES = ("910b", "310p", "310b", "310", "200dk")


# ----- device queries ----------------------------------------------------------------------
@pytest.mark.parametrize("profile", PROFILES)
def test_device_info_answers_the_chips_facts(acl_on, profile):
    acl = acl_on(profile)
    soc = acl.get_soc_name()
    chip = next(f for k, f in sorted(CHIPS.items(), key=lambda kv: -len(kv[0]))
                if soc.startswith(k))
    assert acl.rt.get_device_info(0, C.ACL_DEV_ATTR_AICORE_CORE_NUM) == (chip.ai_cores, 0)
    assert acl.rt.get_device_info(0, C.ACL_DEV_ATTR_VECTOR_CORE_NUM) == (chip.vector_cores, 0)
    assert acl.rt.get_device_info(0, C.ACL_DEV_ATTR_L2_CACHE_SIZE) == (chip.l2_bytes, 0)
    assert acl.rt.get_device_info(0, C.ACL_DEV_ATTR_NPU_ARCH) == (chip.npu_arch, 0)
    assert acl.rt.get_device_info(0, C.ACL_DEV_ATTR_WARP_SIZE) == (0, 0)    # no SIMT
    # the top-level platform query agrees
    assert acl.get_device_capability(0, C.ACL_DEVICE_INFO_AI_CORE_NUM) == (chip.ai_cores, 0)
    assert acl.get_device_capability(0, C.ACL_DEVICE_INFO_L2_SIZE) == (chip.l2_bytes, 0)


def test_device_info_keeps_pyacls_32_bits_of_the_total_memory(acl):
    total = sum(p["total"] for p in acl_lab.snapshot()["pools"] if p["device"] == 0)
    value, ret = acl.rt.get_device_info(0, C.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE)
    assert ret == 0 and total >= 1 << 32
    assert value == np.int64(total).astype(np.int32)   # Py_BuildValue("i", int64_t)


def test_device_info_refusals(acl):
    refused(acl, unchanged(lambda: acl.rt.get_device_info(8, C.ACL_DEV_ATTR_AICORE_CORE_NUM)),
            C.ACL_ERROR_RT_PARAM_INVALID, "device 8 does not exist")
    refused(acl, acl.rt.get_device_info(0, 9999), C.ACL_ERROR_RT_PARAM_INVALID, "aclrtDevAttr")
    refused(acl, acl.rt.get_device_info(0, C.ACL_DEV_ATTR_SUPER_POD_ID),
            C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.get_device_info(0, 9999)[0] == 0
    with pytest.raises(TypeError):
        acl.rt.get_device_info("0", C.ACL_DEV_ATTR_AICORE_CORE_NUM)


@pytest.mark.parametrize("profile, supported", [("910b", 1), ("310p", 0), ("310", 0)])
def test_device_capability(acl_on, profile, supported):
    acl = acl_on(profile)
    assert acl.rt.get_device_capability(
        0, C.ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV) == (supported, 0)
    assert acl.rt.get_device_capability(0, C.ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV) == (0, 0)
    refused(acl, acl.rt.get_device_capability(0, 7), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.get_device_capability(99, 1), C.ACL_ERROR_RT_INVALID_DEVICEID)
    refused(acl, acl.get_device_capability(99, 0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl, acl.get_device_capability(0, 7), C.ACL_ERROR_INVALID_PARAM)


def test_utilization_is_idle_and_says_what_is_not_measured(acl_on):
    acl = acl_on("910b")
    info, ret = acl.rt.get_device_utilization_rate(0)
    assert ret == 0 and info == {"cube_utilization": 0, "vector_utilization": 0,
                                 "aicpu_utilization": 0, "memory_utilization": -1,
                                 "utilization_extend": 0}
    # a chip without vector cores reads -1 there; an unknown device reads -1 everywhere,
    # and the call still succeeds (device.cpp: failed samples are -1)
    assert acl_on("310").rt.get_device_utilization_rate(0)[0]["vector_utilization"] == -1
    acl = acl_on("910b")
    info, ret = acl.rt.get_device_utilization_rate(42)
    assert ret == 0 and set(info.values()) == {-1, 0}


def test_status_uuid_topology_and_peer_status(acl):
    assert acl.rt.query_device_status(0) == (C.ACL_RT_DEVICE_STATUS_NORMAL, 0)
    refused(acl, acl.rt.query_device_status(9), C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert acl.rt.query_device_status(9)[0] == C.ACL_RT_DEVICE_STATUS_END
    uuid0, ret = acl.rt.device_get_uuid(0)
    assert ret == 0 and len(uuid0["bytes"]) == 16 and all(0 <= b < 128 for b in uuid0["bytes"])
    assert acl.rt.device_get_uuid(0) == (uuid0, 0)                      # deterministic
    assert acl.rt.device_get_uuid(1)[0] != uuid0
    refused(acl, acl.rt.device_get_uuid(-1), C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert acl.rt.device_get_uuid(-1)[0] == {"bytes": [0] * 16}
    assert acl.rt.get_devices_topo(0, 1) == (C.ACL_RT_DEVS_TOPOLOGY_HCCS, 0)
    refused(acl, acl.rt.get_devices_topo(0, 0), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.device_peer_access_status(0, 1) == (0, 0)
    assert acl.rt.device_enable_peer_access(1, 0) == 0
    assert acl.rt.device_peer_access_status(0, 1) == (1, 0)
    assert acl.rt.device_peer_access_status(1, 0) == (0, 0)       # one way
    refused(acl, acl.rt.device_peer_access_status(0, 8), C.ACL_ERROR_RT_PARAM_INVALID)


@pytest.mark.parametrize("profile", ["310p", "200dk"])
def test_uuid_and_topology_where_the_chip_does_not_tell(acl_on, profile):
    acl = acl_on(profile)
    refused(acl, acl.rt.device_get_uuid(0), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    if profile == "200dk":          # a board that runs the program itself
        refused(acl, acl.rt.get_devices_topo(0, 0), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


def test_id_maps_are_the_identity_and_check_their_ids(acl):
    for fn in (acl.rt.get_logic_dev_id_by_user_dev_id, acl.rt.get_user_dev_id_by_logic_dev_id,
               acl.rt.get_logic_dev_id_by_phy_dev_id, acl.rt.get_phy_dev_id_by_logic_dev_id):
        assert fn(3) == (3, 0)
        refused(acl, fn(-1), C.ACL_ERROR_RT_PARAM_INVALID, "negative")
        refused(acl, fn(8), C.ACL_ERROR_RT_INVALID_DEVICEID)


def test_priority_range_and_primary_context(acl):
    assert acl.rt.device_get_stream_priority_range() == (7, 0, 0)
    assert acl.rt.get_primary_ctx_state(0) == (1, 0, 0)
    assert acl.rt.get_primary_ctx_state(1) == (0, 0, 0)
    refused(acl, acl.rt.get_primary_ctx_state(8), C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.get_primary_ctx_state(0) == (0, 0, 0)


# ----- settings -------------------------------------------------------------------------------
@pytest.mark.parametrize("profile, default", [("910b", C.ACL_RT_OVERFLOW_MODE_INFNAN),
                                              ("310p", C.ACL_RT_OVERFLOW_MODE_SATURATION)])
def test_sat_mode(acl_on, profile, default):
    acl = acl_on(profile)
    assert acl.rt.get_device_sat_mode() == (default, 0)
    assert acl.rt.set_device_sat_mode(C.ACL_RT_OVERFLOW_MODE_SATURATION) == 0
    assert acl.rt.get_device_sat_mode() == (C.ACL_RT_OVERFLOW_MODE_SATURATION, 0)
    refused(acl, unchanged(lambda: acl.rt.set_device_sat_mode(2)), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl_lab.snapshot()["runtime"]["sat_mode"] == C.ACL_RT_OVERFLOW_MODE_SATURATION


def test_ts_device(acl):
    assert acl.rt.set_ts_device(C.ACL_TS_ID_AIVECTOR) == 0
    refused(acl, acl.rt.set_ts_device(C.ACL_TS_ID_RESERVED), C.ACL_ERROR_INVALID_PARAM)


def test_process_system_options_default_to_0(acl):
    assert acl.rt.get_sys_param_opt(C.ACL_OPT_DETERMINISTIC) == (0, 0)
    assert acl.rt.set_sys_param_opt(C.ACL_OPT_DETERMINISTIC, 3) == 0
    assert acl.rt.get_sys_param_opt(C.ACL_OPT_DETERMINISTIC) == (3, 0)
    assert acl.rt.set_sys_param_opt(C.ACL_OPT_ENABLE_KERNEL_EARLY_START, 1) == 0
    refused(acl, unchanged(lambda: acl.rt.set_sys_param_opt(C.ACL_OPT_DETERMINISTIC, 4)),
            C.ACL_ERROR_RT_PARAM_INVALID, "[0, 4)")
    refused(acl, acl.rt.set_sys_param_opt(C.ACL_OPT_ENABLE_DEBUG_KERNEL, 2),
            C.ACL_ERROR_RT_PARAM_INVALID, "[0, 2)")
    refused(acl, acl.rt.set_sys_param_opt(7, 0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl, acl.rt.get_sys_param_opt(-1), C.ACL_ERROR_INVALID_PARAM)
    assert acl_lab.snapshot()["runtime"]["sys_params"][C.ACL_OPT_DETERMINISTIC] == 3


def test_context_system_options_have_no_default_and_stay_with_their_context(acl):
    refused(acl, acl.rt.ctx_get_sys_param_opt(C.ACL_OPT_DETERMINISTIC),
            C.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "never set")
    assert acl.rt.ctx_set_sys_param_opt(C.ACL_OPT_DETERMINISTIC, 1) == 0
    assert acl.rt.ctx_get_sys_param_opt(C.ACL_OPT_DETERMINISTIC) == (1, 0)
    refused(acl, acl.rt.ctx_set_sys_param_opt(C.ACL_OPT_ENABLE_KERNEL_EARLY_START, 1),
            C.ACL_ERROR_INVALID_PARAM)          # a process-only option
    ctx, _ = acl.rt.create_context(0)
    refused(acl, acl.rt.ctx_get_sys_param_opt(C.ACL_OPT_DETERMINISTIC),
            C.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET)
    assert acl.rt.destroy_context(ctx) == 0


def test_context_options_need_a_context(bare_acl):
    acl = bare_acl
    assert acl.init() == 0
    refused(acl, acl.rt.ctx_set_sys_param_opt(0, 1), C.ACL_ERROR_RT_CONTEXT_NULL)
    assert acl.rt.get_sys_param_opt(0) == (0, 0)           # process-wide: no device needed


def test_device_resource_limits(acl):
    cores, ret = acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_VECTOR_CORE)
    assert ret == 0 and cores == CHIPS["Ascend910B"].vector_cores
    assert acl.rt.set_device_res_limit(0, C.ACL_RT_DEV_RES_VECTOR_CORE, 1) == 0
    assert acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_VECTOR_CORE) == (1, 0)
    assert acl_lab.snapshot()["runtime"]["device_res_limits"] == {
        0: {C.ACL_RT_DEV_RES_VECTOR_CORE: 1}}
    refused(acl, unchanged(lambda: acl.rt.set_device_res_limit(0, 0, 10_000)),
            C.ACL_ERROR_RT_PARAM_INVALID, "exceeds")
    refused(acl, acl.rt.set_device_res_limit(0, 2, 1), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.get_device_res_limit(1, 0), C.ACL_ERROR_RT_DEV_SETUP_ERROR,
            "set_device(1)")
    refused(acl, acl.rt.get_device_res_limit(99, 0), C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert acl.rt.reset_device_res_limit(0) == 0
    assert acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_VECTOR_CORE) == (cores, 0)
    # a reset device forgets its limits
    assert acl.rt.set_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE, 2) == 0
    assert acl.rt.reset_device(0) == 0 and acl.rt.set_device(0) == 0
    assert acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE)[0] == 20


def test_stream_and_thread_resource_limits(acl, stream):
    assert acl.rt.set_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE, 8) == 0
    assert acl.rt.get_stream_res_limit(stream, C.ACL_RT_DEV_RES_CUBE_CORE) == (8, 0)
    assert acl.rt.set_stream_res_limit(stream, C.ACL_RT_DEV_RES_CUBE_CORE, 4) == 0
    assert acl.rt.get_stream_res_limit(stream, C.ACL_RT_DEV_RES_CUBE_CORE) == (4, 0)
    assert acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_CUBE_CORE) == (8, 0)
    assert acl.rt.use_stream_res_in_current_thread(stream) == 0
    assert acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_CUBE_CORE) == (4, 0)
    seen = []                       # another thread does not borrow this thread's stream

    def other():
        assert acl.rt.set_device(0) == 0
        seen.append(acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_CUBE_CORE))
    t = threading.Thread(target=other)
    t.start(), t.join()
    assert seen == [(8, 0)]
    row = next(s for s in acl_lab.snapshot()["streams"] if s["handle"] == stream)
    assert row["settings"]["res_limits"] == {C.ACL_RT_DEV_RES_CUBE_CORE: 4}
    assert acl.rt.unuse_stream_res_in_current_thread(stream) == 0
    assert acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_CUBE_CORE) == (8, 0)
    assert acl.rt.reset_stream_res_limit(stream) == 0
    assert acl.rt.get_stream_res_limit(stream, C.ACL_RT_DEV_RES_CUBE_CORE) == (8, 0)
    refused(acl, acl.rt.set_stream_res_limit(stream, 0, 10_000), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.get_stream_res_limit(0x1234, 0), C.ACL_ERROR_RT_INVALID_HANDLE)
    refused(acl, acl.rt.get_res_in_current_thread(5), C.ACL_ERROR_RT_PARAM_INVALID)


# ----- the default stream by handle -------------------------------------------------------------
def test_the_default_streams_handle_works_where_a_stream_is_taken(acl):
    handle, ret = acl.rt.ctx_get_current_default_stream()
    assert ret == 0 and handle != 0
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(dev, 64, 7, 64, handle) == 0
    assert acl.rt.synchronize_stream(handle) == 0
    assert acl.rt.stream_get_id(handle) == acl.rt.stream_get_id(0) == (0, 0)
    refused(acl, acl.rt.destroy_stream(handle), C.ACL_ERROR_INVALID_PARAM, "default stream")
    assert acl.rt.free(dev) == 0
    ctx, _ = acl.rt.create_context(0)          # each context has its own
    assert acl.rt.ctx_get_current_default_stream()[0] != handle
    assert acl.rt.destroy_context(ctx) == 0


def test_default_stream_needs_a_context(bare_acl):
    assert bare_acl.init() == 0
    refused(bare_acl, bare_acl.rt.ctx_get_current_default_stream(), C.ACL_ERROR_RT_CONTEXT_NULL)


# ----- device-wide waits and aborts -----------------------------------------------------------
def _busy(acl, stream, mb=64):
    """Queue a copy of ``mb`` MiB on ``stream`` (milliseconds of modeled time)."""
    n = mb << 20
    dev, _ = acl.rt.malloc(n, 0)
    host, _ = acl.rt.malloc_host(n)
    assert acl.rt.memcpy_async(dev, n, host, n, C.ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0
    return dev, host


def test_synchronize_device_with_timeout(acl, stream):
    dev, host = _busy(acl, stream)
    refused(acl, acl.rt.synchronize_device_with_timeout(0), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.synchronize_device_with_timeout(-2), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.synchronize_device_with_timeout(1), C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            "still had work")
    assert acl.rt.synchronize_device_with_timeout(-1) == 0
    assert acl.rt.stream_query(stream) == (C.ACL_STREAM_STATUS_COMPLETE, 0)
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0


def test_stream_abort_drops_what_has_not_run(acl, stream):
    dev, host = _busy(acl, stream)
    snap = acl_lab.snapshot()
    assert [s["pending"] for s in snap["streams"] if s["handle"] == stream] == [1]
    kinds = len(snap["timeline"])
    assert acl.rt.stream_abort(stream) == 0
    row = next(s for s in acl_lab.snapshot()["streams"] if s["handle"] == stream)
    assert row["pending"] == 0
    assert len(acl_lab.snapshot()["timeline"]) == kinds - 1      # it never ran
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.stream_abort(0) == 0                            # the default stream
    refused(acl, acl.rt.stream_abort(0x1234), C.ACL_ERROR_RT_INVALID_HANDLE)
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0


def test_device_task_abort(acl_on):
    acl = acl_on("910b")
    s, _ = acl.rt.create_stream()
    dev, host = _busy(acl, s)
    refused(acl, acl.rt.device_task_abort(0, 36 * 60 * 1000 + 1), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl, acl.rt.device_task_abort(8, 0), C.ACL_ERROR_RT_INVALID_DEVICEID)
    assert acl.rt.device_task_abort(0, 1000) == 0
    assert next(r for r in acl_lab.snapshot()["streams"] if r["handle"] == s)["pending"] == 0
    acl = acl_on("310p")                      # no fast recovery on this chip
    refused(acl, acl.rt.device_task_abort(0, 0), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


# ----- operator timeouts ------------------------------------------------------------------------
def test_operator_timeouts(acl):
    interval, ret = acl.rt.get_op_timeout_interval()
    assert ret == 0 and interval == CHIPS["Ascend910B"].op_interval_us
    assert acl.rt.get_op_execute_timeout() == (1090921, 0)              # 1091 s (docs)
    assert acl.rt.set_op_execute_timeout_v2(50) == (interval, 0)        # one interval at least
    assert acl.rt.set_op_execute_timeout_v2(interval * 3 + 1) == (interval * 4, 0)
    assert acl.rt.set_op_execute_timeout_v2(0) == (interval * 254, 0)   # 0: the longest
    assert acl.rt.get_op_execute_timeout() == (interval * 254 // 1000, 0)
    assert acl.rt.set_op_execute_time_out(10) == 0
    assert acl.rt.get_op_execute_timeout() == (interval * 3 // 1000, 0)
    assert acl.rt.set_op_wait_timeout(30) == 0
    runtime = acl_lab.snapshot()["runtime"]
    assert runtime["op_wait_timeout_s"] == 30
    assert runtime["op_execute_timeout_ms"] == interval * 3 // 1000


def test_operator_timeouts_need_a_device(bare_acl):
    assert bare_acl.init() == 0
    refused(bare_acl, bare_acl.rt.get_op_timeout_interval(), C.ACL_ERROR_RT_CONTEXT_NULL)
    refused(bare_acl, bare_acl.rt.set_op_execute_timeout_v2(1), C.ACL_ERROR_RT_CONTEXT_NULL)
    assert bare_acl.rt.set_op_wait_timeout(1) == 0


def test_the_calls_speak_chinese(acl):
    acl_lab.set_language("zh_CN")
    try:
        refused(acl, acl.rt.get_device_res_limit(1, 0), C.ACL_ERROR_RT_DEV_SETUP_ERROR,
                "本进程尚未打开Device 1")
    finally:
        acl_lab.set_language("en")
