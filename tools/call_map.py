"""Build the call map: each pyACL call -> C function -> facade method -> the simulator code it
reaches -> the rules that govern it -> the tests that call it most.

    .venv/bin/python tools/call_map.py           # rewrite docs/call-map.md and the examples
                                                 # in acl_lab/sim/__init__.py
    .venv/bin/python tools/call_map.py --check   # exit 1 if either is out of date

Everything is read, not written by hand: C names from acl_lab/spec/prototypes.py, the facade
methods and what they call from the source of acl_lab/sim/facade/ (ast), the simulating
objects by looking the calls up on a live simulated process, rules from docs/rules.md
("Calls:" lines), tests from tests/**/*.py (ast). tests/spec/test_call_map.py runs --check.
"""
from __future__ import annotations

import ast
import collections
import inspect
import re
import sys
import textwrap
import types
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acl_lab.sim import facade as api  # noqa: E402
from acl_lab.spec.prototypes import PROTOTYPES, public_functions  # noqa: E402

CALL_MAP = ROOT / "docs" / "call-map.md"
RULES = ROOT / "docs" / "rules.md"
SIM_INIT = ROOT / "acl_lab" / "sim" / "__init__.py"
#: calls the sim/__init__.py docstring shows as examples (the chapters' first calls)
EXAMPLES = ("init", "rt.set_device", "rt.malloc", "rt.free", "rt.memcpy_async",
            "rt.synchronize_stream", "mdl.ri_capture_begin", "util.ptr_to_numpy")
_EXAMPLES_START = "Examples (written by tools/call_map.py; every call: docs/call-map.md):"


# ----- rules ---------------------------------------------------------------------------------
class Rule(NamedTuple):
    number: int
    calls: tuple[str, ...]          # C functions the rule governs
    enforced: tuple[str, ...]       # "acl_lab/spec/memory_rules.py: free_refusal", ...
    tests: tuple[str, ...]          # "tests/spec/test_rules_memory.py", ...


def read_rules(path: Path = RULES) -> list[Rule]:
    """The numbered rules of docs/rules.md with their Calls / Enforced in / Tests lines."""
    rules = []
    for number, body in re.findall(r"^### Rule (\d+)\n(.*?)(?=^##|\Z)", path.read_text("utf-8"),
                                   flags=re.M | re.S):
        fields = dict(re.findall(r"^- ([A-Z][\w ]+): (.*)$", body, flags=re.M))
        enforced = tuple(f"{part.split(':')[0].strip(' `')}: {name}"
                         for part in fields.get("Enforced in", "").split(";") if ":" in part
                         for name in re.findall(r"`([\w.]+)`", part.split(":", 1)[1]))
        rules.append(Rule(int(number), tuple(re.findall(r"`(\w+)`", fields.get("Calls", ""))),
                          enforced, tuple(re.findall(r"`(tests/[\w/]+\.py)`",
                                                     fields.get("Tests", "")))))
    return rules


# ----- what a facade method reaches -----------------------------------------------------------
_SIM_ROOT = ("rt",)                       # the simulated process the facade works on


