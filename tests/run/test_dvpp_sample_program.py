"""The official-style DVPP program chapter 09 runs with `acl-lab run`: it classifies the
chapter's pictures right, and the report finds exactly its two bugs (the double free at
release, one leaked JPEG buffer per picture) and nothing else."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = files("acl_lab") / "programs" / "dvpp_classify.py"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    pytest.importorskip("onnx")
    from PIL import Image

    from acl_lab import sample_models
    from acl_lab.om.atc import main as atc
    here = tmp_path_factory.mktemp("dvpp_sample")
    sample_models.write("digits", here / "models")
    atc([f"--model={here}/models/digits.onnx", "--framework=5",
         f"--output={here}/models/digits", "--soc_version=Ascend910B3"])
    for digit in (7, 3, 4):
        mask = (sample_models.digit_image(digit)[0, 0] * 255).astype(np.uint8)
        Image.fromarray(mask).resize((200, 200)).convert("RGB").save(
            here / f"digit_{digit}.jpg", quality=90)
    return here


def run(workdir, *extra):
    report = workdir / "report.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ACL_LAB_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "acl_lab.cli", "run", "--json", str(report),
                           *extra, str(PROGRAM), "models/digits.om",
                           *(f"digit_{d}.jpg" for d in (7, 3, 4))],
                          cwd=workdir, env=env, capture_output=True, text=True, timeout=300)
    return done, json.loads(report.read_text())


def test_the_sample_classifies_and_the_report_names_its_two_bugs(workdir):
    done, report = run(workdir)
    assert done.returncode == 0, done.stderr
    for digit in (7, 3, 4):
        assert f"digit_{digit}.jpg: digit {digit} " in done.stdout
    assert report["status"] == "completed"
    frees = [f for f in report["failures"] if f["freed"]]
    assert len(frees) == 1 and frees[0]["call"] == "media.dvpp_free"
    line = int(frees[0]["where"].split(":")[1])
    source = Path(str(PROGRAM)).read_text().splitlines()
    assert "dvpp_free(self.decode_out)" in source[line - 1]
    assert not [f for f in report["failures"] if not f["freed"]]
    assert len(report["leaks"]) == 1
    assert "3 allocation(s) never freed" in report["leaks"][0]
    assert report["leaks"][0].count("from acldvppMalloc") == 3


def test_strict_mode_fails_the_run(workdir):
    done, _report = run(workdir, "--strict")
    assert done.returncode == 1
