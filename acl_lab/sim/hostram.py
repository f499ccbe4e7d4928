"""The host-RAM budget for simulated bytes, so no learner input can exhaust the host.

Simulated memory costs real RAM once it is touched (storage.py). The budget is half of the
tightest limit this process lives under — its cgroup's memory limit (v2 or v1), its
address-space rlimit (``ulimit -v``) and the machine's physical memory — since Python, numpy
and Jupyter need the rest; in a browser tab (Pyodide) a fixed 1 GiB. ``ACL_LAB_HOST_RAM`` ("1GiB", "512MiB", "2G", a byte count)
overrides it. A call that would pass the budget raises SimulatorLimit before it changes
anything; checking costs O(1).
"""
from __future__ import annotations

import functools
import os
import re
import weakref

from acl_lab.support import interrupts
from acl_lab.support import pyodide as wasm
from acl_lab.errors import SimulatorLimit
from acl_lab.i18n import _

ENV = "ACL_LAB_HOST_RAM"
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1000, "kib": 1 << 10, "m": 1 << 20, "mb": 10**6,
          "mib": 1 << 20, "g": 1 << 30, "gb": 10**9, "gib": 1 << 30, "t": 1 << 40,
          "tb": 10**12, "tib": 1 << 40}
_NO_LIMIT = 1 << 60   # cgroup files say "max" or a huge number when nothing is set


def parse_size(text: str) -> int:
    """'1GiB' -> 1073741824; '512MiB', '2G', '1.5GiB', '1000000' likewise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = m and _UNITS.get(m.group(2).lower())
    if not unit:
        raise ValueError(f"{ENV}={text!r} is not a size; write e.g. 1GiB, 512MiB or 2000000000")
    return int(float(m.group(1)) * unit)


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() and int(text) < _NO_LIMIT else None


def _cgroup_limit() -> int | None:
    """The memory limit of this process's cgroup (v2 memory.max, else v1 limit_in_bytes)."""
    paths = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
    try:
        with open("/proc/self/cgroup", encoding="ascii") as f:
            for line in f:
                _hierarchy, controllers, path = line.rstrip("\n").split(":", 2)
                if controllers == "":
                    paths.insert(0, f"/sys/fs/cgroup{path}/memory.max")
                elif "memory" in controllers.split(","):
                    paths.insert(0, f"/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
    except (OSError, ValueError):
        pass
    found = [v for v in map(_read_int, paths) if v]
    return min(found) if found else None


def limits() -> dict[str, int]:
    """The limits the automatic budget is taken from: name -> bytes."""
    out = {}
    cgroup = _cgroup_limit()
    if cgroup:
        out["cgroup memory limit"] = cgroup
    try:
        import resource     # POSIX only
        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            out["RLIMIT_AS (ulimit -v)"] = soft
    except (ImportError, OSError, ValueError):
        pass
    try:
        out["physical memory"] = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        pass
    return out


def budget() -> tuple[int, str]:
    """(bytes simulated memory may use, where that figure comes from)."""
    limit, source = _budget()
    return limit, source()


def _budget():
    """(bytes, a function saying in the learner's language where that figure comes from)."""
    text = os.environ.get(ENV)
    if text:
        return parse_size(text), lambda: f"{ENV}={text}"
    if wasm.pyodide():      # a browser tab: its own limits (wasm.py), none of the above
        return wasm.BUDGET, lambda: _("the browser-tab default of {size} ({where})").format(
            size=mib(wasm.BUDGET), where=wasm.where())
    found = limits()
    if not found:
        return 1 << 30, lambda: _("a default of 1 GiB (no limit could be read)")
    name = min(found, key=found.get)
    return found[name] // 2, lambda: _("half the {limit} of {size}").format(
        limit=_limit_name(name), size=mib(found[name]))


