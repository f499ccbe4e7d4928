"""Stand-ins for what a sample brings from outside: images, and models with the sample
model's input/output names, shapes and types (built with onnx.helper, converted with
`acl-lab atc`). A stand-in model's outputs are deterministic numbers that depend on its
inputs (the squashed mean of every input scales a fixed pattern; a classifier head is a
linear layer over the pooled picture): not the sample's results, but real bytes of the
right shape for its post-processing."""
from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np

ONNX_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "int32": 6, "int64": 7, "float16": 10}


def write_image(path: Path, width: int, height: int) -> None:
    """A deterministic picture (colour gradients and a square) in the format its name says."""
    from PIL import Image

    image = Image.fromarray(picture_rgb(width, height))
    if path.suffix.lower() in (".png", ".bmp"):
        image.save(path)
    else:
        image.save(path, "JPEG", quality=90)


#: a classifier head (an output of at most this many values) of a model with one fixed-size
#: picture input is a real linear layer over the pooled picture, so its top-5 depends on the
#: picture; weights past this many values fall back to the scaled pattern
HEAD_VALUES, HEAD_WEIGHTS = 4096, 4_000_000


def _pooled(shape) -> tuple[tuple, int] | None:
    """(pool kernel, feature count) of a fixed-size rank-4 input, pooled to about 4 x 4."""
    if len(shape) != 4 or min(shape) < 1:
        return None
    kernel = (max(shape[2] // 4, 1), max(shape[3] // 4, 1))
    return kernel, shape[1] * (shape[2] // kernel[0]) * (shape[3] // kernel[1])


def write_pieces(path: Path, width: int, height: int) -> None:
    """A board photo: round pieces (discs of radius 18, outlined) on a dark board, which
    OpenCV's HoughCircles finds, as a chess-playing sample's camera picture has."""
    import cv2

    board = np.full((height, width, 3), 60, np.uint8)
    for row in range(3):
        for column in range(4):
            centre = (width // 4 + column * width // 8, height // 3 + row * height // 6)
            cv2.circle(board, centre, 18, (230, 230, 230), -1)
            cv2.circle(board, centre, 18, (20, 20, 20), 2)
    cv2.imwrite(str(path), board)


def picture_rgb(width: int, height: int, shift: int = 0) -> np.ndarray:
    """The stand-in picture's pixels (moved ``shift`` pixels right, for video frames)."""
    y, x = np.mgrid[0:height, 0:width]
    rgb = np.stack([x * 255 // max(width - 1, 1), y * 255 // max(height - 1, 1),
                    (x + y) * 255 // max(width + height - 2, 1)], -1).astype(np.uint8)
    left = width // 4 + shift
    rgb[height // 4: height // 2, left: left + width // 4] = (200, 40, 40)
    return rgb


def write_video(path: Path, width: int, height: int, frames: int) -> None:
    """A raw H.264 / H.265 elementary stream (Annex B, as the samples' .h264/.h265 files are)
    of the stand-in picture moving, or an .mp4 / .avi file OpenCV reads."""
    if path.suffix.lower() in (".mp4", ".avi"):
        import cv2
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 25,
                                 (width, height))
        for i in range(frames):
            writer.write(picture_rgb(width, height, 4 * i)[..., ::-1].copy())
        writer.release()
        return
    import av

    codec = av.CodecContext.create("libx265" if path.suffix.lower() == ".h265" else "libx264",
                                   "w")
    codec.width, codec.height, codec.pix_fmt = width, height, "yuv420p"
    codec.options = {"x265-params": "log-level=none"} if codec.name == "libx265" else {}
    with open(path, "wb") as out:
        for i in range(frames):
            frame = av.VideoFrame.from_ndarray(picture_rgb(width, height, 4 * i), "rgb24")
            for packet in codec.encode(frame.reformat(format="yuv420p")):
                out.write(bytes(packet))
        for packet in codec.encode(None):
            out.write(bytes(packet))


def build_onnx(inputs, outputs) -> bytes:
    """inputs / outputs: [(name, shape, dtype)]; -1 is a dynamic dimension. An output whose
    first dimension is -1 follows the batch (one value set per picture of the batch)."""
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, means, rows = [], [], [], []
    floats = []
    for i, (name, shape, dtype) in enumerate(inputs):
        x = name
        if dtype != "float32":
            nodes.append(helper.make_node("Cast", [x], [f"f{i}"], to=TensorProto.FLOAT))
            x = f"f{i}"
        floats.append(x)
        nodes.append(helper.make_node("Flatten", [x], [f"flat{i}"], axis=0))
        nodes.append(helper.make_node("ReduceMean", [f"flat{i}"], [f"mean{i}"], keepdims=1))
        nodes.append(helper.make_node("Flatten", [x], [f"rows{i}"], axis=1))
        nodes.append(helper.make_node("ReduceMean", [f"rows{i}"], [f"row{i}"], axes=[1],
                                      keepdims=1))
        means.append(f"mean{i}")
        rows.append(f"row{i}")

    def total(names, tag):
        out = names[0]
        for j, m in enumerate(names[1:]):
            nodes.append(helper.make_node("Add", [out, m], [f"{tag}{j}"]))
            out = f"{tag}{j}"
        return out
    scalar, per_row = total(means, "sum"), total(rows, "rowsum")
    # squashed to 0..1, so the values stay within the pattern's range (0..2): a detector's
    # class ids and box counts stay small whatever the picture's scale
    nodes.append(helper.make_node("Sigmoid", [scalar], ["scalar"]))
    nodes.append(helper.make_node("Sigmoid", [per_row], ["per_row"]))
    scalar, per_row = "scalar", "per_row"
    pooled = _pooled(inputs[0][1]) if len(inputs) == 1 else None
    rng = np.random.default_rng(7)
    for k, (name, shape, dtype) in enumerate(outputs):
        batch = shape[0] == -1
        count = math.prod(shape[1:] if batch else shape)
        pattern = rng.random((1, count), np.float32)
        inits.append(numpy_helper.from_array(pattern, f"pattern{k}"))
        inits.append(numpy_helper.from_array(np.asarray(shape, np.int64), f"shape{k}"))
        if pooled and count <= HEAD_VALUES and pooled[1] * count <= HEAD_WEIGHTS:
            kernel, features = pooled
            nodes.append(helper.make_node("AveragePool", [floats[0]], [f"pool{k}"],
                                          kernel_shape=list(kernel), strides=list(kernel)))
            nodes.append(helper.make_node("Flatten", [f"pool{k}"], [f"feat{k}"], axis=1))
            weights = rng.standard_normal((features, count)).astype(np.float32)
            inits.append(numpy_helper.from_array(weights / features, f"weights{k}"))
            nodes.append(helper.make_node("MatMul", [f"feat{k}", f"weights{k}"],
                                          [f"head{k}"]))
            nodes.append(helper.make_node("Add", [f"head{k}", f"pattern{k}"], [f"values{k}"]))
        else:
            nodes.append(helper.make_node("Mul", [per_row if batch else scalar,
                                                  f"pattern{k}"], [f"scaled{k}"]))
            nodes.append(helper.make_node("Add", [f"scaled{k}", f"pattern{k}"],
                                          [f"values{k}"]))
        last = name if dtype == "float32" else f"shaped{k}"
        nodes.append(helper.make_node("Reshape", [f"values{k}", f"shape{k}"], [last]))
        if dtype != "float32":
            nodes.append(helper.make_node("Cast", [last], [name], to=ONNX_TYPES[dtype]))

    def dims(shape):
        return [d if d >= 0 else f"d{i}" for i, d in enumerate(shape)]
    graph = helper.make_graph(
        nodes, "standin",
        [helper.make_tensor_value_info(n, ONNX_TYPES[d], dims(s)) for n, s, d in inputs],
        [helper.make_tensor_value_info(n, ONNX_TYPES[d], dims(s)) for n, s, d in outputs],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def write_model(target: Path, inputs, outputs, acl_lab, flags=(),
                keep_onnx: Path | None = None) -> str | None:
    """Build the stand-in and convert it to ``target`` (.om) with the sample's own ATC
    ``flags`` (--insert_op_conf, --dynamic_batch_size, ...); keep the ONNX at ``keep_onnx``
    (for the onnxruntime check); None, or ATC's complaint."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fp16 = [n for n, _s, d in inputs if d == "float16"]
    extra = flags
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
        if keep_onnx:
            keep_onnx.parent.mkdir(parents=True, exist_ok=True)
            keep_onnx.write_bytes(onnx_path.read_bytes())
        done = acl_lab("atc", *flags, *extra, cwd=Path(tmp))
        if done.returncode:
            return done.stdout.strip().splitlines()[0] if done.stdout.strip() else "atc failed"
    return None
