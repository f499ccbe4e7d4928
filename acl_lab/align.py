"""ALIGN_UP and the segment-size rules that both ACL and secondary allocation follow.

One definition serves the simulator's allocators and the user-level MemoryPool, so the
rule a learner reads (docs/rules.md#rule-10) is computed in exactly one place.
"""
from acl_lab.i18n import _

#: Extra bytes aclrtMalloc adds after rounding (the runtime's default "padding_size").
MALLOC_PADDING = 32
#: Start alignment a segment needs for the runtime (aclrtMalloc / aclrtMallocHost) rule.
RUNTIME_ALIGN = 64
#: Start alignment a segment needs for media-processing (acldvppMalloc) memory.
DVPP_ALIGN = 128


def align_up(length: int, k: int) -> int:
    """Round ``length`` up to a multiple of ``k``: ALIGN_UP[len, k] = ((len-1)/k+1)*k (rule 10).

    Defined for ``length >= 0`` (0 stays 0); ``k`` must be positive.
    """
    if k > 0 and length >= 0:
        return -(-length // k) * k
    if k <= 0:
        raise ValueError(_("alignment must be positive, got {k}").format(k=k))
    raise ValueError(_("length must not be negative, got {length}").format(length=length))


def malloc_footprint(size: int) -> int:
    """Bytes aclrtMalloc takes for ``size``: ALIGN_UP(size, 32) + 32."""
    return align_up(size, 32) + MALLOC_PADDING


def align32_footprint(size: int) -> int:
    """Bytes aclrtMallocAlign32 takes for ``size``: ALIGN_UP(size, 32), no padding."""
    return align_up(size, 32)


def segment_size(length: int) -> int:
    """Size m of a user-pool segment for ``length`` bytes: ALIGN_UP(len, 32) + 32."""
    return malloc_footprint(length)
