"""The runtime's queries and settings beyond the basics (issue 31, part A): devices, contexts'
default stream and options, resource limits, operator timeouts, stream and event ids and
attributes, notifies, tensor descriptions, the CANN installation.

Compared: return codes, the shape of each answer, values a program sets and reads back,
order established by a notify. Not compared: what a chip reports about itself (core counts,
uuid, versions): those are the device's own.
"""
import numpy as np

from acl_lab import constants as C

N = 4096


def test_device_queries_answer(acl, refused):
    cores, ret = acl.rt.get_device_info(0, C.ACL_DEV_ATTR_AICORE_CORE_NUM)
    assert ret == 0 and cores > 0
    assert acl.get_device_capability(0, C.ACL_DEVICE_INFO_AI_CORE_NUM) == (cores, 0)
    info, ret = acl.rt.get_device_utilization_rate(0)
    assert ret == 0 and set(info) == {"cube_utilization", "vector_utilization",
                                      "aicpu_utilization", "memory_utilization",
                                      "utilization_extend"}
    assert acl.rt.query_device_status(0) == (C.ACL_RT_DEVICE_STATUS_NORMAL, 0)
    least, greatest, ret = acl.rt.device_get_stream_priority_range()
    assert ret == 0 and least >= greatest
    assert acl.rt.get_primary_ctx_state(0)[::2] == (1, 0)
    assert acl.rt.get_logic_dev_id_by_user_dev_id(0) == (0, 0)
    count, _ = acl.rt.get_device_count()
    refused(acl.rt.query_device_status(count)[1], C.ACL_ERROR_RT_INVALID_DEVICEID)
    refused(acl.rt.get_logic_dev_id_by_user_dev_id(-1)[1], C.ACL_ERROR_RT_PARAM_INVALID)


def test_system_options_and_limits_read_back(acl, refused):
    assert acl.rt.set_sys_param_opt(C.ACL_OPT_DETERMINISTIC, 1) == 0
    assert acl.rt.get_sys_param_opt(C.ACL_OPT_DETERMINISTIC) == (1, 0)
    assert acl.rt.set_sys_param_opt(C.ACL_OPT_DETERMINISTIC, 0) == 0
    assert acl.rt.ctx_set_sys_param_opt(C.ACL_OPT_DETERMINISTIC, 1) == 0
    assert acl.rt.ctx_get_sys_param_opt(C.ACL_OPT_DETERMINISTIC) == (1, 0)
    refused(acl.rt.set_sys_param_opt(C.ACL_OPT_ENABLE_DEBUG_KERNEL, 5),
            C.ACL_ERROR_RT_PARAM_INVALID)
    cores, ret = acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE)
    assert ret == 0 and cores > 0
    assert acl.rt.set_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE, 1) == 0
    assert acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE) == (1, 0)
    assert acl.rt.get_res_in_current_thread(C.ACL_RT_DEV_RES_CUBE_CORE) == (1, 0)
    assert acl.rt.reset_device_res_limit(0) == 0
    assert acl.rt.get_device_res_limit(0, C.ACL_RT_DEV_RES_CUBE_CORE) == (cores, 0)
    refused(acl.rt.set_device_res_limit(0, 7, 1), C.ACL_ERROR_RT_PARAM_INVALID)


def test_operator_timeouts_are_whole_intervals(acl):
    interval, ret = acl.rt.get_op_timeout_interval()
    assert ret == 0 and interval > 0
    actual, ret = acl.rt.set_op_execute_timeout_v2(interval + 1)
    assert ret == 0 and actual == 2 * interval
    timeout_ms, ret = acl.rt.get_op_execute_timeout()
    assert ret == 0 and timeout_ms == actual // 1000


def test_the_default_stream_by_its_handle(acl):
    handle, ret = acl.rt.ctx_get_current_default_stream()
    assert ret == 0 and handle
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(dev, N, 3, N, handle) == 0
    assert acl.rt.synchronize_stream(handle) == 0
    assert acl.rt.free(dev) == 0


