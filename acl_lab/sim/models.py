"""Offline models (aclmdl*): data buffers, datasets, descriptions, load, execute, unload.

Codes follow the implementation: aclCreateDataBuffer and friends as in hicann/runtime
(src/acl/aclrt_impl/data_buffer.cpp); loading, datasets and execution as in hicann/ge
(api/acl/acl_model/model/model.cpp ModelExecute, runtime/v1/graph/load/model_manager/
davinci_model.cc: a user buffer plus 64 bytes smaller than the model's tensor is
ACL_ERROR_GE_PARAM_INVALID, as is work or weight memory smaller than the model needs; an
unknown model ID is ACL_ERROR_GE_EXEC_MODEL_ID_INVALID; a missing file
ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID; bytes that are not an .om
ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID; a dataset whose buffer count differs from the
model's FAILED, i.e. ACL_ERROR_GE_FAILURE).

Model memory: loaded with aclmdlLoadFromFile/Mem, ACL allocates the work (feature maps)
and weight memory on the device and frees it at unload; loaded ...WithMem, the
application's own allocations are used, checked for size, and stay the application's.
Loading checks the whole model first (om.describe: the header; om_graph.verify: the graph
against it) and builds its executor (executor.py: onnxruntime) before any memory is taken.
Execution runs the ONNX graph on the bytes in device memory. Host RAM is budgeted: reading
a graph, the executor's copy of the weights while loaded, and each execution's peak.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field, replace

import numpy as np

from acl_lab import constants as C
from acl_lab.om import container as om
from acl_lab.om import dynamic as om_dynamic
from acl_lab.om import graph as om_graph
from acl_lab.i18n import _
from acl_lab.spec.codes import acl_lab_check
from acl_lab.spec.snapshot_schema import OfflineModelRow
from acl_lab.support import files
from acl_lab.sim.memory import Allocation
from acl_lab.sim.model_gears import ModelGears
from acl_lab.sim.model_ranges import ModelRanges
from acl_lab.sim import profiling_ops
from acl_lab.om.aipp_dynamic import DATA_NAME as DYNAMIC_AIPP_DATA, DynamicAipp
from acl_lab.om.executor import Session
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.sim.streams import Stream, Task

DATABUF_BASE, DATASET_BASE, DESC_BASE = 0x8000_0000, 0x9000_0000, 0xA000_0000
#: the call that picks a gear of each kind (om/dynamic.py)
SETTERS = {"batch": "acl.mdl.set_dynamic_batch_size", "hw": "acl.mdl.set_dynamic_hw_size",
           "dims": "acl.mdl.set_input_dynamic_dims"}
IO_SLACK = 64     # GE accepts a user buffer up to 64 bytes smaller than the tensor
LOAD_COPIES = 3   # a load holds the graph's bytes, their parse, and the executor's copy
HELD_COPIES = 2   # onnxruntime keeps the weights and, for convolutions, a reordered copy
ARENA_GROWTH = 2  # and its arena keeps an execution's tensors, grown in doubling chunks


def io_name(outputs: bool) -> str:
    """"input" / "output" as a word of the learner's language."""
    return _("output") if outputs else _("input")


def _memory_name(what: str) -> str:
    """A model's "work" / "weight" memory, named in the learner's language."""
    return _("work memory") if what == "work" else _("weight memory")


def _family(soc: str) -> str:
    """Ascend910B3 -> Ascend910B: models run on the SoC family they were built for."""
    return re.sub(r"(?<=[A-Z])\d+$", "", soc)


@dataclass(eq=False)
class DataBuffer:
    handle: int
    addr: int
    size: int


@dataclass(eq=False)
class Dataset:
    handle: int
    buffers: list = field(default_factory=list)
    gear: tuple | None = None        # set by aclmdlSetDynamicBatchSize / HWSize
    tensor_descs: dict = field(default_factory=dict)   # index -> aclTensorDesc it owns


