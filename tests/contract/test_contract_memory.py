"""Host and device memory, memset and memcpy, get_mem_info (chapters 02, 03, 04).

Compared: the bytes that arrive, return codes, 64-byte start alignment, and that free
memory drops by at least what was allocated and comes back. Not compared: addresses,
and exact free-memory figures (page granularity and other processes differ on hardware).
"""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C

MiB = 1 << 20
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
U8 = np.dtype(np.uint8).num


def _pinned_to_device(run_mode):
    """malloc_host memory is host memory in ACL_HOST mode, device memory in ACL_DEVICE."""
    return H2D if run_mode == C.ACL_HOST else C.ACL_MEMCPY_DEVICE_TO_DEVICE


@pytest.mark.parametrize("size", [1, 100, 4096, 3 * MiB])
def test_malloc_start_addresses_are_64_byte_aligned(acl, size):
    ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and ptr != 0 and ptr % 64 == 0
    assert acl.rt.free(ptr) == 0


def test_malloc_host_memory_is_64_byte_aligned_on_a_host(acl, run_mode):
    ptr, ret = acl.rt.malloc_host(100)
    assert ret == 0 and ptr != 0
    if run_mode == C.ACL_HOST:          # ACL_DEVICE mode promises no alignment
        assert ptr % 64 == 0
    assert acl.rt.free_host(ptr) == 0


def test_a_host_to_device_round_trip_returns_the_same_values(acl):
    src = np.arange(1024, dtype=np.float32) * 1.5
    out = np.zeros_like(src)
    dev, _ = acl.rt.malloc(src.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(dev, src.nbytes, acl.util.numpy_to_ptr(src), src.nbytes, H2D) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, dev, src.nbytes, D2H) == 0
    np.testing.assert_array_equal(out, src)
    assert acl.rt.free(dev) == 0


def test_memset_sets_exactly_count_bytes(acl):
    src = np.full(4096, 0xA5, np.uint8)
    out = np.zeros_like(src)
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(dev, 4096, acl.util.numpy_to_ptr(src), 4096, H2D)
    assert acl.rt.memset(dev, 4096, 0x7F, 1000) == 0
    acl.rt.memcpy(acl.util.numpy_to_ptr(out), 4096, dev, 4096, D2H)
    assert (out[:1000] == 0x7F).all() and (out[1000:] == 0xA5).all()
    acl.rt.free(dev)


def test_pinned_host_memory_round_trip(acl, run_mode):
    host, _ = acl.rt.malloc_host(256)
    dev, _ = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.util.ptr_to_numpy(host, (256,), U8)[:] = np.arange(256, dtype=np.uint8)
    assert acl.rt.memcpy(dev, 256, host, 256, _pinned_to_device(run_mode)) == 0
    out = np.zeros(256, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 256, dev, 256, D2H) == 0
    np.testing.assert_array_equal(out, np.arange(256, dtype=np.uint8))
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0


def test_free_and_free_host_must_match_their_allocator(acl, refused):
    """Compared on hardware with the guard on: 107000, the simulator's code."""
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    refused(acl.rt.free_host(dev), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.free(host), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.free(dev + 32), C.ACL_ERROR_RT_PARAM_INVALID)
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0
    refused(acl.rt.free(dev), C.ACL_ERROR_RT_PARAM_INVALID)            # double free
    refused(acl.rt.free_host(host), C.ACL_ERROR_RT_PARAM_INVALID)


