"""What the chapters teach, held to the runtime (issue #34): the twelve corrections as the
chapters state and show them, the confusions each triggered with its real code, a "before you
start" block, the whole chapter in C, SoC badges from the one table, the mark on the kit's
own checks — in both editions."""
from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.spec.socs import CHECKED_AGAINST, RULES, badge

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = sorted((ROOT / "notebooks").glob("*.ipynb"))
EDITIONS = ENGLISH + sorted((ROOT / "notebooks" / "zh_CN").glob("*.ipynb"))
MARK = {"en": "[acl_lab check]", "zh_CN": "【acl_lab检查】"}


def _lang(path: Path) -> str:
    return "zh_CN" if path.parent.name == "zh_CN" else "en"


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _chapter(stem: str, lang: str = "en") -> list[dict]:
    folder = ROOT / "notebooks" / ("zh_CN" if lang == "zh_CN" else "")
    return _cells(next(folder.glob(f"{stem}_*.ipynb")))


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _output(cell: dict) -> str:
    text = ""
    for o in cell.get("outputs", []):
        text += "".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
    return text


def _markdown(stem: str, lang: str = "en") -> str:
    return "\n".join(_source(c) for c in _chapter(stem, lang) if c["cell_type"] == "markdown")


def _outputs(stem: str, lang: str = "en") -> str:
    return "\n".join(_output(c) for c in _chapter(stem, lang) if c["cell_type"] == "code")


BOTH = ("en", "zh_CN")


# ----- every chapter ------------------------------------------------------------------------
@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_each_chapter_says_what_it_needs_and_which_cann_it_was_checked_against(path):
    cells = _cells(path)
    start = _source(cells[1])
    assert cells[1]["cell_type"] == "markdown"
    assert start.startswith("> **Before you start**" if _lang(path) == "en" else "> **开始之前**")
    assert CHECKED_AGAINST in start and ("minutes" in start or "分钟" in start)


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_each_chapter_has_its_whole_program_in_c_folded(path):
    folded = [_source(c) for c in _cells(path) if c["cell_type"] == "markdown"
              and _source(c).startswith("<details><summary><b>")]
    assert len(folded) == 1 and "```c\n" in folded[0] and folded[0].endswith("</details>")
    assert re.search(r"\bacl(rt)?[A-Z]\w+\(", folded[0])


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_soc_badges_come_from_the_table_in_the_editions_language(path):
    """A badge states a SoC-dependent rule: its text is the table's, never typed by hand."""
    acl_lab.set_language(_lang(path))
    try:
        expected = {f"> 🧩 {badge(rule)}" for rule in RULES}
    finally:
        acl_lab.set_language("en")
    shown = {line for c in _cells(path) if c["cell_type"] == "markdown"
             for line in _source(c).splitlines() if line.startswith("> 🧩")}
    assert shown <= expected, shown - expected


@pytest.mark.parametrize("stem, rule", [("00", "capture"), ("02", "malloc_padding"),
                                        ("03", "memcpy2d_async_d2d"), ("04", "huge1g_pages"),
                                        ("04", "hbm"), ("04", "malloc_policy_or"),
                                        ("06", "capture"), ("09", "jpegd_width_align"),
                                        ("10", "virtual_memory"), ("10", "virtual_memory_rc"),
                                        ("10", "huge1g_pages"), ("10", "stream_ordered_pools"),
                                        ("10", "memcpy_batch")])
@pytest.mark.parametrize("lang", BOTH)
def test_where_a_rule_depends_on_the_soc_the_chapter_shows_its_badge(stem, rule, lang):
    acl_lab.set_language(lang)
    try:
        assert f"> 🧩 {badge(rule)}" in _markdown(stem, lang)
    finally:
        acl_lab.set_language("en")


@pytest.mark.parametrize("stem, code", [("03", "107008"), ("05", "107008"), ("05", "guard"),
                                        ("06", "507011"), ("09", "507018")])
