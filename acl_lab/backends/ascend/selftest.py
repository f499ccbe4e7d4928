"""``acl-lab selftest``: the contract suite on this machine's NPU, compared with the simulator.

It runs ``pytest tests/contract --backend ascend`` (the behaviour the chapters rely on, on
the device through pyACL, the guard and acl_lab's native bindings), then the same suite on
the simulator profile closest to the device (the reference), and writes one Markdown
report a hardware owner can attach to an issue: versions, SoC, pass/fail per behaviour on
both, and every behaviour where the device differs from the simulator, with the device's
own words. Each run is a separate pytest process (``--junitxml``), so a crash on the device
still leaves a report.
"""
from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from acl_lab.i18n import _

DEFAULT_REPORT = "acl-lab-selftest.md"
#: the contract's target in a test id's parameters: "ascend", "sim-910b", "guard-over-sim-310"
_TARGET = re.compile(r"(?<![\w])(guard-over-sim-[a-z0-9]+|sim-[a-z0-9]+|ascend)(?![\w])")


@dataclass
class Outcome:
    status: str          # "passed", "failed", "error", "skipped"
    message: str = ""    # the first line of what pytest reported


def behaviour(test_id: str) -> str:
    """A test's id without the backend it ran on: ``file::test[ascend]`` -> ``file::test``."""
    head, bracket, params = test_id.partition("[")
    if not bracket:
        return test_id
    rest = "-".join(p for p in _TARGET.sub("", params.rstrip("]")).split("-") if p)
    return f"{head}[{rest}]" if rest else head


def read_junit(path: Path) -> dict[str, Outcome]:
    """Outcome per behaviour from a pytest --junitxml file (empty if pytest wrote none)."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}
    found = {}
    for case in root.iter("testcase"):
        module = case.get("classname", "").rsplit(".", 1)[-1]
        key = behaviour(f"{module}::{case.get('name')}")
        status, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            node = case.find(kind)
            if node is not None:
                status = {"failure": "failed"}.get(kind, kind)
                message = (node.get("message") or node.text or "").strip().splitlines()[:1]
                message = message[0][:200] if message else ""
                break
        found[key] = Outcome(status, message)
    return found


def reference_profile(soc_name: str | None) -> str:
    """The simulator profile whose SoC is closest to the device's (longest common prefix)."""
    from acl_lab.sim.profiles import DEFAULT_PROFILE, PROFILES

    if not soc_name:
        return DEFAULT_PROFILE

    def common(p) -> int:
        return len(os.path.commonprefix([p.soc_name.lower(), soc_name.lower()]))
    best = max(PROFILES.values(), key=lambda p: (common(p), p.name == DEFAULT_PROFILE))
    return best.name if common(best) >= len("Ascend310") else DEFAULT_PROFILE


def device_facts(notebooks: Path | None = None) -> dict:
    """What the device and toolkit say about themselves (pyACL, initialised briefly), and
    per chapter under ``notebooks`` whether this pyACL and CANN can make all its calls."""
    from acl_lab.backends.ascend.native.libraries import cann_version, library_dir

    facts = {"cann": cann_version(), "libraries": str(library_dir() or "-"), "pyacl": None,
             "soc": None, "acl_version": None, "native": None, "chapters": []}
    try:
        import acl
    except Exception as e:        # the report says why; the device run will fail the same way
        facts["pyacl"] = _("not importable: {error}").format(error=e)
        return facts
    facts["pyacl"] = getattr(acl, "__file__", None) or "?"
    from acl_lab.backends.ascend.native import added
    lacking = added(acl)
    facts["native"] = f"{len(lacking)}: " + ", ".join(lacking[:12]) + (
        ", ..." if len(lacking) > 12 else "") if lacking else "0"
    try:
        initialised = acl.init() in (0, 100002)
        facts["soc"] = acl.get_soc_name() if hasattr(acl, "get_soc_name") else None
        if hasattr(acl, "get_version"):
            *numbers, ret = acl.get_version()
            facts["acl_version"] = ".".join(map(str, numbers)) if ret == 0 else None
        if initialised:
            acl.finalize()
    except Exception as e:
        facts["soc"] = facts["soc"] or _("unknown ({error})").format(error=e)
    if notebooks is not None and notebooks.is_dir():
        from acl_lab.backends.ascend.native.chapters import survey, table
        soc = facts["soc"] if isinstance(facts["soc"], str) else None
        facts["chapters"] = table(survey(notebooks, acl, soc_name=soc))
    return facts


