"""The ascend backend's own logic, against a recording stand-in for pyACL's ``acl`` module.

No NPU is needed: the stand-in (tests/ascendhelpers.py) answers like pyACL and records every
call that reached it, so each test can say which real calls the guard let through and which
it stopped.
"""
import gc
import sys
import types

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.backends import ascend
from acl_lab.backends.ascend.native import NativeUnavailable
from acl_lab.session import SESSION
from acl_lab.spec.snapshot_schema import mismatches

from ascendhelpers import (DDR_TOTAL, HBM_TOTAL, MiB, U8, StandIn, acl, real, refused,  # noqa: F401
                           stand_in)


def test_load_hands_out_the_real_module_shape_traced(real, acl):
    assert acl.get_soc_name() == "Ascend910B3"
    assert acl.mdl.load_from_file("m.om") == (7, 0)      # not guarded: passed through
    assert not hasattr(real, "nn")      # pyACL binds no aclnn call; acl_lab.backends.ascend.native does,
    with pytest.raises(NativeUnavailable, match="aclCreateScalar from the CANN C libraries"):
        acl.nn.create_scalar(1.0, C.ACL_FLOAT)          # (no CANN libraries on this machine)
    assert real.calls[-1] == ("mdl.load_from_file", ("m.om",))
    assert [c.name for c in acl_lab.tracer().calls][-2:] == ["get_soc_name", "mdl.load_from_file"]
    assert acl_lab.load(backend="ascend") is acl         # one backend per pyACL module


