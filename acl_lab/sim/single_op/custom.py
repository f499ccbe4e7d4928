"""Custom single operators built from kernels at run time: compile functions, kernels,
kernel descriptions, the operator cache's size.

As hicann/ge implements them (api/acl/acl_op_executor/single_op/op.cpp aclopCreateKernel /
aclopRegisterCompileFunc / aclopUpdateParams / aclopSetKernelArgs /
aclopSetKernelWorkspaceSizes / aclopSetMaxOpQueueNum; compile/op_kernel_selector.cpp,
op_kernel_registry.cpp): a kernel binary is registered per operator type and kernel id
(an ELF the runtime registers, AI Core or Vector engine only; a second one with the same id
is ACL_ERROR_KERNEL_ALREADY_REGISTERED); one compile function per operator type
(ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED); aclopUpdateParams calls it with a kernel
description it must fill (aclopSetKernelArgs), and the kernel id it names must be
registered (ACL_ERROR_KERNEL_NOT_FOUND). pyACL (python/pyACL/op/op.cpp) calls the Python
compile function with (numInputs, [inputDesc...], numOutputs, [outputDesc...], opAttr,
kernelDesc) and gives GE 0 whatever it returns.

Running such an operator launches its kernel on an AI Core, which the simulator does not
have: it is refused with the launch's code and words (spec/pyacl_functions.REFUSED).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.allocators import learner_call
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.spec.kernel_binary import BinaryError, kernel_symbols
from acl_lab.spec.memory_rules import host_readable
from acl_lab.spec.pyacl_functions import REFUSED
from acl_lab.spec.refusal import Refusal

KERNEL_DESC_BASE = 0x5B00_0000
MAX_KERNEL_BYTES = 64 << 20


@dataclass(eq=False)
class KernelDesc:
    """aclopKernelDesc: what a compile function chose for one call of its operator."""
    handle: int
    op: str
    kernel_id: str | None = None
    block_dim: int = 0
    args: bytes = b""
    workspaces: list = field(default_factory=list)


class CustomOps:
    def __init__(self, rt):
        self.rt = rt
        self.compile_funcs: dict[str, object] = {}      # op type -> the Python function
        self.kernels: dict[tuple[str, str], str] = {}   # (op type, kernel id) -> kernel name
        self.selected: dict[str, KernelDesc] = {}       # op type -> its last selection
        self.descs: dict[int, KernelDesc] = {}          # descriptions open in a compile call
        self.max_op_num: int | None = None
        self._count = 0

    def register(self, op: str, fn) -> None:
        if op in self.compile_funcs:
            raise SimError(C.ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED, _(
                "{call}: operator {op} already has a compile function; unregister it first "
                "(acl.op.unregister_compile_func).").format(call="aclopRegisterCompileFunc",
                                                           op=op))
        self.compile_funcs[op] = fn

    def unregister(self, op: str) -> None:
        self.compile_funcs.pop(op, None)
        self.selected.pop(op, None)

    def create_kernel(self, op: str, kernel_id: str, kernel_name: str, data: int, size: int,
                      engine: int, call: str = "aclopCreateKernel") -> None:
        if data == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: binData is NULL.").format(call=call))
        if (op, kernel_id) in self.kernels:
            raise SimError(C.ACL_ERROR_KERNEL_ALREADY_REGISTERED, _(
                "{call}: operator {op} already has kernel {id}.").format(
                    call=call, op=op, id=repr(kernel_id)))
        if engine not in (C.ACL_ENGINE_AICORE, C.ACL_ENGINE_VECTOR):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: engine type {engine} is not ACL_ENGINE_AICORE (1) or ACL_ENGINE_VECTOR "
                "(2).").format(call=call, engine=engine))
        if not 0 < size <= MAX_KERNEL_BYTES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: binSize {size} is not the size of a kernel binary.").format(
                    call=call, size=size))
        block = host_readable(self.rt.memory.map, data, size, call, self.rt.profile.run_mode)
        self.rt.memory.ram.need(size, call, _("a copy of the binary"))
        raw = np.empty(size, np.uint8)
        block.read_into(data - block.ptr, size, raw)
        try:
            names = kernel_symbols(raw.tobytes())
        except BinaryError as e:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: the binary at {ptr} is not one the runtime registers: {reason}.").format(
                    call=call, ptr=f"0x{data:x}", reason=e)) from None
        if kernel_name not in names:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: the binary has no kernel named {name}.").format(call=call,
                                                                        name=repr(kernel_name)))
        self.kernels[(op, kernel_id)] = kernel_name

    # ----- kernel descriptions, valid while a compile function runs ---------------------
    def desc(self, handle: int, call: str) -> KernelDesc:
        return handles.live(self.descs, handle, call, _(
            "{call}: {handle} is not a kernel description of a compile function that is "
            "running: it is valid only inside the compile function acl.op.update_params "
            "calls."))

    def set_args(self, handle: int, kernel_id: str, block_dim: int, args: int, size: int,
                 call: str = "aclopSetKernelArgs") -> None:
        if args == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: args is NULL.").format(
                call=call))
        d = self.desc(handle, call)
        data = self._host_bytes(args, size, "args", call)
        d.kernel_id, d.block_dim, d.args = kernel_id, block_dim, data

    def set_workspaces(self, handle: int, count: int, sizes: int,
                       call: str = "aclopSetKernelWorkspaceSizes") -> None:
        d = self.desc(handle, call)
        if count < 0 or count and sizes == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: numWorkspaces {count} is negative, or workspaceSizes is NULL.").format(
                    call=call, count=count))
        raw = self._host_bytes(sizes, 8 * count, "workspaceSizes", call) if count else b""
        d.workspaces += list(np.frombuffer(raw, "<u8").tolist())

    def _host_bytes(self, ptr: int, size: int, what: str, call: str) -> bytes:
        if size == 0:
            return b""
        block = host_readable(self.rt.memory.map, ptr, size, call, self.rt.profile.run_mode)
        out = np.empty(size, np.uint8)
        block.read_into(ptr - block.ptr, size, out)
        return out.tobytes()

    def update_params(self, op: str, in_descs: list[int], out_descs: list[int], attr: int,
                      call: str = "aclopUpdateParams") -> None:
        """OpKernelSelector::SelectOpKernel: the compile function chooses a kernel."""
        fn = self.compile_funcs.get(op)
        if fn is None:
            raise SimError(C.ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED, _(
                "{call}: operator {op} has no compile function; register one with "
                "acl.op.register_compile_func.").format(call=call, op=op))
        self._count += 1
        d = KernelDesc(KERNEL_DESC_BASE + self._count * 0x40, op)
        self.descs[d.handle] = d
        try:
            learner_call(fn, len(in_descs), list(in_descs), len(out_descs), list(out_descs),
                         attr, d.handle)
        except Exception:       # pyACL logs "AclOpCompileFuncCallback wrong out", returns 0
            pass
        finally:
            del self.descs[d.handle]
        if d.kernel_id is None or (op, d.kernel_id) not in self.kernels:
            raise SimError(C.ACL_ERROR_KERNEL_NOT_FOUND, _(
                "{call}: the compile function of {op} chose kernel {id}, which is not "
                "registered for it (acl.op.create_kernel(op_type, kernel_id, ...)); a compile "
                "function names its kernel with acl.op.set_kernel_args.").format(
                    call=call, op=op, id=repr(d.kernel_id)))
        self.selected[op] = d

    def no_model(self, op: str, call: str) -> None:
        """An operator with no compiled model: one built from a registered kernel would be
        launched on an AI Core now, which the simulator refuses."""
        if op in self.compile_funcs:
            reason = REFUSED["rt.launch_kernel"].reason
            raise Refusal(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(reason).format(call=call))

    def set_max_op_num(self, count: int, call: str = "aclopSetMaxOpQueueNum") -> None:
        if count == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: maxOpNum must be positive.").format(call=call))
        self.max_op_num = count
