"""Random sequences of the whole pyACL-shaped API against an independent model of ACL.

A hypothesis RuleBasedStateMachine (machine.py) issues init/finalize, devices, contexts,
streams, events, every allocator and its free, memset/memcpy/memcpy2d (sync and async),
capture begin/end/execute/destroy (alone, and as whole capture-and-replay flows),
get_mem_info, MemoryPool operations and wrongly typed calls, with valid and invalid arguments
mixed, on every device profile. A model written from the rules (docs/rules.md and the
hicann/runtime sources README.md cites), not from the simulator (model/), predicts each
return code and keeps a shadow copy of every byte written. After every step:

- the call returned the code the model expected, and a failed call changed nothing
  (acl_lab.snapshot() identical, the modeled clock included) and explained itself;
- allocations never overlap, sit in the pool their policy allows, are aligned, and
  get_mem_info / the pool figures equal the sum of the model's footprints;
- contexts, streams, events, models and pool segments are the ones the model expects;
- bytes read back equal the shadow copy wherever no unsynchronised work could still change
  them (a race-free program sees exactly what it wrote).

Steps: at least ACL_LAB_FUZZ_STEPS (default 10,000, ~15 s; derandomized, so CI runs the same
sequences); setting the variable also makes the run random: ACL_LAB_FUZZ_STEPS=100000 for a
longer hunt, which prints how often each call returned each code.
"""
from __future__ import annotations

import math
import os

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

import acl_lab

from .machine import AclMachine
from .preconditions import STEPS_PER_EXAMPLE
from .tally import CALLS, STATS

FUZZ_STEPS = int(os.environ.get("ACL_LAB_FUZZ_STEPS", "10000"))


def test_random_api_sequences_keep_every_invariant(tmp_path, capsys):
    """≥ ACL_LAB_FUZZ_STEPS random steps (10,000 in CI), every invariant after each one."""
    AclMachine.tmp = str(tmp_path)
    STATS.clear()
    CALLS.clear()
    custom = "ACL_LAB_FUZZ_STEPS" in os.environ
    run_state_machine_as_test(AclMachine, settings=settings(
        # hypothesis ends examples early once their data grows: they average ~30 steps
        max_examples=math.ceil(1.8 * FUZZ_STEPS / STEPS_PER_EXAMPLE),
        stateful_step_count=STEPS_PER_EXAMPLE, deadline=None, database=None,
        derandomize=not custom, suppress_health_check=list(HealthCheck)))
    acl_lab.reset()
    steps = STATS["invariant checks"] - STATS["examples"]    # the first step is the start
    with capsys.disabled():
        print(f"\n[fuzz] {steps} steps in {STATS['examples']} examples; {STATS['calls']} calls "
              f"({STATS['expected failures']} expected failures, {STATS['type errors']} "
              f"TypeErrors, {len(CALLS)} distinct call/code outcomes); "
              f"{STATS['bytes checked']} bytes read back and checked; 0 invariant violations")
        print("[fuzz] sandbox: " + ", ".join(f"{STATS[k]} {k}" for k in (
            "bytes objects registered", "read-only views registered", "bad shapes refused",
            "budget limits hit", "resets with live views")))
        if custom:      # a long run by hand: how often each call returned each code
            for (name, ret), n in sorted(CALLS.items()):
                print(f"  {name:32} {ret:7} {n}")
    assert steps >= FUZZ_STEPS
