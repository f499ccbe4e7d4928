"""Keep a translated edition (notebooks/zh_CN/) in step with the English notebooks.

The editions share cell ids, cell order, cell metadata and code; only markdown and code
comments are translated, and each translated notebook's first code cell sets its language
right after `import acl_lab`. When an English chapter changes, this tool brings the
translation's structure and code back in line and says what a translator must redo:

    .venv/bin/python tools/zh_edition.py --check        # list what is out of step; exit 1 if any
    .venv/bin/python tools/zh_edition.py                # fix every translated notebook in place
    .venv/bin/python tools/zh_edition.py notebooks/zh_CN/03_*.ipynb

Fixing keeps translated markdown and the comments of unchanged code cells. A code cell whose
code changed gets the English source (comments in English again) and loses its outputs; a
new English cell is inserted untranslated; a cell the English edition dropped is removed.
Re-translate what it lists, then re-execute with tools/execute_notebooks.py.
"""
from __future__ import annotations

import argparse
import copy
import io
import sys
import tokenize
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
ENGLISH = ROOT / "notebooks"


def language_line(lang: str) -> str:
    return f'acl_lab.set_language("{lang}")'


def code_without_comments(source: str, lang: str) -> list[str]:
    """The code's lines with comments, comment-only lines and the language line removed."""
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source + "\n").readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col] if lines[row - 1][:col].strip() else None
    return [line.rstrip() for line in lines
            if line is not None and line.strip() != language_line(lang)]


def with_language_line(source: str, lang: str) -> str:
    return source.replace("import acl_lab\n", f"import acl_lab\n{language_line(lang)}\n", 1)


def sync(path: Path, lang: str, fix: bool) -> list[str]:
    """Bring one translated notebook in line with its English original; return what differed."""
    english = nbformat.read(ENGLISH / path.name, as_version=4)
    translated = nbformat.read(path, as_version=4)
    by_id = {cell.id: cell for cell in translated.cells}
    problems = [f"cell {cid}: not in the English edition (fixing removes it)"
                for cid in by_id.keys() - {cell.id for cell in english.cells}]
    cells, first_code = [], True
    for en in english.cells:
        tr = by_id.get(en.id)
        if tr is None or tr.cell_type != en.cell_type:
            tr = copy.deepcopy(en)
            if tr.cell_type == "code":
                tr.outputs, tr.execution_count = [], None
            problems.append(f"cell {en.id}: missing (fixing inserts the English cell: translate it)")
        elif en.cell_type == "code" and \
                code_without_comments(tr.source, lang) != code_without_comments(en.source, lang):
            tr = copy.deepcopy(en)
            tr.outputs, tr.execution_count = [], None
            problems.append(f"cell {en.id}: code differs from the English edition "
                            "(fixing copies the English source: translate its comments)")
        if en.cell_type == "code" and first_code:
            first_code = False
            if language_line(lang) not in tr.source:
                tr.source = with_language_line(tr.source, lang)
                problems.append(f"cell {en.id}: no {language_line(lang)} after import acl_lab")
        if tr.metadata != en.metadata:
            tr.metadata = copy.deepcopy(en.metadata)
            problems.append(f"cell {en.id}: metadata differs from the English edition")
        cells.append(tr)
    if [c.id for c in cells] != [c.id for c in translated.cells] and not problems:
        problems.append("cell order differs from the English edition")
    if fix and problems:
        translated.cells = cells
        nbformat.write(translated, path)
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--lang", default="zh_CN", help="the edition's folder and language")
    parser.add_argument("--check", action="store_true", help="report only; exit 1 if out of step")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or sorted((ENGLISH / args.lang).glob("*.ipynb"))
    out_of_step = False
    for path in paths:
        for problem in sync(path, args.lang, fix=not args.check):
            out_of_step = True
            print(f"{path.relative_to(ROOT)}: {problem}")
    return 1 if args.check and out_of_step else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
