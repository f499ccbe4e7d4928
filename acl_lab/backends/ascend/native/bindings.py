"""pyACL-shaped functions over the CANN C libraries, for the calls pyACL does not bind.

Each function has the simulator's pyACL shape (acl_lab/spec/prototypes.py: the same name,
the C inputs in C order, ints for pointers and handles, ``(value, ..., ret)`` results) and
calls the C function through ctypes with the argument types cdecl.py read from the header
declaration. Arguments are checked before anything reaches C, as pyACL's own argument
parser does: a non-int where C wants an integer is a TypeError, an int that does not fit
the C type an OverflowError, ``DoesNotFit`` (ctypes would silently cut it to width; the
guard answers it with a code, as the simulator does). The C symbol is looked
up at the first call: a missing library or symbol raises NativeUnavailable in plain words.
"""
from __future__ import annotations

import ctypes
import inspect
import operator
import os

import numpy as np

from acl_lab.spec import dtypes

from acl_lab.spec.prototypes import PROTOTYPES, summary
from acl_lab.backends.ascend.native import cdecl
from acl_lab.backends.ascend.native.libraries import Libraries, NativeUnavailable

_U64 = 1 << 64
#: aclDataType -> the C type aclCreateScalar reads behind ``void *value`` (acl_base_rt.h
#: aclDataType; ACL_FLOAT16 and ACL_BF16 are 16-bit patterns)
#: calls bound by hand below (the rest are read from their declaration)
SPECIAL = ("nn.create_tensor", "nn.create_scalar", "rt.mem_pool_create", "rt.mem_pool_set_attr",
           "rt.mem_pool_get_attr", "rt.memcpy_batch", "rt.launch_host_func",
           "rt.mem_set_access", "rt.mem_get_access")
#: acl_rt.h ``typedef void (*aclrtHostFunc)(void* args);``
HOST_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
#: aclrtMemPoolAttr values whose value is a uint32_t (the reuse switches); the others are
#: uint64_t (hicann/runtime docs/zh/api_ref/25-02_Enumerations.md, aclrtMemPoolAttr 枚举项说明)
POOL_ATTR_U32 = (1, 2, 3)


class MemLocation(ctypes.Structure):
    """acl_rt.h aclrtMemLocation: uint32_t id, aclrtMemLocationType type."""
    _fields_ = [("id", ctypes.c_uint32), ("type", ctypes.c_int)]


class MemPoolProps(ctypes.Structure):
    """acl_rt_memory_soma.h aclrtMemPoolProps."""
    _fields_ = [("allocType", ctypes.c_int), ("handleType", ctypes.c_int),
                ("location", MemLocation), ("maxSize", ctypes.c_size_t),
                ("reserved", ctypes.c_ubyte * 32)]


class MemcpyBatchAttr(ctypes.Structure):
    """acl_rt.h aclrtMemcpyBatchAttr."""
    _fields_ = [("dstLoc", MemLocation), ("srcLoc", MemLocation), ("rsv", ctypes.c_uint8 * 16)]


class MemAccessDesc(ctypes.Structure):
    """acl_rt.h aclrtMemAccessDesc: aclrtMemAccessFlags flags, aclrtMemLocation location,
    uint8_t rsv[12]."""
    _fields_ = [("flags", ctypes.c_int), ("location", MemLocation), ("rsv", ctypes.c_uint8 * 12)]


def _location(call: str, where: str, value) -> MemLocation:
    if not isinstance(value, dict):
        raise TypeError(f"{call}: {where} must be a dict {{'id': ..., 'type': ...}}")
    return MemLocation(to_c(call, f"{where}.id", ctypes.c_uint32, value["id"]),
                       to_c(call, f"{where}.type", ctypes.c_int, value["type"]))


def _limits(ctype: type) -> tuple[int, int]:
    if ctype in (ctypes.c_void_p, ctypes.c_char_p):
        return 0, _U64
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value == -1
    return (-(1 << bits - 1), 1 << bits - 1) if signed else (0, 1 << bits)


class DoesNotFit(OverflowError):
    """An int argument outside its C type's range (ctypes would cut it to width): nothing
    reached C. ``call``, ``name``, ``value`` and ``ctype_text`` ("32-bit signed") say which."""

    def __init__(self, call: str, name: str, value: int, ctype_text: str):
        super().__init__(f"{call}: {name}={value} does not fit the C type ({ctype_text})")
        self.call, self.name, self.value, self.ctype_text = call, name, value, ctype_text