def _limit_name(name: str) -> str:
    """A name limits() uses, in the learner's language."""
    return {"cgroup memory limit": _("cgroup memory limit"),
            "physical memory": _("physical memory")}.get(name, name)


#: host RAM one piece of the simulator's own bookkeeping holds: a queued or captured task,
#: a stream, an event (Python objects and their dicts: ~1 KiB each, measured with
#: tracemalloc), counted so that millions of them meet the budget, not the OOM killer
OBJECT_BYTES = 1024


class StaleViews:
    """Host RAM a program can still write through arrays it kept after their memory was
    freed (a ptr_to_numpy view after free_host, or after acl_lab.reset()): counted against
    every budget until the last such array is gone, so a use after free lands in RAM the
    budget sees (on hardware it would crash or write into whatever came next)."""

    def __init__(self):
        self.bytes = 0
        self._roots: dict[int, weakref.ref] = {}    # id -> weakref (arrays are unhashable)

    def hold(self, root, nbytes: int, gone=None) -> None:
        """``root`` (what every array over those bytes keeps alive) holds ``nbytes`` until it
        dies; then ``gone()`` gives their RAM back."""
        self.bytes += nbytes
        ref = weakref.ref(root, functools.partial(self._dead, nbytes, gone))
        self._roots[id(ref)] = ref

    @interrupts.critical(callback=True)    # a weakref callback: Ctrl-C waits past it
    def _dead(self, nbytes: int, gone, ref) -> None:
        self._roots.pop(id(ref), None)
        self.bytes -= nbytes
        if gone is not None:
            gone()


STALE = StaleViews()    # one per Python process: it outlives acl_lab.reset()


def mib(n: int) -> str:
    return f"{n / (1 << 20):,.0f} MiB" if n >= 1 << 20 else f"{n} B"


class HostRam:
    """Bytes of host RAM the simulated process holds (``used``: simulated bytes; ``held``:
    what loaded offline models keep on the host, their executors' weights), and promised to
    queued work (``reserved``), against the budget."""

    def __init__(self, limit: int | None = None, source: str = ""):
        if limit is None:
            limit, self._source = _budget()
        else:
            self._source = lambda: source
        self.limit = limit
        self.used = 0
        self.held = 0
        self.reserved = 0
        self.objects = lambda: 0     # how many bookkeeping objects there are (OBJECT_BYTES)

    @property
    def source(self) -> str:
        """Where the budget comes from, in the language of the moment."""
        return self._source()

    def need(self, nbytes: int, call: str, what: str | None = None) -> None:
        """Refuse (SimulatorLimit) unless ``nbytes`` more fit in the budget (``what``: what
        they are for; simulated bytes if not said)."""
        if nbytes > 0 and self.in_use + nbytes > self.limit:
            what = what or _("simulated bytes")
            raise SimulatorLimit(_(
                "{call}: the simulation would need {needed} more host RAM for {what}, "
                "but {in_use} of its budget of {budget} ({source}) are in use. Nothing was "
                "changed. Use smaller buffers, free memory you no longer need, "
                "acl_lab.reset(), or another profile; set {env} (e.g. {env}=4GiB) only if "
                "this machine really has the RAM.").format(
                    call=call, needed=mib(nbytes), what=what,
                    in_use=mib(self.in_use), budget=mib(self.limit),
                    source=self.source, env=ENV))

    @property
    def in_use(self) -> int:
        """Bytes held (simulated bytes, loaded models), promised to queued work, held by the
        simulator's bookkeeping and reachable through views of freed memory."""
        return (self.used + self.held + self.reserved + OBJECT_BYTES * self.objects()
                + STALE.bytes)

    def reserve(self, nbytes: int, call: str) -> None:
        self.need(nbytes, call)
        self.reserved += nbytes

    def unreserve(self, tasks) -> None:
        """Queued tasks are dropped without running: their promised RAM is free again."""
        self.reserved -= sum(getattr(t, "ram_reserved", 0) for t in tasks)
