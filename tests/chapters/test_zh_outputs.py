"""The Chinese edition's code cells print Chinese: a line of English prose in a stored
output of notebooks/zh_CN/ means a code cell printed words that bypass the catalogs
(acl_lab.say, the kit's messages). The editions share their code, so the words can only
come from the catalogs.

English prose, for this test: three or more English words in a row that are not a C name,
a pyACL name, an enum or error-code name, a unit, a quoted string or a Python tuple of
names. What may stay English is listed in ALLOWED, each with its reason."""
import html
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EDITION = sorted((ROOT / "notebooks" / "zh_CN").glob("*.ipynb"))

#: English a Chinese output may keep: (pattern searched in the line, why)
ALLOWED = (
    (r"^ATC run (success|failed).*", "ATC's own last line, verbatim as the real atc prints it"),
    (r"^\[(INFO|ERROR)\] ", "the official sample's log lines, ported with the sample"),
    (r"“[^”]*”", "the runtime's own log text, quoted as CANN writes it"),
    (r"出处：\S+ \([^)]*\)", "where an error comes from inside CANN: its component's name"),
    (r"\b(HBM|DDR|host) (normal|huge) \((device \d+|host)\)", "a pool's name in the snapshot"),
    (r"^\s*\d+\s{2,}\S", "a numbered listing of a sample program's source"),
)

_TOKEN_STRIP = ",.:;!?()[]{}\"'“”‘’—–-<>|=#*"
#: not words: units, Python's constants, and letters that name variables (w, h, x)
_NOT_WORDS = {"ms", "us", "µs", "B", "KiB", "MiB", "GiB", "True", "False", "None"}
_WORD = re.compile(r"^(?:[A-Za-z][a-z]+|[aA]|[A-Z]{2,4})$")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NAME_TUPLE = re.compile(r"\((?:\s*\w+\s*,)+\s*\w+\s*\)")


def _is_word(token: str) -> bool:
    """An English word: letters only, not camelCase (aclrtMalloc), not a snake_case or
    ALL_CAPS name (those keep an underscore), not a unit."""
    bare = token.strip(_TOKEN_STRIP)
    return (bool(_WORD.match(bare)) and bare not in _NOT_WORDS
            and not bare.startswith(("acl", "ACL")) and "_" not in token and "." not in bare)


def english_runs(line: str) -> list[str]:
    """Runs of three or more English words in ``line`` (what a reader sees as prose)."""
    for pattern, _why in ALLOWED:
        line = re.sub(pattern, " ", line)
    line = _NAME_TUPLE.sub(" ", _QUOTED.sub(" ", line))
    runs, current = [], []
    for token in line.split():
        if _is_word(token):
            current.append(token.strip(_TOKEN_STRIP))
            continue
        if len(current) >= 3:
            runs.append(" ".join(current))
        current = []
    if len(current) >= 3:
        runs.append(" ".join(current))
    return runs


def _picture_texts(markup: str) -> list[str]:
    """The words a stored HTML or SVG picture shows: its text nodes and hover titles."""
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S)
    return [html.unescape(t) for t in re.findall(r">([^<>]+)<", markup)
            + re.findall(r'(?:title|aria-label|alt)="([^"]+)"', markup) if t.strip()]


def printed_lines(path: Path):
    """(cell number, line) of every text a code cell's stored outputs show: what it
    printed, its text result, and the words in a view's static picture."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for number, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            texts = ["".join(out.get("text") or data.get("text/plain", ""))]
            for mime in ("text/html", "image/svg+xml"):
                texts += _picture_texts("".join(data.get(mime, "")))
            for line in "\n".join(texts).splitlines():
                yield number, line


def test_the_detector_sees_prose_and_passes_names_and_data():
    assert english_runs("issued, not synchronized: [0 0 0 0]") == ["issued not synchronized"]
    assert english_runs("timestamps 5 µs -> 2697 µs: the copy took 2.692 ms") == \
        ["the copy took"]
    assert english_runs("ACL_ERROR_RT_PARAM_INVALID (107000): aclrtMalloc 的 size 为 0") == []
    assert english_runs("before: (w, h, ws, hs, ret) = (0, 0, 0, 0, 0)") == []
    assert english_runs("{'pool': 'HBM normal (device 0)', 'api': 'malloc'}") == []
    assert english_runs("ATC run success, welcome to the next use.") == []
    assert english_runs("HUGE_FIRST -> 0 | 分配自：DDR normal (device 0)") == []
    assert _picture_texts('<svg><style>a b c d</style><text>free the block now</text>'
                          '<rect><title>大小: 32</title></rect></svg>') == \
        ["free the block now", "大小: 32"]


@pytest.mark.parametrize("path", EDITION, ids=lambda p: p.stem)
def test_the_chinese_edition_prints_no_english_prose(path):
    found = [f"cell {number}: {line.strip()[:100]}  <- {runs}"
             for number, line in printed_lines(path) if (runs := english_runs(line))]
    assert not found, "English prose in a Chinese output (print it with acl_lab.say and " \
                      "translate it in the catalogs):\n" + "\n".join(found)
