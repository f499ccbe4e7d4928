"""An independent model of ACL: what every call the state machine makes must return, and
what it changes, written from the rules (docs/rules.md, and the hicann/runtime functions
named where a rule comes from one), never from the simulator.

Read it on its own, in this order:

- ``objects.py``  the records it keeps (blocks with a shadow copy of their bytes, contexts,
  streams, events, queued work, captures, model RIs, pools), ``Fail`` and pyACL's parsing
  of integer arguments;
- ``state.py``    the process it tracks, handle lookups, the work queued on streams (what
  may still race) and where memory may be placed;
- ``runtime.py``, ``memory.py``, ``capture.py``, ``pool.py``: one method per call, with the
  pyACL call's own name and arguments.

Each call method is a verdict, taken before the real call runs. It raises ``Fail(codes)``
when the call must fail (with the codes it may return), or returns what success means:
None (nothing to record), ``effect`` (a function given the call's result, which records
the change and checks the result), or ``(effect, codes)`` when a failure with one of
``codes`` is also lawful (running out of memory in a fragmented pool, for instance).
"""
from .capture import CaptureRules
from .memory import MemoryRules
from .objects import Fail
from .pool import PoolRules
from .runtime import RuntimeRules

__all__ = ["Fail", "Model"]


class Model(RuntimeRules, MemoryRules, CaptureRules, PoolRules):
    """ACL by the rules: ``Model(profile, observe)`` for one process on a device profile;
    ``observe()`` returns the runtime's snapshot (see state.py for what it is used for)."""
