"""Which calls each chapter makes, and whether this CANN and pyACL can make them all.

``acl-lab doctor`` asks this on a machine with pyACL: for every chapter notebook, each
``acl.*`` call in its code cells is looked up in pyACL first, then among the native
bindings (is the C symbol in this toolkit's libraries?). A chapter is ready when every
call is; otherwise the first calls missing are named with the reason.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from acl_lab.i18n import _
from acl_lab.spec.socs import captures, soc_of
from acl_lab.backends.ascend.native.bindings import Native, bindable

_CALL = re.compile(r"\bacl\.(?:(rt|mdl|nn|util|media|op)\.)?(\w+)\(")


@dataclass
class Chapter:
    name: str                      # "06_capture_acl_graph"
    calls: set[str]                # pyACL-shaped: "mdl.ri_capture_begin", "init"
    missing: list[tuple[str, str]] = field(default_factory=list)    # (call, why)
    native: list[str] = field(default_factory=list)                 # calls acl_lab binds

    @property
    def ready(self) -> bool:
        return not self.missing


def calls_in(notebook: Path) -> set[str]:
    """The pyACL calls in a notebook's code cells (``acl.rt.malloc(`` -> "rt.malloc")."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found = set()
    for cell in cells:
        if cell.get("cell_type") == "code":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else \
                cell["source"]
            found |= {f"{ns}.{fn}" if ns else fn for ns, fn in _CALL.findall(source)}
    return found


def _in_pyacl(module, call: str) -> bool:
    ns, _, fn = call.rpartition(".")
    holder = getattr(module, ns, None) if ns else module
    return holder is not None and callable(getattr(holder, fn, None))


def survey(notebooks: Path, module, native: Native | None = None,
           soc_name: str | None = None) -> list[Chapter]:
    """Every chapter under ``notebooks`` (NN_*.ipynb) against pyACL ``module``."""
    native = native or Native()
    bound = set(bindable())
    answers: dict[str, tuple[bool, str]] = {}
    chapters = []
    for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        chapter = Chapter(path.stem, calls_in(path))
        for call in sorted(chapter.calls):
            if call == "get_recent_err_msg" or _in_pyacl(module, call):
                continue
            if call not in bound:
                chapter.missing.append((call, _("this pyACL lacks it and acl_lab has no native "
                                                "binding for it")))
                continue
            if call not in answers:
                answers[call] = native.available(call, short=True)
            ok, why = answers[call]
            if ok:
                chapter.native.append(call)
            else:
                chapter.missing.append((call, why))
        if soc_name and not captures(soc_name) and any(
                c.startswith("mdl.ri_") for c in chapter.calls):
            chapter.missing.append(("mdl.ri_capture_begin", _(
                "{soc} ({product}) cannot capture a stream (the SoC table, "
                "acl_lab.spec.socs): expect ACL_ERROR_RT_FEATURE_NOT_SUPPORT").format(
                    soc=soc_name, product=soc_of(soc_name).product)))
        chapters.append(chapter)
    return chapters


def table(chapters: list[Chapter]) -> list[str]:
    """The doctor's lines: one per chapter, then up to three missing calls with why."""
    lines = []
    for ch in chapters:
        if ch.ready:
            status = _("ready") + (_(" ({count} call(s) through acl_lab's native bindings)")
                                   .format(count=len(ch.native)) if ch.native else "")
        else:
            status = _("cannot run all of it: {count} call(s) missing").format(
                count=len(ch.missing))
        lines.append(f"  {ch.name:28} {status}")
        lines += [f"      - acl.{call}: {why}" for call, why in ch.missing[:3]]
        if len(ch.missing) > 3:
            lines.append("      - ...")
    return lines
