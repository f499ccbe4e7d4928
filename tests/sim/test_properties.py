"""Properties (hypothesis): ALIGN_UP, the simulator's allocators under random sequences of
allocations and frees, and the free list they stand on."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acl_lab import constants as C
from acl_lab import snapshot
from acl_lab.align import align_up
from acl_lab.support.freelist import FreeList
from acl_lab.support import sorted_keys
from acl_lab.support.sorted_keys import SortedKeys
from simhelpers import fresh, seed_align_up

MiB = 1 << 20
FREED_BY = {"malloc": "free", "malloc_align32": "free", "malloc_cached": "free",
            "dvpp_malloc": "dvpp_free", "malloc_host": "free_host"}
# aclrtMemAttr -> (memory kind or None for both, page kinds it sums)
ATTRS = {
    C.ACL_DDR_MEM: ("DDR", {"huge", "normal"}), C.ACL_DDR_MEM_HUGE: ("DDR", {"huge"}),
    C.ACL_DDR_MEM_NORMAL: ("DDR", {"normal"}), C.ACL_HBM_MEM: ("HBM", {"huge", "normal"}),
    C.ACL_HBM_MEM_HUGE: ("HBM", {"huge"}), C.ACL_HBM_MEM_NORMAL: ("HBM", {"normal"}),
    C.ACL_MEM_NORMAL: (None, {"normal"}), C.ACL_MEM_HUGE: (None, {"huge"}),
}


# ----- ALIGN_UP ----------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(length=st.integers(0, 1 << 48),
       k=st.sampled_from([1, 2, 32, 64, 128, 4096, 2 * MiB]) | st.integers(1, 1 << 20))
def test_align_up_properties(length, k):
    r = align_up(length, k)
    assert r % k == 0
    assert length <= r < length + k
    assert align_up(r, k) == r
    if length >= 1:
        assert r == seed_align_up(length, k)


# ----- allocators --------------------------------------------------------------------------
sizes = (st.integers(1, 4096) | st.integers(MiB - 64, MiB + 64)     # around HUGE_FIRST's 1 MiB
         | st.integers(MiB + 1, 8 * MiB))
policies = st.sampled_from([C.ACL_MEM_MALLOC_HUGE_FIRST, C.ACL_MEM_MALLOC_HUGE_ONLY,
                            C.ACL_MEM_MALLOC_NORMAL_ONLY])
alloc_op = st.tuples(st.just("alloc"), st.sampled_from(sorted(FREED_BY)), sizes, policies)
free_op = st.tuples(st.just("free"), st.integers(0, 1 << 16))


def _call_alloc(acl, api, size, policy):
    if api == "malloc_host":
        return acl.rt.malloc_host(size)
    if api == "dvpp_malloc":
        return acl.media.dvpp_malloc(size)
    return getattr(acl.rt, api)(size, policy)


def _call_free(acl, api, ptr):
    return (acl.media.dvpp_free if api == "dvpp_free" else getattr(acl.rt, api))(ptr)


def _check_invariants(acl, host_mode):
    snap = snapshot()
    allocs = [a for a in snap["allocations"] if a["pool"] != "pageable"]
    for a, b in zip(allocs, allocs[1:]):                       # sorted by ptr
        assert a["ptr"] + a["occupied"] <= b["ptr"], (a, b)
    page_of = {p["label"]: p["page"] for p in snap["pools"]}
    for a in allocs:          # huge pages are taken whole (the runtime FAQ: 1 KB takes 2 MB)
        page = {"huge": 2 * MiB, "huge1g": 1 << 30}.get(page_of[a["pool"]])
        assert a["occupied"] == (-(-a["footprint"] // page) * page if page else a["footprint"])
        if a["api"] == "malloc_host":
            assert a["footprint"] == a["size"]     # aclrtMallocHost does not round the size
    for a in allocs:
        if a["api"] == "dvpp_malloc":
            assert a["ptr"] % 128 == 0
        elif a["api"] != "malloc_host":
            assert a["ptr"] % 64 == 0
        elif host_mode:
            assert a["ptr"] % 64 == 0 and a["location"] == "host"
    used = {p["label"]: 0 for p in snap["pools"]}
    for a in allocs:
        used[a["pool"]] += a["occupied"]
    for p in snap["pools"]:
        assert p["used"] == used[p["label"]], p["label"]
    kinds = {p["kind"] for p in snap["pools"] if p["device"] == 0}
    for attr, (kind, pages) in ATTRS.items():
        if kind == "HBM" and "HBM" not in kinds:
            kind = "DDR"                     # DDR-only SoCs answer HBM queries with DDR
        pools = [p for p in snap["pools"] if p["device"] == 0 and not p["p2p"]
                 and p["page"] in pages and kind in (None, p["kind"])]
        free, total, ret = acl.rt.get_mem_info(attr)
        assert ret == 0
        assert total == sum(p["total"] for p in pools)
        assert free == total - sum(used[p["label"]] for p in pools)
    return snap


@settings(max_examples=150, deadline=None)
@given(profile=st.sampled_from(["910b", "310", "200dk"]),
       ops=st.lists(alloc_op | free_op, min_size=4, max_size=30))
def test_allocators_never_overlap_and_account_exactly(profile, ops):
    acl = fresh(profile)
    host_mode = acl.rt.get_run_mode()[0] == C.ACL_HOST
    live = []
    for op in ops:
        if op[0] == "alloc":
            _, api, size, policy = op
            ptr, ret = _call_alloc(acl, api, size, policy)
            assert ret == 0, acl.get_recent_err_msg()
            live.append((api, ptr))
        elif live:
            api, ptr = live.pop(op[1] % len(live))
            assert _call_free(acl, FREED_BY[api], ptr) == 0
        _check_invariants(acl, host_mode)
    for api, ptr in live:
        assert _call_free(acl, FREED_BY[api], ptr) == 0
    snap = _check_invariants(acl, host_mode)
    assert all(p["used"] == 0 for p in snap["pools"])
    for attr in ATTRS:
        free, total, _ = acl.rt.get_mem_info(attr)
        assert free == total


# ----- the free list -----------------------------------------------------------------------
BASE, SIZE = 1000, 200_000     # a base that is not aligned: alignment gaps must stay free


def _tiles_exactly(fl, live):
    """Free blocks and live blocks cover [BASE, BASE+SIZE) with no gap and no overlap, and no
    two free blocks touch (freeing coalesced them)."""
    free = fl.free_blocks()
    spans = sorted(free + list(live.items()))
    pos = BASE
    for start, length in spans:
        assert start == pos and length > 0
        pos += length
    assert pos == BASE + SIZE
    assert all(a + n < b for (a, n), (b, _) in zip(free, free[1:]))
    assert fl.used == sum(live.values()) and fl.free == SIZE - fl.used


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 30_000),
                          st.sampled_from([1, 32, 64, 128]), st.integers(0, 1 << 16)),
                max_size=60))
def test_freelist_tiles_its_range_and_coalesces_completely(ops):
    fl, live = FreeList(BASE, SIZE), {}
    for alloc, nbytes, align, pick in ops:
        if alloc or not live:
            addr = fl.alloc(nbytes, align)
            if addr is None:      # refused only when no free block can hold it aligned
                assert all(align_up(s, align) + nbytes > s + n for s, n in fl.free_blocks())
                continue
            assert addr % align == 0
            live[addr] = nbytes
        else:
            addr = sorted(live)[pick % len(live)]
            fl.give_back(addr, live.pop(addr))
        _tiles_exactly(fl, live)
    for addr, nbytes in list(live.items()):
        fl.give_back(addr, nbytes)
    assert fl.free_blocks() == [(BASE, SIZE)]
    assert fl.largest_free == SIZE and fl.used == 0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 30_000),
                          st.sampled_from([1, 32, 64, 128]), st.integers(0, 1 << 16)),
                max_size=120))
def test_freelist_places_each_block_at_the_best_fit(ops):
    """Best fit, as the pools promise: the smallest free block that holds the request at an
    aligned start, the lowest such block among equals; the rest of the block stays free."""
    fl, live = FreeList(BASE, SIZE), {}
    for alloc, nbytes, align, pick in ops:
        if alloc or not live:
            fitting = [(n, s) for s, n in fl.free_blocks() if align_up(s, align) + nbytes <= s + n]
            addr = fl.alloc(nbytes, align)
            assert addr == (align_up(min(fitting)[1], align) if fitting else None)
            if addr is not None:
                live[addr] = nbytes
        else:
            addr = sorted(live)[pick % len(live)]
            fl.give_back(addr, live.pop(addr))
        assert fl.largest_free == max((n for _, n in fl.free_blocks()), default=0)


@pytest.mark.parametrize("top_length, chosen", [(300, "top"), (400, "hole"), (450, "hole")])
def test_freelist_weighs_the_top_block_like_any_other(top_length, chosen):
    """The block that reaches the end (kept outside the sorted index) is taken only when it
    is the best fit: smaller than the best hole; an equal hole wins by its lower address."""
    fl = FreeList(0, 1000)
    a, b, c = fl.alloc(100, 1), fl.alloc(400, 1), fl.alloc(500 - top_length, 1)
    fl.give_back(b, 400)           # a 400-byte hole at 100; the top is the last top_length
    assert fl.free_blocks() == [(100, 400), (1000 - top_length, top_length)]
    assert fl.alloc(250, 1) == (1000 - top_length if chosen == "top" else 100)


@pytest.mark.parametrize("hole, chosen", [(50, "gap"), (4, "hole"), (3, "gap")])
def test_freelist_weighs_the_alignment_gap_like_any_other(hole, chosen):
    """The bytes the last block cut from the top skipped to reach its alignment (kept
    outside the sorted index, like the top) are taken only when they are the best fit:
    smaller than the best hole that holds the request; an equal hole wins by its address."""
    fl = FreeList(0, 1000)
    x, _ = fl.alloc(hole, 1), fl.alloc(60 - hole, 1)
    assert fl.alloc(100, 64) == 64      # cut from the top at 64: a 4-byte gap at 60
    fl.give_back(x, hole)                # a hole at 0
    assert fl.free_blocks() == [(0, hole), (60, 4), (164, 836)]
    assert fl.largest_free == 836
    assert fl.alloc(4, 1) == (60 if chosen == "gap" else 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3000)), max_size=400),
       st.lists(st.integers(-10, 3010), max_size=20))
def test_sorted_keys_answer_as_a_sorted_list_would(changes, queries):
    """The allocators' sorted index (changes held back in sets, sublists split when they
    pass 2 * LOAD keys) answers ceiling / floor / last / len / iteration as a plain sorted
    set does; LOAD 2 makes the splits and the removal of emptied sublists happen here."""
    for load in (2, sorted_keys.LOAD):
        saved, sorted_keys.LOAD = sorted_keys.LOAD, load
        try:
            keys, model = SortedKeys(range(0, 40, 7)), set(range(0, 40, 7))
            for add, key in changes:
                if add and key not in model:
                    keys.add(key)
                    model.add(key)
                elif not add and key in model:
                    keys.remove(key)
                    model.discard(key)
                for q in queries:
                    assert keys.ceiling(q) == min((k for k in model if k >= q), default=None)
                    assert keys.floor(q) == max((k for k in model if k <= q), default=None)
                assert keys.last() == max(model, default=None)
            assert len(keys) == len(model)
            assert list(keys) == sorted(model)
        finally:
            sorted_keys.LOAD = saved
