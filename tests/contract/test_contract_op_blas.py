"""acl.op's further calls and acl.blas (issue 31).

Compared: return codes, the values an operator or a GEMM computes, the shapes shape
inference writes. The operator models are compiled by acl-lab atc --singleop (a device needs
models its own ATC compiled: on ``--backend ascend`` those tests are skipped). BLAS runs the
single operator GEMM, as hicann/ge's acl_cblas does.
"""
from pathlib import Path

import numpy as np
import pytest

from acl_lab import constants as C
from kernelhelpers import compile_ops, elf_object, from_device, gemm_op, tensor, to_device

F16, F32 = C.ACL_FLOAT16, C.ACL_FLOAT
ADD = {"op": "Add", "input_desc": [tensor([2, 3], "float"), tensor([2, 3], "float")],
       "output_desc": [tensor([2, 3], "float")]}
CAST = {"op": "Cast", "input_desc": [tensor([4], "float")], "output_desc": [tensor([4])],
        "attr": [{"name": "truncate", "type": "bool", "value": False},
                 {"name": "dst_type", "type": "int", "value": F16}]}


@pytest.fixture
def models(acl, target, tmp_path):
    if target[0] == "ascend":
        pytest.skip("a device needs operator models its own ATC compiled")
    folder = compile_ops(tmp_path, ADD, CAST, gemm_op(4, 2, 3),
                         gemm_op(4, 2, 3, trans_a=True, trans_b=True),
                         gemm_op(4, 1, 3), gemm_op(4, 2, 3, "int8", "int32"))
    for model in sorted(Path(folder).iterdir()):      # (a model folder is set once a process)
        data = model.read_bytes()
        assert acl.op.load(acl.util.bytes_to_ptr(data), len(data)) == 0
    return folder


def _scalar(acl, value, dtype) -> int:
    return to_device(acl, np.array([value], dtype), size=4)


def test_an_operator_model_loaded_from_memory(acl, target, tmp_path, refused):
    if target[0] == "ascend":
        pytest.skip("a device needs operator models its own ATC compiled")
    folder = compile_ops(tmp_path, ADD)
    data = next(Path(folder).iterdir()).read_bytes()
    assert acl.op.load(acl.util.bytes_to_ptr(data), len(data)) == 0
    refused(acl.op.load(acl.util.bytes_to_ptr(b"not a model"), 11), C.ACL_ERROR_PARSE_MODEL)
    refused(acl.op.load(0, 10), C.ACL_ERROR_INVALID_PARAM)
    a = np.ones((2, 3), np.float32)
    desc = acl.create_tensor_desc(F32, [2, 3], C.ACL_FORMAT_ND)
    x, y = to_device(acl, a), to_device(acl, 2 * a)
    out = to_device(acl, np.zeros((2, 3), np.float32))
    bufs = [acl.create_data_buffer(p, 24) for p in (x, y, out)]
    stream, _ = acl.rt.create_stream()
    assert acl.op.execute("Add", [desc, desc], bufs[:2], [desc], bufs[2:], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, out, (2, 3), np.float32).tolist() == (3 * a).tolist()


def test_a_cast_handle(acl, models, refused):
    src = acl.create_tensor_desc(F32, [4], C.ACL_FORMAT_ND)
    dst = acl.create_tensor_desc(F16, [4], C.ACL_FORMAT_ND)
    handle, ret = acl.op.create_handle_for_cast(src, dst, 0)
    assert ret == 0 and handle
    x = to_device(acl, np.array([1.5, 2.5, -1, 8], np.float32))
    y = to_device(acl, np.zeros(4, np.float16))
    stream, _ = acl.rt.create_stream()
    assert acl.op.execute_with_handle(handle, [acl.create_data_buffer(x, 16)],
                                      [acl.create_data_buffer(y, 8)], stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, y, 4, np.float16).tolist() == [1.5, 2.5, -1.0, 8.0]
    other = acl.create_tensor_desc(F32, [5], C.ACL_FORMAT_ND)
    refused(acl.op.create_handle_for_cast(other, dst, 0)[1], C.ACL_ERROR_OP_NOT_FOUND)


def test_more_attribute_setters(acl, refused):
    attr = acl.op.create_attr()
    assert acl.op.set_attr_list_list_int(attr, "pads", [[1, 2], [3, 4, 5]]) == 0
    assert acl.op.set_attr_data_type(attr, "dtype", F16) == (attr, 0)
    assert acl.op.set_attr_list_data_type(attr, "dtypes", [F16, F32]) == (attr, 0)
    refused(acl.op.set_attr_list_list_int(0, "pads", [[1]]), C.ACL_ERROR_INVALID_PARAM)
    with pytest.raises(TypeError):
        acl.op.set_attr_list_data_type(attr, "dtypes", [1.5])
    acl.op.destroy_attr(attr)


