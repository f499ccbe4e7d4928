"""Backend registry and selection: "sim" (default, the simulator) or "ascend" (real pyACL).

A backend gives ``load()`` three things: the pyACL-shaped ``acl`` object, its timing for the
trace (a modeled clock and the stream work issued), and a snapshot of its state as plain data.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from acl_lab.i18n import _
from acl_lab.spec.snapshot_schema import Snapshot

BACKENDS = ("sim", "ascend")


@dataclass
class Backend:
    name: str
    acl: object
    # the object the trace reads around each call: ``now_us`` (the host clock, in us) and
    # ``timeline`` (the stream work issued, last one last); asked once per call
    timing: Callable[[], object]
    snapshot: Callable[[], Snapshot]
    reset: Callable[[str | None], None]


def select(session, backend: str | None = None, profile: str | None = None) -> Backend:
    """The backend ``session`` (acl_lab.session.Session) keeps under that name, made on
    first use."""
    name = (backend or os.environ.get("ACL_LAB_BACKEND") or "sim").lower()
    if name == "sim":
        from acl_lab.backends.sim import sim_backend
        return sim_backend(session, profile)
    if name == "ascend":
        from acl_lab.backends.ascend import ascend_backend
        return ascend_backend(session)
    raise ValueError(_("unknown backend {name}; choose one of {names}").format(
        name=repr(name), names=", ".join(BACKENDS)))