def test_a_null_pointer_is_an_invalid_parameter(acl):
    assert acl.rt.free(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.malloc(0, C.ACL_MEM_MALLOC_HUGE_FIRST)[1] == C.ACL_ERROR_INVALID_PARAM


def test_copies_stay_within_bounds_and_direction(acl, refused):
    src = np.arange(256, dtype=np.uint8)
    sp = acl.util.numpy_to_ptr(src)
    dev, _ = acl.rt.malloc(128, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(dev, 128, sp, 256, H2D) == C.ACL_ERROR_RT_PARAM_INVALID  # > destMax
    refused(acl.rt.memcpy(dev, 256, sp, 256, H2D), C.ACL_ERROR_RT_PARAM_INVALID)  # > the block
    back = np.zeros(128, np.uint8)
    assert acl.rt.memcpy(dev, 128, sp, 128, D2H) == 0    # a contradicting kind: the addresses
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), 128, dev, 128, H2D) == 0   # decide
    assert back.tolist() == src[:128].tolist()
    assert acl.rt.memcpy(dev, 128, sp, 0, H2D) == 0                               # count 0
    acl.rt.free(dev)
    refused(acl.rt.memcpy(dev, 128, sp, 128, H2D), C.ACL_ERROR_RT_PARAM_INVALID)  # freed


def test_the_host_cannot_read_device_memory_directly(acl, run_mode):
    """Real pyACL would crash the process; the simulator and the guard raise instead."""
    if run_mode == C.ACL_DEVICE:
        pytest.skip("in ACL_DEVICE mode the code runs on the device's CPU and may read it")
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    with pytest.raises(acl_lab.AclLabError):
        acl.util.ptr_to_numpy(dev, (64,), U8)
    acl.rt.free(dev)


def test_free_memory_drops_on_malloc_and_comes_back_on_free(acl):
    size = 64 * MiB
    free0, total, ret = acl.rt.get_mem_info(C.ACL_HBM_MEM)   # DDR-only devices answer with DDR
    assert ret == 0 and 0 < free0 <= total
    ptr, _ = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    free1, total1, _ = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    assert acl.rt.free(ptr) == 0
    free2, total2, _ = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    assert total1 == total2 == total
    assert free0 - free1 >= size and free2 - free1 >= size


def test_an_unknown_memory_attribute_is_refused(acl):
    assert acl.rt.get_mem_info(99)[-1] == C.ACL_ERROR_RT_INVALID_MEMORY_TYPE


def test_a_small_huge_only_block_occupies_a_whole_huge_page(acl):
    """hicann/runtime FAQ 如何选择合适的内存分配策略: aclrtMalloc(&p, 1024, HUGE_ONLY)
    "实际占用 2MB（大页对齐）". The huge-page figure drops by a whole 2 MiB page (at least:
    on hardware another process may take pages meanwhile) and comes back."""
    free0, _, ret = acl.rt.get_mem_info(C.ACL_HBM_MEM_HUGE)   # DDR-only: the DDR figure
    assert ret == 0
    ptr, ret = acl.rt.malloc(1024, C.ACL_MEM_MALLOC_HUGE_ONLY)
    assert ret == 0
    free1, _, _ = acl.rt.get_mem_info(C.ACL_HBM_MEM_HUGE)
    assert acl.rt.free(ptr) == 0
    assert free0 - free1 >= 2 * MiB
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM_HUGE)[0] - free1 >= 2 * MiB


def test_a_pageable_async_copy_on_a_capturing_stream_is_an_invalid_parameter(acl, refused,
                                                                              run_mode):
    """ApiErrorDecorator::MemcpyAsync (hicann/runtime api_error.cc): "The pageable memory
    copy task does not support graph capture" -> ACL_ERROR_RT_PARAM_INVALID (107000)."""
    from acl_lab.spec.socs import captures
    if not captures(acl.get_soc_name()) or run_mode != C.ACL_HOST:
        pytest.skip("needs a SoC that captures, in ACL_HOST mode (pageable host memory)")
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    array = np.ones(256, np.uint8)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    refused(acl.rt.memcpy_async(dev, 256, acl.util.numpy_to_ptr(array), 256, H2D, stream),
            C.ACL_ERROR_RT_PARAM_INVALID)
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0 and acl.mdl.ri_destroy(model) == 0
    assert acl.rt.destroy_stream(stream) == 0 and acl.rt.free(dev) == 0
