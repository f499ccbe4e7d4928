"""The runtime's rules for kernel binaries, argument lists and launches, as data and pure
checks (hicann/runtime src/runtime/core/src/kernel/binary_loader.cc, args/
args_handle_allocator.hpp, api/impl/api_impl.cc KernelArgs*, args_inner.h,
kernel/args/para_convertor.cc): the simulator checks by them, and so can the guard.

Sizes follow the runtime's structs: an argument list handle (RtArgsHandle) takes 96 bytes
and each parameter record (ParaDetail) 48; an AI Core kernel whose binary carries no
.ascend.meta section is taken to have USER_ARGS_MAX_NUM (128) user parameters (elf.cc).
"""
from __future__ import annotations

from typing import NamedTuple

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.refusal import Refusal

MAX_PARAM_CNT = 128                  # args_handle_allocator.hpp
MAX_ARGS_BUFF_SIZE = 64 * 1024       # the buffer aclrtKernelArgsInit gives a thread
MAX_SYSTEM_PARAM_CNT = 8
USER_ARGS_MAX_NUM = 128              # elf.hpp: parameters of a kernel without metadata
HANDLE_BYTES, PARAM_BYTES = 96, 48   # sizeof(RtArgsHandle), sizeof(ParaDetail)
ALIGN_AICORE, ALIGN_CPU = 8, 1       # NON_CPU / CPU_KERNEL_ARGS_ALIGN_SIZE
PLACE_HOLDER_BYTES = 8               # a placeholder parameter holds a pointer
MAX_NAME_LEN = 1024                  # pyACL: get_function_name's maxLen must be below it
MAGICS = (C.ACL_RT_BINARY_MAGIC_ELF_AICORE, C.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE,
          C.ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
LAUNCH_ATTR_IDS = range(1, 10)       # aclrtLaunchKernelAttrId: SCHEM_MODE .. ENABLE_PROFILING


class LoadOptions(NamedTuple):
    lazy: bool
    magic: int          # 0: the SoC's default kernel type
    cpu_mode: int | None    # RT_LOAD_BINARY_OPT_CPU_KERNEL_MODE: 0/1 from a file, 2 from data


def _invalid(text: str, **fields) -> Refusal:
    return Refusal(C.ACL_ERROR_RT_PARAM_INVALID, text.format(**fields))


def load_options(call: str, options: list[tuple[int, int]], from_file: bool) -> LoadOptions:
    """(type, value) pairs as BinaryLoader::ParseLoadOptions accepts them; Refusal
    (ACL_ERROR_RT_PARAM_INVALID) for an unknown type, a lazy flag other than 0 or 1, a
    magic from a file or not one of the three, a CPU kernel mode the source does not take."""
    lazy, magic, cpu = False, 0, None
    for kind, value in options:
        if kind == C.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
            if value not in (0, 1):
                raise _invalid(_("{call}: the lazy-load option is {value}; it takes 0 (load "
                                 "now) or 1 (load on first use)."), call=call, value=value)
            lazy = bool(value)
        elif kind == C.ACL_RT_BINARY_LOAD_OPT_MAGIC:
            if from_file:
                raise _invalid(_("{call}: the magic option is for binaries loaded from data; "
                                 "a file's kernel type comes from the .json beside it or the "
                                 "SoC's default."), call=call)
            if value not in MAGICS:
                raise _invalid(_("{call}: magic {value} is not ACL_RT_BINARY_MAGIC_ELF_AICORE, "
                                 "_VECTOR_CORE or _CUBE_CORE."), call=call, value=hex(value))
            magic = value
        elif kind == C.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
            signed = value - (1 << 32) if value >> 31 else value
            if (signed not in (0, 1)) if from_file else signed != 2:
                raise _invalid(_("{call}: AI CPU kernel mode {value} is not one this source "
                                 "takes: 0 (the .json only) or 1 (the .so and its .json) from "
                                 "a file, 2 from data."), call=call, value=signed)
            cpu = signed
        else:
            raise _invalid(_("{call}: load option type {kind} is unknown; use "
                             "ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD (1), _MAGIC (2) or "
                             "_CPU_KERNEL_MODE (3)."), call=call, kind=kind)
    return LoadOptions(lazy, magic, cpu)


def handle_mem_size(user_params: int) -> int:
    """aclrtKernelArgsGetHandleMemSize: the bytes an argument list handle takes in memory
    the program provides (aclrtKernelArgsInitByUserMem)."""
    return HANDLE_BYTES + user_params * PARAM_BYTES


def args_mem_size(cpu: bool, user_params: int, user_args_size: int) -> int:
    """aclrtKernelArgsGetMemSize: room for the arguments of ``user_args_size`` bytes, the
    system parameters and the padding an AI Core kernel's arguments may need."""
    if cpu:
        return user_args_size
    return user_args_size + MAX_SYSTEM_PARAM_CNT * ALIGN_AICORE + user_params * ALIGN_AICORE


def next_offset(used: int, cpu: bool) -> int:
    """Where the next parameter starts: an AI Core kernel's are 8-byte aligned, a CPU
    kernel's packed."""
    align = ALIGN_CPU if cpu else ALIGN_AICORE
    return -(-used // align) * align


def launch_attrs(call: str, attrs: list[tuple[int, int]]) -> None:
    """aclrtLaunchKernelCfg attributes as the runtime's ParaConvertor accepts them."""
    for attr_id, _value in attrs:
        if attr_id not in LAUNCH_ATTR_IDS:
            raise _invalid(_("{call}: launch attribute id {id} is unknown; aclrtLaunchKernelAttrId "
                             "runs from ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE (1) to "
                             "_ENABLE_PROFILING (9)."), call=call, id=attr_id)
