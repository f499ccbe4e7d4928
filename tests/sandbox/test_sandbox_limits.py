"""The host-RAM budget: where it comes from, what it refuses, and that a refused or
out-of-memory call changes nothing."""
import numpy as np
import pytest

import acl_lab
from acl_lab import AclLabError, SimulatorLimit
from acl_lab import constants as C
from acl_lab.session import SESSION
from acl_lab.spec.memory_rules import KEEP_DROPPED
from acl_lab.support import host_budget
from acl_lab.sim.storage import CHUNK

MiB = 1 << 20


@pytest.mark.parametrize("text, value", [("1GiB", 1 << 30), ("512MiB", 512 * MiB),
                                         ("2G", 2 << 30), ("1.5GiB", 3 << 29),
                                         ("1000000", 10**6), (" 64 kib ", 64 << 10)])
def test_sizes_are_read_as_people_write_them(text, value):
    assert host_budget.parse_size(text) == value


@pytest.mark.parametrize("text", ["lots", "1 GiBs", "-1GiB", ""])
def test_a_size_that_is_not_one_says_how_to_write_it(text):
    with pytest.raises(ValueError, match="512MiB"):
        host_budget.parse_size(text)


def test_the_budget_is_half_the_tightest_limit(monkeypatch):
    monkeypatch.delenv(host_budget.ENV, raising=False)
    monkeypatch.setattr(host_budget, "limits", lambda: {"cgroup memory limit": 2 << 30,
                                                    "physical memory": 24 << 30})
    assert host_budget.budget() == (1 << 30, "half the cgroup memory limit of 2,048 MiB")
    monkeypatch.setenv(host_budget.ENV, "300MiB")
    assert host_budget.budget() == (300 * MiB, f"{host_budget.ENV}=300MiB")


def test_the_limits_this_machine_has_are_found():
    found = host_budget.limits()
    assert found["physical memory"] > 64 * MiB
    assert all(v > 0 for v in found.values())


@pytest.fixture
def small(monkeypatch):
    """A fresh process with a 16 MiB budget."""
    monkeypatch.setenv(host_budget.ENV, "16MiB")
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield acl
    monkeypatch.delenv(host_budget.ENV)
    acl_lab.reset()


def test_a_write_past_the_budget_raises_and_changes_nothing(small):
    acl = small
    dev, _ = acl.rt.malloc(64 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(dev, 64 * MiB, 1, 12 * MiB) == 0
    before = acl_lab.snapshot()
    with pytest.raises(SimulatorLimit) as e:
        acl.rt.memset(dev + 12 * MiB, 8 * MiB, 2, 8 * MiB)
    assert isinstance(e.value, AclLabError) and e.value.code == C.ACL_ERROR_BAD_ALLOC
    text = str(e.value)
    assert "8 MiB more host RAM" in text and "16 MiB" in text and "ACL_LAB_HOST_RAM" in text
    assert acl_lab.snapshot() == before
    assert acl.rt.free(dev) == 0                       # freeing gives the RAM back
    assert acl_lab.snapshot()["touched_bytes"] == 0


def test_the_budget_refusal_speaks_the_learners_language(small):
    acl = small
    dev, _ = acl.rt.malloc(64 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl_lab.set_language("zh_CN")
    try:
        with pytest.raises(SimulatorLimit) as e:
            acl.rt.memset(dev, 64 * MiB, 2, 64 * MiB)
    finally:
        acl_lab.set_language("en")
    text = str(e.value)
    assert "还需要 64 MiB Host内存" in text and "没有任何改动" in text
    assert "ACL_LAB_HOST_RAM" in text and "acl_lab.reset()" in text


def test_a_full_overwrite_of_fresh_memory_fills_no_garbage_first(small):
    acl = small
    dev, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    sim = SESSION.simulator
    a = sim.rt.memory.allocs[dev]
    filled = []
    block, _ = a.pool.storage._at(dev - a.pool.base, 3 * MiB)    # the block's own bytes
    original = block._fill
    block._fill = lambda m, chunks: filled.extend(chunks.tolist()) or original(m, chunks)
    assert acl.rt.memset(dev, 3 * MiB, 9, 3 * MiB) == 0
    assert len(filled) <= 2                            # only the partly covered end chunks
    host, _ = acl.rt.malloc_host(3 * MiB)
    assert acl.rt.memcpy(host, 3 * MiB, dev, 3 * MiB, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(host, 3 * MiB) == b"\x09" * (3 * MiB)


def test_reading_fresh_memory_takes_no_ram_and_reads_the_same_garbage(small):
    acl = small
    dev, _ = acl.rt.malloc(2 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(2 * MiB)
    assert acl.rt.memcpy(host, 2 * MiB, dev, 2 * MiB, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    copied = acl.util.ptr_to_bytes(host, 2 * MiB)
    assert acl_lab.snapshot()["touched_bytes"] <= 2 * MiB + 2 * CHUNK   # the host side only
    assert len(set(copied[:4096])) > 100                 # garbage, not zeros
    assert acl.rt.memcpy(host, 2 * MiB, dev, 2 * MiB, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(host, 2 * MiB) == copied     # deterministic


def test_out_of_memory_during_synchronize_loses_no_task(acl, monkeypatch):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(4096)
    assert acl.rt.memset_async(dev, 4096, 3, 4096, stream) == 0
    assert acl.rt.memcpy_async(host, 4096, dev, 4096, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    s = SESSION.simulator.rt.streams[stream]
    task = s.pending[0]
    run = task.run

    def fails_once():
        task.run = run
        raise MemoryError
    task.run = fails_once
    with pytest.raises(SimulatorLimit, match="nothing was lost"):
        acl.rt.synchronize_stream(stream)
    snap = {x["handle"]: x for x in acl_lab.snapshot()["streams"]}[stream]
    assert (snap["issued"], snap["executed"], snap["pending"]) == (2, 0, 2)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.util.ptr_to_bytes(host, 4096) == b"\x03" * 4096


def test_object_arrays_are_a_type_error(acl):
    with pytest.raises(TypeError, match="Python objects"):
        acl.util.numpy_to_ptr(np.array([None, 1], dtype=object))


def test_a_temporary_bytes_object_stays_valid_for_the_next_calls(acl):
    """Official samples pass bytes_to_ptr(image.tobytes()) and copy from the pointer later;
    pyACL keeps no reference, so the simulator keeps the newest dropped objects alive and
    releases older ones beyond a bound (no unbounded growth)."""
    dev, _ = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(256)
    ptr = acl.util.bytes_to_ptr(np.full(256, 7, np.uint8).tobytes())
    assert acl.rt.memcpy(dev, 256, ptr, 256, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert acl.rt.memcpy(host, 256, dev, 256, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(host, 256) == b"\x07" * 256
    for _ in range(2000):
        acl.util.bytes_to_ptr(bytes(1024))
    live = [a for a in acl_lab.snapshot()["allocations"] if a["api"] == "bytes"]
    assert len(live) <= 3 * KEEP_DROPPED
