"""The sandbox promise, input by input, each in its own Python process.

Every dangerous input a learner can type (issue 10) runs in a fresh interpreter with a
host-RAM budget of 512 MiB (ACL_LAB_HOST_RAM), as in a 2 GB Binder pod. The test asserts
the process exits normally (no signal: no segfault, no OOM kill), that the input got the
answer the sandbox promises (a return code, SimulatorLimit, a clear TypeError/ValueError),
that snapshot() still adds up and the next calls work, and that the child's peak RSS (its
VmHWM; os.wait4's ru_maxrss if it died first) stays under budget + 300 MiB. A watchdog
kills a child whose RSS passes 2 GiB, so a regression fails this test instead of the
machine.

    ACL_LAB_CRASH_REPORT=1 pytest tests/sandbox -s    # prints the table of inputs and figures
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

BUDGET_MIB = 512
HEADROOM_MIB = 300
WATCHDOG_MIB = 2048
REPORT = []

PRELUDE = """
import math, sys, threading
import numpy as np
import acl_lab
from acl_lab import SimulatorLimit, AclLabError
from acl_lab import constants as C
GiB, MiB = 1 << 30, 1 << 20
acl = acl_lab.load()
assert acl.init() == 0 and acl.rt.set_device(0) == 0
stream, _ = acl.rt.create_stream()

def outcome(kind):
    print("OUTCOME", kind, flush=True)

def refused_by_limit(fn, *args):
    try:
        fn(*args)
    except SimulatorLimit as e:
        assert "budget" in str(e) or "address space" in str(e) or "ran out" in str(e), e
        return True
    return False

def tensor(ptr, shape, strides, offset=0, storage=None, dtype=C.ACL_UINT8):
    storage = storage if storage is not None else shape
    return acl.nn.create_tensor(shape, dtype, strides, offset, C.ACL_FORMAT_ND, storage, ptr)
"""

EPILOGUE = """
snap = acl_lab.snapshot()
for p in snap["pools"]:
    ours = [a for a in snap["allocations"] if a["pool"] == p["label"]]
    assert p["used"] == sum(a["occupied"] for a in ours), p
for s in snap["streams"]:
    assert s["issued"] == s["executed"] + s["pending"], s
assert snap["touched_bytes"] <= """ + str(BUDGET_MIB << 20) + """, snap["touched_bytes"]
assert acl.rt.synchronize_stream(stream) == 0
h, ret = acl.rt.malloc_host(4096)
assert ret == 0 and acl.rt.memset(h, 4096, 5, 4096) == 0
assert acl.util.ptr_to_bytes(h, 4) == b"\\x05" * 4
print("NEXT CALLS WORK", flush=True)
with open("/proc/self/status") as f:      # this process's own peak, since exec
    print("PEAK_RSS_MIB", next(int(l.split()[1]) for l in f if l.startswith("VmHWM:")) / 1024)
