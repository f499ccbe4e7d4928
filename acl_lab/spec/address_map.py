"""The live blocks of a process by address: which block holds an address, which block a
free call may release, and why a pointer no longer works. The simulator's Memory and the
real-hardware guard's Registry keep their blocks in one, so both judge pointers alike.

Its blocks are ``Block``s: the simulator's Allocation and the guard's Entry add what each
backend knows about a block (its pool and bytes; the footprint the documented rules give).
"""
from __future__ import annotations

import weakref

from acl_lab import constants as C
from acl_lab.spec.refusal import Refusal
from acl_lab.i18n import _
from acl_lab.spec.memory_rules import ALLOCATORS, FREED_BY, c_name, free_refusal, is_read_only, range_refusal
from acl_lab.support.sorted_keys import SortedKeys


class Block:
    """A live block: memory an allocator handed out, or a Python buffer registered as
    pageable host memory (``api`` "numpy" or "bytes", ``_owner`` the object)."""

    __slots__ = ("ptr", "size", "api", "location", "device", "_owner", "read_only_spans")

    def __init__(self, ptr: int, size: int, api: str, location: str, device: int | None,
                 owner=None):
        self.ptr = ptr
        self.size = size                # bytes the caller asked for (the usable range)
        self.api = api                  # memory_rules.ALLOCATORS key: malloc, numpy, ...
        self.location = location        # "device" or "host": where a copy treats it as living
        self.device = device
        self._owner = owner             # numpy: weakref to the array; bytes: the object
        self.read_only_spans: list = []  # (offset, n) of read-only views registered

    @property
    def end(self) -> int:
        return self.ptr + self.size

    @property
    def python_owned(self) -> bool:
        """A registered Python buffer (pageable host memory), not an allocator's block."""
        return ALLOCATORS[self.api].footprint is None

    def owner(self):
        o = self._owner
        return o() if isinstance(o, weakref.ref) else o

    def alive(self) -> bool:
        """Is the buffer this registration points into still there, where it was? (A bytes
        object is held here until its backend releases it: memory_rules.dropped_beyond_bound.
        A bytearray resized since may have moved: its old pointer dangles.)"""
        o = self._owner
        if isinstance(o, weakref.ref):
            return o() is not None
        return not isinstance(o, bytearray) or len(o) == self.size

    def gone_why(self) -> str:
        """Why a registration that is no longer alive() went, in the learner's language."""
        if isinstance(self._owner, bytearray):
            return _("its bytearray was resized after bytes_to_ptr, so Python may have moved "
                     "its bytes: call bytes_to_ptr again for the new pointer")
        return _("its numpy array was garbage-collected")

    def read_only(self, offset: int, n: int) -> bool:
        """May nobody write [offset, offset+n)? (memory_rules.is_read_only)"""
        return self.python_owned and is_read_only(self.owner(), self.read_only_spans, offset, n)

    @property
    def where(self) -> str:
        """The kind of memory, in the learner's language: "pageable host memory"."""
        if self.python_owned:
            return _("pageable host memory")
        if self.location == "host":
            return _("pinned host memory")
        return _("device memory") if self.device is None else _(
            "device {device} memory").format(device=self.device)

    def describe(self) -> str:
        return _("{ptr} ({size} B from {call}, {where})").format(
            ptr=f"0x{self.ptr:x}", size=self.size, call=c_name(self.api), where=self.where)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.describe()})"


#: released pointers whose reason is kept for messages; the oldest are forgotten beyond it
#: (registered Python buffers get new addresses each time, so the table would only grow)
GONE_KEPT = 4096


class AddressMap:
    def __init__(self):
        self.blocks: dict[int, object] = {}    # start -> live block
        self._starts = SortedKeys()            # the same starts, sorted
        self._gone: dict[int, object] = {}     # start -> why it went (released_why)
        self.unmapped = None    # addr -> why a reserved but unmapped address holds no memory

    def add(self, block) -> None:
        self.blocks[block.ptr] = block
        self._starts.add(block.ptr)
        self._gone.pop(block.ptr, None)

    def drop(self, block, why) -> None:
        """Forget ``block``; ``why``: a sentence, or (the free call's C name,) worded later."""
        del self.blocks[block.ptr]
        self._gone[block.ptr] = why
        self._starts.remove(block.ptr)
        if len(self._gone) > GONE_KEPT:
            del self._gone[next(iter(self._gone))]

    def released_why(self, ptr: int) -> str | None:
        """Why ``ptr`` is no longer valid, in the learner's language (None: it never was)."""
        why = self._gone.get(ptr)
        if isinstance(why, tuple):   # freed by a free call: put into words only when asked
            return _("freed by {call}").format(call=why[0])
        return why

    def freed_by(self, ptr: int) -> str | None:
        """The free call that released the block starting at ``ptr``, if one did and no live
        block took its place (a pointer used after that is a use-after-free)."""
        why = self._gone.get(ptr)
        return why[0] if isinstance(why, tuple) and self.find(ptr) is None else None

    def find(self, addr: int):
        """The live block containing ``addr`` (registrations whose array died are dropped)."""
        block = self.blocks.get(addr)      # most pointers passed are a block's start
        if block is None:
            start = self._starts.floor(addr)
            if start is None:
                return None
            block = self.blocks[start]
            if not addr < block.ptr + max(block.size, 1):
                return None
        if not block.alive():
            self.drop(block, block.gone_why())
            return None
        return block

    def resolve(self, addr: int, count: int, what: str, call: str, code: int | None = None,
                explain=None):
        """The block holding [addr, addr+count); Refusal for NULL, unknown, freed, overruns
        (with ``code`` where the call refuses with its own: GE's, aclnn's; ``explain`` puts
        the reason in the call's own words: message -> message)."""
        if addr == 0:
            why = _("{call}: {what} is NULL (0).").format(call=call, what=what)
            refused = C.ACL_ERROR_INVALID_PARAM
        else:
            block = self.find(addr)
            why = range_refusal(call, what, addr, count, block,
                                self.released_why(addr) if block is None else None)
            if not why:
                return block
            if block is None and self.unmapped is not None:
                why = self.unmapped(call, what, addr) or why
            refused = C.ACL_ERROR_RT_PARAM_INVALID
        raise Refusal(code or refused, explain(why) if explain else why)

    def check_free(self, ptr: int, api: str):
        """The block ``api`` (free / free_host / dvpp_free) may release at ``ptr``; Refusal
        (memory_rules.free_refusal says why) for anything else."""
        block = self.blocks.get(ptr)
        if block is not None and FREED_BY.get(block.api) == api:
            return block         # the pairing rule holds (only Python's own buffers can die)
        if ptr == 0:
            raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                          _("{call}: the pointer is NULL (0).").format(call=c_name(api)))
        if block is not None and not block.alive():
            block = None
        inside = self.find(ptr) if block is None else None
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      free_refusal(api, ptr, block, self.released_why(ptr), inside))
