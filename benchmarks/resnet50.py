"""An offline model executed by acl.mdl.execute against onnxruntime running the same ONNX.

The model is ResNet-50 in shape (the torchvision topology: a 7x7 stem, bottleneck stages of
3, 4, 6 and 3 blocks, 25.5 M parameters, 1x3x224x224 in, 1x1000 out), built here with
onnx.helper and fixed pseudo-random weights — no download, no torch. It is written once to
build/bench/ (git-ignored) and converted by `acl-lab atc`. The simulator's figure includes
what an execution costs beyond onnxruntime: reading the input from simulated device memory,
the trace, writing the output back. Also the chapter's small conv net, where that overhead
is most of the time.
"""
from __future__ import annotations

import io

import numpy as np

from acl_lab import constants as C

from . import ROOT, Row, fresh_acl, ms, timed


def _time(seconds: float) -> str:
    return ms(seconds) if seconds >= 1e-3 else f"{seconds * 1e6:.0f} us"

GOAL = 1.3           # acl.mdl.execute within this factor of onnxruntime on the same ONNX
REPEAT = 7
FOLDER = ROOT / "build" / "bench"
STAGES = ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2))   # width, blocks, first stride


def resnet50():
    """The ResNet-50-shaped ModelProto (seeded weights: the same bytes on every build)."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(50)
    nodes, weights = [], []

    def conv(x, cin, cout, k, stride, name, relu=True):
        w = rng.standard_normal((cout, cin, k, k)) * np.sqrt(2 / (cin * k * k))
        weights.append(numpy_helper.from_array(w.astype(np.float32), f"{name}_w"))
        for p, v in (("scale", np.ones(cout)), ("bias", np.zeros(cout)),
                     ("mean", rng.standard_normal(cout) * 0.01), ("var", np.ones(cout))):
            weights.append(numpy_helper.from_array(v.astype(np.float32), f"{name}_{p}"))
        nodes.append(helper.make_node("Conv", [x, f"{name}_w"], [f"{name}_c"], kernel_shape=[k, k],
                                      strides=[stride, stride], pads=[k // 2] * 4))
        nodes.append(helper.make_node("BatchNormalization", [f"{name}_c"] + [
            f"{name}_{p}" for p in ("scale", "bias", "mean", "var")], [f"{name}_bn"]))
        if not relu:
            return f"{name}_bn"
        nodes.append(helper.make_node("Relu", [f"{name}_bn"], [f"{name}_r"]))
        return f"{name}_r"

    x = conv("data", 3, 64, 7, 2, "stem")
    nodes.append(helper.make_node("MaxPool", [x], ["pool"], kernel_shape=[3, 3], strides=[2, 2],
                                  pads=[1, 1, 1, 1]))
    x, cin = "pool", 64
    for s, (width, blocks, stride) in enumerate(STAGES):
        for b in range(blocks):
            name = f"s{s}b{b}"
            st = stride if b == 0 else 1
            y = conv(x, cin, width, 1, 1, f"{name}a")
            y = conv(y, width, width, 3, st, f"{name}b")
            y = conv(y, width, width * 4, 1, 1, f"{name}c", relu=False)
            short = conv(x, cin, width * 4, 1, st, f"{name}d", relu=False) if b == 0 else x
            nodes.append(helper.make_node("Add", [y, short], [f"{name}_sum"]))
            nodes.append(helper.make_node("Relu", [f"{name}_sum"], [f"{name}_out"]))
            x, cin = f"{name}_out", width * 4
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["feat"], axis=1))
    fc = (rng.standard_normal((1000, 2048)) / np.sqrt(2048)).astype(np.float32)
    weights += [numpy_helper.from_array(fc, "fc_w"),
                numpy_helper.from_array(np.zeros(1000, np.float32), "fc_b")]
    nodes.append(helper.make_node("Gemm", ["feat", "fc_w", "fc_b"], ["logits"], transB=1))
    nodes.append(helper.make_node("Softmax", ["logits"], ["prob"], axis=1))
    graph = helper.make_graph(
        nodes, "resnet50",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 1000])], weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _built(name: str, make) -> tuple:
    """(ONNX path, .om path) of ``name`` under build/bench, made once."""
    from acl_lab.om import atc

    FOLDER.mkdir(parents=True, exist_ok=True)
    onnx_path, om_path = FOLDER / f"{name}.onnx", FOLDER / f"{name}.om"
    if not onnx_path.exists():
        onnx_path.write_bytes(make().SerializeToString())
    if not om_path.exists() or om_path.stat().st_mtime < onnx_path.stat().st_mtime:
        out = io.StringIO()
        if atc.main([f"--model={onnx_path}", "--framework=5", f"--output={FOLDER / name}",
                     "--soc_version=Ascend910B3"], out=out):
            raise RuntimeError(out.getvalue())
    return onnx_path, om_path


def _compare(acl, name: str, make, repeat: int) -> tuple[float, float]:
    """(seconds per acl.mdl.execute, seconds per onnxruntime run) on the same input."""
    import onnxruntime

    onnx_path, om_path = _built(name, make)
    model_id, ret = acl.mdl.load_from_file(str(om_path))
    assert ret == 0, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    x = np.random.default_rng(0).random((1, 3, 224, 224), dtype=np.float32)
    sizes = [acl.mdl.get_input_size_by_index(desc, 0), acl.mdl.get_output_size_by_index(desc, 0)]
    ptrs = [acl.rt.malloc(n, C.ACL_MEM_MALLOC_HUGE_FIRST)[0] for n in sizes]
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(ptrs[0], sizes[0]))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(ptrs[1], sizes[1]))
    acl.rt.memcpy(ptrs[0], sizes[0], acl.util.numpy_to_ptr(x), x.nbytes,
                  C.ACL_MEMCPY_HOST_TO_DEVICE)

    def simulated():
        assert acl.mdl.execute(model_id, ins, outs) == 0

    session = onnxruntime.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])

    def direct():
        session.run(None, {"data": x})

    simulated(), direct()                        # warm both up
    sim_s = ort_s = float("inf")
    for _ in range(repeat):          # taken in turns, so a busy moment of the machine
        sim_s = min(sim_s, timed(simulated))     # weighs on both figures alike
        ort_s = min(ort_s, timed(direct))
    acl.mdl.unload(model_id)
    return sim_s, ort_s


def run() -> list[Row]:
    from acl_lab import sample_models

    acl = fresh_acl()
    rows = []
    for name, make, repeat, goal in (("resnet50", resnet50, REPEAT, GOAL),
                                     ("convnet", lambda: sample_models.model("convnet"),
                                      20, None)):
        sim_s, ort_s = _compare(acl, name, make, repeat)
        ratio = sim_s / ort_s
        rows.append(Row(f"acl.mdl.execute {name} (1x3x224x224)", _time(sim_s),
                        f"onnxruntime direct {_time(ort_s)}", ratio,
                        f"<= {goal:g}x" if goal else "", ratio <= goal if goal else None))
    return rows
