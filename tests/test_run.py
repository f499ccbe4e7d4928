"""`acl-lab run` and the pytest plugin: pyACL programs and test suites, unchanged, on the
simulator, with a report of what they did wrong (each in a subprocess, as a user runs it)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HELPER = '''
import acl

def copy_after_free():
    dev, ret = acl.rt.malloc(1024, 0)
    host, ret = acl.rt.malloc_host(1024)
    acl.rt.free(dev)
    return acl.rt.memcpy(dev, 1024, host, 1024, 1), acl.get_recent_err_msg()
'''

APP = '''
import sys
import acl
import helper

if __name__ == "__main__":
    print("argv", sys.argv[1:])
    acl.init()
    acl.rt.set_device(0)
    ret, message = helper.copy_after_free()
    print("memcpy", ret, "explained" if "use-after-free" in message else message)
    acl.rt.reset_device(0)
    acl.finalize()
'''


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT), "ACL_LAB_LANG": "en"}


def acl_lab_run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "acl_lab.cli", "run", *args], cwd=cwd,
                          env=_env(), capture_output=True, text=True, timeout=120)


@pytest.fixture
def program(tmp_path):
    (tmp_path / "helper.py").write_text(HELPER)
    (tmp_path / "app.py").write_text(APP)
    return tmp_path


def test_a_program_runs_unchanged_and_its_report_names_the_use_after_free(program):
    done = acl_lab_run("--json", "report.json", "app.py", "--size", "4", cwd=program)
    assert done.returncode == 0, done.stderr
    # the program saw its own argv, __main__, its folder's modules, and the explanation
    assert "argv ['--size', '4']" in done.stdout
    assert "memcpy 107000 explained" in done.stdout
    assert "use-after-free (1):" in done.stderr and "helper.py:8  acl.rt.memcpy" in done.stderr
    assert "1 host allocation(s) never freed" in done.stderr
    report = json.loads((program / "report.json").read_text())
    assert report["status"] == "completed"
    [failure] = report["failures"]
    assert failure["call"] == "rt.memcpy" and failure["freed"] and failure["code"] == 107000


def test_strict_turns_findings_into_a_failing_status(program):
    assert acl_lab_run("--strict", "app.py", cwd=program).returncode == 1


def test_a_program_that_raises_ends_with_status_1_and_says_where(tmp_path):
    (tmp_path / "boom.py").write_text("import acl\nacl.init()\nacl.media.vdec_create_channel(0)\n")
    done = acl_lab_run("boom.py", cwd=tmp_path)
    assert done.returncode == 1
    assert "acl_lab does not simulate this pyACL call yet" in done.stderr
    assert "ended: exception (AttributeError: acl.media.vdec_create_channel" in done.stderr
    assert "[boom.py:3]" in done.stderr
    assert "acl.init() was never matched by acl.finalize()" in done.stderr


def test_sys_exit_is_the_programs_status(tmp_path):
    (tmp_path / "quit.py").write_text("import sys, acl\nsys.exit(3)\n")
    assert acl_lab_run("quit.py", cwd=tmp_path).returncode == 3


def test_hasattr_stays_honest_about_calls_the_simulator_lacks():
    import acl_lab
    acl = acl_lab.load()
    assert hasattr(acl, "app_log") and hasattr(acl.util, "bytes_to_ptr")
    assert not hasattr(acl.media, "vdec_create_channel") and not hasattr(acl, "no_such_call")
    with pytest.raises(AttributeError, match=r"acl\.no_such_call: acl_lab does not simulate"):
        acl.no_such_call


SUITE = '''
import acl

def test_clean():
    acl.init(); acl.rt.set_device(0)
    dev, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    acl.rt.free(dev)
    acl.rt.reset_device(0); acl.finalize()

def test_leaks_a_stream():
    acl.init(); acl.rt.set_device(0)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
'''


def run_pytest(tmp_path, *options):
    (tmp_path / "test_app.py").write_text(textwrap.dedent(SUITE))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "acl_lab.pytest_plugin", "-o", "addopts=", *options,
                           "test_app.py"], cwd=tmp_path, env=_env(), capture_output=True,
                          text=True, timeout=120)


def test_the_plugin_fails_the_test_that_leaks_each_test_on_a_fresh_process(tmp_path):
    done = run_pytest(tmp_path, "--acl-lab")
    assert "2 passed, 1 error" in done.stdout, done.stdout
    assert "ERROR test_app.py::test_leaks_a_stream" in done.stdout
    assert "1 aclrtStream never released (release with acl.rt.destroy_stream)" in done.stdout
    assert "test_clean" not in done.stdout.split("short test summary")[1]


def test_the_plugin_can_warn_instead(tmp_path):
    done = run_pytest(tmp_path, "--acl-lab", "--acl-lab-findings=warn")
    assert done.returncode == 0 and "2 passed, 1 warning" in done.stdout, done.stdout
    assert "AclLabFindings" in done.stdout


def test_the_plugin_does_nothing_unless_asked(tmp_path):
    done = run_pytest(tmp_path)
    assert "No module named 'acl'" in done.stdout, done.stdout