@pytest.mark.parametrize("lang", BOTH)
def test_the_kits_own_checks_carry_one_mark_in_text_and_output(stem, code, lang):
    marked = [_source(c) for c in _chapter(stem, lang) if c["cell_type"] == "markdown"
              and f"**{MARK[lang]}**" in _source(c)]
    assert marked, f"chapter {stem} marks none of its acl_lab checks"
    if code.isdigit():        # the message of the check says it too
        out = _outputs(stem, lang)
        assert code in out and MARK[lang] in out, (stem, code)


# ----- the twelve corrections -----------------------------------------------------------------
@pytest.mark.parametrize("lang", BOTH)
def test_01_a_pageable_copy_in_a_capture_is_107000_and_on_another_stream_107041(lang):
    out = _outputs("06", lang)
    assert "107000 ACL_ERROR_RT_PARAM_INVALID" in out and "graph capture" in out
    assert "107041 ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC" in out
    assert "`107027` (use `aclrtMallocHost`)" not in _markdown("06")


def test_01_exercise_06_2s_key_is_107000():
    from acl_lab.exercises.ch06 import CAPTURE_QUIZ
    assert CAPTURE_QUIZ[4][0] == C.ACL_ERROR_RT_PARAM_INVALID


@pytest.mark.parametrize("lang", BOTH)
def test_02_only_ex_events_are_captured(lang):
    text = _markdown("01", lang)
    assert "one a capture can take" not in text and "捕获时可以使用的" not in text
    assert "aclrtCreateEventWithFlag(ACL_EVENT_SYNC)" in text
    assert "only aclrtCreateEventExWithFlag events can be captured" in acl_lab.explain(207000)


@pytest.mark.parametrize("lang", BOTH)
def test_03_an_ored_bandwidth_flag_is_not_a_policy(lang):
    assert "HUGE_ONLY | LOW_BAND_WIDTH) {'ACL_HBM_MEM_NORMAL': 160}" in _outputs("04", lang)
    assert "IPV350" in _markdown("04", lang)


@pytest.mark.parametrize("stem", ["02", "04"])
@pytest.mark.parametrize("lang", BOTH)
def test_04_a_small_huge_only_block_takes_a_whole_2_mib_page(stem, lang):
    out = _outputs(stem, lang)
    assert re.search(r"HUGE_ONLY\)?\s.*'ACL_HBM_MEM_HUGE': 2097152|HUGE_ONLY\s+ret 0  taken: "
                     r"\{'HBM huge': 2097152\}", out), out[:400]
    assert "whole 2 MiB page" in _markdown(stem, lang) or "2 MiB 整页" in _markdown(stem, lang)


@pytest.mark.parametrize("lang", BOTH)
def test_05_malloc_cached_is_taught_as_the_docs_and_source_say(lang):
    text = _markdown("02", lang)
    assert "`HUGE_ONLY` is refused" not in text and "不接受 `HUGE_ONLY`" not in text
    assert "DevMalloc" in text and "DevMemAllocCached" in text


@pytest.mark.parametrize("lang", BOTH)
def test_06_jpegd_width_stride_follows_the_soc(lang):
    text = _markdown("09", lang)
    assert "ALIGN_UP(width, 64)" in text and "| `ALIGN_UP(width, 128)` |" not in text


@pytest.mark.parametrize("lang", BOTH)
def test_07_more_than_one_failure_invalidates_a_capture(lang):
    text = _markdown("06", lang)
    assert "Only one kind\nof mistake" not in text and "只有一类错误会让捕获" not in text
    assert "AllocCaptureTaskWithoutLock" in text and "TerminateCapture" in text
    assert _outputs("06", lang).count("507903 ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED") >= 2


@pytest.mark.parametrize("lang", BOTH)
def test_08_malloc_host_does_not_round(lang):
    text = _markdown("02", lang)
    assert "rounds\nthe size up to a multiple of 32" not in text
    assert "size rounded to 32" not in text and "大小向上对齐到 32 |" not in text


