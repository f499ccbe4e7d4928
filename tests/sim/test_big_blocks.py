"""Blocks of BIG_BLOCK bytes or more live in a mapping of their own (storage.py): the bytes a
learner sees do not change, copies between them are page-congruent on the host, views of
them register back at their own address, and their RAM is counted and given back."""
import numpy as np

import acl_lab
from acl_lab.constants import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEMCPY_DEVICE_TO_DEVICE,
                               ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_HOST, ACL_SUCCESS)
from acl_lab.sim.storage import BIG_BLOCK, BIG_CHUNK, LazyStorage, fill_garbage

MiB = 1 << 20
U8 = np.dtype(np.uint8).num


def _block(acl, ptr):
    from acl_lab.session import SESSION
    a = SESSION.simulator.rt.memory.allocs[ptr]
    return a, a.pool.storage


def test_a_big_block_reads_the_same_fresh_garbage_as_the_pool_mapping():
    for offset in (64, 3 * MiB + 4160):          # not chunk-aligned, like the pool's starts
        storage = LazyStorage(16 * MiB, salt=3)
        storage.claim(offset, 3 * MiB)
        out = np.empty(3 * MiB, np.uint8)
        storage.read_into(offset, 3 * MiB, out)
        expected = np.empty(3 * MiB, np.uint8)
        fill_garbage(expected, offset, 3)
        assert np.array_equal(out, expected)
        assert np.array_equal(storage.view(offset + 5, 100), expected[5:105])


def test_two_big_blocks_sit_at_the_same_offset_in_a_host_page(acl):
    # normal pages: blocks pack at 64-byte starts (huge pages would round each to 2 MiB)
    low, _ = acl.rt.malloc(4 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY)
    high, _ = acl.rt.malloc(4 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY)
    assert high - low == 4 * MiB + 64             # simulated addresses: the pool's placement
    (a, storage), (b, _) = _block(acl, low), _block(acl, high)
    va = storage.view(a.ptr - a.pool.base, 4 * MiB)
    vb = storage.view(b.ptr - b.pool.base, 4 * MiB)
    assert (va.ctypes.data - vb.ctypes.data) % 4096 == 0
    assert acl.rt.memset(low, 4 * MiB, 5, 4 * MiB) == ACL_SUCCESS
    assert acl.rt.memcpy(high, 4 * MiB, low, 4 * MiB, ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    host, _ = acl.rt.malloc_host(4 * MiB)
    assert acl.rt.memcpy(host, 4 * MiB, high, 4 * MiB, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(host + 4 * MiB - 8, 8) == b"\x05" * 8


def test_a_view_of_a_big_block_registers_back_at_its_own_address(acl):
    ptr, _ = acl.rt.malloc_host(2 * MiB)               # pinned host memory the CPU may read
    assert acl.rt.memset(ptr, 2 * MiB, 0, 2 * MiB) == ACL_SUCCESS
    view = acl.util.ptr_to_numpy(ptr + 4096, (16,), U8)
    assert acl.util.numpy_to_ptr(view) == ptr + 4096
    view[:] = 9
    other, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy(other, 16, ptr + 4096, 16, ACL_MEMCPY_HOST_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(other, 16) == b"\x09" * 16
    del view


def test_a_big_block_counts_its_huge_chunks_and_gives_them_back(acl):
    assert BIG_BLOCK <= 2 * MiB
    before = acl_lab.snapshot()["touched_bytes"]
    ptr, _ = acl.rt.malloc(8 * MiB, ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(ptr + 3 * MiB, 1, 7, 1) == ACL_SUCCESS      # one byte
    assert acl_lab.snapshot()["touched_bytes"] == before + BIG_CHUNK
    assert acl.rt.free(ptr) == ACL_SUCCESS
    assert acl_lab.snapshot()["touched_bytes"] == before


def test_the_next_block_where_an_interrupted_free_left_bytes_reads_fresh():
    """Ctrl-C between a free's give-back and its storage forget leaves the big block's bytes
    registered at that offset; the next block placed there, big or small, still starts as
    fresh garbage, not the freed block's data."""
    for later in (64, 2 * MiB):
        storage = LazyStorage(16 * MiB, salt=5)
        storage.claim(64, 3 * MiB)
        storage.view(64, 3 * MiB)[:] = 7          # the old block's data
        storage.claim(64, later)                  # its forget never ran
        out = np.empty(later, np.uint8)
        storage.read_into(64, later, out)
        expected = np.empty(later, np.uint8)
        fill_garbage(expected, 64, 5)
        assert np.array_equal(out, expected), later
