"""Rules that check the sandbox promise and pyACL's argument parsing directly, beside the
model: Python memory registered through acl.util (numpy arrays, bytes objects, read-only
views), shapes and strides that must never reach memory, the host-RAM budget, a reset while
old views are alive, wrongly typed arguments and the last-error calls."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

import acl_lab
from acl_lab import constants as C
from acl_lab.session import SESSION
from acl_lab.errors import AclLabError, SimulatorLimit

from .model.objects import OK, WINDOW
from .preconditions import late, needs_context
from .tally import STATS


class SandboxRules:
    """Part of AclMachine (machine.py): uses its model ``m``, ``acl`` and argument draws."""

    # ----- Python memory registered through acl.util -----------------------------------------
    def register(self, array: np.ndarray, internal: bool = False) -> int:
        ptr = self.acl.util.numpy_to_ptr(array)
        assert ptr != 0 and ptr % 64 == 0, hex(ptr)
        if ptr not in self.m.blocks:
            self.arrays.append(array)
            self.m.add_registration(ptr, array.nbytes, "numpy", array=array, internal=internal,
                                    read_only=not array.flags.writeable)
        return ptr

    @rule(data=st.data(), size=st.integers(1, WINDOW), seed=st.integers(0, 255))
    @precondition(lambda self: sum(b.api == "numpy" for b in self.live_blocks()) < 3)
    def register_array(self, data, size, seed):
        array = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)
        array.flags.writeable = not self.rare(data, 4)
        assert self.register(array) == self.register(array)    # one array, one address

    @rule()
    def register_strided_array(self):
        before = acl_lab.snapshot()
        assert self.acl.util.numpy_to_ptr(np.zeros((8, 8), np.uint8)[:, ::2]) == 0
        assert "contiguous" in self.acl.get_recent_err_msg()
        assert acl_lab.snapshot() == before

    @rule(data=st.data(), size=st.integers(1, WINDOW), seed=st.integers(0, 255))
    @precondition(lambda self: sum(b.api == "bytes" for b in self.live_blocks()) < 2)
    def register_bytes(self, data, size, seed):
        """pyACL's bytes_to_ptr pattern: a fresh bytes object, written in place through its
        pointer. A one-byte object is one Python shares between all code: read-only."""
        if self.rare(data, 4):
            size = 1
        obj = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes()
        ptr = self.acl.util.bytes_to_ptr(obj)
        assert ptr != 0 and self.acl.util.bytes_to_ptr(obj) == ptr
        if ptr not in self.m.blocks:
            self.arrays.append(obj)                 # the program keeps it alive, as pyACL asks
            self.m.add_registration(ptr, size, "bytes", array=np.frombuffer(obj, np.uint8),
                                    read_only=size == 1)
            STATS["bytes objects registered"] += 1

    @rule(data=st.data())
    def register_read_only_view(self, data):
        """numpy_to_ptr of a read-only view makes its bytes read-only; the writable array
        registered again makes them writable (the latest registration decides)."""
        roots = [b for b in self.live_blocks() if b.api == "numpy" and b.array.flags.writeable]
        if not roots:
            return
        b = data.draw(st.sampled_from(roots))
        view = b.array[:]
        view.flags.writeable = not data.draw(st.booleans())
        assert self.acl.util.numpy_to_ptr(view if not view.flags.writeable else b.array) == b.ptr
        b.read_only = not view.flags.writeable
        STATS["read-only views registered"] += b.read_only

    # ----- what must never reach memory ------------------------------------------------------
    @rule(data=st.data())
    def bad_shapes_and_strides(self, data):
        """Negative or huge dimensions, strides and offsets never reach memory: ValueError
        from ptr_to_numpy, a NULL tensor or ACLNN_ERR_PARAM_INVALID from aclnn."""
        before = acl_lab.snapshot()
        host = [b for b in self.live_blocks() if b.location == "host" and b.size >= 8]
        if host:
            b = data.draw(st.sampled_from(host))
            shape = data.draw(st.sampled_from([(-1,), (4, -1), (1 << 63,), (1 << 40, 1 << 40),
                                               (b.size + 1,)]))
            with pytest.raises((ValueError, AclLabError)):
                self.acl.util.ptr_to_numpy(b.ptr, shape, np.dtype(np.uint8).num)
            with pytest.raises(ValueError):
                self.acl.util.ptr_to_bytes(b.ptr, -1)
        dev = [b for b in self.live_blocks() if b.location == "device" and b.size >= 64]
        if dev:
            b, nn = data.draw(st.sampled_from(dev)), self.acl.nn
            strides, offset = data.draw(st.sampled_from([([-1], 7), ([1], -1), ([-8], 0)]))
            assert nn.create_tensor([8], C.ACL_UINT8, strides, offset, C.ACL_FORMAT_ND,
                                    [b.size], b.ptr) == 0
            assert "negative" in self.acl.get_recent_err_msg()
            dims = data.draw(st.sampled_from([[1 << 62, 4], [b.size + 1], [2, 1 << 40]]))
            t = nn.create_tensor(dims, C.ACL_UINT8, [1] * len(dims), 0, C.ACL_FORMAT_ND,
                                 [b.size], b.ptr)
            assert t != 0
            assert nn.inplace_copy_get_workspace_size(t, t)[-1] == C.ACLNN_ERR_PARAM_INVALID
            assert nn.destroy_tensor(t) == OK
        STATS["bad shapes refused"] += 1
        assert acl_lab.snapshot() == before

    @rule(data=st.data(), is_async=st.booleans())
    @needs_context
    def hit_the_host_budget(self, data, is_async):
        """A write that needs more host RAM than the budget has left raises SimulatorLimit
        and changes nothing (the budget is lowered to just below what the write needs)."""
        rt = SESSION.simulator.rt
        fresh = [(b, rt.memory.allocs[b.ptr]) for b in self.live_blocks()
                 if b.pool is not None and not b.read_only]
        fresh = [(b, a) for b, a in fresh if a.fresh_bytes(0, a.size)]
        ctx = self.m.contexts.get(self.m.current)
        streams = sorted(h for h, s in self.m.streams.items() if ctx and s.device == ctx.device)
        if not fresh or is_async and not streams:
            return
        b, a = data.draw(st.sampled_from(fresh))
        ram, before = rt.memory.ram, acl_lab.snapshot()
        limit = ram.limit
        ram.limit = ram.used + ram.reserved + a.fresh_bytes(0, a.size) - 1
        try:
            with pytest.raises(SimulatorLimit, match="budget"):
                if is_async:
                    self.acl.rt.memset_async(b.ptr, b.size, 1, b.size,
                                             data.draw(st.sampled_from(streams)))
                else:
                    self.acl.rt.memset(b.ptr, b.size, 1, b.size)
        finally:
            ram.limit = limit
        STATS["budget limits hit"] += 1
        assert acl_lab.snapshot() == before

    @rule(data=st.data())
    @late
    def reset_with_live_views(self, data):
        """acl_lab.reset() while ptr_to_numpy arrays of the old process are alive: the arrays
        stay safe to touch (no crash), and the new process starts clean."""
        host = [b for b in self.live_blocks() if b.location == "host" and b.pool is not None]
        views = [self.acl.util.ptr_to_numpy(b.ptr, (min(b.size, WINDOW),), np.dtype(np.uint8).num)
                 for b in host[:2]]
        self.check_bytes()
        profile = self.m.profile.name
        acl_lab.reset(profile)
        for v in views:
            v[:] = 0x5A                      # the old process's memory: mapped, harmless
        assert acl_lab.snapshot()["allocations"] == [] and acl_lab.snapshot()["touched_bytes"] == 0
        self.fresh_model(profile)
        self.call(self.m.init, self.acl.init)
        self.call(self.m.set_device, self.acl.rt.set_device, 0)
        STATS["resets with live views"] += 1

    # ----- pyACL's argument parsing and last-error calls --------------------------------------
    @rule(data=st.data(), wrong=st.sampled_from(["0", 1.5, None, [1], b"\x00"]))
    def wrong_type(self, data, wrong):
        """pyACL parses arguments before anything runs: a wrong type is a TypeError, and
        nothing changes."""
        rt, mdl = self.acl.rt, self.acl.mdl
        ptr, sh = (max(0, min(x, (1 << 64) - 1)) for x in (self.draw_ptr(data),
                                                            self.draw_stream(data)))
        calls = [(rt.set_device, (wrong,)), (rt.malloc, (wrong, 0)), (rt.malloc, (64, wrong)),
                 (rt.free, (wrong,)), (rt.free_host, (wrong,)),
                 (rt.memcpy, (ptr, 64, ptr, 64, wrong)), (rt.memset_async, (ptr, 8, 0, 8, wrong)),
                 (rt.get_mem_info, (wrong,)), (rt.record_event, (wrong, sh)),
                 (rt.create_context, (wrong,)), (rt.synchronize_stream, (wrong,)),
                 (mdl.ri_capture_begin, (sh, wrong)), (mdl.ri_execute, (wrong, -1)),
                 (self.acl.util.numpy_to_ptr, (wrong,))]
        fn, args = data.draw(st.sampled_from(calls))
        before = acl_lab.snapshot()
        with pytest.raises(TypeError):
            fn(*args)
        STATS["type errors"] += 1
        assert acl_lab.snapshot() == before

    @rule(level=st.sampled_from([C.ACL_RT_THREAD_LEVEL, C.ACL_RT_THREAD_LEVEL, 1]))
    def last_error(self, level):
        """A failure is kept by peek and handed out once by get, per thread."""
        ret = self.acl.rt.malloc(0, 0)[1]           # size 0: ACL_ERROR_INVALID_PARAM
        assert ret == C.ACL_ERROR_INVALID_PARAM
        if level != C.ACL_RT_THREAD_LEVEL:
            assert self.acl.rt.peek_at_last_error(level) == C.ACL_ERROR_INVALID_PARAM
            assert self.acl.rt.get_last_error(level) == C.ACL_ERROR_INVALID_PARAM
            return
        assert self.acl.rt.peek_at_last_error(level) == ret
        assert self.acl.rt.get_last_error(level) == ret
        assert self.acl.rt.get_last_error(level) == self.acl.rt.peek_at_last_error(level) == 0
