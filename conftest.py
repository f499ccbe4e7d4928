"""For every pytest run from this checkout, tests/ and notebooks/ (nbval) alike: the learner's
progress (acl_lab.progress(), $ACL_LAB_HOME) goes to a throwaway home, never the developer's
real one. tests/conftest.py gives each test a home of its own on top, and each notebook nbval
runs gets an empty one when its kernel starts (kernels inherit the environment), so passes
recorded elsewhere in the run (a browser test's JupyterLab, a kernel test) never show in a
chapter's self-test."""
import os
import shutil
import tempfile

import pytest

_SESSION_HOME = tempfile.mkdtemp(prefix="acl_lab_home-")
os.environ["ACL_LAB_HOME"] = _SESSION_HOME
_NOTEBOOKS_STARTED: set = set()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    notebook = item.parent
    if type(item).__name__ == "IPyNbCell" and notebook not in _NOTEBOOKS_STARTED:
        _NOTEBOOKS_STARTED.add(notebook)
        os.environ["ACL_LAB_HOME"] = tempfile.mkdtemp(dir=_SESSION_HOME)


def pytest_unconfigure(config):
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)
