"""Ctrl-C waits until the kit call it hit has returned: the kit's one interrupt mechanism.

CPython runs a SIGINT handler between two bytecodes of the main thread, so a
KeyboardInterrupt could land in the middle of an update that spans several objects (a free
list, an address map, a counter). Instead, every kit call that changes state is *critical*:
its wrapper's code is registered here (the simulator's one call wrapper, sim/facade/_call.py,
the trace's and the guard's wrappers, ``@critical`` functions). The SIGINT handler installed
here, finding one of them on the main thread's stack, only notes the signal; as the outermost
critical call returns, its wrapper sees the note (one attribute read per call: nothing else
is paid per call) and raises the KeyboardInterrupt: the call's work is complete, every book
is whole, and the program's next statement never runs. A Ctrl-C outside the kit goes to the
handler that was there before, at once. Where a critical call waits (for a callback thread,
a report), ``checkpoint()`` ends the wait at once at a point where stopping changes nothing;
where it runs the learner's own code (a host callback, ``uncritical``), Ctrl-C reaches that
code directly.

Where each part applies:
- the handler is put in front of the current one by ``install()``, which ``acl_lab.load()``
  calls; under IPython also before every cell (ipykernel puts Python's default handler back
  before each one: ``pre_handler_hook``), through IPython's ``pre_run_cell`` event; scripts,
  ``acl-lab run`` and pytest keep it once loaded;
- under IPython, a KeyboardInterrupt is shown without the kit's frames at its end
  (``show_in_ipython``): the traceback ends in the learner's own code;
- a noted Ctrl-C still noted RESEND_S later (a critical call that had already looked at the
  note for the last time when it came, or a weakref callback: Python drops an exception
  raised in one, so ``@critical(callback=True)`` and the standard library's own weakref
  callbacks never raise it) is sent again by a small thread waiting on a pipe (its only
  job), and then lands outside the kit or at the end of the next kit call;
- another thread's calls are never interrupted (signals reach only the main thread); without
  signals (Pyodide) nothing is ever noted.
"""
from __future__ import annotations

import _thread
import functools
import os
import signal
import sys
import threading
import time


class _State:
    """``noted``: a Ctrl-C waits for the outermost critical call to return (one object, so
    the wrappers read it fast); ``delivered``: how many noted ones were raised."""
    __slots__ = ("noted", "delivered")

    def __init__(self):
        self.noted, self.delivered = False, 0


state = _State()
_CRITICAL: set = set()           # code objects of critical wrappers
_OPEN: set = set()               # code objects a critical call runs the learner's code in
_CALLBACK_CODE: set = set()      # code of the standard library's weakref callbacks
_main = threading.main_thread().ident
_previous = signal.default_int_handler
_wake: int | None = None         # write end of the pipe the resender thread waits on
RESEND_S = 0.002
KIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # .../acl_lab


def register(fn):
    """Register ``fn`` (a wrapper that calls ``returning()`` when it ends) as critical."""
    _CRITICAL.add(fn.__code__)
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
    if _in_critical(frame) or _in_stdlib_weakref_callback(frame):
        state.noted = True
        _resend_soon()      # a safety net: should the call have passed its last look at the
        return              # note already (or be a weakref callback), it comes a bit later
    state.noted = False
    _previous(signum, frame)


def returning() -> None:
    """Called by a critical wrapper as it ends while a Ctrl-C is noted: raise it if no other
    critical call is still running below (the wrapper's caller is not the kit's)."""
    if _thread.get_ident() != _main or _in_critical(sys._getframe(2)):
        return
    state.noted = False
    state.delivered += 1
    __tracebackhide__ = True      # noqa: F841 - read by IPython and pytest
    raise deferred()


def deferred() -> KeyboardInterrupt:
    """The KeyboardInterrupt of a Ctrl-C that hit a kit call, raised as the call returned
    (its work complete), marked so (tests count them)."""
    interrupt = KeyboardInterrupt()
    interrupt.acl_lab_deferred = True
    return interrupt


