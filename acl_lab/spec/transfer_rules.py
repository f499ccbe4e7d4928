"""The checks of memset and memcpy that both backends make: the simulator before it copies,
the real-hardware guard before the call reaches the device. Each raises Refusal with the
runtime's code and says what to do instead (docs/rules.md, rules 6, 11 and 21)."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.align import RUNTIME_ALIGN
from acl_lab.spec.refusal import Refusal
from acl_lab.i18n import _
from acl_lab.spec.codes import acl_lab_check
from acl_lab.spec.memory_rules import read_only_refusal


def check_count(call: str, count: int, maximum: int, what: str) -> None:
    """``count`` bytes must fit the destination's maximum (``what``: destMax or maxCount);
    the runtime's own check (src/acl/aclrt_impl/memory.cpp)."""
    if count <= maximum:
        return
    text = (_("{call}: count {count} is larger than {what} {maximum}. The maximum is how many "
              "bytes the destination can hold: set at most that many.") if what == "maxCount"
            else _("{call}: count {count} is larger than {what} {maximum}. The maximum is how "
                   "many bytes the destination can hold: copy at most that many."))
    raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                  text.format(call=call, count=count, what=what, maximum=maximum))


def check_no_overlap(call: str, dst: int, src: int, count: int) -> None:
    """Source and destination of a copy may not overlap (the copy engine reads while it
    writes)."""
    if dst != src and dst < src + count and src < dst + count:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: source {src} and destination {dst} overlap by {overlap} B. "
                        "Copy through a separate buffer.").format(
                          call=call, src=f"0x{src:x}", dst=f"0x{dst:x}",
                          overlap=min(src, dst) + count - max(src, dst)))


def check_aligned64(call: str, **pointers: int) -> None:
    """An asynchronous copy needs 64-byte aligned pointers (docs/rules.md#rule-11)."""
    for name, p in pointers.items():
        if p % RUNTIME_ALIGN:
            raise Refusal(C.ACL_ERROR_RT_ADDR_UNALIGNED, acl_lab_check(
                          _("{call}: {what} {addr} is not 64-byte aligned ({addr} % 64 = "
                            "{rest}). Asynchronous copies need source and destination 64-byte "
                            "aligned (the runtime does not check this; the copy engine needs "
                            "it). Offset your pointers by multiples of 64.").format(
                              call=call, what=name, addr=f"0x{p:x}", rest=p % RUNTIME_ALIGN)))


def check_writable(call: str, block, what: str, addr: int, count: int) -> None:
    """Nobody may write a read-only numpy array or a shared one-byte bytes object."""
    if block.read_only(addr - block.ptr, count):
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID, read_only_refusal(call, what, addr, block))


def check_stream_can_write(call: str, ptr: int, block) -> None:
    """A stream cannot write pageable host memory (aclrtMemsetAsync into a numpy array)."""
    if block.python_owned:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: {ptr} is pageable host memory ({block}); a stream cannot "
                        "write it. Use aclrtMallocHost memory or the synchronous "
                        "aclrtMemset.").format(call=call, ptr=f"0x{ptr:x}",
                                               block=block.describe()))
