"""acl.rt.binary_load_from_file reads a path the learner names. A FIFO nobody writes, an
endless device, a directory, a multi-GiB (sparse) file or one past the RAM budget is refused
at once with ACL_ERROR_RT_PARAM_INVALID (or SimulatorLimit) — never a hang, never a read of
gigabytes — and nothing is registered."""
import os
import subprocess
import sys
import time

import pytest

import acl_lab
from acl_lab import SimulatorLimit
from acl_lab import constants as C
from acl_lab.sim import hostram
from acl_lab.sim.kernels import MAX_BINARY
from kernelhelpers import elf_object


def refused(acl, path) -> str:
    start = time.monotonic()
    handle, ret = acl.rt.binary_load_from_file(str(path), [])
    assert (handle, ret) == (0, C.ACL_ERROR_RT_PARAM_INVALID)
    assert time.monotonic() - start < 5
    assert acl_lab.snapshot()["kernel_binaries"] == []
    return acl.get_recent_err_msg()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nobody_writes_is_refused_without_waiting(acl, tmp_path):
    os.mkfifo(tmp_path / "kernel.o")
    assert "not a regular file" in refused(acl, tmp_path / "kernel.o")


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused(acl, path):
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    assert "not a regular file" in refused(acl, path)


def test_a_directory_is_refused(acl, tmp_path):
    assert "cannot be read" in refused(acl, tmp_path) or "not a regular" in refused(
        acl, tmp_path)


def test_a_missing_file_says_so(acl, tmp_path):
    assert "cannot be read" in refused(acl, tmp_path / "missing.o")


def test_a_sparse_file_of_gigabytes_is_refused_unread(acl, tmp_path):
    path = tmp_path / "huge.o"
    with open(path, "wb") as f:
        f.write(elf_object())
        f.truncate(8 << 30)
    assert f"{MAX_BINARY} B" in refused(acl, path)


def test_a_binary_past_the_ram_budget_raises_and_registers_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv(hostram.ENV, "4MiB")
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    path = tmp_path / "big.o"
    path.write_bytes(elf_object() + bytes(8 << 20))
    with pytest.raises(SimulatorLimit, match="a copy of the binary"):
        acl.rt.binary_load_from_file(str(path), [])
    assert acl_lab.snapshot()["kernel_binaries"] == []
    monkeypatch.delenv(hostram.ENV)
    acl_lab.reset()


def test_a_real_kernel_object_loads(acl, tmp_path):
    path = tmp_path / "add_custom.o"
    path.write_bytes(elf_object())
    handle, ret = acl.rt.binary_load_from_file(str(path), [])
    assert ret == 0 and handle != 0


PROGRAM = """
import acl_lab
acl = acl_lab.load(profile="910b")
acl.init(); acl.rt.set_device(0)
for path in ["/dev/zero", {fifo!r}, "/proc/self/mem", "/proc/self/status"]:
    print(acl.rt.binary_load_from_file(path, [])[1])
print("alive")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="/proc and FIFOs on Linux")
def test_a_process_given_every_odd_file_lives_and_answers(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    code = PROGRAM.format(fifo=str(tmp_path / "fifo"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(C.ACL_ERROR_RT_PARAM_INVALID)] * 4 + ["alive"]
