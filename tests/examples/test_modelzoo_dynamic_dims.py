"""A ModelZoo-style LSTM runner (tests/examples/modelzoo_lstm: acl_net.py and
lstm_pyacl_infer.py, written as ModelZoo's ACL_PyTorch audio runners are) runs unchanged
under `acl-lab run`: its model is an ONNX LSTM made here and converted by `acl-lab atc
--input_shape=feats:1,-1,23 --dynamic_dims=...`; every sample of its info file runs at the
gear of its own length, synchronously and asynchronously, and the saved outputs are what
onnxruntime computes for the sample. The runner's one bug (a malloc_host buffer per output
per sample, never freed) is what the report finds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).parent / "modelzoo_lstm" / "lstm_pyacl_infer.py"
H, D, K = 8, 23, 5
LENGTHS = (20, 60, 40)


def lstm_onnx(path: Path) -> bytes:
    """feats [1, T, 23] -> LSTM(8) -> frames [1, T, 8] and logits [1, 5] (last state)."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(7)
    init = {"W": rng.standard_normal((1, 4 * H, D)) * 0.3,
            "R": rng.standard_normal((1, 4 * H, H)) * 0.3,
            "B": rng.standard_normal((1, 8 * H)) * 0.1, "Wc": rng.standard_normal((H, K))}
    nodes = [helper.make_node("Transpose", ["feats"], ["tbd"], perm=[1, 0, 2]),
             helper.make_node("LSTM", ["tbd", "W", "R", "B"], ["Y", "Y_h"], hidden_size=H),
             helper.make_node("Squeeze", ["Y", "one"], ["y3"]),
             helper.make_node("Transpose", ["y3"], ["frames"], perm=[1, 0, 2]),
             helper.make_node("Squeeze", ["Y_h", "zero"], ["h"]),
             helper.make_node("MatMul", ["h", "Wc"], ["logits"])]
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes, "lstm", [helper.make_tensor_value_info("feats", f, [1, "T", D])],
        [helper.make_tensor_value_info("frames", f, [1, "T", H]),
         helper.make_tensor_value_info("logits", f, [1, K])],
        [numpy_helper.from_array(v.astype(np.float32), k) for k, v in init.items()]
        + [numpy_helper.from_array(np.array([1]), "one"),
           numpy_helper.from_array(np.array([0]), "zero")])
    data = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path.write_bytes(data.SerializeToString())
    return path.read_bytes()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    pytest.importorskip("onnx")
    from acl_lab.om.atc import main as atc
    here = tmp_path_factory.mktemp("modelzoo_lstm")
    lstm_onnx(here / "lstm.onnx")
    assert atc([f"--model={here}/lstm.onnx", "--framework=5", "--input_format=ND",
                "--input_shape=feats:1,-1,23", "--dynamic_dims=20;40;60",
                f"--output={here}/lstm", "--soc_version=Ascend310P3"]) == 0
    (here / "bin").mkdir()
    rng = np.random.default_rng(11)
    lines = []
    for i, t in enumerate(LENGTHS):
        rng.random((1, t, D), dtype=np.float32).tofile(here / "bin" / f"feats_{i}.bin")
        lines.append(f"{i} ./bin/feats_{i}.bin (1,{t},{D})")
    (here / "lstm.info").write_text("\n".join(lines) + "\n")
    return here


def reference(workdir: Path, i: int) -> list[np.ndarray]:
    import onnxruntime
    session = onnxruntime.InferenceSession(str(workdir / "lstm.onnx"),
                                           providers=["CPUExecutionProvider"])
    x = np.fromfile(workdir / "bin" / f"feats_{i}.bin", np.float32).reshape(1, -1, D)
    return session.run(None, {"feats": x})


@pytest.mark.parametrize("sync", ["True", "False"])
def test_the_runner_infers_every_sample_at_its_own_gear(workdir, sync):
    result, report = f"result_{sync}", workdir / f"report_{sync}.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ACL_LAB_LANG": "en",
           "ACL_LAB_PROFILE": "310p"}
    done = subprocess.run(
        [sys.executable, "-m", "acl_lab.cli", "run", "--json", str(report), str(PROGRAM),
         "--model_path=lstm.om", "--device_id=0", f"--sync_infer={sync}", "--workspace=1",
         "--input_info_file_path=lstm.info", "--input_dtypes=float32",
         f"--infer_res_save_path={result}", "--res_save_type=npy"],
        cwd=workdir, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "total infer num: 3" in done.stdout
    for i, t in enumerate(LENGTHS):
        frames, logits = reference(workdir, i)
        got_frames = np.load(workdir / result / f"{i}.0.npy")
        got_logits = np.load(workdir / result / f"{i}.1.npy")
        assert got_frames.shape == (1, t, H)           # the gear the sample ran at
        np.testing.assert_allclose(got_frames, frames, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_logits, logits, rtol=1e-5, atol=1e-6)
    data = json.loads(report.read_text())
    assert data["status"] == "completed" and data["failures"] == []
    assert len(data["leaks"]) == 1                     # 2 outputs x 3 samples of malloc_host
    assert "6 host allocation(s) never freed" in data["leaks"][0]
