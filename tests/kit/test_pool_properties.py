"""Properties of MemoryPool for any sequence of alloc / free: no overlap, alignment held,
accounting exact, coalescing complete, exhaustion only when no aligned spot exists."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import acl_lab
from acl_lab import constants as C
from acl_lab.align import align_up, segment_size
from acl_lab.pool import RULES, MemoryPool
from simhelpers import fresh, write

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

ops = st.lists(st.one_of(
    st.tuples(st.just("alloc"), st.integers(1, 700), st.sampled_from(list(RULES))),
    st.tuples(st.just("free"), st.integers(0, 10_000), st.none()),
), max_size=60)


@pytest.fixture(scope="module")
def module_acl():
    yield fresh("910b")
    acl_lab.reset()


def check_invariants(pool: MemoryPool) -> None:
    blocks = pool.blocks()
    segments = [b.segment for b in blocks if b.kind == "segment"]
    # the blocks tile the pool exactly: no overlap, nothing lost
    assert blocks[0].start == pool.base
    for a, b in zip(blocks, blocks[1:]):
        assert a.start + a.size == b.start
    assert blocks[-1].start + blocks[-1].size == pool.base + pool.capacity
    # the seed's rule holds for every segment
    for s in segments:
        assert s.size == segment_size(s.length)
        assert s.start % RULES[s.rule] == 0
    # coalescing is complete: never two free stretches side by side
    for a, b in zip(blocks, blocks[1:]):
        assert a.kind == "segment" or b.kind == "segment"
    free = [b.size for b in blocks if b.kind != "segment"]
    s = pool.stats()
    assert s.segments == len(segments)
    assert s.used == sum(x.size for x in segments)
    assert s.requested == sum(x.length for x in segments)
    assert s.padding == s.used - s.requested
    assert s.used + s.free == s.capacity == sum(b.size for b in blocks)
    assert s.largest_free == max(free, default=0)
    assert s.free_blocks == len(free)


def no_room(pool: MemoryPool, length: int, rule: str) -> bool:
    """True if no free block can hold the segment at an aligned start."""
    m, k = segment_size(length), RULES[rule]
    return all(align_up(b.start, k) + m > b.start + b.size
               for b in pool.blocks() if b.kind != "segment")


@pytest.mark.parametrize("allocator", ["malloc", "malloc_align32", "dvpp_malloc",
                                       "malloc_host"])
@SETTINGS
@given(sequence=ops, pool_rule=st.sampled_from(list(RULES)))
def test_any_sequence_keeps_the_pool_consistent(module_acl, allocator, sequence, pool_rule):
    pool = MemoryPool(module_acl, 4096, rule=pool_rule, allocator=allocator)
    live = []
    try:
        for op, n, rule in sequence:
            if op == "alloc":
                try:
                    live.append(pool.alloc(n, rule=rule))
                except acl_lab.AclLabError as e:
                    assert e.code == C.ACL_ERROR_RT_MEMORY_ALLOCATION
                    assert no_room(pool, n, rule)       # refused only when truly full
            elif live:
                pool.free(live.pop(n % len(live)))
            check_invariants(pool)
        pool.check_guards()
        for p in live:
            pool.free(p)
        assert [(b.kind, b.size) for b in pool.blocks()] == [("free", 4096)]
    finally:
        pool.close(force=True)


@SETTINGS
@given(lengths=st.lists(st.integers(1, 300), min_size=1, max_size=12), data=st.data())
def test_an_overrun_names_exactly_the_segment_that_overran(module_acl, lengths, data):
    pool = MemoryPool(module_acl, 8192)
    try:
        ptrs = [pool.alloc(n, name=f"seg{i}") for i, n in enumerate(lengths)]
        victim = data.draw(st.integers(0, len(ptrs) - 1))
        n = lengths[victim]
        extra = data.draw(st.integers(1, segment_size(n) - n))   # stays within its padding
        write(module_acl, ptrs[victim], bytes(n + extra))
        with pytest.raises(acl_lab.AclLabError) as e:
            pool.check_guards()
        named = [f"seg{i}" for i in range(len(ptrs)) if f"seg{i} at" in str(e.value)]
        assert named == [f"seg{victim}"]
    finally:
        pool.close(force=True)