def _chain(node) -> list[str] | None:
    """``rt.models.load`` -> ["rt", "models", "load"]; ``self._sim.rt.x`` -> ["rt", "x"]."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts = [node.id] + parts[::-1]
    if parts[:3] == ["self", "_sim", "rt"]:
        parts = parts[2:]
    return parts


def _namespace_of(fn) -> dict:
    """The globals of the module that defines ``fn`` (a facade module)."""
    return inspect.unwrap(fn).__globals__


def _simulating(value) -> bool:
    """A module of the simulator (acl_lab/sim/, its media room too), not the facade."""
    return isinstance(value, types.ModuleType) and value.__name__.startswith(
        ("acl_lab.sim.", "acl_lab.sim.media."))


def _function_ast(fn) -> ast.FunctionDef:
    source = textwrap.dedent(inspect.getsource(inspect.unwrap(fn)))
    return next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef))


def _reached(fn, owner: type, seen: set) -> list[list[str]]:
    """The outermost simulator calls (as name chains) ``fn`` makes, through the facade's own
    helpers (``self._launch``, ``_capture_stream``): ["rt", "malloc"], ["transfer", "memcpy"]."""
    if fn in seen:
        return []
    seen.add(fn)
    found: list = []
    fn_module = inspect.unwrap(fn).__module__
    space = _namespace_of(fn)
    modules = {name for name, value in space.items() if _simulating(value)}

    def visit(node):
        if isinstance(node, ast.Call):
            chain = _chain(node.func)
            if chain and len(chain) > 1 and (chain[0] in _SIM_ROOT or chain[0] in modules):
                found.append(chain if chain[0] in _SIM_ROOT else [space[chain[0]], *chain[1:]])
                return                       # its arguments are lookups for it
            helper = None
            if chain and chain[0] == "self" and len(chain) == 2:
                helper = inspect.getattr_static(owner, chain[1], None)
                helper = getattr(helper, "__func__", helper)
            elif chain and len(chain) == 1:
                helper = space.get(chain[0])
            if inspect.isfunction(helper) and helper.__module__ == fn_module:
                found.extend(_reached(helper, owner, seen))
        for child in ast.iter_child_nodes(node):
            visit(child)

    tree = _function_ast(fn)
    for statement in tree.body:
        visit(statement)
    if not found:           # no call: an attribute read (rt.profile.run_mode, rt.last_error)
        for node in ast.walk(tree):
            chain = _chain(node) if isinstance(node, ast.Attribute) else None
            if chain and chain[0] in _SIM_ROOT and len(chain) > 1 and chain[1] != "lock":
                found.append(chain)
                break
    return found


@lru_cache(maxsize=None)
def _process():
    return api.Simulator()


def _where(chain: list[str]) -> tuple[str, str] | None:
    """(qualified name, repository path) of the object a chain names on a live process."""
    if chain[0] in _SIM_ROOT:
        parent = _process().rt
        for attr in chain[1:-1]:
            parent = getattr(parent, attr, None)
        owner = type(parent)
        if parent is None or not any(chain[-1] in vars(k) or chain[-1] in
                                     getattr(k, "__dataclass_fields__", {})
                                     for k in owner.__mro__):
            return None
        defining = next(k for k in owner.__mro__ if chain[-1] in vars(k)
                        or chain[-1] in getattr(k, "__dataclass_fields__", {}))
        return f"{defining.__qualname__}.{chain[-1]}", _path(defining.__module__)
    module = chain[0]
    return f"{module.__name__.rsplit('.', 1)[-1]}.{chain[-1]}", _path(module.__name__)


def _path(module: str) -> str:
    return module.replace(".", "/") + ".py"


def simulated_by(name: str, fn) -> list[tuple[str, str]]:
    """Where facade function ``name`` hands the call to the simulator, outermost first."""
    namespace = name.rpartition(".")[0]
    owner = api.FACADE[namespace]
    out = []
    for chain in _reached(fn, owner, set()):
        where = _where(chain)
        if where is not None and where not in out:
            out.append(where)
    return out


# ----- tests ---------------------------------------------------------------------------------
_IN_TEXT = re.compile(r"\bacl\.((?:rt|mdl|nn|media|util)\.)?(\w+)\(")


def _test_modules() -> list[Path]:
    """tests/**/test_*.py, and every module of a test package (tests/stateful/**)."""
    return sorted(p for p in (ROOT / "tests").rglob("*.py")
                  if p.name.startswith("test_") or (p.parent / "__init__.py").exists())


@lru_cache(maxsize=None)
def _test_calls() -> dict[str, collections.Counter]:
    """pyACL call name ("rt.malloc", "init") -> how often each test file names it: called or
    passed on (``acl.rt.malloc``), or in code a test runs (``"acl.rt.free(ptr)"``)."""
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    names = {n for n, _ in public_functions(api.FACADE)}
    for path in _test_modules():
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for namespace, fn in _IN_TEXT.findall(node.value):
                    if namespace + fn in names:
                        counts[namespace + fn][rel] += 1
                continue
            chain = _chain(node) if isinstance(node, ast.Attribute) else None
            if not chain or len(chain) < 2:
                continue
            if ".".join(chain[-2:]) in names:                      # acl.rt.malloc
                counts[".".join(chain[-2:])][rel] += 1
            elif f"media.{chain[-1]}" in names:     # m = acl.media; m.dvpp_vpc_resize_async
                counts[f"media.{chain[-1]}"][rel] += 1
            elif chain[-2] == "acl" and chain[-1] in names:        # acl.init
                counts[chain[-1]][rel] += 1
    return counts


def covering_tests(name: str) -> list[str]:
    """The test file that calls ``name`` most (ties: by path), or none."""
    counter = _test_calls().get(name)
    if not counter:
        return []
    return [min(counter, key=lambda rel: (-counter[rel], rel))]


# ----- the table -----------------------------------------------------------------------------
class Row(NamedTuple):
    call: str
    c_name: str
    facade: tuple[str, str]
    simulated: list[tuple[str, str]]
    rules: list[int]
    tests: list[str]


def rows() -> list[Row]:
    by_call = collections.defaultdict(list)
    for rule in read_rules():
        for c in rule.calls:
            by_call[c].append(rule.number)
    out = []
    for name, fn in public_functions(api.FACADE):
        proto = PROTOTYPES[name]
        facade = (inspect.unwrap(fn).__qualname__, _path(inspect.unwrap(fn).__module__))
        out.append(Row(f"acl.{name}", proto.c_name or "", facade, simulated_by(name, fn),
                       by_call.get(proto.c_name, []), covering_tests(name)))
    return out


def _code_link(text: str, path: str) -> str:
    return f"[`{text}`](../{path})"


def render() -> str:
    lines = [
        "# Call map",
        "",
        "Where each pyACL call of the simulator goes: its C function, the facade method in",
        "`acl_lab/sim/facade/` (its arguments read and a refusal turned into a return code by the",
        "one call wrapper, `acl_lab/sim/facade/_call.py`),",
        "the simulator code that does the work, the [rules](rules.md) that govern it, and the",
        "test file that names it most (— where none does by name; a test may still reach it",
        "through `getattr`). Built by `tools/call_map.py` from the prototype table",
        "(`acl_lab/spec/prototypes/`), the code and `docs/rules.md`; `tests/spec/test_call_map.py`",
        "fails when it is out of date: run `.venv/bin/python tools/call_map.py`.",
        "",
        "Every call goes through the trace first (`acl_lab/trace.py`, `Traced`), then:",
        "",
        "| pyACL call | C function | facade method | simulated by | rules | tested most in |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows():
        simulated = ", ".join(_code_link(q, p) for q, p in r.simulated) or "the facade itself"
        rules = ", ".join(f"[{n}](rules.md#rule-{n})" for n in r.rules) or "—"
        tests = ", ".join(f"[`{t.removeprefix('tests/')}`](../{t})" for t in r.tests) or "—"
        lines.append(f"| `{r.call}` | {f'`{r.c_name}`' if r.c_name else 'pyACL only'} | "
                     f"{_code_link(*r.facade)} | {simulated} | {rules} | {tests} |")
    return "\n".join(lines) + "\n"


def examples() -> str:
    """The few rows the sim package docstring shows: call → C → facade → simulator (rules)."""
    chosen = sorted((r for r in rows() if r.call.removeprefix("acl.") in EXAMPLES),
                    key=lambda r: EXAMPLES.index(r.call.removeprefix("acl.")))
    return "\n".join(
        f"    {r.call} → {r.c_name or '(pyACL only)'} → {r.facade[0]}\n"
        f"        → {', '.join(q for q, _ in r.simulated) or '(the facade)'}"
        + (f" (rules {' '.join(map(str, r.rules))})" if r.rules else "") for r in chosen)


def sim_docstring_with_examples(text: str) -> str:
    """``acl_lab/sim/__init__.py`` with its examples block rewritten."""
    start = text.index(_EXAMPLES_START) + len(_EXAMPLES_START)
    end = text.index('"""', start)
    return text[:start] + "\n\n" + examples() + "\n" + text[end:]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    wanted = {CALL_MAP: render(),
              SIM_INIT: sim_docstring_with_examples(SIM_INIT.read_text("utf-8"))}
    stale = [p for p, text in wanted.items()
             if not p.exists() or p.read_text("utf-8") != text]
    if check:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: run .venv/bin/python tools/call_map.py")
        return 1 if stale else 0
    for p in stale:
        p.write_text(wanted[p], "utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
