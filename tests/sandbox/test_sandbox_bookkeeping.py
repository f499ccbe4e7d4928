"""The simulator's own bookkeeping stays bounded, whatever a program repeats (issue 24):
registering Python buffers, queueing work, creating streams and events."""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C
from acl_lab.spec.address_map import GONE_KEPT
from acl_lab.session import SESSION


def test_registering_buffers_again_and_again_does_not_leak(acl):
    """numpy_to_ptr / bytes_to_ptr of fresh temporaries get new addresses each time; the
    table of released pointers (for "freed by ..." messages) keeps the newest GONE_KEPT, so
    nothing stays behind per call (it was ~90 B per call for ever)."""
    memory = SESSION.simulator.rt.memory
    for _ in range(2 * GONE_KEPT):
        acl.util.numpy_to_ptr(np.zeros(16, np.uint8))
        acl.util.bytes_to_ptr(bytes(16))
    assert len(memory.map._gone) <= GONE_KEPT
    assert len(memory._pageable) < 300
    d, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.free(d) == 0
    assert acl.rt.free(d) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "freed by aclrtFree" in acl.get_recent_err_msg()
