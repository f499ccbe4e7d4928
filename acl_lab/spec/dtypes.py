"""aclDataType facts in one table: the numpy type of each (aclnn operators, single operators,
offline models, the native bindings), its size (aclDataTypeSize), its name; and pyACL's numpy
type numbers (``acl.util.ptr_to_numpy``'s ``npy_type``)."""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C

#: the aclDataType values that have a numpy type of the same layout (acl_base.h)
NUMPY = {C.ACL_FLOAT: np.float32, C.ACL_FLOAT16: np.float16, C.ACL_DOUBLE: np.float64,
         C.ACL_INT8: np.int8, C.ACL_UINT8: np.uint8, C.ACL_INT16: np.int16,
         C.ACL_UINT16: np.uint16, C.ACL_INT32: np.int32, C.ACL_UINT32: np.uint32,
         C.ACL_INT64: np.int64, C.ACL_UINT64: np.uint64, C.ACL_BOOL: np.bool_}

#: numpy's type numbers (``np.dtype(np.float32).num``), as pyACL's ptr_to_numpy takes them
NPY_TYPES = {np.dtype(c).num: np.dtype(c) for c in np.typecodes["All"] if c not in "OMmVSU"}

_ONE = (C.ACL_BOOL, C.ACL_INT8, C.ACL_UINT8, C.ACL_HIFLOAT8, C.ACL_FLOAT8_E5M2,
        C.ACL_FLOAT8_E4M3FN, C.ACL_FLOAT8_E8M0, C.ACL_UINT1, C.ACL_INT4)
_TWO = (C.ACL_FLOAT16, C.ACL_INT16, C.ACL_UINT16, C.ACL_BF16)
_FOUR = (C.ACL_FLOAT, C.ACL_INT32, C.ACL_UINT32, C.ACL_COMPLEX32)


def size(code: int) -> int:
    """aclDataTypeSize: bytes per element; 0 for STRING / UNDEFINED, 8 for anything else
    not listed (the C switch's default)."""
    if code in (C.ACL_STRING, C.ACL_DT_UNDEFINED):
        return 0
    if code == C.ACL_COMPLEX128:
        return 16
    return 1 if code in _ONE else 2 if code in _TWO else 4 if code in _FOUR else 8


def name(code: int) -> str:
    """``ACL_FLOAT`` for 0; the number itself for a value acl_base.h does not name."""
    return C.DATA_TYPE_NAMES.get(code, str(code))
