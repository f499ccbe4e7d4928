"""acl_lab: learn the AscendCL runtime in Jupyter, on a faithful simulator or a real NPU.

    import acl_lab
    acl = acl_lab.load()            # pyACL-shaped: acl.init(), acl.rt.malloc(...), ...
    acl_lab.check(acl.init())       # raise AclLabError with the explanation on failure

Heavy pieces (the simulator, numpy, widgets) load on first use, so importing stays fast.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from acl_lab import constants
from acl_lab.support import pyodide as wasm
from acl_lab.errors import AclLabError, SimulatorLimit, explain
from acl_lab.i18n import _, get_language, say, set_language
from acl_lab.session import SESSION
from acl_lab.support.threads import run_in_thread

if TYPE_CHECKING:
    from acl_lab.spec.snapshot_schema import Snapshot

__all__ = ["load", "reset", "snapshot", "explain", "check", "tracer", "name", "AclLabError",
           "SimulatorLimit", "constants", "inject", "set_language", "get_language", "say",
           "run_in_thread", "progress", "set_guard"]
__version__ = "0.1.0"

wasm.imitate()   # ACL_LAB_PLATFORM=pyodide: Pyodide's limits on CPython (tests)

inject = SESSION.faults   # acl_lab.inject("rt.malloc", code=...): see acl_lab/faults.py


def load(backend: str | None = None, profile: str | None = None):
    """The pyACL-shaped ``acl`` object of the chosen backend, with every call traced.

    backend: "sim" (default) or "ascend"; else $ACL_LAB_BACKEND. profile (simulator only):
    "910b" (default), "310", "310p", "200dk", "310b"; else $ACL_LAB_PROFILE. Asking the
    simulator for another profile than the running one starts a fresh simulated process.
    """
    return SESSION.load(backend, profile)


def reset(profile: str | None = None) -> None:
    """Start a fresh simulated process (optionally on another profile), clear the trace and
    the injected faults. Every ``acl`` object already handed out keeps working, on the new
    process."""
    SESSION.reset(profile)


def snapshot() -> Snapshot:
    """Allocations, pools, streams, events and contexts of the active backend, as plain data
    (the same keys on every backend: acl_lab/spec/snapshot_schema.py describes each one)."""
    return SESSION.current().backend.snapshot()


def set_guard(enabled: bool) -> None:
    """On real hardware (the "ascend" backend), turn the guard on or off; it keeps its
    registry either way. Off, misuse reaches the device: expect real error codes, or a
    crash. ACL_LAB_GUARD=0 starts with it off."""
    SESSION.set_guard(enabled)


def tracer():
    """The call trace of the active backend (``tracer().table(20)`` for a readable table)."""
    return SESSION.current().trace


def name(handle: int, label: str) -> None:
    """Name a stream, e.g. ``acl_lab.name(copy_stream, "copy")``: every view and the trace
    table show the name instead of the handle, until the next ``reset()``."""
    tracer().name(handle, label)


def progress():
    """What you have passed, per chapter: exercises and self-test questions, kept across
    sessions under $ACL_LAB_HOME (see acl_lab.exercises.quiz)."""
    from acl_lab.exercises.quiz import progress as view
    return view()


def check(ret, what: str | None = None) -> None:
    """Raise AclLabError if ``ret`` (a code, or a pyACL ``(value, ret)`` tuple) is not 0.

    The message is the backend's own explanation (acl.get_recent_err_msg()).
    """
    code = ret[-1] if isinstance(ret, tuple) else ret
    if code != 0:
        message = SESSION.current().acl.get_recent_err_msg() or None
        if what and message:
            message = f"{what}: {message}"
        raise AclLabError(code, _with_open_captures(message))


def _with_open_captures(message: str | None) -> str | None:
    """A cell stopped by check() may leave a capture it began open, and every later cell then
    fails for that reason: say so, with the way out."""
    capturing = [m["stream"] for m in snapshot().get("models", []) if not m["ready"]]
    if not message or not capturing:
        return message
    streams = ", ".join(f"0x{s:x}" for s in capturing)
    return _("{message} (Stream {streams} is still capturing: acl.mdl.ri_capture_end(stream) "
             "ends the capture before you run the cell again.)").format(message=message,
                                                                        streams=streams)
