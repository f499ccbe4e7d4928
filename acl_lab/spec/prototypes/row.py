"""One row of the prototype table: a pyACL call's C function and what the Python call returns.

``returns`` is the left-hand side of the pyACL call: ``"dev_ptr, ret"`` (values, then the
code), ``"ret"`` (the code alone), ``"size"`` (a bare value: the C function returns it
directly, a handle or a getter's field) or ``""`` (a void C function). From it follows what
the call gives on success and on failure, its *failure shape*: zeros before the code, NULL
(0) for a bare value, ``None`` for a void one — unless ``fails`` says otherwise (the values
pyACL's wrapper leaves when the C call fails: ``({},)`` for a dims dict, ``(-1,)``, …),
``RAISES`` (a helper that raises where real pyACL would crash) or ``NEVER`` (a helper with no
failure of its own).
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from acl_lab.spec.refusal import AclLabError

RAISES = "raises"
NEVER = "never"          # a pyACL helper with no failure of its own (it calls others)


class Prototype(NamedTuple):
    c: str | None                 # the C declaration; None for pyACL's own helpers (acl.util)
    returns: str                  # "dev_ptr, ret", "ret", "size", "" (void)
    fails: tuple | str | None = None   # values on failure when not zeros; RAISES; NEVER

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
        if not self.c or "()" in self.c:
            return []
        inside = self.c[self.c.index("(") + 1:self.c.rindex(")")]
        return [p.split("*")[-1].split()[-1] for p in inside.split(",")
                if p.strip() and p.strip() != "void"]

    def failed(self, code: int, message: str = "", values: tuple | None = None):
        """What the call gives when it fails with ``code`` (``values``: the refusal's own,
        where C writes an out-parameter on failure too: aclrtMemcpyBatch's failIndex)."""
        if self.fails == RAISES:
            raise AclLabError(code, message or None) from None
        if not self.names:
            return None
        values = values if values is not None else self.fails if self.fails is not None \
            else (0,) * self.values
        values = tuple(copy.deepcopy(v) if isinstance(v, dict) else v for v in values)  # fresh
        if not self.has_code:
            return values[0]
        return (*values, code) if values else code
