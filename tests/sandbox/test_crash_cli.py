"""No raw traceback anywhere a learner or a program can reach (fourth probe): the kit's
commands given odd input, `acl-lab run` of programs that break the runner's world or are
stopped, the pytest plugin with an unknown profile.

Each case runs the command in its own process under the crash suite's RSS watchdog with a
timeout, in a fresh folder, and asserts its exit status, its words and that no Python
traceback reached the screen.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from test_crash_suite import BUDGET_MIB, HEADROOM_MIB, watched

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _env(tmp_path):
    return {**os.environ, "ACL_LAB_HOST_RAM": f"{BUDGET_MIB}MiB",
            "ACL_LAB_HOME": str(tmp_path / "home")}


def _cli(tmp_path, *args, timeout: float = 90) -> tuple[int, str]:
    rc, peak, output, _seconds = watched([sys.executable, "-m", "acl_lab.cli", *args],
                                         _env(tmp_path), tmp_path, timeout)
    assert rc >= 0, f"killed by signal {-rc}:\n{output[-2000:]}"
    assert "Traceback" not in output, output[-3000:]
    assert peak <= BUDGET_MIB + HEADROOM_MIB, peak
    return rc, output


@pytest.fixture
def digits(tmp_path):
    from acl_lab import sample_models
    return str(sample_models.write("digits", tmp_path))


def _atc(tmp_path, *flags):
    return _cli(tmp_path, "atc", *flags, "--framework=5", "--soc_version=Ascend910B3")


# ----- acl-lab atc: where it writes ---------------------------------------------------------
@pytest.mark.parametrize("output", ["folder", "/proc/no/such/place", "a_file/out"])
def test_atc_with_an_output_it_cannot_write_says_so(tmp_path, digits, output):
    (tmp_path / "folder.om").mkdir()
    (tmp_path / "a_file").write_text("x")
    rc, text = _atc(tmp_path, f"--model={digits}", f"--output={output}")
    assert rc == 1 and "E10001" in text and "[--output]" in text and "cannot be written" in text
    assert "ATC run failed" in text


def test_atc_singleop_into_a_file_says_so(tmp_path):
    (tmp_path / "op.json").write_text(json.dumps([{
        "op": "Add", "input_desc": [{"format": "ND", "shape": [4], "type": "float"}] * 2,
        "output_desc": [{"format": "ND", "shape": [4], "type": "float"}]}]))
    (tmp_path / "ops").write_text("x")
    rc, text = _cli(tmp_path, "atc", "--singleop=op.json", "--output=ops",
                    "--soc_version=Ascend910B3")
    assert rc == 1 and "E10001" in text and "cannot be written" in text


ODD_DESCRIPTIONS = {
    "number_list": "[1]",
    "input_desc_a_number": '{"op": "Add", "input_desc": 5}',
    "input_desc_an_object": '{"op": "Add", "input_desc": {"a": 1}}',
    "attr_a_number": '{"op": "Add", "attr": 5}',
    "list_attr_a_number": '{"op": "Add", "attr": [{"name": "a", "type": "list_int", '
                          '"value": 5}]}',
    "const_a_string": '{"op": "Add", "input_desc": [{"type": "float", "shape": [2], '
                      '"is_const": true, "const_value": "ab"}]}',
    "const_ragged": '{"op": "Add", "input_desc": [{"type": "float", "shape": [2], '
                    '"is_const": true, "const_value": [[1], [2, 3]]}]}',
    "const_out_of_range": '{"op": "Add", "input_desc": [{"type": "int8", "shape": [1], '
                          '"is_const": true, "const_value": [100000]}]}',
    "shape_of_bools": '{"op": "Add", "input_desc": [{"type": "float", "shape": [true]}]}',
    "shape_past_int64": '{"op": "Add", "input_desc": [{"type": "float", '
                        '"shape": [9223372036854775808]}]}',
    "format_a_list": '{"op": "Add", "input_desc": [{"type": "float", "shape": [4], '
                     '"format": ["ND"]}]}',
    "type_a_list": '{"op": "Add", "input_desc": [{"type": ["float"], "shape": [4]}]}',
    "int_attr_infinite": '{"op": "Add", "attr": [{"name": "a", "type": "int", '
                         '"value": 1e400}]}',
    "nested": "[" * 50000 + "]" * 50000,
    "not_utf8": b"\xff\xfe[\x00",
}


@pytest.mark.parametrize("name", list(ODD_DESCRIPTIONS))
def test_an_odd_singleop_description_is_an_e10001(tmp_path, name):
    text = ODD_DESCRIPTIONS[name]
    (tmp_path / "op.json").write_bytes(text if isinstance(text, bytes) else text.encode())
    rc, out = _cli(tmp_path, "atc", "--singleop=op.json", "--output=ops",
                   "--soc_version=Ascend910B3")
    assert rc == 1 and "E10001" in out and "[--singleop]" in out, out
    assert not (tmp_path / "ops").exists()


# ----- acl-lab student / assignments --------------------------------------------------------
@pytest.mark.parametrize("command", ["student", "assignments"])
def test_student_and_assignments_given_a_file_say_so(tmp_path, command):
    (tmp_path / "a_file").write_text("x")
    for out in ("a_file", "a_file/below"):
        rc, text = _cli(tmp_path, command, out, "--chapters", "02",
                        "--notebooks", os.path.join(ROOT, "notebooks"))
        assert rc == 2 and "cannot write" in text, text


@pytest.mark.parametrize("notebook", ["{not json", '{"cells": 5}', '{"cells": [{"source": 1}]}',
                                      "[" * 50000 + "]" * 50000])
def test_student_and_assignments_given_broken_notebooks_say_so(tmp_path, notebook):
    (tmp_path / "nbs").mkdir()
    (tmp_path / "nbs" / "01_x.ipynb").write_text(notebook)
    (tmp_path / "a_file").write_text("x")
    for args in (["student", "out", "--notebooks", "nbs"],
                 ["assignments", "out", "--notebooks", "nbs"],
                 ["student", "out", "--notebooks", "a_file"]):
        rc, text = _cli(tmp_path, *args)
        assert rc == 2 and "acl-lab" in text, text


# ----- the pytest plugin ---------------------------------------------------------------------
def test_the_plugin_with_an_unknown_profile_is_a_usage_error(tmp_path):
    (tmp_path / "test_app.py").write_text("def test_a():\n    import acl\n    assert acl.init() == 0\n")
    rc, peak, out, _s = watched([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 "-p", "acl_lab.pytest_plugin", "--acl-lab",
                                 "--acl-lab-profile=nope", "test_app.py"],
                                _env(tmp_path), tmp_path, 90)
    assert rc == 4, out                      # pytest's usage-error status
    assert "ERROR: --acl-lab-profile: unknown profile 'nope'" in out
    assert "INTERNALERROR" not in out and "Traceback" not in out


# ----- acl-lab run: a program that breaks the runner's world -------------------------------
PROGRAMS = {
    "replaces_builtins": "import builtins\nbuiltins.len = None\nbuiltins.print = None\n"
                         "builtins.isinstance = lambda *a: 1 / 0\n",
    "closes_stdout_and_stderr": "import sys\nsys.stderr.close()\nsys.stdout.close()\n"
                                "sys.stdout = None\n",
    "replaces_os_and_sys": "import os, sys\nos.getcwd = os.chdir = None\nsys.exit = None\n",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_run_reports_whatever_the_program_did_to_the_runner(tmp_path, name):
    (tmp_path / "app.py").write_text("import acl\nacl.init()\nacl.rt.set_device(0)\n"
                                     "p, _ = acl.rt.malloc(64, 0)\n" + PROGRAMS[name])
    rc, text = _cli(tmp_path, "run", "--json", "r.json", "app.py")
    assert rc == 0, text
    assert "acl-lab run report: app.py" in text and "leaks" in text
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["status"] == "completed" and report["leaks"]


LOOP = """import acl, time
acl.init()
acl.rt.set_device(0)
p, ret = acl.rt.malloc(1024, 0)
acl.rt.free(p + 32)                  # a failed call the report lists
print("READY", flush=True)
while True:
    acl.rt.malloc(16, 0)             # Ctrl-C lands in kit calls too
    time.sleep(0.005)
"""


@pytest.mark.parametrize("sig, status, code", [(signal.SIGINT, "interrupted", 130),
                                               (signal.SIGTERM, "stopped", 1),
                                               (signal.SIGHUP, "stopped", 1),
                                               (signal.SIGQUIT, "stopped", 1)])
def test_run_reports_a_program_stopped_by_ctrl_c_or_a_signal(tmp_path, sig, status, code):
    (tmp_path / "loop.py").write_text(LOOP)
    proc = subprocess.Popen([sys.executable, "-m", "acl_lab.cli", "run", "--json", "r.json",
                             "loop.py"], cwd=tmp_path, env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "READY"
        time.sleep(0.3)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert "Traceback" not in err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["status"] == status
    assert report["error"].startswith("KeyboardInterrupt [loop.py:" if status == "interrupted"
                                      else signal.Signals(sig).name), report["error"]
    assert any(f["call"] == "rt.free" and f["code"] == 107000 for f in report["failures"])
    assert any("allocation" in line for line in report["leaks"]), report["leaks"]
    assert "acl-lab run report: loop.py" in err
