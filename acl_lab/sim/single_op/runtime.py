"""The single-operator state of one simulated process: tensor descriptions, operator
attributes, handles, the models aclopSetModelDir loaded, and execution as stream tasks.

Codes as hicann/ge implements them: aclopSetModelDir on a path that does not resolve
returns ACL_ERROR_READ_MODEL_FAILURE, a second call ACL_ERROR_REPEAT_INITIALIZE
(api/acl/acl_op_executor/single_op/op.cpp, aclopSetModelDirImpl); an operator with no
model matching its type, tensors and attributes exactly gives ACL_ERROR_OP_NOT_FOUND
(acl_op_resource_manager.cpp, MatchOpModel; ReadModelDefs there loads every .om of the
folder and its subfolders and skips, with a warning, one that is not an operator model;
attributes compared by OpAttrEquals in
api/acl/utils/attr_utils.cpp, constant inputs included). Tensor descriptions follow
tensor_desc_internal_om2.cpp: no dims is a scalar of one element, a negative dim counts 0.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from acl_lab import constants as C
from acl_lab.spec import dtypes
from acl_lab.spec.dtypes import NUMPY, name as dtype_name
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.sim.streams import Task
from acl_lab.om.op_kernels import KERNELS
from acl_lab.om.op_model import OpModel, TensorSpec, parse_model

DESC_BASE, ATTR_BASE, HANDLE_BASE = 0x5800_0000, 0x5900_0000, 0x5A00_0000
OM_DEPTH = 3      # ReadModelDefs lists .om files this many folders deep (OM_DIR_MAX_DEPTH)


def _depth(path: Path, folder: Path) -> int:
    return len(path.relative_to(folder).parts) - 1


@dataclass(eq=False)
class Desc:
    handle: int
    dtype: int
    dims: tuple
    fmt: int
    name: str = ""
    const: bytes | None = None

    def element_count(self) -> int:
        if any(d < 0 for d in self.dims):
            return 0
        return math.prod(self.dims)

    def spec(self) -> TensorSpec:
        return TensorSpec(self.dtype, self.fmt, self.dims, self.const)

    def describe(self) -> str:
        return f"{dtype_name(self.dtype)} {C.FORMAT_NAMES.get(self.fmt, self.fmt)} {list(self.dims)}" + (
            " const" if self.const is not None else "")


@dataclass(eq=False)
class Attr:
    handle: int
    values: dict = field(default_factory=dict)     # name -> (kind, value)


@dataclass(eq=False)
class Handle:
    handle: int
    model: OpModel
    in_descs: tuple
    out_descs: tuple


def _spec_text(t: TensorSpec) -> str:
    return f"{dtype_name(t.dtype)} {C.FORMAT_NAMES.get(t.fmt, t.fmt)} {list(t.dims)}" + (
        " const" if t.const is not None else "")


class SingleOps:
    def __init__(self, rt):
        self.rt = rt
        self.descs: dict[int, Desc] = {}
        self.attrs: dict[int, Attr] = {}
        self.handles: dict[int, Handle] = {}
        self.models: list[OpModel] | None = None      # None: aclopSetModelDir not called
        self.loaded: list[OpModel] = []                # aclopLoad, from memory
        self.model_dir = ""
        self._count = 0

    def _handle(self, base: int) -> int:
        self._count += 1
        return base + self._count * 0x40

    def live(self) -> list[tuple]:
        """(handles, what, release call) of every kind still alive: the leak report's."""
        return [(sorted(self.descs), "aclTensorDesc", "acl.destroy_tensor_desc"),
                (sorted(self.attrs), "aclopAttr", "acl.op.destroy_attr"),
                (sorted(self.handles), "aclopHandle", "acl.op.destroy_handle")]

    # ----- aclTensorDesc ---------------------------------------------------------------
    def create_desc(self, dtype: int, dims: tuple, fmt: int) -> int:
        d = Desc(self._handle(DESC_BASE), dtype, dims, fmt)
        self.descs[d.handle] = d
        return d.handle

    def desc(self, handle: int, call: str) -> Desc:
        return handles.live(self.descs, handle, call, _(
            "{call}: {handle} is not a live aclTensorDesc (destroyed, or never created); on "
            "real hardware this reads freed memory. Pass the handle acl.create_tensor_desc "
            "returned."), _("{call}: the tensor description is NULL. Pass the handle "
                            "acl.create_tensor_desc returned."))

    def destroy_desc(self, handle: int) -> None:
        self.desc(handle, "aclDestroyTensorDesc")
        del self.descs[handle]

    def size(self, handle: int, call: str) -> int:
        d = self.desc(handle, call)
        return d.element_count() * dtypes.size(d.dtype)

    def dim(self, handle: int, index: int, call: str) -> int:
        d = self.desc(handle, call)
        if not 0 <= index < len(d.dims):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: index {index} is out of range: the description has "
                             "{count} dimension(s).").format(call=call, index=index,
                                                             count=len(d.dims)))
        return d.dims[index]

    def set_const(self, handle: int, data: int, length: int, call: str) -> None:
        d = self.desc(handle, call)
        if data == 0 or length == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: the constant's data is NULL or empty; pass a host pointer "
                             "(acl.util.bytes_to_ptr) and its length in bytes.").format(call=call))
        a = self.rt.memory.map.resolve(data, length, "dataBuffer", call)
        if a.location == "device" and self.rt.profile.run_mode == C.ACL_HOST:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: the constant's data {ptr} is device memory; aclSetTensorConst "
                             "copies it from host memory.").format(call=call, ptr=f"0x{data:x}"))
        out = np.empty(length, np.uint8)
        a.read_into(data - a.ptr, length, out)
        d.const = out.tobytes()

    # ----- aclopAttr ---------------------------------------------------------------------
    def create_attr(self) -> int:
        a = Attr(self._handle(ATTR_BASE))
        self.attrs[a.handle] = a
        return a.handle

    def attr(self, handle: int, call: str) -> Attr:
        return handles.live(self.attrs, handle, call, _(
            "{call}: {handle} is not a live aclopAttr (destroyed, or never created). Pass the "
            "handle acl.op.create_attr returned."))

    def destroy_attr(self, handle: int) -> None:
        self.attr(handle, "aclopDestroyAttr")
        del self.attrs[handle]

    def set_attr(self, handle: int, name: str, kind: str, value, call: str) -> None:
        self.attr(handle, call).values[name] = (kind, value)

    # ----- models ------------------------------------------------------------------------
    def set_model_dir(self, path: str, call: str = "aclopSetModelDir") -> None:
        folder = Path(path)
        if not folder.is_dir():
            raise SimError(C.ACL_ERROR_READ_MODEL_FAILURE,
                           _("{call}: {path} is not a folder (cannot convert it to a real "
                             "path). Pass the folder acl-lab atc --singleop wrote its .om files "
                             "into.").format(call=call, path=repr(path)))
        if self.models is not None:
            raise SimError(C.ACL_ERROR_REPEAT_INITIALIZE,
                           _("{call}: the single-op model folder is already set ({path}); a "
                             "process sets it once.").format(call=call,
                                                             path=repr(self.model_dir)))
        models = []
        for file in sorted(p for p in folder.rglob("*.om") if _depth(p, folder) <= OM_DEPTH):
            model = parse_model(file.read_bytes())
            if model is not None:       # ReadModelDefs skips a model it cannot parse
                models.append(model)
        self.models, self.model_dir = models, os.fspath(path)

    def match(self, op: str, in_descs, out_descs, attrs: dict, call: str) -> OpModel:
        ins = tuple(d.spec() for d in in_descs)
        outs = tuple(d.spec() for d in out_descs)
        wanted = tuple(sorted((n, k, v) for n, (k, v) in attrs.items()))
        if self.models is None and not self.loaded:
            self.rt.custom_ops.no_model(op, call)
            raise SimError(C.ACL_ERROR_OP_NOT_FOUND,
                           _("{call}: no single-operator model is loaded: call "
                             "acl.op.set_model_dir(folder) first, with the folder acl-lab atc "
                             "--singleop wrote.").format(call=call))
        models = (self.models or []) + self.loaded
        for m in models:
            if m.op == op and m.inputs == ins and m.outputs == outs and m.attrs == wanted:
                return m
        self.rt.custom_ops.no_model(op, call)
        same_type = [m for m in models if m.op == op]
        asked = _("inputs {inputs}, outputs {outputs}, attrs {attrs}").format(
            inputs=[_spec_text(t) for t in ins], outputs=[_spec_text(t) for t in outs],
            attrs={n: v for n, _k, v in wanted})
        if not same_type:
            raise SimError(C.ACL_ERROR_OP_NOT_FOUND,
                           _("{call}: no model of operator {op} in {path} (it holds: {ops}). "
                             "Add the operator to the op.json and compile it with acl-lab atc "
                             "--singleop.").format(call=call, op=op, path=self.model_dir,
                                                  ops=", ".join(sorted({m.op for m in
                                                                        models})) or "-"))
        m = same_type[0]
        have = _("inputs {inputs}, outputs {outputs}, attrs {attrs}").format(
            inputs=[_spec_text(t) for t in m.inputs], outputs=[_spec_text(t) for t in m.outputs],
            attrs={n: v for n, _k, v in m.attrs})
        raise SimError(C.ACL_ERROR_OP_NOT_FOUND,
                       _("{call}: no model of {op} matches this call exactly. Called with "
                         "{asked}; the model in {path} has {have}. Types, formats, shapes, "
                         "attributes and constant inputs must all be the ones compiled.").format(
                           call=call, op=op, asked=asked, path=self.model_dir, have=have))

    # ----- execution ---------------------------------------------------------------------
    def _place(self, desc: Desc, buffer: int, what: str, call: str):
        """The device bytes a data buffer gives a tensor (None for a constant input)."""
        if desc.const is not None:
            return None
        b = self.rt.models.buffer(buffer, call) if isinstance(buffer, int) else buffer
        need = desc.element_count() * dtypes.size(desc.dtype)
        if b.size < need:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {what} holds {size} bytes, but its description ({desc}) "
                             "needs {need}.").format(call=call, what=what, size=b.size,
                                                     desc=desc.describe(), need=need))
        if need == 0:
            return None
        a = self.rt.memory.map.resolve(b.addr, need, what, call)
        if a.location != "device":
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {what} points at host memory ({block}); operators read and "
                             "write device memory (acl.rt.malloc).").format(
                               call=call, what=what, block=a.describe()))
        return a, b.addr - a.ptr, need

    def cast(self, src: int, src_buffer: int, dst: int, dst_buffer: int, truncate: bool,
             stream: int, call: str) -> None:
        """aclopCast: the Cast operator with the attributes cast_op.cpp builds."""
        dst_type = self.desc(dst, call).dtype
        src_desc = self.desc(src, call)
        attrs = {"truncate": ("bool", truncate), "dst_type": ("int", dst_type)}
        model = self.match("Cast", [src_desc], [self.desc(dst, call)], attrs, call)
        self.launch(model, [src_desc], (src_buffer,), [self.desc(dst, call)], (dst_buffer,),
                    stream, call)

    def launch(self, model: OpModel, in_descs, in_bufs, out_descs, out_bufs,
               stream_handle: int, call: str) -> None:
        if len(in_descs) != len(in_bufs) or len(out_descs) != len(out_bufs):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {ins} input description(s) for {inb} input buffer(s), "
                             "{outs} output description(s) for {outb} output buffer(s): each "
                             "tensor needs both.").format(call=call, ins=len(in_descs),
                                                         inb=len(in_bufs), outs=len(out_descs),
                                                         outb=len(out_bufs)))
        kernel = KERNELS.get(model.op)
        if kernel is None:
            raise SimError(C.ACL_ERROR_OP_NOT_FOUND,
                           _("{call}: the simulator has no kernel for operator {op} yet "
                             "(it runs {ops}).").format(call=call, op=model.op,
                                                       ops=", ".join(sorted(KERNELS))))
        ins = [self._place(d, b, _("input {i}").format(i=i), call)
               for i, (d, b) in enumerate(zip(in_descs, in_bufs))]
        outs = [self._place(d, b, _("output {i}").format(i=i), call)
                for i, (d, b) in enumerate(zip(out_descs, out_bufs))]
        stream = self.rt.stream(stream_handle, call)
        self.rt.allocators.before_operator(stream_handle, len(ins) + len(outs), call)
        nbytes = sum(p[2] for p in ins + outs if p is not None)
        self.rt.memory.ram.need(3 * nbytes, call, _("computing operator {op}").format(
            op=model.op))
        in_specs = [d.spec() for d in in_descs]
        out_specs = [d.spec() for d in out_descs]
        values = {n: v for n, _k, v in model.attrs}

        def run() -> None:
            arrays = []
            for spec, place in zip(in_specs, ins):
                dtype = np.dtype(NUMPY[spec.dtype])
                if place is None:
                    raw = spec.const if spec.const is not None else b""
                    arrays.append(np.frombuffer(raw, dtype).reshape(spec.dims)
                                  if raw else np.zeros(spec.dims, dtype))
                else:
                    a, off, n = place
                    arrays.append(a.view(off, n).view(dtype).reshape(spec.dims).copy())
            with np.errstate(all="ignore"):
                try:
                    results = kernel(arrays, values, [NUMPY[s.dtype] for s in out_specs])
                except (ValueError, IndexError, TypeError):
                    return       # inputs the operator cannot compute: outputs stay as they were
            for spec, place, value in zip(out_specs, outs, results):
                if place is None:
                    continue
                a, off, n = place
                target = a.view(off, n).view(NUMPY[spec.dtype]).reshape(spec.dims)
                try:
                    value = np.asarray(value)
                    if value.size == target.size:
                        value = value.reshape(spec.dims)
                    np.copyto(target, np.broadcast_to(value, spec.dims), casting="unsafe")
                except ValueError:
                    continue

        uses = tuple(p[0] for p in ins + outs if p is not None)
        task = Task("op", self.rt.profile.rates.op_us(nbytes), run=run, nbytes=nbytes,
                    uses=uses, detail={"op": model.op})
        self.rt.issue(stream, task, call)

    def execute(self, op: str, in_handles, in_bufs, out_handles, out_bufs, attr: int,
                stream: int, call: str) -> None:
        in_descs = [self.desc(h, call) for h in in_handles]
        out_descs = [self.desc(h, call) for h in out_handles]
        attrs = {} if attr == 0 else dict(self.attr(attr, call).values)
        model = self.match(op, in_descs, out_descs, attrs, call)
        self.launch(model, in_descs, in_bufs, out_descs, out_bufs, stream, call)

    def create_handle(self, op: str, in_handles, out_handles, attr: int, call: str) -> int:
        in_descs = tuple(self.desc(h, call) for h in in_handles)
        out_descs = tuple(self.desc(h, call) for h in out_handles)
        attrs = {} if attr == 0 else dict(self.attr(attr, call).values)
        model = self.match(op, in_descs, out_descs, attrs, call)
        h = Handle(self._handle(HANDLE_BASE), model, in_descs, out_descs)
        self.handles[h.handle] = h
        return h.handle

    def handle(self, handle: int, call: str) -> Handle:
        return handles.live(self.handles, handle, call, _(
            "{call}: {handle} is not a live aclopHandle (destroyed, or never created). Use the "
            "handle acl.op.create_handle returned."))

    def destroy_handle(self, handle: int) -> None:
        self.handle(handle, "aclopDestroyHandle")
        del self.handles[handle]
