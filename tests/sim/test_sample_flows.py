"""The official pyACL inference sample's flow (Ascend/samples resnet50_imagenet_classification,
re-expressed in tests/samples/resnet50_flow.py) runs on the simulator as a separate program:
the README's ATC command (--input_fp16_nodes=data --output_type=FP32) on an ImageNet-shaped
ONNX model, two JPEG images, top-5 printed per image, resources released, exit code 0."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from modelhelpers import convert, reference

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FLOW = SAMPLES / "resnet50_flow.py"
ASYNC_FLOW = SAMPLES / "resnet50_async_flow.py"
ENV = {**os.environ, "ACL_LAB_BACKEND": "sim", "ACL_LAB_PROFILE": "910b"}


def _images(folder: Path) -> list[Path]:
    folder.mkdir()
    rng = np.random.default_rng(7)
    paths = []
    for i, size in enumerate(((1024, 683), (640, 480))):
        path = folder / f"dog{i + 1}.jpg"
        Image.fromarray(rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)).save(path)
        paths.append(path)
    return paths


def test_the_resnet50_sample_flow_runs_unchanged(tmp_path):
    code, out, om_path = convert(tmp_path, "convnet", "--input_format=NCHW",
                                 "--input_fp16_nodes=data", "--output_type=FP32")
    assert code == 0, out
    images = _images(tmp_path / "data")
    run = subprocess.run([sys.executable, str(FLOW), "--model_path", str(om_path),
                          "--images_path", str(tmp_path / "data")],
                         capture_output=True, text=True, env=ENV, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:3] == ["init resource stage:", "model_id:1", "init resource success"]
    assert lines[-2:] == ["Releasing resources stage:", "Resources released successfully."]
    assert "[acl_lab]" not in run.stderr            # nothing leaked, nothing reported
    tops = [i for i, line in enumerate(lines) if line.startswith("======== top5")]
    assert len(tops) == 2
    for start, image in zip(tops, images):
        printed = [re.fullmatch(r"\[(\d+)\]: (-?\d+\.\d+)", line).groups()
                   for line in lines[start + 1:start + 6]]
        expected = reference("convnet", _preprocess(image)).ravel()
        top5 = expected.argsort()[-1:-6:-1]
        assert [int(i) for i, _ in printed] == list(top5)
        assert [float(v) for _, v in printed] == [float("%f" % expected[i]) for i in top5]


def _preprocess(path: Path) -> np.ndarray:
    """The sample's preprocessing, done here independently: fp16 values the model receives."""
    pixels = np.array(Image.open(path).resize((256, 256)))
    bgr = pixels[16:240, 16:240, ::-1].astype("float16") - np.array([104, 117, 123], "float16")
    return bgr.transpose(2, 0, 1)[np.newaxis].astype(np.float32)


def _top5(lines, start):
    return [tuple(re.fullmatch(r"\[(\d+)\]: (-?\d+\.\d+)", line).groups())
            for line in lines[start + 1:start + 6]]


def test_the_resnet50_async_sample_flow_runs_unchanged(tmp_path):
    """Async sample: callbacks on a start_thread thread print each execution's top 5."""
    code, out, om_path = convert(tmp_path, "convnet", "--input_fp16_nodes=data",
                                 "--output_type=FP32")
    assert code == 0, out
    images = _images(tmp_path / "data")
    run = subprocess.run([sys.executable, str(ASYNC_FLOW), "--model_path", str(om_path),
                          "--images_path", str(tmp_path / "data"), "--execute_times", "4",
                          "--callback_interval", "2", "--mem_pools", "4"],
                         capture_output=True, text=True, env=ENV, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines.count("callback func stage:") == 2
    assert lines.count("callback func stage success") == 2
    assert "exit acl.rt.process_report" in lines
    assert lines[-1] == "release source stage success"
    tops = [i for i, line in enumerate(lines) if line.startswith("======== top5")]
    expected = [reference("convnet", _preprocess(p)).ravel() for p in images]
    printed = [_top5(lines, i) for i in tops]
    assert len(printed) == 4                           # images 1, 2, 1, 2 from the pool
    for got, scores in zip(printed, expected * 2):
        assert [int(i) for i, _ in got] == list(scores.argsort()[-1:-6:-1])
    # the sample's callback copies into malloc_host memory it never frees: finalize says so
    assert "host allocation(s) never freed" in run.stderr
