"""The simulator's page pools use the shared best-fit allocator (acl_lab.freelist)."""
from ..freelist import FreeList

__all__ = ["FreeList"]
