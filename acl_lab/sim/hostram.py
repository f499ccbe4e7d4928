"""The host-RAM budget for simulated bytes, so no learner input can exhaust the host.

Simulated memory costs real RAM once it is touched (storage.py). The budget
(acl_lab.support.host_budget: half the tightest memory limit of this process, or
``ACL_LAB_HOST_RAM``) is the same for every process of a kernel. A call that would pass
the budget raises SimulatorLimit before it changes anything; checking costs O(1).
"""
from __future__ import annotations

import functools
import weakref

from acl_lab.support import interrupts
from acl_lab.support.host_budget import ENV, current_budget, mib
from acl_lab.errors import SimulatorLimit
from acl_lab.i18n import _

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


class HostRam:
    """Bytes of host RAM the simulated process holds (``used``: simulated bytes; ``held``:
    what loaded offline models keep on the host, their executors' weights), and promised to
    queued work (``reserved``), against the budget."""

    def __init__(self, limit: int | None = None, source: str = ""):
        if limit is None:
            limit, self._source = current_budget()
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
