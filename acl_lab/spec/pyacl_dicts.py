"""How pyACL reads a C struct from a Python dict, and an array of them from a list.

pyACL's helpers (python/pyACL/utils_methods.h, utils_methods.cpp): ``CHECK_STRUCT_DICT``
raises TypeError for an entry that is not a dict; ``GetValueFromPyDict`` leaves a field at
its default (0) when the key is missing or its value is not an int, and raises ValueError
when the int does not fit the field's C type; a list argument that is not a list raises
ValueError ("argument N only support the format of list"). The C function then sees the
struct as it was filled in.
"""
from __future__ import annotations

from acl_lab.spec.args import Reader

#: C field type -> (the Python range PyLong_AsLong / PyLong_AsUnsignedLong accepts, the bits
#: the static_cast keeps, signed): a value inside the range is cast (wrapping), outside it
#: pyACL raises ValueError
_FIELDS = {"int": ((-(1 << 63), 1 << 63), 32, True), "uint": ((0, 1 << 64), 32, False),
           "uint16": ((0, 1 << 64), 16, False), "ulong": ((0, 1 << 64), 64, False)}


def list_arg(call: str, name: str, value) -> list:
    """The list a pyACL argument must be (ValueError otherwise, as pyACL raises)."""
    if not isinstance(value, list):
        raise ValueError(f"{call}: {name} only support the format of list")
    return value


lists = Reader(list_arg)     # the facade's annotation for a list of structs


def struct_fields(call: str, entry, what: str, **fields: str) -> dict:
    """``{field: int}`` read from the dict ``entry`` as pyACL fills a C struct (``fields``:
    name -> C type, a key of _FIELDS): a missing key or a value that is not an int is 0; an
    int pyACL cannot convert is ValueError; an entry that is not a dict TypeError."""
    if not isinstance(entry, dict):
        raise TypeError(f"{call}: the {what} argument is not dict")
    out = {}
    for key, ctype in fields.items():
        value = entry.get(key, 0)
        if not isinstance(value, int):
            value = 0
        (low, high), bits, signed = _FIELDS[ctype]
        if not low <= value < high:
            raise ValueError(f"{call}: {what}[{key!r}]={value} cannot be read as a C "
                             f"{ctype} (PyLong_AsLong failed)")
        value &= (1 << bits) - 1
        out[key] = value - (1 << bits) if signed and value >> (bits - 1) else value
    return out
