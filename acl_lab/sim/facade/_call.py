"""The one call boundary: every pyACL-shaped call of the simulator goes through ``acl_call``.

    @acl_call("rt.malloc")
    def malloc(self, rt, size: args.size, policy: args.i64):
        return rt.malloc(size, policy, "aclrtMalloc")

The decorator takes the call's C name and failure shape from the prototype table
(acl_lab/spec/prototypes/), reads each annotated argument as its C type (acl_lab/spec/args.py;
a wrong Python type is pyACL's TypeError, an int that does not fit is the call's refusal),
runs the body under the process lock as a critical call (Ctrl-C arrives as the call
returns: acl_lab/support/interrupts.py), turns a ``SimError`` into the return code and keeps
its message for ``acl.get_recent_err_msg()``, and turns Python running out of host memory
into ``SimulatorLimit``. The body gets the simulated process (``rt``) and returns the call's
values; it raises ``SimError`` before changing anything.
"""
from __future__ import annotations

import contextlib
import functools
import inspect

from acl_lab.constants import ACL_SUCCESS
from acl_lab.errors import SimulatorLimit
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args as readers
from acl_lab.spec.prototypes import PROTOTYPES
from acl_lab.support import interrupts


def out_of_memory(call: str) -> SimulatorLimit:
    """Python could not allocate host memory during ``call`` (the budget leaves the rest of
    the machine to others, and they took it): say so instead of a bare MemoryError."""
    return SimulatorLimit(_("{call}: the host ran out of memory while simulating this call; "
                            "queued work stays queued and nothing was lost. Free memory (in "
                            "this notebook or elsewhere), use smaller buffers, or "
                            "acl_lab.reset().").format(call=call))


def c_parameter(python_name: str) -> str:
    """``dev_ptr`` -> ``devPtr``; ``self_`` -> ``self``: how the C header names it."""
    head, *rest = python_name.rstrip("_").split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def argument_readers(fn) -> list[tuple[readers.Reader, str] | None]:
    """For each argument of ``fn(self, rt, ...)``: (its reader, its C parameter's name), or
    None for one passed as it is (no reader annotation)."""
    out = []
    for p in list(inspect.signature(fn).parameters.values())[2:]:
        ann = p.annotation
        if isinstance(ann, str):
            ann = eval(ann, fn.__globals__)     # noqa: S307 - the facade's own annotation
        out.append((ann, ann.c_name or c_parameter(p.name))
                   if isinstance(ann, readers.Reader) else None)
    return out


noted = interrupts.state          # whether a Ctrl-C waits for the call to return
_UNLOCKED = contextlib.nullcontext()   # a body that takes the process lock itself

#: the wrapper, written out for each call (so it runs no extra Python call per argument):
#: readers inlined, the pyACL return shape fixed, the lock taken or not
_WRAPPER = """
def call(self, *a, **kw):
    __tracebackhide__ = True
    if kw or len(a) != {count}:
        a = bind(self, a, kw)
    try:
        rt = self._sim.rt
        with {lock}:
            result = fn(self, rt, {arguments})
        return {success}
    except SimError as e:
        rt.last_error, rt.last_code = e.message, e.code      # this thread's
        return failed(e.code, e.message, a, getattr(e, "values", None))
    except MemoryError:
        raise out_of_memory(c) from None
    finally:
        if noted.noted:           # a Ctrl-C came during the call: it goes on now
            returning()
"""


def acl_call(name: str, *, locked: bool = True):
    """Make ``fn(self, rt, *values)`` the pyACL call ``name`` ("rt.malloc"). ``locked=False``
    for a body that takes the process lock itself (one that runs the learner's code)."""
    proto = PROTOTYPES[name]
    c = proto.c_name or name.rpartition(".")[2]

    def deco(fn):
        found = argument_readers(fn)
        signature = inspect.signature(fn)

        def bind(self, a, kw):
            """The arguments by position (keywords and defaults filled in; a wrong count is
            Python's own TypeError)."""
            bound = signature.bind(self, None, *a, **kw)
            bound.apply_defaults()
            return bound.args[2:]

        space = {"fn": fn, "bind": bind, "c": c, "failed": proto.failed, "noted": noted,
                 "returning": interrupts.returning, "SimError": SimError,
                 "out_of_memory": out_of_memory, "_UNLOCKED": _UNLOCKED,
                 "SUCCESS": ACL_SUCCESS}
        arguments = []
        for i, reader in enumerate(found):
            if reader is None:
                arguments.append(f"a[{i}]")
            else:
                space[f"r{i}"], space[f"n{i}"] = reader[0].read, reader[1]
                arguments.append(f"r{i}(c, n{i}, a[{i}])")
        values = proto.values if proto.has_code else None
        success = {None: "result", 0: "SUCCESS", 1: "(result, SUCCESS)"}.get(
            values, "(*result, SUCCESS)")
        source = _WRAPPER.format(count=len(found), lock="rt.lock" if locked else "_UNLOCKED",
                                 arguments=", ".join(arguments), success=success)
        # named after this file (+ the call), so tracebacks count it as the kit's own code
        exec(compile(source, f"{__file__}:{name}", "exec"), space)   # noqa: S102
        call = functools.wraps(fn)(space["call"])
        call.prototype = proto
        return interrupts.register(call)
    return deco


class Namespace:
    """A pyACL namespace over the simulator (``acl.rt``, ``acl.mdl`` …): its calls reach the
    current simulated process through ``self._sim`` (a reset replaces the process, not the
    namespace)."""

    def __init__(self, sim):
        self._sim = sim