def critical(fn=None, *, callback: bool = False):
    """Run ``fn`` as a critical call: a Ctrl-C during it arrives as it returns.
    ``callback=True`` for a weakref callback (Python would drop the KeyboardInterrupt: the
    signal is sent again instead)."""
    if fn is None:
        return functools.partial(critical, callback=callback)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        __tracebackhide__ = True      # noqa: F841
        try:
            return fn(*args, **kwargs)
        finally:
            if state.noted and not callback:    # (a weakref callback's is sent again)
                returning()
    return register(call)


def uncritical(fn):
    """Mark ``fn``, called inside a critical call to run the learner's own code (a host
    callback), as open to Ctrl-C again: its caller must leave state whole when it raises."""
    @functools.wraps(fn)
    def opened(*args, **kwargs):
        if state.noted and _thread.get_ident() == _main:
            state.noted = False
            state.delivered += 1
            raise deferred()
        return fn(*args, **kwargs)
    _OPEN.add(opened.__code__)
    return opened


def checkpoint() -> None:
    """In a critical call's wait: raise the noted Ctrl-C now (the caller changed nothing
    yet, or leaves things consistent)."""
    if state.noted and _thread.get_ident() == _main:
        state.noted = False
        state.delivered += 1
        raise deferred()


# ----- the handler ---------------------------------------------------------------------------
def install() -> None:
    """Put the handler in front of the current SIGINT handler (main thread only; where SIGINT
    is ignored or left to the OS, or no handler can be set, nothing changes)."""
    global _previous
    if _thread.get_ident() != _main:
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


def _in_stdlib_weakref_callback(frame) -> bool:
    while frame is not None:
        if frame.f_code in _CALLBACK_CODE:
            return True
        frame = frame.f_back
    return False


def _stdlib_weakref_callbacks() -> None:
    import weakref
    for holder in (weakref.WeakSet(), weakref.WeakValueDictionary(),
                   weakref.WeakKeyDictionary()):
        _CALLBACK_CODE.add(holder._remove.__code__)


_stdlib_weakref_callbacks()


def _resend_soon() -> None:
    """Have SIGINT sent to the main thread again in RESEND_S (a byte down a pipe wakes the
    resender: a handler must take no lock, the code it interrupted may hold it)."""
    if _wake is not None:
        try:
            os.write(_wake, b"\0")
        except OSError:            # the pipe is full: a resend is due anyway
            pass


def _resender(wake: int) -> None:
    while True:
        os.read(wake, 4096)
        delivered = state.delivered
        time.sleep(RESEND_S)
        if state.noted and state.delivered == delivered:   # still waiting, none came
            try:
                signal.pthread_kill(_main, signal.SIGINT)
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


# ----- IPython ---------------------------------------------------------------------------
def show_in_ipython() -> None:
    """Under IPython: put the handler back before every cell (ipykernel resets it), and show
    a KeyboardInterrupt without the kit's frames at its end — put off to the end of a kit
    call, or landing in the kit outside a critical call, where nothing had changed — so the
    traceback ends in the learner's own code. (IPython shows the frame that raised even when
    it is marked hidden; a custom handler for KeyboardInterrupt trims it. Nothing of it is
    set where another custom exception handler is.)"""
    shell = _ipython() if "IPython" in sys.modules else None
    if shell is None or getattr(shell, "acl_lab_interrupts", False):
        return
    shell.acl_lab_interrupts = True
    shell.events.register("pre_run_cell", lambda *_info: install())
    if getattr(shell, "custom_exceptions", None) != ():
        return

    def show(self, etype, value, tb, tb_offset=None):
        tb = _without_kit_tail(tb)
        stb = self.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
        self._showtraceback(etype, value, stb)    # as showtraceback() does (the kernel's
        return None                               # reply and error message come from it)
    shell.set_custom_exc((KeyboardInterrupt,), show)


def _ipython():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def _without_kit_tail(tb):
    """``tb`` cut after the last frame that is not the kit's own."""
    last, node = None, tb
    while node is not None:
        if not node.tb_frame.f_code.co_filename.startswith(KIT):
            last = node
        node = node.tb_next
    if last is None:
        return tb
    last.tb_next = None
    return tb


def _after_fork_in_child() -> None:
    """A forked child has no resender thread of its own yet, and its own main thread."""
    global _main, _wake
    _main, _wake = _thread.get_ident(), None
    state.noted = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
