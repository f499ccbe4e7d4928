"""Best-fit free-list allocator with coalescing: the simulator's page pools and the
user-level MemoryPool (acl_lab.pool) both place blocks with it.

Blocks are byte ranges; a block may start anywhere its caller's alignment allows, and the
bytes skipped to reach that alignment stay free (and visible as fragmentation). It lives
outside sim/ because acl_lab.pool must not import the simulator.

Each free block is a key, ``length << bits | offset``, so that sorted keys are best fit
first (smallest block, then lowest address); ints compare several times faster than tuples.
"""
from __future__ import annotations

from .align import align_up
from .sorted_keys import SortedKeys


class FreeList:
    def __init__(self, base: int, size: int):
        self.base, self.size = base, size
        self.used = 0
        self._by_start: dict[int, int] = {}   # start -> length of each free block
        self._by_end: dict[int, int] = {}     # end -> start
        self._bits = size.bit_length()
        self._index = SortedKeys()            # the key of each free block
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

    def _best_fit(self, nbytes: int, align: int) -> int | None:
        """The smallest key whose block holds ``nbytes`` at an ``align``-aligned start."""
        bits, base, ceiling = self._bits, self.base, self._index.ceiling
        mask = (1 << bits) - 1
        key = ceiling(nbytes << bits)
        while key is not None:
            start = (key & mask) + base
            if -(-start // align) * align - start + nbytes <= key >> bits:   # align_up, inlined
                return key
            key = ceiling(key + 1)
        return None

    def alloc(self, nbytes: int, align: int) -> int | None:
        """Best fit for ``nbytes`` at an ``align``-aligned start; None (and no change) if full."""
        key = self._best_fit(nbytes, align)
        if key is None:
            return None
        length, start = key >> self._bits, (key & ((1 << self._bits) - 1)) + self.base
        addr = align_up(start, align)
        end, block_end, used = addr + nbytes, start + length, self.used
        try:
            self._remove(start, length)
            if addr > start:
                self._add(start, addr - start)
            if block_end > end:
                self._add(end, block_end - end)
            self.used += nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            self._undo([(start, length)], [(start, addr - start), (end, block_end - end)], used)
            raise
        return addr

    def give_back(self, addr: int, nbytes: int) -> None:
        """Return [addr, addr+nbytes), merging with free neighbours."""
        start, end, used = addr, addr + nbytes, self.used
        before, after = self._by_end.get(start), self._by_start.get(end)
        try:
            if before is not None:
                self._remove(before, start - before)
                start = before
            if after is not None:
                self._remove(end, after)
                end += after
            self._add(start, end - start)
            self.used -= nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            removed = [(before, addr - before)] if before is not None else []
            if after is not None:
                removed.append((addr + nbytes, after))
            self._undo(removed, [(start, end - start)], used)
            raise

    def _undo(self, removed: list, added: list, used: int) -> None:
        """Restore the blocks an interrupted alloc / give_back removed or may have added,
        whichever of their records it had reached. The sorted index may itself have been
        cut mid-update, so it is rebuilt from the dicts."""
        for start, length in added:
            if self._by_start.get(start) == length:
                del self._by_start[start]
            if self._by_end.get(start + length) == start:
                del self._by_end[start + length]
        for start, length in removed:
            self._by_start[start] = length
            self._by_end[start + length] = start
        self._index = SortedKeys(length << self._bits | start - self.base
                                 for start, length in self._by_start.items())
        self.used = used

    @property
    def free(self) -> int:
        return self.size - self.used

    @property
    def largest_free(self) -> int:
        return (self._index.last() or 0) >> self._bits

    def free_blocks(self) -> list[tuple[int, int]]:
        """(start, length) of every free block, by address."""
        return sorted(self._by_start.items())
