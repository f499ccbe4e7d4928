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

from acl_lab.media import pixels
from mediahelpers import scene

FLOW = Path(__file__).parent / "samples" / "dvpp_jpeg_flow.py"


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
