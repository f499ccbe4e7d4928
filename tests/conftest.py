import gc

import pytest

import acl_lab


@pytest.fixture(autouse=True)
def progress_home(tmp_path_factory, monkeypatch):
    """Each test records its passes in a home of its own: what it passes must not show in
    the self-tests nbval compares (they share the session's home, see ../conftest.py)."""
    home = tmp_path_factory.mktemp("acl_lab_home-")
    monkeypatch.setenv("ACL_LAB_HOME", str(home))
    return home


@pytest.fixture
def acl():
    """A fresh simulated process on the default profile, initialised with device 0 set."""
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    yield acl
    acl_lab.reset()


@pytest.fixture
def stream(acl):
    """A stream created on device 0 of ``acl``."""
    s, ret = acl.rt.create_stream()
    assert ret == 0, acl.get_recent_err_msg()
    return s


@pytest.fixture
def bare_acl():
    """A fresh simulated process on the default profile, nothing called yet."""
    acl_lab.reset("910b")
    yield acl_lab.load(profile="910b")
    acl_lab.reset()


@pytest.fixture
def acl_on():
    """Factory: ``acl_on("310")`` is a fresh process on that profile, initialised, device 0 set
    (``acl_on("310", device=False)``: nothing set)."""
    from simhelpers import fresh

    yield fresh
    acl_lab.reset("910b")


@pytest.fixture
def shell():
    """A real IPython shell (no kernel), so post_run_cell hooks fire on run_cell."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    sh = InteractiveShell.instance(config=config)
    yield sh
    sh.reset(new_session=False)     # the cells' arrays (views of simulated memory) go now:
    InteractiveShell.clear_instance()   # a later test's host-RAM budget must not count them
    gc.collect()


def pytest_addoption(parser):
    """Options of the contract suite (tests/contract); declared here so that
    `pytest --backend ascend` works from the repository root too."""
    group = parser.getgroup("acl_lab contract")
    group.addoption("--backend", default="sim", choices=("sim", "ascend"),
                    help="backend the contract runs on (default: sim)")
    group.addoption("--profile", default=None,
                    help="simulator profile (default: every profile)")
