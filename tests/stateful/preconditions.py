"""When rules may run: most calls need something to act on, so examples reach deep states;
a few steps in eight still make them without it, to see the codes for what is missing."""
from hypothesis.stateful import precondition

STEPS_PER_EXAMPLE = 50


def needs(what: str):
    """Run a rule only while the model holds some ``what`` (its wrong-handle cases still
    come from the handle choosers), so examples reach deep states."""
    return precondition(lambda self: any(not getattr(x, "internal", False)
                                         for x in getattr(self.m, what).values()))


# Calls that need a current context run while there is one, and one step in eight without
# (to see ACL_ERROR_RT_CONTEXT_NULL); calls that tear state down wait for the example's
# second half, so examples first build something worth tearing down.
needs_context = precondition(lambda self: self.m.current in self.m.contexts or self.step % 8 == 0)
late = precondition(lambda self: self.step >= STEPS_PER_EXAMPLE // 2)
# Ending a capture and replaying a model need one, except one step in eight (wrong handles).
capturing = precondition(lambda self: self.m.captures or self.step % 8 == 0)
replayable = precondition(lambda self: any(g.ready for g in self.m.graphs.values())
                          or self.step % 8 == 0)
