"""The pyACL-shaped facade over the simulated process: what ``acl_lab.load()`` hands out.

One file per pyACL namespace (``top``: ``acl.*``, ``rt``, ``mdl``, ``nn``, ``op``, ``media``,
``util``, ``prof``), every call written as a prototype row (acl_lab/spec/prototypes/) plus a short
method over the one call wrapper (``_call.acl_call``): names, argument order and return
shapes follow pyACL — a call that produces values returns ``(value, ..., ret)``; one that only
acts returns ``ret``. Wrong Python types raise TypeError (as pyACL's argument parsing does);
any int, however wrong, gets a return code.
"""
from __future__ import annotations

from acl_lab.sim.facade.blas import Blas
from acl_lab.sim.facade.mdl import Mdl
from acl_lab.sim.facade.media import Media
from acl_lab.sim.facade.nn import Nn
from acl_lab.sim.facade.op import Op
from acl_lab.sim.facade.prof import Prof
from acl_lab.sim.facade.rt import Rt
from acl_lab.sim.facade.top import SimAcl
from acl_lab.sim.facade.util import Util
from acl_lab.sim.process import Process
from acl_lab.sim.profiles import Profile, get_profile
from acl_lab.spec import prototypes
from acl_lab.support import interrupts

#: pyACL namespace ("" for the top level) -> the class that implements it
FACADE = {"": SimAcl, "rt": Rt, "mdl": Mdl, "nn": Nn, "op": Op, "media": Media, "util": Util,
          "blas": Blas, "prof": Prof}
prototypes.document(FACADE)   # pyACL signatures and C prototypes for help() and Shift-Tab


class Simulator:
    """The simulated process behind one ``acl``. ``reset`` starts a fresh one in place, so
    every ``acl`` handed out keeps working (a notebook re-run starts from a clean process)."""

    def __init__(self, profile: Profile | None = None):
        self.rt = Process(profile or get_profile())
        self.acl = SimAcl(self, {name: cls for name, cls in FACADE.items() if name})

    @interrupts.critical
    def reset(self, profile: Profile | None = None) -> None:
        old = self.rt
        with old.lock:    # its bytes go now, not when the cycle collector finds the old process
            old.memory.release_storage()
            old.callbacks.end()     # the old process's callback threads end with it
        self.rt = Process(profile or old.profile)
