"""The ctypes types of a C prototype, read from the CANN headers' own declarations.

acl_lab/spec/prototypes.py holds each pyACL call's C declaration as the headers write it;
this module reads one into what ctypes needs: the result type and, per parameter, its type
and its role (a value passed in, an array or a string passed in, or an out-parameter whose
value becomes part of pyACL's ``(value, ..., ret)`` result). One table maps each C type
name to its width, each entry with the header that defines it:

- hicann/runtime include/external/acl/acl_base_rt.h: ``typedef int aclError;``,
  ``typedef uint16_t aclFloat16;``, ``typedef void* aclrtStream;`` (aclrtEvent,
  aclrtContext, aclrtTaskGrp likewise), ``aclDataType`` and ``aclFormat`` (enums with a
  -1 member: signed);
- hicann/runtime include/external/acl/acl_rt.h: ``typedef void* aclmdlRI;`` and the
  enums aclrtMemMallocPolicy, aclrtMemcpyKind, aclrtMemAttr, aclrtRunMode,
  aclrtEventRecordedStatus, aclrtStreamStatus, aclrtCallbackBlockType, aclrtLastErrLevel,
  aclmdlRICaptureMode, aclmdlRICaptureStatus;
- hicann/opbase include/nnopbase/aclnn/acl_meta.h: ``typedef int32_t aclnnStatus;`` and
  the opaque structs aclTensor, aclScalar, aclOpExecutor;
- hicann/runtime include/external/acl/acl_rt_memory_soma.h: ``typedef void* aclrtMemPool;``,
  the enum aclrtMemPoolAttr and the struct aclrtMemPoolProps; acl_rt.h's struct
  aclrtMemcpyBatchAttr (both laid out by bindings.py, passed behind a pointer);
  acl_rt.h's ``typedef void* aclrtDrvMemHandle;`` and the structs aclrtMemAccessDesc and
  aclrtMemLocation (aclrtMemSetAccess / aclrtMemGetAccess, laid out by bindings.py).

A C enum is as wide as ``int`` on every ABI CANN supports (aarch64 and x86-64 Linux): 32
bits. Passing it as a 64-bit value is the bug this table exists to prevent.
"""
from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass

#: scalar C types -> ctypes (enums: 32-bit int, see above)
SCALARS: dict[str, type] = {
    "aclError": ctypes.c_int, "aclnnStatus": ctypes.c_int32, "int": ctypes.c_int,
    "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32, "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64, "size_t": ctypes.c_size_t, "float": ctypes.c_float,
    "uint16_t": ctypes.c_uint16, "aclFloat16": ctypes.c_uint16,
    **dict.fromkeys(("aclDataType", "aclFormat", "aclrtMemMallocPolicy", "aclrtMemcpyKind",
                     "aclrtMemAttr", "aclrtRunMode", "aclrtEventRecordedStatus",
                     "aclrtStreamStatus", "aclrtCallbackBlockType", "aclrtLastErrLevel",
                     "aclmdlRICaptureMode", "aclmdlRICaptureStatus", "aclrtMemPoolAttr"),
                    ctypes.c_int),
}
#: handle typedefs (``typedef void* X``): passed and returned as addresses
HANDLES = frozenset(("aclrtStream", "aclrtEvent", "aclrtContext", "aclmdlRI", "aclrtTaskGrp",
                     "aclrtMemPool", "aclrtHostFunc", "aclrtDrvMemHandle"))   # aclrtHostFunc: a function pointer
#: opaque structs: only ever behind a pointer
STRUCTS = frozenset(("void", "aclTensor", "aclScalar", "aclOpExecutor", "aclDataBuffer",
                     "aclmdlDesc", "aclmdlDataset", "aclrtMemPoolProps", "aclrtMemcpyBatchAttr",
                     "aclrtMemAccessDesc", "aclrtMemLocation"))
#: what an error-code result is called in the C declaration
CODES = ("aclError", "aclnnStatus")
#: parameters the headers mark [IN/OUT]: the value goes in and the new one comes back.
#: acl_rt.h, aclmdlRICaptureThreadExchangeMode: "mode [IN/OUT] in the current thread, use
#: the input mode to swap out the current mode"
IN_OUT = {("aclmdlRICaptureThreadExchangeMode", "mode")}


class Unsupported(ValueError):
    """A declaration this reader does not turn into ctypes (callbacks, structs by value)."""


@dataclass(frozen=True)
class Param:
    name: str          # the C name: "modelRI"
    ctype: str         # as declared, normalised: "aclmdlRI *"
    role: str          # "in", "out", "inout", "string", "array"
    type: type         # the ctypes type passed (for out/inout: the pointed-to type)

    @property
    def python_name(self) -> str:
        return snake(self.name)


@dataclass(frozen=True)
class Signature:
    c_name: str
    result: str                  # the C result type, normalised
    restype: type | None
    params: tuple[Param, ...]

    @property
    def returns_code(self) -> bool:
        return self.result in CODES

    @property
    def inputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.role != "out")

    @property
    def outputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.role in ("out", "inout"))

    @property
    def argtypes(self) -> list[type]:
        return [ctypes.POINTER(p.type) if p.role in ("out", "inout", "array") else p.type
                for p in self.params]


def snake(name: str) -> str:
    """C parameter name -> pyACL's: modelRI -> model_ri, devPtr -> dev_ptr."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _split(decl: str) -> tuple[str, int, str]:
    """"const int64_t *viewDims" -> ("const int64_t", 1, "viewDims")"""
    stars = decl.count("*")
    words = decl.replace("*", " ").split()
    return " ".join(words[:-1]), stars, words[-1]


def _param(function: str, decl: str) -> Param:
    base, stars, name = _split(decl)
    const = base.startswith("const ")
    base = base.removeprefix("const ")
    shown = f"{'const ' if const else ''}{base}{' ' + '*' * stars if stars else ''}"
    if base == "char" and stars == 1 and const:
        return Param(name, shown, "string", ctypes.c_char_p)
    if base in STRUCTS:
        if stars == 1:
            return Param(name, shown, "in", ctypes.c_void_p)
        if stars == 2 and not const:
            return Param(name, shown, "out", ctypes.c_void_p)
    elif base in HANDLES:
        if stars == 0:
            return Param(name, shown, "in", ctypes.c_void_p)
        if stars == 1 and not const:
            return Param(name, shown, "inout" if (function, name) in IN_OUT else "out",
                         ctypes.c_void_p)
    elif base in SCALARS:
        if stars == 0:
            return Param(name, shown, "in", SCALARS[base])
        if stars == 1 and const:
            return Param(name, shown, "array", SCALARS[base])
        if stars == 1:
            return Param(name, shown, "inout" if (function, name) in IN_OUT else "out",
                         SCALARS[base])
    raise Unsupported(f"{function}: parameter {shown} {name}")


def read(decl: str) -> Signature:
    """The Signature of one C declaration, as prototypes.py writes them."""
    head, _, rest = decl.partition("(")
    args = rest.rsplit(")", 1)[0].strip()
    result, stars, c_name = _split(head)
    result = result.removeprefix("const ")
    if stars == 0 and result in SCALARS:
        restype = SCALARS[result]
    elif stars == 1 and result == "char":
        restype, result = ctypes.c_char_p, "const char *"
    elif stars == 1 and result in STRUCTS:
        restype, result = ctypes.c_void_p, f"{result} *"
    else:
        raise Unsupported(f"{c_name}: result {head}")
    params = () if args in ("", "void") else tuple(
        _param(c_name, p.strip()) for p in args.split(","))
    return Signature(c_name, result, restype, params)
