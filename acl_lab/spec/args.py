"""How a call reads its arguments: as C would receive them.

A non-int where C takes an int is a TypeError (pyACL's argument parsing); an int that does
not fit the C type is ACL_ERROR_INVALID_PARAM, explained. The facade declares each
argument's reader as an annotation (``size: args.size``, ``stream: args.ptr``) and the one
call wrapper (sim/facade/_call.py) reads them; ``reader.named("cName")`` names the C
parameter in messages where it is not the Python name in camelCase.
"""
from __future__ import annotations

import os

from acl_lab import constants as C
from acl_lab.spec.refusal import Refusal as SimError, as_int, check_unsigned
from acl_lab.i18n import _

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


i32_arg = _bounded(-(1 << 31), 1 << 31, "int32_t")   # pyACL parses these with "i"
i64_arg = _bounded(_I64_MIN, -_I64_MIN, "int64_t")    # one dim of a description
u32_arg = _bounded(0, 1 << 32, "uint32_t")           # and these with "I"
u64_arg = _bounded(0, _U64, "uint64_t")
u8_arg = _bounded(0, 1 << 8, "unsigned char")       # pyACL's "b" (an int8_t switch)
i16_arg = _bounded(-(1 << 15), 1 << 15, "int16_t")   # pyACL's "h"


def out_of_range_code(c_name: str) -> int:
    """The code a C function of ACL gives an argument value it cannot take: the runtime's
    own (aclrt*, aclmdlRI*: ACL_ERROR_RT_PARAM_INVALID, errcode_manage.cc), aclnn's
    (ACLNN_ERR_PARAM_INVALID), else ACL's ACL_ERROR_INVALID_PARAM."""
    if c_name.startswith(("aclrt", "aclmdlRI")):
        return C.ACL_ERROR_RT_PARAM_INVALID
    if c_name.startswith("aclnn"):
        return C.ACLNN_ERR_PARAM_INVALID
    return C.ACL_ERROR_INVALID_PARAM


def ints_arg(call: str, name: str, values) -> tuple:
    """A C array of int64 (dims, strides): a sequence of ints, or one int."""
    if isinstance(values, int) or hasattr(values, "__index__"):
        values = (values,)
    try:
        return tuple(int_arg(call, name, v) for v in values)
    except TypeError:
        raise TypeError(f"{call}: {name} must be a sequence of ints") from None


def pairs_arg(call: str, name: str, values) -> tuple:
    """A C array of [min, max] int64 pairs (shape and value ranges): a list of lists of two
    ints, as pyACL's ConvertPyListToLongLongArrayV2 reads it."""
    if not isinstance(values, list):
        raise TypeError(f"{call}: {name} must be a list of [min, max] lists")
    pairs = []
    for pair in values:
        if not isinstance(pair, list) or len(pair) < 2:
            raise TypeError(f"{call}: {name} must be a list of [min, max] lists")
        pairs.append((int_arg(call, name, pair[0]), int_arg(call, name, pair[1])))
    return tuple(pairs)


def handles_arg(call: str, name: str, values) -> tuple:
    """A Python list of handles (descs, data buffers), as pyACL turns it into a C array."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{call}: {name} must be a list, not {type(values).__name__}")
    return tuple(ptr_arg(call, name, v) for v in values)


def text_arg(call: str, name: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{call}: {name} must be a str, not {type(value).__name__}")
    return value


def path_arg(call: str, name: str, value):
    """pyACL parses a path as a str (a PathLike is taken as its str)."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{call}: {name} must be a str, not {type(value).__name__}")
    return os.fspath(value)


def function_arg(call: str, name: str, value):
    if not callable(value):
        raise TypeError(f"{call}: {name} must be a Python function, not "
                        f"{type(value).__name__}")
    return value


def number_arg(call: str, name: str, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(
            value, "__float__"):
        raise TypeError(f"{call}: {name} must be a number, not {type(value).__name__}")
    return value


class Reader:
    """One argument's reader for the call wrapper: ``reader(call, name, value)``."""
    __slots__ = ("read", "c_name")

    def __init__(self, read, c_name: str | None = None):
        self.read, self.c_name = read, c_name

    def __call__(self, call: str, name: str, value):
        return self.read(call, name, value)

    def named(self, c_name: str) -> "Reader":
        """The same reader, naming the C parameter ``c_name`` in its messages."""
        return Reader(self.read, c_name)

    def __repr__(self) -> str:
        return f"args.{self.read.__name__.removesuffix('_arg')}" + (
            f".named({self.c_name!r})" if self.c_name else "")


# the annotations a facade method gives its arguments
i32, u32, u64 = Reader(i32_arg), Reader(u32_arg), Reader(u64_arg)
u8, i16 = Reader(u8_arg), Reader(i16_arg)
i64 = Reader(int_arg)            # int64_t, C enums and other signed ints pyACL reads as "l"
size = Reader(size_arg)          # size_t
ptr = Reader(ptr_arg)            # a pointer or handle: unsigned 64 bits
ints = Reader(ints_arg)          # const int64_t *dims, with its count
handles = Reader(handles_arg)    # an array of handles
pairs = Reader(pairs_arg)        # int64_t range[][2]: shape and value ranges
text = Reader(text_arg)          # const char *
path = Reader(path_arg)          # const char *path
function = Reader(function_arg)  # a Python callable (callbacks)
number = Reader(number_arg)      # a float or int value

__all__ = ["int_arg", "size_arg", "ptr_arg", "i32_arg", "i64_arg", "u32_arg", "u64_arg", "u8_arg",
           "i16_arg", "ints_arg", "handles_arg", "pairs_arg", "text_arg", "path_arg",
           "function_arg", "number_arg", "Reader", "out_of_range_code",
           "i32", "u32", "u64", "u8", "i16", "i64", "size", "ptr", "ints", "handles", "pairs",
           "text", "path",
           "function", "number"]
