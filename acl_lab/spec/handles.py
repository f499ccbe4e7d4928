"""A handle the program passes back: the live object it names, or the call's refusal. ACL
checks the handle before anything else (ACL_REQUIRES_NOT_NULL, then the runtime's handle
check), so NULL and a dead handle (destroyed, or never created: on hardware a read of freed
memory) each get their own code and words."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.spec.refusal import Refusal


def live(table, handle: int, call: str, dead: str, null: str | None = None,
         dead_code: int = C.ACL_ERROR_INVALID_PARAM,
         null_code: int = C.ACL_ERROR_INVALID_PARAM, **fields):
    """``table[handle]``; else Refusal with ``null`` (NULL; ``dead`` when not given) or
    ``dead``, messages with ``{call}``, ``{handle}`` and any ``fields``."""
    obj = table.get(handle)
    if obj is None:
        text = null if handle == 0 and null is not None else dead
        raise Refusal(null_code if handle == 0 else dead_code,
                      text.format(call=call, handle=f"0x{handle:x}", **fields))
    return obj
