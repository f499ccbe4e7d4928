"""Question text as HTML (backticks become <code>) and as lines that fit an SVG picture."""
from __future__ import annotations

import re
from html import escape

from acl_lab.widgets._svg import CJK, text_width

_CODE = re.compile(r"`([^`]+)`")
#: a CJK character alone, or a run of other text up to and including its spaces
_PIECES = re.compile(f"{CJK.pattern}|[^\\s\u2e80-\u9fff\uff00-\uffef]+\\s*|\\s+")


def html(text: str) -> str:
    """``text`` escaped for HTML, code between backticks in <code>."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", escape(text))


def plain(text: str) -> str:
    """``text`` without the backticks (for pictures and the text repr)."""
    return text.replace("`", "")


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` broken into lines at most ``width`` pixels wide at font ``size``: between
    words in English, between characters in Chinese."""
    lines, line = [], ""
    for piece in _PIECES.findall(plain(text)):
        if line and text_width((line + piece).rstrip(), size) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines
