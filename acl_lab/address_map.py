"""The live blocks of a process by address: which block holds an address, which block a
free call may release, and why a pointer no longer works. The simulator's Memory and the
real-hardware guard's Registry keep their blocks in one, so both judge pointers alike.

A block has ``ptr``, ``size``, ``api`` (a memory_rules.ALLOCATORS key), ``alive()`` (False
once the numpy array it registered is gone) and ``describe()``.
"""
from __future__ import annotations

from . import constants as C
from .errors import Refusal
from .i18n import _
from .memory_rules import FREED_BY, c_name, free_refusal, range_refusal
from .sorted_keys import SortedKeys


class AddressMap:
    def __init__(self):
        self.blocks: dict[int, object] = {}    # start -> live block
        self._starts = SortedKeys()            # the same starts, sorted
        self._gone: dict[int, object] = {}     # start -> why it went (released_why)

    def add(self, block) -> None:
        try:
            self.blocks[block.ptr] = block
            self._starts.add(block.ptr)
            self._gone.pop(block.ptr, None)
        except BaseException:    # interrupted (Ctrl-C): not added
            self.blocks.pop(block.ptr, None)
            self._resort()
            raise

    def drop(self, block, why) -> None:
        """Forget ``block``; ``why``: a sentence, or (the free call's C name,) worded later."""
        try:
            del self.blocks[block.ptr]
            self._gone[block.ptr] = why
            self._starts.remove(block.ptr)
        except BaseException:    # interrupted (Ctrl-C): the block stays, as it was
            self._gone.pop(block.ptr, None)
            self.blocks[block.ptr] = block
            self._resort()
            raise

    def _resort(self) -> None:
        """Rebuild the sorted starts from the blocks (after an interrupted update)."""
        self._starts = SortedKeys(self.blocks)

    def released_why(self, ptr: int) -> str | None:
        """Why ``ptr`` is no longer valid, in the learner's language (None: it never was)."""
        why = self._gone.get(ptr)
        if isinstance(why, tuple):   # freed by a free call: put into words only when asked
            return _("freed by {call}").format(call=why[0])
        return why

    def find(self, addr: int):
        """The live block containing ``addr`` (registrations whose array died are dropped)."""
        start = self._starts.floor(addr)
        if start is None:
            return None
        block = self.blocks[start]
        if not block.ptr <= addr < block.ptr + max(block.size, 1):
            return None
        if not block.alive():
            self.drop(block, _("its numpy array was garbage-collected"))
            return None
        return block

    def resolve(self, addr: int, count: int, what: str, call: str):
        """The block holding [addr, addr+count); Refusal for NULL, unknown, freed, overruns."""
        if addr == 0:
            raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                          _("{call}: {what} is NULL (0).").format(call=call, what=what))
        block = self.find(addr)
        why = range_refusal(call, what, addr, count, block,
                            self.released_why(addr) if block is None else None)
        if why:
            raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID, why)
        return block

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
