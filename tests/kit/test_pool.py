"""MemoryPool: the seed-003 segment rules, what each backing allocator costs, guard bytes,
and the misuse a learner must get a clear error for."""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.pool import GUARD_BYTE, MemoryPool
from simhelpers import allocation, fresh, read, seed_align_up, write


def raises_code(code):
    return pytest.raises(acl_lab.AclLabError, match=rf"\({code}\)")


@pytest.mark.parametrize("length", [1, 31, 32, 33, 100, 4096])
@pytest.mark.parametrize("rule, k", [("runtime", 64), ("dvpp", 128)])
def test_segment_takes_m_bytes_at_an_aligned_start(acl, length, rule, k):
    with MemoryPool(acl, 64 * 1024, rule=rule) as pool:
        ptrs = [pool.alloc(length) for _ in range(3)]
        segments = [b.segment for b in pool.blocks() if b.kind == "segment"]
        assert [s.start for s in segments] == ptrs
        for s in segments:
            assert s.size == seed_align_up(length, 32) + 32       # m = ALIGN_UP(len,32)+32
            assert s.start % k == 0
        # consecutive segments sit at the next aligned address after the previous m bytes
        assert ptrs[1] - ptrs[0] == align_up(seed_align_up(length, 32) + 32, k)
        for p in ptrs:
            pool.free(p)


@pytest.mark.parametrize("allocator, footprint, base_align", [
    ("malloc", 1056, 64),           # aclrtMalloc: ALIGN_UP(1000,32) + its own 32
    ("malloc_align32", 1024, 64),   # aclrtMallocAlign32: only the rounding
    ("dvpp_malloc", 1056, 128),     # acldvppMalloc: +32, 128-byte aligned
    ("malloc_host", 1000, 64),      # aclrtMallocHost: pinned host memory, size unrounded
])
def test_backing_allocator_decides_what_the_pool_costs(acl, allocator, footprint, base_align):
    pool = MemoryPool(acl, 1000, allocator=allocator)
    taken = allocation(pool.base)
    assert taken["api"] == allocator
    assert taken["size"] == pool.capacity == 1000    # the pool uses only what it asked for
    assert taken["footprint"] == pool.footprint == footprint
    assert pool.base % base_align == 0
    pool.close()
    assert all(a["ptr"] != pool.base for a in acl_lab.snapshot()["allocations"])


def test_defaults_follow_the_seed_advice(acl):
    assert MemoryPool(acl, 256).allocator == "malloc_align32"   # no wasted +32 for pools
    assert MemoryPool(acl, 256, rule="dvpp").allocator == "dvpp_malloc"


def test_dvpp_rule_on_64_byte_aligned_memory_skips_to_128(acl):
    ptr, _ = acl.rt.malloc(1, C.ACL_MEM_MALLOC_HUGE_FIRST)   # takes 64 B: the next block
    pool = MemoryPool(acl, 4096, rule="dvpp", allocator="malloc")
    assert pool.base % 128 == 64
    first = pool.alloc(10)
    assert first == pool.base + 64
    assert [(b.kind, b.size) for b in pool.blocks()[:2]] == [("gap", 64), ("segment", 64)]
    assert pool.alloc(10, rule="runtime") % 64 == 0           # a rule per segment, too
    acl.rt.free(ptr)


def test_device_run_mode_malloc_host_has_no_alignment_promise():
    acl = fresh("200dk")
    acl.rt.malloc_host(1)                                     # 32 B: the next block is 32 off
    pool = MemoryPool(acl, 4096, allocator="malloc_host")
    assert pool.base % 64 == 32
    a = pool.alloc(100)
    assert a == pool.base + 32 and a % 64 == 0
    write(acl, a, bytes(101))                                 # one byte too many
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID):
        pool.check_guards()


def test_guard_bytes_fill_the_padding(acl):
    pool = MemoryPool(acl, 4096)
    a = pool.alloc(100)
    assert read(acl, a + 100, 60) == bytes([GUARD_BYTE]) * 60
    calls = [c.name for c in acl_lab.tracer().calls]
    assert "rt.memset" in calls     # only pyACL calls: the same pool runs on hardware


@pytest.mark.parametrize("allocator", ["malloc_align32", "malloc_host"])
def test_overrun_is_reported_with_the_segment_that_caused_it(acl, allocator):
    pool = MemoryPool(acl, 4096, allocator=allocator)
    a, b = pool.alloc(100, name="image"), pool.alloc(40, name="labels")
    write(acl, a, bytes(100))                  # exactly its length: fine
    write(acl, b, bytes(40))
    pool.check_guards()
    write(acl, b, bytes(45))                   # 5 bytes past the end of "labels"
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID) as e:
        pool.check_guards()
    assert "labels" in str(e.value) and "5 of the 56 guard bytes" in str(e.value)
    assert "image" not in str(e.value)
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID):
        pool.free(b)                           # refused: the segment stays allocated
    assert pool.stats().segments == 2
    pool.free(b, check=False)
    pool.free(a)
    assert pool.stats().segments == 0