def to_c(call: str, name: str, ctype: type, value):
    """``value`` as pyACL's parser accepts it for C type ``ctype``."""
    if ctype is ctypes.c_float:
        if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
            return float(value)
        raise TypeError(f"{call}: {name} must be a number, not {type(value).__name__}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{call}: {name} must be an int, not {type(value).__name__}") from None
    low, high = _limits(ctype)
    if not low <= v < high:
        raise DoesNotFit(call, name, v, f"{ctypes.sizeof(ctype) * 8}-bit "
                                         f"{'signed' if low < 0 else 'unsigned'}")
    return v


def _value(result):
    """A C result or out-value as pyACL returns it: NULL pointers are 0, strings str."""
    if isinstance(result, bytes):
        return result.decode("utf-8", "replace")
    return 0 if result is None else result


class Native:
    """The bound functions of one toolkit; ``function(name)`` makes the pyACL-shaped one."""

    def __init__(self, libraries: Libraries | None = None):
        self.libraries = libraries or Libraries()
        self._resolved: dict[str, object] = {}
        self.scalar_values: dict[int, object] = {}     # aclScalar -> the buffer it was made from
        self.host_funcs: dict[int, tuple] = {}        # token -> (trampoline, fn, args) alive

    def c_function(self, name: str, signature: cdecl.Signature):
        """The ctypes function behind pyACL-shaped ``name``; NativeUnavailable if absent."""
        fn = self._resolved.get(signature.c_name)
        if fn is None:
            found = self.libraries.find(signature.c_name)
            if found is None:
                raise NativeUnavailable(self.libraries.explain_missing(name, signature.c_name))
            fn = found[0]
            fn.restype, fn.argtypes = signature.restype, signature.argtypes
            self._resolved[signature.c_name] = fn
        return fn

    def available(self, name: str, short: bool = False) -> tuple[bool, str]:
        """Whether ``name`` can be called here: (True, library) or (False, why not; in
        one line with ``short``)."""
        c_name = cdecl.read(PROTOTYPES[name].c).c_name
        found = self.libraries.find(c_name)
        if found is not None:
            return True, found[1]
        explain = self.libraries.short_missing if short else self.libraries.explain_missing
        return False, explain(name, c_name)

    def function(self, name: str):
        """The pyACL-shaped function for facade name ``name`` ("mdl.ri_capture_begin")."""
        proto = PROTOTYPES[name]
        signature = cdecl.read(proto.c)
        if name in SPECIAL:
            method = getattr(self, "_" + name.split(".")[1])
            params = list(inspect.signature(method).parameters)

            def body(*args):
                return method(*args)
        else:
            body = self._generic(name, signature)
            params = [p.python_name for p in signature.inputs]
            if name == "nn.destroy_scalar":
                body = self._forgetting_scalar(body)
        body.__signature__ = inspect.Signature(
            [inspect.Parameter(p, inspect.Parameter.POSITIONAL_ONLY) for p in params])
        body.__name__ = body.__qualname__ = name.split(".")[-1]
        body.__doc__ = summary(name, params) + "\n\n(acl_lab: a ctypes binding to " + \
            f"{signature.c_name}; pyACL does not bind it.)"
        body.c_name = signature.c_name
        body.native = True
        return body

    def _generic(self, name: str, sig: cdecl.Signature):
        inputs, n = sig.inputs, len(sig.inputs)

        def call(*args):
            if len(args) != n:
                raise TypeError(f"{sig.c_name}() takes {n} arguments "
                                f"({', '.join(p.python_name for p in inputs)}), {len(args)} given")
            fn = self.c_function(name, sig)
            given = dict(zip((p.name for p in inputs), args))
            c_args, outs = [], []
            for p in sig.params:
                if p.role == "string":
                    value = given[p.name]
                    if not isinstance(value, (str, bytes, os.PathLike)):
                        raise TypeError(f"{sig.c_name}: {p.python_name} must be a str, not "
                                        f"{type(value).__name__}")
                    c_args.append(os.fsencode(value))
                elif p.role == "in":
                    c_args.append(to_c(sig.c_name, p.python_name, p.type, given[p.name]))
                else:
                    cell = p.type(to_c(sig.c_name, p.python_name, p.type, given[p.name])
                                  if p.role == "inout" else 0)
                    outs.append(cell)
                    c_args.append(ctypes.byref(cell))
            result = _value(fn(*c_args))
            if not sig.returns_code:
                return result
            values = [_value(cell.value) for cell in outs]
            return (*values, result) if values else result
        return call

    # ----- aclCreateTensor and aclCreateScalar: arrays with counts, a typed value --------
    def _create_tensor(self, shape, data_type, strides, offset, fmt, storage_shape, dev_ptr):
        """aclCreateTensor reads viewDimsNum entries of both viewDims and stride, and
        storageDimsNum of storageDims: the counts are the lists' lengths. Strides of another
        length than the shape would make C read past the array: NULL, nothing called."""
        sig = cdecl.read(PROTOTYPES["nn.create_tensor"].c)
        c = sig.c_name
        shape, strides, storage = (self._dims(c, n, v) for n, v in (
            ("viewDims", shape), ("stride", strides), ("storageDims", storage_shape)))
        if len(strides) != len(shape):
            return 0
        fn = self.c_function("nn.create_tensor", sig)
        return _value(fn(self._array(shape), len(shape), to_c(c, "dataType", ctypes.c_int,
                                                               data_type),
                         self._array(strides), to_c(c, "offset", ctypes.c_int64, offset),
                         to_c(c, "format", ctypes.c_int, fmt), self._array(storage),
                         len(storage), to_c(c, "tensorData", ctypes.c_void_p, dev_ptr)))

    @staticmethod
    def _dims(call: str, name: str, values) -> list[int]:
        if isinstance(values, (int, np.integer)):
            values = [values]
        try:
            return [to_c(call, name, ctypes.c_int64, v) for v in values]
        except TypeError:
            raise TypeError(f"{call}: {name} must be a sequence of ints") from None

    @staticmethod
    def _array(values: list[int]):
        return (ctypes.c_int64 * max(len(values), 1))(*values)

    def _create_scalar(self, value, data_type):
        """``void *value`` points at one element of ``data_type``; the buffer is kept until
        aclDestroyScalar. A data type acl_lab cannot lay out gives NULL, nothing called."""
        c = "aclCreateScalar"
        if not isinstance(value, (int, float, np.number, bool)):
            raise TypeError(f"{c}: value must be a number, not {type(value).__name__}")
        np_type = dtypes.NUMPY.get(to_c(c, "dataType", ctypes.c_int, data_type))
        if np_type is None:
            return 0
        with np.errstate(all="ignore"):
            buffer = np.array([value]).astype(np_type)
        fn = self.c_function("nn.create_scalar", cdecl.read(PROTOTYPES["nn.create_scalar"].c))
        handle = _value(fn(buffer.ctypes.data, data_type))
        if handle:
            self.scalar_values[handle] = buffer
        return handle


    # ----- the memory calls with a struct or a typed value behind a pointer ----------------
    def _c(self, name: str):
        return self.c_function(name, cdecl.read(PROTOTYPES[name].c))

    def _mem_pool_create(self, pool_props):
        c = "aclrtMemPoolCreate"
        if not isinstance(pool_props, dict):
            raise TypeError(f"{c}: pool_props must be a dict")
        props = MemPoolProps(to_c(c, "allocType", ctypes.c_int, pool_props["allocType"]),
                             to_c(c, "handleType", ctypes.c_int, pool_props["handleType"]),
                             _location(c, "location", pool_props["location"]),
                             to_c(c, "maxSize", ctypes.c_size_t, pool_props["maxSize"]))
        pool = ctypes.c_void_p()
        ret = self._c("rt.mem_pool_create")(ctypes.byref(pool), ctypes.addressof(props))
        return _value(pool.value), ret

    def _attr_cell(self, c: str, attr, value=0):
        attr = to_c(c, "attr", ctypes.c_int, attr)
        ctype = ctypes.c_uint32 if attr in POOL_ATTR_U32 else ctypes.c_uint64
        return attr, ctype(to_c(c, "value", ctype, value))

    def _mem_pool_set_attr(self, mem_pool, attr, value):
        c = "aclrtMemPoolSetAttr"
        attr, cell = self._attr_cell(c, attr, value)
        return self._c("rt.mem_pool_set_attr")(to_c(c, "memPool", ctypes.c_void_p, mem_pool),
                                               attr, ctypes.addressof(cell))

    def _mem_pool_get_attr(self, mem_pool, attr):
        c = "aclrtMemPoolGetAttr"
        attr, cell = self._attr_cell(c, attr)
        ret = self._c("rt.mem_pool_get_attr")(to_c(c, "memPool", ctypes.c_void_p, mem_pool),
                                              attr, ctypes.addressof(cell))
        return cell.value, ret

    def _memcpy_batch(self, dsts, dest_maxs, srcs, sizes, attrs, attrs_indexes):
        """The lists as C arrays, their counts from their lengths (numBatches: sizes')."""
        c = "aclrtMemcpyBatch"
        n, k = len(sizes), len(attrs)

        def array(ctype, name, values):
            return (ctype * max(len(values), 1))(*(to_c(c, name, ctype, v) for v in values))
        table = (MemcpyBatchAttr * max(k, 1))(*(
            MemcpyBatchAttr(_location(c, "dstLoc", a["dstLoc"]), _location(c, "srcLoc",
                                                                         a["srcLoc"]),
                            (ctypes.c_uint8 * 16)(*a.get("rsv", ())))
            for a in attrs))
        fail = ctypes.c_size_t((1 << 64) - 1)
        ret = self._c("rt.memcpy_batch")(
            array(ctypes.c_void_p, "dsts", dsts), array(ctypes.c_size_t, "destMaxs", dest_maxs),
            array(ctypes.c_void_p, "srcs", srcs), array(ctypes.c_size_t, "sizes", sizes), n,
            ctypes.addressof(table), array(ctypes.c_size_t, "attrsIndexes", attrs_indexes), k,
            ctypes.byref(fail))
        return fail.value, ret

    def _mem_set_access(self, vir_ptr, size, desc):
        """The desc list as a C array of aclrtMemAccessDesc, count its length."""
        c = "aclrtMemSetAccess"
        if not isinstance(desc, (list, tuple)):
            raise TypeError(f"{c}: desc must be a list of dicts, not {type(desc).__name__}")
        table = (MemAccessDesc * max(len(desc), 1))(*(
            MemAccessDesc(to_c(c, "desc.flags", ctypes.c_int, d["flags"]),
                          _location(c, "desc.location", d["location"])) for d in desc))
        return self._c("rt.mem_set_access")(to_c(c, "virPtr", ctypes.c_void_p, vir_ptr),
                                            to_c(c, "size", ctypes.c_size_t, size),
                                            ctypes.addressof(table), len(desc))

    def _mem_get_access(self, vir_ptr, location):
        """``location`` goes in behind a pointer ([in] in acl_rt.h); the uint64_t flag
        comes back."""
        c = "aclrtMemGetAccess"
        where, flag = _location(c, "location", location), ctypes.c_uint64()
        ret = self._c("rt.mem_get_access")(to_c(c, "virPtr", ctypes.c_void_p, vir_ptr),
                                           ctypes.addressof(where), ctypes.byref(flag))
        return flag.value, ret

    def _launch_host_func(self, stream, fn, args):
        """C calls ``fn(args)`` on the runtime's thread when the stream reaches it: a ctypes
        trampoline, kept alive with the Python function and its argument (C receives a
        token as ``void *args``; a host function runs once, so its entry goes after)."""
        c = "aclrtLaunchHostFunc"
        if not callable(fn):
            raise TypeError(f"{c}: fn must be a Python function, not {type(fn).__name__}")
        token = len(self.host_funcs) + 1
        while token in self.host_funcs:
            token += 1

        def trampoline(_args):
            entry = self.host_funcs.pop(token, None)
            if entry is not None:
                entry[1](entry[2])
        self.host_funcs[token] = (HOST_FUNC(trampoline), fn, args)
        ret = self._c("rt.launch_host_func")(to_c(c, "stream", ctypes.c_void_p, stream),
                                             ctypes.cast(self.host_funcs[token][0],
                                                         ctypes.c_void_p), token)
        if ret != 0:
            self.host_funcs.pop(token, None)
        return ret

    def _forgetting_scalar(self, destroy):
        def call(*args):
            ret = destroy(*args)
            if ret == 0:
                self.scalar_values.pop(args[0], None)
            return ret
        return call


def bindable() -> list[str]:
    """Every facade call acl_lab can bind natively: the C declaration reads into ctypes and
    its out-parameters are pyACL's returned values (the others stay pyACL's alone)."""
    names = []
    for name, proto in PROTOTYPES.items():
        if proto.c is None:
            continue
        try:
            sig = cdecl.read(proto.c)
        except cdecl.Unsupported:
            continue
        wanted = [w.strip() for w in proto.returns.split(",")]
        outs = [p.python_name for p in sig.outputs]
        if name in SPECIAL or (sig.returns_code and wanted == outs + ["ret"]) or \
                (not sig.returns_code and not outs and len(wanted) == 1):
            names.append(name)
    return names
