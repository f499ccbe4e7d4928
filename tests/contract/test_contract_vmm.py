"""Virtual memory management, pointer attributes and host registration (issue 32, chapter 10;
docs/rules.md rule 29, rule 30, rule 31, rule 32, rule 33, rule 34, rule 35).

Compared: return codes (each rule's), the bytes a mapped address shows (one handle mapped
twice shows the same bytes), the direction get_mem_info moves (physical memory only), and
what each SoC offers (spec/socs.py: a chip without it refuses with
ACL_ERROR_RT_FEATURE_NOT_SUPPORT). Each refusal leaves the state as it was: the snapshot's
virtual memory and get_mem_info are compared before and after.
"""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.ipc import PROCESS_ID
from acl_lab.spec import socs

H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
MiB = 1 << 20


def _prop(attr=C.ACL_HBM_MEM_HUGE, device=0, **changes) -> dict:
    prop = {"handleType": C.ACL_MEM_HANDLE_TYPE_NONE,
            "allocationType": C.ACL_MEM_ALLOCATION_TYPE_PINNED, "memAttr": attr,
            "location": {"id": device, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}, "reserve": 0}
    return {**prop, **changes}


def _has_vmm(acl) -> bool:
    soc = socs.soc_of(acl.get_soc_name())
    mode, _ret = acl.rt.get_run_mode()
    return soc.virtual_memory_rc if mode == C.ACL_DEVICE else soc.virtual_memory


@pytest.fixture
def vmm(acl):
    if not _has_vmm(acl):
        pytest.skip(f"{acl.get_soc_name()} has no virtual memory management here")
    return acl


def _state(acl):
    """What a refused call must leave as it was."""
    return acl_lab.snapshot()["virtual_memory"], acl.rt.get_mem_info(C.ACL_HBM_MEM)


def _to_device(acl, ptr, data: np.ndarray):
    assert acl.rt.memcpy(ptr, data.nbytes, acl.util.numpy_to_ptr(data), data.nbytes, H2D) == 0


def _from_device(acl, ptr, n: int) -> np.ndarray:
    out = np.zeros(n, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), n, ptr, n, D2H) == 0
    return out


