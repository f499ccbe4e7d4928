"""The contract: the runtime behaviour the chapters rely on, checked against one backend.

    pytest tests/contract                         # the simulator, every profile (CI),
                                                  # and the guard over the simulator
    pytest tests/contract --profile 310           # the simulator, one profile
    pytest tests/contract --backend ascend        # a real Ascend NPU through pyACL

Every test says what it compares. Addresses, timings and exact free-memory figures differ
between the simulator and a device; values copied, return codes, alignment and the
direction in which free memory moves do not. On ``--backend ascend`` the guard is part
of the contract (it is on by default); with ACL_LAB_GUARD=0 misuse only has to fail.
Without pyACL or a device, every test errors at setup with the reason and the fix.
"""
import sys

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.backends.ascend import BackendUnavailable, guard_wanted


def pytest_generate_tests(metafunc):
    if "target" not in metafunc.fixturenames:
        return
    config = metafunc.config
    if config.getoption("backend") == "ascend":
        targets = [("ascend", None)]
    else:
        from acl_lab.sim.profiles import PROFILES
        chosen = config.getoption("profile")
        targets = [("sim", p) for p in ([chosen] if chosen else sorted(PROFILES))]
        targets.append(("guard-over-sim", chosen or "910b"))
    metafunc.parametrize("target", targets, indirect=True, scope="session",
                         ids=[b if b == "ascend" else f"{b}-{p}" for b, p in targets])


def _backend(target) -> str:
    return "sim" if target[0] == "sim" else "ascend"


@pytest.fixture(scope="session")
def target(request):
    """(name, profile), loaded once; on hardware, ACL is finalised after the last test.

    "guard-over-sim" runs the ascend backend with the simulator standing in for pyACL: it
    proves, without hardware, that the guard lets every lawful call through and that
    snapshot() and reset() work from its registry. It says nothing about a real device.
    """
    name, profile = request.param
    patch = pytest.MonkeyPatch()
    if name == "guard-over-sim":
        from acl_lab.sim.facade import Simulator
        from acl_lab.sim.profiles import get_profile
        patch.setitem(sys.modules, "acl", Simulator(get_profile(profile)).acl)
    try:
        acl = acl_lab.load(backend=_backend(request.param), profile=profile)
    except BackendUnavailable as e:
        acl, missing = None, str(e)
    if acl is None:
        pytest.fail(f"--backend {name}: {missing}", pytrace=False)
    yield request.param
    if name != "sim":
        acl_lab.reset()
        acl.finalize()
    patch.undo()
    acl_lab.load(backend="sim")


@pytest.fixture
def acl(target):
    """ACL initialised with device 0 set, in a process holding nothing else."""
    backend = _backend(target)
    acl = acl_lab.load(backend=backend, profile=target[1])
    acl_lab.reset()
    ret = acl.init()
    # aclInit runs once per process: on hardware the tests after the first one see
    # REPEAT_INITIALIZE; the simulator starts a fresh process for every test.
    assert ret == C.ACL_SUCCESS or (backend == "ascend" and ret == C.ACL_ERROR_REPEAT_INITIALIZE)
    assert acl.rt.set_device(0) == C.ACL_SUCCESS
    yield acl
    acl_lab.reset()


@pytest.fixture
def capturing(acl):
    """For tests that capture: skipped on a SoC without ACL Graph (Ascend 310B), where
    test_contract_capture checks that capture is refused instead."""
    from acl_lab.spec.socs import captures
    if not captures(acl.get_soc_name()):
        pytest.skip(f"{acl.get_soc_name()} cannot capture a stream (ACL Graph)")


@pytest.fixture
def run_mode(acl):
    mode, ret = acl.rt.get_run_mode()
    assert ret == 0
    return mode


@pytest.fixture
def refused(acl, target):
    """Check a misuse failed: always nonzero; with the simulator or the guard explaining
    it, exactly ``code`` and a message saying why."""
    explains = _backend(target) == "sim" or guard_wanted()

    def check(ret, code):
        assert ret != C.ACL_SUCCESS
        if explains:
            assert ret == code, f"{ret} != {code}: {acl.get_recent_err_msg()}"
            assert acl.get_recent_err_msg()
    return check
