"""The ``acl`` a program gets under `acl-lab run`: the traced acl, watched for failures.

Every call whose return code is not ACL_SUCCESS (and every util read that raises, where
real pyACL would crash) is kept with the program line that made it and the simulator's
explanation, read without consuming it: the program's own acl.get_recent_err_msg() still
sees it. Same names, same ``dir()``, same missing-call message as the traced acl.
"""
from __future__ import annotations

import os
import sys
import types
from typing import NamedTuple

from acl_lab.errors import AclLabError
from acl_lab.trace import Namespace, missing_call, pyacl_functions


class Failure(NamedTuple):
    call: str         # "rt.memcpy"
    code: int
    message: str      # the simulator's explanation (acl.get_recent_err_msg())
    where: str        # "app.py:42", the program line that made the call
    freed: bool       # a pointer argument was freed before (use-after-free, double free)


def _returns_code(name: str) -> bool:
    from acl_lab.spec.prototypes import PROTOTYPES
    proto = PROTOTYPES.get(name)
    return proto is not None and proto.returns.split(", ")[-1] == "ret"


def caller() -> str:
    """The first frame outside acl_lab: the program line that called."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("acl_lab."):
        frame = frame.f_back
    if frame is None:
        return "?"
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


class Probe:
    """What the watch reads from the simulated process (never changing it)."""

    def __init__(self, session):
        self._session = session

    def _rt(self):
        sim = self._session.simulator
        return None if sim is None else sim.rt

    def explanation(self) -> str:
        rt = self._rt()
        return "" if rt is None else rt.last_error

    def freed(self, args) -> bool:
        rt = self._rt()
        if rt is None:
            return False
        freed_by = rt.memory.map.freed_by
        return any(a.__class__ is int and a > 0xFFFF and freed_by(a) for a in args)


class _Top(types.SimpleNamespace):
    """The top level of the watched acl (acl.init, acl.rt, ...)."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise missing_call(name, True)

    def __dir__(self):
        return [k for k in self.__dict__ if not k.startswith("_")]


class Watch:
    """``watch.acl`` is what ``import acl`` gives the program; ``watch.failures`` what went
    wrong, in order."""

    def __init__(self, acl, probe: Probe, limit: int = 1000):
        self.failures: list[Failure] = []
        self.dropped = 0
        self._probe, self._limit = probe, limit
        self.acl = _Top()
        for ns, functions in pyacl_functions(acl).items():
            holder = Namespace(ns, True) if ns else self.acl
            for name, fn in functions.items():
                setattr(holder, name, self._wrap(f"{ns}.{name}" if ns else name, fn))
            if ns:
                setattr(self.acl, ns, holder)

    def _keep(self, failure: Failure) -> None:
        if len(self.failures) < self._limit:
            self.failures.append(failure)
        else:
            self.dropped += 1

    def _wrap(self, name: str, fn):
        probe, keep, returns_code = self._probe, self._keep, _returns_code(name)

        def watched(*args, **kwargs):
            try:
                result = fn(*args, **kwargs)
            except AclLabError as e:       # a util read real pyACL would crash on
                keep(Failure(name, e.code, str(e), caller(), probe.freed(args)))
                raise
            if returns_code:
                code = result[-1] if result.__class__ is tuple else result
                if code.__class__ is int and code != 0:
                    keep(Failure(name, code, probe.explanation(), caller(), probe.freed(args)))
            return result

        watched.__name__, watched.__doc__ = fn.__name__, fn.__doc__
        watched.__wrapped__ = fn
        return watched
