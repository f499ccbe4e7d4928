"""Lazy byte storage: a pool's bytes cost host RAM only once they are touched.

Each pool reserves its whole size as one anonymous, MAP_NORESERVE mapping (address space,
not RAM) the first time any of its bytes is read or written. The pool is cut into chunks;
a chunk is filled with deterministic garbage the first time it is touched, so fresh memory
never reads as zeros and a 64 GiB device fits in a 2 GB pod. Every touched chunk counts
against the host-RAM budget (hostram.py) before it is filled; a chunk a write covers
completely is not filled first, and copying from untouched memory does not touch it.

Each step leaves the storage consistent, so an interrupt (KeyboardInterrupt) at any point
loses nothing: the mapping appears in one assignment, and a chunk is marked and counted in
one statement after it is filled.
"""
from __future__ import annotations

import mmap
from typing import NamedTuple

import numpy as np

from ..errors import SimulatorLimit
from ..i18n import _
from .hostram import HostRam, mib

CHUNK = 64 * 1024
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000)  # Linux value; Python 3.13+ names it
_GARBAGE: np.ndarray | None = None
_NONE = np.arange(0)


def garbage_chunk() -> np.ndarray:
    """The fixed pattern fresh chunks start from (seeded, so every run sees the same bytes)."""
    global _GARBAGE
    if _GARBAGE is None:
        _GARBAGE = np.random.default_rng(0xAC1).integers(0, 256, CHUNK, dtype=np.uint8)
    return _GARBAGE


class _Mapped(NamedTuple):
    map: mmap.mmap
    bytes: np.ndarray      # uint8 over the whole mapping
    touched: np.ndarray    # bool per chunk: holds real (garbage or written) bytes


