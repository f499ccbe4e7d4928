"""For every pytest run from this checkout, tests/ and notebooks/ (nbval) alike: the learner's
progress (acl_lab.progress(), $ACL_LAB_HOME) goes to a throwaway home, never the developer's
real one. nbval's kernels inherit the environment; tests/conftest.py gives each test a home
of its own on top."""
import os
import shutil
import tempfile

_SESSION_HOME = tempfile.mkdtemp(prefix="acl_lab_home-")
os.environ["ACL_LAB_HOME"] = _SESSION_HOME


def pytest_unconfigure(config):
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)
