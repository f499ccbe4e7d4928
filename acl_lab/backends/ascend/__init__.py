"""The "ascend" backend: Huawei's real pyACL (``import acl``, from the CANN toolkit) behind
the guard, so the chapters' notebooks drive an Ascend NPU unchanged.

pyACL is not on PyPI: it ships with the CANN toolkit and becomes importable once the
toolkit's ``set_env.sh`` is sourced. When it, or a device, is missing, ``load`` raises
BackendUnavailable saying what is missing and how to install it; nothing else breaks.
"""
from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from typing import NamedTuple

from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import N_, _
from acl_lab.spec.snapshot_schema import PoolRow, Snapshot
from acl_lab.backends import Backend

SET_ENV = "/usr/local/Ascend/ascend-toolkit/set_env.sh"
HOME_VARS = ("ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH")
#: translated and filled where shown: ``_(HOW_TO_INSTALL).format(set_env=SET_ENV)``
HOW_TO_INSTALL = N_("""How to get there:
  1. Install the NPU driver and firmware, then the CANN toolkit
     (Ascend-cann-toolkit_<version>_linux-<arch>.run --install, from hiascend.com).
     pyACL ships inside the toolkit; it is not on PyPI.
  2. In the shell that starts Python or Jupyter: source {set_env}
     (it sets ASCEND_TOOLKIT_HOME, LD_LIBRARY_PATH and PYTHONPATH for pyACL).
  3. `npu-smi info` must list the NPU (in a container, pass the /dev/davinci* devices),
     then run `acl-lab doctor`.
Without an NPU, keep using the simulator: unset ACL_LAB_BACKEND, or acl_lab.load(backend="sim").""")


class Ascend(NamedTuple):
    """The ascend backend a session keeps once loaded: the pyACL module it wraps, the
    backend and its guard."""
    module: object
    backend: Backend
    guard: object           # guard.Guard


class BackendUnavailable(RuntimeError):
    """The requested backend cannot run on this machine; the message says why and the fix."""


@dataclass
class Diagnosis:
    """What the ascend backend needs and what this machine has."""

    module: object = None              # the imported pyACL module, if any
    device_count: int | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def explain(self) -> str:
        lines = [_('The "ascend" backend needs pyACL (from the CANN toolkit) and an Ascend NPU.'),
                 _("Missing on this machine:")]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines + [_(HOW_TO_INSTALL).format(set_env=SET_ENV)])


def _environment_problems() -> list[str]:
    home = next((os.environ[v] for v in HOME_VARS if os.environ.get(v)), None)
    if home is None:
        where = (_("the toolkit is installed ({set_env} exists) but its environment is not "
                   "loaded") if os.path.exists(SET_ENV) else
                 _("no CANN toolkit at {set_env}")).format(set_env=SET_ENV)
        return [_("CANN environment: {names} not set — {where}.").format(
            names=" / ".join(HOME_VARS), where=where)]
    if home not in os.environ.get("LD_LIBRARY_PATH", ""):
        return [_("CANN libraries: LD_LIBRARY_PATH does not include {home}; source {set_env} "
                  "in this shell.").format(home=home, set_env=SET_ENV)]
    return []


def _import_problem(error: Exception) -> str:
    names = {"error": type(error).__name__, "message": error}
    if "shared object" in str(error):
        return _("pyACL: `import acl` failed ({error}: {message}) — the CANN libraries are not "
                 "on LD_LIBRARY_PATH.").format(**names)
    if isinstance(error, ModuleNotFoundError):
        return _("pyACL: `import acl` failed ({error}: {message}) — pyACL is not on PYTHONPATH "
                 "(set_env.sh adds it).").format(**names)
    return _("pyACL: `import acl` failed ({error}: {message}).").format(**names)


def diagnose() -> Diagnosis:
    """Try what the backend needs, in order: import pyACL, then ask it for devices."""
    d = Diagnosis()
    try:
        module = importlib.import_module("acl")
    except Exception as e:          # ImportError, or OSError from a broken library
        d.problems.append(_import_problem(e))
        d.problems += _environment_problems()
        return d
    if not hasattr(module, "rt"):
        d.problems.append(_("pyACL: the `acl` module found at {path} is not pyACL (it has no "
                            "acl.rt).").format(path=getattr(module, "__file__", "?")))
        return d
    d.module = module
    d.notes.append(_("pyACL from {path}").format(path=getattr(module, "__file__", "?")))
    try:
        count, ret = module.rt.get_device_count()
    except Exception as e:
        d.problems.append(_("device: acl.rt.get_device_count() raised {error}.").format(
            error=repr(e)))
        return d
    if ret != 0:
        d.problems.append(_("device: acl.rt.get_device_count() returned {explanation} The NPU "
                            "driver does not answer.").format(explanation=explain(ret)))
    elif count == 0:
        d.problems.append(_("device: the driver sees no Ascend NPU."))
    else:
        d.device_count = count
    return d


