"""An Ascend/samples-style DVPP batch-crop program (tests/examples/dvpp_batch_crop) runs
unchanged under `acl-lab run`: three boxes of one NV12 picture cropped by one
dvpp_vpc_batch_crop_async into a batch of three pictures, each what slicing the picture's Y
and UV planes gives, and a clean report (no failed call, no leak)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).parent / "dvpp_batch_crop" / "batch_crop.py"
W, H = 256, 200


def test_the_batch_crop_program_cuts_every_box(tmp_path):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 256, (H, W), np.uint8)
    uv = rng.integers(0, 256, (H // 2, W), np.uint8)
    np.concatenate([y, uv]).tofile(tmp_path / "picture_nv12.yuv")
    report = tmp_path / "report.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ACL_LAB_LANG": "en",
           "ACL_LAB_PROFILE": "310p"}
    done = subprocess.run([sys.executable, "-m", "acl_lab.cli", "run", "--json", str(report),
                           str(PROGRAM), "picture_nv12.yuv", str(W), str(H), "crops"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "done"
    boxes = [(32, 128, 48, 112), (96, 160, 16, 112), (160, 240, 128, 192)]   # aligned to 16
    for i, (x1, x2, y1, y2) in enumerate(boxes):
        w, h = x2 - x1, y2 - y1
        assert f"crop {i}: {w}x{h}" in done.stdout
        got = np.fromfile(tmp_path / "crops" / f"crop_{i}_{w}x{h}.yuv", np.uint8)
        got = got.reshape(h * 3 // 2, w)
        np.testing.assert_array_equal(got[:h], y[y1:y2, x1:x2])
        np.testing.assert_array_equal(got[h:], uv[y1 // 2:y2 // 2, x1:x2])
    data = json.loads(report.read_text())
    assert data["status"] == "completed"
    assert data["failures"] == [] and data["leaks"] == []
