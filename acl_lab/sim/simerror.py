"""SimError: how the simulator refuses a call (before it changes any state). It is the kit's
one Refusal (acl_lab.errors), which the real-hardware guard raises too; the facade
(sim/api.py) turns it into the return code."""
from ..errors import Refusal as SimError

__all__ = ["SimError"]
