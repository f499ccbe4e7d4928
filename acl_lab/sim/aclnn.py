"""aclnn-style operators: tensors over device memory, scalars, the two-phase call pattern.

Phase one (``*_get_workspace_size``) checks dtypes and shapes and returns a workspace size
and a one-shot executor; phase two (``aclnnAdd(workspace, size, executor, stream)``)
queues the computation on a stream. Codes follow the aclnn docs: NULL arguments give
ACLNN_ERR_PARAM_NULLPTR, unsupported dtypes or shapes ACLNN_ERR_PARAM_INVALID.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import as_strided

from acl_lab import constants as C
from acl_lab.spec.dtypes import NUMPY, name as dtype_name
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import Task
from acl_lab.sim.transfer import submit
from acl_lab.spec import aclnn_rules
from acl_lab.spec import handles

TENSOR_BASE, SCALAR_BASE, EXECUTOR_BASE = 0x5000_0000, 0x6000_0000, 0x7000_0000
#: the types the chapters' aclnn operators take
NUMPY_DTYPES = {d: NUMPY[d] for d in (C.ACL_FLOAT, C.ACL_FLOAT16, C.ACL_DOUBLE, C.ACL_INT8,
                                      C.ACL_UINT8, C.ACL_INT16, C.ACL_INT32, C.ACL_INT64,
                                      C.ACL_BOOL)}
ARITHMETIC = tuple(d for d in NUMPY_DTYPES if d != C.ACL_BOOL)


@dataclass(eq=False)
class Tensor:
    handle: int
    shape: tuple
    dtype: int
    strides: tuple        # in elements, like aclCreateTensor
    offset: int           # in elements
    fmt: int
    storage_shape: tuple
    ptr: int

    @property
    def np_dtype(self):
        return np.dtype(NUMPY_DTYPES[self.dtype])

    def describe(self) -> str:
        return _("tensor {handle} {shape} {dtype} at {ptr}").format(
            handle=f"0x{self.handle:x}", shape=list(self.shape), dtype=dtype_name(self.dtype),
            ptr=f"0x{self.ptr:x}")


@dataclass(eq=False)
class Executor:
    handle: int
    op: str
    inputs: tuple          # (Tensor | float, ...) resolved at phase one
    out: Tensor


def _scalar_value(value, dtype: int):
    """``value`` as a scalar of ``dtype`` holds it (ints truncated toward zero, as C casts);
    SimError for one it cannot hold: NaN or infinity as an integer, an integer out of the
    type's range, a number beyond every float."""
    np_type = np.dtype(NUMPY_DTYPES[dtype])
    try:
        if np_type.kind in "iu":
            whole = int(value)          # ValueError for NaN, OverflowError for infinity
            info = np.iinfo(np_type)
            if not info.min <= whole <= info.max:
                raise OverflowError
            return np_type.type(whole).item()
        if np_type.kind == "f":
            value = float(value)        # OverflowError beyond a double
        with np.errstate(all="ignore"):
            return np_type.type(value).item()
    except (OverflowError, ValueError):
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: {value} does not fit in {dtype}. Pass a value the type "
                         "holds, or choose a wider data type.").format(
                           call="aclCreateScalar", value=_number(value),
                           dtype=dtype_name(dtype))) from None


def _number(value) -> str:
    """A number for a message, short however big (str() refuses ints of 4300+ digits)."""
    if isinstance(value, int) and abs(value) >= 1 << 64:
        return f"{'-' if value < 0 else ''}2**{abs(value).bit_length() - 1}+"
    return repr(value)




