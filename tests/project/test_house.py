"""The house holds: the rooms of acl_lab/ and the rules between them (design.md, Layout and
"Dependency rules"), read from every import in the code — top-level, lazy ones inside
functions, and ``importlib.import_module("acl_lab.…")`` strings alike.

A room is a package of acl_lab (``sim``, ``spec``, ``widgets`` …); each module at the top of
acl_lab/ (``pool``, ``trace`` …) is a room of its own. The front door (``acl_lab`` itself,
whose ``load``, ``progress`` and friends reach into the rooms) is the root every room may
use, so its own imports are not part of a circle.
"""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "acl_lab"
TOP_MODULES_AT_MOST = 12
LINES_AT_MOST = 700


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _target(name: str) -> str | None:
    """The acl_lab module an imported name belongs to (a module, or a module's attribute)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> set[str]:
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:None if is_package else -1]
                base = base[:len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for a in node.names:      # a module of a package, or a name from a module
                found.add(f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in MODULES else prefix)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"acl_lab(\.\w+)+", node.value):
            found.add(node.value)                  # importlib.import_module("acl_lab.x")
    return {t for t in map(_target, (f for f in found if f.startswith("acl_lab")))
            if t and t != module}


EDGES = {m: _imports(m, p) for m, p in MODULES.items()}


def room(module: str) -> str:
    """``acl_lab.sim.facade.rt`` -> ``sim``; ``acl_lab.pool`` -> ``pool``; the front door:
    ``acl_lab``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "acl_lab"


def room_edges() -> dict[str, set[str]]:
    out = defaultdict(set)
    for a, targets in EDGES.items():
        for b in targets:
            if room(a) != room(b):
                out[room(a)].add(room(b))
    return out


def uses(source_room: str) -> set[str]:
    """Every module of another room that ``source_room``'s modules import."""
    return {b for a, targets in EDGES.items() if room(a) == source_room
            for b in targets if room(b) != source_room}


def test_the_top_of_the_package_holds_only_entry_points_and_public_names():
    top = sorted(p.stem for p in PKG.glob("*.py"))
    assert len(top) <= TOP_MODULES_AT_MOST, top


def test_no_circle_between_rooms():
    edges = room_edges()
    edges.pop("acl_lab", None)             # the front door reaches every room it serves
    index, low, stack, on_stack, circles, counter = {}, {}, [], set(), [], [0]

    def visit(v):                          # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in list(edges):
        if v not in index:
            visit(v)
    assert not circles, [(c, {r: sorted(edges[r] & set(c)) for r in c}) for c in circles]


BASE = {"acl_lab.constants", "acl_lab.i18n", "acl_lab.align"}


@pytest.mark.parametrize("source, allowed", [
    ("constants", set()),
    ("errors", {"acl_lab.constants", "acl_lab.spec.codes", "acl_lab.spec.refusal"}),
    ("support", {"acl_lab.i18n"}),
])
def test_the_foundations_import_only_what_they_stand_on(source, allowed):
    assert uses(source) <= allowed, sorted(uses(source) - allowed)


def test_spec_knows_acl_and_nothing_of_the_kit_around_it():
    """spec/: pure rules. Besides the public base (constants, i18n, align) it may use
    plumbing (support/), never the simulator, a backend, a view, the trace — nor
    acl_lab.errors, which is the public name of its own refusal.py."""
    stray = {m for m in uses("spec") if m not in BASE and room(m) != "support"}
    assert not stray, sorted(stray)


@pytest.mark.parametrize("source, never", [
    ("sim", {"pool", "widgets", "exercises", "backends", "cli", "run", "figures"}),
    ("pool", {"sim"}),
    ("widgets", {"sim"}),
    ("exercises", {"sim"}),
    ("om", {"sim"}),
    ("trace", {"widgets"}),
])
def test_the_dependency_rules_of_design_md(source, never):
    broken = {m for m in uses(source) if room(m) in never}
    assert not broken, sorted(broken)


def test_no_module_is_longer_than_a_reader_can_hold():
    long = {str(p.relative_to(ROOT)): n for p in PKG.rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > LINES_AT_MOST}
    assert not long, long


def test_a_refusal_becomes_a_return_code_in_one_place():
    """The simulator's one call wrapper turns SimError into the code; the media engines turn
    a host refusal into the engine's failure when a queued task runs; the real-hardware
    guard's wrapper is the only other place a refusal is caught."""
    places = defaultdict(list)
    for path in PKG.rglob("*.py"):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            m = re.search(r"except (SimError|Refusal)\b", line)
            if m:
                places[m.group(1)].append(f"{path.relative_to(ROOT)}:{n}")
    assert len(places["SimError"]) <= 2, places["SimError"]
    assert [p.split(":")[0] for p in places["Refusal"]] == ["acl_lab/backends/ascend/guard.py"]
