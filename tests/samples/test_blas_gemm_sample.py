"""The official BLAS sample, Ascend/samples cplusplus/level1_single_api/1_acl/4_blas/gemm, in
the pyACL shape on the simulator (this file's own code, step for step after gemm_main.cpp and
gemm_runner.cpp): its GEMM operator compiled from the sample's gemm.json with acl-lab atc
--singleop, aclopSetModelDir, then aclblasGemmEx on a stream with alpha 2 and beta 1 in
float16. It prints the sample's INFO lines, and C holds 2 * A @ B + C."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from kernelhelpers import compile_ops, gemm_op

M = N = K = 16
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST


@pytest.fixture
def acl():
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    yield acl
    acl_lab.reset()


def test_gemm_sample(acl, tmp_path, capsys):
    models = compile_ops(tmp_path / "test_data" / "config", gemm_op(M, N, K))

    def ok(ret, what):
        assert ret == 0, f"{what}: {ret} {acl.get_recent_err_msg()}"

    def info(text):
        print(f"[INFO]  {text}")

    # InitResource
    ok(acl.init(), "Init acl")
    ok(acl.rt.set_device(0), "Set device")
    info("Set device[0] success")
    run_mode, ret = acl.rt.get_run_mode()
    ok(ret, "Get run mode")
    is_device = run_mode == C.ACL_DEVICE
    ok(acl.op.set_model_dir(models), "Load single op model")
    info("Init resource success")
    # GemmRunner(m, n, k, ACL_FLOAT16, ACL_FLOAT16).Init
    size_a = M * K * acl.data_type_size(C.ACL_FLOAT16)
    size_b = K * N * acl.data_type_size(C.ACL_FLOAT16)
    size_c = M * N * acl.data_type_size(C.ACL_FLOAT16)
    size_scalar = acl.data_type_size(C.ACL_FLOAT16)
    dev = {}
    for name, size in (("a", size_a), ("b", size_b), ("c", size_c), ("alpha", size_scalar),
                       ("beta", size_scalar)):
        dev[name], ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
        ok(ret, f"malloc device memory for {name}")
    host = {}
    for name, size in (("a", size_a), ("b", size_b), ("c", size_c)):
        host[name], ret = (dev[name], 0) if is_device else acl.rt.malloc_host(size)
        ok(ret, f"malloc host memory for {name}")
    info("Init op input success")
    # SetAlpha / SetBeta: aclFloatToFloat16(2.0), (1.0)
    alpha = np.array([acl.float_to_float16(2.0)], np.uint16)
    beta = np.array([acl.float_to_float16(1.0)], np.uint16)
    # PrepareInputs: test_data/data/matrix_{a,b,c}.bin
    rng = np.random.default_rng(7)
    data = {name: rng.integers(-4, 5, (M, N)).astype(np.float16) for name in "abc"}
    for name, matrix in data.items():
        ok(acl.rt.memcpy(host[name], matrix.nbytes, acl.util.numpy_to_ptr(matrix),
                         matrix.nbytes, C.ACL_MEMCPY_HOST_TO_HOST), "ReadFile")
    info("Prepare op input data success")
    # RunOp
    stream, ret = acl.rt.create_stream()
    ok(ret, "Create stream")
    info("Create stream success")
    if not is_device:
        for name, size in (("a", size_a), ("b", size_b), ("c", size_c)):
            ok(acl.rt.memcpy(dev[name], size, host[name], size, H2D), f"Copy matrix {name}")
    kind = C.ACL_MEMCPY_DEVICE_TO_DEVICE if is_device else H2D
    ok(acl.rt.memcpy(dev["alpha"], size_scalar, acl.util.numpy_to_ptr(alpha), size_scalar,
                     kind), "Copy alpha")
    ok(acl.rt.memcpy(dev["beta"], size_scalar, acl.util.numpy_to_ptr(beta), size_scalar,
                     kind), "Copy beta")
    info("Copy inputs success")
    ok(acl.blas.gemm_ex(C.ACL_TRANS_N, C.ACL_TRANS_N, C.ACL_TRANS_N, M, N, K, dev["alpha"],
                        dev["a"], -1, C.ACL_FLOAT16, dev["b"], -1, C.ACL_FLOAT16, dev["beta"],
                        dev["c"], -1, C.ACL_FLOAT16, C.ACL_COMPUTE_HIGH_PRECISION, stream),
       "Launch Gemm kernel")
    info("Launch Gemm kernel success")
    ok(acl.rt.synchronize_stream(stream), "Synchronize stream")
    info("Synchronize stream success")
    if not is_device:
        ok(acl.rt.memcpy(host["c"], size_c, dev["c"], size_c, D2H), "Copy output")
    info("Copy output success")
    ok(acl.rt.destroy_stream(stream), "destroy stream")
    out = np.zeros((M, N), np.float16)
    ok(acl.rt.memcpy(acl.util.numpy_to_ptr(out), size_c, host["c"], size_c,
                     C.ACL_MEMCPY_HOST_TO_HOST), "WriteOutput")
    info("Write result success. file = result_files/matrix_c.bin")
    info("Run op success")
    # ~GemmRunner, DestoryResource
    for name in dev:
        ok(acl.rt.free(dev[name]), "aclrtFree")
    if not is_device:
        for name in host:
            ok(acl.rt.free_host(host[name]), "aclrtFreeHost")
    ok(acl.rt.reset_device(0), "Reset device")
    ok(acl.finalize(), "Finalize acl")
    info("Destory resource success")

    expected = (2 * data["a"].astype(np.float32) @ data["b"].astype(np.float32)
                + data["c"].astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(out, expected)
    assert capsys.readouterr().out.splitlines() == [f"[INFO]  {t}" for t in [
        "Set device[0] success", "Init resource success", "Init op input success",
        "Prepare op input data success", "Create stream success", "Copy inputs success",
        "Launch Gemm kernel success", "Synchronize stream success", "Copy output success",
        "Write result success. file = result_files/matrix_c.bin", "Run op success",
        "Destory resource success"]]
