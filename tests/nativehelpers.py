"""The C test double of the CANN libraries (tests/native/cann_double.c), built with the
system C compiler into a temporary ``$ASCEND_HOME_PATH/lib64``, and the calls it recorded.

Tests that use it skip when no C compiler exists; building takes well under a second.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).parent / "native" / "cann_double.c"
#: the library each part of the double becomes (CANN's names); the runtime part goes into
#: libascendcl.so, the layout of toolkits without a separate libacl_rt.so
PARTS = {"RT": "libascendcl.so", "NNOPBASE": "libnnopbase.so", "OPAPI": "libopapi.so"}
_FIELD = re.compile(r"(\w+)=(\S*)/(\w+)")


def compiler() -> str | None:
    return os.environ.get("CC") if os.environ.get("CC") and shutil.which(os.environ["CC"]) \
        else shutil.which("gcc") or shutil.which("cc")


def build(home: Path, parts: dict[str, str] = PARTS) -> Path:
    """The double's libraries under ``home``/lib64; skips the test without a compiler."""
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler (gcc/cc): the C test double of the CANN libraries "
                    "cannot be built here")
    lib64 = home / "lib64"
    lib64.mkdir(parents=True, exist_ok=True)
    for part, name in parts.items():
        subprocess.run([cc, "-shared", "-fPIC", "-O1", "-fvisibility=hidden", f"-DPART_{part}",
                        "-o", str(lib64 / name), str(SOURCE)], check=True)
    return lib64


class Call(dict):
    """One recorded call: ``call["mode"] == (value, size)``; ``call.name`` the C name."""

    def __init__(self, line: str):
        self.name = line.split(" ", 1)[0]
        super().__init__((k, (_value(v), int(s) if s.isdigit() else s))
                         for k, v, s in _FIELD.findall(line))

    def values(self) -> dict:
        return {k: v for k, (v, _) in self.items()}


def _value(text: str):
    if text.startswith("["):
        return [int(x) for x in text[1:-1].split(",") if x]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def calls(log: Path, name: str | None = None) -> list[Call]:
    """What the double recorded, in order (only calls of C function ``name``, if given)."""
    if not log.exists():
        return []
    found = [Call(line) for line in log.read_text().splitlines() if line]
    return [c for c in found if name is None or c.name == name]
