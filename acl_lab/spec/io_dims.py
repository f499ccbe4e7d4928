"""aclmdlIODims as pyACL hands it over: a dict ``{"name", "dimCount", "dims"}``, written and
read in this one place (acl.mdl.get_input_dims and its kin return one; set_input_dynamic_dims
takes one; get_input_dynamic_dims returns a list of them).

Reading follows pyACL's WrapAclMdlSetInputDynamicDims (hicann/runtime python/pyACL/mdl/
mdl_wrap.cpp): a non-dict, a "dimCount" that is not an int, "dims" that is not a list or has
fewer than "dimCount" ints, a "name" that is not a str are TypeErrors as there; an int that
does not fit int64 is a ValueError. pyACL copies "dimCount" values into the struct's
ACL_MAX_DIM_CNT slots without a bound, writing past it for a larger count: here that is a
ValueError too, which names the limit.
"""
from __future__ import annotations

from acl_lab.i18n import _

ACL_MAX_DIM_CNT = 128          # acl_base.h: slots of aclmdlIODims.dims
ACL_MAX_TENSOR_NAME_LEN = 128  # acl_base.h: bytes of aclmdlIODims.name
_I64 = 1 << 63


def io_dims(name: str, dims) -> dict:
    """The dict pyACL returns for an aclmdlIODims."""
    dims = list(dims)
    return {"name": name, "dimCount": len(dims), "dims": dims}


def parse_io_dims(call: str, value) -> tuple[str, tuple]:
    """(name, dims) of the aclmdlIODims dict ``value`` a program passes to ``call``."""
    if not isinstance(value, dict):
        raise TypeError(_("{call}: dims must be a dict {{'name', 'dimCount', 'dims'}} "
                          "(aclmdlIODims), not {type}").format(call=call,
                                                               type=type(value).__name__))
    count = value.get("dimCount")
    if not isinstance(count, int):
        raise TypeError(_("{call}: dims['dimCount'] must be an int, not {type}").format(
            call=call, type=type(count).__name__))
    if not 0 <= count <= ACL_MAX_DIM_CNT:
        raise ValueError(_("{call}: dims['dimCount'] is {count}; an aclmdlIODims holds 0 to "
                           "ACL_MAX_DIM_CNT ({most}) dims, and pyACL would write past "
                           "it.").format(call=call, count=count, most=ACL_MAX_DIM_CNT))
    name = value.get("name", "")
    if not isinstance(name, str):
        raise TypeError(_("{call}: dims['name'] must be a str, not {type}").format(
            call=call, type=type(name).__name__))
    dims = value.get("dims")
    if not isinstance(dims, list):
        raise TypeError(_("{call}: dims['dims'] must be a list of int, not {type}").format(
            call=call, type=type(dims).__name__))
    if len(dims) < count or any(not isinstance(d, int) for d in dims[:count]):
        raise TypeError(_("{call}: dims['dims'] must hold dimCount={count} ints; it holds "
                          "{dims}").format(call=call, count=count, dims=repr(dims[:count])))
    if any(not -_I64 <= d < _I64 for d in dims[:count]):
        raise ValueError(_("{call}: a value of dims['dims'] does not fit int64_t").format(
            call=call))
    return (name.encode()[:ACL_MAX_TENSOR_NAME_LEN].decode(errors="ignore"),
            tuple(int(d) for d in dims[:count]))
