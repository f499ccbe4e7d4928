"""docs/pyacl-coverage.md: pyACL's method tables (stored with their hicann/runtime commit, no
network), what the simulator offers of them, and the page kept current."""
from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from acl_lab.spec import pyacl_functions as pf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import pyacl_functions as tool  # noqa: E402


def test_the_committed_page_is_what_the_tool_writes():
    assert tool.main(["--check"]) == 0, "run python tools/pyacl_functions.py"


def test_the_stored_tables_count_pyacls_functions_per_namespace():
    table = pf.bound()
    assert len(table.commit) == 40
    counts = {ns: len(names) for ns, names in table.names.items()}
    assert counts == {"": 47, "rt": 182, "mdl": 83, "media": 164, "op": 32, "util": 7,
                      "prof": 36, "blas": 12}
    assert {ns: len(v) for ns, v in table.mdc_only.items() if v} == {
        "rt": 8, "mdl": 3, "media": 13}
    for ns, names in table.names.items():
        assert len(set(names)) == len(names), ns        # a name is bound once per namespace
    assert table.wrappers["rt.set_context"] == "WrapAclRtSetCurrentContext"


@pytest.mark.parametrize("text", [
    "# commit " + "0" * 40 + "\nmalloc WrapAclRtMalloc\n",                 # before any table
    "# commit " + "0" * 40 + "\n[gpu] x.cpp t\nmalloc WrapAclRtMalloc\n",   # unknown namespace
    "# commit " + "0" * 40 + "\n[rt] x.cpp t\nmalloc WrapAclRtMalloc USE_X\n",
    "[rt] x.cpp t\nmalloc WrapAclRtMalloc\n",                                # no commit
])
def test_a_damaged_table_is_refused_with_its_line(text):
    with pytest.raises(ValueError):
        pf.parse(text)


def test_offered_means_a_callable_and_refused_counts_only_what_is_offered():
    table = pf.parse("# commit " + "0" * 40 + "\n[top] a t\ninit W\nfinalize W\n"
                     "[rt] b t\nmalloc W\nlaunch_kernel W\nfree W\nset_group W USE_MDL\n")
    fake = types.SimpleNamespace(init=lambda: 0, finalize=None,
                                 rt=types.SimpleNamespace(malloc=print, launch_kernel=print))
    rows = {r.namespace: r for r in pf.coverage(fake, table)}
    assert rows[""].offered == ("init",) and rows[""].missing == ("finalize",)
    assert rows["rt"].offered == ("malloc", "launch_kernel")
    assert rows["rt"].refused == ("launch_kernel",)            # pf.REFUSED names it
    assert rows["rt"].missing == ("free",)                     # MDC-only set_group not counted
    assert rows["blas"].names == () and rows["blas"].offered == ()


def test_every_refusal_names_a_bound_call_and_explains_itself_in_both_languages():
    import acl_lab
    table = pf.bound()
    bound = {pf.qualified(ns, n) for ns, names in table.names.items() for n in names}
    for name, refusal in pf.REFUSED.items():
        assert name in bound, name
        english = refusal.message()
        assert english.startswith(refusal.c_name + ":") and "simulator" in english
        acl_lab.set_language("zh_CN")
        try:
            assert refusal.message() != english and refusal.c_name in refusal.message()
        finally:
            acl_lab.set_language("en")


def test_doctor_prints_the_count_of_each_namespace_and_the_refusals():
    import io
    from acl_lab import cli

    out = io.StringIO()
    cli.doctor(out=out)
    text = out.getvalue()
    rows = pf.coverage(tool.simulator_acl())
    for r in rows:
        label = f"acl.{r.namespace}" if r.namespace else "acl"
        assert f"  {label}{' ' * (11 - len(label))}{len(r.offered)}/{len(r.names)}\n" in text
    refused = [pf.qualified(r.namespace, n) for r in rows for n in r.refused]
    line = next(x for x in text.splitlines() if x.startswith("  refused"))
    assert all(f"acl.{n} ({pf.REFUSED[n].code})" in line for n in refused)
    assert refused or line.endswith("none on purpose")