@dataclass(eq=False)
class LoadedModel:
    id: int
    om: om.OfflineModel                # its description (the graph lives in the session)
    device: int
    work: Allocation
    weight: Allocation | None          # None: the model has no weights
    acl_parts: tuple                   # the allocations ACL made for it (freed at unload)
    session: Session
    peak_bytes: int                    # host RAM one execution needs at its peak
    held: int                          # host RAM the session keeps while loaded
    memory: str                        # "acl", "app" or "mixed": who allocated work/weight
    executions: int = 0
    gear: tuple | None = None          # the gear last set (aclmdlGetCurOutputDims reports it)
    graph: object = None               # a shape-range model's skeleton (model_ranges.py)
    ops: tuple = ()                    # its operators as a profiler names them (node_ops.py)


@dataclass(eq=False)
class Desc:
    handle: int
    model: om.OfflineModel | None = None
    model_id: int = 0


class OfflineModels(ModelGears, ModelRanges):
    """Everything aclmdl* and aclDataBuffer of one simulated process."""

    def __init__(self, rt):
        self.rt = rt
        self.buffers: dict[int, DataBuffer] = {}
        self.datasets: dict[int, Dataset] = {}
        self.descs: dict[int, Desc] = {}
        self.loaded: dict[int, LoadedModel] = {}
        self.unloaded: set[int] = set()
        self._next = {DATABUF_BASE: 0, DATASET_BASE: 0, DESC_BASE: 0}
        self._next_id = 0
        self.range_facts: dict = {}      # (model id, input dims) -> Facts (model_ranges.py)

    def _handle(self, base: int) -> int:
        self._next[base] += 1
        return base + self._next[base] * 0x40

    # ----- aclDataBuffer (any address and size are accepted, as ACL does) ----------------
    def create_buffer(self, addr: int, size: int) -> int:
        b = DataBuffer(self._handle(DATABUF_BASE), addr, size)
        self.buffers[b.handle] = b
        return b.handle

    def buffer(self, handle: int, call: str) -> DataBuffer:
        return handles.live(self.buffers, handle, call, _(
            "{call}: dataBuffer {handle} is not a live aclDataBuffer (destroyed, or never "
            "created). Use the handle acl.create_data_buffer returned."), _(
            "{call}: dataBuffer {handle} is NULL. Use the handle acl.create_data_buffer "
            "returned."))

    def destroy_buffer(self, handle: int) -> None:
        self.buffer(handle, "aclDestroyDataBuffer")
        del self.buffers[handle]

    def update_buffer(self, handle: int, addr: int, size: int) -> None:
        b = self.buffer(handle, "aclUpdateDataBuffer")
        b.addr, b.size = addr, size

    # ----- aclmdlDataset -------------------------------------------------------------------
    def create_dataset(self) -> int:
        d = Dataset(self._handle(DATASET_BASE))
        self.datasets[d.handle] = d
        return d.handle

    def dataset(self, handle: int, call: str, what: str = "dataset") -> Dataset:
        return handles.live(self.datasets, handle, call, _(
            "{call}: {what} {handle} is not a live aclmdlDataset (destroyed, or never "
            "created). Create one with acl.mdl.create_dataset()."), _(
            "{call}: {what} {handle} is NULL. Create one with acl.mdl.create_dataset()."),
            what=what)

    def dataset_buffer(self, ds: int, index: int, call: str) -> int:
        """aclmdlGetDatasetBuffer: the ``index``-th data buffer of the dataset."""
        buffers = self.dataset(ds, call).buffers
        if index >= len(buffers):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: index {index} is out of range; the dataset holds {count} "
                             "buffer(s). Got NULL (0).").format(call=call, index=index,
                                                               count=len(buffers)))
        return buffers[index]

    def add_buffer(self, ds: int, buf: int) -> int:
        call = "aclmdlAddDatasetBuffer"
        d = self.dataset(ds, call)
        self.buffer(buf, call)
        d.buffers.append(buf)
        return ds

    def destroy_dataset(self, ds: int) -> None:
        self.drop_tensor_descs(self.dataset(ds, "aclmdlDestroyDataset"))
        del self.datasets[ds]      # its data buffers live on: destroy them yourself

    # ----- aclmdlDesc ----------------------------------------------------------------------
    def create_desc(self) -> int:
        d = Desc(self._handle(DESC_BASE))
        self.descs[d.handle] = d
        return d.handle

    def desc(self, handle: int, call: str, filled: bool = True) -> Desc:
        d = handles.live(self.descs, handle, call, _(
            "{call}: modelDesc {handle} is not a live aclmdlDesc. Create one with "
            "acl.mdl.create_desc()."), _(
            "{call}: modelDesc {handle} is NULL. Create one with acl.mdl.create_desc()."))
        if filled and d.model is None:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: modelDesc {handle} is empty. Fill it first with "
                             "acl.mdl.get_desc(desc, model_id).").format(
                               call=call, handle=f"0x{handle:x}"))
        return d

    def get_desc(self, handle: int, model_id: int) -> None:
        d = self.desc(handle, "aclmdlGetDesc", filled=False)
        d.model, d.model_id = self.model(model_id, "aclmdlGetDesc").om, model_id

    def destroy_desc(self, handle: int) -> None:
        self.desc(handle, "aclmdlDestroyDesc", filled=False)
        del self.descs[handle]

    def tensor(self, handle: int, index: int, outputs: bool, call: str) -> om.TensorDesc:
        m = self.desc(handle, call).model
        items = m.outputs if outputs else m.inputs
        if not 0 <= index < len(items):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: index {index} is out of range; the model has {count} "
                             "{kind}(s), indices 0..{last}.").format(
                               call=call, index=index, count=len(items), kind=io_name(outputs),
                               last=len(items) - 1))
        return items[index]

    # ----- reading models --------------------------------------------------------------------
    # As GE's ModelParserBase (LoadFromFile, ParseModelContent): a path that is no readable
    # file is 145002; bytes whose header or length is not an .om's are 145006. The graph is
    # read only once the header checked out, and only within the host-RAM budget.
    def read_file(self, path, call: str, graph: bool = True) -> om.OfflineModel:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"{call}: modelPath must be a str, not {type(path).__name__}")
        try:        # a regular file (support/files: never a FIFO or a device), any size:
            fd, size = files.open_regular(path, 1 << 62)    # only its header is read first
        except files.Refused:
            fd, size = None, 0
        if not size:
            if fd is not None:
                os.close(fd)
            raise SimError(C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                           _("{call}: model file {path} does not exist or is empty. Check the "
                             "path (relative to the working directory {cwd}) and convert the "
                             "model with `acl-lab atc` first.").format(
                               call=call, path=repr(os.fspath(path)),
                               cwd=repr(os.path.basename(os.getcwd()))))
        with os.fdopen(fd, "rb") as f:
            def read(offset: int, n: int) -> bytes:
                f.seek(offset)
                return f.read(n)
            return self._read(size, read, call, graph, path=os.fspath(path))

    def read_mem(self, ptr: int, size: int, call: str, graph: bool = True) -> om.OfflineModel:
        if ptr == 0:
            raise SimError(C.ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID,
                           _("{call}: model is NULL. Pass the address of the .om bytes (e.g. "
                             "acl.util.bytes_to_ptr(data)).").format(call=call))
        if size == 0:
            raise SimError(C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                           _("{call}: modelSize is 0. Pass the size of the .om bytes.").format(
                               call=call))
        a = self.rt.memory.map.resolve(ptr, size, "model", call,
                                       code=C.ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID)

        def read(offset: int, n: int) -> bytes:
            out = np.empty(n, np.uint8)     # untouched bytes are read, not made resident
            a.read_into(ptr - a.ptr + offset, n, out)
            return out.tobytes()
        return self._read(size, read, call, graph, addr=ptr)

    def _read(self, size: int, read, call: str, graph: bool, path: str = "",
              addr: int = 0) -> om.OfflineModel:
        """The model of ``size`` bytes ``read(offset, n)`` gives: the header checked, then (if
        ``graph``) its graph read, once the budget has room to read and load it."""
        try:
            m, start = om.describe(size, read)
        except om.NotAnOm as e:
            raise self._not_an_om(call, e, path, addr) from None
        if not graph:
            return m
        self.rt.memory.ram.need(LOAD_COPIES * (size - start), call,
                                _("reading and checking the model's graph"))
        return replace(m, onnx_bytes=read(start, size - start))

    @staticmethod
    def _not_an_om(call: str, reason, path: str = "", addr: int = 0) -> SimError:
        text = (_("{call}: the model at {addr} is not an offline model: {reason}.") if addr
                else _("{call}: the model {path} is not an offline model: {reason}."))
        return SimError(C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                        text.format(call=call, addr=f"0x{addr:x}", path=repr(path),
                                    reason=reason))

    # ----- load / unload -------------------------------------------------------------------
    def load(self, m: om.OfflineModel, call: str, work: tuple | None = None,
             weight: tuple | None = None) -> int:
        """Load ``m`` on the current device. ``work`` / ``weight``: (ptr, size) the
        application allocated, or None for ACL-managed memory. Everything is checked and the
        executor built before any memory is taken; a failed or interrupted load leaves none."""
        ctx = self.rt.require_ctx(call)
        soc = self.rt.profile.soc_name
        if _family(m.soc_version) != _family(soc):
            raise SimError(C.ACL_ERROR_GE_LOAD_MODEL,
                           _("{call}: the model was built for {built}, but this device is {soc}. "
                             "Convert it again with --soc_version={soc}.").format(
                               call=call, built=m.soc_version, soc=soc))
        user = [self._user_memory(call, what, given, need)
                for what, given, need in (("work", work, m.work_size),
                                          ("weight", weight, m.weight_size))]
        try:
            facts = om_graph.verify(m)
        except om_graph.GraphError as e:
            raise self._not_an_om(call, e) from None
        held = HELD_COPIES * len(m.onnx_bytes) + ARENA_GROWTH * facts.peak_bytes
        self.rt.memory.ram.need(held + facts.peak_bytes, call,
                                _("the model's weights and one execution's tensors"))
        try:
            session = Session(m.onnx_bytes)
        except (ImportError, MemoryError):
            raise
        except Exception as e:         # the executor refuses the graph: not a model we run
            raise self._not_an_om(call, f"{type(e).__name__}: {str(e)[:200]}") from None
        desc = replace(m, onnx_bytes=b"")
        ram, sched = self.rt.memory.ram, self.rt.sched
        load_us = m.weight_size / self.rt.profile.rates.h2d_pinned
        memory = "acl" if user == [None, None] else "app" if None not in user else "mixed"
        taken = []
        try:
            for part, need, api in zip(user, (m.work_size, m.weight_size),
                                       ("model_work", "model_weight")):
                if part is None and need:
                    taken.append(self.rt.memory.malloc(ctx.device, need,
                                                       C.ACL_MEM_MALLOC_HUGE_FIRST, api))
                else:
                    taken.append(None)
            lm = LoadedModel(self._next_id + 1, desc, ctx.device,
                             user[0] or taken[0], user[1] or taken[1],
                             tuple(a for a in taken if a is not None), session,
                             facts.peak_bytes, held, memory,
                             graph=om_graph.skeleton(om_graph.parse(m.onnx_bytes))
                             if m.ranges is not None else None, ops=facts.ops)
        except BaseException as e:     # no memory, or interrupted: give back what was taken
            for a in taken:
                if a is not None:
                    self.rt.memory.release(a, _("{call} failed").format(call=call))
            if isinstance(e, SimError):
                raise SimError(C.ACL_ERROR_GE_MEMORY_ALLOCATION,
                               _("{call}: no device memory for the model ({reason})").format(
                                   call=call, reason=e.message)) from None
            raise
        # committed without a call in between: an interrupt lands before or after, not inside
        # (host_us, not the now_us property: a property is a call)
        self._next_id = lm.id
        self.loaded[lm.id] = lm
        ram.held += held
        sched.host_us += load_us
        return lm.id

    def _user_memory(self, call, what, given, need) -> Allocation | None:
        if given is None or given[0] == 0:
            return None      # NULL: ACL allocates this part itself, as GE does
        ptr, size = given
        if size < need:
            raise SimError(C.ACL_ERROR_GE_PARAM_INVALID,
                           _("{call}: {param} is {size} B, but the model needs {need} B of "
                             "{memory}. Ask acl.mdl.query_size(path) and allocate that "
                             "much.").format(call=call, param=f"{what}Size", size=size,
                                             need=need, memory=_memory_name(what)))
        a = self.rt.memory.map.resolve(ptr, need, f"{what}Ptr", call,
                                       code=C.ACL_ERROR_GE_PARAM_INVALID)
        if a.location != "device":
            raise SimError(C.ACL_ERROR_GE_PARAM_INVALID,
                           _("{call}: {param} {ptr} is {block}: host memory. Model {memory} must "
                             "be device memory from acl.rt.malloc.").format(
                               call=call, param=f"{what}Ptr", ptr=f"0x{ptr:x}",
                               block=a.describe(), memory=_memory_name(what)))
        return a

    def model(self, model_id: int, call: str) -> LoadedModel:
        lm = self.loaded.get(model_id)
        if lm is None:
            text = (_("{call}: model {model_id} was already unloaded. Use the model_id a "
                      "successful acl.mdl.load_* returned, and unload each model exactly "
                      "once.") if model_id in self.unloaded else
                    _("{call}: model {model_id} was never loaded. Use the model_id a successful "
                      "acl.mdl.load_* returned, and unload each model exactly once."))
            raise SimError(C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
                           text.format(call=call, model_id=model_id))
        return lm

    def unload(self, model_id: int, why: str = "aclmdlUnload") -> None:
        lm = self.model(model_id, "aclmdlUnload")
        for s in self.rt.all_streams(lm.device):     # running executions finish first
            last = next((t.seq for t in reversed(s.pending)
                         if t.detail.get("offline_model") == model_id), None)
            if last is not None:
                self.rt.sched.wait_stream(s, last)
        del self.loaded[model_id]
        self.unloaded.add(model_id)
        self.rt.memory.ram.held -= lm.held
        for a in lm.acl_parts:
            self.rt.memory.release(a, _("released by {call}").format(call=f"{why}({model_id})"))

    def drop_device(self, device: int, call: str) -> None:
        """A device is reset: its models are unloaded with it (and said so)."""
        gone = [i for i, lm in self.loaded.items() if lm.device == device]
        if gone:
            self.rt.report(_("{call}({device}): model(s) {models} never unloaded; unloaded now. "
                             "Call acl.mdl.unload(model_id) before resetting the device.").format(
                                 call=call, device=device, models=gone))
        for i in gone:
            self.unload(i, call)

    # ----- execute ---------------------------------------------------------------------------
    def execute(self, model_id: int, inputs: int, outputs: int, stream: Stream | None) -> None:
        call = "aclmdlExecute" if stream is None else "aclmdlExecuteAsync"
        lm = self.model(model_id, call)
        ins = self.dataset(inputs, call, "input")
        outs = self.dataset(outputs, call, "output")
        live = self.rt.memory.allocs
        for what, a in (("work", lm.work), ("weight", lm.weight)):
            if a is not None and live.get(a.ptr) is not a:
                raise SimError(C.ACL_ERROR_RT_MODEL_EXECUTE, acl_lab_check(
                               _("{call}: model {model_id}'s {memory} {ptr} was freed while the "
                                 "model is loaded. Memory passed to load_from_file_with_mem must "
                                 "stay allocated until acl.mdl.unload; nothing ran.").format(
                                   call=call, model_id=model_id, memory=_memory_name(what),
                                   ptr=f"0x{a.ptr:x}")))
        descs, peak = (lm.om.inputs, lm.om.outputs), lm.peak_bytes
        if lm.om.ranges is not None:         # shapes from the dataset's tensor descriptions
            *descs, peak = self.range_shapes(call, lm, ins)
        in_places = self._places(call, "input", ins, descs[0], stream is None, lm.device)
        out_places = self._places(call, "output", outs, descs[1], stream is None, lm.device)
        gears = lm.om.dynamic
        if gears is not None and ins.gear not in gears.gears:
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                           _("{call}: model {model_id} has gears and no gear was set on this "
                             "input dataset. Call {setter} with the index of {name} "
                             "first.").format(call=call, model_id=model_id,
                                              name=om_dynamic.TENSOR_NAME,
                                              setter=SETTERS[gears.kind]))
        self.rt.memory.ram.need(peak, call, _("one execution's tensors"))
        if stream is None:
            self.rt.before_blocking_call(call)       # refused under a GLOBAL capture
        task = profiling_ops.watch(self.rt, lm.id, self._task(lm, in_places, out_places,
                                                               ins.gear))
        if stream is None:
            self.rt.sched.blocking(task)
        else:
            self.rt.issue(stream, task, call)
        if lm.om.ranges is not None:
            self.set_output_descs(outs, descs[1])
        lm.executions += 1

    def _places(self, call, kind, ds: Dataset, descs, sync: bool, device: int) -> list:
        word = io_name(kind == "output")
        if len(ds.buffers) != len(descs):
            raise SimError(C.ACL_ERROR_GE_FAILURE,
                           _("{call}: the {kind} dataset holds {count} buffer(s), but the model "
                             "has {need} {kind}(s). Add exactly one data buffer per {kind}, in "
                             "index order ({getter}).").format(
                               call=call, kind=word, count=len(ds.buffers), need=len(descs),
                               getter=f"acl.mdl.get_num_{kind}s(desc)"))
        places = []
        for i, (h, d) in enumerate(zip(ds.buffers, descs)):
            b = self.buffer(h, call)
            if b.addr == 0 and kind == "output" and sync:
                places.append((None, 0, d, b))       # allocated at execution, as GE does
                continue
            if b.size + IO_SLACK < d.size:
                raise SimError(C.ACL_ERROR_GE_PARAM_INVALID,
                               _("{call}: {kind} {index} ({name}) buffer is {size} B, but the "
                                 "model needs {need} B (dims {dims}, {dtype}). Size it with "
                                 "{getter}.").format(
                                   call=call, kind=word, index=i, name=d.name, size=b.size,
                                   need=d.size, dims=list(d.dims),
                                   dtype=C.DATA_TYPE_NAMES.get(d.dtype),
                                   getter=f"acl.mdl.get_{kind}_size_by_index(desc, {i})"))
            a = self.rt.memory.map.resolve(b.addr, d.size, f"{word} {i}", call,
                                           code=C.ACL_ERROR_GE_PARAM_INVALID)
            if a.location != "device" or a.device != device:
                raise SimError(C.ACL_ERROR_GE_PARAM_INVALID,
                               _("{call}: {kind} {index} ({name}) is at {addr}, {block} — not "
                                 "memory of device {device}. The model reads and writes device "
                                 "memory: allocate with acl.rt.malloc and copy host data in with "
                                 "acl.rt.memcpy.").format(
                                   call=call, kind=word, index=i, name=d.name,
                                   addr=f"0x{b.addr:x}", block=a.describe(), device=device))
            places.append((a, b.addr - a.ptr, d, b))
        return places

    def _task(self, lm: LoadedModel, ins: list, outs: list, gear: tuple | None) -> Task:
        for i, (a, _off, d, b) in enumerate(outs):
            if a is None:                            # NULL output of a sync execution
                a = self.rt.memory.malloc(lm.device, d.size, C.ACL_MEM_MALLOC_HUGE_FIRST, "malloc")
                b.addr, b.size = a.ptr, d.size
                outs[i] = (a, 0, d, b)
        nbytes = sum(d.size for *_, d, _b in ins + outs)

        gears = lm.om.dynamic
        in_dims = {d.name: gears.dims(d.name, d.dims, gear) if gears else d.dims
                   for *_, d, _b in ins}

        aipp = {a.input: a for a in lm.om.aipp}
        settings = [(a, off, d.size) for a, off, d, _b in ins if d.name == DYNAMIC_AIPP_DATA]

        def run() -> None:
            feed = {}
            for a, off, d, _buffer in ins:
                if d.name in (om_dynamic.TENSOR_NAME, DYNAMIC_AIPP_DATA):
                    continue                  # read by the device, not by the graph
                if d.name in aipp:            # the raw image, through AIPP first
                    given = [s.view(o, n) for s, o, n in settings
                             if isinstance(aipp[d.name], DynamicAipp)]     # its parameters
                    try:
                        feed[d.name] = aipp[d.name].apply(a.view(off, d.size),
                                                          om.NUMPY_DTYPE[d.onnx_dtype], *given)
                    except ValueError as e:     # dynamic AIPP parameters the device refuses
                        self.rt.report(_("model {model_id}: AIPP failed ({error}); its outputs "
                                         "were not written.").format(model_id=lm.id, error=e))
                        return
                    continue
                dims = in_dims[d.name]
                n = math.prod(dims) * np.dtype(om.NUMPY_DTYPE[d.dtype]).itemsize
                raw = a.view(off, n).view(om.NUMPY_DTYPE[d.dtype]).reshape(dims)
                feed[d.name] = raw.astype(om.NUMPY_DTYPE[d.onnx_dtype])
            try:
                with np.errstate(all="ignore"):   # garbage inputs may overflow, as on a device
                    results = lm.session.run(feed)
            except (KeyboardInterrupt, MemoryError):
                raise                  # the task stays queued: waiting again runs it
            except Exception as e:     # the executor failed: the task ends, outputs untouched
                self.rt.report(_("model {model_id}: execution failed in the executor "
                                 "({error}); its outputs were not written.").format(
                                     model_id=lm.id, error=f"{type(e).__name__}: {e}"[:300]))
                return
            for (a, off, d, _buffer), value in zip(outs, results):
                out = np.ascontiguousarray(value, dtype=om.NUMPY_DTYPE[d.dtype])
                out = out.reshape(-1).view(np.uint8)
                a.view(off, out.size)[:] = out

        r = self.rt.profile.rates
        model_bytes = lm.om.weight_size + 2 * lm.om.work_size + nbytes
        return Task("inference", r.op_fixed_us * lm.om.nodes + model_bytes / r.device, run=run,
                    nbytes=nbytes,
                    uses=tuple(p[0] for p in ins + outs) + tuple(
                        a for a in (lm.work, lm.weight) if a is not None),
                    detail={"offline_model": lm.id, "execution": lm.executions + 1})

    # ----- plain data ------------------------------------------------------------------------
    def snapshot(self) -> list[OfflineModelRow]:
        return [{"model_id": lm.id, "device": lm.device, "soc_version": lm.om.soc_version,
                 "memory": lm.memory,
                 "work_ptr": lm.work.ptr, "work_size": lm.om.work_size,
                 "weight_ptr": lm.weight.ptr if lm.weight else 0,
                 "weight_size": lm.om.weight_size,
                 "inputs": [t.name for t in lm.om.inputs],
                 "outputs": [t.name for t in lm.om.outputs], "executions": lm.executions}
                for lm in self.loaded.values()]
