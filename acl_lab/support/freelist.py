"""Best-fit free-list allocator with coalescing: the simulator's page pools and the
user-level MemoryPool (acl_lab.pool) both place blocks with it.

Blocks are byte ranges; a block may start anywhere its caller's alignment allows, and the
bytes skipped to reach that alignment stay free (and visible as fragmentation). It lives
outside sim/ because acl_lab.pool must not import the simulator.

Each free block is a key, ``length << bits | offset``, so that sorted keys are best fit
first (smallest block, then lowest address); ints compare several times faster than tuples.
Two free blocks are kept apart from the sorted keys and their dicts, as plain numbers:
- the *top* (dlmalloc's name), the free block that reaches the end of the range;
- the *gap*, the bytes most recently skipped to align a block cut from the top, while
  they stay free.
Most allocations are cut from the top and most frees give back to it, merging the gap on
the way, so those change a few numbers instead of the dicts and the sorted keys. Best fit
weighs both against the sorted keys' answer by the same key order, so placements are the
same as if every free block were sorted.
"""
from __future__ import annotations

from acl_lab.support.sorted_keys import SortedKeys


class FreeList:
    def __init__(self, base: int, size: int):
        self.base, self.size, self.end = base, size, base + size
        self.used = 0
        self._by_start: dict[int, int] = {}   # start -> length of each free block but two:
        self._by_end: dict[int, int] = {}     # end -> start, the same blocks
        self._bits = size.bit_length()
        self._index = SortedKeys()            # the key of each of them
        self._top: int | None = base if size else None   # start of the free block at the end
        self._gap: tuple[int, int] | None = None          # (start, end) of the gap

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
        gap, top, used = self._gap, self._top, self.used
        if gap is not None:      # the gap, where it fits, against the best sorted block
            gap_addr = -(-gap[0] // align) * align   # align_up, inlined
            gap_key = gap[1] - gap[0] << bits | gap[0] - base
            if gap_addr + nbytes <= gap[1] and (key is None or gap_key < key):
                key, start, length, addr = gap_key, gap[0], gap[1] - gap[0], gap_addr
        if top is not None:      # the top has the highest address: it wins when smaller
            top_addr = -(-top // align) * align      # align_up, inlined
            if top_addr + nbytes <= self.end and (key is None
                                                   or self.end - top < key >> bits):
                if top_addr > top:   # the bytes skipped to align become the gap; the old
                    if gap is not None:                            # gap is sorted
                        self._by_start[gap[0]], self._by_end[gap[1]] = gap[1] - gap[0], gap[0]
                        self._index.add(gap[1] - gap[0] << bits | gap[0] - base)
                    self._gap = (top, top_addr)
                self._top = top_addr + nbytes if top_addr + nbytes < self.end else None
                self.used = used + nbytes
                return top_addr
        if key is None:
            return None
        end, block_end = addr + nbytes, start + length
        by_start, by_end, index = self._by_start, self._by_end, self._index
        from_gap = gap is not None and start == gap[0]
        if from_gap:
            self._gap = None
        else:
            del by_start[start], by_end[block_end]
            index.remove(key)
        if addr > start:
            by_start[start], by_end[addr] = addr - start, start
            index.add(addr - start << bits | start - base)
        if block_end > end:       # (a block before the top would have merged with it)
            by_start[end], by_end[block_end] = block_end - end, end
            index.add(block_end - end << bits | end - base)
        self.used = used + nbytes
        return addr

    def give_back(self, addr: int, nbytes: int) -> None:
        """Return [addr, addr+nbytes), merging with free neighbours."""
        by_start, by_end, index, bits, base = (self._by_start, self._by_end, self._index,
                                               self._bits, self.base)
        start, end, used, top, gap = addr, addr + nbytes, self.used, self._top, self._gap
        before_gap = gap is not None and gap[1] == start
        before = gap[0] if before_gap else by_end.get(start)
        after_gap = gap is not None and gap[0] == end
        after = None if end == top else gap[1] - end if after_gap else by_start.get(end)
        if before is not None:
            if before_gap:
                self._gap = None
            else:
                del by_start[before], by_end[start]
                index.remove(start - before << bits | before - base)
            start = before
        if end == top or end == self.end:   # it joins the top, or becomes it
            self._top = start
        else:
            if after is not None:
                if after_gap:
                    self._gap = None
                else:
                    del by_start[end], by_end[end + after]
                    index.remove(after << bits | end - base)
                end += after
            by_start[start], by_end[end] = end - start, start
            index.add(end - start << bits | start - base)
        self.used = used - nbytes

    @property
    def free(self) -> int:
        return self.size - self.used

    @property
    def largest_free(self) -> int:
        top = 0 if self._top is None else self.end - self._top
        gap = 0 if self._gap is None else self._gap[1] - self._gap[0]
        return max((self._index.last() or 0) >> self._bits, top, gap)

    def free_blocks(self) -> list[tuple[int, int]]:
        """(start, length) of every free block, by address."""
        blocks = list(self._by_start.items())
        if self._gap is not None:
            blocks.append((self._gap[0], self._gap[1] - self._gap[0]))
        blocks.sort()
        if self._top is not None:
            blocks.append((self._top, self.end - self._top))
        return blocks