def guard_wanted() -> bool:
    """The guard is on unless ACL_LAB_GUARD is 0 / off / false / no."""
    return os.environ.get("ACL_LAB_GUARD", "1").strip().lower() not in ("0", "off", "false", "no")


def snapshot(guard) -> Snapshot:
    """acl_lab.snapshot() on hardware: the guard's registry, and free memory per page pool
    from get_mem_info. The schema is every backend's (snapshot_schema.py): what the device
    does not tell is None, or an empty list."""
    return {
        "backend": "ascend", "profile": None,
        "soc_name": getattr(guard.real, "get_soc_name", lambda: None)(),
        "run_mode": C.RUN_MODE_NAMES.get(guard.run_mode()),
        "initialized": guard.initialized, "now_us": guard.now_us,
        "devices": {d: {"refs": n, "open": True} for d, n in guard.device_refs.items()},
        "contexts": [],
        "streams": [{"handle": h, "device": d, "context": None, "issued": None,
                     "executed": None, "pending": None, "t_end_us": None, "settings": None}
                    for h, d in guard.streams.items()],
        "events": [{"handle": h, "device": d, "stream": None, "recorded_at_us": None}
                   for h, d in guard.events.items()],
        "allocations": [{"ptr": e.ptr, "size": e.size, "footprint": e.footprint,
                         "occupied": e.footprint if e.python_owned else None,
                         "api": e.api, "location": e.location, "device": e.device,
                         "pool": "pageable" if e.python_owned else e.where,
                         "pinned": e.api == "malloc_host"}
                        for e in sorted(guard.registry.live(), key=lambda e: e.ptr)],
        "pools": _pools(guard),
        "touched_bytes": None, "models": [dict(m) for m in guard.ops.models.values()],
        "offline_models": guard.models.snapshot(),
        "timeline": [],
        "reports": list(guard.reports), "runtime": None, "notifies": [],
        "kernel_binaries": [], "kernel_args": [], "stream_allocators": [], "ipc_keys": [],
        "virtual_memory": {"reservations": [], "physical": []},
    }


def _pools(guard) -> list[PoolRow]:
    """Free and total memory per kind and page size of the current device. Asked only while
    a device is open, so a failing query never replaces the runtime's message for the
    learner's own last error."""
    rt = guard.real.rt
    device, ret = rt.get_device() if guard.device_refs else (None, 1)
    if ret != 0:
        return []
    kinds = ["HBM", "DDR"]
    if rt.get_mem_info(C.ACL_HBM_MEM) == rt.get_mem_info(C.ACL_DDR_MEM):
        kinds = ["DDR"]    # DDR-only SoCs answer HBM queries with their DDR figures
    pools = []
    for kind in kinds:
        for page in ("huge", "normal"):
            free, total, ret = rt.get_mem_info(getattr(C, f"ACL_{kind}_MEM_{page.upper()}"))
            if ret == 0 and total:
                pools.append({"label": f"{kind} {page} (device {device})", "device": device,
                              "kind": kind, "page": page, "p2p": False, "base": None,
                              "total": total, "used": total - free, "largest_free": None})
    return pools


def ascend_backend(session) -> Backend:
    """The ascend Backend ``session`` keeps (one per pyACL module, so every load() returns
    the same acl)."""
    if session.ascend is not None and sys.modules.get("acl") is session.ascend.module:
        return session.ascend.backend
    found = diagnose()
    if not found.ok:
        raise BackendUnavailable(found.explain())
    from acl_lab.backends.ascend.native import complete
    from acl_lab.backends.ascend.guard import Guard

    # pyACL, plus ctypes bindings for what it lacks (capture, aclnn, newer aclrt* calls)
    guard = Guard(complete(found.module), enabled=guard_wanted())

    def reset(profile: str | None = None) -> None:
        if profile:
            print(_("[acl_lab] profile {profile} is ignored on real hardware: the device is "
                    "what it is.").format(profile=repr(profile)), file=sys.stderr)
        guard.release_all()

    backend = Backend(name="ascend", acl=guard.acl, timing=lambda: guard,
                      snapshot=lambda: snapshot(guard), reset=reset)
    session.ascend = Ascend(found.module, backend, guard)
    return backend