def test_shape_inference_writes_the_output_shapes(acl, refused):
    a = acl.create_tensor_desc(F32, [2, 3], C.ACL_FORMAT_ND)
    b = acl.create_tensor_desc(F32, [3], C.ACL_FORMAT_ND)
    out = acl.create_tensor_desc(F32, [1], C.ACL_FORMAT_ND)
    assert acl.op.infer_shape("Add", [a, b], [0, 0], 1, [out], 0) == 0
    assert acl.get_tensor_desc_num_dims(out) == 2
    assert [acl.get_tensor_desc_dim_v2(out, i)[0] for i in range(2)] == [2, 3]
    m = acl.create_tensor_desc(F32, [3, 5], C.ACL_FORMAT_ND)
    assert acl.op.infer_shape("MatMul", [a, m], [0, 0], 1, [out], 0) == 0
    assert [acl.get_tensor_desc_dim_v2(out, i)[0] for i in range(2)] == [2, 5]
    refused(acl.op.infer_shape("NoSuchOp", [a], [0], 1, [out], 0), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.op.infer_shape("Add", [a, b], [0, 0], 2, [out], 0), C.ACL_ERROR_INVALID_PARAM)
    wrong = acl.create_tensor_desc(F32, [4, 5], C.ACL_FORMAT_ND)
    refused(acl.op.infer_shape("MatMul", [a, wrong], [0, 0], 1, [out], 0), C.ACL_ERROR_GE_FAILURE)


def test_dump_of_operator_information(acl, tmp_path, refused):
    folder = tmp_path / "op_info"
    assert acl.op.start_dump_args(C.ACL_OP_DUMP_OP_AICORE_ARGS, str(folder)) == 0
    refused(acl.op.start_dump_args(C.ACL_OP_DUMP_OP_AICORE_ARGS, str(folder)),
            C.ACL_ERROR_FAILURE)
    assert acl.op.stop_dump_args(C.ACL_OP_DUMP_OP_AICORE_ARGS) == 0
    assert acl.op.stop_dump_args(C.ACL_OP_DUMP_OP_AICORE_ARGS) == 0     # stopped: fine
    refused(acl.op.start_dump_args(0, str(folder)), C.ACL_ERROR_FAILURE)
    (tmp_path / "a_file").write_text("x")
    refused(acl.op.start_dump_args(1, str(tmp_path / "a_file")), C.ACL_ERROR_FAILURE)
    assert acl.op.set_max_op_queue_num(64) == 0
    refused(acl.op.set_max_op_queue_num(0), C.ACL_ERROR_INVALID_PARAM)


def test_a_custom_operator_built_from_a_kernel(acl, target, refused):
    if target[0] == "ascend":
        pytest.skip("a device registers only kernels built for it")
    desc = acl.create_tensor_desc(F32, [4], C.ACL_FORMAT_ND)
    seen = []

    def compile_func(num_inputs, inputs, num_outputs, outputs, attr, kernel_desc):
        seen.append((num_inputs, num_outputs))
        args = np.zeros(4, np.uint64)
        acl.op.set_kernel_args(kernel_desc, "kid", 8, acl.util.numpy_to_ptr(args), 32)
        sizes = np.array([1024], np.uint64)
        acl.op.set_kernel_workspace_sizes(kernel_desc, 1, acl.util.numpy_to_ptr(sizes))

    refused(acl.op.update_params("MyAdd", [desc], [desc], 0),
            C.ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED)
    assert acl.op.register_compile_func("MyAdd", compile_func) == 0
    refused(acl.op.register_compile_func("MyAdd", compile_func),
            C.ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED)
    refused(acl.op.update_params("MyAdd", [desc], [desc], 0), C.ACL_ERROR_KERNEL_NOT_FOUND)
    binary = elf_object(["my_add_kernel"])
    ptr = acl.util.bytes_to_ptr(binary)
    refused(acl.op.create_kernel("MyAdd", "kid", "my_add_kernel", ptr, len(binary), 0, 0),
            C.ACL_ERROR_INVALID_PARAM)                     # ACL_ENGINE_SYS
    assert acl.op.create_kernel("MyAdd", "kid", "my_add_kernel", ptr, len(binary),
                                C.ACL_ENGINE_AICORE, 0) == 0
    refused(acl.op.create_kernel("MyAdd", "kid", "my_add_kernel", ptr, len(binary),
                                 C.ACL_ENGINE_AICORE, 0), C.ACL_ERROR_KERNEL_ALREADY_REGISTERED)
    assert acl.op.update_params("MyAdd", [desc], [desc], 0) == 0
    assert seen == [(1, 1), (1, 1)]
    dev = to_device(acl, np.zeros(4, np.float32))
    buf = acl.create_data_buffer(dev, 16)
    stream, _ = acl.rt.create_stream()
    refused(acl.op.execute_v2("MyAdd", [desc], [buf], [desc], [buf], 0, stream),
            C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)            # its kernel needs an AI Core
    refused(acl.op.set_kernel_args(0xBAD, "kid", 1, ptr, 8), C.ACL_ERROR_INVALID_PARAM)
    assert acl.op.unregister_compile_func("MyAdd") == 0
    assert acl.op.unregister_compile_func("MyAdd") == 0


