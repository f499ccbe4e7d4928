"""The learner's session: every piece of state that outlives one call, in one object.

A kernel has one Session, ``SESSION``: the simulated process (made on first use and reset in
place, so every ``acl`` handed out keeps working), the ascend backend once loaded, the
backend in use with its traced ``acl`` and its trace, and the injected faults.
``acl_lab.load``, ``reset``, ``tracer`` and ``inject`` are its front door.
"""
from __future__ import annotations

from typing import NamedTuple

from acl_lab.faults import Faults
from acl_lab.support import interrupts


class Active(NamedTuple):
    """What the last ``load()`` chose: its backend, the traced ``acl`` it handed out, and
    that ``acl``'s trace."""
    backend: object         # acl_lab.backends.Backend
    acl: object             # acl_lab.trace.Traced
    trace: object           # acl_lab.trace.Trace


class Session:
    def __init__(self):
        self.faults = Faults()     # acl_lab.inject
        self.simulator = None      # the simulated process (sim.facade.Simulator), once made
        self.ascend = None         # backends.ascend.Ascend, once loaded
        self.active: Active | None = None     # what the last load() chose

    def load(self, backend: str | None = None, profile: str | None = None):
        """The traced ``acl`` of the chosen backend (acl_lab.load documents the choice)."""
        from acl_lab.backends import select
        from acl_lab.trace import Trace, Traced

        interrupts.install()       # Ctrl-C waits for the call it hits (interrupts.py)
        interrupts.show_in_ipython()
        chosen = select(self, backend, profile)
        if self.active is not None and self.active.backend.acl is chosen.acl:
            return self.active.acl
        trace = Trace(chosen.timing, faults=self.faults)
        self.active = Active(chosen, Traced(chosen.acl, trace, simulated=chosen.name == "sim"),
                             trace)
        return self.active.acl

    def current(self) -> Active:
        """The backend, traced acl and trace in use, loading the default backend if none is."""
        if self.active is None:
            self.load()
        return self.active

    def set_guard(self, enabled: bool) -> None:
        """Turn the guard of the loaded ascend backend on or off (it keeps its registry
        either way)."""
        from acl_lab.i18n import _
        if self.ascend is None:
            raise RuntimeError(_('load the ascend backend first: '
                                 'acl_lab.load(backend="ascend")'))
        self.ascend.guard.enabled = bool(enabled)

    @interrupts.critical
    def reset(self, profile: str | None = None) -> None:
        """A fresh process, an empty trace, no injected faults."""
        active = self.current()
        active.backend.reset(profile)
        active.trace.clear()
        self.faults.clear()


SESSION = Session()
