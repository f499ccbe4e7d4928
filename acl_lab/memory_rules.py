"""ACL's memory rules as data, shared by the simulator and the real-hardware guard: which
call frees what, what each allocator is called in C, which copy kinds exist and which
direction two pointers make. One table each, so both backends judge misuse alike."""
from __future__ import annotations

import numpy as np

from . import constants as C

H2H, H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)
DEFAULT, BUF_H2D = C.ACL_MEMCPY_DEFAULT, C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE
#: kinds aclrtMemcpy / aclrtMemcpyAsync accept (others: ACL_ERROR_INVALID_PARAM)
ACCEPTED_KINDS = (H2H, H2D, D2H, D2D, DEFAULT, BUF_H2D)
#: (source location, destination location) -> the copy's real direction
DIRECTION = {("host", "host"): H2H, ("host", "device"): H2D,
             ("device", "host"): D2H, ("device", "device"): D2D}
#: allocator -> the one call that frees it (the seeds' pairing rules)
FREED_BY = {"malloc": "free", "malloc_align32": "free", "malloc_cached": "free",
            "dvpp_malloc": "dvpp_free", "malloc_host": "free_host"}
_C_NAMES = {"malloc": "aclrtMalloc", "malloc_align32": "aclrtMallocAlign32",
            "malloc_cached": "aclrtMallocCached", "dvpp_malloc": "acldvppMalloc",
            "malloc_host": "aclrtMallocHost", "numpy": "acl.util.numpy_to_ptr",
            "bytes": "acl.util.bytes_to_ptr", "free": "aclrtFree", "free_host": "aclrtFreeHost",
            "dvpp_free": "acldvppFree"}
#: numpy type numbers acl.util.ptr_to_numpy accepts (np.dtype(np.float32).num == 11)
NPY_TYPES = {np.dtype(c).num: np.dtype(c) for c in np.typecodes["All"] if c not in "OMmVSU"}


def c_name(api: str) -> str:
    """The C name of a pyACL allocator / free call ("malloc_host" -> "aclrtMallocHost")."""
    return _C_NAMES.get(api, api)


def kind_name(kind: int) -> str:
    return C.MEMCPY_KIND_NAMES.get(kind, str(kind))


def root_array(arr: np.ndarray) -> np.ndarray:
    """The ndarray that owns ``arr``'s buffer, so views of one buffer share one registration."""
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr
