"""A profiling program written the way hicann/runtime's profiling examples are
(tests/examples/profiling) runs unchanged under `acl-lab run`: its collection is a profile
the StreamTimeline draws (a step, the inferences, a mark after each), its subscription
prints one op record per execution, and its report is clean."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from acl_lab.spec import profile_data
from acl_lab.widgets.timeline import TimelineScene
from mdlhelpers import convert, seq

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).parent / "profiling" / "profile_model.py"
ITERATIONS = 4


def test_the_profiling_program_collects_and_subscribes(tmp_path):
    om = convert(tmp_path, seq, "Ascend310P3", "--input_format=ND", "--input_shape=x:1,2,4")
    report = tmp_path / "report.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ACL_LAB_LANG": "en",
           "ACL_LAB_PROFILE": "310p"}
    done = subprocess.run([sys.executable, "-m", "acl_lab.cli", "run", "--json", str(report),
                           str(PROGRAM), str(om), str(ITERATIONS), "prof"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "done"
    ops = [line for line in lines if line.startswith("model ")]
    assert len(ops) == ITERATIONS and all("op MatMul_0 (MatMul)" in line for line in ops)
    (folder,) = (tmp_path / "prof").iterdir()
    profile = profile_data.read(folder)
    assert [t["kind"] for t in profile.tasks] == ["step"] + ["inference"] * ITERATIONS + ["step"]
    assert [m.message for m in profile.marks] == [f"model_exec_mark_{i}"
                                                 for i in range(ITERATIONS)]
    scene = TimelineScene(profile=folder)
    scene.refresh()
    assert len(scene.window()) == ITERATIONS + 2 and [h.kind for h in scene.host] == \
        ["mark"] * ITERATIONS
    assert "<svg" in scene.svg()
    data = json.loads(report.read_text())
    assert data["status"] == "completed"
    assert data["failures"] == [] and data["leaks"] == []
