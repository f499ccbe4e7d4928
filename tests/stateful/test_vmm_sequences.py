"""Random sequences of virtual-memory calls mixed with malloc / free and copies, against a small
model of the rules (docs/rules.md rule 29 and rule 30; sim/vmm.py, hicann/runtime 11-04): a map succeeds only on a free,
granule-aligned slot of a reserved range with a live handle; free_physical of a mapped handle
is deferred until its last unmap; a range with mappings cannot be released; bytes written
through one mapping are read through every mapping of the same physical memory; the books
balance (get_mem_info's huge pages move with physical memory only, normal pages with
aclrtMalloc only, and come back in full); a mapping made without access (aclrtMemMapNoAccess)
refuses copies until aclrtMemSetAccess grants the device access, and aclrtMemGetAccess says
which it is (rule 35); a refused call changes nothing."""
from __future__ import annotations

import numpy as np
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import acl_lab
from acl_lab import constants as C

OK, INVALID = 0, C.ACL_ERROR_RT_PARAM_INVALID
G = 2 << 20
PROP = {"handleType": 0, "allocationType": 0, "memAttr": C.ACL_HBM_MEM_HUGE,
        "location": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}, "reserve": 0}
picks = st.integers(0, 1000)
DEV0 = {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}
RW, NONE = C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE, C.ACL_RT_MEM_ACCESS_FLAGS_NONE


class Physical:
    def __init__(self):
        self.handles, self.maps, self.value = 1, 0, None


