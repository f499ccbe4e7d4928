"""aclDataType and numpy: one table for every room that turns device bytes into arrays
(aclnn operators, single operators), and the name a message shows for a type."""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C

#: the aclDataType values that have a numpy type of the same layout (acl_base.h)
NUMPY = {C.ACL_FLOAT: np.float32, C.ACL_FLOAT16: np.float16, C.ACL_DOUBLE: np.float64,
         C.ACL_INT8: np.int8, C.ACL_UINT8: np.uint8, C.ACL_INT16: np.int16,
         C.ACL_UINT16: np.uint16, C.ACL_INT32: np.int32, C.ACL_UINT32: np.uint32,
         C.ACL_INT64: np.int64, C.ACL_UINT64: np.uint64, C.ACL_BOOL: np.bool_}


def name(code: int) -> str:
    """``ACL_FLOAT`` for 0; the number itself for a value acl_base.h does not name."""
    return C.DATA_TYPE_NAMES.get(code, str(code))
