"""Lazy byte storage: a pool's bytes cost host RAM only once they are touched.

Each pool reserves its whole size as one anonymous, MAP_NORESERVE mapping (address space,
not RAM) the first time any of its bytes is read or written. The pool is cut into chunks;
a chunk is filled with deterministic garbage the first time it is touched, so fresh memory
never reads as zeros and a 64 GiB device fits in a 2 GB pod.
"""
from __future__ import annotations

import mmap

import numpy as np

CHUNK = 64 * 1024
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000)  # Linux value; Python 3.13+ names it
_GARBAGE: np.ndarray | None = None


def garbage_chunk() -> np.ndarray:
    """The fixed pattern fresh chunks start from (seeded, so every run sees the same bytes)."""
    global _GARBAGE
    if _GARBAGE is None:
        _GARBAGE = np.random.default_rng(0xAC1).integers(0, 256, CHUNK, dtype=np.uint8)
    return _GARBAGE


class LazyStorage:
    """Bytes of one pool, addressed by offset from the pool's base."""

    def __init__(self, size: int, salt: int = 0):
        self.size = size
        self._salt = salt   # makes each pool's garbage differ (host vs device buffers)
        self._map: mmap.mmap | None = None
        self._bytes: np.ndarray | None = None
        self._touched: np.ndarray | None = None

    def _open(self) -> None:
        mapped = -(-self.size // CHUNK) * CHUNK
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE
        self._map = mmap.mmap(-1, mapped, flags=flags)
        self._bytes = np.frombuffer(self._map, dtype=np.uint8)
        self._touched = np.zeros(mapped // CHUNK, dtype=bool)

    def view(self, offset: int, n: int) -> np.ndarray:
        """A writable uint8 view of ``n`` bytes at ``offset``; untouched chunks get garbage."""
        if self._bytes is None:
            self._open()
        if n > 0:
            lo, hi = offset // CHUNK, (offset + n - 1) // CHUNK + 1
            fresh = np.flatnonzero(~self._touched[lo:hi])
            if fresh.size:
                pattern = garbage_chunk()
                for c in (fresh + lo).tolist():
                    self._bytes[c * CHUNK:(c + 1) * CHUNK] = pattern ^ np.uint8((c + self._salt) & 0xFF)
                self._touched[lo:hi] = True
        return self._bytes[offset:offset + n]

    def holds(self, array: np.ndarray) -> bool:
        """Is ``array`` this storage's own byte array (the root of a ptr_to_numpy view)?"""
        return array is self._bytes

    def forget(self, offset: int, n: int) -> None:
        """Give back RAM for whole chunks inside [offset, offset+n): they read as fresh again."""
        if self._touched is None:
            return
        lo, hi = -(-offset // CHUNK), (offset + n) // CHUNK
        if hi > lo and self._touched[lo:hi].any():
            self._map.madvise(mmap.MADV_DONTNEED, lo * CHUNK, (hi - lo) * CHUNK)
            self._touched[lo:hi] = False

    @property
    def touched_bytes(self) -> int:
        return 0 if self._touched is None else int(self._touched.sum()) * CHUNK