def run_suite(contract: Path, args: list[str], junit: Path) -> int:
    """One pytest run of the contract suite; its exit code."""
    command = [sys.executable, "-m", "pytest", str(contract), "-q", "-p", "no:cacheprovider",
               "-o", "addopts=", f"--junitxml={junit}", *args]
    return subprocess.call(command, cwd=contract.parent.parent, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)


def render(facts: dict, profile: str, device: dict[str, Outcome],
           reference: dict[str, Outcome]) -> str:
    """The report, in Markdown (English: it goes to an issue tracker)."""
    from acl_lab import __version__
    from acl_lab.backends.ascend import guard_wanted

    def mark(o: Outcome | None) -> str:
        return "-" if o is None else {"passed": "pass", "failed": "FAIL", "error": "ERROR",
                                      "skipped": "skip"}[o.status]
    names = sorted(set(device) | set(reference))
    counts = {s: sum(o.status == s for o in device.values())
              for s in ("passed", "failed", "error", "skipped")}
    differ = [n for n in names if mark(device.get(n)) != mark(reference.get(n))]
    lines = [
        "# acl_lab self-test on real hardware", "",
        "| | |", "|---|---|",
        f"| acl_lab | {__version__} |",
        f"| Python | {sys.version.split()[0]} ({platform.machine()}, {platform.system()}) |",
        f"| CANN toolkit | {facts.get('cann') or 'unknown'} |",
        f"| ACL version (aclrtGetVersion) | {facts.get('acl_version') or 'unknown'} |",
        f"| SoC | {facts.get('soc') or 'unknown'} |",
        f"| pyACL | {facts.get('pyacl') or 'unknown'} |",
        f"| CANN libraries | {facts.get('libraries')} |",
        f"| calls pyACL lacks, bound by acl_lab | {facts.get('native') or 'unknown'} |",
        f"| guard | {'on' if guard_wanted() else 'off'} |",
        f"| reference | simulator, profile {profile} |", "",
        f"Device: {counts['passed']} passed, {counts['failed']} failed, "
        f"{counts['error']} errors, {counts['skipped']} skipped; "
        f"{len(differ)} behaviour(s) differ from the simulator.", "",
        "## Differences from the simulator", ""]
    if not device:
        lines += ["The device run produced no results (pytest did not start, or crashed "
                  "before writing its report). Run `pytest tests/contract --backend ascend` "
                  "by hand and attach its output.", ""]
    for n in differ:
        d, r = device.get(n), reference.get(n)
        lines.append(f"- `{n}`: device {mark(d)}, simulator {mark(r)}"
                     + (f" — {d.message}" if d is not None and d.message else ""))
    if not differ and device:
        lines.append("None.")
    if facts.get("chapters"):
        lines += ["", "## Chapters on this CANN and pyACL", "", "```", *facts["chapters"], "```"]
    lines += ["", "## Every behaviour", "", "| behaviour | device | simulator |", "|---|---|---|"]
    lines += [f"| `{n}` | {mark(device.get(n))} | {mark(reference.get(n))} |" for n in names]
    return "\n".join(lines) + "\n"


def selftest(contract: Path, out: Path, facts: dict | None = None,
             only: list[str] = ()) -> int:
    """Run both suites, write the report to ``out``; 0 when the device passed everything.
    ``only``: more pytest arguments for both runs (e.g. ["-k", "capture"])."""
    facts = device_facts(contract.parent.parent / "notebooks") if facts is None else facts
    profile = reference_profile(facts.get("soc"))
    with tempfile.TemporaryDirectory(prefix="acl-lab-selftest-") as tmp:
        dev_xml, ref_xml = Path(tmp, "device.xml"), Path(tmp, "simulator.xml")
        print(_("acl-lab selftest: the contract suite on the device ..."), flush=True)
        run_suite(contract, ["--backend", "ascend", *only], dev_xml)
        print(_("acl-lab selftest: the same suite on the simulator (profile {profile}) ...")
              .format(profile=profile), flush=True)
        run_suite(contract, ["--backend", "sim", "--profile", profile, *only], ref_xml)
        device, reference = read_junit(dev_xml), read_junit(ref_xml)
    out.write_text(render(facts, profile, device, reference), encoding="utf-8")
    failed = [o for o in device.values() if o.status in ("failed", "error")]
    print(_("wrote {path}: attach it to an issue (Real hardware, in README).").format(path=out))
    return 0 if device and not failed else 1