class LazyStorage:
    """Bytes of one pool, addressed by offset from the pool's base."""

    def __init__(self, size: int, salt: int = 0, ram: HostRam | None = None):
        self.size = size
        self._salt = salt   # makes each pool's garbage differ (host vs device buffers)
        self._ram = ram if ram is not None else HostRam(1 << 62, "no budget")
        self._m: _Mapped | None = None
        self.touched_chunks = 0

    def _mapped(self) -> _Mapped:
        m = self._m
        if m is None:
            mapped = -(-self.size // CHUNK) * CHUNK
            flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE
            try:
                raw = mmap.mmap(-1, mapped, flags=flags)
            except (OSError, OverflowError) as e:    # ulimit -v smaller than the pool
                raise SimulatorLimit(_(
                    "the simulator reserves address space for each memory pool it uses "
                    "({size} here) and the operating system refused ({reason}). Raise the "
                    "address-space limit (ulimit -v), or use a profile with smaller memory: "
                    "acl_lab.reset('310'). Nothing was changed.").format(
                        size=mib(mapped), reason=e)) from None
            m = self._m = _Mapped(raw, np.frombuffer(raw, dtype=np.uint8),
                                  np.zeros(mapped // CHUNK, dtype=bool))
        return m

    def _span(self, offset: int, n: int) -> tuple[int, int]:
        return offset // CHUNK, (offset + n - 1) // CHUNK + 1

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
        return len(self._fresh(lo, hi)) * CHUNK

    def _garbage(self, c: int) -> np.ndarray:
        return garbage_chunk() ^ np.uint8((c + self._salt) & 0xFF)

    def _fill(self, m: _Mapped, chunks: np.ndarray) -> None:
        """Give untouched ``chunks`` their garbage, marking and counting each as it is done."""
        for c in chunks.tolist():
            m.bytes[c * CHUNK:(c + 1) * CHUNK] = self._garbage(c)
            m.touched[c], self.touched_chunks, self._ram.used = (
                True, self.touched_chunks + 1, self._ram.used + CHUNK)

    def view(self, offset: int, n: int, call: str = "") -> np.ndarray:
        """A writable uint8 view of ``n`` bytes at ``offset``; untouched chunks get garbage."""
        m = self._mapped()
        if n > 0:
            lo, hi = self._span(offset, n)
            fresh = self._fresh(lo, hi)
            if fresh.size:
                self._ram.need(len(fresh) * CHUNK, call or "the simulator")
                self._fill(m, fresh)
        return m.bytes[offset:offset + n]

    def write(self, offset: int, n: int, writer, call: str = "") -> None:
        """``writer(view)`` writes all ``n`` bytes at ``offset``. Untouched chunks it covers
        completely get no garbage first; they count as touched once it has returned (so an
        interrupted write leaves them fresh, as they were)."""
        m = self._mapped()
        if n <= 0:
            return
        lo, hi = self._span(offset, n)
        fresh = self._fresh(lo, hi)
        if fresh.size:
            self._ram.need(len(fresh) * CHUNK, call or "the simulator")
            edges = [c for c in (lo, hi - 1) if c * CHUNK < offset or (c + 1) * CHUNK > offset + n]
            partial = np.zeros(fresh.size, bool)
            for c in edges:
                partial |= fresh == c
            self._fill(m, fresh[partial])
            covered = fresh[~partial]
        writer(m.bytes[offset:offset + n])
        if fresh.size and covered.size:
            m.touched[covered], self.touched_chunks, self._ram.used = (
                True, self.touched_chunks + covered.size, self._ram.used + covered.size * CHUNK)

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
        scratch = np.empty(n, np.uint8)
        is_fresh = np.zeros(hi - lo, bool)
        is_fresh[fresh - lo] = True
        for c in range(lo, hi):
            s, e = max(offset, c * CHUNK), min(offset + n, (c + 1) * CHUNK)
            scratch[s - offset:e - offset] = (self._garbage(c)[s - c * CHUNK:e - c * CHUNK]
                                              if is_fresh[c - lo] else m.bytes[s:e])
        out[:] = scratch

    def read_scratch(self, offset: int, n: int) -> int:
        """Host RAM read_into needs for a moment: ``n`` when the range has untouched chunks."""
        if n <= 0:
            return 0
        lo, hi = self._span(offset, n)
        return n if len(self._fresh(lo, hi)) else 0

    def offset_of(self, array: np.ndarray) -> int | None:
        """0 when ``array`` is this storage's own byte array (a ptr_to_numpy view's root)."""
        return 0 if self._m is not None and array is self._m.bytes else None

    def claim(self, offset: int, n: int) -> None:
        """An allocation now owns [offset, offset+n): its whole chunks read as fresh."""
        self.forget(offset, n)

    def forget(self, offset: int, n: int) -> None:
        """Give back RAM for whole chunks inside [offset, offset+n): they read as fresh again."""
        m = self._m
        if m is None:
            return
        lo, hi = -(-offset // CHUNK), (offset + n) // CHUNK
        if hi > lo:
            gone = int(m.touched[lo:hi].sum())
            if gone:
                m.map.madvise(mmap.MADV_DONTNEED, lo * CHUNK, (hi - lo) * CHUNK)
                m.touched[lo:hi], self.touched_chunks, self._ram.used = (
                    False, self.touched_chunks - gone, self._ram.used - gone * CHUNK)

    def release(self) -> None:
        """The simulated process ends: give all RAM back now (not when the cycle collector
        runs). Arrays still viewing it keep valid, zeroed address space."""
        if self._m is None:
            return
        raw, self._m = self._m.map, None     # drops our own numpy view of the mapping
        self._ram.used, self.touched_chunks = self._ram.used - self.touched_bytes, 0
        raw.madvise(mmap.MADV_DONTNEED, 0, len(raw))
        try:
            raw.close()
        except BufferError:     # a ptr_to_numpy view is alive: it keeps the (empty) mapping
            pass

    @property
    def touched_bytes(self) -> int:
        return self.touched_chunks * CHUNK
