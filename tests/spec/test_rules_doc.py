"""docs/rules.md: the numbered rules the code and tests cite, each with its source, the C
calls it governs, where the kit enforces it (names that exist) and its tests; and every
citation in the code points to something in this repository."""
import importlib
import re
import sys
from pathlib import Path

import pytest

from acl_lab.spec.prototypes import PROTOTYPES

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from call_map import RULES, read_rules  # noqa: E402

C_FUNCTIONS = {p.c_name for p in PROTOTYPES.values() if p.c_name}
CODE = sorted([*(ROOT / "acl_lab").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
               *(ROOT / "tools").glob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])


def test_the_rules_are_numbered_one_after_another():
    numbers = [r.number for r in read_rules()]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 28


def test_every_rule_names_its_source():
    text = RULES.read_text("utf-8")
    for number, body in re.findall(r"^### Rule (\d+)\n(.*?)(?=^##|\Z)", text, re.M | re.S):
        assert re.search(r"^- Source: seed 00[0-4]", body, re.M), number
    for seed in range(5):
        assert f"### Seed 00{seed}" in text


@pytest.mark.parametrize("rule", read_rules(), ids=lambda r: f"rule-{r.number}")
def test_every_rule_names_real_calls_code_and_tests(rule):
    assert rule.calls and set(rule.calls) <= C_FUNCTIONS, rule.calls
    assert rule.enforced and rule.tests
    for ref in rule.enforced:
        path, name = ref.split(": ")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        owner, _, attr = name.rpartition(".")
        obj = getattr(module, owner) if owner else module
        assert hasattr(obj, attr) or attr in getattr(obj, "__dataclass_fields__", {}), ref
    for test in rule.tests:
        text = (ROOT / test).read_text("utf-8")
        if f"`{test}` (rule {rule.number})" in RULES.read_text("utf-8"):
            assert re.search(rf"\brule {rule.number}\b|test_rule{rule.number}_", text), test


def test_code_cites_rules_that_exist_and_documents_the_repo_holds():
    numbers = {r.number for r in read_rules()}
    for path in CODE:
        text = path.read_text("utf-8")
        for n in re.findall(r"docs/rules\.md#rule-(\d+)", text):
            assert int(n) in numbers, (path, n)
        for m in re.finditer(r"\bdocs/[\w./-]+\.md", text):
            if not re.search(r"hicann/[\w-]+\s+$", text[:m.start()][-40:]):   # theirs
                assert (ROOT / m.group(0)).exists(), (path, m.group(0))


#: Ways the code used to cite documents that are not in this repository.
OUTSIDE = re.compile(r"design notes|reference/[\w-]+\.md|acl-api\.md|research section|"
                     r"rule \d+ of the \w+ seed|the runtime research")


def test_no_code_cites_a_document_outside_the_repo():
    me = Path(__file__).resolve()
    cited = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in CODE if p.resolve() != me
             for m in OUTSIDE.finditer(p.read_text("utf-8"))]
    assert cited == []
