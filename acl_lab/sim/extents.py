"""Byte storage where one big lazy mapping is impossible: Pyodide, in a browser tab.

There one anonymous mmap is capped below 2 GiB and every mapped byte is real memory at once,
so a pool cannot reserve its whole size as storage.py does. Here each allocation gets its
own buffer (an *extent*), made the first time one of its bytes is touched: a 64 GiB device
still reports 64 GiB, and RAM follows the allocations a learner really uses. An extent
costs its whole size against the host-RAM budget (hostram.py) when it is made; one larger
than a single map may be, or past the budget, raises SimulatorLimit and changes nothing.

Fresh bytes are the same deterministic garbage as storage.py's (a function of the pool
offset), so a chapter prints the same values in the browser as in JupyterLab. Bytes outside
every live allocation (queued work that outlived a free) read as fresh garbage, or as the
live allocations they overlap, and keep nothing written there. Same interface as
LazyStorage; memory.py picks one per pool (``storage_for``).
"""
from __future__ import annotations

import numpy as np
from sortedcontainers import SortedDict

from acl_lab.support import pyodide as wasm
from acl_lab.errors import SimulatorLimit
from acl_lab.sim.hostram import STALE, HostRam
from acl_lab.support.host_budget import mib
from acl_lab.i18n import _
from acl_lab.sim.storage import LazyStorage, fill_garbage


class ExtentStorage:
    """Bytes of one pool, one buffer per allocation, addressed by offset from the pool base."""

    def __init__(self, size: int, salt: int = 0, ram: HostRam | None = None):
        self.size = size
        self._salt = salt
        self._ram = ram if ram is not None else HostRam(1 << 62, "no budget")
        self._extents: SortedDict = SortedDict()   # start -> [end, buffer or None]
        self.touched_bytes = 0

    def _extent(self, offset: int, n: int) -> tuple[int, list]:
        """(start, [end, buffer]) of the allocation holding [offset, offset+n); where none
        holds it all, a loose one made for this access (see the module's docstring)."""
        i = self._extents.bisect_right(offset) - 1
        if i >= 0:
            start, ext = self._extents.peekitem(i)
            if offset + max(n, 0) <= ext[0]:
                return start, ext
        return offset, [offset + max(n, 0), self._loose(offset, max(n, 0))]

    def _loose(self, offset: int, n: int) -> np.ndarray:
        buf = np.empty(n, np.uint8)
        fill_garbage(buf, offset, self._salt)
        end = offset + n
        first = max(self._extents.bisect_right(offset) - 1, 0)
        for start in self._extents.islice(first, self._extents.bisect_left(end)):
            stop, data = self._extents[start]
            lo, hi = max(start, offset), min(stop, end)
            if data is not None and lo < hi:
                buf[lo - offset:hi - offset] = data[lo - start:hi - start]
        return buf

    def _made(self, start: int, ext: list, call: str) -> np.ndarray:
        """The extent's buffer, made (and filled with garbage) on first touch."""
        if ext[1] is None:
            size = ext[0] - start
            if size > wasm.MAP_CAP:
                raise SimulatorLimit(_(
                    "{call}: touching this {size} allocation needs one buffer of that "
                    "size, and {where} maps at most {cap} at once. Nothing was changed. The "
                    "allocation itself is fine (memory info counts it); use buffers under "
                    "2 GiB for data, or run the chapter in JupyterLab (make lab).").format(
                        call=call, size=mib(size), where=wasm.where(), cap=mib(wasm.MAP_CAP)))
            self._ram.need(size, call or "the simulator")
            buf = np.empty(size, np.uint8)
            fill_garbage(buf, start, self._salt)
            ext[1], self.touched_bytes, self._ram.used = (
                buf, self.touched_bytes + size, self._ram.used + size)
        return ext[1]

    def claim(self, offset: int, n: int) -> None:
        """An allocation now owns [offset, offset+n): its bytes start fresh."""
        self.forget(offset, n)
        self._extents[offset] = [offset + n, None]

    def forget(self, offset: int, n: int) -> None:
        """The allocation at ``offset`` is gone: its buffer's RAM goes back."""
        ext = self._extents.pop(offset, None)
        if ext is not None and ext[1] is not None:
            size = ext[0] - offset
            self.touched_bytes, self._ram.used = self.touched_bytes - size, self._ram.used - size
            STALE.hold(ext[1], size)    # counted while a ptr_to_numpy view keeps it alive

    def fresh_bytes(self, offset: int, n: int) -> int:
        if n <= 0:
            return 0
        start, ext = self._extent(offset, n)
        return 0 if ext[1] is not None else ext[0] - start

    def view(self, offset: int, n: int, call: str = "") -> np.ndarray:
        start, ext = self._extent(offset, n)
        if n <= 0 and ext[1] is None:
            return np.empty(0, np.uint8)
        return self._made(start, ext, call)[offset - start:offset - start + n]

    def write(self, offset: int, n: int, writer, call: str = "") -> None:
        if n > 0:
            writer(self.view(offset, n, call))

    def touch_edges(self, offset: int, n: int, call: str = "") -> None:
        """A queued write of part of an allocation makes its buffer now (storage.py's
        touch_edges: many such writes take its RAM once)."""
        start, ext = self._extent(offset, n)
        if n > 0 and ext[1] is None and self._extents.get(start) is ext \
                and (offset > start or offset + n < ext[0]):
            self._made(start, ext, call)

    def read_into(self, offset: int, n: int, out: np.ndarray) -> None:
        if n <= 0:
            return
        start, ext = self._extent(offset, n)
        if ext[1] is not None:
            out[:] = ext[1][offset - start:offset - start + n]
            return
        scratch = np.empty(n, np.uint8)     # so ``out`` is written in one step
        fill_garbage(scratch, offset, self._salt)
        out[:] = scratch

    def read_scratch(self, offset: int, n: int) -> int:
        return n if self.fresh_bytes(offset, n) else 0

    window = view      # ptr_to_numpy's arrays: slices of their allocation's own buffer

    def offset_of(self, array: np.ndarray) -> int | None:
        """The pool offset where ``array`` (a ptr_to_numpy view's root) starts, if ours."""
        return next((start for start, (_, buf) in self._extents.items() if buf is array), None)

    def release(self) -> None:
        for start, (end, buf) in self._extents.items():
            if buf is not None:
                STALE.hold(buf, end - start)
        self._ram.used -= self.touched_bytes
        self._extents, self.touched_bytes = SortedDict(), 0


def storage_for(size: int, salt: int, ram: HostRam):
    """The storage a pool of ``size`` bytes uses on this platform."""
    kind = ExtentStorage if wasm.pyodide() else LazyStorage
    return kind(size, salt=salt, ram=ram)
