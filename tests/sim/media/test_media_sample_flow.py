"""The DVPP flow of the official samples (tests/samples/dvpp_jpeg_flow.py: JPEGD, VPC resize,
JPEGE, as acllite_imageproc.py drives them) runs on the simulator as a separate program, on
Ascend 310 and on a later chip, and its pictures are right."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from acl_lab.sim.media import pixels
from mediahelpers import scene

FLOW = Path(__file__).resolve().parents[2] / "samples" / "dvpp_jpeg_flow.py"
VDEC_FLOW = Path(__file__).resolve().parents[2] / "samples" / "vdec_flow.py"


@pytest.mark.parametrize("profile", ["310", "910b"])
def test_the_dvpp_sample_flow_runs_unchanged(tmp_path, profile):
    images, out = tmp_path / "data", tmp_path / "out"
    images.mkdir()
    sizes = ((300, 200), (97, 61))          # an odd size: JPEGD rounds it down to even
    for i, (w, h) in enumerate(sizes):
        Image.fromarray(scene(w, h)).save(images / f"pic{i}.jpg", quality=95)
    env = {**os.environ, "ACL_LAB_BACKEND": "sim", "ACL_LAB_PROFILE": profile}
    run = subprocess.run([sys.executable, str(FLOW), "--images_path", str(images),
                          "--output_path", str(out), "--width", "112", "--height", "80"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["init resource stage:", "init resource success"]
    assert lines[2].startswith("pic0.jpg: 300x200 -> 112x80, jpeg ")
    assert lines[3].startswith("pic1.jpg: 97x61 -> 112x80, jpeg ")
    assert lines[-2:] == ["Releasing resources stage:", "Resources released successfully."]
    assert "[acl_lab]" not in run.stderr            # nothing leaked, nothing reported
    for i, (w, h) in enumerate(sizes):
        want = np.asarray(Image.open(images / f"pic{i}.jpg").convert("RGB")
                          .crop((0, 0, w & ~1, h & ~1)).resize((112, 80), Image.BILINEAR))
        yuv = np.fromfile(out / f"pic{i}.yuv", np.uint8)
        assert yuv.size == 112 * 80 * 3 // 2
        got = pixels.to_rgb(pixels.read(yuv, 1, 112, 80, 112, 80))
        assert np.abs(got.astype(int) - want).mean() < 4
        jpg = np.asarray(Image.open(out / f"pic{i}_small.jpg").convert("RGB"))
        assert jpg.shape == (80, 112, 3) and np.abs(jpg.astype(int) - want).mean() < 5


def test_the_vdec_sample_flow_runs_unchanged(tmp_path):
    """acllite's VideoCapture + DvppVdec pattern: demux with PyAV, send from a decode thread,
    pictures through the callback thread, read by the main thread in order."""
    av = pytest.importorskip("av")
    import fractions
    path = tmp_path / "grey.h264"
    levels = [16 + 24 * i for i in range(8)]
    with av.open(str(path), "w", format="h264") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 96, 64, "yuv420p"
        stream.codec_context.options = {"tune": "zerolatency", "preset": "ultrafast"}
        stream.codec_context.time_base = fractions.Fraction(1, 25)
        for i, level in enumerate(levels):
            planes = np.full((64 * 3 // 2, 96), 128, np.uint8)
            planes[:64] = level
            frame = av.VideoFrame.from_ndarray(planes, format="yuv420p")
            frame.pts = i
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    env = {**os.environ, "ACL_LAB_BACKEND": "sim", "ACL_LAB_PROFILE": "310"}
    run = subprocess.run([sys.executable, str(VDEC_FLOW), "--video", str(path)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "video 96x64"
    got = [line for line in lines if line.startswith("frame ")]
    assert [int(line.split()[1].rstrip(":")) for line in got] == list(range(8))
    means = [int(line.split()[-1]) for line in got]
    assert means == pytest.approx(levels, abs=4)
    assert lines[-2:] == ["sent 8, decoded 8", "Resources released successfully."]
    assert "[acl_lab]" not in run.stderr
