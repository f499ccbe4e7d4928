"""Which SoC has which of the runtime's optional task features, by the runtime's own tables.

hicann/runtime src/runtime/config/<chip>/dev_info_reg.cc lists each chip's
RtOptionalFeatureType entries and properties: 910_B_93 (Ascend 910B) has
RT_FEATURE_TASK_VALUE_WAIT (aclrtValueWrite / Wait), RT_FEATURE_TASK_CMO (aclrtCmoAsync),
RT_FEATURE_IPC_MEMORY (aclrtIpcMem*) and STARS (isStars: the memcpy descriptor calls,
rtsGetMemcpyDescSize); dc (Ascend 310P) has IPC memory only; mini_v3 (Ascend 310B) has
STARS only; mini (Ascend 310) none. A call whose feature the chip lacks returns
ACL_ERROR_RT_FEATURE_NOT_SUPPORT. aclrtReduceAsync's data types are the CANN API
reference's per product (reduce_async, "type"): Atlas A2 int8, int16, int32, uint32, fp16,
fp32, bf16; Atlas inference (310P) fp32, fp16, int16; Atlas 200/300/500 and 200I/500 A2 none.
"""
from __future__ import annotations

from acl_lab import constants as C

STARS, CMO, VALUE_WAIT, IPC = "stars", "cmo", "value_wait", "ipc"

#: SoC name prefix -> its features; the longest matching prefix decides
FEATURES = {
    "Ascend910B": {STARS, CMO, VALUE_WAIT, IPC},
    "Ascend310P": {IPC},
    "Ascend310B": {STARS},
    "Ascend310": set(),
}
REDUCE_TYPES = {
    "Ascend910B": (C.ACL_INT8, C.ACL_INT16, C.ACL_INT32, C.ACL_UINT32, C.ACL_FLOAT16,
                   C.ACL_FLOAT, C.ACL_BF16),
    "Ascend310P": (C.ACL_FLOAT, C.ACL_FLOAT16, C.ACL_INT16),
}
MEMCPY_DESC_SIZE = 32       # MEMCPY_DESC_SIZE_V1 (device_properties.h) on these chips


def _entry(table: dict, soc_name: str, default):
    for prefix in sorted(table, key=len, reverse=True):
        if soc_name.startswith(prefix):
            return table[prefix]
    return default


def has(soc_name: str, feature: str) -> bool:
    return feature in _entry(FEATURES, soc_name, set())


def reduce_types(soc_name: str) -> tuple:
    """The aclDataType values aclrtReduceAsync takes on ``soc_name`` (empty: no reduce)."""
    return _entry(REDUCE_TYPES, soc_name, ())
