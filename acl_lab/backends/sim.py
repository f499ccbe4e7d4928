"""The simulator as a backend: the simulated process of the session, made on first use and
reset in place (acl_lab/sim/)."""
from __future__ import annotations

from acl_lab.backends import Backend
from acl_lab.spec.snapshot_schema import Snapshot


def sim_backend(session, profile: str | None) -> Backend:
    from acl_lab.sim.facade import Simulator
    from acl_lab.sim.profiles import get_profile

    wanted = get_profile(profile) if profile else None
    sim = session.simulator
    if sim is None:
        sim = session.simulator = Simulator(wanted)
    elif wanted is not None and wanted is not sim.rt.profile:
        sim.reset(wanted)
    return Backend(
        name="sim", acl=sim.acl,
        timing=lambda: sim.rt.sched,    # a reset process has a new scheduler
        snapshot=lambda: _snapshot(sim),
        reset=lambda p=None: sim.reset(get_profile(p) if p else None),
    )


def _snapshot(sim) -> Snapshot:
    """The simulator's state, taken under its lock (other threads may be calling)."""
    rt = sim.rt
    with rt.lock:
        return rt.snapshot()
