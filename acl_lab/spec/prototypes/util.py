"""``acl.util``: pyACL's own helpers, with no C function behind them.
"""
from acl_lab.spec.prototypes.row import NEVER, RAISES, Prototype as P

ROWS = {
    # ----- pyACL's own helpers: no C function ------------------------------------------
    "util.numpy_to_ptr": P(None, "ptr"),
    "util.numpy_contiguous_to_ptr": P(None, "ptr, data_out", NEVER),
    "util.bytes_to_ptr": P(None, "ptr"),
    "util.ptr_to_numpy": P(None, "array", RAISES),
    "util.ptr_to_bytes": P(None, "data", RAISES),
    "util.start_thread": P(None, "thread_id, ret"),
    "util.stop_thread": P(None, "ret"),
}
