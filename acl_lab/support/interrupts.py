"""Ctrl-C waits until the call it hit has finished: the kit's interrupt safety.

CPython runs a SIGINT handler between any two bytecodes of the main thread, so a
KeyboardInterrupt could land in the middle of an update that spans several objects (a free
list, an address map, a counter) or inside the code meant to undo one. Instead, the
functions that change simulated state are *critical*: ``@critical`` registers their code,
and the SIGINT handler installed here, finding one of them on the interrupted stack, only
notes the signal and sends it again a moment later — the KeyboardInterrupt reaches the
program after the call returned, with every book whole. Where a critical call waits (for a
callback thread, for a report), ``checkpoint()`` ends the wait at once on a noted Ctrl-C, at
a point where stopping changes nothing.

Registering costs nothing per call: only a signal walks the stack. The handler sits in front
of whatever handler was there (Python's, IPython's) and passes every other signal to it.
Without threads (Pyodide) a signal is not sent again: it is delivered at once.
"""
from __future__ import annotations

import os
import signal
import threading
import time

_CRITICAL: set = set()          # code objects of critical functions
_OPEN: set = set()              # code objects a critical call runs the learner's code in
_previous = signal.default_int_handler
_noted = False                  # a Ctrl-C is waiting for the critical call to end
_wake: int | None = None        # write end of the pipe the resender thread waits on
RESEND_S = 0.002                # how soon a noted Ctrl-C is sent again


def critical(fn):
    """Mark ``fn`` critical: Ctrl-C during it reaches the program once it returned."""
    _CRITICAL.add(fn.__code__)
    return fn


def uncritical(fn):
    """Mark ``fn``, called inside a critical call to run the learner's own code (a host
    callback), as open to Ctrl-C again: its caller must leave state whole when it raises."""
    _OPEN.add(fn.__code__)
    return fn


def _stdlib_weakref_callbacks() -> None:
    """Python drops an exception raised in a weakref callback ("Exception ignored in ..."),
    so a Ctrl-C landing in one of the standard library's (a WeakSet or weak dictionary
    losing an entry while the garbage collector runs) would be lost: it waits until the
    callback returned instead."""
    import weakref
    for holder in (weakref.WeakSet(), weakref.WeakValueDictionary(),
                   weakref.WeakKeyDictionary()):
        _CRITICAL.add(holder._remove.__code__)


_stdlib_weakref_callbacks()


def _in_critical(frame) -> bool:
    while frame is not None:
        code = frame.f_code
        if code in _OPEN:
            return False
        if code in _CRITICAL:
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum, frame):
    global _noted
    if _in_critical(frame):
        _noted = True
        if _resend_later():
            return
    _noted = False
    _previous(signum, frame)


def _resend_later() -> bool:
    """Have SIGINT sent to the main thread again in RESEND_S; False where nobody can. (A
    byte down a pipe wakes the resender thread: a handler must take no lock, since the code
    it interrupted may hold it.)"""
    if _wake is None:
        return False
    try:
        os.write(_wake, b"\0")
    except OSError:            # the pipe is full: a resend is due anyway
        pass
    return True


def _resender(wake: int) -> None:
    while True:
        os.read(wake, 4096)
        time.sleep(RESEND_S)
        if _noted:
            try:
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            except OSError:      # the main thread is gone: the process is ending
                return


def _start_resender() -> None:
    global _wake
    if _wake is not None:
        return
    try:
        r, w = os.pipe()
        os.set_blocking(w, False)
        threading.Thread(target=_resender, args=(r,), name="acl_lab Ctrl-C",
                         daemon=True).start()
    except (OSError, RuntimeError, AttributeError):     # no pipes or threads (Pyodide)
        return
    _wake = w


def _forget_resender() -> None:
    """A forked child has no resender thread: install() starts its own."""
    global _wake
    _wake = None


def checkpoint() -> None:
    """In a critical call's wait: raise the noted Ctrl-C now (the caller changed nothing
    yet, or leaves things consistent)."""
    global _noted
    if _noted and threading.current_thread() is threading.main_thread():
        _noted = False
        raise KeyboardInterrupt


def install() -> None:
    """Put the handler in front of the current SIGINT handler (main thread only; where a
    handler cannot be set, or SIGINT is ignored or fatal, nothing changes)."""
    global _previous
    if threading.current_thread() is not threading.main_thread():
        return
    _start_resender()
    try:
        current = signal.getsignal(signal.SIGINT)
        if current is _on_sigint or not callable(current):
            return
        signal.signal(signal.SIGINT, _on_sigint)
    except (ValueError, OSError, AttributeError):
        return
    _previous = current


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_resender)
