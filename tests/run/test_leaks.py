"""What reset_device and finalize do with what a program forgot to release.

Real ACL releases it silently (a log line at most); the simulator releases it too, and says
so: on stderr and in acl_lab.snapshot()["reports"], naming each pointer and stream. After
the release every byte is back: get_mem_info reads full again, pools are empty.
"""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.pool import MemoryPool

HUGE_FIRST = C.ACL_MEM_MALLOC_HUGE_FIRST
MiB = 1 << 20


def mem_table(acl) -> dict:
    """(free, total) of every memory attribute this device answers for."""
    table = {}
    for attr in C.MEM_ATTR_NAMES:
        free, total, ret = acl.rt.get_mem_info(attr)
        if ret == 0:
            table[attr] = (free, total)
    return table


def is_full(table: dict) -> bool:
    return all(free == total for free, total in table.values())


def reports_since(capsys, start: int) -> tuple[str, list[str]]:
    """(stderr written, snapshot reports added) since ``start`` reports existed."""
    return capsys.readouterr().err, acl_lab.snapshot()["reports"][start:]


def test_reset_device_reports_every_leak_and_gives_the_memory_back(acl, capsys):
    assert is_full(mem_table(acl))
    leaked = {
        "aclrtMalloc": acl.rt.malloc(1000, HUGE_FIRST)[0],
        "aclrtMallocAlign32": acl.rt.malloc_align32(3 * MiB, HUGE_FIRST)[0],   # huge pages
        "aclrtMallocCached": acl.rt.malloc_cached(64, C.ACL_MEM_MALLOC_NORMAL_ONLY)[0],
        "acldvppMalloc": acl.media.dvpp_malloc(4096)[0],
        "P2P": acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST_P2P)[0],
    }
    streams = [acl.rt.create_stream()[0] for _ in range(2)]
    assert not is_full(mem_table(acl))
    capsys.readouterr()

    assert acl.rt.reset_device(0) == 0
    err, reports = reports_since(capsys, 0)
    assert len(reports) == 2 and all(f"[acl_lab] {r}" in err for r in reports)
    streams_report, memory_report = reports
    assert streams_report.startswith("aclrtResetDevice(0): 2 stream(s) never destroyed")
    assert all(f"0x{s:x}" in streams_report for s in streams)
    assert memory_report.startswith("aclrtResetDevice(0): 5 allocation(s) never freed")
    for api, ptr in leaked.items():
        assert f"0x{ptr:x}" in memory_report, api
    assert all(api in memory_report for api in ("aclrtMalloc", "aclrtMallocAlign32",
                                                "aclrtMallocCached", "acldvppMalloc"))
    assert [a for a in acl_lab.snapshot()["allocations"] if a["device"] == 0] == []

    assert acl.rt.set_device(0) == 0
    assert is_full(mem_table(acl))
    assert acl.rt.free(leaked["aclrtMalloc"]) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "aclrtResetDevice(0)" in acl.get_recent_err_msg()


def test_many_leaks_are_counted_and_the_first_five_named(acl, capsys):
    ptrs = [acl.rt.malloc(64, HUGE_FIRST)[0] for _ in range(7)]
    capsys.readouterr()
    assert acl.rt.reset_device(0) == 0
    _, (report,) = reports_since(capsys, 0)
    assert "7 allocation(s) never freed" in report and report.count(" B from aclrtMalloc") == 5
    assert " ..." in report
    assert all(f"0x{p:x}" in report for p in ptrs[:5])


def test_reset_device_releases_only_on_the_last_reference(acl, capsys):
    ptr, _ = acl.rt.malloc(64, HUGE_FIRST)
    assert acl.rt.set_device(0) == 0                 # a second reference
    assert acl.rt.reset_device(0) == 0               # drops it: nothing is released yet
    assert capsys.readouterr().err == "" and acl_lab.snapshot()["reports"] == []
    assert acl.rt.memset(ptr, 64, 1, 64) == 0        # the memory is still usable
    assert acl.rt.reset_device(0) == 0
    _, (report,) = reports_since(capsys, 0)
    assert f"0x{ptr:x}" in report
    assert acl.rt.reset_device(0) == C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR


def test_reset_of_one_device_leaves_the_other_alone(acl, capsys):
    mine, _ = acl.rt.malloc(64, HUGE_FIRST)
    ctx0, _ = acl.rt.get_context()
    assert acl.rt.set_device(1) == 0
    theirs, _ = acl.rt.malloc(128, HUGE_FIRST)
    capsys.readouterr()
    assert acl.rt.reset_device(1) == 0
    _, (report,) = reports_since(capsys, 0)
    assert report.startswith("aclrtResetDevice(1)") and f"0x{theirs:x}" in report
    assert f"0x{mine:x}" not in report
    assert [a["ptr"] for a in acl_lab.snapshot()["allocations"]] == [mine]
    assert acl.rt.set_context(ctx0) == 0 and acl.rt.free(mine) == 0
    assert is_full(mem_table(acl))


