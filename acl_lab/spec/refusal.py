"""How the kit says no: ``Refusal`` (a call broke an ACL rule; the simulator's ``SimError``
and the real-hardware guard raise it before changing anything), ``AclLabError`` (a failed
ACL call raised as a Python exception: ``acl_lab.check``, the util reads), ``SimulatorLimit``
(the host-RAM budget), and how an int argument is read as C reads it. ``acl_lab.errors`` is
their public name.
"""

import operator

from acl_lab.constants import ACL_ERROR_BAD_ALLOC, ACL_ERROR_INVALID_PARAM, ERROR_NAMES
from acl_lab.i18n import _
from acl_lab.spec.codes import meaning


class Refusal(Exception):
    """A call broke an ACL rule and is refused before anything changed: ``code`` is the ACL
    return code the call gives, ``message`` what acl.get_recent_err_msg() then says (which
    rule, which pointer, what to do instead). The simulator (as SimError) and the
    real-hardware guard both refuse with it."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def as_int(call: str, name: str, value) -> int:
    """An int argument as pyACL's C argument parsing takes it: any object with __index__,
    else TypeError naming the call and the argument."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(_("{call}: {name} must be an int, not {type}").format(
            call=call, name=name, type=type(value).__name__)) from None


def check_unsigned(call: str, **values: int) -> None:
    """Sizes are size_t in C: a negative one is refused (ACL_ERROR_INVALID_PARAM) before it
    could wrap around to a huge size."""
    for name, value in values.items():
        if value < 0:
            raise Refusal(ACL_ERROR_INVALID_PARAM, negative_size(call, name, value))


def negative_size(call: str, name: str, value: int) -> str:
    return _("{call}: {name}={value} is negative; sizes are unsigned (size_t).").format(
        call=call, name=name, value=value)


class AclLabError(Exception):
    """A failed ACL call: `code` (int), its C `name` and a `message`."""

    def __init__(self, code: int, message: str | None = None):
        self.code = code
        self.name = ERROR_NAMES.get(code, "UNKNOWN_ACL_ERROR")
        self.message = message or meaning(code)
        super().__init__(code, self.message)

    def __str__(self) -> str:
        return f"{self.name} ({self.code}): {self.message}"


class SimulatorLimit(AclLabError):
    """The simulator would need more host RAM than its budget for simulated bytes; the call
    changed nothing. Carries ACL_ERROR_BAD_ALLOC, what ACL answers when host memory runs out."""

    def __init__(self, message: str):
        super().__init__(ACL_ERROR_BAD_ALLOC, message)
