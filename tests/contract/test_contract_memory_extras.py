"""The runtime's further memory calls (issue 31): allocation with a configuration, cache
maintenance, reduce, value write / wait, copies by descriptor and of page-locked memory,
external allocator descriptors, IPC memory by key.

Compared: return codes, the values computed, what each SoC offers (spec/rt_features.py: a
feature the chip lacks is ACL_ERROR_RT_FEATURE_NOT_SUPPORT). The IPC tests play both
processes in one (the simulator's one process; on hardware both sides in one process too).
"""
import numpy as np
import pytest

from acl_lab import constants as C
from acl_lab.sim.ipc import PROCESS_ID
from acl_lab.spec import rt_features
from kernelhelpers import from_device, to_device

H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
INNER_D2D = C.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE


def _has(acl, feature: str) -> bool:
    return rt_features.has(acl.get_soc_name(), feature)


def _cfg(*attrs) -> dict:
    return {"numAttrs": len(attrs), "attrs": [{"attr": a, "value": v} for a, v in attrs]}


def test_memory_with_a_configuration(acl, refused):
    dev, ret = acl.rt.malloc_with_cfg(1000, C.ACL_MEM_MALLOC_HUGE_FIRST, {})
    assert ret == 0 and dev
    cfg = _cfg((C.ACL_RT_MEM_ATTR_MODULE_ID, {"moduleId": 7}),
               (C.ACL_RT_MEM_ATTR_DEVICE_ID, {"deviceId": 0}))
    dev2, ret = acl.rt.malloc_for_task_scheduler(64, C.ACL_MEM_MALLOC_NORMAL_ONLY, cfg)
    assert ret == 0 and dev2
    host, ret = acl.rt.malloc_host_with_cfg(100, _cfg((C.ACL_RT_MEM_ATTR_MODULE_ID,
                                                       {"moduleId": 3})))
    assert ret == 0 and host
    data = np.arange(250, dtype=np.float32)
    assert acl.rt.memcpy(dev, 1000, acl.util.numpy_to_ptr(data), 1000, H2D) == 0
    assert (from_device(acl, dev, 250, np.float32) == data).all()
    refused(acl.rt.free_host(dev), C.ACL_ERROR_RT_PARAM_INVALID)     # pairing: aclrtFree
    assert acl.rt.free(dev) == 0 and acl.rt.free(dev2) == 0 and acl.rt.free_host(host) == 0


