"""Lazy byte storage: a pool's bytes cost host RAM only once they are touched.

Each pool reserves its whole size as one anonymous, MAP_NORESERVE mapping (address space,
not RAM) the first time any of its bytes is read or written. The mapping is cut into chunks;
a chunk is filled with deterministic garbage (a function of the pool offset) the first time
it is touched, so fresh memory never reads as zeros and a 64 GiB device fits in a 2 GB pod.
Every touched chunk counts against the host-RAM budget (hostram.py) before it is filled; a
chunk a write covers completely is not filled first, and copying from untouched memory does
not touch it.

An allocation of BIG_BLOCK bytes or more gets a mapping of its own, starting at its first
byte and advised to use huge pages, with 2 MiB chunks. Two such blocks then sit at the same
offset within a 4 KiB page, whatever their simulated addresses: glibc's memmove falls into
a slow loop when source and destination are 1..256 bytes apart modulo 4 KiB (the pool's
64-byte placement makes exactly that), and huge pages make a first touch a few faults
rather than one per 4 KiB. Simulated addresses do not change.

A Ctrl-C never lands inside a kit call (acl_lab/support/interrupts.py), and a chunk is
marked and counted in one statement after it is filled, so a failure part way (Python out of
memory) loses nothing.
"""
from __future__ import annotations

import functools
import mmap
import weakref
from typing import NamedTuple

import numpy as np

from acl_lab.errors import SimulatorLimit
from acl_lab.i18n import _
from acl_lab.support.sorted_keys import SortedKeys
from acl_lab.sim.hostram import STALE, HostRam, mib

CHUNK = 64 * 1024
BIG_BLOCK = 1 << 20          # allocations this big get their own mapping
BIG_CHUNK = 2 << 20          # chunk of a big block: one huge page
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000)  # Linux value; Python 3.13+ names it
_GARBAGE: np.ndarray | None = None
_NONE = np.arange(0)
PAGE = mmap.PAGESIZE


def garbage_chunk() -> np.ndarray:
    """The fixed pattern fresh chunks start from (seeded, so every run sees the same bytes)."""
    global _GARBAGE
    if _GARBAGE is None:
        _GARBAGE = np.random.default_rng(0xAC1).integers(0, 256, CHUNK, dtype=np.uint8)
    return _GARBAGE