class VirtualMemorySequences(RuleBasedStateMachine):
    @initialize()
    def start(self):
        acl_lab.reset("910b")
        self.acl = acl = acl_lab.load(profile="910b")
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        self.huge0 = self.free_of(C.ACL_HBM_MEM_HUGE)
        self.normal0 = self.free_of(C.ACL_HBM_MEM_NORMAL)
        self.ranges: dict[int, int] = {}          # va -> granules
        self.handles: dict[int, Physical] = {}    # live handle -> its memory
        self.maps: dict[int, Physical] = {}       # mapped va -> its memory
        self.no_access: set[int] = set()          # mapped va the device may not touch yet
        self.physicals: list[Physical] = []       # memory that still holds pages
        self.mallocs: list[int] = []

    def free_of(self, attr: int) -> int:
        free, _total, ret = self.acl.rt.get_mem_info(attr)
        assert ret == 0
        return free

    def expect(self, ret: int, code: int, before) -> None:
        assert ret == code, self.acl.get_recent_err_msg()
        if code != OK:
            assert self.acl.get_recent_err_msg()
            assert acl_lab.snapshot() == before

    def host(self, n: int, value: int = 0) -> tuple[np.ndarray, int]:
        self.keep = np.full(n, value, np.uint8)
        return self.keep, self.acl.util.numpy_to_ptr(self.keep)

    def range_of(self, at: int) -> int | None:
        return next((va for va, n in self.ranges.items() if va <= at < va + n * G), None)

    def drop_if_gone(self, p: Physical) -> None:
        if not p.handles and not p.maps:
            self.physicals.remove(p)

    @rule(granules=st.integers(1, 4))
    def reserve(self, granules):
        va, ret = self.acl.rt.reserve_mem_address(granules * G, 0, 0, 0)
        assert ret == OK and va % G == 0 and va not in self.ranges
        self.ranges[va] = granules

    @rule(pick=picks)
    def release(self, pick):
        if not self.ranges:
            return
        va = sorted(self.ranges)[pick % len(self.ranges)]
        mapped = any(va <= m < va + self.ranges[va] * G for m in self.maps)
        before = acl_lab.snapshot()
        self.expect(self.acl.rt.release_mem_address(va), INVALID if mapped else OK, before)
        if not mapped:
            del self.ranges[va]

    @rule()
    def malloc_physical(self):
        handle, ret = self.acl.rt.malloc_physical(G, PROP, 0)
        assert ret == OK and handle not in self.handles
        self.handles[handle] = p = Physical()
        self.physicals.append(p)

    @rule(pick=picks)
    def free_physical(self, pick):
        if not self.handles:
            before = acl_lab.snapshot()
            self.expect(self.acl.rt.free_physical(0x1234), INVALID, before)
            return
        handle = sorted(self.handles)[pick % len(self.handles)]
        assert self.acl.rt.free_physical(handle) == OK
        p = self.handles.pop(handle)
        p.handles -= 1
        self.drop_if_gone(p)

    @precondition(lambda self: self.ranges and self.handles)
    @rule(pick=picks, slot=st.integers(0, 4), which=picks, granted=st.booleans())
    def map(self, pick, slot, which, granted):
        va = sorted(self.ranges)[pick % len(self.ranges)]
        handle = sorted(self.handles)[which % len(self.handles)]
        at = va + slot * G         # past its range's end: maybe in the next range
        ok = self.range_of(at) is not None and at not in self.maps
        before = acl_lab.snapshot()
        call = self.acl.rt.map_mem if granted else self.acl.rt.mem_map_no_access
        self.expect(call(at, G, 0, handle, 0), OK if ok else INVALID, before)
        if ok:
            p = self.maps[at] = self.handles[handle]
            p.maps += 1
            if not granted:
                self.no_access.add(at)

    @precondition(lambda self: self.maps)
    @rule(pick=picks)
    def set_access(self, pick):
        at = sorted(self.maps)[pick % len(self.maps)]
        assert self.acl.rt.mem_set_access(at, G, [{"flags": RW, "location": DEV0}]) == OK
        self.no_access.discard(at)

    @precondition(lambda self: self.maps)
    @rule(pick=picks)
    def unmap(self, pick):
        at = sorted(self.maps)[pick % len(self.maps)]
        assert self.acl.rt.unmap_mem(at) == OK
        p = self.maps.pop(at)
        self.no_access.discard(at)
        p.maps -= 1
        self.drop_if_gone(p)

    @precondition(lambda self: self.maps)
    @rule(pick=picks, value=st.integers(0, 255))
    def write_through_a_mapping(self, pick, value):
        at = sorted(self.maps)[pick % len(self.maps)]
        _array, ptr = self.host(16, value)
        before = acl_lab.snapshot()
        refused = at in self.no_access
        self.expect(self.acl.rt.memcpy(at, 16, ptr, 16, C.ACL_MEMCPY_HOST_TO_DEVICE),
                    INVALID if refused else OK, before)
        if not refused:
            self.maps[at].value = value

    @rule(pick=picks, slot=st.integers(0, 4))
    def copy_into_an_unmapped_slot(self, pick, slot):
        if not self.ranges:
            return
        at = sorted(self.ranges)[pick % len(self.ranges)] + slot * G
        if at in self.maps or self.range_of(at) is None:
            return
        _array, ptr = self.host(16)
        before = acl_lab.snapshot()
        self.expect(self.acl.rt.memcpy(at, 16, ptr, 16, C.ACL_MEMCPY_HOST_TO_DEVICE), INVALID,
                    before)

    @rule(size=st.integers(1, 5000))
    def malloc(self, size):
        ptr, ret = self.acl.rt.malloc(size, C.ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == OK
        self.mallocs.append(ptr)

    @rule(pick=picks)
    def copy_to_malloc_and_free(self, pick):
        """A device-to-device copy out of a mapping into aclrtMalloc memory, then free it."""
        if not self.mallocs:
            return
        ptr = self.mallocs.pop(pick % len(self.mallocs))
        written = [(at, p) for at, p in sorted(self.maps.items())
                   if p.value is not None and at not in self.no_access]
        if written:
            at, p = written[pick % len(written)]
            assert self.acl.rt.memcpy(ptr, 1, at, 1, C.ACL_MEMCPY_DEVICE_TO_DEVICE) == OK
            out, host = self.host(1)
            assert self.acl.rt.memcpy(host, 1, ptr, 1, C.ACL_MEMCPY_DEVICE_TO_HOST) == OK
            assert out[0] == p.value
        assert self.acl.rt.free(ptr) == OK

    @invariant()
    def every_mapping_shows_its_memory(self):
        if not hasattr(self, "maps"):
            return
        for at, p in self.maps.items():
            flags, ret = self.acl.rt.mem_get_access(at, DEV0)
            assert ret == OK and flags == (NONE if at in self.no_access else RW)
            if p.value is not None and at not in self.no_access:
                out, host = self.host(16)
                assert self.acl.rt.memcpy(host, 16, at, 16, C.ACL_MEMCPY_DEVICE_TO_HOST) == OK
                assert (out == p.value).all()

    @invariant()
    def the_books_balance(self):
        if not hasattr(self, "maps"):
            return
        assert self.free_of(C.ACL_HBM_MEM_HUGE) == self.huge0 - G * len(self.physicals)
        if not self.mallocs:
            assert self.free_of(C.ACL_HBM_MEM_NORMAL) == self.normal0
        vm = acl_lab.snapshot()["virtual_memory"]
        assert sorted(r["va"] for r in vm["reservations"]) == sorted(self.ranges)
        assert sorted(m["va"] for r in vm["reservations"] for m in r["mappings"]) == \
            sorted(self.maps)
        assert len(vm["physical"]) == len(self.physicals)
        assert sum(row["deferred_free"] for row in vm["physical"]) == \
            sum(not p.handles for p in self.physicals)

    def teardown(self):
        acl_lab.reset()


VirtualMemorySequences.TestCase.settings = settings(max_examples=60, stateful_step_count=40,
                                                    deadline=None)
TestVirtualMemorySequences = VirtualMemorySequences.TestCase
