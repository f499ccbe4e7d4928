"""Best-fit free-list allocator with coalescing: the simulator's page pools and the
user-level MemoryPool (acl_lab.pool) both place blocks with it.

Blocks are byte ranges; a block may start anywhere its caller's alignment allows, and the
bytes skipped to reach that alignment stay free (and visible as fragmentation). It lives
outside sim/ because acl_lab.pool must not import the simulator.
"""
from __future__ import annotations

from sortedcontainers import SortedList

from .align import align_up


class FreeList:
    def __init__(self, base: int, size: int):
        self.base, self.size = base, size
        self.used = 0
        self._by_start: dict[int, int] = {}   # start -> length of each free block
        self._by_end: dict[int, int] = {}     # end -> start
        # (length, start) of each free block packed into one int, length << _bits | offset,
        # sorted: best fit first. Ints compare several times faster than tuples; a SortedList
        # keeps inserts and removals cheap however fragmented the pool gets.
        self._bits = size.bit_length()
        self._index = SortedList()
        if size:
            self._add(base, size)

    def _add(self, start: int, length: int) -> None:
        self._by_start[start] = length
        self._by_end[start + length] = start
        self._index.add(length << self._bits | start - self.base)

    def _remove(self, start: int, length: int) -> None:
        del self._by_start[start]
        del self._by_end[start + length]
        self._index.remove(length << self._bits | start - self.base)

    def alloc(self, nbytes: int, align: int) -> int | None:
        """Best fit for ``nbytes`` at an ``align``-aligned start; None (and no change) if full."""
        bits, base = self._bits, self.base
        offset_mask = (1 << bits) - 1
        for key in self._index.irange(nbytes << bits):
            length, start = key >> bits, (key & offset_mask) + base
            addr = start if start % align == 0 else align_up(start, align)
            if addr - start + nbytes <= length:
                break
        else:
            return None
        added, used = [], self.used
        try:
            self._remove(start, length)
            if addr > start:
                added.append((start, addr - start))
                self._add(start, addr - start)
            end, block_end = addr + nbytes, start + length
            if block_end > end:
                added.append((end, block_end - end))
                self._add(end, block_end - end)
            self.used += nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            self._undo([(start, length)], added, used)
            raise
        return addr

    def give_back(self, addr: int, nbytes: int) -> None:
        """Return [addr, addr+nbytes), merging with free neighbours."""
        start, end = addr, addr + nbytes
        removed, used = [], self.used
        try:
            before = self._by_end.get(start)
            if before is not None:
                removed.append((before, start - before))
                self._remove(before, start - before)
                start = before
            after = self._by_start.get(end)
            if after is not None:
                removed.append((end, after))
                self._remove(end, after)
                end += after
            self._add(start, end - start)
            self.used -= nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            self._undo(removed, [(start, end - start)], used)
            raise

    def _undo(self, removed: list, added: list, used: int) -> None:
        """Restore the blocks an interrupted alloc / give_back removed or added, whichever of
        their records it had reached. The sorted index may itself have been cut mid-update,
        so it is rebuilt from the dicts."""
        for start, length in added:
            if self._by_start.get(start) == length:
                del self._by_start[start]
            if self._by_end.get(start + length) == start:
                del self._by_end[start + length]
        for start, length in removed:
            self._by_start[start] = length
            self._by_end[start + length] = start
        self._index = SortedList(length << self._bits | start - self.base
                                 for start, length in self._by_start.items())
        self.used = used

    @property
    def free(self) -> int:
        return self.size - self.used

    @property
    def largest_free(self) -> int:
        return self._index[-1] >> self._bits if self._index else 0

    def free_blocks(self) -> list[tuple[int, int]]:
        """(start, length) of every free block, by address."""
        return sorted(self._by_start.items())
