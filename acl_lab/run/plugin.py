"""The pytest plugin: a project's tests of a pyACL application run on the simulator.

    pytest -p acl_lab.pytest_plugin --acl-lab [--acl-lab-profile=310] [--acl-lab-findings=warn]

With --acl-lab, ``import acl`` (in test modules and the code they import) gives the watched
simulator acl; each test gets a fresh simulated process, and what the test did wrong —
failed calls (use-after-free first) and resources it left alive — fails it (or warns,
with --acl-lab-findings=warn). Without --acl-lab the plugin only adds its options, so the
entry point that installs it with acl_lab changes nothing for other suites.
"""
from __future__ import annotations

import sys
import warnings

import pytest

from acl_lab.i18n import _
from acl_lab.session import SESSION
from acl_lab.run.program import fresh_watch
from acl_lab.run.report import build


class AclLabFindings(UserWarning):
    """What a test did wrong with the simulated acl (--acl-lab-findings=warn)."""


def pytest_addoption(parser):
    group = parser.getgroup("acl-lab", _("pyACL on the acl_lab simulator"))
    group.addoption("--acl-lab", action="store_true", default=False,
                    help=_("import acl gives the acl_lab simulator; a fresh simulated process "
                           "per test; misuse and leaks fail the test"))
    group.addoption("--acl-lab-profile", default=None,
                    help=_("the simulated device: 910b (default), 310, 310p, 200dk"))
    group.addoption("--acl-lab-findings", choices=("fail", "warn"), default="fail",
                    help=_("what misuse and leaks do to a test: fail it (default) or warn"))


def pytest_configure(config):
    if config.getoption("acl_lab"):
        _check_profile(config.getoption("acl_lab_profile"))
        config.pluginmanager.register(Simulated(config), "acl_lab_simulated")


def _check_profile(name: str | None) -> None:
    """An unknown --acl-lab-profile is a usage error pytest reports in one line."""
    from acl_lab.sim.profiles import get_profile

    if name is not None:
        try:
            get_profile(name)
        except ValueError as e:
            raise pytest.UsageError(f"--acl-lab-profile: {e}") from None


class Simulated:
    """The plugin at work (registered only with --acl-lab)."""

    def __init__(self, config):
        self.profile = config.getoption("acl_lab_profile")
        self.warn = config.getoption("acl_lab_findings") == "warn"
        self.watch = fresh_watch(self.profile)
        self._before = sys.modules.get("acl")
        sys.modules["acl"] = self.watch.acl       # test modules import acl at collection

    def pytest_unconfigure(self, config):
        if self._before is None:
            sys.modules.pop("acl", None)
        else:
            sys.modules["acl"] = self._before

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item):
        SESSION.reset(self.profile)            # a fresh simulated process for every test
        self.watch.failures.clear()
        self.watch.dropped = 0
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        result = yield                          # the test's fixtures have released theirs
        report = build(item.nodeid, "completed", "", SESSION, self.watch)
        findings = report.findings()
        if findings:
            text = _("acl_lab found {count} problem(s) in this test:").format(
                count=len(findings)) + "\n" + report.render()
            if self.warn:
                warnings.warn(AclLabFindings(text), stacklevel=1)
            else:
                pytest.fail(text, pytrace=False)
        return result