def fill_garbage(out: np.ndarray, offset: int, salt: int) -> None:
    """Write into ``out`` the fresh garbage of pool bytes [offset, offset + len(out))."""
    pattern, end = garbage_chunk(), offset + len(out)
    for c in range(offset // CHUNK, -(-end // CHUNK)):
        s, e = max(offset, c * CHUNK), min(end, (c + 1) * CHUNK)
        np.bitwise_xor(pattern[s - c * CHUNK:e - c * CHUNK], np.uint8((c + salt) & 0xFF),
                       out=out[s - offset:e - offset])


class _Mapped(NamedTuple):
    map: mmap.mmap
    bytes: np.ndarray      # uint8 over the storage's bytes, from ``start`` in the mapping
    touched: np.ndarray    # bool per chunk: holds real (garbage or written) bytes
    start: int             # where ``bytes`` begins in the mapping
    whole: np.ndarray      # uint8 over the whole mapping (the root of every view)


class Window:
    """The root of an array ptr_to_numpy hands out (its ``base``): exactly its bytes, not the
    pool's whole mapping, which it keeps alive. While its memory is allocated it knows where
    in the pool it starts (numpy_to_ptr gives that address back); once freed it is *stale*:
    its pages stay counted (hostram.STALE) until every array over them is gone."""

    __slots__ = ("__array_interface__", "_mapping", "lazy", "offset", "nbytes", "__weakref__")

    def __init__(self, view: np.ndarray, mapping: np.ndarray, lazy: "_LazyBytes", offset: int):
        self.__array_interface__ = {"data": (view.ctypes.data, False), "shape": view.shape,
                                    "typestr": "|u1", "version": 3}
        self._mapping = mapping       # keeps the mmap alive, not reachable as an array
        self.lazy, self.offset, self.nbytes = lazy, offset, view.size

    @property
    def pool_offset(self) -> int | None:
        """Where its first byte is in the pool, None once its memory was freed."""
        return None if self.lazy is None else self.lazy.origin + self.offset

    def pages(self) -> int:
        """Bytes of the pages it spans (what writing through it can cost)."""
        first = self.__array_interface__["data"][0]
        return (-(-(first + self.nbytes) // PAGE) - first // PAGE) * PAGE


class _LazyBytes:
    """``size`` bytes in one lazy mapping, chunk by chunk; byte i is pool byte origin + i."""

    def __init__(self, size: int, salt: int, ram: HostRam, origin: int = 0, chunk: int = CHUNK,
                 huge_pages: bool = False):
        self.size, self._salt, self._ram, self._origin = size, salt, ram, origin
        self._chunk, self._huge_pages = chunk, huge_pages
        self._m: _Mapped | None = None
        self.touched_chunks = 0
        self._windows: list[weakref.ref] = []     # Windows handed out over these bytes

    @property
    def origin(self) -> int:
        return self._origin

    @property
    def touched_bytes(self) -> int:
        return self.touched_chunks * self._chunk

    def _mapped(self) -> _Mapped:
        m = self._m
        if m is None:
            mapped = -(-self.size // self._chunk) * self._chunk
            flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE
            # huge pages: room to start on a 2 MiB boundary, so each chunk is one huge page
            # and the RAM counted is the RAM the kernel gives (address space only, unused)
            spare = self._chunk if self._huge_pages else 0
            try:
                raw = mmap.mmap(-1, mapped + spare, flags=flags)
            except (OSError, OverflowError) as e:    # ulimit -v smaller than the pool
                raise SimulatorLimit(_(
                    "the simulator reserves address space for each memory pool it uses "
                    "({size} here) and the operating system refused ({reason}). Raise the "
                    "address-space limit (ulimit -v), or use a profile with smaller memory: "
                    "acl_lab.reset('310'). Nothing was changed.").format(
                        size=mib(mapped), reason=e)) from None
            whole = np.frombuffer(raw, dtype=np.uint8)
            start = -whole.ctypes.data % spare if spare else 0
            if self._huge_pages and hasattr(mmap, "MADV_HUGEPAGE"):
                try:
                    raw.madvise(mmap.MADV_HUGEPAGE)
                except OSError:       # kernels without transparent huge pages
                    pass
            m = self._m = _Mapped(raw, whole[start:start + mapped],
                                  np.zeros(mapped // self._chunk, dtype=bool), start, whole)
        return m

    def _span(self, offset: int, n: int) -> tuple[int, int]:
        return offset // self._chunk, (offset + n - 1) // self._chunk + 1

    def _fresh(self, lo: int, hi: int) -> np.ndarray:
        """Untouched chunk numbers in [lo, hi)."""
        m = self._m
        if m is None:
            return np.arange(lo, hi)
        if hi - lo == 1:        # the common small copy: one chunk, no array scan
            return _NONE if m.touched[lo] else np.arange(lo, hi)
        return np.flatnonzero(~m.touched[lo:hi]) + lo

    def fresh_bytes(self, offset: int, n: int) -> int:
        """Host RAM a write (or a view) of [offset, offset+n) would newly take."""
        if n <= 0:
            return 0
        lo, hi = self._span(offset, n)
        return len(self._fresh(lo, hi)) * self._chunk

    def _fill(self, m: _Mapped, chunks: np.ndarray) -> None:
        """Give untouched ``chunks`` their garbage, marking and counting each as it is done."""
        ch = self._chunk
        for c in chunks.tolist():
            fill_garbage(m.bytes[c * ch:(c + 1) * ch], self._origin + c * ch, self._salt)
            m.touched[c], self.touched_chunks, self._ram.used = (
                True, self.touched_chunks + 1, self._ram.used + ch)

    def view(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """A writable uint8 view of ``n`` bytes at ``offset``; untouched chunks get garbage."""
        m = self._mapped()
        if n > 0:
            lo, hi = self._span(offset, n)
            fresh = self._fresh(lo, hi)
            if fresh.size:
                self._ram.need(len(fresh) * self._chunk, call or "the simulator")
                self._fill(m, fresh)
        return m.bytes[offset:offset + n]

    def touch_edges(self, offset: int, n: int, call: str = "") -> None:
        """Give garbage now to the untouched chunks a write of [offset, offset+n) covers only
        in part (at most its first and last): a queued write then promises RAM only for the
        chunks it covers whole, so many small writes queued on one fresh chunk take its RAM
        once, not once each. Fresh garbage reads the same before and after."""
        ch = self._chunk
        for at in {offset, offset + n - 1} if n > 0 else ():
            c = at // ch
            if c * ch < offset or (c + 1) * ch > offset + n:
                self.view(at, 1, call)

    def window(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """view() for the program to keep (ptr_to_numpy): an array whose base is a Window."""
        view = self.view(offset, n, call)
        w = Window(view, self._m.whole, self, offset)
        if len(self._windows) >= 64:       # forget the dead now and then
            self._windows = [r for r in self._windows if r() is not None]
        self._windows.append(weakref.ref(w))
        return np.asarray(w)

    def stale(self, offset: int, n: int, released: bool = False) -> None:
        """The memory at [offset, offset+n) is freed (everything, if ``released``): windows
        over it count their pages (hostram.STALE) for as long as they live."""
        if not self._windows:
            return
        kept = []
        for ref in self._windows:
            w = ref()
            if w is None:
                continue
            if released or (w.offset < offset + max(n, 1) and offset < w.offset + max(w.nbytes, 1)):
                w.lazy = None
                STALE.hold(w, w.pages(), None if released else
                           functools.partial(self._drop_untouched, w.offset, w.nbytes))
            else:
                kept.append(ref)
        self._windows = kept

    def _drop_untouched(self, offset: int, n: int) -> None:
        """A stale window died: the untouched chunks it spans give back what it wrote there
        (an untouched chunk's bytes are never read: it gets fresh garbage when touched)."""
        m, ch = self._m, self._chunk
        if m is None:
            return
        for c in range(offset // ch, -(-(offset + max(n, 1)) // ch)):
            if not m.touched[c]:
                m.map.madvise(mmap.MADV_DONTNEED, m.start + c * ch, ch)

    def write(self, offset: int, n: int, writer, call: str = "") -> None:
        """``writer(view)`` writes all ``n`` bytes at ``offset``. Untouched chunks it covers
        completely get no garbage first; they count as touched once it has returned (so an
        interrupted write leaves them fresh, as they were)."""
        m = self._mapped()
        if n <= 0:
            return
        ch = self._chunk
        lo, hi = self._span(offset, n)
        fresh = self._fresh(lo, hi)
        if fresh.size:
            self._ram.need(len(fresh) * ch, call or "the simulator")
            edges = [c for c in (lo, hi - 1) if c * ch < offset or (c + 1) * ch > offset + n]
            partial = np.zeros(fresh.size, bool)
            for c in edges:
                partial |= fresh == c
            self._fill(m, fresh[partial])
            covered = fresh[~partial]
        writer(m.bytes[offset:offset + n])
        if fresh.size and covered.size:
            m.touched[covered], self.touched_chunks, self._ram.used = (
                True, self.touched_chunks + covered.size, self._ram.used + covered.size * ch)

    def read_into(self, offset: int, n: int, out: np.ndarray) -> None:
        """Copy ``n`` bytes at ``offset`` into ``out`` without touching untouched chunks: their
        garbage is generated into a scratch buffer first (read_scratch bytes), so ``out`` is
        written in one step and an interrupted read leaves it as it was."""
        if n <= 0:
            return
        m = self._mapped()
        lo, hi = self._span(offset, n)
        fresh = self._fresh(lo, hi)
        if not fresh.size:
            out[:] = m.bytes[offset:offset + n]
            return
        ch = self._chunk
        scratch = np.empty(n, np.uint8)
        is_fresh = np.zeros(hi - lo, bool)
        is_fresh[fresh - lo] = True
        for c in range(lo, hi):
            s, e = max(offset, c * ch), min(offset + n, (c + 1) * ch)
            if is_fresh[c - lo]:
                fill_garbage(scratch[s - offset:e - offset], self._origin + s, self._salt)
            else:
                scratch[s - offset:e - offset] = m.bytes[s:e]
        out[:] = scratch

    def read_scratch(self, offset: int, n: int) -> int:
        """Host RAM read_into needs for a moment: ``n`` when the range has untouched chunks."""
        if n <= 0:
            return 0
        lo, hi = self._span(offset, n)
        return n if len(self._fresh(lo, hi)) else 0

    def forget(self, offset: int, n: int) -> None:
        """Give back RAM for whole chunks inside [offset, offset+n): they read as fresh again."""
        m = self._m
        if m is None:
            return
        ch = self._chunk
        lo, hi = -(-offset // ch), (offset + n) // ch
        if hi > lo:
            gone = int(m.touched[lo:hi].sum())
            if gone:
                m.map.madvise(mmap.MADV_DONTNEED, m.start + lo * ch, (hi - lo) * ch)
                m.touched[lo:hi], self.touched_chunks, self._ram.used = (
                    False, self.touched_chunks - gone, self._ram.used - gone * ch)

    def release(self) -> None:
        """Give all RAM back now (not when the cycle collector runs). Arrays still viewing
        the mapping keep valid, zeroed address space."""
        self.stale(0, self.size, released=True)
        if self._m is None:
            return
        raw, self._m = self._m.map, None     # drops our own numpy view of the mapping
        self._ram.used, self.touched_chunks = self._ram.used - self.touched_bytes, 0
        raw.madvise(mmap.MADV_DONTNEED, 0, len(raw))
        try:
            raw.close()
        except BufferError:     # a ptr_to_numpy view is alive: it keeps the (empty) mapping
            pass


class LazyStorage:
    """Bytes of one pool, addressed by offset from the pool's base: the pool's own lazy
    mapping, and one for each big block (see the module's docstring)."""

    def __init__(self, size: int, salt: int = 0, ram: HostRam | None = None):
        self.size = size
        self._salt = salt   # makes each pool's garbage differ (host vs device buffers)
        self._ram = ram if ram is not None else HostRam(1 << 62, "no budget")
        self._pool = _LazyBytes(size, salt, self._ram)
        self._big: dict[int, _LazyBytes] = {}     # start -> the big block's own bytes
        self._big_starts = SortedKeys()

    def _at(self, offset: int, n: int) -> tuple[_LazyBytes, int]:
        """The bytes holding [offset, offset+n), and the offset there. A range in a big block
        stays inside it (the caller checked it against the allocation); anything else, as
        queued work that outlived a free, is the pool's."""
        if self._big:
            start = self._big_starts.floor(offset)
            block = self._big.get(start)
            if block is not None and offset + max(n, 0) <= start + block.size:
                return block, offset - start
        return self._pool, offset

    def claim(self, offset: int, n: int) -> None:
        """An allocation now owns [offset, offset+n): it reads as fresh."""
        self.forget(offset, n)     # (bytes a block left there read as fresh)
        if n >= BIG_BLOCK:
            block = _LazyBytes(n, self._salt, self._ram, origin=offset, chunk=BIG_CHUNK,
                               huge_pages=True)
            self._big[offset] = block
            self._big_starts.add(offset)

    def forget(self, offset: int, n: int) -> None:
        """The allocation at [offset, offset+n) is gone: its RAM goes back, it reads as fresh.
        Cheap for the common small block: no big block registered, no whole chunk inside."""
        if self._big and offset in self._big:
            block = self._big.pop(offset)
            self._big_starts.remove(offset)
            block.release()
        if self._pool._windows:      # ptr_to_numpy arrays over it outlive the free
            self._pool.stale(offset, n)
        if n >= CHUNK:     # a smaller range holds no whole chunk (the pool's chunks are CHUNK)
            self._pool.forget(offset, n)

    def view(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """A writable uint8 view of ``n`` bytes at ``offset``; untouched chunks get garbage."""
        where, at = self._at(offset, n)
        return where.view(at, n, call)

    def write(self, offset: int, n: int, writer, call: str = "") -> None:
        """``writer(view)`` writes all ``n`` bytes at ``offset`` (fresh memory it covers needs
        no garbage first)."""
        where, at = self._at(offset, n)
        where.write(at, n, writer, call)

    def read_into(self, offset: int, n: int, out: np.ndarray) -> None:
        """Copy ``n`` bytes at ``offset`` into ``out`` (fresh memory is not touched)."""
        where, at = self._at(offset, n)
        where.read_into(at, n, out)

    def touch_edges(self, offset: int, n: int, call: str = "") -> None:
        where, at = self._at(offset, n)
        where.touch_edges(at, n, call)

    def read_scratch(self, offset: int, n: int) -> int:
        where, at = self._at(offset, n)
        return where.read_scratch(at, n)

    def fresh_bytes(self, offset: int, n: int) -> int:
        where, at = self._at(offset, n)
        return where.fresh_bytes(at, n)

    def window(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """view() for the program to keep (ptr_to_numpy): its base is a Window."""
        where, at = self._at(offset, n)
        return where.window(at, n, call)

    def offset_of(self, array: np.ndarray) -> int | None:
        """The pool offset where ``array`` (the root of a ptr_to_numpy view) starts, if its
        memory is still allocated here."""
        w = array.base
        if isinstance(w, Window) and w.lazy is not None and (
                w.lazy is self._pool or self._big.get(w.lazy.origin) is w.lazy):
            return w.pool_offset
        return None

    @property
    def touched_bytes(self) -> int:
        return self._pool.touched_bytes + sum(b.touched_bytes for b in self._big.values())

    def release(self) -> None:
        """The simulated process ends: give all RAM back now."""
        for block in self._big.values():
            block.release()
        self._pool.release()
