"""Thread identity for the simulator, and ``run_in_thread`` for the chapters.

ACL keeps the current context, the last error and the capture mode per thread, and the
chapters show it by running code "in another thread". On CPython that is a real thread.
Pyodide cannot start threads, so there ``run_in_thread`` runs the function at once under a
simulated thread identity: ``get_ident()`` and ``Local`` (threading.local's stand-in) see a
new thread, so per-thread state behaves as the chapters teach.
"""
from __future__ import annotations

import itertools
import threading
import weakref

from acl_lab.support import pyodide as wasm

_SIMULATED_IDS = itertools.count(1 << 62)   # never a real thread id
_state = threading.local()                  # .stack: the simulated threads entered here
_locals: "weakref.WeakSet[Local]" = weakref.WeakSet()


_running = [0]      # simulated threads running now, in any real thread
_real_ident = threading.get_ident


def _current_simulated() -> int | None:
    if not _running[0]:     # the common case, asked on every API call: no lookup at all
        return None
    stack = _state.__dict__.get("stack")
    return stack[-1] if stack else None


def _ident_while_simulating() -> int:
    sim = _current_simulated()
    return _real_ident() if sim is None else sim


#: threading.get_ident, or the simulated thread's id inside run_in_thread on Pyodide. It is
#: threading's own (C) function while no simulated thread runs: the trace asks it on every
#: call. Read it as ``threads.get_ident``, never imported by name: _simulate swaps it.
get_ident = _real_ident


def is_main() -> bool:
    return _current_simulated() is None and threading.current_thread() is threading.main_thread()


class Local:
    """threading.local, with a separate namespace for each simulated thread."""

    def __init__(self):
        object.__setattr__(self, "_real", threading.local())
        object.__setattr__(self, "_simulated", {})
        _locals.add(self)

    def _ns(self) -> dict:
        sim = _current_simulated()
        if sim is None:
            return self._real.__dict__
        return self._simulated.setdefault(sim, {})

    def get(self, name: str, default=None):
        """This thread's ``name``, or ``default`` (no AttributeError raised and caught, as
        ``getattr(local, name, default)`` would on every API call)."""
        if not _running[0]:
            return self._real.__dict__.get(name, default)
        return self._ns().get(name, default)

    def __getattr__(self, name):
        try:
            return self._ns()[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        self._ns()[name] = value


def _simulate(fn, args, kwargs):
    ident = next(_SIMULATED_IDS)
    stack = _state.__dict__.setdefault("stack", [])
    stack.append(ident)
    _running[0] += 1
    global get_ident
    get_ident = _ident_while_simulating
    try:
        return fn(*args, **kwargs)
    finally:
        _running[0] -= 1
        if not _running[0]:
            get_ident = _real_ident
        stack.pop()
        for local in list(_locals):     # the thread ends: its thread-local state goes
            local._simulated.pop(ident, None)


def run_in_thread(fn, *args, **kwargs):
    """Run ``fn(*args, **kwargs)`` in another thread and wait for it; its result, or its
    exception raised here. A real thread on CPython; under Pyodide a simulated one (same
    per-thread state: no current context, its own last error and capture mode)."""
    if wasm.pyodide():
        return _simulate(fn, args, kwargs)
    box = {}

    def body():
        try:
            box["result"] = fn(*args, **kwargs)
        except BaseException as e:    # handed to the caller, as if the call were here
            box["error"] = e

    t = threading.Thread(target=body, name=f"run_in_thread({getattr(fn, '__name__', 'fn')})")
    t.start()
    t.join()
    if "error" in box:
        raise box.pop("error")
    return box.get("result")
