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

import signal
import threading
import time

_CRITICAL: set = set()          # code objects of critical functions
_OPEN: set = set()              # code objects a critical call runs the learner's code in
_previous = signal.default_int_handler
_noted = False                  # a Ctrl-C is waiting for the critical call to end
_resending = False              # a thread is about to send it again
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
    """Send SIGINT to the main thread again in RESEND_S; False where that cannot be."""
    global _resending
    if _resending:
        return True

    def resend():
        global _resending
        time.sleep(RESEND_S)
        _resending = False
        if _noted:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    try:
        _resending = True
        threading.Thread(target=resend, name="acl_lab Ctrl-C", daemon=True).start()
    except RuntimeError:       # no threads here
        _resending = False
        return False
    return True


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
    try:
        current = signal.getsignal(signal.SIGINT)
        if current is _on_sigint or not callable(current):
            return
        signal.signal(signal.SIGINT, _on_sigint)
    except (ValueError, OSError, AttributeError):
        return
    _previous = current
