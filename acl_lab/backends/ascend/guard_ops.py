"""What the guard knows about aclnn objects and captured models on real hardware.

A handle the C library did not hand out, passed back to it, is a pointer the library
dereferences: aclDestroyTensor of a stale handle frees memory twice, aclnnAdd with a used
executor or aclmdlRIExecuteAsync with a destroyed model reads freed memory. And a tensor
is only an address: the device writes wherever it points, freed or not. So the guard
records the tensors, scalars and executors handed out (acl.nn.*) and the task groups and
models made by capture (acl.mdl.ri_*), and refuses, before the call reaches the library,
the calls it can prove wrong from that record. Refusals use the code the simulator
returns for the same misuse (acl_lab/sim/aclnn.py, sim/capture.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from acl_lab import constants as C
from acl_lab.errors import Refusal
from acl_lab.i18n import _
from acl_lab.spec import aclnn_rules, dtypes, handles
from acl_lab.spec.snapshot_schema import ModelRow

#: phase two of each aclnn operator -> its phase one, and the positions of its tensors and
#: scalars in phase one's arguments (aclnn_add.h, aclnn_mul.h, aclnn_copy.h)
OPERATORS = {"add": ("add_get_workspace_size", (0, 1, 3), (2,)),
             "mul": ("mul_get_workspace_size", (0, 1, 2), ()),
             "inplace_copy": ("inplace_copy_get_workspace_size", (0, 1), ())}
PHASE_ONE = {one: (op, tensors, scalars) for op, (one, tensors, scalars) in OPERATORS.items()}


@dataclass
class TensorRecord:
    ptr: int
    span: int | None    # bytes from ptr the tensor reaches; None: a data type not known here


def _span(shape, strides, offset, data_type) -> int | None:
    np_type = dtypes.NUMPY.get(data_type)
    return None if np_type is None else aclnn_rules.span(shape, strides, offset,
                                                          np_type().itemsize)


def both(*checks):
    """One check running each of ``checks`` in turn."""
    def check(*args):
        for c in checks:
            c(*args)
    return check


def _ints(values) -> list[int] | None:
    try:
        return [int(v) for v in (values if isinstance(values, (list, tuple)) else [values])]
    except (TypeError, ValueError):
        return None


class OpWatch:
    def __init__(self, guard):
        self.guard = guard
        self.tensors: dict[int, TensorRecord] = {}
        self.scalars: set[int] = set()
        self.executors: dict[int, tuple[str, list[int]]] = {}   # handle -> (op, tensors)
        self.groups: set[int] = set()                            # aclrtTaskGrp handles
        self.models: dict[int, ModelRow] = {}                    # model RI -> what was seen
        self.replaying: dict[int, list[int]] = {}               # stream -> models launched
        self.marks: dict[int, list[int]] = {}                   # event -> replays before it

    def hooks(self) -> dict[str, dict]:
        """(check, after) hooks for the guard's ``nn`` and ``mdl`` namespaces."""
        nn = {"create_tensor": (self._check_create_tensor, self._note_tensor),
              "create_scalar": (None, self._note_scalar),
              "destroy_tensor": (self._check_known(self.tensors, "aclDestroyTensor"),
                                 self._note_forget(self.tensors)),
              "destroy_scalar": (self._check_known(self.scalars, "aclDestroyScalar"),
                                 self._note_forget(self.scalars))}
        for one, (op, tensors, scalars) in PHASE_ONE.items():
            nn[one] = (self._check_prepare(op, tensors, scalars), self._note_prepare(op, tensors))
        for op in OPERATORS:
            nn[op] = (self._check_launch(op), self._note_launch)
        mdl = {"ri_capture_get_info": (self.stream_check("aclmdlRICaptureGetInfo", 0), None),
               "ri_capture_task_grp_begin": (self.stream_check("aclmdlRICaptureTaskGrpBegin", 0),
                                             None),
               "ri_capture_task_grp_end": (self.stream_check("aclmdlRICaptureTaskGrpEnd", 0),
                                           self._note_group),
               "ri_capture_task_update_begin": (both(
                   self.stream_check("aclmdlRICaptureTaskUpdateBegin", 0), self._check_group),
                   None),
               "ri_capture_task_update_end": (
                   self.stream_check("aclmdlRICaptureTaskUpdateEnd", 0), None)}
        return {"nn": nn, "mdl": mdl}

    def stream_check(self, call: str, at: int):
        """A check that argument ``at`` is 0 (the runtime judges NULL itself) or a stream the
        guard saw created and not destroyed: any other value is a pointer the runtime would
        follow."""
        def check(*args):
            stream = args[at] if at < len(args) else 0
            if isinstance(stream, int) and stream and stream not in self.guard.streams:
                raise Refusal(C.ACL_ERROR_RT_INVALID_HANDLE,
                              _("{call}: {handle} is not a live stream. Use a handle from "
                                "acl.rt.create_stream() that has not been destroyed, or 0 for "
                                "the default stream.").format(call=call,
                                                              handle=f"0x{stream:x}"))
        return check

    def forget(self) -> None:
        for table in (self.tensors, self.scalars, self.executors, self.groups, self.models,
                      self.replaying, self.marks):
            table.clear()

    def release(self, real, capturing, models) -> None:
        """acl_lab.reset() on hardware: end the open captures, destroy the models, tensors and
        scalars, before the memory they use is freed (docs/rules.md#rule-23)."""
        mdl, nn = getattr(real, "mdl", None), getattr(real, "nn", None)
        models = list(models)
        for stream in capturing:
            model, ret = mdl.ri_capture_end(stream)
            if ret == 0 and model:
                models.append(model)
        for model in models:
            mdl.ri_destroy(model)
        for tensor in self.tensors:
            nn.destroy_tensor(tensor)
        for scalar in self.scalars:
            nn.destroy_scalar(scalar)
        self.forget()

    # ----- captured models, as acl_lab.snapshot()["models"] shows them --------------------
    def note_model(self, model: int, stream: int, device: int | None) -> None:
        """aclmdlRICaptureEnd made ``model``. The runtime does not describe the tasks it
        recorded, so the row lists none; executions are the replays the guard let through."""
        self.models[model] = {"handle": model, "device": -1 if device is None else device,
                              "stream": stream, "streams": [stream], "ready": True,
                              "executions": 0, "in_flight": 0, "tasks": []}

    def note_execute(self, ret, model, stream_or_timeout):
        row = self.models.get(model)
        if ret == 0 and row is not None:
            row["executions"] += 1

    def note_execute_async(self, ret, model, stream):
        row = self.models.get(model)
        if ret == 0 and row is not None:
            row["executions"] += 1
            row["in_flight"] += 1
            self.replaying.setdefault(stream, []).append(model)

    def note_synchronized(self, stream: int | None) -> None:
        """Replays queued on ``stream`` (None: every stream) have run."""
        for s in list(self.replaying) if stream is None else [stream]:
            for model in self.replaying.pop(s, ()):
                if model in self.models:
                    self.models[model]["in_flight"] -= 1

    def note_record(self, ret, event, stream) -> None:
        if ret == 0:
            self.marks[event] = list(self.replaying.get(stream, ()))

    def note_event_synchronized(self, ret, event) -> None:
        """The replays queued before ``event`` was recorded have run."""
        for model in self.marks.pop(event, ()) if ret == 0 else ():
            for models in self.replaying.values():
                if model in models:
                    models.remove(model)
                    if model in self.models:
                        self.models[model]["in_flight"] -= 1
                    break

    def note_destroyed(self, ret, model) -> None:
        if ret == 0:
            self.models.pop(model, None)

    # ----- tensors and scalars -----------------------------------------------------------
    def _check_create_tensor(self, shape, data_type, strides, offset, fmt, storage_shape,
                             dev_ptr):
        call = "aclCreateTensor"
        dims, steps, store = _ints(shape), _ints(strides), _ints(storage_shape)
        if None in (dims, steps, store) or not isinstance(offset, int) \
                or not isinstance(dev_ptr, int) or not isinstance(data_type, int):
            return                                      # TypeError from the binding
        aclnn_rules.check_tensor(call, tuple(dims), tuple(steps), offset, tuple(store))
        span = _span(dims, steps, offset, data_type)
        if dev_ptr and span:
            block = self.guard.registry.resolve(dev_ptr, span, "tensorData", call)
            if block.location != "device" and self.guard.run_mode() == C.ACL_HOST:
                raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                              _("{call}: tensorData {ptr} is host memory ({block}); operators "
                                "read and write device memory (aclrtMalloc).").format(
                                  call=call, ptr=f"0x{dev_ptr:x}", block=block.describe()))

    def _note_tensor(self, handle, shape, data_type, strides, offset, fmt, storage_shape,
                     dev_ptr):
        if isinstance(handle, int) and handle:
            dims, steps = _ints(shape), _ints(strides)
            self.tensors[handle] = TensorRecord(dev_ptr, _span(dims, steps, offset, data_type))

    def _note_scalar(self, handle, *_args):
        if isinstance(handle, int) and handle:
            self.scalars.add(handle)

    def _check_known(self, table, call: str):
        def check(handle):
            if isinstance(handle, int) and handle not in table:
                raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                              _("{call}: {handle} is not a live object of this kind (never "
                                "created, or destroyed already). The library would free "
                                "memory that is not its own.").format(
                                  call=call, handle=f"0x{handle:x}"))
        return check

    def _note_forget(self, table):
        def after(ret, handle):
            if ret == 0 and handle in table:
                table.remove(handle) if isinstance(table, set) else table.pop(handle)
        return after

    # ----- phase one: workspace size and executor ----------------------------------------
    def _tensor_alive(self, handle: int, name: str, call: str) -> None:
        t = handles.live(self.tensors, handle, call, _(
            "{call}: {name} {handle} is not a tensor from aclCreateTensor (or it was "
            "destroyed)."), dead_code=C.ACLNN_ERR_PARAM_NULLPTR,
            null_code=C.ACLNN_ERR_PARAM_NULLPTR, name=name)
        if t.ptr and t.span:
            self.guard.registry.resolve(t.ptr, t.span, name, call,
                                        code=C.ACLNN_ERR_PARAM_INVALID, explain=lambda why: _(
                                            "{call}: tensor {name} ({handle}) is over memory "
                                            "that is no longer valid: {why} The device would "
                                            "read or write it anyway.").format(
                                                call=call, name=name, handle=f"0x{handle:x}",
                                                why=why))

    def _check_prepare(self, op: str, tensors, scalars):
        call = f"aclnn{op.title().replace('_', '')}GetWorkspaceSize"

        def check(*args):
            for i in tensors:
                if i < len(args) and isinstance(args[i], int):
                    self._tensor_alive(args[i], f"#{i + 1}", call)
            for i in scalars:
                if i < len(args) and isinstance(args[i], int) and args[i] not in self.scalars:
                    raise Refusal(C.ACLNN_ERR_PARAM_NULLPTR,
                                  _("{call}: {handle} is not a scalar from aclCreateScalar (or "
                                    "it was destroyed).").format(call=call,
                                                                 handle=f"0x{args[i]:x}"))
        return check

    def _note_prepare(self, op: str, tensors):
        def after(result, *args):
            if isinstance(result, tuple) and len(result) == 3 and result[2] == 0:
                self.executors[result[1]] = (op, [args[i] for i in tensors if i < len(args)])
        return after

    # ----- phase two: launch on a stream -------------------------------------------------
    def _check_launch(self, op: str):
        call = f"aclnn{op.title().replace('_', '')}"

        stream_ok = self.stream_check(call, 3)

        def check(workspace, workspace_size, executor, stream):
            if not all(isinstance(v, int) for v in (workspace, workspace_size, executor)):
                return
            stream_ok(workspace, workspace_size, executor, stream)
            known = self.executors.get(executor)
            aclnn_rules.check_executor(call, executor, known is not None and known[0] == op)
            for handle in known[1]:
                self._tensor_alive(handle, _("tensor"), call)
            if workspace and workspace_size:
                self.guard.registry.resolve(workspace, workspace_size, "workspace", call)
        return check

    def _note_launch(self, ret, workspace, workspace_size, executor, stream):
        known = self.executors.pop(executor, None) if ret == 0 else None
        if known is None:
            return
        blocks = [self.tensors[h].ptr for h in known[1] if h in self.tensors]
        if workspace:
            blocks.append(workspace)
        starts = {e.ptr for e in map(self.guard.registry.find, blocks) if e is not None}
        if stream in self.guard.capturing:
            self.guard.capturing[stream].update(starts)
        else:
            out = self.tensors.get(known[1][-1])
            if out is not None and out.ptr and out.span:
                self.guard.queued.setdefault(stream, []).append((out.ptr, out.span))

    # ----- task groups -------------------------------------------------------------------
    def _note_group(self, result, *_args):
        if isinstance(result, tuple) and len(result) == 2 and result[1] == 0 and result[0]:
            self.groups.add(result[0])

    def _check_group(self, stream, handle):
        if isinstance(handle, int) and handle and handle not in self.groups:
            raise Refusal(C.ACL_ERROR_RT_INVALID_HANDLE,
                          _("{call}: {handle} is not a task group from "
                            "aclmdlRICaptureTaskGrpEnd.").format(
                              call="aclmdlRICaptureTaskUpdateBegin", handle=f"0x{handle:x}"))

