"""One row of the prototype table: a pyACL call's C function and what the Python call returns.

``returns`` is the left-hand side of the pyACL call: ``"dev_ptr, ret"`` (values, then the
code), ``"ret"`` (the code alone), ``"size"`` (a bare value: the C function returns it
directly, a handle or a getter's field) or ``""`` (a void C function). From it follows what
the call gives on success and on failure, its *failure shape*: zeros before the code, NULL
(0) for a bare value, ``None`` for a void one — unless ``fails`` says otherwise (the values
pyACL's wrapper leaves when the C call fails: ``({},)`` for a dims dict, ``(-1,)``, …; a
function of the call's arguments where they depend on one, as a union keyed by the kind asked),
``RAISES`` (a helper that raises where real pyACL would crash) or ``NEVER`` (a helper with no
failure of its own).
"""
from __future__ import annotations

import copy
from typing import Callable, NamedTuple

from acl_lab.spec.refusal import AclLabError

RAISES = "raises"
NEVER = "never"          # a pyACL helper with no failure of its own (it calls others)


class Prototype(NamedTuple):
    c: str | None                 # the C declaration; None for pyACL's own helpers (acl.util)
    returns: str                  # "dev_ptr, ret", "ret", "size", "" (void)
    fails: tuple | str | Callable | None = None   # values on failure when not zeros (or a
    #                                             function of the arguments); RAISES; NEVER

    @property
    def c_name(self) -> str | None:
        return None if self.c is None else self.c.split("(")[0].split()[-1].lstrip("*")

    @property
    def names(self) -> list[str]:
        return [v.strip() for v in self.returns.split(",")] if self.returns else []

    @property
    def has_code(self) -> bool:
        return self.names[-1:] == ["ret"]

    @property
    def values(self) -> int:
        """How many values come before the code (or the one bare value)."""
        return len(self.names) - self.has_code

    @property
    def c_parameters(self) -> list[str]:
        """The C parameter names, in order (``devPtr``, ``size``, ``policy``)."""
        if not self.c or self.c.endswith("()"):
            return []
        inside = self.c[self.c.index("(") + 1:self.c.rindex(")")]
        return [_parameter_name(p) for p in _top_level(inside)
                if p.strip() and p.strip() != "void"]

    def failed(self, code: int, message: str = "", args: tuple = (), values: tuple | None = None):
        """What the call gives when it fails with ``code`` (``args``: the call's arguments, for
        a failure shape that depends on them; ``values``: the refusal's own, where C writes an
        out-parameter on failure too: aclrtMemcpyBatch's failIndex)."""
        if self.fails == RAISES:
            raise AclLabError(code, message or None) from None
        if not self.names:
            return None
        if values is None:
            values = (self.fails(*args) if callable(self.fails) else self.fails
                      if self.fails is not None else (0,) * self.values)
        values = tuple(copy.deepcopy(v) if isinstance(v, (dict, list)) else v
                       for v in values)      # a fresh {} or [] each time
        if not self.has_code:
            return values[0]
        return (*values, code) if values else code


def _top_level(params: str) -> list[str]:
    """The parameters of a C parameter list, split at the commas outside parentheses (a
    function-pointer parameter has a list of its own)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(params[start:i])
            start = i + 1
    return out + [params[start:]]


def _parameter_name(param: str) -> str:
    """``void *devPtr`` -> devPtr; ``int32_t (*fn)(const T *, int32_t)`` -> fn."""
    if "(*" in param:
        return param.split("(*")[1].split(")")[0].strip()
    return param.split("*")[-1].split()[-1].removesuffix("[]")
