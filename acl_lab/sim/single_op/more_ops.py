"""More of acl.op over the single-operator state (single_op/runtime.py): an operator model
loaded from memory, a Cast handle, and shape inference.

hicann/ge api/acl/acl_op_executor/single_op/op.cpp: aclopLoad copies the model from host
memory and parses it (a NULL model or a zero size is ACL_ERROR_INVALID_PARAM; a model that
does not parse is refused); builtin/cast_op.cpp aclopCreateHandleForCast builds the Cast
operator's attributes as aclopCast does; aclopInferShape runs the operator's shape
inference on its inputs (their data counts where it is given) and writes the output shapes
into the output descriptions. The simulator infers by computing the operator's numpy kernel
(om/op_kernels.py) on the inputs, for inputs of at most INFER_ELEMENTS elements.
"""
from __future__ import annotations

import math

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om.op_kernels import KERNELS
from acl_lab.om.op_model import parse_model
from acl_lab.sim.simerror import SimError
from acl_lab.sim.single_op.runtime import HANDLE_BASE, Handle
from acl_lab.spec.dtypes import NUMPY
from acl_lab.spec.memory_rules import host_readable

MAX_MODEL_BYTES = 256 << 20
INFER_ELEMENTS = 1 << 22


def load(rt, ptr: int, size: int, call: str = "aclopLoad") -> None:
    if ptr == 0 or size == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: model is NULL or modelSize is 0; pass the .om file's bytes in host memory "
            "and their size.").format(call=call))
    if size > MAX_MODEL_BYTES:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: {size} B is larger than an operator model ({limit} B at most).").format(
                call=call, size=size, limit=MAX_MODEL_BYTES))
    block = host_readable(rt.memory.map, ptr, size, call, rt.profile.run_mode)
    rt.memory.ram.need(size, call, _("a copy of the model"))
    raw = np.empty(size, np.uint8)
    block.read_into(ptr - block.ptr, size, raw)
    model = parse_model(raw.tobytes())
    if model is None:
        raise SimError(C.ACL_ERROR_PARSE_MODEL, _(
            "{call}: the {size} B at {ptr} are not a single-operator model (the .om files "
            "acl-lab atc --singleop writes).").format(call=call, size=size, ptr=f"0x{ptr:x}"))
    rt.single_ops.loaded.append(model)


def cast_handle(rt, src: int, dst: int, truncate: bool,
                call: str = "aclopCreateHandleForCast") -> int:
    ops = rt.single_ops
    dst_desc = ops.desc(dst, call)
    src_desc = ops.desc(src, call)
    attrs = {"truncate": ("bool", truncate), "dst_type": ("int", dst_desc.dtype)}
    return new_handle(rt, ops.match("Cast", [src_desc], [dst_desc], attrs, call),
                      (src_desc,), (dst_desc,))


def new_handle(rt, model, in_descs: tuple, out_descs: tuple) -> int:
    """An aclopHandle of a matched operator model (aclopCreateHandle's result)."""
    ops = rt.single_ops
    ops._count += 1
    h = Handle(HANDLE_BASE + ops._count * 0x40, model, in_descs, out_descs)
    ops.handles[h.handle] = h
    return h.handle


def _input(rt, desc, buffer: int, call: str) -> np.ndarray:
    """An input as shape inference sees it: its constant, the host data its buffer holds,
    or zeros."""
    dtype = np.dtype(NUMPY.get(desc.dtype, np.float32))
    if desc.const is not None:
        return np.frombuffer(desc.const, dtype)[:desc.element_count()].reshape(desc.dims)
    need = desc.element_count() * dtype.itemsize
    b = rt.models.buffers.get(buffer)
    block = rt.memory.map.find(b.addr) if b is not None and b.addr and need else None
    if block is not None and (block.location == "host" or rt.profile.run_mode == C.ACL_DEVICE) \
            and b.addr + need <= block.end and b.size >= need:
        data = np.empty(need, np.uint8)
        block.read_into(b.addr - block.ptr, need, data)
        return data.view(dtype).reshape(desc.dims)
    return np.zeros(desc.dims, dtype)


def infer_shape(rt, op: str, in_handles, in_bufs, num_outputs: int, out_handles, attr: int,
                call: str = "aclopInferShape") -> None:
    ops = rt.single_ops
    if len(in_bufs) > len(in_handles) or num_outputs > len(out_handles) or num_outputs < 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: {inputs} input buffer(s) for {descs} input description(s), {outputs} "
            "output(s) for {out_descs} output description(s): every tensor counted needs its "
            "description.").format(call=call, inputs=len(in_bufs), descs=len(in_handles),
                                   outputs=num_outputs, out_descs=len(out_handles)))
    in_descs = [ops.desc(h, call) for h in in_handles[:len(in_bufs)]]
    out_descs = [ops.desc(h, call) for h in out_handles[:num_outputs]]
    values = {} if attr == 0 else {n: v for n, (_k, v) in ops.attr(attr, call).values.items()}
    kernel = KERNELS.get(op)
    if kernel is None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the operator library has no prototype for {op} (the simulator knows "
            "{ops}).").format(call=call, op=repr(op), ops=", ".join(sorted(KERNELS))))
    if sum(math.prod(d.dims) if all(x >= 0 for x in d.dims) else 0 for d in in_descs) \
            > INFER_ELEMENTS:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the simulator infers shapes by computing {op} on its inputs, which may "
            "hold at most {limit} elements together.").format(call=call, op=op,
                                                              limit=INFER_ELEMENTS))
    arrays = [_input(rt, d, b, call) for d, b in zip(in_descs, in_bufs)]
    try:
        with np.errstate(all="ignore"):
            results = kernel(arrays, values,
                             [NUMPY.get(d.dtype, np.float32) for d in out_descs] or [np.float32])
    except (ValueError, IndexError, TypeError) as e:
        raise SimError(C.ACL_ERROR_GE_FAILURE, _(
            "{call}: shape inference of {op} failed on these inputs ({reason}).").format(
                call=call, op=op, reason=e)) from None
    for d, value in zip(out_descs, results):
        d.dims = tuple(int(x) for x in np.shape(value))