"""

CASES = {
    # 1. negative strides: a reversed view would walk before its buffer
    "reversed_tensor_view": ("refused", """
        buf, _ = acl.rt.malloc(32, 0)
        src, _ = acl.rt.malloc(32, 0)
        t = tensor(buf, [8], [-1], offset=7, storage=[32])
        assert t == 0 and "negative" in acl.get_recent_err_msg()
        outcome("refused")
    """),
    "reversed_view_mid_pool": ("refused", """
        a, _ = acl.rt.malloc(64, 0)
        b, _ = acl.rt.malloc(64, 0)
        assert acl.rt.memset(a, 64, 1, 64) == 0
        for strides, offset in (([-1], 63), ([1], -5), ([-4], 3)):
            assert tensor(b, [64], strides, offset, [64]) == 0
        far = tensor(b, [64], [1], 1 << 40, [64])        # offset far past the buffer
        src = tensor(a, [64], [1])
        ws, ex, ret = acl.nn.inplace_copy_get_workspace_size(far, src)
        assert ret == C.ACLNN_ERR_PARAM_INVALID
        outcome("refused")
    """),
    "huge_view_dims": ("refused", """
        a, _ = acl.rt.malloc(256, 0)
        t = tensor(a, [1 << 62, 1 << 62], [1, 1], 0, [256])
        out = tensor(a, [1 << 62, 1 << 62], [1, 1], 0, [256])
        ws, ex, ret = acl.nn.add_get_workspace_size(t, t, acl.nn.create_scalar(1.0, C.ACL_FLOAT), out)
        assert ret == C.ACLNN_ERR_PARAM_INVALID, ret
        outcome("refused")
    """),
    # 3. a stride-0 tensor: few bytes, 2**29 elements to compute
    "stride0_tensor_2e29": ("limit", """
        a, _ = acl.rt.malloc(256, 0)
        t = tensor(a, [1 << 29], [0], 0, [64], C.ACL_FLOAT)
        alpha = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
        assert refused_by_limit(acl.nn.add_get_workspace_size, t, t, alpha, t)
        outcome("limit")
    """),
    "queued_operator_keeps_its_work_memory": ("limit", """
        # an operator's working memory is promised from its launch until it runs (it was
        # only checked at launch: a memset could take the same RAM before the sync)
        a, _ = acl.rt.malloc(256, 0)
        t = tensor(a, [300 * MiB // 24], [0], 0, [64], C.ACL_FLOAT)
        alpha = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
        ws, ex, ret = acl.nn.add_get_workspace_size(t, t, alpha, t)
        assert ret == 0, acl.get_recent_err_msg()
        assert acl.nn.add(0, 0, ex, stream) == 0
        big, _ = acl.rt.malloc(300 * MiB, 0)
        assert refused_by_limit(acl.rt.memset, big, 300 * MiB, 1, 300 * MiB)
        assert acl.rt.synchronize_stream(stream) == 0
        assert acl.rt.memset(big, 300 * MiB, 1, 300 * MiB) == 0
        outcome("limit")
    """),
    "replay_over_budget_runs_whole_or_not": ("limit", """
        # a replay the budget stops runs nothing (it stopped half way: A += B kept, and the
        # retry added B again)
        A, _ = acl.rt.malloc(64, 0)
        B, _ = acl.rt.malloc(64, 0)
        assert acl.rt.memset(A, 64, 0, 64) == 0
        ones = np.ones(16, np.float32)
        assert acl.rt.memcpy(B, 64, acl.util.numpy_to_ptr(ones), 64, 1) == 0
        ta, tb = (tensor(p, [16], [1], 0, [16], C.ACL_FLOAT) for p in (A, B))
        alpha = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
        big, _ = acl.rt.malloc(300 * MiB, 0)
        s2, _ = acl.rt.create_stream()
        assert acl.mdl.ri_capture_begin(s2, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
        ws, ex, ret = acl.nn.add_get_workspace_size(ta, tb, alpha, ta)
        assert ret == 0 and acl.nn.add(0, 0, ex, s2) == 0
        assert acl.rt.memset_async(big, 300 * MiB, 1, 300 * MiB, s2) == 0
        model, ret = acl.mdl.ri_capture_end(s2)
        assert ret == 0
        filler, _ = acl.rt.malloc(300 * MiB, 0)
        assert acl.rt.memset(filler, 300 * MiB, 2, 300 * MiB) == 0
        assert refused_by_limit(acl.mdl.ri_execute, model, -1)
        assert refused_by_limit(acl.mdl.ri_execute_async, model, s2)
        assert acl.rt.free(filler) == 0
        assert acl.mdl.ri_execute(model, -1) == 0
        out = np.zeros(16, np.float32)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 64, A, 64, 2) == 0
        assert out.tolist() == [1.0] * 16, out
        outcome("limit")
    """),
    # 2. ptr_to_numpy with negative / overflowing dimensions
    "ptr_to_numpy_negative_shape": ("valueerror", """
        h, _ = acl.rt.malloc_host(64)
        for shape in ((-1,), (4, -1), (1 << 63,)):
            try:
                acl.util.ptr_to_numpy(h, shape, np.dtype(np.uint8).num)
            except ValueError:
                pass
            else:
                raise AssertionError(shape)
        outcome("valueerror")
    """),
    "ptr_to_numpy_int64_overflow": ("refused", """
        h, _ = acl.rt.malloc_host(64)
        try:
            acl.util.ptr_to_numpy(h, (1 << 40, 1 << 40), np.dtype(np.float64).num)
        except AclLabError as e:
            assert "past the end" in str(e), e
        outcome("refused")
    """),
    "ptr_to_bytes_negative": ("valueerror", """
        h, _ = acl.rt.malloc_host(64)
        try:
            acl.util.ptr_to_bytes(h, -1)
        except ValueError:
            outcome("valueerror")
    """),
    "numpy_to_ptr_object_array": ("typeerror", """
        try:
            acl.util.numpy_to_ptr(np.array([object(), 1], dtype=object))
        except TypeError:
            outcome("typeerror")
    """),
    "negative_byte_counts": ("refused", """
        d, _ = acl.rt.malloc(64, 0)
        h, _ = acl.rt.malloc_host(64)
        assert acl.rt.memset(d, 64, 0, -1) == C.ACL_ERROR_INVALID_PARAM
        assert acl.rt.memcpy(d, 64, h, -64, C.ACL_MEMCPY_HOST_TO_DEVICE) == C.ACL_ERROR_INVALID_PARAM
        assert acl.rt.malloc(-1, 0)[1] == C.ACL_ERROR_INVALID_PARAM
        assert acl.rt.memcpy2d(d, 8, h, 8, 8, -1, 1) == C.ACL_ERROR_INVALID_PARAM
        outcome("refused")
    """),
    # 3. host RAM: big buffers touched in full
    "memset_8GiB": ("limit", """
        d, ret = acl.rt.malloc(8 * GiB, 0)
        assert ret == 0
        before = acl_lab.snapshot()
        assert refused_by_limit(acl.rt.memset, d, 8 * GiB, 0, 8 * GiB)
        assert acl_lab.snapshot() == before         # changed nothing, the clock included
        assert acl.rt.memset(d, 8 * GiB, 1, 64 * MiB) == 0
        outcome("limit")
    """),
    "memcpy_d2d_4GiB": ("limit", """
        a, _ = acl.rt.malloc(4 * GiB, 0)
        b, _ = acl.rt.malloc(4 * GiB, 0)
        assert refused_by_limit(acl.rt.memcpy, b, 4 * GiB, a, 4 * GiB, C.ACL_MEMCPY_DEVICE_TO_DEVICE)
        # under the budget, a copy from untouched memory keeps only its destination
        assert acl.rt.memcpy(b, 4 * GiB, a, 200 * MiB, C.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
        assert acl_lab.snapshot()["touched_bytes"] <= 201 * MiB
        outcome("limit")
    """),
    "memcpy_async_over_budget": ("limit", """
        a, _ = acl.rt.malloc(1 * GiB, 0)
        h, _ = acl.rt.malloc_host(400 * MiB)
        assert acl.rt.memset_async(a, GiB, 1, 300 * MiB, stream) == 0
        assert refused_by_limit(acl.rt.memcpy_async, h, 400 * MiB, a, 300 * MiB,
                                C.ACL_MEMCPY_DEVICE_TO_HOST, stream)
        assert acl.rt.synchronize_stream(stream) == 0
        outcome("limit")
    """),
    "malloc_host_beyond_the_host": ("refused", """
        # pinned host memory is real host RAM: more than the simulated host's RAM (the
        # budget) is ACL_ERROR_RT_MEMORY_ALLOCATION, as NpuDriver::HostMemAlloc answers
        h, ret = acl.rt.malloc_host(3 * GiB)
        assert ret == C.ACL_ERROR_RT_MEMORY_ALLOCATION and h == 0, ret
        assert "pinned host memory is real host RAM" in acl.get_recent_err_msg()
        outcome("refused")
    """),
    "ptr_to_numpy_400MiB_host": ("limit", """
        h, ret = acl.rt.malloc_host(400 * MiB)
        assert ret == 0
        d, _ = acl.rt.malloc(300 * MiB, 0)
        assert acl.rt.memset(d, 300 * MiB, 0, 300 * MiB) == 0
        assert refused_by_limit(acl.util.ptr_to_numpy, h, (400 * MiB,), np.dtype(np.uint8).num)
        v = acl.util.ptr_to_numpy(h, (100 * MiB,), np.dtype(np.uint8).num)
        v[:] = 3
        outcome("limit")
    """),
    "ptr_to_bytes_400MiB_host": ("limit", """
        h, ret = acl.rt.malloc_host(400 * MiB)
        assert ret == 0
        assert refused_by_limit(acl.util.ptr_to_bytes, h, 400 * MiB)
        outcome("limit")
    """),
    "memcpy2d_huge": ("limit", """
        a, _ = acl.rt.malloc(2 * GiB, 0)
        h, _ = acl.rt.malloc_host(400 * MiB)
        assert refused_by_limit(acl.rt.memcpy2d, a, 1 << 20, h, 1 << 20, 1 << 20, 400,
                                C.ACL_MEMCPY_HOST_TO_DEVICE)
        outcome("limit")
    """),
    "memcpy2d_interleaved_rows": ("ok", """
        # rows of one block copied onto the rows between them: numpy saw operands that may
        # overlap and copied through a temporary as big as the copy (~128 MiB here)
        import resource
        d, _ = acl.rt.malloc(256 * MiB, 0)
        assert acl.rt.memset(d, 256 * MiB, 7, 256 * MiB) == 0
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        w = 4096
        h = 256 * MiB // (2 * w) - 1
        assert acl.rt.memcpy2d_async(d, 2 * w, d + w, 2 * w, w, h,
                                     C.ACL_MEMCPY_DEVICE_TO_DEVICE, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        assert grown < 32, grown
        outcome("ok")
    """),
    # 4. leaks: resets and bytes objects must not pile up
    "reset_releases_ram": ("ok", """
        import resource
        for i in range(6):
            acl_lab.reset()
            assert acl.init() == 0 and acl.rt.set_device(0) == 0
            d, _ = acl.rt.malloc(400 * MiB, 0)
            assert acl.rt.memset(d, 400 * MiB, i, 400 * MiB) == 0
        stream, _ = acl.rt.create_stream()
        outcome("ok")
    """),
    "bytes_to_ptr_many": ("ok", """
        h, _ = acl.rt.malloc_host(1 * MiB)
        for i in range(4000):
            data = bytes(1 * MiB)
            assert acl.rt.memcpy(acl.util.bytes_to_ptr(data), MiB, h, MiB, 0) == 0
        live = [a for a in acl_lab.snapshot()["allocations"] if a["api"] == "bytes"]
        assert len(live) < 200, len(live)
        outcome("ok")
    """),
    "bytes_to_ptr_big_temporaries": ("ok", """
        # 60 dropped 32 MiB objects: the newest kept alive are bounded in bytes, not only
        # in number (64 of them were kept: 2 GiB)
        h, _ = acl.rt.malloc_host(32 * MiB)
        for i in range(60):
            data = bytes([i]) * (32 * MiB)
            assert acl.rt.memcpy(h, 32 * MiB, acl.util.bytes_to_ptr(data), 32 * MiB, 0) == 0
            del data
        outcome("ok")
    """),
    # 5. use after free and reset with a live view
    "view_outlives_free_and_reset": ("ok", """
        h, _ = acl.rt.malloc_host(1 * MiB)
        v = acl.util.ptr_to_numpy(h, (MiB,), np.dtype(np.uint8).num)
        assert acl.rt.free_host(h) == 0
        v[:] = 1
        acl_lab.reset()
        v[:] = 2                       # the old process's memory: still mapped, no crash
        assert int(v.sum()) == 2 * MiB
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        outcome("ok")
    """),
    "views_written_after_free": ("limit", """
        # a learner frees pinned memory and keeps writing through its ptr_to_numpy view:
        # those pages count against the budget while the view lives (they were uncounted:
        # 30 x 64 MiB of views kept past free_host grew RSS to ~2 GiB)
        views = []
        def one():
            h, ret = acl.rt.malloc_host(64 * MiB)
            if ret:      # the pinned memory itself no longer fits: the host's answer
                assert ret == C.ACL_ERROR_RT_MEMORY_ALLOCATION, ret
                return False
            v = acl.util.ptr_to_numpy(h, (64 * MiB,), np.dtype(np.uint8).num)
            assert acl.rt.free_host(h) == 0
            v[:] = 1
            views.append(v)
            return True
        while len(views) < 30:
            try:
                if not one():
                    break
            except SimulatorLimit:
                break
        assert 0 < len(views) < 30
        assert np.asarray(views[0].base).nbytes == 64 * MiB      # not the 64 GiB pool
        views.clear()
        assert acl.rt.malloc_host(64 * MiB)[1] == 0
        outcome("limit")
    """),
    "view_written_after_reset": ("limit", """
        views = []
        def one():
            h, ret = acl.rt.malloc_host(64 * MiB)
            if ret:      # the pinned memory itself no longer fits: the host's answer
                assert ret == C.ACL_ERROR_RT_MEMORY_ALLOCATION, ret
                return False
            v = acl.util.ptr_to_numpy(h, (64 * MiB,), np.dtype(np.uint8).num)
            acl_lab.reset()
            assert acl.init() == 0 and acl.rt.set_device(0) == 0
            v[:] = 2
            views.append(v)
            return True
        while len(views) < 30:
            try:
                if not one():
                    break
            except SimulatorLimit:
                break
        assert len(views) < 30
        views.clear()
        stream, _ = acl.rt.create_stream()
        outcome("limit")
    """),
    # 9. sizes that cannot exist (fourth probe): size_t and int64_t hold
    "tensor_desc_past_size_t": ("refused", """
        # aclGetTensorDescElementCount / Size: 0 when the count or the size overflows size_t
        d = acl.create_tensor_desc(C.ACL_FLOAT, [1 << 62, 1 << 62], C.ACL_FORMAT_ND)
        assert d and acl.get_tensor_desc_size(d) == 0
        assert acl.get_tensor_desc_element_count(d) == 0
        e = acl.create_tensor_desc(C.ACL_FLOAT, [1 << 62], C.ACL_FORMAT_ND)   # 2**64 bytes
        assert acl.get_tensor_desc_element_count(e) == 1 << 62
        assert acl.get_tensor_desc_size(e) == 0
        outcome("refused")
    """),
    "tensor_desc_dims_past_int64": ("refused", """
        assert acl.create_tensor_desc(C.ACL_FLOAT, [1 << 63], C.ACL_FORMAT_ND) == 0
        assert "int64_t" in acl.get_recent_err_msg()
        d = acl.create_tensor_desc(C.ACL_FLOAT, [4], C.ACL_FORMAT_ND)
        assert acl.set_tensor_shape(d, [(1 << 64) - 1]) == C.ACL_ERROR_INVALID_PARAM
        assert acl.get_tensor_desc_dim_v2(d, 0) == (4, 0)       # unchanged
        outcome("refused")
    """),
    "operator_on_impossible_tensors": ("refused", """
        import tempfile, os
        from acl_lab.om.op_model import OpModel, TensorSpec
        ops = tempfile.mkdtemp()
        half = np.ones(2, np.float32)
        for i, t in enumerate(TensorSpec(C.ACL_FLOAT, C.ACL_FORMAT_ND, dims, const)
                              for dims, const in (((1 << 62, 1 << 62), None), ((-3,), None),
                                                  ((4,), half.tobytes()))):   # 8 of 16 B
            out = TensorSpec(t.dtype, t.fmt, t.dims)
            open(os.path.join(ops, f"{i}.om"), "wb").write(OpModel("Abs", (t,), (out,), ()).to_bytes())
        assert acl.op.set_model_dir(ops) == 0
        buf, _ = acl.rt.malloc(64, 0)
        db = acl.create_data_buffer(buf, 64)
        for dims in ([1 << 62, 1 << 62], [-3]):
            d = acl.create_tensor_desc(C.ACL_FLOAT, dims, C.ACL_FORMAT_ND)
            ret = acl.op.execute_v2("Abs", [d], [db], [d], [db], 0, stream)
            assert ret == C.ACL_ERROR_INVALID_PARAM, (dims, ret)
        d = acl.create_tensor_desc(C.ACL_FLOAT, [4], C.ACL_FORMAT_ND)
        o = acl.create_tensor_desc(C.ACL_FLOAT, [4], C.ACL_FORMAT_ND)
        assert acl.set_tensor_const(d, acl.util.numpy_to_ptr(half), 8) == 0   # 8 of 16 B
        assert acl.op.execute_v2("Abs", [d], [db], [o], [db], 0, stream) == \
            C.ACL_ERROR_INVALID_PARAM, acl.get_recent_err_msg()
        assert "constant of 8 B" in acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(stream) == 0
        outcome("refused")
    """),
    # 8a. issue 31: an exception callback that waits, issues and raises; timeouts at their
    # extremes; notifies until the device holds no more
    "exception_callback_misbehaves": ("ok", """
        n, _ = acl.rt.create_notify(0)
        other, _ = acl.rt.create_stream()
        def callback(info):
            assert acl.rt.synchronize_stream(other) == 0       # the docs: may deadlock
            d, _ = acl.rt.malloc(4096, 0)
            acl.rt.memset_async(d, 4096, 1, 4096, other)
            raise RuntimeError("learner bug")
        assert acl.rt.set_exception_info_callback(callback) == 0
        assert acl.rt.wait_and_reset_notify(n, stream, 2**32 - 1) == 0   # 136 years
        assert acl.rt.synchronize_stream(stream) == C.ACL_ERROR_RT_WAIT_TIMEOUT
        assert acl.rt.synchronize_device_with_timeout(2**31 - 1) == 0
        assert acl.rt.set_op_execute_timeout_v2(2**64 - 1)[1] == 0
        made = 0
        while acl.rt.create_notify(0)[1] == 0:
            made += 1
        assert made == 8191, made
        outcome("ok")
    """),
    # 8. threads: snapshot() and the trace table while other threads call
    "snapshot_while_threads_call": ("ok", """
        errors = []
        def worker():
            try:
                acl.rt.set_device(0)
                for _ in range(300):
                    d, _ = acl.rt.malloc(4096, 0)
                    acl.rt.memset(d, 4096, 1, 4096)
                    acl.rt.free(d)
            except BaseException as e:
                errors.append(e)
        ts = [threading.Thread(target=worker) for _ in range(3)]
        for t in ts:
            t.start()
        while any(t.is_alive() for t in ts):
            acl_lab.snapshot()
            repr(acl_lab.tracer().table(50))
        for t in ts:
            t.join()
        assert not errors, errors
        outcome("ok")
    """),
}


def _run(name: str, body: str, extra_env=None, rlimit_as=None, timeout: float = 120,
         cwd=None):
    """Run one case in a child; (exit status, peak RSS MiB, stdout+stderr, seconds). A child
    past ``timeout`` seconds is killed (a hang fails the case)."""
    code = PRELUDE + textwrap.dedent(body) + EPILOGUE
    env = {**os.environ, "ACL_LAB_HOST_RAM": f"{BUDGET_MIB}MiB", "PYTHONFAULTHANDLER": "1",
           **(extra_env or {})}     # extra_env may set the budget itself

    def limits():
        if rlimit_as:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (rlimit_as, rlimit_as))

    return watched([sys.executable, "-c", code], env, cwd, timeout, limits)


def watched(argv, env, cwd=None, timeout: float = 120, preexec=None, stdin=None):
    """Run ``argv`` under the RSS watchdog and ``timeout``: (exit status, peak RSS MiB,
    stdout+stderr, seconds). ``stdin``: text fed to it."""
    with tempfile.TemporaryFile("w+") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env,
                                preexec_fn=preexec, cwd=cwd,
                                stdin=subprocess.PIPE if stdin is not None else None,
                                text=True)
        if stdin is not None:
            proc.stdin.write(stdin)
            proc.stdin.close()
        seen = 0.0            # the child's own high-water mark (VmHWM), as last read
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            seen = max(seen, _status_mib(proc.pid, "VmHWM:"))
            if _rss_mib(proc.pid) > WATCHDOG_MIB or time.monotonic() - t0 > timeout:
                proc.kill()
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        output = out.read()
        # its own high-water mark: ru_maxrss also counts what it shared with this (large)
        # process between fork and exec
        peak = float(output.rsplit("PEAK_RSS_MIB", 1)[1].split()[0]) \
            if "PEAK_RSS_MIB" in output else seen or usage.ru_maxrss / 1024
        return proc.returncode, peak, output, time.monotonic() - t0


def _rss_mib(pid: int) -> float:
    return _status_mib(pid, "VmRSS:")


def _status_mib(pid: int, field: str) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _check(name, expected, rc, peak, output, seconds):
    REPORT.append((name, rc, peak, seconds))
    assert rc >= 0, f"{name}: killed by signal {-rc}\n{output[-3000:]}"
    assert rc == 0, f"{name}: exit status {rc}\n{output[-3000:]}"
    assert f"OUTCOME {expected}" in output, output[-3000:]
    assert "NEXT CALLS WORK" in output, output[-3000:]
    assert peak <= BUDGET_MIB + HEADROOM_MIB, f"{name}: peak RSS {peak:.0f} MiB"


@pytest.mark.parametrize("name", list(CASES))
def test_dangerous_input_leaves_the_process_alive_and_within_budget(name):
    expected, body = CASES[name]
    _check(name, expected, *_run(name, body))


def test_address_space_limit_is_a_simulator_limit_not_an_oserror():
    """Under `ulimit -v` the simulator cannot reserve a 56 GiB pool: SimulatorLimit says so,
    and a profile with smaller pools (the 200 DK board: 4 GiB) works in the same process.
    (A block of 1 MiB or more has a mapping of its own and would work even here.)"""
    body = """
        d, _ = acl.rt.malloc(512 * 1024, 1)       # HUGE_ONLY: in the 56 GiB pool's mapping
        assert refused_by_limit(acl.rt.memset, d, 512 * 1024, 0, 512 * 1024)
        big, _ = acl.rt.malloc(8 * MiB, 0)        # its own 8 MiB mapping: fine
        assert acl.rt.memset(big, MiB, 0, MiB) == 0
        acl_lab.reset("200dk")
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        d, _ = acl.rt.malloc(1 * MiB, 0)
        assert acl.rt.memset(d, MiB, 0, MiB) == 0
        outcome("limit")
    """
    _check("ulimit_v_12GiB", "limit", *_run("ulimit", body, rlimit_as=12 << 30))


#: the simulator's own objects (queued and captured tasks, streams, events) cost host RAM
#: too; a tighter budget keeps these floods short (a 2 GiB pod is killed after ~2 M tasks)
BOOKKEEPING = {
    "memset_async_flood": """
        d, _ = acl.rt.malloc(64, 0)
        n = 0
        while not refused_by_limit(acl.rt.memset_async, d, 64, 1, 64, stream):
            n += 1
        assert n > 50_000, n
        assert acl.rt.synchronize_stream(stream) == 0
        assert acl.rt.memset_async(d, 64, 1, 64, stream) == 0
        outcome("limit")
    """,
    "create_stream_flood": """
        streams = []
        while not refused_by_limit(lambda: streams.append(acl.rt.create_stream()[0])):
            pass
        assert len(streams) > 50_000, len(streams)
        for s in streams:
            assert acl.rt.destroy_stream(s) == 0
        outcome("limit")
    """,
    "create_event_flood": """
        events = []
        while not refused_by_limit(lambda: events.append(acl.rt.create_event()[0])):
            pass
        assert len(events) > 50_000, len(events)
        for e in events:
            assert acl.rt.destroy_event(e) == 0
        outcome("limit")
    """,
    "captured_task_flood": """
        d, _ = acl.rt.malloc(64, 0)
        assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
        n = 0
        while not refused_by_limit(acl.rt.memset_async, d, 64, 1, 64, stream):
            n += 1
        model, ret = acl.mdl.ri_capture_end(stream)
        assert ret == 0 and n > 50_000, (ret, n)
        assert acl.mdl.ri_destroy(model) == 0
        assert acl.rt.memset_async(d, 64, 1, 64, stream) == 0
        outcome("limit")
    """,
    "callbacks_never_processed": """
        # a subscribed thread that never calls process_report: its undelivered reports count
        go = threading.Event()
        t = threading.Thread(target=go.wait, daemon=True)
        t.start()
        assert acl.rt.subscribe_report(t.ident, stream) == 0
        def launch_1000():
            for _ in range(1000):
                assert acl.rt.launch_callback(lambda d: None, None, C.ACL_CALLBACK_NO_BLOCK,
                                              stream) == 0
            assert acl.rt.synchronize_stream(stream) == 0
        rounds = 0
        while not refused_by_limit(launch_1000):
            rounds += 1
        assert rounds > 50, rounds
        go.set()
        t.join()
        acl_lab.reset()
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        outcome("limit")
    """,
    "small_writes_queued_on_one_fresh_chunk": """
        # each 64 B memset_async used to promise its whole 64 KiB chunk again: 2,000 of
        # them asked for 125 MiB of this 128 MiB budget
        d, _ = acl.rt.malloc(MiB // 2, 0)
        for i in range(16384):
            assert acl.rt.memset_async(d + 64 * (i % 1024), 64, i % 256, 64, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        outcome("ok")
    """,
}


@pytest.mark.parametrize("name", list(BOOKKEEPING))
def test_the_simulators_own_objects_meet_the_budget(name):
    body = BOOKKEEPING[name]
    expected = "ok" if name.startswith("small") else "limit"
    _check(name, expected, *_run(name, body, {"ACL_LAB_HOST_RAM": "128MiB"}))


def teardown_module():
    if os.environ.get("ACL_LAB_CRASH_REPORT") and REPORT:
        print(f"\n{'input':34} {'exit':>4} {'peak RSS MiB':>12} {'s':>5}")
        for name, rc, peak, seconds in REPORT:
            print(f"{name:34} {rc:>4} {peak:>12.0f} {seconds:>5.1f}")
        print(f"{len(REPORT)} inputs, {sum(rc < 0 for _, rc, _, _ in REPORT)} killed by a "
              f"signal, max peak RSS {max(p for _, _, p, _ in REPORT):.0f} MiB "
              f"(budget {BUDGET_MIB} MiB + {HEADROOM_MIB} MiB)")
