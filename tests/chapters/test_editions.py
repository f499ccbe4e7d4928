"""The English and Chinese editions stay in step: the same chapters, the same cells, and
code cells identical but for comments and the line that switches the language."""
import io
import json
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHINESE = ROOT / "notebooks" / "zh_CN"
SWITCH = 'acl_lab.set_language("zh_CN")'


def code_without_comments(source: str) -> str:
    """The code of a cell with comments and the language switch removed, via tokenize (a
    '#' inside a string stays)."""
    lines = source.splitlines()
    tokens = tokenize.generate_tokens(io.StringIO(source + "\n").readline)
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    kept = [line.rstrip() for line in lines if line.strip() != SWITCH]
    return "\n".join(line for line in kept if line)


def _code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [code_without_comments("".join(c["source"])) for c in cells
            if c["cell_type"] == "code"]


def test_every_chapter_has_a_chinese_edition():
    assert sorted(p.name for p in CHINESE.glob("*.ipynb")) == [p.name for p in ENGLISH]


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_code_cells_are_identical(english):
    chinese = CHINESE / english.name
    if not chinese.exists():
        pytest.fail(f"notebooks/zh_CN/{english.name} is missing")
    assert _code_cells(chinese) == _code_cells(english)


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_the_chinese_edition_switches_the_language_first(english):
    chinese = CHINESE / english.name
    if not chinese.exists():
        pytest.fail(f"notebooks/zh_CN/{english.name} is missing")
    cells = json.loads(chinese.read_text(encoding="utf-8"))["cells"]
    first = "".join(next(c for c in cells if c["cell_type"] == "code")["source"])
    assert SWITCH in first.splitlines()


def test_comments_and_the_switch_are_ignored_but_code_is_not():
    english = 'import acl_lab\nx = "#not a comment"  # a comment\n'
    chinese = f'import acl_lab\n{SWITCH}\nx = "#not a comment"  # 注释\n'
    assert code_without_comments(english) == code_without_comments(chinese)
    assert code_without_comments('x = "#a"') != code_without_comments('x = "#b"')
