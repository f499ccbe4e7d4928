"""Run a pyACL program unchanged on the simulator: ``import acl`` gives it the kit's acl.

The program runs in this Python process as ``python app.py args`` would run it:
``__main__``, ``sys.argv``, its folder first on ``sys.path``, the current folder kept. Its
``import acl`` (and every module it imports that does so) gets the watched simulator acl
from a fresh simulated process; afterwards the report says what went wrong.
"""
from __future__ import annotations

import contextlib
import os
import runpy
import signal
import sys
import threading
import traceback

from acl_lab.session import SESSION
from acl_lab.run.report import Report, build
from acl_lab.run.watch import Probe, Watch


@contextlib.contextmanager
def acl_module(acl):
    """``import acl`` resolves to ``acl`` inside the block (and to what it was after)."""
    missing = object()
    before = sys.modules.get("acl", missing)
    sys.modules["acl"] = acl
    try:
        yield
    finally:
        if before is missing:
            sys.modules.pop("acl", None)
        else:
            sys.modules["acl"] = before


def fresh_watch(profile: str | None = None) -> Watch:
    """A fresh simulated process (``profile``, else the current one) and its watched acl."""
    acl = SESSION.load("sim", profile)
    SESSION.reset(profile)
    return Watch(acl, Probe(SESSION))


@contextlib.contextmanager
def _as_main(path: str, args):
    argv, path0, cwd = sys.argv[:], sys.path[:], os.getcwd()
    sys.argv = [path, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        yield
    finally:
        sys.argv[:], sys.path[:] = argv, path0
        os.chdir(cwd)      # a program that changed folder leaves the runner where it was


def _ending(exc: BaseException) -> tuple[str, str]:
    """How an exception that left the program ended it: (status, one line)."""
    if isinstance(exc, SystemExit):
        code = exc.code
        if code in (None, 0):
            return "completed", ""
        return f"exit {code if isinstance(code, int) else 1}", "" if isinstance(code, int) \
            else str(code)
    frames = traceback.extract_tb(exc.__traceback__)
    outside = [f for f in frames if "acl_lab" not in f.filename.split(os.sep)[-3:-1]]
    where = outside[-1] if outside else (frames[-1] if frames else None)
    place = f" [{os.path.basename(where.filename)}:{where.lineno}]" if where else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return "exception", f"{type(exc).__name__}: {text}{place}"


class Stopped(BaseException):
    """The runner was asked to stop (SIGTERM): the program ends, its report is still made."""


@contextlib.contextmanager
def _stoppable():
    """SIGTERM ends the program with Stopped (a program stuck in a loop still gets its
    report); the previous handler comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Stopped()

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def run_program(path: str, args=(), profile: str | None = None) -> Report:
    """Run the program at ``path`` with ``args`` on a fresh simulated process; its report.
    The program's exception (if any) is printed as Python would, and noted in the report."""
    watch = fresh_watch(profile)
    status, error = "completed", ""
    with acl_module(watch.acl), _as_main(path, args), _stoppable():
        try:
            runpy.run_path(path, run_name="__main__")
        except KeyboardInterrupt:
            raise
        except Stopped:
            status = "stopped"
        except BaseException as exc:        # SystemExit too: the program's own ending
            status, error = _ending(exc)
            if status == "exception":
                traceback.print_exc()
    return build(os.path.basename(path), status, error, SESSION, watch)
