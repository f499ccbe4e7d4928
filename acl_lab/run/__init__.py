"""Run pyACL programs and test suites on the simulator, unchanged, and report what they did.

``acl-lab run app.py [args]`` (acl_lab.run.program) runs a program whose ``import acl``
gets the kit's simulator; the report (acl_lab.run.report) lists the calls that failed, with
use-after-free first, what the program leaked and its modeled timeline. The pytest plugin
(acl_lab.pytest_plugin, acl_lab.run.plugin) does the same for each test of a suite.
"""
from acl_lab.run.program import acl_module, fresh_watch, run_program
from acl_lab.run.report import Report

__all__ = ["run_program", "acl_module", "fresh_watch", "Report"]
