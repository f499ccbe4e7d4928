"""The rest of an aclTensorDesc: its storage format and shape, the origin format and shape,
dynamic-input name, shape and value ranges, placement, the device address an operator's
description carries, and descriptions handed out as one array.

Semantics as hicann/ge implements them (api/acl/.../tensor_desc_internal_om2.cpp and
tensor_desc_internal.cpp): the origin format and shape are what aclGetTensorDescFormat and
aclGetTensorDescDim read; the storage ones are kept beside them; a NULL description is a
no-op for the two format setters (``if (desc != nullptr)``) and ACL_ERROR_INVALID_PARAM for
the others; aclTransTensorDescFormat is a reserved call, not supported (the om2 runtime
returns ACL_ERROR_API_NOT_SUPPORT; the CANN reference: "本接口为预留接口，暂不支持").
A description that is not live (destroyed, never created) is refused as the other
tensor-description calls refuse it: on hardware those calls read or write freed memory.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError

RANGE_LIMIT = 4096         # py_init_acl.cpp WrapAclGetTensorDescDimRange: dimRangeNum bound


def _desc(rt, handle: int, call: str):
    return rt.single_ops.desc(handle, call)


def set_format(rt, handle: int, fmt: int, storage: bool) -> None:
    """aclSetTensorStorageFormat / aclSetTensorOriginFormat: NULL is accepted and ignored."""
    if handle == 0:
        return
    call = "aclSetTensorStorageFormat" if storage else "aclSetTensorOriginFormat"
    d = _desc(rt, handle, call)
    if storage:
        d.extras["storage_format"] = fmt
    else:
        d.fmt = fmt


def set_shape(rt, handle: int, dims: tuple, storage: bool) -> None:
    call = "aclSetTensorStorageShape" if storage else "aclSetTensorOriginShape"
    d = _desc(rt, handle, call)
    if storage:
        d.extras["storage_shape"] = list(dims)
    else:
        d.dims = tuple(dims)


def set_entry(rt, handle: int, key: str, value, call: str) -> None:
    """A field the description only keeps: dynamic input name, placement, ranges."""
    _desc(rt, handle, call).extras[key] = value


def dim_range(rt, handle: int, index: int, count: int) -> list:
    """aclGetTensorDescDimRange, as pyACL returns it: a list of ``count`` values whose first
    two are the range of dimension ``index`` (the rest of pyACL's buffer reads 0)."""
    call = "aclGetTensorDescDimRange"
    if count > RANGE_LIMIT:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: dim_range_num {count} is larger than {limit}.").format(
                           call=call, count=count, limit=RANGE_LIMIT))
    ranges = _desc(rt, handle, call).extras.get("shape_range", [])
    if index >= len(ranges):
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: index {index} is out of range: the description has {count} "
                         "shape range(s) (acl.set_tensor_shape_range sets them).").format(
                           call=call, index=index, count=len(ranges)))
    if count < 2:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: dim_range_num {count} cannot be less than 2 (a range is "
                         "[min, max]).").format(call=call, count=count))
    return list(ranges[index]) + [0] * (count - 2)


def address(rt, handle: int) -> int:
    """aclGetTensorDescAddress: the device address an operator's description carries; 0 for
    one a program created."""
    return _desc(rt, handle, "aclGetTensorDescAddress").extras.get("address", 0)


def by_index(rt, handle: int, index: int) -> int:
    """aclGetTensorDescByIndex: element ``index`` of the array ``handle`` starts (ACL does the
    pointer arithmetic; past the array's end it hands out memory that is no description:
    refused here with NULL)."""
    call = "aclGetTensorDescByIndex"
    d = _desc(rt, handle, call)
    array = d.extras.get("array", (handle,))
    if index >= len(array):
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: index {index} is past the end of the array {handle} starts, "
                         "which holds {count} description(s).").format(
                           call=call, index=index, handle=f"0x{handle:x}", count=len(array)))
    return array[index]


def register_array(rt, handles: tuple, addresses: tuple = ()) -> None:
    """Descriptions a call hands out as one array (an operator's inputs): each knows the
    array, and where given its device address (for aclGetTensorDescByIndex / ...Address)."""
    for i, h in enumerate(handles):
        e = rt.single_ops.descs[h].extras
        e["array"] = tuple(handles[i:])
        if i < len(addresses):
            e["address"] = addresses[i]


def trans_format(rt, handle: int, fmt: int) -> int:
    raise SimError(C.ACL_ERROR_API_NOT_SUPPORT,
                   _("{call}: this is a reserved call that ACL does not support yet (the CANN "
                     "reference says so; the runtime returns ACL_ERROR_API_NOT_SUPPORT). Create "
                     "the description in the format you need with "
                     "acl.create_tensor_desc.").format(call="aclTransTensorDescFormat"))
