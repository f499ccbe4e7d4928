"""aclnn operators in acl.nn: the two-phase call (get workspace size + executor, then launch on
a stream), results in float32 and float16, and the codes for arguments aclnn refuses."""
from __future__ import annotations

import numpy as np
import pytest

from acl_lab import constants as C
from simhelpers import read, tensor, write

F32, F16 = C.ACL_FLOAT, C.ACL_FLOAT16
NP = {F32: np.float32, F16: np.float16}
# float16 results are compared with the float32 computation rounded to half precision:
# aclnn may compute in either, which differs by an ulp or two.
RTOL = {F32: 1e-6, F16: 2e-3}
STREAM = 0   # the default stream: operators run on any stream


def upload(acl, array: np.ndarray, dtype: int) -> tuple[int, int]:
    """Device memory holding ``array`` and a contiguous tensor over it: (ptr, tensor)."""
    ptr, ret = acl.rt.malloc(array.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    write(acl, ptr, np.ascontiguousarray(array).tobytes())
    return ptr, tensor(acl, ptr, array.shape, dtype)


def download(acl, ptr: int, shape, dtype: int) -> np.ndarray:
    n = int(np.prod(shape)) * np.dtype(NP[dtype]).itemsize
    return np.frombuffer(read(acl, ptr, n), NP[dtype]).reshape(shape)


def launch(acl, op: str, *handles) -> None:
    """Both phases of ``op`` on the default stream, then wait for it."""
    ws, executor, ret = getattr(acl.nn, f"{op}_get_workspace_size")(*handles)
    assert ret == 0, acl.get_recent_err_msg()
    assert getattr(acl.nn, op)(0, ws, executor, STREAM) == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(STREAM) == 0


def inputs(dtype: int, shape=(4, 2)) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return tuple(rng.uniform(-4, 4, shape).astype(NP[dtype]) for _ in range(2))


# ----- results ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [F32, F16], ids=["float32", "float16"])
def test_add_computes_self_plus_other_times_alpha(acl, dtype):
    x, y = inputs(dtype)
    _, xt = upload(acl, x, dtype)
    _, yt = upload(acl, y, dtype)
    out, ot = upload(acl, np.zeros_like(x), dtype)
    alpha = acl.nn.create_scalar(1.1, dtype)
    launch(acl, "add", xt, yt, alpha, ot)
    expected = x.astype(np.float32) + y.astype(np.float32) * np.float32(NP[dtype](1.1))
    np.testing.assert_allclose(download(acl, out, x.shape, dtype).astype(np.float32), expected,
                               rtol=RTOL[dtype], atol=RTOL[dtype])


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float32", "float16"])
def test_mul_computes_the_elementwise_product(acl, dtype):
    x, y = inputs(dtype)
    _, xt = upload(acl, x, dtype)
    _, yt = upload(acl, y, dtype)
    out, ot = upload(acl, np.zeros_like(x), dtype)
    launch(acl, "mul", xt, yt, ot)
    expected = x.astype(np.float32) * y.astype(np.float32)
    np.testing.assert_allclose(download(acl, out, x.shape, dtype).astype(np.float32), expected,
                               rtol=RTOL[dtype], atol=RTOL[dtype])


@pytest.mark.parametrize("src_dtype, dst_dtype", [(F32, F16), (F16, F32)],
                         ids=["float32->float16", "float16->float32"])
def test_inplace_copy_casts_and_broadcasts_into_self(acl, src_dtype, dst_dtype):
    src = np.array([1.5, -2.25], NP[src_dtype]) / 3          # not exact in float16
    _, st = upload(acl, src, src_dtype)
    dst, dt = upload(acl, np.zeros((4, 2), NP[dst_dtype]), dst_dtype)
    launch(acl, "inplace_copy", dt, st)
    assert np.array_equal(download(acl, dst, (4, 2), dst_dtype),
                          np.broadcast_to(src.astype(NP[dst_dtype]), (4, 2)))


def test_mixed_precision_add_promotes_to_float32_and_broadcasts(acl):
    x = np.arange(8, dtype=np.float16).reshape(4, 2) / 3
    y = np.array([0.1, 10.0], np.float32)
    _, xt = upload(acl, x, F16)
    _, yt = upload(acl, y, F32)
    out, ot = upload(acl, np.zeros((4, 2), np.float32), F32)
    launch(acl, "add", xt, yt, acl.nn.create_scalar(2.0, F32), ot)
    np.testing.assert_allclose(download(acl, out, (4, 2), F32),
                               x.astype(np.float32) + 2 * y, rtol=1e-6)


def test_strided_view_reads_the_elements_its_strides_name(acl):
    """A transposed view (shape [2,4], strides [1,2]) over [4,2] storage reads columns."""
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    ptr, _ = upload(acl, x, F32)
    xt_view = acl.nn.create_tensor([2, 4], F32, [1, 2], 0, C.ACL_FORMAT_ND, [4, 2], ptr)
    _, yt = upload(acl, np.ones((2, 4), np.float32), F32)
    out, ot = upload(acl, np.zeros((2, 4), np.float32), F32)
    launch(acl, "mul", xt_view, yt, ot)
    assert np.array_equal(download(acl, out, (2, 4), F32), x.T)


def test_launch_only_queues_the_result_appears_when_the_stream_is_waited_for(acl):
    x, y = inputs(F32)
    _, xt = upload(acl, x, F32)
    _, yt = upload(acl, y, F32)
    out, ot = upload(acl, np.zeros_like(x), F32)
    stream, _ = acl.rt.create_stream()
    ws, executor, _ = acl.nn.mul_get_workspace_size(xt, yt, ot)
    assert acl.nn.mul(0, ws, executor, stream) == 0
    assert not download(acl, out, x.shape, F32).any()
    assert acl.rt.synchronize_stream(stream) == 0
    assert np.array_equal(download(acl, out, x.shape, F32), x * y)


# ----- refused arguments -----------------------------------------------------------------
@pytest.fixture
def f32_tensors(acl):
    """self, other, out: float32 [4, 2] tensors, and alpha 1.0."""
    x, y = inputs(F32)
    return (upload(acl, x, F32)[1], upload(acl, y, F32)[1],
            upload(acl, np.zeros_like(x), F32)[1], acl.nn.create_scalar(1.0, F32))


def assert_refused(acl, result, code: int, *words: str) -> None:
    ws, executor, ret = result
    assert ret == code and (ws, executor) == (0, 0)
    msg = acl.get_recent_err_msg()
    assert all(w in msg for w in words), msg


def test_output_of_the_wrong_shape_is_param_invalid(acl, f32_tensors):
    xt, yt, _, alpha = f32_tensors
    ptr, _ = upload(acl, np.zeros((2, 4), np.float32), F32)
    wrong = acl.nn.create_tensor([2, 4], F32, [4, 1], 0, C.ACL_FORMAT_ND, [2, 4], ptr)
    assert_refused(acl, acl.nn.add_get_workspace_size(xt, yt, alpha, wrong),
                   C.ACLNN_ERR_PARAM_INVALID, "[2, 4]", "[4, 2]")


def test_inputs_that_do_not_broadcast_are_param_invalid(acl, f32_tensors):
    xt, _, ot, _ = f32_tensors
    _, three = upload(acl, np.ones(3, np.float32), F32)
    assert_refused(acl, acl.nn.mul_get_workspace_size(xt, three, ot),
                   C.ACLNN_ERR_PARAM_INVALID, "broadcast")


def test_strides_reaching_past_the_storage_shape_are_param_invalid(acl, f32_tensors):
    _, yt, ot, _ = f32_tensors
    ptr, _ = upload(acl, np.zeros((4, 2), np.float32), F32)
    overreach = acl.nn.create_tensor([4, 2], F32, [4, 1], 0, C.ACL_FORMAT_ND, [4, 2], ptr)
    assert_refused(acl, acl.nn.mul_get_workspace_size(overreach, yt, ot),
                   C.ACLNN_ERR_PARAM_INVALID, "storage shape")


@pytest.mark.parametrize("dtype", [C.ACL_INT32, C.ACL_BOOL], ids=["int32 out", "bool out"])
def test_float_result_into_an_integer_or_bool_output_is_param_invalid(acl, f32_tensors, dtype):
    xt, yt, _, _ = f32_tensors
    ptr, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    out = tensor(acl, ptr, (4, 2), dtype)
    assert_refused(acl, acl.nn.mul_get_workspace_size(xt, yt, out), C.ACLNN_ERR_PARAM_INVALID,
                   C.DATA_TYPE_NAMES[dtype])


def test_storage_beyond_its_allocation_is_param_invalid(acl, f32_tensors):
    _, yt, ot, _ = f32_tensors
    small, _ = acl.rt.malloc(16, C.ACL_MEM_MALLOC_HUGE_FIRST)     # 4 floats, tensor needs 8
    assert_refused(acl, acl.nn.mul_get_workspace_size(tensor(acl, small, (4, 2), F32), yt, ot),
                   C.ACLNN_ERR_PARAM_INVALID, f"0x{small:x}", "16 B")


def test_tensor_over_host_memory_is_param_invalid(acl, f32_tensors):
    _, yt, ot, _ = f32_tensors
    host, _ = acl.rt.malloc_host(32)
    assert_refused(acl, acl.nn.mul_get_workspace_size(tensor(acl, host, (4, 2), F32), yt, ot),
                   C.ACLNN_ERR_PARAM_INVALID, "host memory")


def test_unknown_tensor_or_scalar_handle_is_nullptr(acl, f32_tensors):
    xt, yt, ot, alpha = f32_tensors
    assert_refused(acl, acl.nn.add_get_workspace_size(0xDEAD, yt, alpha, ot),
                   C.ACLNN_ERR_PARAM_NULLPTR, "0xdead")
    assert_refused(acl, acl.nn.add_get_workspace_size(xt, yt, 0, ot), C.ACLNN_ERR_PARAM_NULLPTR)
    assert acl.nn.destroy_tensor(yt) == 0
    assert_refused(acl, acl.nn.add_get_workspace_size(xt, yt, alpha, ot),
                   C.ACLNN_ERR_PARAM_NULLPTR)


def test_an_executor_runs_once(acl, f32_tensors):
    xt, yt, ot, alpha = f32_tensors
    ws, executor, ret = acl.nn.add_get_workspace_size(xt, yt, alpha, ot)
    assert ret == 0
    assert acl.nn.mul(0, ws, executor, STREAM) == C.ACLNN_ERR_PARAM_NULLPTR   # not Mul's
    assert acl.nn.add(0, ws, executor, STREAM) == 0
    assert acl.nn.add(0, ws, executor, STREAM) == C.ACLNN_ERR_PARAM_NULLPTR
    assert "GetWorkspaceSize again" in acl.get_recent_err_msg()


def test_create_tensor_returns_null_for_impossible_descriptions(acl):
    ptr, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.nn.create_tensor([4, 2], F32, [1], 0, C.ACL_FORMAT_ND, [4, 2], ptr) == 0
    assert "stride" in acl.get_recent_err_msg()
    assert acl.nn.create_tensor([4, 2], F32, [2, 1], 0, C.ACL_FORMAT_ND, [4, 2], 0) == 0
    assert "NULL" in acl.get_recent_err_msg()
