"""How the facade reads an int argument: as C would receive it. A non-int is a TypeError
(pyACL's argument parsing); an int that does not fit the C type is ACL_ERROR_INVALID_PARAM.
Every facade namespace (acl_lab/sim/api.py, the rooms' calls) parses with these."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.errors import as_int, check_unsigned
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError

_U64 = 1 << 64
_I64_MIN = -(1 << 63)


def int_arg(call: str, name: str, value) -> int:
    """An int argument as C would receive it: TypeError for non-ints, SimError if out of range."""
    if value.__class__ is int and _I64_MIN <= value < _U64:   # nearly every call
        return value
    v = as_int(call, name, value)
    if not _I64_MIN <= v < _U64:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: {name}={value} does not fit in 64 bits.").format(
                           call=call, name=name, value=v))
    return v


def size_arg(call: str, name: str, value) -> int:
    if value.__class__ is int and 0 <= value < _U64:   # nearly every call
        return value
    v = int_arg(call, name, value)
    check_unsigned(call, **{name: v})
    return v


ptr_arg = size_arg   # pointers, handles and sizes are all unsigned 64-bit values in C


def _bounded(low: int, high: int, ctype: str):
    def check(call: str, name: str, value) -> int:
        v = int_arg(call, name, value)
        if not low <= v < high:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {name}={value} does not fit in {ctype}.").format(
                               call=call, name=name, value=v, ctype=ctype))
        return v
    return check


i32 = _bounded(-(1 << 31), 1 << 31, "int32_t")   # pyACL parses these with "i"
i64 = _bounded(_I64_MIN, -_I64_MIN, "int64_t")    # dims ("L")
u32 = _bounded(0, 1 << 32, "uint32_t")           # and these with "I"
u64 = _bounded(0, _U64, "uint64_t")


def out_of_range_code(c_name: str) -> int:
    """The code a C function of ACL gives an argument value it cannot take: the runtime's
    own (aclrt*, aclmdlRI*: ACL_ERROR_RT_PARAM_INVALID, errcode_manage.cc), aclnn's
    (ACLNN_ERR_PARAM_INVALID), else ACL's ACL_ERROR_INVALID_PARAM."""
    if c_name.startswith(("aclrt", "aclmdlRI")):
        return C.ACL_ERROR_RT_PARAM_INVALID
    if c_name.startswith("aclnn"):
        return C.ACLNN_ERR_PARAM_INVALID
    return C.ACL_ERROR_INVALID_PARAM
