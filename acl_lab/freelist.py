"""Best-fit free-list allocator with coalescing: the simulator's page pools and the
user-level MemoryPool (acl_lab.pool) both place blocks with it.

Blocks are byte ranges; a block may start anywhere its caller's alignment allows, and the
bytes skipped to reach that alignment stay free (and visible as fragmentation). It lives
outside sim/ because acl_lab.pool must not import the simulator.

Each free block is a key, ``length << bits | offset``, so that sorted keys are best fit
first (smallest block, then lowest address); ints compare several times faster than tuples.
The free block that reaches the end of the range, the *top* (dlmalloc's name), is kept
apart, as its start alone, and weighed against the sorted keys' best fit: it has the
highest address, so it wins only when it is strictly smaller, and best fit is unchanged.
Most allocations are cut from the top and most frees give back to it, so those change one
number instead of the dicts and the sorted keys.
"""
from __future__ import annotations

from .sorted_keys import SortedKeys


class FreeList:
    def __init__(self, base: int, size: int):
        self.base, self.size, self.end = base, size, base + size
        self.used = 0
        self._by_start: dict[int, int] = {}   # start -> length of each free block but the top
        self._by_end: dict[int, int] = {}     # end -> start, the same blocks
        self._bits = size.bit_length()
        self._index = SortedKeys()            # the key of each of them
        self._top: int | None = base if size else None   # start of the free block at the end

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
        top, used = self._top, self.used
        if top is not None:
            top_addr = -(-top // align) * align      # align_up, inlined
            if top_addr + nbytes <= self.end and (key is None
                                                   or self.end - top < key >> bits):
                try:
                    if top_addr > top:     # the bytes skipped to align stay free
                        self._by_start[top], self._by_end[top_addr] = top_addr - top, top
                        self._index.add(top_addr - top << bits | top - base)
                    self._top = top_addr + nbytes if top_addr + nbytes < self.end else None
                    self.used = used + nbytes
                except BaseException:     # interrupted (Ctrl-C): put the free list back
                    self._undo([], [(top, top_addr - top)], used, top)
                    raise
                return top_addr
        if key is None:
            return None
        end, block_end = addr + nbytes, start + length
        by_start, by_end, index = self._by_start, self._by_end, self._index
        try:
            del by_start[start], by_end[block_end]
            index.remove(key)
            if addr > start:
                by_start[start], by_end[addr] = addr - start, start
                index.add(addr - start << bits | start - base)
            if block_end > end:       # (a block before the top would have merged with it)
                by_start[end], by_end[block_end] = block_end - end, end
                index.add(block_end - end << bits | end - base)
            self.used = used + nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            self._undo([(start, length)], [(start, addr - start), (end, block_end - end)],
                       used, top)
            raise
        return addr

    def give_back(self, addr: int, nbytes: int) -> None:
        """Return [addr, addr+nbytes), merging with free neighbours."""
        by_start, by_end, index, bits, base = (self._by_start, self._by_end, self._index,
                                               self._bits, self.base)
        start, end, used, top = addr, addr + nbytes, self.used, self._top
        before = by_end.get(start)
        after = None if end == top else by_start.get(end)
        try:
            if before is not None:
                del by_start[before], by_end[start]
                index.remove(start - before << bits | before - base)
                start = before
            if end == top or end == self.end:   # it joins the top, or becomes it
                self._top = start
            else:
                if after is not None:
                    del by_start[end], by_end[end + after]
                    index.remove(after << bits | end - base)
                    end += after
                by_start[start], by_end[end] = end - start, start
                index.add(end - start << bits | start - base)
            self.used = used - nbytes
        except BaseException:     # interrupted (Ctrl-C): put the free list back as it was
            removed = [(before, addr - before)] if before is not None else []
            if after is not None:
                removed.append((addr + nbytes, after))
            self._undo(removed, [(start, end - start)], used, top)
            raise

    def _undo(self, removed: list, added: list, used: int, top: int | None) -> None:
        """Restore the blocks an interrupted alloc / give_back removed or may have added,
        whichever of their records it had reached, and the top as it was. The sorted index
        may itself have been cut mid-update, so it is rebuilt from the dicts."""
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
        self._top, self.used = top, used

    @property
    def free(self) -> int:
        return self.size - self.used

    @property
    def largest_free(self) -> int:
        top = 0 if self._top is None else self.end - self._top
        return max((self._index.last() or 0) >> self._bits, top)

    def free_blocks(self) -> list[tuple[int, int]]:
        """(start, length) of every free block, by address."""
        blocks = sorted(self._by_start.items())
        if self._top is not None:
            blocks.append((self._top, self.end - self._top))
        return blocks
