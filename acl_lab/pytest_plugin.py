"""``pytest -p acl_lab.pytest_plugin --acl-lab``: test a pyACL application on the simulator
(the plugin lives in acl_lab/run/plugin.py; this is the name pytest loads)."""
from acl_lab.run.plugin import AclLabFindings, pytest_addoption, pytest_configure

__all__ = ["pytest_addoption", "pytest_configure", "AclLabFindings"]