def test_a_configuration_the_runtime_does_not_take(acl, refused):
    for call in (lambda: acl.rt.malloc_with_cfg(0, 0, {}),
                 lambda: acl.rt.malloc_host_with_cfg(0, {})):
        ptr, ret = call()
        assert ptr == 0
        refused(ret, C.ACL_ERROR_INVALID_PARAM)
    count, _ = acl.rt.get_device_count()
    other = _cfg((C.ACL_RT_MEM_ATTR_DEVICE_ID, {"deviceId": count}))
    refused(acl.rt.malloc_with_cfg(64, 0, other)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    va = _cfg((C.ACL_RT_MEM_ATTR_VA_FLAG, {"moduleId": 1}))
    refused(acl.rt.malloc_with_cfg(64, 0, va)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    device_id = _cfg((C.ACL_RT_MEM_ATTR_DEVICE_ID, {"deviceId": 0}))
    refused(acl.rt.malloc_host_with_cfg(64, device_id)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    with pytest.raises(KeyError):            # pyACL: numAttrs must count the attrs
        acl.rt.malloc_with_cfg(64, 0, {"numAttrs": 2, "attrs": [{"attr": 1,
                                                                   "value": {"moduleId": 1}}]})
    with pytest.raises(KeyError):            # pyACL reads moduleId, deviceId or rsv
        acl.rt.malloc_with_cfg(64, 0, _cfg((C.ACL_RT_MEM_ATTR_VA_FLAG, {"vaFlag": 1})))
    with pytest.raises(TypeError):
        acl.rt.malloc_with_cfg(64, 0, [])


def test_cache_maintenance(acl, refused):
    dev, _ = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.mem_flush(dev, 256) == 0
    assert acl.rt.mem_invalidate(dev, 128) == 0
    refused(acl.rt.mem_flush(0, 256), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.mem_invalidate(dev, 0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.mem_flush(dev, 4096), C.ACL_ERROR_RT_PARAM_INVALID)
    stream, _ = acl.rt.create_stream()
    if _has(acl, rt_features.CMO):
        assert acl.rt.cmo_async(dev, 256, C.ACL_RT_CMO_TYPE_PREFETCH, stream) == 0
        refused(acl.rt.cmo_async(dev, 256, 9, stream), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        assert acl.rt.synchronize_stream(stream) == 0
    else:
        refused(acl.rt.cmo_async(dev, 256, 0, stream), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl.rt.cmo_async(dev, 0, 0, stream), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.destroy_stream(stream) == 0 and acl.rt.free(dev) == 0


@pytest.mark.parametrize("kind, expected", [
    (C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, [2.0, 4.0, 6.0, 8.0]),
    (C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, [5.0, 3.0, 3.0, 4.0]),
    (C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, [1.0, 2.0, 3.0, 1.0]),
])
def test_reduce_into_device_memory(acl, refused, kind, expected):
    """The official 0_reduce_task: dst = dst OP src, on a stream."""
    src = to_device(acl, np.array([1, 2, 3, 4], np.float32))
    dst = to_device(acl, np.array([1, 2, 3, 4], np.float32) if kind ==
                    C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM else np.array([5, 2, 3, 1], np.float32))
    if kind != C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
        src = to_device(acl, np.array([1, 3, 3, 4], np.float32))
    stream, _ = acl.rt.create_stream()
    ret = acl.rt.reduce_async(dst, src, 16, kind, C.ACL_FLOAT, stream, 0)
    if C.ACL_FLOAT not in rt_features.reduce_types(acl.get_soc_name()):
        refused(ret, C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        return
    assert ret == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, dst, 4, np.float32).tolist() == expected
    refused(acl.rt.reduce_async(dst, src, 16, 99, C.ACL_FLOAT, stream, 0),
            C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.reduce_async(dst, src, 16, kind, C.ACL_INT64, stream, 0),
            C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.reduce_async(dst, src, 16, kind, C.ACL_FLOAT, stream, 8),
            C.ACL_ERROR_INVALID_PARAM)


def test_value_write_and_wait_order_two_streams(acl, refused):
    """The official 9_multistream_sync_memory: stream A waits for a value stream B writes."""
    flag, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    if not _has(acl, rt_features.VALUE_WAIT):
        refused(acl.rt.value_write(flag, 1, 0, b), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        return
    assert acl.rt.memset(flag, 64, 0, 64) == 0
    result = to_device(acl, np.zeros(4, np.int32))
    ones = to_device(acl, np.ones(4, np.int32))
    assert acl.rt.value_wait(flag, 5, C.ACL_STREAM_WAIT_VALUE_EQ, a) == 0
    assert acl.rt.memcpy_async(result, 16, ones, 16, C.ACL_MEMCPY_DEVICE_TO_DEVICE, a) == 0
    assert acl.rt.value_write(flag, 5, 0, b) == 0
    assert acl.rt.synchronize_stream(a) == 0
    assert from_device(acl, result, 4, np.int32).tolist() == [1, 1, 1, 1]
    assert from_device(acl, flag, 1, np.uint64).tolist() == [5]
    refused(acl.rt.value_write(flag, 1, 1, b), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.value_wait(flag, 1, 4, a), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.value_write(0, 1, 0, b), C.ACL_ERROR_INVALID_PARAM)


def test_copies_by_descriptor(acl, refused):
    stream, _ = acl.rt.create_stream()
    if not _has(acl, rt_features.STARS):
        refused(acl.rt.get_memcpy_desc_size(INNER_D2D)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        return
    size, ret = acl.rt.get_memcpy_desc_size(INNER_D2D)
    assert ret == 0 and size == 32
    refused(acl.rt.get_memcpy_desc_size(H2D)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl.rt.get_memcpy_desc_size(8)[1], C.ACL_ERROR_INVALID_PARAM)
    desc, _ = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    src = to_device(acl, np.arange(16, dtype=np.int32))
    dst = to_device(acl, np.zeros(16, np.int32))
    assert acl.rt.set_memcpy_desc(desc, INNER_D2D, src, dst, 64, 0) == (desc, 0)
    assert acl.rt.memcpy_async_with_desc(desc, INNER_D2D, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, dst, 16, np.int32).tolist() == list(range(16))
    refused(acl.rt.set_memcpy_desc(desc + 8, INNER_D2D, src, dst, 64, 0)[1],
            C.ACL_ERROR_RT_PARAM_INVALID)                 # not 64-byte aligned
    pageable = np.zeros(16, np.int32)
    refused(acl.rt.set_memcpy_desc(desc, INNER_D2D, acl.util.numpy_to_ptr(pageable), dst, 64,
                                   0)[1], C.ACL_ERROR_RT_PARAM_INVALID)   # not device memory
    refused(acl.rt.memcpy_async_with_desc(desc, INNER_D2D, 0), C.ACL_ERROR_INVALID_PARAM)


def test_a_copy_that_takes_page_locked_memory_only(acl, refused):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    pageable = np.arange(16, dtype=np.int32)
    assert acl.rt.memcpy(host, 64, acl.util.numpy_to_ptr(pageable), 64,
                         C.ACL_MEMCPY_HOST_TO_HOST) == 0
    mode, _ = acl.rt.get_run_mode()
    if mode == C.ACL_DEVICE:     # "host" memory is the board's own, with no 64-byte promise
        host = to_device(acl, pageable)
    assert acl.rt.memcpy_async_with_condition(dev, 64, host, 64, C.ACL_MEMCPY_DEFAULT,
                                              stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, dev, 16, np.int32).tolist() == list(range(16))
    if mode == C.ACL_HOST:
        refused(acl.rt.memcpy_async_with_condition(dev, 64, acl.util.numpy_to_ptr(pageable),
                                                   64, H2D, stream),
                C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.free(dev) == 0


def test_an_allocator_description_registered_on_a_stream(acl, refused):
    stream, _ = acl.rt.create_stream()
    desc = acl.rt.allocator_create_desc()
    assert desc
    refused(acl.rt.allocator_register(stream, desc), C.ACL_ERROR_INVALID_PARAM)   # empty
    assert acl.rt.allocator_set_obj_to_desc(desc, 1) == 0
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, lambda obj, size: 0) == 0
    assert acl.rt.allocator_set_free_func_to_desc(desc, lambda obj, block: None) == 0
    refused(acl.rt.allocator_register(stream, desc), C.ACL_ERROR_INVALID_PARAM)   # no getter
    assert acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, lambda b: 0) == 0
    assert acl.rt.allocator_set_alloc_advise_func_to_desc(desc, lambda o, s, a: 0) == 0
    refused(acl.rt.allocator_register(0, desc), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.allocator_register(stream, desc) == 0
    assert acl.rt.allocator_unregister(stream) == 0
    assert acl.rt.allocator_unregister(stream) == 0        # nothing registered: fine
    refused(acl.rt.allocator_unregister(0), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.allocator_destroy_desc(desc) == 0
    refused(acl.rt.allocator_destroy_desc(0), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.destroy_stream(stream) == 0


def test_ipc_memory_shared_by_key(acl, refused):
    """The official 10_ipc_memory_withpid, both processes in one."""
    src = to_device(acl, np.full(16, 123, np.int32))
    if not _has(acl, rt_features.IPC):
        refused(acl.rt.ipc_mem_get_export_key(src, 64, 65, 0)[1],
                C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        return
    key, ret = acl.rt.ipc_mem_get_export_key(src, 64, 65, 0)
    assert ret == 0 and key
    refused(acl.rt.ipc_mem_import_by_key(key, 0)[1], C.ACL_ERROR_RT_NO_PERMISSION)
    assert acl.rt.ipc_mem_set_import_pid(key, [PROCESS_ID]) == 0
    mapped, ret = acl.rt.ipc_mem_import_by_key(key, 0)
    assert ret == 0 and mapped and mapped != src
    assert from_device(acl, mapped, 16, np.int32).tolist() == [123] * 16
    seven = np.full(16, 7, np.int32)
    assert acl.rt.memcpy(mapped, 64, acl.util.numpy_to_ptr(seven), 64, H2D) == 0
    assert from_device(acl, src, 16, np.int32).tolist() == [7] * 16      # the same bytes
    refused(acl.rt.free(src), C.ACL_ERROR_RT_PARAM_INVALID)            # still imported
    refused(acl.rt.free(mapped), C.ACL_ERROR_RT_PARAM_INVALID)         # ipc_mem_close's
    assert acl.rt.ipc_mem_close(key) == 0        # the importing side first
    assert acl.rt.ipc_mem_close(key) == 0        # then the exporting side
    refused(acl.rt.ipc_mem_close(key), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.free(src) == 0


def test_ipc_keys_without_pid_checks_and_bad_arguments(acl, refused):
    src = to_device(acl, np.zeros(16, np.int32))
    if not _has(acl, rt_features.IPC):
        return
    key, ret = acl.rt.ipc_mem_get_export_key(
        src, 64, 65, C.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    assert ret == 0
    mapped, ret = acl.rt.ipc_mem_import_by_key(key, 0)
    assert ret == 0
    assert acl.rt.ipc_mem_close(key) == 0 and acl.rt.ipc_mem_close(key) == 0
    for size, length, flags in ((0, 65, 0), (64, 65, 2), (64, 8, 0)):
        key, ret = acl.rt.ipc_mem_get_export_key(src, size, length, flags)
        assert key == ""
        refused(ret, C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.ipc_mem_get_export_key(0, 64, 65, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.ipc_mem_set_import_pid("no-such-key", [1]), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.ipc_mem_set_import_pid("no-such-key", []), C.ACL_ERROR_INVALID_PARAM)
    with pytest.raises(ValueError):
        acl.rt.ipc_mem_get_export_key(src, 64, 1024, 0)
    assert acl.rt.free(src) == 0