def test_a_chip_without_virtual_memory_refuses_every_step(acl, refused):
    if _has_vmm(acl):
        pytest.skip("this SoC has virtual memory management")
    refused(acl.rt.reserve_mem_address(2 * MiB, 0, 0, 0)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl.rt.malloc_physical(2 * MiB, _prop(), 0)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl.rt.mem_get_allocation_granularity(_prop(), 0)[1],
            C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


def test_the_seven_steps_and_what_get_mem_info_sees(vmm):
    acl = vmm
    g, ret = acl.rt.mem_get_allocation_granularity(_prop(), C.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM)
    assert ret == 0 and g == 2 * MiB
    assert acl.rt.mem_get_allocation_granularity(
        _prop(), C.ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) == (g, 0)
    free0, total, ret = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    va, ret = acl.rt.reserve_mem_address(8 * g, 0, 0, 0)
    assert ret == 0 and va % g == 0
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0        # addresses, no memory
    handle, ret = acl.rt.malloc_physical(g, _prop(), 0)
    assert ret == 0 and handle
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0 - g    # the pages are taken
    assert acl.rt.map_mem(va, g, 0, handle, 0) == 0
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0 - g    # mapping takes nothing
    data = np.arange(256, dtype=np.uint8)
    _to_device(acl, va + 4096, data)
    assert (_from_device(acl, va + 4096, 256) == data).all()
    assert acl.rt.memset(va, 64, 7, 64) == 0
    assert (_from_device(acl, va, 64) == 7).all()
    attrs, ret = acl.rt.pointer_get_attributes(va)
    assert ret == 0 and attrs["location"] == {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}
    assert attrs["page_size"] == 2 * MiB
    assert acl.rt.unmap_mem(va) == 0
    assert acl.rt.free_physical(handle) == 0
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0
    assert acl.rt.release_mem_address(va) == 0


def test_one_handle_mapped_twice_shows_the_same_bytes(vmm):
    acl, g = vmm, 2 * MiB
    va, _ = acl.rt.reserve_mem_address(4 * g, 0, 0, 0)
    other, _ = acl.rt.reserve_mem_address(g, 0, 0, 0)
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    assert acl.rt.map_mem(va + g, g, 0, handle, 0) == 0
    assert acl.rt.map_mem(other, g, 0, handle, 0) == 0
    data = np.arange(100, dtype=np.uint8)
    _to_device(acl, va + g + 10, data)
    assert (_from_device(acl, other + 10, 100) == data).all()
    for ptr in (va + g, other):
        assert acl.rt.unmap_mem(ptr) == 0
    assert acl.rt.free_physical(handle) == 0
    assert acl.rt.release_mem_address(va) == 0 and acl.rt.release_mem_address(other) == 0


def test_free_physical_of_a_mapped_handle_waits_for_the_unmap(vmm, refused):
    acl, g = vmm, 2 * MiB
    free0 = acl.rt.get_mem_info(C.ACL_HBM_MEM)[0]
    va, _ = acl.rt.reserve_mem_address(g, 0, 0, 0)
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    assert acl.rt.map_mem(va, g, 0, handle, 0) == 0
    _to_device(acl, va, np.full(32, 9, np.uint8))
    assert acl.rt.free_physical(handle) == 0                     # deferred
    assert (_from_device(acl, va, 32) == 9).all()                # the bytes stay readable
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0 - g
    refused(acl.rt.free_physical(handle), C.ACL_ERROR_RT_PARAM_INVALID)   # freed already
    refused(acl.rt.release_mem_address(va), C.ACL_ERROR_RT_PARAM_INVALID)  # still mapped
    assert acl.rt.unmap_mem(va) == 0                             # now the pages go
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0
    refused(acl.rt.memcpy(va, 4, acl.util.numpy_to_ptr(np.zeros(4, np.uint8)), 4, H2D),
            C.ACL_ERROR_RT_PARAM_INVALID)                         # reserved, unmapped
    assert acl.rt.release_mem_address(va) == 0


def test_each_map_rule_refuses_and_changes_nothing(vmm, refused):
    acl, g = vmm, 2 * MiB
    va, _ = acl.rt.reserve_mem_address(4 * g, 0, 0, 0)
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    odd, _ = acl.rt.malloc_physical(g + 4096, _prop(), 0)       # rounded up: never mappable
    assert acl.rt.map_mem(va, g, 0, handle, 0) == 0
    before = _state(acl)
    for args, code in [
        ((0, g, 0, handle, 0), C.ACL_ERROR_INVALID_PARAM),          # NULL address
        ((va + g, g, 0, 0, 0), C.ACL_ERROR_INVALID_PARAM),          # NULL handle
        ((va + g, 0, 0, handle, 0), C.ACL_ERROR_INVALID_PARAM),     # size 0
        ((va + g, g, 0, handle, 1), C.ACL_ERROR_INVALID_PARAM),     # flags not 0
        ((va + g, g, 4096, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID),   # offset not 0
        ((va + g, 2 * g, 0, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID),  # not its size
        ((va + g + 4096, g, 0, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID),  # unaligned
        ((va + g, g + 4096, 0, odd, 0), C.ACL_ERROR_RT_PARAM_INVALID),  # not granule-sized
        ((va, g, 0, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID),      # mapped already
        ((va + 4 * g, g, 0, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID),  # outside the range
        ((va + g, g, 0, handle + 8, 0), C.ACL_ERROR_RT_PARAM_INVALID),  # no such handle
    ]:
        refused(acl.rt.map_mem(*args), code)
        assert _state(acl) == before, args
    refused(acl.rt.unmap_mem(va + g), C.ACL_ERROR_RT_PARAM_INVALID)       # nothing there
    refused(acl.rt.unmap_mem(0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.release_mem_address(va + g), C.ACL_ERROR_RT_PARAM_INVALID)  # not a start
    refused(acl.rt.release_mem_address(0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.free(va), C.ACL_ERROR_RT_PARAM_INVALID)          # unmap_mem's, not free's
    assert _state(acl) == before
    assert acl.rt.unmap_mem(va) == 0
    for h in (handle, odd):
        assert acl.rt.free_physical(h) == 0
    assert acl.rt.release_mem_address(va) == 0


def test_reserve_malloc_physical_and_granularity_refusals(vmm, refused):
    acl = vmm
    before = _state(acl)
    refused(acl.rt.reserve_mem_address(0, 0, 0, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.reserve_mem_address(MiB, 0, 0, 2)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.reserve_mem_address(MiB, 4096, 0, 0)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.reserve_mem_address(MiB, 0, 0x1234, 0)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.malloc_physical(0, _prop(), 0)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.malloc_physical(MiB, _prop(), 1)[1], C.ACL_ERROR_INVALID_PARAM)
    for bad in (_prop(handleType=C.ACL_MEM_HANDLE_TYPE_POSIX), _prop(allocationType=1),
                _prop(C.ACL_DDR_MEM_HUGE), _prop(99),
                _prop(location={"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_MANAGED})):
        refused(acl.rt.malloc_physical(2 * MiB, bad, 0)[1], C.ACL_ERROR_INVALID_PARAM)
        refused(acl.rt.mem_get_allocation_granularity(bad, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.malloc_physical(2 * MiB, _prop(device=64), 0)[1],
            C.ACL_ERROR_RT_INVALID_DEVICEID)
    refused(acl.rt.mem_get_allocation_granularity(_prop(), 5)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.malloc_physical(1 << 50, _prop(), 0)[1], C.ACL_ERROR_RT_MEMORY_ALLOCATION)
    refused(acl.rt.free_physical(0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.free_physical(0x1234), C.ACL_ERROR_RT_PARAM_INVALID)
    huge1g, ret = acl.rt.mem_get_allocation_granularity(_prop(C.ACL_HBM_MEM_HUGE1G), 0)
    if socs.soc_of(acl.get_soc_name()).huge1g_pages:
        assert (huge1g, ret) == (1 << 30, 0)
    else:
        refused(ret, C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    with pytest.raises(TypeError):
        acl.rt.malloc_physical(MiB, [0, 0, 4], 0)
    with pytest.raises(KeyError):
        acl.rt.malloc_physical(MiB, {"memAttr": 4}, 0)
    assert _state(acl) == before


def test_a_range_does_not_mix_devices(vmm, refused):
    acl, g = vmm, 2 * MiB
    count, _ = acl.rt.get_device_count()
    if count < 2:
        pytest.skip("one device")
    va, _ = acl.rt.reserve_mem_address(2 * g, 0, 0, 0)
    h0, _ = acl.rt.malloc_physical(g, _prop(device=0), 0)
    h1, _ = acl.rt.malloc_physical(g, _prop(device=1), 0)
    assert acl.rt.map_mem(va, g, 0, h0, 0) == 0
    refused(acl.rt.map_mem(va + g, g, 0, h1, 0), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.unmap_mem(va) == 0
    assert acl.rt.free_physical(h0) == 0 and acl.rt.free_physical(h1) == 0
    assert acl.rt.release_mem_address(va) == 0


def test_sharing_physical_memory_by_shareable_handle(vmm, refused):
    """Both processes in one, as the IPC tests do: export, whitelist the pid, import, map."""
    acl, g = vmm, 2 * MiB
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    refused(acl.rt.mem_export_to_shareable_handle(handle, 2, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    shareable, ret = acl.rt.mem_export_to_shareable_handle(handle, 0, 0)
    assert ret == 0 and shareable
    refused(acl.rt.mem_export_to_shareable_handle(handle, 0, 0)[1],
            C.ACL_ERROR_RT_PARAM_INVALID)                        # one to one
    refused(acl.rt.mem_import_from_shareable_handle(shareable, 0)[1],
            C.ACL_ERROR_RT_NO_PERMISSION)
    pid, ret = acl.rt.device_get_bare_tgid()
    assert ret == 0 and pid == PROCESS_ID
    refused(acl.rt.mem_set_pid_to_shareable_handle(shareable, []), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.mem_set_pid_to_shareable_handle(shareable, [pid]) == 0
    imported, ret = acl.rt.mem_import_from_shareable_handle(shareable, 0)
    assert ret == 0 and imported != handle
    va, _ = acl.rt.reserve_mem_address(2 * g, 0, 0, 0)
    assert acl.rt.map_mem(va, g, 0, imported, 0) == 0
    refused(acl.rt.map_mem(va + g, g, 0, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID)  # no mix
    own, _ = acl.rt.reserve_mem_address(g, 0, 0, 0)
    assert acl.rt.map_mem(own, g, 0, handle, 0) == 0
    _to_device(acl, own, np.arange(50, dtype=np.uint8))
    assert (_from_device(acl, va, 50) == np.arange(50)).all()
    for ptr in (va, own):
        assert acl.rt.unmap_mem(ptr) == 0
        assert acl.rt.release_mem_address(ptr) == 0
    assert acl.rt.free_physical(imported) == 0 and acl.rt.free_physical(handle) == 0
    refused(acl.rt.mem_import_from_shareable_handle(shareable, 0)[1],
            C.ACL_ERROR_RT_PARAM_INVALID)                        # every handle freed


def test_pointer_attributes_of_every_kind_of_memory(acl, refused, run_mode):
    dev, _ = acl.rt.malloc(100, C.ACL_MEM_MALLOC_NORMAL_ONLY)
    attrs, ret = acl.rt.pointer_get_attributes(dev)
    assert ret == 0 and attrs["location"]["type"] == C.ACL_MEM_LOCATION_TYPE_DEVICE
    assert attrs["page_size"] == 4096 and sorted(attrs) == ["location", "page_size", "rsv"]
    host, _ = acl.rt.malloc_host(100)
    expected = C.ACL_MEM_LOCATION_TYPE_HOST if run_mode == C.ACL_HOST \
        else C.ACL_MEM_LOCATION_TYPE_DEVICE
    assert acl.rt.pointer_get_attributes(host)[0]["location"]["type"] == expected
    array = np.zeros(64, np.uint8)
    attrs, ret = acl.rt.pointer_get_attributes(acl.util.numpy_to_ptr(array))
    assert ret == 0 and attrs["location"]["type"] == C.ACL_MEM_LOCATION_TYPE_UNREGISTERED
    attrs, ret = acl.rt.pointer_get_attributes(0)
    refused(ret, C.ACL_ERROR_INVALID_PARAM)
    assert attrs == {"location": {"id": 0, "type": 0}, "page_size": 0, "rsv": [0, 0, 0, 0]}
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0


def test_host_register_makes_an_array_device_visible(acl, refused):
    array = np.arange(64, dtype=np.uint8)
    ptr = acl.util.numpy_to_ptr(array)
    refused(acl.rt.host_register(ptr, 0, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.host_register(ptr, 64, 3)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.host_register(ptr, 65, 0)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    dev_ptr, ret = acl.rt.host_register(ptr, 64, C.ACL_HOST_REGISTER_MAPPED)
    assert ret == 0 and dev_ptr
    refused(acl.rt.host_register(ptr, 64, 0)[1], C.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    assert acl.rt.pointer_get_attributes(ptr)[0]["location"]["type"] == \
        C.ACL_MEM_LOCATION_TYPE_HOST
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memcpy(dev, 64, dev_ptr, 64, C.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert (_from_device(acl, dev, 64) == array).all()
    assert acl.rt.host_unregister(ptr) == 0
    refused(acl.rt.host_unregister(ptr), C.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED)
    refused(acl.rt.memcpy(dev, 64, dev_ptr, 64, C.ACL_MEMCPY_DEVICE_TO_DEVICE),
            C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.free(dev) == 0


def test_a_device_reset_releases_and_reports_what_was_left(vmm):
    acl, g = vmm, 2 * MiB
    free0 = acl.rt.get_mem_info(C.ACL_HBM_MEM)[0]
    va, _ = acl.rt.reserve_mem_address(g, 0, 0, 0)
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    assert acl.rt.map_mem(va, g, 0, handle, 0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0
    assert acl_lab.snapshot()["virtual_memory"]["physical"] == []
    assert acl.rt.release_mem_address(va) == 0


def test_host_register_v2_pins_and_maps_by_flag(acl, refused):
    array = np.arange(32, dtype=np.uint8)
    ptr = acl.util.numpy_to_ptr(array)
    for flag in (0, 1, C.ACL_HOST_REG_PINNED | 0x100):
        refused(acl.rt.host_register_v2(ptr, 32, flag), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.host_register_v2(0, 32, C.ACL_HOST_REG_PINNED), C.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.host_register_v2(ptr, 32, C.ACL_HOST_REG_PINNED) == 0        # pinned only
    refused(acl.rt.host_get_device_pointer(ptr, 0)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.host_register_v2(ptr, 32, C.ACL_HOST_REG_MAPPED),
            C.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    assert acl.rt.host_unregister(ptr) == 0
    assert acl.rt.host_register_v2(ptr, 32, C.ACL_HOST_REG_MAPPED | C.ACL_HOST_REG_PINNED) == 0
    dev_ptr, ret = acl.rt.host_get_device_pointer(ptr, 0)
    assert ret == 0 and dev_ptr
    refused(acl.rt.host_get_device_pointer(ptr, 1)[1], C.ACL_ERROR_INVALID_PARAM)
    dev, _ = acl.rt.malloc(32, 0)
    assert acl.rt.memcpy(dev, 32, dev_ptr, 32, C.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert (_from_device(acl, dev, 32) == array).all()
    assert acl.rt.host_unregister(ptr) == 0 and acl.rt.free(dev) == 0


POOL_PROPS = {"allocType": 0, "handleType": 0, "location": {"id": 0, "type": 1},
              "maxSize": 16 * MiB}


def test_stream_ordered_pools_reuse_in_stream_order_and_release_at_the_threshold(acl, refused):
    """aclrtMemPool* (acl_rt_memory_soma.h; Atlas A2 only, experimental: docs 11-10)."""
    if not socs.soc_of(acl.get_soc_name()).stream_ordered_pools:
        refused(acl.rt.mem_pool_create(POOL_PROPS)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        return
    stream, _ = acl.rt.create_stream()
    pool, ret = acl.rt.mem_pool_create(POOL_PROPS)
    assert ret == 0 and pool
    refused(acl.rt.mem_pool_create(dict(POOL_PROPS, maxSize=0))[1], C.ACL_ERROR_INVALID_PARAM)
    free0 = acl.rt.get_mem_info(C.ACL_HBM_MEM)[0]
    block, ret = acl.rt.mem_pool_malloc_async(MiB, pool, stream)
    assert ret == 0 and acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] < free0
    assert acl.rt.memset_async(block, MiB, 3, MiB, stream) == 0
    assert acl.rt.mem_pool_set_attr(pool, C.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 8 * MiB) == 0
    assert acl.rt.mem_pool_free_async(block, stream) == 0
    refused(acl.rt.mem_pool_free_async(block, stream), C.ACL_ERROR_RT_PARAM_INVALID)  # twice
    assert acl.rt.synchronize_stream(stream) == 0
    reserved, ret = acl.rt.mem_pool_get_attr(pool, C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT)
    assert ret == 0 and reserved > 0                      # under the threshold: kept
    assert acl.rt.mem_pool_get_attr(pool, C.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT) == (0, 0)
    again, _ = acl.rt.mem_pool_malloc_async(MiB // 2, pool, stream)
    assert again == block                                 # the idle block, reused
    refused(acl.rt.mem_pool_malloc_async(32 * MiB, pool, stream)[1],
            C.ACL_ERROR_RT_MEMORY_ALLOCATION)             # beyond maxSize
    refused(acl.rt.mem_pool_destroy(pool), C.ACL_ERROR_RT_PARAM_INVALID)   # a block in use
    refused(acl.rt.free(again), C.ACL_ERROR_RT_PARAM_INVALID)     # mem_pool_free_async's
    assert acl.rt.mem_pool_free_async(again, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.mem_pool_trim_to(pool, 0) == 0
    assert acl.rt.mem_pool_get_attr(pool, C.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) == (0, 0)
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0
    assert acl.rt.mem_pool_destroy(pool) == 0
    refused(acl.rt.mem_pool_destroy(pool), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.destroy_stream(stream) == 0


H2D_ATTR = {"dstLoc": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE},
            "srcLoc": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_HOST}}
SIZE_MAX = (1 << 64) - 1


def test_a_batch_copy_goes_one_way_and_names_the_copy_to_blame(acl, refused, run_mode):
    """aclrtMemcpyBatch (docs 11-03; MemcpyBatchImpl, ApiErrorDecorator::MemcpyBatch)."""
    a, b = np.arange(64, dtype=np.uint8), np.full(64, 9, np.uint8)
    pa, pb = acl.util.numpy_to_ptr(a), acl.util.numpy_to_ptr(b)
    d1, _ = acl.rt.malloc(64, 0)
    d2, _ = acl.rt.malloc(64, 0)
    if not socs.soc_of(acl.get_soc_name()).memcpy_batch:
        fail, ret = acl.rt.memcpy_batch([d1], [64], [pa], [64], [H2D_ATTR], [0])
        refused(ret, C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        return
    assert acl.rt.memcpy_batch([d1, d2], [64, 64], [pa, pb], [64, 64], [H2D_ATTR], [0]) == \
        (SIZE_MAX, 0)
    assert (_from_device(acl, d1, 64) == a).all() and (_from_device(acl, d2, 64) == 9).all()
    assert acl.rt.memcpy_batch([d1], [64], [pa], [0], [H2D_ATTR], [0]) == (SIZE_MAX, 0)
    fail, ret = acl.rt.memcpy_batch([d1, pb], [64, 64], [pa, d2], [64, 64], [H2D_ATTR], [0])
    refused(ret, C.ACL_ERROR_RT_PARAM_INVALID)
    assert fail == 1                                    # the copy going the other way
    for args, code in [
            (([d1], [32], [pa], [64], [H2D_ATTR], [0]), C.ACL_ERROR_INVALID_PARAM),
            (([d1, d2], [64, 64], [pa, pb], [64, 64], [H2D_ATTR], [1]),
             C.ACL_ERROR_RT_PARAM_INVALID),
            (([d1], [64], [pa], [64], [], []), C.ACL_ERROR_RT_PARAM_INVALID),
            (([d1], [64], [pa], [64], [dict(H2D_ATTR, rsv=[1])], [0]),
             C.ACL_ERROR_INVALID_PARAM)]:
        fail, ret = acl.rt.memcpy_batch(*args)
        refused(ret, code)
        assert fail == SIZE_MAX
    assert acl.rt.free(d1) == 0 and acl.rt.free(d2) == 0


def test_a_host_function_runs_in_stream_order(acl, refused):
    """aclrtLaunchHostFunc (not in pyACL): the function runs when the stream reaches it, after
    the work queued before it; a stream a thread subscribed is refused (107011)."""
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, 0)
    seen = []
    assert acl.rt.memset_async(dev, 64, 5, 64, stream) == 0
    assert acl.rt.launch_host_func(stream, lambda arg: seen.append(
        (arg, int(_from_device(acl, dev, 1)[0]))), "after the memset") == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert seen == [("after the memset", 5)]
    other, _ = acl.rt.create_stream()
    import threading
    assert acl.rt.subscribe_report(threading.get_ident(), other) == 0
    refused(acl.rt.launch_host_func(other, seen.append, None), C.ACL_ERROR_RT_STREAM_SUBSCRIBE)
    assert acl.rt.unsubscribe_report(threading.get_ident(), other) == 0
    for s in (stream, other):
        assert acl.rt.destroy_stream(s) == 0
    assert acl.rt.free(dev) == 0


def test_access_rights_map_without_access_then_grant(vmm, refused):
    """aclrtMemMapNoAccess maps with no access: every copy, memset or view of the range is
    refused until aclrtMemSetAccess grants the device READWRITE (the only flag supported);
    aclrtMemGetAccess tells a location's flags (rule 35). Refusals change nothing."""
    acl, g = vmm, 2 * MiB
    dev0 = {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}
    host = {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_HOST}
    rw = C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE
    va, _ = acl.rt.reserve_mem_address(2 * g, 0, 0, 0)
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    other, _ = acl.rt.malloc_physical(g, _prop(), 0)
    refused(acl.rt.mem_map_no_access(va, 0, 0, handle, 0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.mem_map_no_access(va, g, 0, handle, 1), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.mem_map_no_access(va, 2 * g, 0, handle, 0), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.mem_map_no_access(va, g, 0, handle, 0) == 0
    refused(acl.rt.map_mem(va, g, 0, other, 0), C.ACL_ERROR_RT_PARAM_INVALID)  # mapped once
    assert acl.rt.mem_get_access(va, dev0) == (C.ACL_RT_MEM_ACCESS_FLAGS_NONE, 0)
    assert acl.rt.pointer_get_attributes(va)[0]["location"] == dev0
    before = _state(acl)
    array = np.zeros(64, np.uint8)
    refused(acl.rt.memcpy(va, 64, acl.util.numpy_to_ptr(array), 64, H2D),
            C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.memcpy(acl.util.numpy_to_ptr(array), 64, va + 64, 64, D2H),
            C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.memset(va, 64, 1, 64), C.ACL_ERROR_RT_PARAM_INVALID)
    for args, code in [
        ((0, g, [{"flags": rw, "location": dev0}]), C.ACL_ERROR_RT_PARAM_INVALID),  # NULL
        ((va, g, []), C.ACL_ERROR_RT_PARAM_INVALID),                            # no desc
        ((va, g // 2, [{"flags": rw, "location": dev0}]), C.ACL_ERROR_RT_PARAM_INVALID),
        ((va + g, g, [{"flags": rw, "location": dev0}]), C.ACL_ERROR_RT_PARAM_INVALID),
        ((va, g, [{"flags": C.ACL_RT_MEM_ACCESS_FLAGS_READ, "location": dev0}]),
         C.ACL_ERROR_RT_PARAM_INVALID),                              # READWRITE only
        ((va, g, [{"flags": rw, "location": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_MANAGED}}]),
         C.ACL_ERROR_RT_PARAM_INVALID),
        ((va, g, [{"flags": rw, "location": {"id": 64, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}}]),
         C.ACL_ERROR_RT_PARAM_INVALID),
    ]:
        refused(acl.rt.mem_set_access(*args), code)
        assert _state(acl) == before, args
    for ptr, where, code in [(0, dev0, C.ACL_ERROR_INVALID_PARAM),
                             (va + 4096, dev0, C.ACL_ERROR_RT_PARAM_INVALID),   # not a start
                             (va, {"id": 0, "type": 3}, C.ACL_ERROR_RT_PARAM_INVALID)]:
        flags, ret = acl.rt.mem_get_access(ptr, where)
        refused(ret, code)
        assert flags == 0
    with pytest.raises(TypeError):
        acl.rt.mem_set_access(va, g, {"flags": rw, "location": dev0})
    with pytest.raises(KeyError):
        acl.rt.mem_get_access(va, {"type": 1})
    assert _state(acl) == before
    assert acl.rt.mem_set_access(va, g, [{"flags": rw, "location": dev0}]) == 0
    assert acl.rt.mem_get_access(va, dev0) == (rw, 0)
    assert acl.rt.mem_get_access(va, host) == (C.ACL_RT_MEM_ACCESS_FLAGS_NONE, 0)
    _to_device(acl, va, np.arange(64, dtype=np.uint8))
    assert (_from_device(acl, va, 64) == np.arange(64)).all()
    assert acl.rt.map_mem(va + g, g, 0, other, 0) == 0           # map_mem grants access
    assert acl.rt.mem_get_access(va + g, dev0) == (rw, 0)
    assert acl.rt.memset(va + g, 64, 5, 64) == 0
    assert (_from_device(acl, va + g, 64) == 5).all()
    assert acl.rt.unmap_mem(va) == 0 and acl.rt.unmap_mem(va + g) == 0
    refused(acl.rt.mem_get_access(va, dev0)[1], C.ACL_ERROR_RT_PARAM_INVALID)  # unmapped
    assert acl.rt.free_physical(handle) == 0 and acl.rt.free_physical(other) == 0
    assert acl.rt.release_mem_address(va) == 0


def test_a_range_mapped_without_access_can_be_unmapped_and_freed(vmm):
    acl, g = vmm, 2 * MiB
    free0 = acl.rt.get_mem_info(C.ACL_HBM_MEM)[0]
    va, _ = acl.rt.reserve_mem_address(g, 0, 0, 0)
    handle, _ = acl.rt.malloc_physical(g, _prop(), 0)
    assert acl.rt.mem_map_no_access(va, g, 0, handle, 0) == 0
    assert acl.rt.free_physical(handle) == 0                     # deferred, as for map_mem
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0 - g
    assert acl.rt.unmap_mem(va) == 0
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM)[0] == free0
    assert acl.rt.release_mem_address(va) == 0
