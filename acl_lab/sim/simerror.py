"""SimError: how the simulator refuses a call (before it changes any state). It is the kit's
one Refusal (acl_lab.errors), which the real-hardware guard raises too; the facade
(sim/facade/_call.py) turns it into the return code.

TaskFailed: a queued task that the device ran and that failed there (a media engine finds
a picture it cannot use). It leaves its stream's queue, and the call that was waiting for
it (a synchronize) returns its code; nothing the task would have written was changed."""
from acl_lab.errors import Refusal as SimError


class TaskFailed(SimError):
    pass


__all__ = ["SimError", "TaskFailed"]
