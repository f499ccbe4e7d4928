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

ROOT = Path(__file__).resolve().parents[2]

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
    # an MDC-only call: ordinary pyACL has no such function either
    (tmp_path / "boom.py").write_text("import acl\nacl.init()\nacl.media.dvpp_vpc_calc_hist_async(0, 0, 0, 0)\n")
    done = acl_lab_run("boom.py", cwd=tmp_path)
    assert done.returncode == 1
    assert "exists only in the pyACL built for the MDC products" in done.stderr
    assert "ended: exception (AttributeError: acl.media.dvpp_vpc_calc_hist_async" in done.stderr
    assert "[boom.py:3]" in done.stderr
    assert "acl.init() was never matched by acl.finalize()" in done.stderr


def test_sys_exit_is_the_programs_status(tmp_path):
    (tmp_path / "quit.py").write_text("import sys, acl\nsys.exit(3)\n")
    assert acl_lab_run("quit.py", cwd=tmp_path).returncode == 3


def test_hasattr_stays_honest_about_calls_the_simulator_lacks():
    import acl_lab
    acl = acl_lab.load()
    assert hasattr(acl, "app_log") and hasattr(acl.util, "bytes_to_ptr")
    assert not hasattr(acl.media, "dvpp_vpc_calc_hist_async") and not hasattr(acl, "no_such_call")
    with pytest.raises(AttributeError, match=r"acl\.no_such_call: pyACL has no such call"):
        acl.no_such_call
    with pytest.raises(AttributeError, match=r"acl\.rt\.get_group_count: this call exists only "
                                             r"in the pyACL built for the MDC products"):
        acl.rt.get_group_count


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


def test_on_real_pyacl_a_missing_call_is_pyacls_own_absence():
    import types

    from acl_lab.trace import Trace, Traced
    pyacl = types.SimpleNamespace(init=lambda: 0, rt=types.SimpleNamespace(malloc=lambda s, p: (1, 0)))
    acl = Traced(pyacl, Trace(), simulated=False)
    assert acl.init() == 0 and not hasattr(acl.rt, "malloc_cached")
    with pytest.raises(AttributeError, match=r"acl\.rt\.malloc_cached: the pyACL installed here"):
        acl.rt.malloc_cached


def test_a_program_stopped_with_sigterm_still_gets_its_report(tmp_path):
    (tmp_path / "loop.py").write_text(
        "import acl, time\nacl.init()\nacl.rt.set_device(0)\nprint('ready', flush=True)\n"
        "while True:\n    time.sleep(0.05)\n")
    proc = subprocess.Popen([sys.executable, "-m", "acl_lab.cli", "run", "--json", "r.json",
                             "loop.py"], cwd=tmp_path, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    proc.terminate()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["status"] == "stopped"
    assert "device(s) 0 still set (release with acl.rt.reset_device)" in report["leaks"]


def test_numpy_contiguous_to_ptr_keeps_a_contiguous_copy_alive(bare_acl):
    import numpy as np
    acl = bare_acl
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    strided = np.arange(12, dtype=np.int32).reshape(3, 4).T        # not C-contiguous
    ptr, data_out = acl.util.numpy_contiguous_to_ptr(strided)
    assert ptr and data_out.flags.c_contiguous and (data_out == strided).all()
    back = acl.util.ptr_to_numpy(ptr, (4, 3), np.dtype(np.int32).num)
    assert (back == strided).all()