class Aclnn:
    def __init__(self, rt):
        self.rt = rt
        self.tensors: dict[int, Tensor] = {}
        self.scalars: dict[int, tuple] = {}       # handle -> (value, dtype)
        self.executors: dict[int, Executor] = {}
        self._count = 0

    def _handle(self, base: int) -> int:
        self._count += 1
        return base + self._count * 0x40

    # ----- tensors and scalars -------------------------------------------------------------
    def create_tensor(self, shape, dtype, strides, offset, fmt, storage_shape, ptr) -> int:
        call = "aclCreateTensor"
        shape, strides, storage = tuple(shape), tuple(strides), tuple(storage_shape)
        if ptr == 0 and any(shape):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: the device address is NULL.").format(call=call))
        if dtype not in NUMPY_DTYPES:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: data type {dtype} is not supported by the simulator's "
                             "operators; use ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ...").format(
                               call=call, dtype=dtype_name(dtype)))
        aclnn_rules.check_tensor(call, shape, strides, offset, storage)
        t = Tensor(self._handle(TENSOR_BASE), shape, dtype, strides, offset, fmt, storage, ptr)
        self.tensors[t.handle] = t
        return t.handle

    def create_scalar(self, value, dtype) -> int:
        if dtype not in NUMPY_DTYPES:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: data type {dtype} is not supported.").format(
                               call="aclCreateScalar", dtype=dtype_name(dtype)))
        value = _scalar_value(value, dtype)
        h = self._handle(SCALAR_BASE)
        self.scalars[h] = (value, dtype)
        return h

    def destroy(self, table: dict, handle: int, call: str) -> None:
        handles.live(table, handle, call,
                     _("{call}: {handle} is not a live object of this kind."))
        del table[handle]

    def _tensor(self, handle: int, name: str, call: str) -> Tensor:
        return handles.live(self.tensors, handle, call,
                            _("{call}: {name} {handle} is not a tensor from aclCreateTensor."),
                            dead_code=C.ACLNN_ERR_PARAM_NULLPTR,
                            null_code=C.ACLNN_ERR_PARAM_NULLPTR, name=name)

    def _scalar(self, handle: int, name: str, call: str) -> float:
        return handles.live(self.scalars, handle, call,
                            _("{call}: {name} {handle} is not a scalar from aclCreateScalar."),
                            dead_code=C.ACLNN_ERR_PARAM_NULLPTR,
                            null_code=C.ACLNN_ERR_PARAM_NULLPTR, name=name)[0]

    def _storage(self, t: Tensor, name: str, call: str):
        """The allocation and byte span holding tensor ``t``'s elements."""
        if any(n == 0 for n in t.shape):
            return None, 0
        last = aclnn_rules.last_element(t.shape, t.strides, t.offset)
        if last + 1 > math.prod(t.storage_shape or (0,)):
            raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                           _("{call}: {name} ({tensor}) reaches element {last}, beyond its "
                             "storage shape {storage}.").format(
                               call=call, name=name, tensor=t.describe(), last=last,
                               storage=list(t.storage_shape)))
        span = (last + 1) * t.np_dtype.itemsize
        a = self.rt.memory.map.resolve(t.ptr, span, name, call,
                                       code=C.ACLNN_ERR_PARAM_INVALID)
        if a.location != "device":
            raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                           _("{call}: {name} lives in host memory ({block}); operators read and "
                             "write device memory (aclrtMalloc).").format(
                               call=call, name=name, block=a.describe()))
        return a, span

    # ----- phase one ------------------------------------------------------------------------
    def prepare(self, op: str, call: str, tensors: dict, scalars: dict, out_name: str) -> tuple:
        ts = {n: self._tensor(h, n, call) for n, h in tensors.items()}
        xs = {n: self._scalar(h, n, call) for n, h in scalars.items()}
        for n, t in ts.items():
            if len(t.shape) > aclnn_rules.MAX_DIMS:
                raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                               _("{call}: {name} has {count} dimensions; aclnn operators take "
                                 "at most {max_dims}.").format(call=call, name=n,
                                                               count=len(t.shape),
                                                               max_dims=aclnn_rules.MAX_DIMS))
            if t.dtype not in ARITHMETIC:
                raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                               _("{call}: {name} has data type {dtype}, which {op} does not "
                                 "support.").format(call=call, name=n, dtype=dtype_name(t.dtype),
                                                    op=op))
            self._storage(t, n, call)
        out = ts[out_name]
        ins = [t for n, t in ts.items() if n != out_name]
        try:
            shape = np.broadcast_shapes(*(t.shape for t in ins))
        except ValueError:
            raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                           _("{call}: shapes {shapes} do not broadcast.").format(
                               call=call, shapes=", ".join(str(list(t.shape)) for t in ins))
                           ) from None
        if op != "InplaceCopy" and shape != out.shape or op == "InplaceCopy" and \
                np.broadcast_shapes(shape, out.shape) != out.shape:
            raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                           _("{call}: the output has shape {out} but the inputs broadcast to "
                             "{shape}. Create the output with that shape.").format(
                               call=call, out=list(out.shape), shape=list(shape)))
        result = np.result_type(*(t.np_dtype for t in ins))
        if not np.can_cast(result, out.np_dtype, "same_kind"):
            raise SimError(C.ACLNN_ERR_PARAM_INVALID,
                           _("{call}: the result type {result} cannot be cast to the output's "
                             "{dtype}.").format(call=call, result=result, dtype=dtype_name(out.dtype)))
        self._work_fits(out, ins, call)
        self.rt.dump_args.record(op, ins, out)     # aclopStartDumpArgs: one file per shape
        ex = Executor(self._handle(EXECUTOR_BASE), op, tuple(ins) + tuple(xs.values()), out)
        self.executors[ex.handle] = ex
        return 0, ex.handle

    # ----- phase two ------------------------------------------------------------------------
    def launch(self, op: str, workspace: int, ws_size: int, executor: int, stream) -> None:
        call = f"aclnn{op}"
        ex = self.executors.get(executor)
        aclnn_rules.check_executor(call, executor, ex is not None and ex.op == op)
        tensors = [x for x in ex.inputs if isinstance(x, Tensor)] + [ex.out]
        places = [self._storage(t, _("tensor"), call) for t in tensors]
        work = self._work_fits(ex.out, tensors[:-1], call)
        nbytes = sum(span for _, span in places)
        task = Task("op", self.rt.profile.rates.op_us(nbytes), run=self._kernel(ex, places),
                    nbytes=nbytes, uses=tuple(a for a, _ in places if a is not None),
                    detail={"op": op, "inputs": [t.ptr for t in tensors[:-1]],
                            "out": ex.out.ptr, "shape": list(ex.out.shape),
                            "workspace": workspace})
        submit(self.rt, call, stream, task, scratch=lambda: work)   # promised until it runs
        del self.executors[executor]

    def _work_fits(self, out: Tensor, ins, call: str) -> int:
        """The simulator computes an operator over every element of the output, however few
        bytes hold them (a stride-0 view): that working memory (its bytes, returned) must fit
        the host budget."""
        elements = math.prod(out.shape)
        per_element = sum(t.np_dtype.itemsize for t in ins) + 2 * np.dtype(np.float64).itemsize
        self.rt.memory.ram.need(elements * per_element, call,
                                _("computing {count} elements of {tensor}").format(
                                    count=f"{elements:,}", tensor=out.describe()))
        return elements * per_element

    @staticmethod
    def _array(t: Tensor, place) -> np.ndarray:
        a, span = place
        if a is None:
            return np.empty(t.shape, t.np_dtype)
        raw = a.view(t.ptr - a.ptr, span).view(t.np_dtype)
        item = t.np_dtype.itemsize
        return as_strided(raw[t.offset:], t.shape, tuple(s * item for s in t.strides))

    def _kernel(self, ex: Executor, places):
        tensors = [x for x in ex.inputs if isinstance(x, Tensor)] + [ex.out]
        scalars = [x for x in ex.inputs if not isinstance(x, Tensor)]

        def run() -> None:
            arrays = [self._array(t, p) for t, p in zip(tensors, places)]
            *ins, out = arrays
            # Device arithmetic overflows to inf/nan silently (fresh memory is garbage):
            # no Python warning pointing into the simulator.
            with np.errstate(all="ignore"):
                if ex.op == "Add":
                    value = ins[0] + ins[1] * scalars[0]
                elif ex.op == "Mul":
                    value = ins[0] * ins[1]
                else:   # InplaceCopy: out (selfRef) <- src, cast and broadcast
                    value = ins[0]
                np.copyto(out, np.broadcast_to(value, out.shape), casting="unsafe")
        return run
