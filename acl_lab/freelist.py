"""Best-fit free-list allocator with coalescing: the simulator's page pools and the
user-level MemoryPool (acl_lab.pool) both place blocks with it.

Blocks are byte ranges; a block may start anywhere its caller's alignment allows, and the
bytes skipped to reach that alignment stay free (and visible as fragmentation). It lives
outside sim/ because acl_lab.pool must not import the simulator.

Each free block is a key, ``length << bits | offset``, so that sorted keys are best fit
first (smallest block, then lowest address); ints compare several times faster than tuples.
The free block that reaches the end of the range, the *top* (dlmalloc's name), is kept out
of the sorted keys and compared with their best fit: most allocations are cut from the top
and most frees give back to it, so a change there costs no sorted update. Best fit is the
same: the top has the highest address, so it wins only when it is strictly smaller.
"""
from __future__ import annotations

from .sorted_keys import SortedKeys


class FreeList:
    def __init__(self, base: int, size: int):
        self.base, self.size, self.end = base, size, base + size
        self.used = 0
        self._by_start: dict[int, int] = {}   # start -> length of each free block
        self._by_end: dict[int, int] = {}     # end -> start
        self._bits = size.bit_length()
        self._index = SortedKeys()            # the key of each free block but the top
        self._top: int | None = None          # start of the free block ending at self.end
        if size:
            self._by_start[base], self._by_end[self.end], self._top = size, base, base

    def alloc(self, nbytes: int, align: int) -> int | None:
        """Best fit for ``nbytes`` at an ``align``-aligned start; None (and no change) if full.
        The hot path of every malloc: the block changes are written out, not called."""
        bits, base, ceiling = self._bits, self.base, self._index.ceiling
        mask = (1 << bits) - 1
        key = ceiling(nbytes << bits)
        while key is not None:
            start, length = (key & mask) + base, key >> bits
            addr = -(-start // align) * align          # align_up, inlined
            if addr - start + nbytes <= length:
                break
            key = ceiling(key + 1)
        top, from_top = self._top, False
        if top is not None:
            top_length, top_addr = self.end - top, -(-top // align) * align
            if top_addr - top + nbytes <= top_length and (key is None
                                                          or top_length < key >> bits):
                start, length, addr, from_top = top, top_length, top_addr, True
        if key is None and not from_top:   # neither an indexed block nor the top fits
            return None
        end, block_end, used = addr + nbytes, start + length, self.used
        by_start, by_end, index = self._by_start, self._by_end, self._index
        try:
            del by_start[start], by_end[block_end]
            if from_top:
                self._top = None
            else:
                index.remove(key)
            if addr > start:
                by_start[start], by_end[addr] = addr - start, start
                index.add(addr - start << bits | start - base)
            if block_end > end:
                by_start[end], by_end[block_end] = block_end - end, end
                if from_top:
                    self._top = end
                else:
                    index.add(block_end - end << bits | end - base)
            self.used = used + nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            self._undo([(start, length)], [(start, addr - start), (end, block_end - end)], used)
            raise
        return addr

    def give_back(self, addr: int, nbytes: int) -> None:
        """Return [addr, addr+nbytes), merging with free neighbours."""
        by_start, by_end, index, bits, base = (self._by_start, self._by_end, self._index,
                                               self._bits, self.base)
        start, end, used = addr, addr + nbytes, self.used
        before, after = by_end.get(start), by_start.get(end)
        try:
            if before is not None:     # it ends at addr: never the top
                del by_start[before], by_end[start]
                index.remove(start - before << bits | before - base)
                start = before
            if after is not None:
                del by_start[end], by_end[end + after]
                if end == self._top:
                    self._top = None
                else:
                    index.remove(after << bits | end - base)
                end += after
            by_start[start], by_end[end] = end - start, start
            if end == self.end:
                self._top = start
            else:
                index.add(end - start << bits | start - base)
            self.used = used - nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            removed = [(before, addr - before)] if before is not None else []
            if after is not None:
                removed.append((addr + nbytes, after))
            self._undo(removed, [(start, end - start)], used)
            raise

    def _undo(self, removed: list, added: list, used: int) -> None:
        """Restore the blocks an interrupted alloc / give_back removed or may have added,
        whichever of their records it had reached. The sorted index and the top may
        themselves have been cut mid-update, so they are rebuilt from the dicts."""
        for start, length in added:
            if self._by_start.get(start) == length:
                del self._by_start[start]
            if self._by_end.get(start + length) == start:
                del self._by_end[start + length]
        for start, length in removed:
            self._by_start[start] = length
            self._by_end[start + length] = start
        self._top = self._by_end.get(self.end)
        self._index = SortedKeys(length << self._bits | start - self.base
                                 for start, length in self._by_start.items()
                                 if start != self._top)
        self.used = used

    @property
    def free(self) -> int:
        return self.size - self.used

    @property
    def largest_free(self) -> int:
        top = 0 if self._top is None else self.end - self._top
        return max((self._index.last() or 0) >> self._bits, top)

    def free_blocks(self) -> list[tuple[int, int]]:
        """(start, length) of every free block, by address."""
        return sorted(self._by_start.items())