def test_reset_device_finishes_queued_work_before_releasing(acl, capsys):
    """The device completes what was queued; only then is its memory taken back."""
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(256, HUGE_FIRST)
    host, _ = acl.rt.malloc_host(256)
    assert acl.rt.memset_async(dev, 256, 0x5A, 256, stream) == 0
    assert acl.rt.memcpy_async(host, 256, dev, 256, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.util.ptr_to_bytes(host, 256) == b"\x5a" * 256    # host memory survives
    assert acl.rt.free_host(host) == 0


def test_finalize_reports_devices_and_host_memory_and_returns_everything(acl, capsys):
    dev, _ = acl.rt.malloc(64, HUGE_FIRST)
    hosts = [acl.rt.malloc_host(n)[0] for n in (100, 5000)]
    assert acl.rt.set_device(3) == 0
    capsys.readouterr()

    assert acl.finalize() == 0
    err, reports = reports_since(capsys, 0)
    assert all(f"[acl_lab] {r}" in err for r in reports)
    assert "aclFinalize: device 0 was still set" in reports[0]
    assert any(r.startswith("aclFinalize(0): 1 allocation(s) never freed")
               and f"0x{dev:x}" in r for r in reports)
    assert any("aclFinalize: device 3 was still set" in r for r in reports)
    host_report = reports[-1]
    assert host_report.startswith("aclFinalize: 2 host allocation(s) never freed")
    assert all(f"0x{h:x}" in host_report for h in hosts)
    assert "acl.rt.free_host()" in host_report

    snap = acl_lab.snapshot()
    assert snap["allocations"] == [] and snap["contexts"] == [] and snap["streams"] == []
    assert all(p["used"] == 0 for p in snap["pools"])
    assert all(d["refs"] == 0 and not d["open"] for d in snap["devices"].values())
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    assert is_full(mem_table(acl))


def test_a_clean_shutdown_reports_nothing(acl, capsys):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.free(dev) == 0 and acl.rt.free_host(host) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    assert capsys.readouterr().err == "" and acl_lab.snapshot()["reports"] == []


def test_registered_numpy_arrays_are_not_leaks(acl, capsys):
    """Pageable memory belongs to Python: nothing to report, nothing to release."""
    array = np.arange(64, dtype=np.uint8)
    ptr = acl.util.numpy_to_ptr(array)
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    assert capsys.readouterr().err == "" and acl_lab.snapshot()["reports"] == []
    assert [a["ptr"] for a in acl_lab.snapshot()["allocations"]] == [ptr]


def test_an_unclosed_memory_pool_is_reported_with_its_allocator(acl, capsys):
    pool = MemoryPool(acl, 64 * 1024)
    pool.alloc(100)
    capsys.readouterr()
    assert acl.rt.reset_device(0) == 0
    _, (report,) = reports_since(capsys, 0)
    assert f"0x{pool.base:x}" in report and "aclrtMallocAlign32" in report
    assert acl.rt.set_device(0) == 0 and is_full(mem_table(acl))


def test_reset_device_drops_captured_models_and_explicit_contexts(acl, capsys):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == 0
    model, _ = acl.mdl.ri_capture_end(stream)
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.reset_device(0) == 0
    snap = acl_lab.snapshot()
    assert snap["models"] == [] and snap["contexts"] == [] and snap["allocations"] == []
    assert acl.mdl.ri_execute(model, -1) == C.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.set_context(ctx) == C.ACL_ERROR_RT_INVALID_HANDLE


@pytest.mark.parametrize("profile", ["310", "200dk"])
def test_other_profiles_give_everything_back(acl_on, capsys, profile):
    """310 (DDR only) and 200dk (ACL_DEVICE: malloc_host is device memory, so resetting
    the device reports and releases it)."""
    acl = acl_on(profile)
    dev, _ = acl.rt.malloc(3 * MiB, HUGE_FIRST)
    host, _ = acl.rt.malloc_host(256)
    capsys.readouterr()
    assert acl.rt.reset_device(0) == 0
    _, reports = reports_since(capsys, 0)
    device_mode = acl.rt.get_run_mode()[0] == C.ACL_DEVICE
    assert f"0x{dev:x}" in reports[0]
    assert (f"0x{host:x}" in reports[0]) is device_mode
    assert acl.rt.set_device(0) == 0 and is_full(mem_table(acl))
    assert acl.finalize() == 0
    assert all(p["used"] == 0 for p in acl_lab.snapshot()["pools"])
