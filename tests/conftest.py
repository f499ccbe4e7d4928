import pytest

import acl_lab


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