def test_a_call_that_is_fine_reaches_the_runtime_unchanged(real, acl):
    dev, ret = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host = np.arange(256, dtype=np.uint8)
    hp = acl.util.numpy_to_ptr(host)
    assert ret == 0
    assert acl.rt.memcpy(dev, 256, hp, 256, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert real.calls[-1] == ("rt.memcpy", (dev, 256, hp, 256, C.ACL_MEMCPY_HOST_TO_DEVICE))
    assert acl.rt.free(dev) == 0
    assert real.calls[-1] == ("rt.free", (dev,))


# ----- free pairing ----------------------------------------------------------------------
def test_double_free_reaches_the_runtime_once(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(dev) == 0
    refused(real, acl, acl.rt.free(dev), C.ACL_ERROR_RT_PARAM_INVALID, hex(dev),
            "already released", "exactly once")
    assert real.names().count("rt.free") == 1


@pytest.mark.parametrize("wrong", ["free", "free_host"])
def test_free_and_free_host_are_not_interchangeable(real, acl, wrong):
    dev, _ = acl.rt.malloc(64, 0)
    host, _ = acl.rt.malloc_host(64)
    ptr, right = (host, "aclrtFreeHost") if wrong == "free" else (dev, "aclrtFree")
    refused(real, acl, getattr(acl.rt, wrong)(ptr), C.ACL_ERROR_RT_PARAM_INVALID, hex(ptr),
            f"paired with {right}")
    assert f"rt.{wrong}" not in real.names()


def test_free_of_unknown_interior_and_python_memory_is_refused(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    arr = np.zeros(16, np.uint8)
    refused(real, acl, acl.rt.free(0xDEAD000), C.ACL_ERROR_RT_PARAM_INVALID, "0xdead000",
            "not returned by any ACL allocator")
    refused(real, acl, acl.rt.free(dev + 32), C.ACL_ERROR_RT_PARAM_INVALID, "32 B inside")
    refused(real, acl, acl.rt.free(acl.util.numpy_to_ptr(arr)), C.ACL_ERROR_RT_PARAM_INVALID,
            "Python owns")
    assert "rt.free" not in real.names()


def test_null_goes_to_the_runtime_which_answers_itself(real, acl):
    assert acl.rt.free(0) == C.ACL_ERROR_INVALID_PARAM
    assert real.calls[-1] == ("rt.free", (0,))
    assert acl.get_recent_err_msg() == "runtime's own message"


def test_dvpp_memory_pairs_with_dvpp_free(real, acl):
    ptr, _ = acl.media.dvpp_malloc(1000)
    refused(real, acl, acl.rt.free(ptr), C.ACL_ERROR_RT_PARAM_INVALID, "acldvppFree")
    assert acl.media.dvpp_free(ptr) == 0
    assert real.calls[-1] == ("media.dvpp_free", (ptr,))


# ----- memset / memcpy -------------------------------------------------------------------
def test_count_beyond_max_or_beyond_the_block_is_refused(real, acl):
    dev, _ = acl.rt.malloc(100, 0)
    arr = np.zeros(256, np.uint8)
    src = acl.util.numpy_to_ptr(arr)
    h2d = C.ACL_MEMCPY_HOST_TO_DEVICE
    refused(real, acl, acl.rt.memcpy(dev, 100, src, 200, h2d), C.ACL_ERROR_RT_PARAM_INVALID,
            "larger than destMax 100")
    refused(real, acl, acl.rt.memcpy(dev, 256, src, 200, h2d), C.ACL_ERROR_RT_PARAM_INVALID,
            "100 B past the end", "Use at most 100 B")
    refused(real, acl, acl.rt.memset(dev + 50, 256, 0, 60), C.ACL_ERROR_RT_PARAM_INVALID,
            "10 B past the end")
    refused(real, acl, acl.rt.memset(dev, 10, 0, 60), C.ACL_ERROR_RT_PARAM_INVALID,
            "larger than maxCount 10")
    assert not {"rt.memcpy", "rt.memset"} & set(real.names())


def test_use_after_free_and_unknown_pointers_are_refused(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    other, _ = acl.rt.malloc(64, 0)
    acl.rt.free(dev)
    refused(real, acl, acl.rt.memcpy(other, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_DEVICE),
            C.ACL_ERROR_RT_PARAM_INVALID, "use-after-free", "freed by aclrtFree")
    refused(real, acl, acl.rt.memset(0x1234_5678, 64, 0, 64), C.ACL_ERROR_RT_PARAM_INVALID,
            "not inside any memory")
    assert "rt.memcpy" not in real.names() and "rt.memset" not in real.names()


def test_a_copy_with_a_contradicting_kind_reaches_the_runtime(real, acl):
    """Hardware copies by the addresses whatever the kind says (NpuDriver::MemCopySync)."""
    dev, _ = acl.rt.malloc(64, 0)
    host, _ = acl.rt.malloc_host(64)
    d2h = C.ACL_MEMCPY_DEVICE_TO_HOST
    assert acl.rt.memcpy(dev, 64, host, 64, d2h) == 0
    assert real.names()[-1] == "rt.memcpy"
    assert acl.rt.memcpy_async(dev, 64, host, 64, d2h, 0) == 0
    assert real.names()[-1] == "rt.memcpy_async"


def test_a_sync_2d_copy_with_a_contradicting_kind_is_refused(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    host, _ = acl.rt.malloc_host(64)
    refused(real, acl, acl.rt.memcpy2d(dev, 16, host, 16, 16, 4, C.ACL_MEMCPY_DEVICE_TO_HOST),
            C.ACL_ERROR_RT_PARAM_INVALID, "ACL_MEMCPY_DEVICE_TO_HOST does not match",
            "ACL_MEMCPY_HOST_TO_DEVICE")
    assert "rt.memcpy2d" not in real.names()


def test_async_copies_of_pinned_memory_need_64_byte_alignment(real, acl):
    dev, _ = acl.rt.malloc(256, 0)
    host, _ = acl.rt.malloc_host(256)
    h2d = C.ACL_MEMCPY_HOST_TO_DEVICE
    refused(real, acl, acl.rt.memcpy_async(dev + 32, 64, host, 64, h2d, 0),
            C.ACL_ERROR_RT_ADDR_UNALIGNED, "not 64-byte aligned")
    arr = np.zeros(256, np.uint8)
    pageable = acl.util.numpy_to_ptr(arr) + 8
    assert acl.rt.memcpy_async(dev, 64, pageable, 64, h2d, 0) == 0   # becomes a sync copy
    assert real.names("memcpy") == ["rt.memcpy_async"]


def test_overlapping_copies_and_async_memset_of_pageable_memory_are_refused(real, acl):
    dev, _ = acl.rt.malloc(256, 0)
    arr = np.zeros(64, np.uint8)
    arr_ptr = acl.util.numpy_to_ptr(arr)
    refused(real, acl, acl.rt.memcpy(dev + 64, 128, dev, 128, C.ACL_MEMCPY_DEVICE_TO_DEVICE),
            C.ACL_ERROR_RT_PARAM_INVALID, "overlap by 64 B")
    refused(real, acl, acl.rt.memset_async(arr_ptr, 64, 0, 64, 0), C.ACL_ERROR_RT_PARAM_INVALID,
            "pageable")


def test_memcpy2d_checks_the_rows_it_touches(real, acl):
    dev, _ = acl.rt.malloc(1000, 0)
    arr = np.zeros((10, 100), np.uint8)
    src = acl.util.numpy_to_ptr(arr)
    h2d = C.ACL_MEMCPY_HOST_TO_DEVICE
    assert acl.rt.memcpy2d(dev, 100, src, 100, 100, 10, h2d) == 0
    refused(real, acl, acl.rt.memcpy2d(dev, 128, src, 100, 100, 10, h2d),
            C.ACL_ERROR_RT_PARAM_INVALID, "past the end")
    assert real.names("memcpy") == ["rt.memcpy2d"]


# ----- host reads through acl.util -------------------------------------------------------
def test_ptr_to_numpy_of_device_memory_raises_instead_of_crashing(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    with pytest.raises(acl_lab.AclLabError) as e:
        acl.util.ptr_to_numpy(dev, (64,), U8)
    assert e.value.code == C.ACL_ERROR_INVALID_PARAM and "segmentation fault" in e.value.message
    with pytest.raises(acl_lab.AclLabError, match="crash the Python process") as e:
        acl.util.ptr_to_bytes(0xBAD0, 8)
    assert e.value.code == C.ACL_ERROR_RT_PARAM_INVALID
    assert "util.ptr_to_numpy" not in real.names() and "util.ptr_to_bytes" not in real.names()


def test_ptr_to_numpy_of_pinned_host_memory_reaches_pyacl(real, acl):
    host, _ = acl.rt.malloc_host(64)
    assert acl.util.ptr_to_numpy(host, (64,), U8).shape == (64,)
    with pytest.raises(acl_lab.AclLabError, match="past the end"):
        acl.util.ptr_to_numpy(host, (65,), U8)
    assert real.names("util.") == ["util.ptr_to_numpy"]


def test_in_device_run_mode_the_cpu_reads_device_memory(monkeypatch):
    fake = StandIn(run_mode=C.ACL_DEVICE)
    monkeypatch.setitem(sys.modules, "acl", fake)
    try:
        acl = acl_lab.load(backend="ascend")
        host, _ = acl.rt.malloc_host(64)    # ACL_DEVICE: "host" memory is device memory
        dev, _ = acl.rt.malloc(64, 0)
        assert acl.util.ptr_to_numpy(dev, (64,), U8).shape == (64,)
        assert acl.rt.memcpy(dev, 64, host, 64, C.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
        assert acl_lab.snapshot()["allocations"][0]["location"] == "device"
    finally:
        acl_lab.load(backend="sim")


def test_a_numpy_registration_ends_with_its_array(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    arr = np.zeros(64, np.uint8)
    ptr = acl.util.numpy_to_ptr(arr[16:])                  # a view: the whole buffer counts
    assert acl.rt.memcpy(dev, 64, ptr - 16, 64, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    del arr
    gc.collect()
    refused(real, acl, acl.rt.memcpy(dev, 48, ptr - 16, 48, C.ACL_MEMCPY_HOST_TO_DEVICE),
            C.ACL_ERROR_RT_PARAM_INVALID, "garbage-collected")


def test_registrations_of_dead_arrays_do_not_pile_up(real, acl):
    arrays = [np.zeros(8, np.uint8) for _ in range(3000)]
    for a in arrays:
        acl.util.numpy_to_ptr(a)
    del arrays, a
    fresh = [np.zeros(4096, np.uint8) for _ in range(200)]   # new addresses
    for a in fresh:
        acl.util.numpy_to_ptr(a)
    assert len(SESSION.ascend.guard.registry.entries) < 1000


def test_an_array_over_known_memory_is_not_registered_twice(real, acl):
    host, _ = acl.rt.malloc_host(64)
    real.numpy_address = host + 16        # pyACL hands back where the array's bytes are
    assert acl.util.numpy_to_ptr(np.zeros(8, np.uint8)) == host + 16
    assert [a["api"] for a in acl_lab.snapshot()["allocations"]] == ["malloc_host"]


# ----- messages, switching off -----------------------------------------------------------
def test_recent_error_message_is_the_guards_until_the_runtime_fails_again(real, acl):
    assert acl.rt.free(0x4000) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.synchronize_stream(0) == 0 and acl.rt.get_mem_info(C.ACL_HBM_MEM)[-1] == 0
    assert "0x4000" in acl.get_recent_err_msg()          # successes leave the message alone
    assert "0x4000" not in acl.get_recent_err_msg()      # read once, like aclGetRecentErrMsg
    assert acl.rt.free(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg() == "runtime's own message"


def test_snapshot_has_the_schema_every_backend_has(real, acl):
    acl.rt.malloc(64, 0)
    acl.rt.create_stream()
    assert mismatches(acl_lab.snapshot()) == []


def test_guard_off_lets_everything_through_but_keeps_the_registry(real, monkeypatch):
    monkeypatch.setenv("ACL_LAB_GUARD", "off")
    acl = acl_lab.load(backend="ascend")
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(0x4000) == 0 and real.calls[-1] == ("rt.free", (0x4000,))
    assert [a["ptr"] for a in acl_lab.snapshot()["allocations"]] == [dev]
    acl_lab.set_guard(True)
    assert acl.rt.free(0x4000) == C.ACL_ERROR_RT_PARAM_INVALID


# ----- lifetime: reset_device, finalize, acl_lab.reset -----------------------------------
def test_reset_device_releases_device_memory_when_the_last_reference_goes(real, acl, capsys):
    dev, _ = acl.rt.malloc(64, 0)
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.set_device(0) == 0 and acl.rt.reset_device(0) == 0
    assert len(acl_lab.snapshot()["allocations"]) == 2          # still one reference
    assert acl.rt.reset_device(0) == 0
    assert "1 allocation(s) never freed" in capsys.readouterr().err
    refused(real, acl, acl.rt.free(dev), C.ACL_ERROR_RT_PARAM_INVALID,
            "released by aclrtResetDevice(0)")
    assert acl.rt.free_host(host) == 0
    assert acl.finalize() == 0 and not acl_lab.snapshot()["initialized"]


def test_finalize_releases_host_memory_too(real, acl):
    host, _ = acl.rt.malloc_host(64)
    assert acl.finalize() == 0
    refused(real, acl, acl.rt.free_host(host), C.ACL_ERROR_RT_PARAM_INVALID,
            "released by aclFinalize")


def test_acl_lab_reset_gives_back_everything_with_the_matching_calls(real, acl):
    dev, _ = acl.rt.malloc(64, 0)
    host, _ = acl.rt.malloc_host(64)
    dvpp, _ = acl.media.dvpp_malloc(64)
    stream, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    acl.util.numpy_to_ptr(keep := np.zeros(4, np.uint8))
    real.calls.clear()
    acl_lab.reset()
    assert real.calls[:3] == [("rt.synchronize_stream", (stream,)),
                              ("rt.destroy_stream", (stream,)), ("rt.destroy_event", (event,))]
    assert sorted(real.calls[3:6]) == sorted([
        ("rt.free", (dev,)), ("rt.free_host", (host,)), ("media.dvpp_free", (dvpp,))])
    assert real.calls[6:] == [("rt.reset_device", (0,))]
    assert acl_lab.snapshot()["allocations"] == [] and len(keep) == 4
    assert acl.init() == 0                       # ACL stays initialised: no aclFinalize
    assert acl_lab.tracer().calls[0].name == "init"


# ----- snapshot --------------------------------------------------------------------------
def test_snapshot_shows_the_registry_and_real_free_memory(real, acl):
    dev, _ = acl.rt.malloc(100, 0)
    host, _ = acl.rt.malloc_host(100)
    stream, _ = acl.rt.create_stream()
    snap = acl_lab.snapshot()
    assert snap["backend"] == "ascend" and snap["run_mode"] == "ACL_HOST"
    assert [(a["ptr"], a["size"], a["footprint"], a["api"], a["location"], a["device"])
            for a in snap["allocations"]] == [
        (dev, 100, 160, "malloc", "device", 0), (host, 100, 100, "malloc_host", "host", None)]   # unrounded
    assert [(s["handle"], s["device"]) for s in snap["streams"]] == [(stream, 0)]
    pools = {p["label"]: p for p in snap["pools"]}
    assert set(pools) == {"HBM huge (device 0)", "HBM normal (device 0)",
                          "DDR huge (device 0)", "DDR normal (device 0)"}
    assert pools["HBM normal (device 0)"]["used"] == 100


def test_snapshot_asks_the_device_nothing_before_one_is_open(real):
    acl_lab.load(backend="ascend")
    assert acl_lab.snapshot()["pools"] == []
    assert "rt.get_device" not in real.names() and not real.names("get_mem_info")


def test_wrong_arguments_are_left_for_pyacl_to_judge(real, acl):
    acl.rt.memcpy(1, 2, 3)                  # pyACL raises its own TypeError for these
    acl.rt.free("not a pointer")
    assert real.calls == [("rt.memcpy", (1, 2, 3)), ("rt.free", ("not a pointer",))]


def test_snapshot_of_a_ddr_only_device_lists_ddr_once(monkeypatch):
    monkeypatch.setitem(sys.modules, "acl", StandIn(hbm=False))
    try:
        acl = acl_lab.load(backend="ascend")
        acl.rt.set_device(0)
        assert {p["kind"] for p in acl_lab.snapshot()["pools"]} == {"DDR"}
    finally:
        acl_lab.load(backend="sim")


# ----- same misuse, same code as the simulator --------------------------------------------
def _double_free(acl):
    p, _ = acl.rt.malloc(64, 0)
    acl.rt.free(p)
    return acl.rt.free(p)


def _free_host_of_device(acl):
    return acl.rt.free_host(acl.rt.malloc(64, 0)[0])


def _free_of_host(acl):
    return acl.rt.free(acl.rt.malloc_host(64)[0])


def _interior_free(acl):
    return acl.rt.free(acl.rt.malloc(64, 0)[0] + 32)


def _overrun(acl):
    src = np.zeros(128, np.uint8)
    return acl.rt.memcpy(acl.rt.malloc(64, 0)[0], 128, acl.util.numpy_to_ptr(src), 128,
                         C.ACL_MEMCPY_HOST_TO_DEVICE)


def _wrong_kind_2d(acl):
    return acl.rt.memcpy2d(acl.rt.malloc_host(64)[0], 16, acl.rt.malloc(64, 0)[0], 16, 16, 4,
                           C.ACL_MEMCPY_HOST_TO_DEVICE)


def _unaligned_async(acl):
    return acl.rt.memcpy_async(acl.rt.malloc(256, 0)[0] + 32, 64, acl.rt.malloc_host(64)[0], 64,
                               C.ACL_MEMCPY_HOST_TO_DEVICE, 0)


@pytest.mark.parametrize("misuse", [_double_free, _free_host_of_device, _free_of_host,
                                    _interior_free, _overrun, _wrong_kind_2d, _unaligned_async])
def test_the_guard_returns_the_simulators_code(real, misuse):
    codes = {}
    for backend in ("sim", "ascend"):
        acl = acl_lab.load(backend=backend)
        acl_lab.reset()
        acl.init()
        acl.rt.set_device(0)
        codes[backend] = misuse(acl)
    assert codes["sim"] == codes["ascend"] != 0


# ----- when pyACL or a device is missing -------------------------------------------------
def _unavailable(monkeypatch, module, env=None):
    monkeypatch.setitem(sys.modules, "acl", module)
    for var in ("ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH", "LD_LIBRARY_PATH"):
        monkeypatch.delenv(var, raising=False)
    for var, value in (env or {}).items():
        monkeypatch.setenv(var, value)
    with pytest.raises(ascend.BackendUnavailable) as e:
        acl_lab.load(backend="ascend")
    return str(e.value)


def test_without_pyacl_load_explains_what_is_missing_and_how_to_install(monkeypatch):
    text = _unavailable(monkeypatch, None)
    assert "`import acl` failed" in text and "not on PYTHONPATH" in text
    assert "ASCEND_TOOLKIT_HOME" in text and "CANN toolkit" in text
    assert "source /usr/local/Ascend/ascend-toolkit/set_env.sh" in text
    assert 'backend="sim"' in text
    assert isinstance(acl_lab.load(backend="sim"), object)        # the simulator still works


def test_a_toolkit_whose_libraries_are_not_on_the_path_is_named(monkeypatch):
    text = _unavailable(monkeypatch, None, {"ASCEND_TOOLKIT_HOME": "/opt/cann"})
    assert "LD_LIBRARY_PATH does not include /opt/cann" in text


@pytest.mark.parametrize("devices, ret, words", [
    (0, 0, "sees no Ascend NPU"),
    (0, C.ACL_ERROR_RT_NO_DEVICE, "ACL_ERROR_RT_NO_DEVICE"),
])
def test_without_a_device_load_says_so(monkeypatch, devices, ret, words):
    fake = StandIn(devices=devices)
    fake.rt.get_device_count = lambda: (devices, ret)
    text = _unavailable(monkeypatch, fake)
    assert words in text and "npu-smi info" in text


def test_an_acl_module_that_is_not_pyacl_is_recognised(monkeypatch):
    assert "is not pyACL" in _unavailable(monkeypatch, types.ModuleType("acl"))