def test_stream_and_event_ids_and_attributes(acl, refused):
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    ida, ra = acl.rt.stream_get_id(a)
    idb, rb = acl.rt.stream_get_id(b)
    assert ra == rb == 0 and ida != idb
    e1, _ = acl.rt.create_event()
    e2, _ = acl.rt.create_event()
    assert acl.rt.get_event_id(e1)[0] != acl.rt.get_event_id(e2)[0]
    ret = acl.rt.set_stream_attribute(a, C.ACL_STREAM_ATTR_FAILURE_MODE,
                                      {"failureMode": C.ACL_STOP_ON_FAILURE})
    assert ret in (0, C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)     # a chip feature (Ascend 310: no)
    if ret == 0:
        assert acl.rt.get_stream_attribute(a, C.ACL_STREAM_ATTR_FAILURE_MODE) == (
            {"failureMode": C.ACL_STOP_ON_FAILURE}, 0)
    value, ret = acl.rt.get_stream_attribute(a, 99)
    refused(ret, C.ACL_ERROR_RT_PARAM_INVALID)
    assert value == {"reserved": [0, 0, 0, 0]}
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(dev, N, 1, N, a) == 0
    assert acl.rt.record_event(e1, a) == 0
    assert acl.rt.stream_wait_event(b, e1) == 0
    assert acl.rt.synchronize_stream(b) == 0
    assert acl.rt.query_event(e1) == (C.ACL_EVENT_STATUS_COMPLETE, 0)
    assert acl.rt.query_event_wait_status(e1) == (C.ACL_EVENT_WAIT_STATUS_COMPLETE, 0)
    for e in (e1, e2):
        assert acl.rt.destroy_event(e) == 0
    assert acl.rt.free(dev) == 0
    for s in (a, b):
        assert acl.rt.destroy_stream(s) == 0


def test_a_notify_orders_two_streams(acl, run_mode):
    first, _ = acl.rt.create_stream()
    second, _ = acl.rt.create_stream()
    notify, ret = acl.rt.create_notify(C.ACL_NOTIFY_DEFAULT)
    assert ret == 0
    dev, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    copy, _ = acl.rt.malloc(N, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(dev, N, 9, N, first) == 0
    assert acl.rt.record_notify(notify, first) == 0
    assert acl.rt.wait_and_reset_notify(notify, second, 0) == 0
    assert acl.rt.memcpy_async(copy, N, dev, N, C.ACL_MEMCPY_DEVICE_TO_DEVICE, second) == 0
    assert acl.rt.synchronize_stream(second) == 0
    host = np.zeros(N, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), N, copy, N,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (host == 9).all()
    assert acl.rt.destroy_notify(notify) == 0
    for p in (dev, copy):
        assert acl.rt.free(p) == 0
    for s in (first, second):
        assert acl.rt.destroy_stream(s) == 0


def test_tensor_descriptions_beyond_the_basics(acl, refused):
    desc = acl.create_tensor_desc(C.ACL_FLOAT, [2, -1], C.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_dim(desc, 1) == -1
    assert acl.set_tensor_shape_range(desc, [[2, 2], [1, 8]]) == 0
    assert acl.get_tensor_desc_dim_range(desc, 1, 2) == ([1, 8], 0)
    assert acl.set_tensor_origin_shape(desc, [2, 4]) == 0
    assert acl.get_tensor_desc_dim(desc, 1) == 4
    assert acl.set_tensor_storage_format(desc, C.ACL_FORMAT_ND) == 0
    assert acl.set_tensor_storage_shape(desc, [8]) == 0
    assert acl.get_tensor_desc_by_index(desc, 0) == desc
    refused(acl.set_tensor_origin_shape(0, [1]), C.ACL_ERROR_INVALID_PARAM)
    acl.destroy_tensor_desc(desc)


def test_the_cann_installation_answers(acl):
    attrs, num, ret = acl.get_cann_attribute_list()
    assert ret == 0 and num == len(attrs)
    for attr in attrs:
        assert acl.get_cann_attribute(attr) == (1, 0)
    version, ret = acl.get_version_str("runtime")
    assert ret == 0 and version.count(".") >= 1
