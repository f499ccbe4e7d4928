"""Count what the simulator offers of the functions pyACL binds, per namespace, and write
docs/pyacl-coverage.md.

    python tools/pyacl_functions.py            # rewrite docs/pyacl-coverage.md
    python tools/pyacl_functions.py --check    # exit 1 if the committed page is out of date

pyACL's functions are the PyMethodDef tables of hicann/runtime python/pyACL, stored with
their commit in acl_lab/spec/pyacl_functions.txt (no network needed); what the simulator
offers is a callable of that name on a fresh ``acl_lab.load()`` (its own session, so the
count never disturbs a learner's). tests/project/test_pyacl_coverage.py runs --check.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acl_lab.spec import pyacl_functions as pf  # noqa: E402

PAGE = ROOT / "docs" / "pyacl-coverage.md"


def simulator_acl():
    """The simulator's traced ``acl`` in a session of its own."""
    from acl_lab.session import Session
    from acl_lab.sim.profiles import DEFAULT_PROFILE
    return Session().load(backend="sim", profile=DEFAULT_PROFILE)


def _label(ns: str) -> str:
    return "`acl` (top level)" if not ns else f"`acl.{ns}`"


def _share(part: int, whole: int) -> str:
    return f"{100 * part // whole}%" if whole else "-"


def render(acl=None) -> str:
    """The page, from the stored tables and what ``acl`` (default: the simulator) offers."""
    from acl_lab.trace import pyacl_functions

    acl = acl if acl is not None else simulator_acl()
    table = pf.bound()
    rows = pf.coverage(acl, table)
    lines = [
        "# pyACL coverage",
        "",
        "What the simulator (`acl_lab.load()`) offers of the functions pyACL binds, per "
        "namespace. pyACL's functions are the `PyMethodDef` tables of hicann/runtime "
        f"`python/pyACL` at commit `{table.commit}` (`py_init_acl.cpp` for the top level, "
        "`<namespace>/py<namespace>_methods.cpp` for the rest), stored in "
        "[`acl_lab/spec/pyacl_functions.txt`](../acl_lab/spec/pyacl_functions.txt); a call is "
        "offered when `acl_lab.load()` has a callable of that name. Built by "
        "`tools/pyacl_functions.py`; `tests/project/test_pyacl_coverage.py` fails when this "
        "page is out of date. `acl-lab doctor` prints the same counts.",
        "",
        "| namespace | offered | pyACL binds | share | refused on purpose |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {_label(r.namespace)} | {len(r.offered)} | {len(r.names)} | "
                     f"{_share(len(r.offered), len(r.names))} | {len(r.refused)} |")
    offered, total = sum(len(r.offered) for r in rows), sum(len(r.names) for r in rows)
    lines.append(f"| all | {offered} | {total} | {_share(offered, total)} | "
                 f"{sum(len(r.refused) for r in rows)} |")
    mdc = ", ".join(f"{len(v)} in {_label(k)}" for k, v in table.mdc_only.items() if v)
    lines += ["", f"Entries built only for the MDC products (inside `#ifdef USE_MDL`: {mdc}) "
                  "are not counted.", "", "## Refused on purpose", "",
              "Calls the simulator cannot give an effect. Each exists on `acl_lab.load()`, "
              "checks its arguments as the runtime does, then returns its code and says why "
              "(`acl.get_recent_err_msg()`); never a silent success, never a missing "
              "attribute. Listed from `acl_lab/spec/pyacl_functions.py` (`REFUSED`).", "",
              "| call | C function | code | why | offered yet |", "|---|---|---|---|---|"]
    offered_names = {pf.qualified(r.namespace, n) for r in rows for n in r.offered}
    for name, refusal in pf.REFUSED.items():
        why = refusal.reason.format(call=refusal.c_name).replace("|", "\\|")
        lines.append(f"| `acl.{name}` | `{refusal.c_name}` | {refusal.code} | {why} | "
                     f"{'yes' if name in offered_names else 'not yet'} |")
    lines += ["", "## Missing", "", "pyACL's functions `acl_lab.load()` does not offer yet "
              "(a program that calls one stops at an `AttributeError` that names it).", ""]
    for r in rows:
        if r.missing:
            lines += [f"### {_label(r.namespace)}: {len(r.missing)}", "",
                      ", ".join(f"`{n}`" for n in r.missing), ""]
    extra = []
    for ns, functions in pyacl_functions(acl).items():
        known = set(table.names.get(ns, ())) | set(table.mdc_only.get(ns, ()))
        extra += [pf.qualified(ns, n) for n in sorted(functions) if n not in known]
    lines += ["## Beyond pyACL", "", "Calls the simulator offers that pyACL does not bind: "
              "acl_lab's names, in pyACL's style, for C functions pyACL leaves out (capture, "
              "aclnn operators; [call-map.md](call-map.md) follows each to its C function).", "",
              ", ".join(f"`acl.{n}`" for n in extra) or "none", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/pyacl-coverage.md is out of date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python tools/pyacl_functions.py",
                  file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
