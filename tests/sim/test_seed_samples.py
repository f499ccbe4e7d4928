"""The sample programs of seed 000 (AscendCL quick start, memory management), translated line
by line to Python with acl_lab. Each prints the seed's INFO_LOG / ERROR_LOG lines; the tests
check that a learner running them on the simulator sees what the seed says they will."""
from __future__ import annotations

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import PROFILES


def INFO_LOG(fmt, *args):
    print("[INFO] " + fmt % args)


def ERROR_LOG(fmt, *args):
    print("[ERROR] " + fmt % args)


def _init(acl):
    INFO_LOG("AscendCL Hello World.")
    ret = acl.init("")
    if ret not in (C.ACL_SUCCESS, C.ACL_ERROR_REPEAT_INITIALIZE):
        ERROR_LOG("AscendCL init failed.")
    else:
        INFO_LOG("AscendCL init success.")


def _release(acl):
    ret = acl.rt.reset_device(0)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AclrtSetDevice failed %d.", ret)
        return
    ret = acl.finalize()
    if ret not in (C.ACL_SUCCESS, C.ACL_ERROR_REPEAT_FINALIZE):
        ERROR_LOG("Finalize AscendCL failed.")
    INFO_LOG("End to finalize AscendCL.")


def host_memory_sample(acl):
    """aclrtMallocHost / aclrtFreeHost."""
    _init(acl)
    ret = acl.rt.set_device(0)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AclrtSetDevice failed %d.", ret)
        return
    host_input, ret = acl.rt.malloc_host(256)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL HostMem Malloc failed %d .", ret)
    else:
        INFO_LOG("AscendCL HostMem Malloc success .")
    if host_input:
        ret = acl.rt.free_host(host_input)
        if ret != C.ACL_SUCCESS:
            ERROR_LOG("AscendCL HostMem Free failed %d .", ret)
        else:
            INFO_LOG("AscendCL HostMem Free success .")
    _release(acl)


def device_memory_sample(acl):
    """aclrtMalloc (HUGE_FIRST) / aclrtFree."""
    _init(acl)
    ret = acl.rt.set_device(0)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AclrtSetDevice failed %d.", ret)
        return
    INFO_LOG("Set device 0 success.")
    dev_input, ret = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL DeviceMem Malloc failed %d.", ret)
    else:
        INFO_LOG("AscendCL DeviceMem Malloc success.")
    if dev_input:
        ret = acl.rt.free(dev_input)
        if ret != C.ACL_SUCCESS:
            ERROR_LOG("AscendCL DeviceMem Free failed.")
        else:
            INFO_LOG("AscendCL DeviceMem Free success.")
    _release(acl)


def memset_memcpy_sample(acl):
    """Both sides allocated, memset on each, one host-to-device copy, both freed.

    (The seed's C ignores aclrtMemcpy's return value and tests the memset's; here the copy's
    own return value is tested.)"""
    _init(acl)
    ret = acl.rt.set_device(0)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AclrtSetDevice failed %d.", ret)
        return
    size_input = 256
    host_input, ret = acl.rt.malloc_host(size_input)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL HostMem Malloc failed.")
    else:
        INFO_LOG("AscendCL HostMem Malloc success.")
    dev_input, ret = acl.rt.malloc(size_input, C.ACL_MEM_MALLOC_HUGE_FIRST)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL DeviceMem Malloc failed %d.", ret)
    else:
        INFO_LOG("AscendCL DeviceMem Malloc success .")
    ret = acl.rt.memset(host_input, size_input, 1, size_input)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL HostMem Memset failed %d.", ret)
    else:
        INFO_LOG("AscendCL HostMem Memset success.")
    ret = acl.rt.memset(dev_input, size_input, 0, size_input)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL DeviceMem Memset failed %d.", ret)
    else:
        INFO_LOG("AscendCL DeviceMem Memset success.")
    ret = acl.rt.memcpy(dev_input, size_input, host_input, size_input,
                        C.ACL_MEMCPY_HOST_TO_DEVICE)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL Memcopy Host to Device failed %d.", ret)
    else:
        INFO_LOG("AscendCL Memcopy Host to Device success.")
    if host_input:
        ret = acl.rt.free_host(host_input)
        if ret != C.ACL_SUCCESS:
            ERROR_LOG("AscendCL HostMem Free failed %d.", ret)
        else:
            INFO_LOG("AscendCL HostMem Free success.")
    if dev_input:
        ret = acl.rt.free(dev_input)
        if ret != C.ACL_SUCCESS:
            ERROR_LOG("AscendCL DeviceMem Free failed %d.", ret)
        else:
            INFO_LOG("AscendCL DeviceMem Free success.")
    _release(acl)


