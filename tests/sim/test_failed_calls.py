"""A failed call changes nothing: not the allocations, pools, streams, events, contexts, the
modeled clock, nor a single byte of memory. Each case runs against a busy process (pending
work on a stream, recorded events, nearly full huge pages) and compares acl_lab.snapshot()
and the contents of every buffer before and after."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import PROFILES

MiB = 1 << 20
H2H, H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)
HUGE_HBM = C.ACL_MEM_MALLOC_HUGE_ONLY        # huge pages, HBM first
BAD = 0xBAD0


@pytest.fixture
def world(acl):
    """A process with something in every corner, and a way to read all its bytes."""
    w = SimpleNamespace(acl=acl)
    w.ctx, _ = acl.rt.get_context()
    w.stream, _ = acl.rt.create_stream()
    w.host, _ = acl.rt.malloc_host(512)
    w.dev, _ = acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST)
    w.dev2, _ = acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST)
    w.dvpp, _ = acl.media.dvpp_malloc(300)
    w.array = np.arange(512, dtype=np.uint16).astype(np.uint8)
    w.np_ptr = acl.util.numpy_to_ptr(w.array)
    w.frozen_root = np.arange(256, dtype=np.uint16).astype(np.uint8)
    w.frozen = w.frozen_root[:]            # a read-only view of a writable array
    w.frozen.flags.writeable = False
    w.frozen_ptr = acl.util.numpy_to_ptr(w.frozen)
    hbm_huge = sum(p.size for p in PROFILES["910b"].pools
                   if (p.kind, p.page, p.p2p) == ("HBM", "huge", False))
    assert acl.rt.malloc(hbm_huge - 4 * MiB, HUGE_HBM)[1] == 0       # 4 MiB of huge HBM left
    for ptr, value in ((w.host, 1), (w.dev, 2), (w.dev2, 3), (w.dvpp, 4)):
        assert acl.rt.memset(ptr, 512 if ptr != w.dvpp else 300, value, 256) == 0
    w.big_dev, _ = acl.rt.malloc(64 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    w.big_host, _ = acl.rt.malloc_host(64 * MiB)
    scratch, _ = acl.rt.malloc_host(512)
    w.freed, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)   # last: nothing reuses it
    assert acl.rt.free(w.freed) == 0
    # pending work: a long copy, a memset and an event nobody has waited for yet
    assert acl.rt.memcpy_async(w.big_dev, 64 * MiB, w.big_host, 64 * MiB, H2D, w.stream) == 0
    assert acl.rt.memset_async(w.dev, 512, 0x77, 512, w.stream) == 0
    w.event, _ = acl.rt.create_event()
    w.unrecorded, _ = acl.rt.create_event()
    assert acl.rt.record_event(w.event, w.stream) == 0

    def device_bytes(ptr, n):
        """Through a kept scratch buffer: freeing one would wait for the pending work."""
        assert acl.rt.memcpy(scratch, n, ptr, n, D2H) == 0
        return acl.util.ptr_to_bytes(scratch, n)

    def contents():
        return {"host": acl.util.ptr_to_bytes(w.host, 512), "dev": device_bytes(w.dev, 512),
                "dev2": device_bytes(w.dev2, 512), "dvpp": device_bytes(w.dvpp, 300),
                "array": w.array.tobytes(), "frozen": w.frozen.tobytes()}
    w.contents = contents
    return w


CASES = [
    # release
    ("free_null", lambda w: w.acl.rt.free(0), C.ACL_ERROR_INVALID_PARAM),
    ("free_unknown", lambda w: w.acl.rt.free(0xDEAD_0000), C.ACL_ERROR_RT_PARAM_INVALID),
    ("double_free", lambda w: w.acl.rt.free(w.freed), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_inside", lambda w: w.acl.rt.free(w.dev + 64), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_host_memory", lambda w: w.acl.rt.free(w.host), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_host_on_device", lambda w: w.acl.rt.free_host(w.dev), C.ACL_ERROR_RT_PARAM_INVALID),
    ("dvpp_free_malloc", lambda w: w.acl.media.dvpp_free(w.dev), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_dvpp", lambda w: w.acl.rt.free(w.dvpp), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_numpy", lambda w: w.acl.rt.free(w.np_ptr), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_negative", lambda w: w.acl.rt.free(-1), C.ACL_ERROR_INVALID_PARAM),
    # allocation
    ("malloc_zero", lambda w: w.acl.rt.malloc(0, 0), C.ACL_ERROR_INVALID_PARAM),
    ("malloc_negative", lambda w: w.acl.rt.malloc(-5, 0), C.ACL_ERROR_INVALID_PARAM),
    ("malloc_over_64_bits", lambda w: w.acl.rt.malloc(1 << 70, 0), C.ACL_ERROR_INVALID_PARAM),
    ("malloc_oom", lambda w: w.acl.rt.malloc(1 << 40, 0), C.ACL_ERROR_RT_MEMORY_ALLOCATION),
    ("huge_only_exhausted", lambda w: w.acl.rt.malloc(16 << 30, HUGE_HBM),  # > HBM + DDR huge
     C.ACL_ERROR_RT_MEMORY_ALLOCATION),
    ("malloc_host_zero", lambda w: w.acl.rt.malloc_host(0), C.ACL_ERROR_INVALID_PARAM),
    ("malloc_host_oom", lambda w: w.acl.rt.malloc_host(1 << 40), C.ACL_ERROR_RT_MEMORY_ALLOCATION),
    ("dvpp_malloc_zero", lambda w: w.acl.media.dvpp_malloc(0), C.ACL_ERROR_INVALID_PARAM),
    ("bad_mem_attr", lambda w: w.acl.rt.get_mem_info(99), C.ACL_ERROR_RT_INVALID_MEMORY_TYPE),
    # memcpy / memset
    ("memcpy_over_dest_max", lambda w: w.acl.rt.memcpy(w.dev2, 100, w.host, 200, H2D),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memcpy_past_the_end", lambda w: w.acl.rt.memcpy(w.dev2, 4096, w.host, 1024, H2D),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memcpy_bad_kind", lambda w: w.acl.rt.memcpy(w.dev2, 512, w.host, 512, 7),
     C.ACL_ERROR_INVALID_PARAM),
    ("memcpy_overlap", lambda w: w.acl.rt.memcpy(w.dev + 64, 256, w.dev, 256, D2D),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memcpy_use_after_free", lambda w: w.acl.rt.memcpy(w.freed, 64, w.host, 64, H2D),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memcpy_into_read_only_view", lambda w: w.acl.rt.memcpy(w.frozen_ptr, 256, w.host, 256, H2H),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memcpy_async_unaligned",
     lambda w: w.acl.rt.memcpy_async(w.dev2 + 32, 256, w.host, 256, H2D, w.stream),
     C.ACL_ERROR_RT_ADDR_UNALIGNED),
    ("memcpy_async_bad_stream",
     lambda w: w.acl.rt.memcpy_async(w.dev2, 256, w.host, 256, H2D, BAD),
     C.ACL_ERROR_RT_INVALID_HANDLE),
    ("memcpy_async_host_to_host",
     lambda w: w.acl.rt.memcpy_async(w.np_ptr, 256, w.host, 256, H2H, w.stream),
     C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    ("memcpy2d_width_over_pitch",
     lambda w: w.acl.rt.memcpy2d(w.dev2, 16, w.host, 16, 32, 4, H2D), C.ACL_ERROR_INVALID_PARAM),
    ("memcpy2d_wrong_kind", lambda w: w.acl.rt.memcpy2d(w.dev2, 32, w.host, 32, 32, 4, D2H),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memcpy2d_sync_d2d", lambda w: w.acl.rt.memcpy2d(w.dev2, 32, w.dev, 32, 32, 4, D2D),
     C.ACL_ERROR_INVALID_PARAM),
    ("memset_count_over_max", lambda w: w.acl.rt.memset(w.host, 100, 0, 101),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memset_into_read_only_view", lambda w: w.acl.rt.memset(w.frozen_ptr, 256, 0, 256),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memset_async_count_over_max", lambda w: w.acl.rt.memset_async(w.dev2, 10, 0, 11, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memset_async_pageable", lambda w: w.acl.rt.memset_async(w.np_ptr, 64, 0, 64, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("memset_freed", lambda w: w.acl.rt.memset(w.freed, 64, 0, 64), C.ACL_ERROR_RT_PARAM_INVALID),
    # process, devices, contexts, streams, events
    ("init_again", lambda w: w.acl.init(), C.ACL_ERROR_REPEAT_INITIALIZE),
    ("set_device_missing", lambda w: w.acl.rt.set_device(99), C.ACL_ERROR_RT_INVALID_DEVICEID),
    ("reset_device_never_set", lambda w: w.acl.rt.reset_device(5),
     C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR),
    ("destroy_default_context", lambda w: w.acl.rt.destroy_context(w.ctx),
     C.ACL_ERROR_RT_CONTEXT_NULL),
    ("destroy_bad_context", lambda w: w.acl.rt.destroy_context(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    ("set_bad_context", lambda w: w.acl.rt.set_context(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    ("destroy_default_stream", lambda w: w.acl.rt.destroy_stream(0), C.ACL_ERROR_INVALID_PARAM),
    ("destroy_bad_stream", lambda w: w.acl.rt.destroy_stream(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    ("synchronize_bad_stream", lambda w: w.acl.rt.synchronize_stream(BAD),
     C.ACL_ERROR_RT_INVALID_HANDLE),
    ("record_on_bad_stream", lambda w: w.acl.rt.record_event(w.event, BAD),
     C.ACL_ERROR_RT_INVALID_HANDLE),
    ("record_bad_event", lambda w: w.acl.rt.record_event(BAD, w.stream),
     C.ACL_ERROR_RT_INVALID_HANDLE),
    ("wait_on_bad_stream", lambda w: w.acl.rt.stream_wait_event(BAD, w.event),
     C.ACL_ERROR_RT_INVALID_HANDLE),
    ("query_bad_event", lambda w: w.acl.rt.query_event_status(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    ("destroy_bad_event", lambda w: w.acl.rt.destroy_event(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    ("elapsed_unrecorded", lambda w: w.acl.rt.event_elapsed_time(w.unrecorded, w.event),
     C.ACL_ERROR_RT_INTERNAL_ERROR),
    ("elapsed_not_complete", lambda w: w.acl.rt.event_elapsed_time(w.event, w.event),
     C.ACL_ERROR_RT_EVENT_NOT_COMPLETE),
]


@pytest.mark.parametrize("call, code", [pytest.param(c, code, id=name) for name, c, code in CASES])
def test_a_failed_call_changes_nothing(world, call, code):
    acl = world.acl
    contents = world.contents()
    before = acl_lab.snapshot()
    result = call(world)
    after = acl_lab.snapshot()

    ret = result[-1] if isinstance(result, tuple) else result
    assert ret == code, acl.get_recent_err_msg()
    if isinstance(result, tuple):
        assert all(v == 0 for v in result[:-1])       # no half-made value comes back
    assert acl.get_recent_err_msg()
    assert after == before                            # the modeled clock included
    assert world.contents() == contents


def test_failed_util_calls_change_nothing(world):
    acl = world.acl
    contents = world.contents()
    before = acl_lab.snapshot()
    with pytest.raises(acl_lab.AclLabError):
        acl.util.ptr_to_bytes(world.dev, 16)                  # device memory in ACL_HOST
    with pytest.raises(acl_lab.AclLabError):
        acl.util.ptr_to_numpy(world.freed, (4,), np.dtype(np.uint8).num)
    assert acl.util.numpy_to_ptr(np.zeros((4, 4)).T) == 0     # not contiguous
    with pytest.raises(TypeError):
        acl.rt.malloc("64", 0)
    assert acl_lab.snapshot() == before
    assert world.contents() == contents
