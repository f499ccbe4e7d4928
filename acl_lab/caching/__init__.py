"""Caching allocators built on pyACL's calls, as frameworks build them: chapter 10's
expandable segment (torch_npu's ``expandable_segments:True``) and the trace of growing and
shrinking tensors that chapter 10, its figure and ``python -m benchmarks`` run it on beside
chapter 05's fixed pool. Like acl_lab.pool, this room sees the runtime only through the
pyACL shape, so it runs on an NPU unchanged.

    from acl_lab.caching import ExpandableSegment, replay, TRACE
"""
from acl_lab.caching.expandable import ExpandableSegment
from acl_lab.caching.workload import TRACE, replay, smallest_pool

__all__ = ["ExpandableSegment", "TRACE", "replay", "smallest_pool"]
