"""Storage under Pyodide's limits (ACL_LAB_PLATFORM=pyodide): one buffer per allocation,
made on first touch; accounting stays full-size; a buffer past one map's cap or the budget
raises SimulatorLimit and changes nothing; fresh bytes equal the lazy mapping's."""
import numpy as np
import pytest

import acl_lab
from acl_lab.support import pyodide as wasm
from acl_lab.constants import (ACL_HBM_MEM, ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_HOST_TO_DEVICE,
                               ACL_SUCCESS)
from acl_lab.sim.extents import ExtentStorage, fill_garbage
from acl_lab.sim.hostram import HostRam
from acl_lab.sim.storage import LazyStorage

GiB, MiB = 1 << 30, 1 << 20
U8 = np.dtype(np.uint8).num


@pytest.fixture
def acl(monkeypatch):
    monkeypatch.setenv(wasm.ENV, "pyodide")
    acl_lab.reset("910b")
    acl = acl_lab.load()
    assert acl.init() in (ACL_SUCCESS, 100002)
    assert acl.rt.set_device(0) == ACL_SUCCESS
    yield acl
    monkeypatch.delenv(wasm.ENV)
    acl_lab.reset()


def test_fresh_bytes_are_the_same_garbage_as_the_lazy_mapping():
    lazy, extents = LazyStorage(1 << 20, salt=37), ExtentStorage(1 << 20, salt=37)
    extents.claim(1000, 200_000)
    expected = lazy.view(1000, 200_000).copy()
    assert (extents.view(1000, 200_000) == expected).all()
    buf = np.empty(70_000, np.uint8)
    fill_garbage(buf, 60_000, 37)
    assert (buf == lazy.view(60_000, 70_000)).all()


def test_a_64_gib_device_reports_64_gib_and_ram_follows_touched_allocations(acl):
    free0, total, _ = acl.rt.get_mem_info(ACL_HBM_MEM)
    assert total >= 32 * GiB
    big, ret = acl.rt.malloc(8 * GiB, ACL_MEM_MALLOC_HUGE_FIRST)     # accounted, not touched
    assert ret == ACL_SUCCESS
    assert acl.rt.get_mem_info(ACL_HBM_MEM)[0] <= free0 - 8 * GiB
    assert acl_lab.snapshot()["touched_bytes"] == 0
    small, _ = acl.rt.malloc(MiB, ACL_MEM_MALLOC_HUGE_FIRST)
    host = np.arange(256, dtype=np.uint8)
    assert acl.rt.memcpy(small, MiB, acl.util.numpy_to_ptr(host), 256,
                         ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    assert 0 < acl_lab.snapshot()["touched_bytes"] < 2 * MiB + 4096
    assert acl.rt.free(small) == ACL_SUCCESS
    assert acl_lab.snapshot()["touched_bytes"] == 0
    assert acl.rt.free(big) == ACL_SUCCESS


def test_touching_an_allocation_past_one_maps_cap_raises_and_changes_nothing(acl, monkeypatch):
    monkeypatch.setenv("ACL_LAB_HOST_RAM", "8GiB")     # the budget allows it; one map does not
    acl_lab.reset("910b")
    acl = acl_lab.load()
    acl.init(); acl.rt.set_device(0)
    big, ret = acl.rt.malloc(3 * GiB, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    before = acl_lab.snapshot()
    with pytest.raises(acl_lab.SimulatorLimit, match="maps at most"):
        acl.rt.memset(big, 3 * GiB, 0, 16)
    assert acl_lab.snapshot()["touched_bytes"] == before["touched_bytes"] == 0
    assert acl.rt.free(big) == ACL_SUCCESS


def test_touching_past_the_budget_raises_and_changes_nothing(acl, monkeypatch):
    monkeypatch.setenv("ACL_LAB_HOST_RAM", "64MiB")
    acl_lab.reset("910b")
    acl = acl_lab.load()
    acl.init(); acl.rt.set_device(0)
    a, _ = acl.rt.malloc(48 * MiB, ACL_MEM_MALLOC_HUGE_FIRST)
    b, _ = acl.rt.malloc(48 * MiB, ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(a, 48 * MiB, 1, 48 * MiB) == ACL_SUCCESS
    with pytest.raises(acl_lab.SimulatorLimit, match="budget"):
        acl.rt.memset(b, 48 * MiB, 2, 16)
    assert acl.rt.free(a) == ACL_SUCCESS
    assert acl.rt.memset(b, 48 * MiB, 2, 16) == ACL_SUCCESS     # the freed RAM is back


def test_ptr_to_numpy_views_alias_the_allocation(acl):
    ptr, _ = acl.rt.malloc_host(4096)
    view = acl.util.ptr_to_numpy(ptr + 64, (16,), U8)
    view[:] = 7
    assert acl.util.numpy_to_ptr(view) == ptr + 64
    assert acl.util.ptr_to_bytes(ptr + 64, 16) == bytes([7]) * 16


def test_the_budget_in_a_browser_tab_is_wasms_not_the_hosts(monkeypatch):
    monkeypatch.setenv(wasm.ENV, "pyodide")
    monkeypatch.delenv("ACL_LAB_HOST_RAM", raising=False)
    assert HostRam().limit == wasm.BUDGET


def test_bytes_outside_every_allocation_read_as_fresh_or_as_what_they_overlap():
    lazy, extents = LazyStorage(1 << 20, salt=5), ExtentStorage(1 << 20, salt=5)
    extents.claim(4096, 100)
    extents.view(4096, 100)[:] = 9
    seen = np.empty(300, np.uint8)
    extents.read_into(4000, 300, seen)          # straddles the allocation
    expected = lazy.view(4000, 300).copy()
    expected[96:196] = 9
    assert (seen == expected).all()
    extents.view(50_000, 10)[:] = 1             # no allocation there: nothing kept
    assert (extents.view(50_000, 10) == lazy.view(50_000, 10)).all()
    assert extents.touched_bytes == 100