def test_gemm_and_gemv_compute_on_their_stream(acl, models, refused):
    a = np.arange(12, dtype=np.float16).reshape(4, 3)
    b = np.ones((3, 2), np.float16)
    c = np.ones((4, 2), np.float16)
    pa, pb, pc = to_device(acl, a), to_device(acl, b), to_device(acl, c)
    alpha, beta = _scalar(acl, 2, np.float16), _scalar(acl, 1, np.float16)
    stream, _ = acl.rt.create_stream()
    assert acl.blas.gemm_ex(C.ACL_TRANS_N, C.ACL_TRANS_N, C.ACL_TRANS_N, 4, 2, 3, alpha, pa, -1,
                            F16, pb, -1, F16, beta, pc, -1, F16,
                            C.ACL_COMPUTE_HIGH_PRECISION, stream) == 0
    assert from_device(acl, pc, (4, 2), np.float16).tolist() == c.tolist()    # queued
    assert acl.rt.synchronize_stream(stream) == 0
    expected = 2 * a.astype(np.float32) @ b + 1
    assert from_device(acl, pc, (4, 2), np.float16).tolist() == expected.tolist()
    at, bt = to_device(acl, np.ascontiguousarray(a.T)), to_device(acl, np.ones((2, 3), np.float16))
    pc2 = to_device(acl, c)
    assert acl.blas.hgemm(C.ACL_TRANS_T, C.ACL_TRANS_T, C.ACL_TRANS_N, 4, 2, 3, alpha, at, -1,
                          bt, -1, beta, pc2, -1, 0, stream) == 0
    x, y = to_device(acl, np.ones(3, np.float16)), to_device(acl, np.zeros(4, np.float16))
    assert acl.blas.hgemv(C.ACL_TRANS_N, 4, 3, alpha, pa, -1, x, -1, beta, y, -1, 0,
                          stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, pc2, (4, 2), np.float16).tolist() == expected.tolist()
    assert from_device(acl, y, 4, np.float16).tolist() == (2 * a.astype(np.float32).sum(1)
                                                            ).tolist()
    i8a = to_device(acl, np.full((4, 3), 2, np.int8))
    i8b = to_device(acl, np.full((3, 2), 3, np.int8))
    i32c = to_device(acl, np.zeros((4, 2), np.int32))
    one, zero = _scalar(acl, 1, np.int32), _scalar(acl, 0, np.int32)
    assert acl.blas.s8gemm(0, 0, 0, 4, 2, 3, one, i8a, -1, i8b, -1, zero, i32c, -1, 0,
                           stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert from_device(acl, i32c, (4, 2), np.int32).tolist() == [[18, 18]] * 4


def test_gemm_arguments_are_checked_as_acl_cblas_checks_them(acl, models, refused):
    stream, _ = acl.rt.create_stream()
    p = to_device(acl, np.zeros(64, np.float16))
    good = dict(m=4, n=2, k=3, lda=-1, trans_c=C.ACL_TRANS_N, compute=0, alpha=p)

    def gemm(**change):
        v = {**good, **change}
        return acl.blas.hgemm(0, 0, v["trans_c"], v["m"], v["n"], v["k"], v["alpha"], p,
                              v["lda"], p, -1, p, p, -1, v["compute"], stream)
    for change in ({"m": 0}, {"lda": 3}, {"trans_c": C.ACL_TRANS_T}, {"compute": 1},
                   {"alpha": 0}):
        refused(gemm(**change), C.ACL_ERROR_INVALID_PARAM)
    refused(gemm(m=5), C.ACL_ERROR_OP_NOT_FOUND)       # no GEMM model of that shape
    refused(acl.blas.create_handle_for_hgemm(0, 0, 0, 4, 2, -1, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    handle, ret = acl.blas.create_handle_for_s8gemm(0, 0, 0, 4, 2, 3, 0)
    assert ret == 0 and handle
    assert acl.blas.create_handle_for_gemv_ex(0, 4, 3, F16, F16, F16, 0)[1] == 0
    assert acl.blas.create_handle_for_hgemv(0, 4, 3, 0)[1] == 0
    refused(acl.blas.create_handle_for_s8gemv(0, 4, 3, 0)[1], C.ACL_ERROR_OP_NOT_FOUND)
    refused(acl.blas.create_handle_for_gemm_ex(0, 0, 0, 4, 2, 3, F32, F32, F32, 0)[1],
            C.ACL_ERROR_OP_NOT_FOUND)
    refused(acl.blas.s8gemv(0, 4, 3, p, p, -1, p, -1, p, p, -1, 0, stream),
            C.ACL_ERROR_OP_NOT_FOUND)
    refused(acl.blas.gemv_ex(0, 4, 3, p, p, -1, F16, p, -1, F16, p, p, 1, F16, 0, stream),
            C.ACL_ERROR_INVALID_PARAM)                 # incy
