"""The memory rules of seeds 000, 001 and 003 (rules 1-13 of docs/rules.md, with the
error codes hicann/runtime returns): one test, or a few, per rule."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import PROFILES
from simhelpers import allocation, free_bytes, read, seed_align_up, write

MiB, GiB = 1 << 20, 1 << 30
HOST_MODE_PROFILES = ("910b", "310", "310p")
# The huge / normal attribute pair that get_mem_info reports for each profile's main memory.
PAGE_ATTRS = {"910b": (C.ACL_HBM_MEM_HUGE, C.ACL_HBM_MEM_NORMAL),
              "310": (C.ACL_DDR_MEM_HUGE, C.ACL_DDR_MEM_NORMAL)}


def seed_malloc_bytes(size: int) -> int:
    return seed_align_up(size, 32) + 32


def huge_page_bytes(size: int) -> int:
    """What a huge-page aclrtMalloc block occupies: whole 2 MiB pages (hicann/runtime FAQ
    如何选择合适的内存分配策略: 1 KB with HUGE_ONLY "实际占用 2MB（大页对齐）")."""
    return seed_align_up(seed_malloc_bytes(size), 2 * MiB)


def pool_total(profile: str, kind: str, page: str) -> int:
    return sum(p.size for p in PROFILES[profile].pools
               if p.kind == kind and p.page == page and not p.p2p)


# ----- rule 1 ------------------------------------------------------------------------------
def test_rule01_malloc_host_freed_only_by_free_host(acl):
    host, ret = acl.rt.malloc_host(256)
    assert ret == 0
    dev, ret = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0

    assert acl.rt.free(host) == C.ACL_ERROR_RT_PARAM_INVALID
    msg = acl.get_recent_err_msg()
    assert f"0x{host:x}" in msg and "aclrtMallocHost" in msg and "aclrtFreeHost" in msg

    assert acl.rt.free_host(dev) == C.ACL_ERROR_RT_PARAM_INVALID
    msg = acl.get_recent_err_msg()
    assert f"0x{dev:x}" in msg and "aclrtMalloc" in msg and "aclrtFree" in msg

    array = np.zeros(64, np.uint8)
    assert acl.rt.free_host(acl.util.numpy_to_ptr(array)) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "numpy" in acl.get_recent_err_msg()

    assert acl.rt.free_host(host) == 0     # the refused calls freed nothing
    assert acl.rt.free(dev) == 0


# ----- rule 2 ------------------------------------------------------------------------------
def test_rule02_malloc_and_free_are_a_pair_and_malloc_memory_is_aligned(acl):
    before = free_bytes(acl, C.ACL_HBM_MEM)
    ptrs = []
    for size in (1, 33, 100, 1000, 3 * MiB + 5):
        ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0 and ptr % 64 == 0
        ptrs.append(ptr)
    assert acl.rt.free(ptrs[3] + 64) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "inside" in acl.get_recent_err_msg()
    for ptr in ptrs:
        assert acl.rt.free(ptr) == 0
    assert free_bytes(acl, C.ACL_HBM_MEM) == before

    assert acl.rt.free(ptrs[0]) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "already released" in acl.get_recent_err_msg()
    assert acl.rt.free(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.free(0xDEAD_0000) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "0xdead0000" in acl.get_recent_err_msg()


# ----- rule 3 ------------------------------------------------------------------------------
@pytest.mark.parametrize("profile", sorted(PAGE_ATTRS))
@pytest.mark.parametrize("policy, size, page", [
    (C.ACL_MEM_MALLOC_HUGE_FIRST, 256, "normal"),
    (C.ACL_MEM_MALLOC_HUGE_FIRST, MiB - 32, "normal"),   # padded to exactly 1 MiB
    (C.ACL_MEM_MALLOC_HUGE_FIRST, MiB - 31, "huge"),     # padded past 1 MiB
    (C.ACL_MEM_MALLOC_HUGE_FIRST, 4 * MiB, "huge"),
    (C.ACL_MEM_MALLOC_HUGE_ONLY, 256, "huge"),
    (C.ACL_MEM_MALLOC_NORMAL_ONLY, 4 * MiB, "normal"),
])
def test_rule03_policies_pick_pages(acl_on, profile, policy, size, page):
    acl = acl_on(profile)
    huge_attr, normal_attr = PAGE_ATTRS[profile]
    huge, normal = free_bytes(acl, huge_attr), free_bytes(acl, normal_attr)
    ptr, ret = acl.rt.malloc(size, policy)
    assert ret == 0
    expected = ((huge - huge_page_bytes(size), normal) if page == "huge" else
                (huge, normal - seed_malloc_bytes(size)))
    assert (free_bytes(acl, huge_attr), free_bytes(acl, normal_attr)) == expected
    assert acl.rt.free(ptr) == 0
    assert (free_bytes(acl, huge_attr), free_bytes(acl, normal_attr)) == (huge, normal)


def test_rule03_huge_first_small_sizes_take_normal_pages(acl):
    huge = free_bytes(acl, C.ACL_HBM_MEM_HUGE)
    for size in (1, 4096, 512 * 1024, MiB - 32):
        assert acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)[1] == 0
    assert free_bytes(acl, C.ACL_HBM_MEM_HUGE) == huge


def test_rule03_huge_first_falls_back_to_normal_when_huge_runs_out(acl_on):
    acl = acl_on("310")
    huge_total = pool_total("310", "DDR", "huge")
    _, ret = acl.rt.malloc(huge_total - 32, C.ACL_MEM_MALLOC_HUGE_ONLY)   # takes it all
    assert ret == 0 and free_bytes(acl, C.ACL_DDR_MEM_HUGE) == 0
    normal = free_bytes(acl, C.ACL_DDR_MEM_NORMAL)
    assert acl.rt.malloc(2 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)[1] == 0
    assert free_bytes(acl, C.ACL_DDR_MEM_NORMAL) == normal - seed_malloc_bytes(2 * MiB)


def test_rule03_huge_only_fails_when_huge_pages_run_out(acl_on):
    acl = acl_on("310")
    huge_total = pool_total("310", "DDR", "huge")
    assert acl.rt.malloc(huge_total - 4 * MiB - 32, C.ACL_MEM_MALLOC_HUGE_ONLY)[1] == 0
    assert free_bytes(acl, C.ACL_DDR_MEM_HUGE) == 4 * MiB
    normal = free_bytes(acl, C.ACL_DDR_MEM_NORMAL)
    ptr, ret = acl.rt.malloc(8 * MiB, C.ACL_MEM_MALLOC_HUGE_ONLY)
    assert (ptr, ret) == (0, C.ACL_ERROR_RT_MEMORY_ALLOCATION)
    msg = acl.get_recent_err_msg()
    assert "DDR huge" in msg and str(seed_malloc_bytes(8 * MiB)) in msg
    assert free_bytes(acl, C.ACL_DDR_MEM_NORMAL) == normal   # no fallback to normal pages
    assert acl.rt.malloc(4 * MiB - 32, C.ACL_MEM_MALLOC_HUGE_ONLY)[1] == 0   # what is left serves
    assert free_bytes(acl, C.ACL_DDR_MEM_HUGE) == 0


@pytest.mark.parametrize("size", [1000, 3 * MiB])
def test_rule03_huge_pages_are_taken_whole(acl, size):
    """A huge-page block occupies whole 2 MiB pages: get_mem_info and the snapshot say so."""
    huge = free_bytes(acl, C.ACL_HBM_MEM_HUGE)
    ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_ONLY)
    assert ret == 0 and ptr % (2 * MiB) == 0
    assert huge - free_bytes(acl, C.ACL_HBM_MEM_HUGE) == huge_page_bytes(size)
    a = allocation(ptr)
    assert (a["footprint"], a["occupied"]) == (seed_malloc_bytes(size), huge_page_bytes(size))
    assert acl.rt.free(ptr) == 0 and free_bytes(acl, C.ACL_HBM_MEM_HUGE) == huge


@pytest.mark.parametrize("flag", [C.ACL_MEM_TYPE_LOW_BAND_WIDTH, C.ACL_MEM_TYPE_HIGH_BAND_WIDTH])
@pytest.mark.parametrize("policy", [C.ACL_MEM_MALLOC_HUGE_FIRST, C.ACL_MEM_MALLOC_HUGE_ONLY,
                                    C.ACL_MEM_MALLOC_NORMAL_ONLY])
def test_rule03_a_bandwidth_flag_ored_in_makes_the_default_policy(acl, policy, flag):
    """aclrtMalloc takes one policy value (11-01 约束说明: OR-ing only on IPV350); the runtime
    compares the policy with each enum value (aclMallocMemInner), so an OR-ed one gets the
    default flags: HUGE_FIRST, HBM first, the flag ignored."""
    before = {a: free_bytes(acl, a) for a in (C.ACL_HBM_MEM_HUGE, C.ACL_HBM_MEM_NORMAL,
                                               C.ACL_DDR_MEM)}
    ptr, ret = acl.rt.malloc(100, policy | flag)
    assert ret == 0
    taken = {a: before[a] - free_bytes(acl, a) for a in before}
    assert taken == {C.ACL_HBM_MEM_HUGE: 0, C.ACL_HBM_MEM_NORMAL: seed_malloc_bytes(100),
                     C.ACL_DDR_MEM: 0}
    assert acl.rt.free(ptr) == 0


# ----- rule 4 ------------------------------------------------------------------------------
def _fresh_contents(acl):
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(4096)
    return read(acl, host, 4096), read(acl, dev, 4096)


def test_rule04_fresh_memory_is_garbage_not_zeros_and_deterministic(acl):
    host_bytes, dev_bytes = _fresh_contents(acl)
    for data in (host_bytes, dev_bytes):
        assert data.count(0) < len(data) // 16      # arbitrary data, not a zeroed page
        assert len(set(data)) > 200
    acl_lab.reset()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    assert _fresh_contents(acl) == (host_bytes, dev_bytes)


# ----- rule 5 ------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["host", "device", "numpy"])
def test_rule05_memset_finds_the_location_from_the_address(acl, where):
    if where == "host":
        ptr = acl.rt.malloc_host(256)[0]
    elif where == "device":
        ptr = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)[0]
    else:
        keep = np.arange(256, dtype=np.uint8)
        ptr = acl.util.numpy_to_ptr(keep)
    before = read(acl, ptr, 256)
    assert acl.rt.memset(ptr + 16, 240, 0x1A5, 100) == 0        # only the low byte counts
    after = read(acl, ptr, 256)
    assert after[16:116] == b"\xa5" * 100
    assert after[:16] == before[:16] and after[116:] == before[116:]

    assert acl.rt.memset(ptr, 100, 0, 101) == C.ACL_ERROR_RT_PARAM_INVALID
    message = acl.get_recent_err_msg()
    assert "101" in message and "100" in message
    assert acl.rt.memset(ptr, 300, 0, 300) == C.ACL_ERROR_RT_PARAM_INVALID   # past the end
    assert "past the end" in acl.get_recent_err_msg()
    assert read(acl, ptr, 256) == after


# ----- rule 6 ------------------------------------------------------------------------------
@pytest.mark.parametrize("use_default", [False, True], ids=["stated_kind", "DEFAULT"])
def test_rule06_memcpy_four_directions(acl, use_default):
    n = 1000
    payload = np.random.default_rng(6).integers(0, 256, n, dtype=np.uint8).tobytes()
    h1, h2, h3 = (acl.rt.malloc_host(n)[0] for _ in range(3))
    d1, d2 = (acl.rt.malloc(n, C.ACL_MEM_MALLOC_HUGE_FIRST)[0] for _ in range(2))
    acl.util.ptr_to_numpy(h1, (n,), np.dtype(np.uint8).num)[:] = np.frombuffer(payload, np.uint8)

    def kind(k):
        return C.ACL_MEMCPY_DEFAULT if use_default else k

    assert acl.rt.memcpy(d1, n, h1, n, kind(C.ACL_MEMCPY_HOST_TO_DEVICE)) == 0
    assert acl.rt.memcpy(d2, n, d1, n, kind(C.ACL_MEMCPY_DEVICE_TO_DEVICE)) == 0
    assert acl.rt.memcpy(h2, n, d2, n, kind(C.ACL_MEMCPY_DEVICE_TO_HOST)) == 0
    assert acl.rt.memcpy(h3, n, h2, n, kind(C.ACL_MEMCPY_HOST_TO_HOST)) == 0
    assert acl.util.ptr_to_bytes(h3, n) == payload


@pytest.mark.parametrize("kind", [C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_HOST_TO_HOST,
                                  C.ACL_MEMCPY_DEVICE_TO_DEVICE])
def test_rule06_memcpy_the_addresses_decide_a_contradicting_kind_copies_by_them(acl, kind):
    """The kind is reserved (seed 001): the driver copies by the addresses, both ways."""
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    back, _ = acl.rt.malloc_host(64)
    payload = bytes(range(64))
    acl.util.ptr_to_numpy(host, (64,), 2)[:] = np.frombuffer(payload, np.uint8)
    assert acl.rt.memcpy(dev, 64, host, 64, kind) == 0
    assert read(acl, dev, 64) == payload
    assert acl.rt.memcpy(back, 64, dev, 64, kind) == 0
    assert acl.util.ptr_to_bytes(back, 64) == payload


def test_rule06_memcpy_kind_outside_the_enum_and_count_over_dest_max(acl):
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    for bad in (C.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, C.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 99):
        assert acl.rt.memcpy(dev, 64, host, 64, bad) == C.ACL_ERROR_INVALID_PARAM
        assert f"kind {bad}" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(dev, 32, host, 64, C.ACL_MEMCPY_HOST_TO_DEVICE) \
        == C.ACL_ERROR_RT_PARAM_INVALID
    assert "destMax" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(dev, 64, host, 0, 99) == 0          # count 0 succeeds before any check
    assert acl.rt.memcpy(dev, 64, host, 64, C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) == 0


# ----- rule 7 ------------------------------------------------------------------------------
def test_rule07_get_mem_info_per_attribute_on_910b(acl):
    def total(attr):
        free, tot, ret = acl.rt.get_mem_info(attr)
        assert ret == 0 and free == tot         # nothing allocated yet
        return tot

    assert total(C.ACL_HBM_MEM_HUGE) == pool_total("910b", "HBM", "huge")
    assert total(C.ACL_HBM_MEM_NORMAL) == pool_total("910b", "HBM", "normal")
    assert total(C.ACL_HBM_MEM) == total(C.ACL_HBM_MEM_HUGE) + total(C.ACL_HBM_MEM_NORMAL)
    assert total(C.ACL_DDR_MEM) == total(C.ACL_DDR_MEM_HUGE) + total(C.ACL_DDR_MEM_NORMAL) > 0

    ddr, hbm = free_bytes(acl, C.ACL_DDR_MEM), free_bytes(acl, C.ACL_HBM_MEM)
    ptr, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)      # HBM is used first
    assert free_bytes(acl, C.ACL_HBM_MEM) == hbm - huge_page_bytes(3 * MiB)
    assert free_bytes(acl, C.ACL_DDR_MEM) == ddr
    assert acl.rt.free(ptr) == 0 and free_bytes(acl, C.ACL_HBM_MEM) == hbm


def test_rule07_ddr_only_310_answers_hbm_queries_with_ddr_figures(acl_on):
    acl = acl_on("310")
    assert acl.rt.malloc(5 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)[1] == 0
    assert acl.rt.malloc(100, C.ACL_MEM_MALLOC_HUGE_FIRST)[1] == 0
    pairs = [(C.ACL_HBM_MEM, C.ACL_DDR_MEM), (C.ACL_HBM_MEM_HUGE, C.ACL_DDR_MEM_HUGE),
             (C.ACL_HBM_MEM_NORMAL, C.ACL_DDR_MEM_NORMAL)]
    for hbm, ddr in pairs:
        assert acl.rt.get_mem_info(hbm) == acl.rt.get_mem_info(ddr)
    free, total, ret = acl.rt.get_mem_info(C.ACL_DDR_MEM)
    assert ret == 0
    assert total == pool_total("310", "DDR", "huge") + pool_total("310", "DDR", "normal")
    assert free == total - huge_page_bytes(5 * MiB) - seed_malloc_bytes(100)


@pytest.mark.parametrize("attr", [18, 1000, -1])
def test_rule07_get_mem_info_bad_attr(acl, attr):
    assert acl.rt.get_mem_info(attr) == (0, 0, C.ACL_ERROR_RT_INVALID_MEMORY_TYPE)
    assert f"{attr} is not an aclrtMemAttr" in acl.get_recent_err_msg()


def test_rule07_get_mem_info_needs_a_context(bare_acl):
    assert bare_acl.init() == 0
    assert bare_acl.rt.get_mem_info(C.ACL_DDR_MEM) == (0, 0, C.ACL_ERROR_RT_CONTEXT_NULL)


# ----- rule 8 ------------------------------------------------------------------------------
@pytest.mark.parametrize("profile, mode", [("910b", C.ACL_HOST), ("310", C.ACL_HOST),
                                           ("310p", C.ACL_HOST), ("200dk", C.ACL_DEVICE)])
def test_rule08_get_run_mode(acl_on, profile, mode):
    acl = acl_on(profile)
    assert acl.rt.get_run_mode() == (mode, 0)
    assert acl_lab.snapshot()["run_mode"] == C.RUN_MODE_NAMES[mode]


def test_rule08_device_mode_reads_device_memory_directly(acl_on):
    acl = acl_on("200dk")
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(dev, 64, 7, 64) == 0
    view = acl.util.ptr_to_numpy(dev, (64,), np.dtype(np.uint8).num)
    assert (view == 7).all()


def test_rule08_host_mode_cannot_read_device_memory(acl):
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    with pytest.raises(acl_lab.AclLabError, match="device memory"):
        acl.util.ptr_to_numpy(dev, (64,), np.dtype(np.uint8).num)


# ----- rule 9 ------------------------------------------------------------------------------
def test_rule09_repeated_init_and_finalize_return_repeat_codes(bare_acl):
    acl = bare_acl
    assert acl.init() == 0
    assert acl.init() == C.ACL_ERROR_REPEAT_INITIALIZE
    assert "already initialized" in acl.get_recent_err_msg()
    assert acl.finalize() == 0
    assert acl.finalize() == C.ACL_ERROR_REPEAT_FINALIZE
    assert "already finalized" in acl.get_recent_err_msg()


def test_rule09_first_finalize_without_init_succeeds(bare_acl):
    assert bare_acl.finalize() == 0          # hicann/runtime: the flag starts false
    assert bare_acl.finalize() == C.ACL_ERROR_REPEAT_FINALIZE


# ----- rule 10 -----------------------------------------------------------------------------
SIZES = (1, 31, 32, 33, 100, 1000, 4096, 65537)


def test_rule10_malloc_rounds_up_to_32_and_adds_32(acl):
    for size in SIZES:
        before = free_bytes(acl, C.ACL_HBM_MEM_NORMAL)
        ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == 0
        assert before - free_bytes(acl, C.ACL_HBM_MEM_NORMAL) == seed_malloc_bytes(size)
        assert allocation(ptr)["footprint"] == seed_malloc_bytes(size)
        assert allocation(ptr)["size"] == size


def test_rule10_malloc_align32_only_rounds_up(acl):
    for size in SIZES:
        before = free_bytes(acl, C.ACL_HBM_MEM_NORMAL)
        ptr, ret = acl.rt.malloc_align32(size, C.ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == 0 and ptr % 64 == 0
        assert before - free_bytes(acl, C.ACL_HBM_MEM_NORMAL) == seed_align_up(size, 32)


def test_rule10_dvpp_malloc_is_128_aligned_and_paired_with_dvpp_free(acl):
    ptrs = [acl.media.dvpp_malloc(size) for size in SIZES]
    assert all(ret == 0 and ptr % 128 == 0 for ptr, ret in ptrs)
    assert [allocation(p)["footprint"] for p, _ in ptrs] == [seed_malloc_bytes(s) for s in SIZES]
    first = ptrs[0][0]
    assert acl.rt.free(first) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "acldvppFree" in acl.get_recent_err_msg()
    assert acl.media.dvpp_free(acl.rt.malloc(64, 0)[0]) == C.ACL_ERROR_RT_PARAM_INVALID
    assert all(acl.media.dvpp_free(p) == 0 for p, _ in ptrs)


def test_rule10_segment_rule_matches_the_seed_formula():
    from acl_lab.align import segment_size

    for length in (1, 31, 32, 33, 127, 128, 129, 10**6):
        assert segment_size(length) == seed_align_up(length, 32) + 32


# ----- rule 11 -----------------------------------------------------------------------------
def test_rule11_memcpy_async_needs_64_byte_aligned_addresses(acl):
    stream, _ = acl.rt.create_stream()
    host, _ = acl.rt.malloc_host(512)
    dev, _ = acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST)
    h2d = C.ACL_MEMCPY_HOST_TO_DEVICE
    for dst, src, culprit in ((dev + 32, host, dev + 32), (dev, host + 96, host + 96)):
        assert acl.rt.memcpy_async(dst, 128, src, 128, h2d, stream) == C.ACL_ERROR_RT_ADDR_UNALIGNED
        msg = acl.get_recent_err_msg()
        assert f"0x{culprit:x}" in msg and "64-byte aligned" in msg
    assert acl.rt.memcpy_async(dev + 64, 128, host + 128, 128, h2d, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(dev + 32, 128, host + 96, 128, h2d) == 0   # synchronous copies may


# ----- rule 12 -----------------------------------------------------------------------------
@pytest.mark.parametrize("profile", HOST_MODE_PROFILES)
def test_rule12_malloc_host_is_pinned_and_64_byte_aligned(acl_on, profile):
    acl = acl_on(profile)
    for size in SIZES:
        ptr, ret = acl.rt.malloc_host(size)
        assert ret == 0 and ptr % 64 == 0
        a = allocation(ptr)
        # the size as asked: aclrtMallocHostImpl rounds nothing (only the start is aligned)
        assert (a["location"], a["pinned"], a["footprint"]) == ("host", True, size)


def test_rule12_device_mode_malloc_host_is_device_memory_without_alignment_promise(acl_on):
    acl = acl_on("200dk")
    normal = free_bytes(acl, C.ACL_DDR_MEM_NORMAL)
    ptrs = [acl.rt.malloc_host(32)[0] for _ in range(4)]
    assert free_bytes(acl, C.ACL_DDR_MEM_NORMAL) == normal - 4 * 32
    assert all(allocation(p)["location"] == "device" and not allocation(p)["pinned"]
               for p in ptrs)
    assert any(p % 64 for p in ptrs)      # no 64-byte promise: align it yourself
    assert all(acl.rt.free_host(p) == 0 for p in ptrs)


# ----- rule 13 -----------------------------------------------------------------------------
def test_rule13_malloc_cached_behaves_like_malloc(acl):
    before = free_bytes(acl, C.ACL_HBM_MEM)
    ptr, ret = acl.rt.malloc_cached(1000, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and ptr % 64 == 0
    assert before - free_bytes(acl, C.ACL_HBM_MEM) == seed_malloc_bytes(1000)
    write(acl, ptr, bytes(range(200)))
    assert read(acl, ptr, 200) == bytes(range(200))
    assert acl.rt.free_host(ptr) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.free(ptr) == 0 and free_bytes(acl, C.ACL_HBM_MEM) == before


def test_rule13_malloc_cached_takes_huge_only_as_malloc_does(acl):
    """The docs: equivalent to aclrtMalloc, HUGE_ONLY accepted; the source agrees on the
    standard SoCs (rtMallocCached -> DevMalloc, src/runtime/api/api_c_standard_soc.cc)."""
    before = free_bytes(acl, C.ACL_HBM_MEM_HUGE)
    ptr, ret = acl.rt.malloc_cached(1000, C.ACL_MEM_MALLOC_HUGE_ONLY)
    assert ret == 0
    assert before - free_bytes(acl, C.ACL_HBM_MEM_HUGE) == huge_page_bytes(1000)
    assert acl.rt.free(ptr) == 0 and free_bytes(acl, C.ACL_HBM_MEM_HUGE) == before


# ----- rule 6, the async copy: the kind is a real parameter ----------------------------------
@pytest.mark.parametrize("kind, ret", [
    (C.ACL_MEMCPY_HOST_TO_DEVICE, 0), (C.ACL_MEMCPY_DEFAULT, 0),
    (C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_ERROR_RT_PARAM_INVALID),
    (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_ERROR_RT_PARAM_INVALID)])
def test_rule06_an_async_copy_with_pageable_memory_needs_a_fitting_kind(acl, kind, ret):
    """11-03 aclrtMemcpyAsync: kind is a real parameter. The runtime corrects a kind that
    contradicts pinned or device memory, but with pageable memory only the kinds of its
    MemcpyKindReviseMap pass (api_error.cc): numpy -> device takes H2D or D2D."""
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    src = np.full(64, 3, np.uint8)
    assert acl.rt.memcpy_async(dev, 64, acl.util.numpy_to_ptr(src), 64, kind, stream) == ret
    if ret:
        assert "pageable memory" in acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0


def test_rule06_an_async_copy_corrects_a_kind_that_contradicts_pinned_memory(acl):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    write(acl, host, bytes([4]) * 64)
    assert acl.rt.memcpy_async(dev, 64, host, 64, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, dev, 64) == bytes([4]) * 64