def test_guards_are_read_in_few_copies(acl):
    pool = MemoryPool(acl, 1 << 20)
    for _ in range(500):
        pool.alloc(64)
    before = len(acl_lab.tracer().calls)
    pool.check_guards()
    copies = [c for c in list(acl_lab.tracer().calls)[before:] if c.name == "rt.memcpy"]
    assert 1 <= len(copies) <= 2               # 500 guards within 64 KiB: one or two reads


def test_misuse_raises_with_an_explanation(acl):
    pool = MemoryPool(acl, 4096)
    a = pool.alloc(100)
    other, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID) as e:
        pool.free(other)
    assert "did not come from this pool" in str(e.value)
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID) as e:
        pool.free(a + 8)
    assert "8 B inside segment #1" in str(e.value)
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID) as e:
        pool.free(pool.base + 2048)
    assert "free space" in str(e.value)
    pool.free(a)
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID) as e:
        pool.free(a)
    assert "already freed" in str(e.value)
    with raises_code(C.ACL_ERROR_INVALID_PARAM):
        pool.alloc(0)
    with pytest.raises(TypeError):
        pool.alloc(1.5)
    with pytest.raises(ValueError):
        pool.alloc(10, rule="huge")
    with pytest.raises(ValueError):
        MemoryPool(acl, 4096, allocator="calloc")


def test_exhaustion_says_whether_the_pool_is_full_or_fragmented(acl):
    pool = MemoryPool(acl, 1024)
    ptrs = [pool.alloc(224) for _ in range(4)]            # 4 x 256 B: full
    with raises_code(C.ACL_ERROR_RT_MEMORY_ALLOCATION) as e:
        pool.alloc(1)
    assert "only 0 B of 1024 are free" in str(e.value)
    pool.free(ptrs[0])
    pool.free(ptrs[2])
    s = pool.stats()
    assert (s.free, s.largest_free, s.free_blocks, s.fragmentation) == (512, 256, 2, 0.5)
    with raises_code(C.ACL_ERROR_RT_MEMORY_ALLOCATION) as e:
        pool.alloc(300)                                    # m = 352 > any one free block
    assert "fragmented" in str(e.value)
    assert pool.stats() == s                               # the failed call changed nothing


def test_a_pool_the_device_cannot_hold_fails_cleanly(acl):
    before = len(acl_lab.snapshot()["allocations"])
    with raises_code(C.ACL_ERROR_RT_MEMORY_ALLOCATION) as e:
        MemoryPool(acl, 1 << 50)
    assert "aclrtMallocAlign32" in str(e.value)
    assert len(acl_lab.snapshot()["allocations"]) == before


def test_close_refuses_live_segments_unless_forced(acl):
    pool = MemoryPool(acl, 4096)
    pool.alloc(10)
    with raises_code(C.ACL_ERROR_RT_PARAM_INVALID):
        pool.close()
    assert not pool.closed and allocation(pool.base)
    pool.close(force=True)
    pool.close()                                           # twice is harmless
    with raises_code(C.ACL_ERROR_RT_INVALID_HANDLE):
        pool.alloc(10)
    assert repr(pool) == "<MemoryPool 4096 B, closed>"


def test_context_manager_frees_the_block(acl):
    with MemoryPool(acl, 4096) as pool:
        a = pool.alloc(10)
        pool.free(a)
    assert pool.closed
    with pytest.raises(RuntimeError):
        with MemoryPool(acl, 4096) as pool:
            pool.alloc(10)
            raise RuntimeError("the learner's cell failed")
    assert pool.closed                                     # closed anyway, segments and all


def test_repr_is_short_and_exact(acl):
    pool = MemoryPool(acl, 4096)
    pool.alloc(100)
    assert repr(pool) == ("<MemoryPool 4096 B runtime/malloc_align32: 1 segments, 160 B used, "
                          "3936 B free>")
    assert len(repr(pool)) < 110


def test_stats_count_padding(acl):
    pool = MemoryPool(acl, 4096)
    for n in (1, 32, 33):
        pool.alloc(n)
    s = pool.stats()
    assert s.requested == 66
    assert s.used == 64 + 64 + 96
    assert s.padding == s.used - 66
    assert s.used + s.free == s.capacity


def test_payload_bytes_are_the_learners(acl):
    pool = MemoryPool(acl, 4096)
    a = pool.alloc(100)
    data = np.arange(100, dtype=np.uint8).tobytes()
    write(acl, a, data)
    assert read(acl, a, 100) == data
    pool.free(a)
