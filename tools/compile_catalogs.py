"""Compile the message catalogs: every ``acl_lab/locale/<lang>/LC_MESSAGES/*.po`` of a
language into that language's one ``acl_lab.mo``.

    .venv/bin/python tools/compile_catalogs.py

Each room of the kit keeps its translations in its own ``.po`` (``acl_lab.po`` for the
core, ``exercises.po``, ``media.po`` ...) so they can be edited apart; gettext reads the one
compiled domain. The .mo files are committed (as Django does) so that an installed kit, a
wheel and a JupyterLite site need no compiler; tests/kit/test_i18n.py checks each .mo matches
its sources and that no message is translated in two of them.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "acl_lab" / "locale"
DOMAIN = "acl_lab"


def sources(language_dir: Path) -> list[Path]:
    """The .po files of one language, the core catalog first."""
    pos = sorted((language_dir / "LC_MESSAGES").glob("*.po"))
    return sorted(pos, key=lambda p: p.stem != DOMAIN)


def merged(pos: list[Path]) -> Catalog:
    """One catalog of every entry of ``pos``; the first file's header."""
    catalog = None
    for po in pos:
        with po.open("rb") as f:
            part = read_po(f)
        if catalog is None:
            catalog = part
            continue
        for message in part:
            if message.id:
                catalog[message.id] = message
    return catalog


class _WithoutGenerator:
    """A catalog whose header leaves out "Generated-By: Babel <version>": the .mo must be
    the same bytes whichever Babel compiled it (a fresh install may bring a newer one)."""

    def __init__(self, catalog: Catalog):
        self.catalog, self.charset = catalog, catalog.charset

    def __iter__(self):
        messages = iter(self.catalog)
        header = next(messages)
        header.string = "\n".join(line for line in header.string.split("\n")
                                  if not line.startswith("Generated-By:"))
        yield header
        yield from messages


def compiled(pos: list[Path]) -> bytes:
    out = io.BytesIO()
    write_mo(out, _WithoutGenerator(merged(pos)))
    return out.getvalue()


def main() -> int:
    for language_dir in sorted(p for p in LOCALE.iterdir() if p.is_dir()):
        pos = sources(language_dir)
        mo = language_dir / "LC_MESSAGES" / f"{DOMAIN}.mo"
        mo.write_bytes(compiled(pos))
        print(f"compiled {mo.relative_to(LOCALE.parent.parent)} from "
              f"{', '.join(p.name for p in pos)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
