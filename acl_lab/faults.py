"""Fault injection for live demos: the next call(s) of one pyACL function fail with a chosen
code, without running.

    acl_lab.inject("rt.malloc", code=207001, times=1)     # the next malloc runs out of memory
    acl_lab.inject("rt.memcpy", code=507899, when=lambda dst, dmax, src, n, kind: kind == 2)
    acl_lab.inject.clear()                                 # (acl_lab.reset() clears them too)

The traced facade (trace.py) asks the session's Faults before each call, so this works on every
backend. An injected failure has the call's own failure shape (``(0, code)`` for malloc,
``code`` for memcpy), reaches neither the backend nor its state, is marked in the trace and
is what ``acl.get_recent_err_msg()`` explains next.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from acl_lab.errors import ERROR_NAMES, explain
from acl_lab.i18n import _, pgettext


@dataclass(eq=False)
class Fault:
    """One armed fault: ``name`` fails with ``code`` (``times`` more calls; None: until
    cleared) whenever ``when(*args, **kwargs)`` is true (always, without ``when``)."""

    name: str
    code: int
    times: int | None
    when: Callable | None
    failed: Callable            # the call's failure shape: (code, message) -> result
    owner: "Faults" = field(repr=False)

    def __repr__(self) -> str:
        left = (_("until cleared") if self.times is None else
                (_("{n} more call") if self.times == 1 else _("{n} more calls")).format(
                    n=self.times))
        if self.when is not None:
            left = _("{calls} when the condition holds").format(calls=left)
        return _("<injected fault: {name} fails with {error} ({code}), {calls}>").format(
            name=self.name, error=ERROR_NAMES.get(self.code, "code"), code=self.code, calls=left)

    def remove(self) -> None:
        self.owner.remove(self)


class Faults:
    """The armed faults and the explanation of the last injected failure. Callable as
    ``acl_lab.inject(name, code, times=1, when=None)``."""

    def __init__(self):
        self.armed = False          # read on every traced call: a fault set or a message kept
        self.faults: list[Fault] = []
        self._message: str | None = None     # the latest failure was injected: its explanation
        self._returns_code: dict[str, bool] = {}
        self._lock = threading.Lock()

    def __call__(self, name: str, code: int, times: int | None = 1,
                 when: Callable | None = None) -> Fault:
        """Make the next ``times`` calls of ``name`` (pyACL's name: "rt.malloc",
        "mdl.ri_capture_end", "init") fail with ``code``; ``times=None`` until cleared;
        ``when``, called with the call's arguments, picks which calls."""
        name = name.removeprefix("acl.")
        failed = _failure(name)
        if failed is None:
            raise ValueError(_unknown(name))
        if isinstance(code, bool) or not isinstance(code, int) or code == 0:
            raise ValueError(_("code must be a nonzero ACL error code (e.g. 207001, "
                               "ACL_ERROR_RT_MEMORY_ALLOCATION), not {code}: an injected "
                               "success would hand out results nothing backs.").format(
                code=repr(code)))
        if times is not None and (isinstance(times, bool) or not isinstance(times, int)
                                  or times < 1):
            raise ValueError(_("times must be a positive int, or None for every call until "
                               "cleared; not {times}").format(times=repr(times)))
        if when is not None and not callable(when):
            raise TypeError(_("when must be a function of the call's arguments, not "
                              "{type}").format(type=type(when).__name__))
        fault = Fault(name, code, times, when, failed, self)
        with self._lock:
            self.faults.append(fault)
            self.armed = True
        return fault

    def remove(self, fault: Fault) -> None:
        with self._lock:
            if fault in self.faults:
                self.faults.remove(fault)
            self._rearm()

    def clear(self) -> None:
        """Remove every fault and forget the last injected failure."""
        with self._lock:
            self.faults.clear()
            self._message = None
            self._rearm()

    def __repr__(self) -> str:
        if not self.faults:
            return _("<no injected faults>")
        return "\n".join(map(repr, self.faults))

    # ----- called by the traced facade while armed ----------------------------------------
    def call(self, name: str, fn: Callable, args: tuple, kwargs: dict) -> tuple[object, bool]:
        """(result, injected): an armed fault's failure, or ``fn``'s own result."""
        if name == "get_recent_err_msg":
            real = fn(*args, **kwargs)      # read either way: an injected failure is newer
            with self._lock:
                message, self._message = self._message, None
                self._rearm()
            return (real if message is None else message), False
        fault = self._take(name, args, kwargs)
        if fault is None:
            result = fn(*args, **kwargs)
            if self._message is not None and self._is_failure(name, result):
                with self._lock:    # a real failure came after: its message is the latest
                    self._message = None
                    self._rearm()
            return result, False
        message = _("{name}: injected fault. acl_lab.inject({quoted}, code={code}) made this "
                    "call fail without running it, so nothing changed. {explanation} "
                    "(acl_lab.inject.clear() or acl_lab.reset() removes injected faults.)").format(
            name=name, quoted=repr(name), code=fault.code, explanation=explain(fault.code))
        with self._lock:
            self._message = message
            self._rearm()
        return fault.failed(fault.code, message), True

    def _take(self, name: str, args: tuple, kwargs: dict) -> Fault | None:
        for fault in [f for f in self.faults if f.name == name]:
            if fault.when is not None and not fault.when(*args, **kwargs):
                continue
            with self._lock:
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times == 0 and fault in self.faults:
                        self.faults.remove(fault)
                self._rearm()
            return fault
        return None

    def _is_failure(self, name: str, result) -> bool:
        """Whether ``result`` is a failure code (calls returning bare values never are)."""
        code = result[-1] if isinstance(result, tuple) and result else result
        if isinstance(code, bool) or not isinstance(code, int) or code == 0:
            return False
        known = self._returns_code.get(name)
        if known is None:
            failed = _failure(name)
            try:
                shape = failed(-1, "") if failed else None
            except Exception:
                shape = None
            known = shape == -1 or isinstance(shape, tuple) and shape[-1:] == (-1,)
            self._returns_code[name] = known
        return known

    def _rearm(self) -> None:
        self.armed = bool(self.faults) or self._message is not None


def _failure(name: str):
    from acl_lab.spec.prototypes import failure     # pyACL's failure shapes, on any backend
    return failure(name)


def _unknown(name: str) -> str:
    import difflib
    from acl_lab.spec.prototypes import PROTOTYPES, failure
    names = [n for n in PROTOTYPES if failure(n) is not None]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    text = _("acl_lab cannot inject a fault into {name}: it is not a pyACL call that can fail "
             "(names as pyACL's: 'rt.malloc', 'rt.memcpy', 'mdl.ri_capture_end').").format(
        name=repr(name))
    if not close:
        return text
    return _("{text} Did you mean {names}?").format(
        text=text, names=pgettext("alternatives", " or ").join(map(repr, close)))

