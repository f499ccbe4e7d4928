"""Native bindings: what pyACL does not bind, called in the CANN C libraries through ctypes.

pyACL (hicann/runtime python/pyACL: rt/pyrt_methods.cpp, mdl/pymdl_methods.cpp) binds no
``aclmdlRI*`` function (capture, execute, destroy, task groups) and no aclnn operator, and
an older pyACL lacks some of the runtime's newer ``aclrt*`` calls. The chapters use them
under the simulator's pyACL-shaped names (``acl.mdl.ri_capture_begin``, ``acl.nn.add``):
``complete(pyacl)`` gives the ascend backend pyACL with every such name it lacks added,
each a ctypes call with the argument widths of its C declaration. pyACL's own binding is
kept wherever it exists. No compiler is needed: ctypes is in the standard library.

    cdecl.py       C declaration -> ctypes types and parameter roles (with the headers cited)
    libraries.py   where the CANN libraries are; which exports a symbol; NativeUnavailable
    bindings.py    the pyACL-shaped functions
    chapters.py    which calls each chapter makes, and whether this machine can make them
"""
from __future__ import annotations

import types

from acl_lab.backends.ascend.native.bindings import Native, bindable
from acl_lab.backends.ascend.native.libraries import Libraries, NativeUnavailable

__all__ = ["complete", "Native", "Libraries", "NativeUnavailable", "bindable", "added"]


def added(module) -> list[str]:
    """The facade names ``complete`` adds to pyACL ``module``: bindable, and not in it."""
    def has(name: str) -> bool:
        ns, _, fn = name.rpartition(".")
        holder = getattr(module, ns, None) if ns else module
        return holder is not None and callable(getattr(holder, fn, None))
    return [n for n in bindable() if not has(n)]


def complete(module, native: Native | None = None):
    """pyACL ``module`` with native bindings for what it lacks: a new module-shaped object
    (the real one is not touched) with the same namespaces and functions."""
    native = native or Native()
    top_name = getattr(module, "__name__", "acl")
    top = types.ModuleType(top_name, getattr(module, "__doc__", None))
    top.__file__ = getattr(module, "__file__", None)
    for attr in dir(module):
        if attr.startswith("_"):
            continue
        value = getattr(module, attr)
        if isinstance(value, types.ModuleType):
            copy = types.ModuleType(f"{top_name}.{attr}")
            for member in dir(value):
                if not member.startswith("_"):
                    setattr(copy, member, getattr(value, member))
            value = copy
        setattr(top, attr, value)
    for call in added(module):
        ns, _, fn = call.rpartition(".")
        holder = top
        if ns:
            if not isinstance(getattr(top, ns, None), types.ModuleType):
                setattr(top, ns, types.ModuleType(f"{top_name}.{ns}"))
            holder = getattr(top, ns)
        setattr(holder, fn, native.function(call))
    return top
