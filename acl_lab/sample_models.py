"""The chapter's sample ONNX models, built deterministically from code (no download).

- ``digits``: a tiny digit classifier. Input ``image`` 1x1x28x28 float32 (white strokes on
  black, 0..1), output ``prob`` 1x10. Its weights are the ten glyphs of a 5x7 bitmap font,
  scaled to 28x28 and centred: the model scores how well the image matches each glyph, so
  a drawn digit comes out on top (real results, with no training step).
- ``convnet``: a small ImageNet-shaped conv net. Input ``data`` 1x3x224x224, output ``prob``
  1x1000 — the shapes of the official resnet50 sample, so that sample's flow runs on it.
  Its weights are fixed pseudo-random numbers (seeded): the classes mean nothing, but every
  run computes the same numbers.

``python -m acl_lab.sample_models FOLDER`` writes both .onnx files there.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from acl_lab.support.pyodide import require

require("onnx", "Chapter 08 (offline models: acl_lab.sample_models, acl-lab atc)")

#: 5x7 glyphs of the digits 0-9 (one string per row, '#' = ink)
GLYPHS = {
    0: (" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "),
    1: ("  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "),
    2: (" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"),
    3: ("#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "),
    4: ("   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "),
    5: ("#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "),
    6: ("  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "),
    7: ("#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "),
    8: (" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "),
    9: (" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "),
}
OPSET = 17


def digit_image(digit: int, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """A 1x1x28x28 float32 picture of ``digit`` (the glyph scaled x3, centred), with optional
    uniform noise — the kind of input the digits model expects."""
    glyph = np.array([[c == "#" for c in row] for row in GLYPHS[digit]], dtype=np.float32)
    img = np.zeros((28, 28), np.float32)
    img[3:24, 6:21] = np.kron(glyph, np.ones((3, 3), np.float32))
    if noise:
        img += np.random.default_rng(seed).uniform(0, noise, img.shape).astype(np.float32)
    return img.reshape(1, 1, 28, 28)


def _digits_model():
    from onnx import TensorProto, helper, numpy_helper

    templates = np.stack([digit_image(d)[0, 0].ravel() for d in range(10)], axis=1)
    templates -= templates.mean(axis=0, keepdims=True)            # zero-mean matched filters
    templates /= np.linalg.norm(templates, axis=0, keepdims=True)
    weight = (templates * 0.5).astype(np.float32)    # a soft softmax: runners-up stay visible
    nodes = [
        helper.make_node("Flatten", ["image"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "W"], ["scores"]),
        helper.make_node("Add", ["scores", "b"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["prob"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "digits",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 1, 28, 28])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(weight, "W"),
         numpy_helper.from_array(np.zeros(10, np.float32), "b")])
    return graph


def _convnet_model():
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2024)

    def w(name, *shape):
        fan_in = int(np.prod(shape[1:])) or 1
        return numpy_helper.from_array(
            (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["data", "c1_w", "c1_b"], ["c1"], kernel_shape=[7, 7],
                         strides=[4, 4], pads=[3, 3, 3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "c2_w", "c2_b"], ["c2"], kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("GlobalAveragePool", ["r2"], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["feat"], axis=1),
        helper.make_node("Gemm", ["feat", "fc_w", "fc_b"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["prob"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "convnet",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 1000])],
        [w("c1_w", 8, 3, 7, 7), w("c1_b", 8), w("c2_w", 16, 8, 3, 3), w("c2_b", 16),
         w("fc_w", 1000, 16), w("fc_b", 1000)])
    return graph


BUILDERS = {"digits": _digits_model, "convnet": _convnet_model}


def model(name: str):
    """The ``onnx.ModelProto`` of sample ``name`` (checked, same bytes on every call)."""
    import onnx
    from onnx import helper

    m = helper.make_model(BUILDERS[name](), producer_name="acl_lab",
                          opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def write(name: str, folder: str | Path = ".") -> Path:
    """Write sample ``name`` as FOLDER/NAME.onnx (created if missing); its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.onnx"
    path.write_bytes(model(name).SerializeToString())
    return path


def write_all(folder: str | Path = ".") -> dict[str, Path]:
    return {name: write(name, folder) for name in BUILDERS}


if __name__ == "__main__":
    for p in write_all(sys.argv[1] if len(sys.argv) > 1 else ".").values():
        print(p)
