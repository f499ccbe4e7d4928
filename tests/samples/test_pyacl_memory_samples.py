"""The flows of the official pyACL memory samples, on the simulator.

Ascend/samples python/level1_single_api/1_acl/2_memory_management/ has three programs —
memcpy_host_device, memcpy_host_DVPP and memcpy_host_device_async — that memset a buffer
to 7 and show it at each step with the same helper: copy the memory into a fresh bytes
object through acl.util.bytes_to_ptr (pyACL's pattern when bytes_to_ptr exists), then read
it back with np.frombuffer. Each test below follows one program's steps (this file's own
code, not theirs) and checks what the program would print: the 7s it set.
"""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C

SIZE = 10 * 1024 * 1024          # the samples' default --memory_size
H2H, H2D, D2H = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                 C.ACL_MEMCPY_DEVICE_TO_HOST)
SEVENS = "[7 7 7 ... 7 7 7]"


@pytest.fixture
def acl():
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    yield acl
    acl_lab.reset()


def show(acl, printed: list, message: str, ptr: int, kind: int) -> None:
    """The samples' copy_data_as_numpy: bytes_to_ptr over a fresh bytes object, copy into
    it, read it back with np.frombuffer, log '<message> is <array>'."""
    np_data = np.ones(SIZE, dtype=np.byte)
    assert "bytes_to_ptr" in dir(acl.util)          # the samples test for it the same way
    bytes_data = np_data.tobytes()
    ret = acl.rt.memcpy(acl.util.bytes_to_ptr(bytes_data), SIZE, ptr, SIZE, kind)
    np_data = np.frombuffer(bytes_data, dtype=np_data.dtype).reshape(np_data.shape)
    printed.append((f"{message} is {np_data}", ret))


def open_device(acl) -> int:
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    context, ret = acl.rt.create_context(0)
    assert ret == 0
    for attr in (C.ACL_DDR_MEM, C.ACL_HBM_MEM):      # search_memory before anything
        assert acl.rt.get_mem_info(attr)[2] == 0
    return context


def close_device(acl, context: int) -> None:
    assert acl.rt.destroy_context(context) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