@pytest.mark.parametrize("lang", BOTH)
def test_09_peer_access_is_one_way_and_the_faq_opens_both(lang):
    text = _markdown("01", lang)
    assert "with the destination device current" not in text
    assert "HUGE_FIRST_P2P" in text
    out = _outputs("01", lang)
    assert "memcpy device 0 -> device 1 -> 0" in out and "107000" in out


@pytest.mark.parametrize("lang", BOTH)
def test_10_the_async_copys_kind_is_a_real_parameter(lang):
    text = _markdown("03", lang)
    assert "at most a hint" not in text and "至多是一个提示" not in text
    assert "MemCopy2DSync" in text
    assert "107000 ACL_ERROR_RT_PARAM_INVALID" in _outputs("03", lang)


@pytest.mark.parametrize("lang", BOTH)
def test_11_an_attribute_the_chip_lacks_answers_zero(lang):
    text = _markdown("04", lang)
    assert "free = total = 0" in text or "空闲内存 = 总内存 = 0" in text
    assert "CheckIfSupport1GHugePage" in text


@pytest.mark.parametrize("lang", BOTH)
def test_12_the_callback_only_reads_host_memory(lang):
    code = next(_source(c) for c in _chapter("08", lang) if "def on_result" in _source(c))
    body = code.split("def on_result", 1)[1].split("\n\n", 1)[0]
    assert "acl.rt." not in body
    assert "aclrtLaunchCallback" in _markdown("08", lang)
    assert "back to **07" not in _markdown("08")


# ----- the confusions, each with its real code ----------------------------------------------
def _said(text: str, lang: str, value=None, **fields) -> str:
    """What ``acl_lab.say(text, value, **fields)`` prints in ``lang``."""
    acl_lab.set_language(lang)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            acl_lab.say(text, *([] if value is None else [value]), **fields)
    finally:
        acl_lab.set_language("en")
    return out.getvalue().rstrip("\n")


#: what each confusion prints: a code, or (words a cell says, the value it shows, fields)
@pytest.mark.parametrize("stem, codes", [
    ("01", ["107003 ACL_ERROR_RT_STREAM_CONTEXT", "100003 ACL_ERROR_INVALID_FILE",
            "100006 ACL_ERROR_PARSE_FILE", "107001 ACL_ERROR_RT_INVALID_DEVICEID",
            "507033 ACL_ERROR_RT_DEV_SETUP_ERROR",
            ("peek_at_last_error -> {code} (kept)", None, {"code": 107017}),
            ("event reached at   {t:8.1f} µs  (the upload only)", None, {"t": 348.5})]),
    ("09", ["ACL_STOP_ON_FAILURE", ("   the copy queued after the failure ran:", False, {}),
            ("   the copy queued after the failure ran:", True, {}),
            ("   a new task ->", 507018, {})]),
])
@pytest.mark.parametrize("lang", BOTH)
def test_each_confusion_triggers_its_real_code(stem, codes, lang):
    """In each edition, in its language (the code cells say their words from the catalogs)."""
    out = _outputs(stem, lang)
    for code in codes:
        expected = code if isinstance(code, str) else _said(code[0], lang, code[1], **code[2])
        assert expected in out, expected


@pytest.mark.parametrize("lang", BOTH)
def test_the_start_up_triage_names_its_faq_pages(lang):
    text = _markdown("01", lang)
    for page in ("aclInit初始化失败常见原因排查", "aclrtSetDevice调用失败", "首次aclrtSetDevice耗时长",
                 "Runtime版本与CANN版本不匹配导致的问题", "Stream同步与Event同步的区别与选择",
                 "遇错即停模式下错误定位方法", "如何获取和解读Runtime异步错误码"):
        assert page in text, page
    assert "fork" in text
