"""Helpers the simulator tests share: a fresh process per profile, reading memory back
wherever it lives, and what get_mem_info / snapshot() say about pools."""
from __future__ import annotations

import threading

import numpy as np

import acl_lab
from acl_lab import constants as C


def fresh(profile: str = "910b", device: bool = True):
    """A new simulated process on ``profile``: initialised, device 0 set (unless told not)."""
    acl_lab.reset(profile)
    acl = acl_lab.load(profile=profile)
    assert acl.init() == 0
    if device:
        assert acl.rt.set_device(0) == 0
    return acl


def device_buffer(acl, size: int = 256) -> int:
    """``size`` bytes of device memory (aclrtMalloc, HUGE_FIRST); the call must succeed."""
    ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0, acl.get_recent_err_msg()
    return ptr


def capture_status(acl, stream: int) -> int:
    """The capture status of ``stream`` (aclmdlRICaptureGetInfo); the query must succeed."""
    status, _model, ret = acl.mdl.ri_capture_get_info(stream)
    assert ret == 0, acl.get_recent_err_msg()
    return status


def model_entry(handle: int) -> dict:
    """The snapshot entry of the live model RI ``handle``: its tasks, executions, ..."""
    return next(m for m in acl_lab.snapshot()["models"] if m["handle"] == handle)


def allocation(ptr: int) -> dict:
    """The snapshot entry of the live allocation that starts at ``ptr``."""
    found = [a for a in acl_lab.snapshot()["allocations"] if a["ptr"] == ptr]
    assert found, f"0x{ptr:x} is not a live allocation"
    return found[0]


def read(acl, ptr: int, n: int) -> bytes:
    """``n`` bytes at ``ptr``: host memory directly, device memory through a D2H copy into a
    scratch malloc_host buffer (device memory can be read directly only in ACL_DEVICE mode)."""
    on_device = any(a["location"] == "device" and a["ptr"] <= ptr < a["ptr"] + a["size"]
                    for a in acl_lab.snapshot()["allocations"])
    if not on_device or acl.rt.get_run_mode()[0] == C.ACL_DEVICE:
        return acl.util.ptr_to_bytes(ptr, n)
    scratch, ret = acl.rt.malloc_host(n)
    assert ret == 0
    assert acl.rt.memcpy(scratch, n, ptr, n, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    data = acl.util.ptr_to_bytes(scratch, n)
    assert acl.rt.free_host(scratch) == 0
    return data


def write(acl, ptr: int, data: bytes) -> None:
    """Put ``data`` at ``ptr`` (host or device) with a synchronous DEFAULT-kind copy."""
    src = np.frombuffer(data, dtype=np.uint8).copy()
    assert acl.rt.memcpy(ptr, src.nbytes, acl.util.numpy_to_ptr(src), src.nbytes,
                         C.ACL_MEMCPY_DEFAULT) == 0


def free_bytes(acl, attr: int) -> int:
    free, _total, ret = acl.rt.get_mem_info(attr)
    assert ret == 0, acl.get_recent_err_msg()
    return free


def seed_align_up(length: int, k: int) -> int:
    """ALIGN_UP exactly as the seed writes it: ((len-1)/k+1)*k, for len >= 1."""
    return ((length - 1) // k + 1) * k


def tensor(acl, ptr: int, shape, dtype: int) -> int:
    """An aclTensor over ``ptr`` with C-contiguous strides, as the seed's CreateAclTensor makes."""
    shape = list(shape)
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    handle = acl.nn.create_tensor(shape, dtype, strides, 0, C.ACL_FORMAT_ND, shape, ptr)
    assert handle, acl.get_recent_err_msg()
    return handle


def run_in_thread(fn):
    """Run ``fn`` in a new thread and return what it returned (re-raising its failure)."""
    out = {}

    def body():
        try:
            out["value"] = fn()
        except BaseException as e:     # handed back to the test thread
            out["error"] = e
    t = threading.Thread(target=body)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def unchanged(call):
    """Run ``call`` (a refused one) and check the snapshot is what it was, clock aside."""
    before = acl_lab.snapshot()
    ret = call()
    after = acl_lab.snapshot()
    before.pop("now_us"), after.pop("now_us")
    assert after == before
    return ret


def refused(acl, ret, code, words=""):
    """``ret`` (a code, or a tuple ending in one) is ``code``, and the message says ``words``."""
    got = ret[-1] if isinstance(ret, tuple) else ret
    assert got == code, acl.get_recent_err_msg()
    msg = acl.get_recent_err_msg()
    assert msg and words in msg, msg
