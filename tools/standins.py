"""Stand-ins for what a sample brings from outside: images, and models with the sample
model's input/output names, shapes and types (built with onnx.helper, converted with
`acl-lab atc`). A stand-in model's outputs are deterministic numbers that depend on its
inputs (the mean of every input scales a fixed pattern): not the sample's results, but
real bytes of the right shape for its post-processing."""
from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np

ONNX_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "int32": 6, "int64": 7, "float16": 10}


def write_image(path: Path, width: int, height: int) -> None:
    """A deterministic picture (colour gradients and a square) in the format its name says."""
    from PIL import Image

    y, x = np.mgrid[0:height, 0:width]
    rgb = np.stack([x * 255 // max(width - 1, 1), y * 255 // max(height - 1, 1),
                    (x + y) * 255 // max(width + height - 2, 1)], -1).astype(np.uint8)
    rgb[height // 4: height // 2, width // 4: width // 2] = (200, 40, 40)
    image = Image.fromarray(rgb)
    if path.suffix.lower() in (".png", ".bmp"):
        image.save(path)
    else:
        image.save(path, "JPEG", quality=90)


def build_onnx(inputs, outputs) -> bytes:
    """inputs / outputs: [(name, shape, dtype)]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, means = [], [], []
    for i, (name, shape, dtype) in enumerate(inputs):
        x = name
        if dtype != "float32":
            nodes.append(helper.make_node("Cast", [x], [f"f{i}"], to=TensorProto.FLOAT))
            x = f"f{i}"
        nodes.append(helper.make_node("Flatten", [x], [f"flat{i}"], axis=0))
        nodes.append(helper.make_node("ReduceMean", [f"flat{i}"], [f"mean{i}"], keepdims=1))
        means.append(f"mean{i}")
    total = means[0]
    for j, m in enumerate(means[1:]):
        nodes.append(helper.make_node("Add", [total, m], [f"sum{j}"]))
        total = f"sum{j}"
    rng = np.random.default_rng(7)
    for k, (name, shape, dtype) in enumerate(outputs):
        count = math.prod(shape)
        inits.append(numpy_helper.from_array(rng.random((1, count), np.float32), f"pattern{k}"))
        inits.append(numpy_helper.from_array(np.asarray(shape, np.int64), f"shape{k}"))
        nodes.append(helper.make_node("Mul", [total, f"pattern{k}"], [f"scaled{k}"]))
        nodes.append(helper.make_node("Add", [f"scaled{k}", f"pattern{k}"], [f"values{k}"]))
        last = name if dtype == "float32" else f"shaped{k}"
        nodes.append(helper.make_node("Reshape", [f"values{k}", f"shape{k}"], [last]))
        if dtype != "float32":
            nodes.append(helper.make_node("Cast", [last], [name], to=ONNX_TYPES[dtype]))
    graph = helper.make_graph(
        nodes, "standin",
        [helper.make_tensor_value_info(n, ONNX_TYPES[d], s) for n, s, d in inputs],
        [helper.make_tensor_value_info(n, ONNX_TYPES[d], s) for n, s, d in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def write_model(target: Path, inputs, outputs, acl_lab) -> str | None:
    """Build the stand-in and convert it to ``target`` (.om); None, or ATC's complaint."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fp16 = [n for n, _s, d in inputs if d == "float16"]
    with tempfile.TemporaryDirectory() as tmp:
        onnx_path = Path(tmp, "standin.onnx")
        as_float = [(n, s, "float32" if d == "float16" else d) for n, s, d in inputs]
        onnx_path.write_bytes(build_onnx(as_float, [(n, s, "float32" if d == "float16" else d)
                                                    for n, s, d in outputs]))
        flags = [f"--model={onnx_path}", "--framework=5",
                 f"--output={target.with_suffix('')}", "--soc_version=Ascend310"]   # PROFILE 310
        if fp16:
            flags.append(f"--input_fp16_nodes={';'.join(fp16)}")
        if outputs and all(d == "float16" for _n, _s, d in outputs):   # atc: one type for all
            flags.append("--output_type=FP16")
        done = acl_lab("atc", *flags, cwd=Path(tmp))
        if done.returncode:
            return done.stdout.strip().splitlines()[0] if done.stdout.strip() else "atc failed"
    return None
