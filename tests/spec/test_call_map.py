"""docs/call-map.md and the examples in acl_lab/sim/__init__.py are what tools/call_map.py
builds from the code today (as the compiled .mo is checked against its .po)."""
import sys
from pathlib import Path

import acl_lab.sim

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import call_map  # noqa: E402


def test_the_committed_call_map_is_up_to_date():
    assert call_map.CALL_MAP.read_text("utf-8") == call_map.render(), \
        "run .venv/bin/python tools/call_map.py"


def test_the_sim_package_examples_are_up_to_date():
    text = call_map.SIM_INIT.read_text("utf-8")
    assert text == call_map.sim_docstring_with_examples(text), \
        "run .venv/bin/python tools/call_map.py"


def test_the_map_has_a_row_for_every_facade_call_and_names_code_that_exists():
    rows = call_map.rows()
    assert len(rows) == len(call_map.PROTOTYPES)
    for row in rows:
        for qualname, path in [row.facade, *row.simulated]:
            source = (ROOT / path).read_text("utf-8")
            assert f"def {qualname.rsplit('.', 1)[-1]}" in source \
                or f"    {qualname.rsplit('.', 1)[-1]}:" in source, (row.call, qualname, path)


def test_the_core_calls_reach_the_simulator_not_just_the_facade():
    simulated = {row.call: [q for q, _ in row.simulated] for row in call_map.rows()}
    assert simulated["acl.rt.malloc"] == ["Process.malloc"]
    assert simulated["acl.rt.memcpy"] == ["transfer.memcpy"]
    assert simulated["acl.mdl.ri_capture_begin"] == ["CaptureManager.begin"]
    assert simulated["acl.rt.get_run_mode"] == ["Profile.run_mode"]   # an attribute read


def test_the_sim_package_docstring_lists_every_module():
    listed = acl_lab.sim.__doc__
    for module in sorted((ROOT / "acl_lab" / "sim").glob("*.py")):
        if module.name != "__init__.py":
            assert f"{module.name} " in listed or f"{module.name}\n" in listed, module.name


def test_both_readmes_point_to_the_call_map_and_the_rules():
    for readme in ("README.md", "README.zh-CN.md"):
        text = (ROOT / readme).read_text("utf-8")
        assert "(docs/call-map.md)" in text and "(docs/rules.md)" in text, readme
