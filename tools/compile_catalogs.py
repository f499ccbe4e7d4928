"""Compile the message catalogs (acl_lab/locale/*/LC_MESSAGES/acl_lab.po -> .mo).

    .venv/bin/python tools/compile_catalogs.py

The .mo files are committed (as Django does) so that an installed kit, a wheel and a
JupyterLite site need no compiler; tests/test_i18n.py checks each .mo matches its .po.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "acl_lab" / "locale"


def compiled(po: Path) -> bytes:
    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> int:
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        po.with_suffix(".mo").write_bytes(compiled(po))
        print(f"compiled {po.with_suffix('.mo').relative_to(LOCALE.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
