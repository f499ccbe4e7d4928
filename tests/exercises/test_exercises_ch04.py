"""The checks of chapter 04 (those of 05-07: test_exercises_ch05_07.py): each passes with
the solution, and fails cleanly (a ❌, never an exception) with the placeholder ``...`` and
with a plausible wrong answer."""
import numpy as np

from acl_lab import constants as C
from acl_lab import exercises
from acl_lab.align import malloc_footprint
from acl_lab.exercises.ch04 import FOOTPRINT_SIZES

MiB = 1 << 20


def passes(exercise_id, *args):
    exercises.forget()                  # no start() of an earlier test is remembered
    result = exercises.check(exercise_id, *args)
    assert result.passed, result.message
    return result


def fails(exercise_id, *args, hint=None):
    """Fails with ``hint`` in its first (least specific) message."""
    exercises.forget()
    result = exercises.check(exercise_id, *args)
    assert not result.passed
    assert "❌" in repr(result)
    if hint is not None:
        assert hint in result.message, result.message
    return result


# ----- 04 -------------------------------------------------------------------------------
def test_04_1_footprints(acl):
    sizes = FOOTPRINT_SIZES
    passes("04.1", [malloc_footprint(s) for s in sizes])
    fails("04.1", ...)
    fails("04.1", list(sizes), hint=f"aclrtMalloc({sizes[0]}) takes 64 B")   # the size asked
    fails("04.1", [64], hint="one drop per size")


def test_04_2_which_attribute(acl):
    ptr, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    passes("04.2", ptr, C.ACL_HBM_MEM_HUGE)
    fails("04.2", ..., ...)
    fails("04.2", ptr, C.ACL_HBM_MEM, hint="sums several pools")
    fails("04.2", ptr, C.ACL_HBM_MEM_NORMAL, hint="HBM huge (device 0)")
    small, _ = acl.rt.malloc(100, C.ACL_MEM_MALLOC_HUGE_FIRST)
    fails("04.2", small, C.ACL_HBM_MEM_NORMAL, hint="exactly 3 MiB")
    acl.rt.free(ptr)
    fails("04.2", ptr, C.ACL_HBM_MEM_HUGE, hint="not a live allocation")


def test_04_2_follows_the_profile(acl_on):
    acl = acl_on("310")
    ptr, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    passes("04.2", ptr, C.ACL_DDR_MEM_HUGE)
    fails("04.2", ptr, C.ACL_HBM_MEM_HUGE)


def _board_copy(acl, kind=C.ACL_MEMCPY_DEVICE_TO_DEVICE):
    host, _ = acl.rt.malloc_host(64)
    acl.util.ptr_to_numpy(host, (64,), np.dtype(np.uint8).num)[:] = np.arange(64, dtype=np.uint8)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(dev, 64, host, 64, kind)
    return host, dev


def test_04_3_board_copy(acl_on):
    acl = acl_on("200dk")
    host, dev = _board_copy(acl)
    passes("04.3", acl, host, dev)
    fails("04.3", acl, ..., ...)
    fails("04.3", acl, dev, host, hint="malloc_host")
    dev2, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)        # no copy: garbage
    fails("04.3", acl, host, dev2, hint="should hold 0, 1, ..., 63")
    _, dev3 = _board_copy(acl, kind=C.ACL_MEMCPY_HOST_TO_DEVICE)   # the addresses decide
    passes("04.3", acl, host, dev3)


def test_04_3_needs_the_board(acl):
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    fails("04.3", acl, host, dev, hint='exercises.start("04.3", acl)')
