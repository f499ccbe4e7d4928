"""Property: replaying a captured model does exactly what issuing its tasks again would do.

Hypothesis draws task lists (async memset, D2D / H2D / D2H copies between a few buffers,
aclnnAdd / aclnnMul over them). Each list runs eagerly on one set of buffers and, captured
once and replayed, on an identical second set; the bytes must end up equal.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import acl_lab
from acl_lab import constants as C
from simhelpers import fresh, read, tensor, write

DEVICE_BUFFERS, HOST_BUFFERS = 3, 2
BLOCK, BLOCKS = 64, 4             # buffers of 4 blocks; async copies need 64-byte alignment
NBYTES = BLOCK * BLOCKS
FLOATS = NBYTES // 4
H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST,
                 C.ACL_MEMCPY_DEVICE_TO_DEVICE)

device = st.integers(0, DEVICE_BUFFERS - 1)
host = st.integers(0, HOST_BUFFERS - 1)


@st.composite
def spans(draw):
    """(destination block, source block, block count) inside two buffers."""
    n = draw(st.integers(1, BLOCKS))
    return draw(st.integers(0, BLOCKS - n)), draw(st.integers(0, BLOCKS - n)), n


two_devices = st.tuples(device, device).filter(lambda pair: pair[0] != pair[1])
tasks = st.one_of(
    st.tuples(st.just("memset"), device, spans(), st.integers(0, 255)),
    st.tuples(st.just("d2d"), two_devices, spans()),
    st.tuples(st.just("h2d"), st.tuples(device, host), spans()),
    st.tuples(st.just("d2h"), st.tuples(host, device), spans()),
    st.tuples(st.just("add"), st.tuples(device, device, device),
              st.sampled_from([1.0, -0.5, 1.1])),
    st.tuples(st.just("mul"), st.tuples(device, device, device)),
)


class Buffers:
    """Device and pinned host buffers holding the same starting bytes in every set."""

    def __init__(self, acl):
        self.acl = acl
        self.device = [acl.rt.malloc(NBYTES, C.ACL_MEM_MALLOC_HUGE_FIRST)[0]
                       for _ in range(DEVICE_BUFFERS)]
        self.host = [acl.rt.malloc_host(NBYTES)[0] for _ in range(HOST_BUFFERS)]
        self.tensors = [tensor(acl, p, (FLOATS,), C.ACL_FLOAT) for p in self.device]
        rng = np.random.default_rng(3)
        for ptr in self.device + self.host:
            write(acl, ptr, rng.uniform(-2, 2, FLOATS).astype(np.float32).tobytes())

    def contents(self) -> list[bytes]:
        return [read(self.acl, p, NBYTES) for p in self.device + self.host]

    def issue(self, task, stream: int) -> None:
        acl, kind = self.acl, task[0]
        if kind == "memset":
            _, b, (off, _, n), value = task
            ret = acl.rt.memset_async(self.device[b] + off * BLOCK, n * BLOCK, value,
                                      n * BLOCK, stream)
        elif kind in ("d2d", "h2d", "d2h"):
            _, (dst, src), (dst_off, src_off, n) = task
            dsts = self.host if kind == "d2h" else self.device
            srcs = self.host if kind == "h2d" else self.device
            ret = acl.rt.memcpy_async(dsts[dst] + dst_off * BLOCK, n * BLOCK,
                                      srcs[src] + src_off * BLOCK, n * BLOCK,
                                      {"d2d": D2D, "h2d": H2D, "d2h": D2H}[kind], stream)
        else:
            a, b, out = (self.tensors[i] for i in task[1])
            if kind == "add":
                alpha = acl.nn.create_scalar(task[2], C.ACL_FLOAT)
                ws, executor, ret = acl.nn.add_get_workspace_size(a, b, alpha, out)
            else:
                ws, executor, ret = acl.nn.mul_get_workspace_size(a, b, out)
            assert ret == 0, acl.get_recent_err_msg()
            ret = getattr(acl.nn, kind)(0, ws, executor, stream)
        assert ret == 0, acl.get_recent_err_msg()


@settings(max_examples=60, deadline=None)
@given(program=st.lists(tasks, min_size=1, max_size=16), replays=st.integers(1, 3),
       synchronous=st.booleans())
def test_replay_equals_issuing_the_same_tasks_eagerly(program, replays, synchronous):
    acl = fresh()
    stream, _ = acl.rt.create_stream()
    eager, captured = Buffers(acl), Buffers(acl)
    with np.errstate(all="ignore"):       # memset bytes read as floats may overflow
        for _ in range(replays):
            for task in program:
                eager.issue(task, stream)
        assert acl.rt.synchronize_stream(stream) == 0

        before = captured.contents()
        assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
        for task in program:
            captured.issue(task, stream)
        model, ret = acl.mdl.ri_capture_end(stream)
        assert ret == 0
        assert len(acl_lab.snapshot()["models"][0]["tasks"]) == len(program)
        assert captured.contents() == before            # capturing ran nothing
        for _ in range(replays):
            assert (acl.mdl.ri_execute(model, -1) if synchronous
                    else acl.mdl.ri_execute_async(model, stream)) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert captured.contents() == eager.contents()
    acl_lab.reset()
