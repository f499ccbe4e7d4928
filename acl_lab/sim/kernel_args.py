"""Kernel argument lists and kernel launches of one simulated process.

An argument list is built as the runtime builds it (hicann/runtime src/runtime/api/impl/
api_impl.cc KernelArgsInit / InitByUserMem / Append / AppendPlaceHolder /
GetPlaceHolderBuffer / Finalize, api_c_kernel.cc rtsKernelArgsParaUpdate): aclrtKernelArgsInit
hands each thread ONE handle and re-initialises it on every call (a thread-local
ArgsHandleAllocator, 64 KiB of arguments), so a second init in the same thread resets the
first list; aclrtKernelArgsInitByUserMem builds the handle in memory the program provides.
Parameters are copied into the list's buffer (8-byte aligned for AI Core kernels, packed for
AI CPU ones); a placeholder's data goes after every parameter. The buffer is host memory the
program can write through the address aclrtKernelArgsGetPlaceHolderBuffer returns.

The launches check every argument as aclrtLaunchKernel(WithConfig) does, then are refused
with ACL_ERROR_RT_FEATURE_NOT_SUPPORT: the simulator has no AI Core to run the kernel
(spec/pyacl_functions.REFUSED says so in the learner's language).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles, kernel_rules as rules
from acl_lab.spec.pyacl_functions import REFUSED
from acl_lab.spec.transfer_rules import check_writable
from acl_lab.support import threads

ARGS_BASE = 0xB200_0000


@dataclass(eq=False)
class Param:
    handle: int
    place_holder: bool
    offset: int               # where the parameter sits in the list
    size: int
    data_offset: int = 0      # a placeholder's data, once its buffer was asked for


@dataclass(eq=False)
class Args:
    handle: int
    function: object          # kernels.Function
    buffer: object            # the Allocation the arguments are written into
    at: int                   # where in it the list starts
    capacity: int
    holder: object = None     # the program's Allocation holding the handle (by user memory)
    used: int = 0
    params: list = field(default_factory=list)
    got_buffer: bool = False
    finalized: bool = False
    updating: bool = False

    @property
    def cpu(self) -> bool:
        return self.function.cpu


def _positive(call: str, **values: int) -> None:
    """ACL_REQUIRES_NOT_NULL / ACL_REQUIRES_POSITIVE: a NULL pointer or a zero size."""
    for name, value in values.items():
        if value == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {what} is 0 (NULL, or no bytes).").format(call=call, what=name))


class KernelArgs:
    def __init__(self, rt):
        self.rt = rt
        self.lists: dict[int, Args] = {}
        self.params: dict[int, tuple[Args, Param]] = {}
        self._threads: dict[int, Args] = {}    # thread -> its aclrtKernelArgsInit list

    # ----- building a list -------------------------------------------------------------
    def _host(self, ptr: int, n: int, what: str, call: str, write: bool):
        """The block of host memory holding ``n`` bytes at ``ptr`` (on an ACL_DEVICE board
        the program's memory is the device's)."""
        a = self.rt.memory.map.resolve(ptr, n, what, call)
        if a.location != "host" and self.rt.profile.run_mode == C.ACL_HOST:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {what} {ptr} is device memory ({block}); the runtime reads and writes "
                "argument lists in host memory.").format(
                    call=call, what=what, ptr=f"0x{ptr:x}", block=a.describe()))
        if write:
            check_writable(call, a, what, ptr, n)
        return a

    def _reset(self, args: Args, function) -> None:
        for p in args.params:
            self.params.pop(p.handle, None)
        args.function, args.params, args.used = function, [], 0
        args.got_buffer = args.finalized = args.updating = False

    def init(self, func_handle: int, call: str = "aclrtKernelArgsInit") -> int:
        function = self.rt.kernels.function(func_handle, call)
        me = threads.get_ident()
        args = self._threads.get(me)
        if args is None or args.handle not in self.lists:
            buffer = self.rt.memory.malloc_host(rules.MAX_ARGS_BUFF_SIZE, "kernel_args")
            args = Args(ARGS_BASE + (len(self._threads) + 1) * 0x1_0000, function, buffer, 0,
                        rules.MAX_ARGS_BUFF_SIZE)
            self._threads[me] = args
            self.lists[args.handle] = args
        self._reset(args, function)
        return args.handle

    def init_by_user_mem(self, func_handle: int, handle: int, user_mem: int, size: int,
                         call: str = "aclrtKernelArgsInitByUserMem") -> None:
        _positive(call, funcHandle=func_handle, argsHandle=handle, userHostMem=user_mem,
                  actualArgsSize=size)
        function = self.rt.kernels.function(func_handle, call)
        need = rules.handle_mem_size(function.user_params)
        holder = self._host(handle, need, "argsHandle", call, write=True)
        buffer = self._host(user_mem, size, "userHostMem", call, write=True)
        args = self.lists.get(handle)
        if args is None:
            args = Args(handle, function, buffer, user_mem - buffer.ptr, size, holder)
        else:
            args.buffer, args.at, args.capacity, args.holder = buffer, user_mem - buffer.ptr, \
                size, holder
        self._reset(args, function)
        self.lists[handle] = args

    def args(self, handle: int, call: str) -> Args:
        args = handles.live(self.lists, handle, call, _(
            "{call}: {handle} is not a live argument list (the handle of "
            "acl.rt.kernel_args_init / _init_by_user_mem, whose function is still loaded)."),
            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)
        for block in (args.holder, args.buffer):
            if block is not None and self.rt.memory.map.blocks.get(block.ptr) is not block:
                raise SimError(C.ACL_ERROR_RT_INVALID_HANDLE, _(
                    "{call}: the memory argument list {handle} was built in was freed; "
                    "initialise it again.").format(call=call, handle=f"0x{handle:x}"))
        return args

    def _param(self, handle: int, call: str) -> tuple[Args, Param]:
        return handles.live(self.params, handle, call, _(
            "{call}: {handle} is not a parameter of a live argument list (its list was "
            "initialised again since, or the handle is another kind)."),
            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)

    def _open(self, args: Args, call: str, placing: bool = True) -> None:
        """ApiImpl::KernelArgsAppend*: no parameter after finalize or after a placeholder's
        data was placed; at most MAX_PARAM_CNT of them."""
        if args.finalized or placing and args.got_buffer:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: argument list {handle} is {state}; parameters are appended before "
                "any placeholder's data is placed, and before acl.rt.kernel_args_finalize. "
                "Initialise the list again to rebuild it.").format(
                    call=call, handle=f"0x{args.handle:x}",
                    state=_("finalized") if args.finalized else
                    _("past its parameters (a placeholder buffer was taken)")))
        if placing and len(args.params) + 1 > rules.MAX_PARAM_CNT:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: argument list {handle} already holds {count} parameters, the most a "
                "kernel takes.").format(call=call, handle=f"0x{args.handle:x}",
                                        count=len(args.params)))

    def _room(self, args: Args, size: int, call: str) -> int:
        offset = rules.next_offset(args.used, args.cpu)
        if offset + size > args.capacity:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {size} B more at offset {offset} do not fit the argument list's "
                "{capacity} B.").format(call=call, size=size, offset=offset,
                                         capacity=args.capacity))
        return offset

    def _new_param(self, args: Args, place_holder: bool, offset: int, size: int) -> int:
        index = len(args.params)
        p = Param(args.handle + rules.HANDLE_BYTES + index * rules.PARAM_BYTES, place_holder,
                  offset, size)
        args.params.append(p)
        self.params[p.handle] = (args, p)
        args.used = offset + size
        return p.handle

    def _copy_in(self, args: Args, offset: int, src: int, size: int, call: str) -> None:
        a = self._host(src, size, "param", call, write=False)
        data = np.empty(size, np.uint8)
        a.read_into(src - a.ptr, size, data)
        args.buffer.write(args.at + offset, size, lambda out: np.copyto(out, data), call)

    def append(self, handle: int, param: int, size: int,
               call: str = "aclrtKernelArgsAppend") -> int:
        _positive(call, argsHandle=handle, param=param, paramSize=size)
        args = self.args(handle, call)
        self._open(args, call)
        offset = self._room(args, size, call)
        self._copy_in(args, offset, param, size, call)
        return self._new_param(args, False, offset, size)

    def append_place_holder(self, handle: int,
                            call: str = "aclrtKernelArgsAppendPlaceHolder") -> int:
        _positive(call, argsHandle=handle)
        args = self.args(handle, call)
        self._open(args, call)
        offset = self._room(args, rules.PLACE_HOLDER_BYTES, call)
        return self._new_param(args, True, offset, rules.PLACE_HOLDER_BYTES)

    def place_holder_buffer(self, handle: int, param: int, size: int,
                            call: str = "aclrtKernelArgsGetPlaceHolderBuffer") -> int:
        _positive(call, argsHandle=handle, paramHandle=param, dataSize=size)
        args = self.args(handle, call)
        _owner, p = self._param(param, call)
        if not p.place_holder:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: parameter {param} was appended with acl.rt.kernel_args_append; only a "
                "placeholder (kernel_args_append_place_holder) has a buffer.").format(
                    call=call, param=f"0x{param:x}"))
        self._open(args, call, placing=False)
        offset = self._room(args, size, call)
        args.got_buffer, p.data_offset, args.used = True, offset, offset + size
        return args.buffer.ptr + args.at + offset

    def para_update(self, handle: int, param: int, src: int, size: int,
                    call: str = "aclrtKernelArgsParaUpdate") -> None:
        _positive(call, argsHandle=handle, paramHandle=param, param=src, paramSize=size)
        args = self.args(handle, call)
        _owner, p = self._param(param, call)
        if p.place_holder or p.size != size:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: parameter {param} is {kind} of {have} B; only a parameter appended "
                "with acl.rt.kernel_args_append is updated, with as many bytes as it "
                "has.").format(call=call, param=f"0x{param:x}", have=p.size,
                               kind=_("a placeholder") if p.place_holder else _("a parameter")))
        self._copy_in(args, p.offset, src, size, call)
        args.updating = True

    def finalize(self, handle: int, call: str = "aclrtKernelArgsFinalize") -> None:
        _positive(call, argsHandle=handle)
        args = self.args(handle, call)
        args.finalized, args.updating = True, False

    def forget_functions(self, functions) -> None:
        """Their binary was unloaded: lists built for them are gone with it."""
        gone = {id(f) for f in functions}
        for args in [a for a in self.lists.values() if id(a.function) in gone]:
            self._reset(args, args.function)
            del self.lists[args.handle]

    # ----- launching ---------------------------------------------------------------------
    def _refuse(self, name: str):
        refusal = REFUSED[name]
        raise SimError(refusal.code, refusal.message())

    def launch(self, func_handle: int, blocks: int, args_data: int, args_size: int,
               stream: int, call: str = "aclrtLaunchKernel") -> None:
        _positive(call, funcHandle=func_handle, argsData=args_data)
        self.rt.kernels.function(func_handle, call)
        if blocks == 0:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: numBlocks is 0; a kernel runs on at least one block.").format(call=call))
        a = self.rt.memory.map.resolve(args_data, max(args_size, 1), "argsData", call)
        if a.location != "device":
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: argsData {ptr} is {block}; aclrtLaunchKernel takes the arguments "
                "already in device memory (copy them there first, or build an argument list "
                "and use acl.rt.launch_kernel_with_config).").format(
                    call=call, ptr=f"0x{args_data:x}", block=a.describe()))
        self.rt.stream(stream, call)
        self._refuse("rt.launch_kernel")

    def launch_with_config(self, func_handle: int, blocks: int, stream: int, attrs,
                           handle: int, reserve: int,
                           call: str = "aclrtLaunchKernelWithConfig") -> None:
        _positive(call, funcHandle=func_handle, numBlocks=blocks, argsHandle=handle)
        if reserve != 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: reserve is a reserved parameter and must be 0 (NULL).").format(call=call))
        function = self.rt.kernels.function(func_handle, call)
        args = self.args(handle, call)
        self.rt.stream(stream, call)
        if not args.finalized or args.updating:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: argument list {handle} is not finalized, or was updated since; call "
                "acl.rt.kernel_args_finalize first.").format(call=call,
                                                             handle=f"0x{handle:x}"))
        if args.function is not function:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: argument list {handle} was built for kernel {built}, not for {name}.").format(
                    call=call, handle=f"0x{handle:x}", built=args.function.name,
                    name=function.name))
        rules.launch_attrs(call, attrs)
        self._refuse("rt.launch_kernel_with_config")

    def snapshot(self) -> list[dict]:
        return [{"handle": a.handle, "function": a.function.handle, "params": len(a.params),
                 "bytes": a.used, "finalized": a.finalized} for a in self.lists.values()]
