"""`acl-lab selftest` against a stand-in device: the simulator posing as pyACL, with one
behaviour changed, so the report has something to tell. The report must carry the
versions and SoC, pass/fail per behaviour on the device and on the reference simulator,
and name each difference with the device's own words."""
import os
import sys
import textwrap
from pathlib import Path

import pytest

from acl_lab import cli
from acl_lab.backends.ascend import selftest

REPO = Path(__file__).resolve().parents[2]
CONTRACT = REPO / "tests" / "contract"

STAND_IN = '''
"""pyACL stand-in for the self-test: the simulator (310P), except that capture status
always reads NONE, as a device with a broken aclmdlRICaptureGetInfo would."""
import sys, types
from acl_lab.sim.facade import Simulator
from acl_lab.sim.profiles import get_profile

_sim = Simulator(get_profile("310p")).acl
module = types.ModuleType("acl")
for name in dir(_sim):
    if not name.startswith("_"):
        setattr(module, name, getattr(_sim, name))
module.mdl = types.SimpleNamespace(**{n: getattr(_sim.mdl, n) for n in dir(_sim.mdl)
                                     if not n.startswith("_")})
module.mdl.ri_capture_get_info = lambda stream: (0, 0, 0)
module.__file__ = __file__
sys.modules[__name__] = module
'''


@pytest.fixture
def device(tmp_path, monkeypatch):
    (tmp_path / "acl").mkdir()
    (tmp_path / "acl" / "__init__.py").write_text(textwrap.dedent(STAND_IN))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(REPO)]))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "acl", raising=False)
    monkeypatch.delenv("ACL_LAB_GUARD", raising=False)
    yield tmp_path
    sys.modules.pop("acl", None)


def test_the_report_has_versions_soc_outcomes_and_differences(device, capsys):
    out = device / "report.md"
    facts = selftest.device_facts(REPO / "notebooks")
    assert facts["soc"] == "Ascend310P3" and facts["pyacl"].endswith("__init__.py")
    rc = selftest.selftest(CONTRACT, out, facts, only=["-k", "capture"])
    text = out.read_text()
    assert rc == 1                                   # the device failed something
    assert "| SoC | Ascend310P3 |" in text and "| reference | simulator, profile 310p |" in text
    assert "| acl_lab | 0.1.0 |" in text and "| CANN toolkit |" in text
    differences = text.split("## Differences from the simulator")[1].split("## Every")[0]
    assert "test_contract_capture::test_a_refused_call_leaves_the_capture_active`: device " \
           "FAIL, simulator pass" in differences
    assert "assert 0 == 1" in differences or "ACTIVE" in differences   # the device's words
    chapters = text.split("## Chapters on this CANN and pyACL")[1].split("## Every")[0]
    assert "06_capture_acl_graph" in chapters and "ready" in chapters
    every = text.split("## Every behaviour")[1]
    assert "| `test_contract_capture::test_an_executor_launches_once` | pass | pass |" in every
    assert "wrote" in capsys.readouterr().out


def test_behaviours_are_named_without_their_backend():
    assert selftest.behaviour("m::t[ascend]") == selftest.behaviour("m::t[sim-910b]") == "m::t"
    assert selftest.behaviour("m::t[guard-over-sim-310p-free]") == "m::t[free]"
    assert selftest.behaviour("m::t[descending]") == "m::t[descending]"


def test_the_reference_is_the_profile_closest_to_the_soc():
    assert selftest.reference_profile("Ascend910B4") == "910b"
    assert selftest.reference_profile("Ascend310P3") == "310p"
    assert selftest.reference_profile(None) == "910b"
    assert selftest.reference_profile("Ascend950") == "910b"


def test_selftest_without_a_device_says_what_is_missing(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "acl", None)
    assert cli.main(["selftest", "--out", os.devnull]) == 2
    assert "`import acl` failed" in capsys.readouterr().err
