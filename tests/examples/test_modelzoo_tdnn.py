"""A ModelZoo-style TDNN runner (tests/examples/modelzoo_tdnn: acl_net.py and
tdnn_pyacl_infer.py, written as ModelZoo's TDNN runners are) runs unchanged under `acl-lab
run`, with the flags its om_infer.sh passes. Its model is an x-vector TDNN made here with
onnx.helper (dilated 1-D convolutions, ReLU, BatchNormalization, statistics pooling: mean
and standard deviation over time, a Gemm embedding, a MatMul classifier, LogSoftmax),
converted by `acl-lab atc --input_shape=feats:B,-1,23 --dynamic_dims=...` as the runner's
ReadMe converts it. Utterances of one length run together as one batch at the gear of that
length (a short batch padded with zeros), synchronously and asynchronously; every saved
score row is what onnxruntime computes for that utterance alone. What the runner leaves
behind is what the report finds: __del__ releases the model's resources but not the
context, the device or acl.init, and no malloc_host buffer it took per inference."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).parent / "modelzoo_tdnn" / "tdnn_pyacl_infer.py"
D, C, E, K = 23, 16, 12, 6           # features, channels, embedding, speakers
LENGTHS = (40, 20, 60, 20, 40, 20, 20)
GEARS = "20;40;60"
#: (conv kernel, dilation) of the TDNN layers: frame contexts 5, 3 (x2), 3 (x3), 1
LAYERS = ((5, 1), (3, 2), (3, 3), (1, 1))


def tdnn_onnx(path: Path) -> None:
    """feats [N, T, 23] -> TDNN -> statistics pooling -> embedding -> scores [N, 6]."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(3)
    init, nodes, x, width = {}, [helper.make_node("Transpose", ["feats"], ["x0"],
                                                  perm=[0, 2, 1])], "x0", D
    for i, (k, dilation) in enumerate(LAYERS):
        init |= {f"w{i}": rng.standard_normal((C, width, k)) / np.sqrt(width * k),
                 f"b{i}": rng.standard_normal(C) * 0.1, f"g{i}": 1 + rng.random(C) * 0.5,
                 f"be{i}": rng.standard_normal(C) * 0.1, f"m{i}": rng.random(C) * 0.2,
                 f"v{i}": 0.5 + rng.random(C)}
        nodes += [helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], kernel_shape=[k],
                                   dilations=[dilation]),
                  helper.make_node("Relu", [f"c{i}"], [f"r{i}"]),
                  helper.make_node("BatchNormalization", [f"r{i}", f"g{i}", f"be{i}",
                                                          f"m{i}", f"v{i}"], [f"x{i + 1}"])]
        x, width = f"x{i + 1}", C
    init |= {"eps": np.array([1e-5]), "We": rng.standard_normal((2 * C, E)) / np.sqrt(2 * C),
             "bE": rng.standard_normal(E) * 0.1, "Wc": rng.standard_normal((E, K))}
    nodes += [helper.make_node("ReduceMean", [x], ["mean_k"], axes=[2], keepdims=1),
              helper.make_node("Sub", [x, "mean_k"], ["centred"]),
              helper.make_node("Mul", ["centred", "centred"], ["square"]),
              helper.make_node("ReduceMean", ["square"], ["var"], axes=[2], keepdims=0),
              helper.make_node("Add", ["var", "eps"], ["var_eps"]),
              helper.make_node("Sqrt", ["var_eps"], ["std"]),
              helper.make_node("ReduceMean", [x], ["mean"], axes=[2], keepdims=0),
              helper.make_node("Concat", ["mean", "std"], ["stats"], axis=1),
              helper.make_node("Gemm", ["stats", "We", "bE"], ["embedding"]),
              helper.make_node("MatMul", ["embedding", "Wc"], ["logits"]),
              helper.make_node("LogSoftmax", ["logits"], ["scores"], axis=-1)]
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes, "tdnn", [helper.make_tensor_value_info("feats", f, ["N", "T", D])],
        [helper.make_tensor_value_info("scores", f, ["N", K])],
        [numpy_helper.from_array(v.astype(np.float32), k) for k, v in init.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path.write_bytes(model.SerializeToString())


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    pytest.importorskip("onnx")
    from acl_lab.om.atc import main as atc
    here = tmp_path_factory.mktemp("modelzoo_tdnn")
    tdnn_onnx(here / "tdnn.onnx")
    for batch in (1, 4):
        assert atc([f"--model={here}/tdnn.onnx", "--framework=5", "--input_format=ND",
                    f"--input_shape=feats:{batch},-1,{D}", f"--dynamic_dims={GEARS}",
                    f"--output={here}/tdnn_bs{batch}", "--soc_version=Ascend310P3"]) == 0
    (here / "bin").mkdir()
    rng = np.random.default_rng(13)
    lines = []
    for i, t in enumerate(LENGTHS):
        rng.standard_normal((1, t, D), dtype=np.float32).tofile(here / "bin" / f"feats_{i}.bin")
        lines.append(f"{i} ./bin/feats_{i}.bin (1,{t},{D})")
    (here / "tdnn.info").write_text("\n".join(lines) + "\n")
    return here


def reference(workdir: Path, i: int) -> np.ndarray:
    """onnxruntime's scores for utterance ``i`` alone (batch 1, its own length)."""
    import onnxruntime
    session = onnxruntime.InferenceSession(str(workdir / "tdnn.onnx"),
                                           providers=["CPUExecutionProvider"])
    x = np.fromfile(workdir / "bin" / f"feats_{i}.bin", np.float32).reshape(1, -1, D)
    return session.run(None, {"feats": x})[0][0]


def run(workdir: Path, report: Path, *flags: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ACL_LAB_LANG": "en",
           "ACL_LAB_PROFILE": "310p"}
    return subprocess.run(
        [sys.executable, "-m", "acl_lab.cli", "run", "--json", str(report), str(PROGRAM),
         *flags, "--device_id=0", "--cpu_run=True", "--workspace=1",
         "--input_info_file_path=tdnn.info", "--input_dtypes=float32"],
        cwd=workdir, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("batch, sync, runs", [(1, "True", 7), (4, "True", 3),
                                               (4, "False", 3)])
def test_the_runner_scores_every_utterance_at_its_own_gear(workdir, batch, sync, runs):
    result, report = f"result_{batch}_{sync}", workdir / f"report_{batch}_{sync}.json"
    done = run(workdir, report, f"--model_path=tdnn_bs{batch}.om", f"--batch_size={batch}",
               f"--sync_infer={sync}", f"--infer_res_save_path={result}", "--res_save_type=bin")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"total infer num: {runs}" in done.stdout     # one run per batch of one length
    assert (workdir / result / "infer_time.txt").read_text().startswith(
        f"total infer num: {runs}\n")
    for i in range(len(LENGTHS)):
        got = np.fromfile(workdir / result / f"{i}.0.bin", np.float32)
        np.testing.assert_allclose(got, reference(workdir, i), rtol=1e-5, atol=1e-5)
    data = json.loads(report.read_text())
    assert data["status"] == "completed" and data["failures"] == []
    counts = data["call_counts"]
    assert counts["mdl.set_input_dynamic_dims"] == runs
    assert counts["mdl.execute" if sync == "True" else "mdl.execute_async"] == runs
    host, context, device, init = data["leaks"]       # and nothing __del__ released
    assert host.startswith(f"{runs} allocation(s) from aclrtMallocHost never released")
    assert context.startswith("1 aclrtContext never released")
    assert device.startswith("device(s) 0 still set")
    assert init == "acl.init() was never matched by acl.finalize()"


def test_a_batch_size_the_model_was_not_converted_for_is_named_in_the_report(workdir):
    """The runner ignores set_input_dynamic_dims' code; the report shows it, then the
    execution it refused, and the runner's own assert."""
    report = workdir / "report_mismatch.json"
    done = run(workdir, report, "--model_path=tdnn_bs4.om", "--batch_size=2",
               "--sync_infer=True", "--infer_res_save_path=result_mismatch",
               "--res_save_type=npy")
    assert done.returncode != 0 and "AssertionError" in done.stderr
    data = json.loads(report.read_text())
    assert data["status"] == "exception" and data["error"].startswith("AssertionError")
    (gear, execute), = [data["failures"]]
    assert (gear["call"], gear["code"]) == ("mdl.set_input_dynamic_dims", 145012)
    assert "dims[0] is 2, but that dim of the model is fixed at 4" in gear["message"]
    assert (execute["call"], execute["code"]) == ("mdl.execute", 145013)