def mem_info_sample(acl):
    """aclrtGetMemInfo(ACL_DDR_MEM): available and total DDR memory."""
    _init(acl)
    ret = acl.rt.set_device(0)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AclrtSetDevice failed %d.", ret)
        return
    free_mem, total_mem, ret = acl.rt.get_mem_info(C.ACL_DDR_MEM)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL GetMemInfo failed %d.", ret)
        return
    INFO_LOG("available memory: %d", free_mem)
    INFO_LOG("total memory: %d", total_mem)
    _release(acl)


def run_mode_sample(acl):
    """aclrtGetRunMode, used as seed 004 does: is the software stack on the device?"""
    _init(acl)
    ret = acl.rt.set_device(0)
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AclrtSetDevice failed %d.", ret)
        return
    run_mode, ret = acl.rt.get_run_mode()
    if ret != C.ACL_SUCCESS:
        ERROR_LOG("AscendCL GetRunMode failed %d.", ret)
        return
    INFO_LOG("run mode: %s", C.RUN_MODE_NAMES[run_mode])
    is_device = run_mode == C.ACL_DEVICE
    INFO_LOG("data transfer needs host memory: %s", "no" if is_device else "yes")
    _release(acl)


HELLO = ["[INFO] AscendCL Hello World.", "[INFO] AscendCL init success."]
BYE = ["[INFO] End to finalize AscendCL."]


@pytest.fixture
def run(bare_acl, capsys):
    """Run a sample on a fresh process; its printed lines, checking it left nothing behind."""
    def run_sample(sample, profile="910b"):
        acl_lab.reset(profile)
        capsys.readouterr()
        sample(bare_acl)
        out = capsys.readouterr()
        assert out.err == ""                    # no leak reports
        snap = acl_lab.snapshot()
        assert snap["allocations"] == [] and snap["contexts"] == []
        return out.out.splitlines()
    return run_sample


def test_host_memory_sample(run):
    assert run(host_memory_sample) == HELLO + [
        "[INFO] AscendCL HostMem Malloc success .",
        "[INFO] AscendCL HostMem Free success .",
    ] + BYE


def test_device_memory_sample(run):
    assert run(device_memory_sample) == HELLO + [
        "[INFO] Set device 0 success.",
        "[INFO] AscendCL DeviceMem Malloc success.",
        "[INFO] AscendCL DeviceMem Free success.",
    ] + BYE


def test_memset_memcpy_sample(run):
    assert run(memset_memcpy_sample) == HELLO + [
        "[INFO] AscendCL HostMem Malloc success.",
        "[INFO] AscendCL DeviceMem Malloc success .",
        "[INFO] AscendCL HostMem Memset success.",
        "[INFO] AscendCL DeviceMem Memset success.",
        "[INFO] AscendCL Memcopy Host to Device success.",
        "[INFO] AscendCL HostMem Free success.",
        "[INFO] AscendCL DeviceMem Free success.",
    ] + BYE


@pytest.mark.parametrize("profile", ["310", "910b"])
def test_mem_info_sample_reports_all_ddr_free_on_a_fresh_device(run, profile):
    ddr = sum(p.size for p in PROFILES[profile].pools if p.kind == "DDR" and not p.p2p
              and p.page in ("huge", "normal"))
    assert run(mem_info_sample, profile) == HELLO + [
        f"[INFO] available memory: {ddr}",
        f"[INFO] total memory: {ddr}",
    ] + BYE


@pytest.mark.parametrize("profile, mode, host_needed", [
    ("910b", "ACL_HOST", "yes"), ("310", "ACL_HOST", "yes"), ("310p", "ACL_HOST", "yes"),
    ("200dk", "ACL_DEVICE", "no")])
def test_run_mode_sample(run, profile, mode, host_needed):
    assert run(run_mode_sample, profile) == HELLO + [
        f"[INFO] run mode: {mode}",
        f"[INFO] data transfer needs host memory: {host_needed}",
    ] + BYE


def test_a_failing_step_prints_the_seed_error_line(run):
    """The samples' error branches work too: a device that does not exist."""
    def bad_device(acl):
        _init(acl)
        ret = acl.rt.set_device(99)
        if ret != C.ACL_SUCCESS:
            ERROR_LOG("AclrtSetDevice failed %d.", ret)
    assert run(bad_device) == HELLO + [
        f"[ERROR] AclrtSetDevice failed {C.ACL_ERROR_RT_INVALID_DEVICEID}."]