def test_memcpy_host_device_prints_the_sevens(acl):
    """memcpy_host_device.py --write_back_host: host memset 7 -> H2D -> D2H back."""
    printed = []
    context = open_device(acl)
    host, ret = acl.rt.malloc_host(SIZE)
    dev, ret2 = acl.rt.malloc(SIZE, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ret2 == 0
    assert acl.rt.memset(host, SIZE, 7, SIZE) == 0
    show(acl, printed, "At first memset host data", host, H2H)
    assert acl.rt.memcpy(dev, SIZE, host, SIZE, H2D) == 0
    show(acl, printed, "At memcpy device data", dev, D2H)
    back, _ = acl.rt.malloc_host(SIZE)
    assert acl.rt.memcpy(back, SIZE, dev, SIZE, D2H) == 0
    show(acl, printed, "Write back host data", back, H2H)
    assert acl.rt.free_host(back) == 0
    assert acl.rt.free_host(host) == 0 and acl.rt.free(dev) == 0
    close_device(acl, context)
    assert printed == [("At first memset host data is " + SEVENS, 0),
                       ("At memcpy device data is " + SEVENS, 0),
                       ("Write back host data is " + SEVENS, 0)]


def test_memcpy_host_dvpp_prints_the_sevens(acl):
    """memcpy_host_dvpp.py: host memset 7 -> H2D into dvpp memory."""
    printed = []
    context = open_device(acl)
    host, _ = acl.rt.malloc_host(SIZE)
    dvpp, ret = acl.media.dvpp_malloc(SIZE)
    assert ret == 0
    assert acl.rt.memset(host, SIZE, 7, SIZE) == 0
    show(acl, printed, "At first memset host data", host, H2H)
    assert acl.rt.memcpy(dvpp, SIZE, host, SIZE, H2D) == 0
    show(acl, printed, "At memcpy device data", dvpp, D2H)
    assert acl.rt.free_host(host) == 0 and acl.media.dvpp_free(dvpp) == 0
    close_device(acl, context)
    assert printed == [("At first memset host data is " + SEVENS, 0),
                       ("At memcpy device data is " + SEVENS, 0)]


def test_memcpy_host_device_async_prints_the_sevens(acl):
    """memcpy_host_device_async_python.py: memset_async 7 on pinned memory, H2D and D2H on a
    stream, two release cycles."""
    printed = []
    context = open_device(acl)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dvpp_list = []
    for _ in range(2):                                # --release_cycle 2
        host, _ = acl.rt.malloc_host(SIZE)
        assert acl.rt.memset_async(host, SIZE, 7, SIZE, stream) == 0
        dvpp, _ = acl.media.dvpp_malloc(SIZE)
        dvpp_list.append(dvpp)
        assert acl.rt.synchronize_stream(stream) == 0
        show(acl, printed, "At first memset host data", host, H2H)
        assert acl.rt.memcpy_async(dvpp, SIZE, host, SIZE, H2D, stream) == 0
        back, _ = acl.rt.malloc_host(SIZE)
        assert acl.rt.synchronize_stream(stream) == 0
        show(acl, printed, "At memcpy device data", dvpp, D2H)
        assert acl.rt.memcpy_async(back, SIZE, dvpp, SIZE, D2H, stream) == 0
        assert acl.rt.free_host(host) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        show(acl, printed, "Write back host data", back, H2H)
        assert acl.rt.free_host(back) == 0
    for dvpp in dvpp_list:
        assert acl.media.dvpp_free(dvpp) == 0
    assert acl.rt.destroy_stream(stream) == 0
    close_device(acl, context)
    assert printed == [(f"{m} is {SEVENS}", 0) for m in (
        "At first memset host data", "At memcpy device data", "Write back host data")] * 2


def test_sync_copy_with_a_contradicting_kind_follows_the_addresses(acl):
    """memcpy_host_DVPP and memcpy_host_device_async show 'At memcpy device data' by copying
    the *host* buffer with ACL_MEMCPY_DEVICE_TO_HOST: the kind is reserved (seed 001) and the
    driver copies by the addresses, so they print the memset 7s."""
    printed = []
    open_device(acl)
    host, _ = acl.rt.malloc_host(SIZE)
    assert acl.rt.memset(host, SIZE, 7, SIZE) == 0
    show(acl, printed, "At memcpy device data", host, D2H)
    assert printed == [("At memcpy device data is " + SEVENS, 0)]


def test_memcpy_host_device_with_default_cycles_stops_on_the_code_it_checks(monkeypatch):
    """memcpy_host_device.py with its defaults (--release_cycle -1) allocates pinned and
    device memory until a call fails, checking each return code. Pinned host memory is real
    host RAM, so aclrtMallocHost runs out first, with ACL_ERROR_RT_MEMORY_ALLOCATION, as
    NpuDriver::HostMemAlloc answers (it got SimulatorLimit, an exception the sample does not
    expect). The simulated host's RAM is the budget: 300 MiB here."""
    monkeypatch.setenv("ACL_LAB_HOST_RAM", "300MiB")
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    try:
        context = open_device(acl)
        printed, held = [], []
        while True:
            host, ret = acl.rt.malloc_host(SIZE)
            if ret:
                break
            dev, ret2 = acl.rt.malloc(SIZE, C.ACL_MEM_MALLOC_HUGE_FIRST)
            assert ret2 == 0
            held.append((host, dev))
            assert acl.rt.memset(host, SIZE, 7, SIZE) == 0
            show(acl, printed, "At first memset host data", host, H2H)
            assert acl.rt.memcpy(dev, SIZE, host, SIZE, H2D) == 0
            show(acl, printed, "At memcpy device data", dev, D2H)
        assert ret == C.ACL_ERROR_RT_MEMORY_ALLOCATION and len(held) > 10
        assert "pinned host memory is real host RAM" in acl.get_recent_err_msg()
        assert all(line == (f"{m} is {SEVENS}", 0) for line, m in zip(
            printed, ["At first memset host data", "At memcpy device data"] * len(held)))
        for host, dev in held:
            assert acl.rt.free_host(host) == 0 and acl.rt.free(dev) == 0
        close_device(acl, context)
    finally:
        monkeypatch.delenv("ACL_LAB_HOST_RAM")
        acl_lab.reset()
