"""Languages: English by default, Chinese from the shipped gettext catalog, every message
translated with the same placeholders, and the compiled catalog in step with its source."""
import ast
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

import acl_lab
from acl_lab import errors, exercises, i18n
from acl_lab.spec import codes
from acl_lab.constants import ACL_ERROR_RT_INTERNAL_ERROR, ACL_ERROR_RT_PARAM_INVALID

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from compile_catalogs import compiled, sources  # noqa: E402

ZH = ROOT / "acl_lab" / "locale" / "zh_CN"
POS = sources(ZH)
MO = ZH / "LC_MESSAGES" / "acl_lab.mo"


@pytest.fixture
def chinese():
    acl_lab.set_language("zh_CN")
    yield
    acl_lab.set_language("en")


def _catalog() -> dict[str, str]:
    from babel.messages.pofile import read_po
    catalog = {}
    for po in POS:
        with po.open("rb") as f:
            catalog.update({m.id: m.string for m in read_po(f) if m.id})
    return catalog


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def literal_message_ids() -> set[str]:
    """The string literal of every ``_("...")``, ``N_("...")`` (an id marked where a table
    defines it, translated where shown) and ``pgettext("context", "...")`` call in the
    package, found by ``ast``; also a part of the module's docstring given to ``_()``
    (``_(__doc__.split(...)[0])``: a command's description)."""
    ids = set()
    for path in (ROOT / "acl_lab").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            at = {"_": 0, "N_": 0, "pgettext": 1}.get(node.func.id)
            if at is None or len(node.args) <= at:
                continue
            arg = node.args[at]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                ids.add(arg.value)
            elif {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} == {"__doc__"}:
                ids.add(eval(compile(ast.Expression(arg), str(path), "eval"),
                             {"__builtins__": {}, "__doc__": ast.get_docstring(tree, False)}))
    return ids


def notebook_message_ids() -> set[str]:
    """The text of every ``acl_lab.say("...")`` in the chapters' code cells: what a code cell
    prints in words comes from the catalogs (the editions share their code)."""
    import nbformat
    ids = set()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            code = "\n".join(line for line in cell.source.splitlines()
                             if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(code)):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "say"):
                    assert isinstance(node.args[0], ast.Constant), ast.unparse(node)
                    ids.add(node.args[0].value)
    return ids


def all_message_ids() -> set[str]:
    return (codes.message_ids() | exercises.message_ids() | literal_message_ids()
            | notebook_message_ids())


def test_the_notebook_extractor_sees_what_chapters_say():
    assert "issued, not synchronized:" in notebook_message_ids()


def test_the_literal_extractor_sees_the_sandbox_messages():
    found = literal_message_ids()
    assert any(m.startswith("{call}: the simulation would need") for m in found)
    assert any(m.startswith("threads cannot start in this Python") for m in found)
    assert any(m.startswith("`acl-lab atc`: ATC's command line") for m in found)


def test_every_catalog_entry_is_used_by_the_code():
    """A message the code no longer shows (a hint rewritten, a check removed) leaves the
    catalogs with it: remove its entry, or dead translations pile up and hide typos."""
    used = all_message_ids()
    unused = sorted({msgid for _context, msgid in _message_keys_in_order()} - used)
    assert not unused, f"{len(unused)} entries no code uses, e.g. {[m[:60] for m in unused[:5]]}"


def _message_keys_in_order() -> list[tuple[str | None, str]]:
    """(context, msgid) of every entry of the .po files, as written: a catalog reader keeps
    only the last of two equal ones, so a duplicate would hide the other's translation."""
    keys, field, parts = [], None, {}
    lines = [line for po in POS for line in po.read_text("utf-8").splitlines()]
    for line in lines:
        head, _, rest = line.partition(" ")
        if head in ("msgctxt", "msgid", "msgstr"):
            if head == "msgstr":
                keys.append((parts.get("msgctxt"), parts["msgid"]))
                parts = {}
            field = head
            parts[field] = ast.literal_eval(rest)
        elif line.startswith('"') and field in parts:
            parts[field] += ast.literal_eval(line)
    return [k for k in keys if k[1]]


def test_each_message_is_translated_once():
    keys = _message_keys_in_order()
    assert len(keys) > 100    # the reader found the entries
    assert sorted(k[1][:60] for k in keys if keys.count(k) > 1) == []


def test_the_compiled_catalog_matches_its_source():
    assert MO.read_bytes() == compiled(POS), \
        "run .venv/bin/python tools/compile_catalogs.py"


def test_every_message_has_a_chinese_translation_with_the_same_placeholders():
    catalog = _catalog()
    missing = sorted(m for m in all_message_ids() if not catalog.get(m))
    assert not missing, f"{len(missing)} untranslated, e.g. {missing[:3]}"
    for msgid, text in catalog.items():
        assert _fields(text) == _fields(msgid), msgid
        # Chinese words, or Chinese punctuation around placeholders ("{note}：{text}")
        assert re.search(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]", text), \
            f"not Chinese: {text!r}"


def test_names_and_codes_stay_untranslated(chinese):
    text = acl_lab.explain(207000)
    assert text.startswith("ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): ")
    assert re.search(r"[\u4e00-\u9fff]", text)
    assert "ACL_HBM_MEM_HUGE1G" in text


def test_english_is_the_default_and_comes_back():
    english = acl_lab.explain(107000)
    acl_lab.set_language("zh_CN")
    try:
        assert acl_lab.explain(107000) != english
        assert acl_lab.get_language() == "zh_CN"
    finally:
        acl_lab.set_language("en")
    assert acl_lab.explain(107000) == english


def test_exercise_results_speak_the_language(chinese):
    result = exercises.Result("02.1", "pages", True, exercises.WELL_DONE)
    assert repr(result).startswith("✅ 练习 02.1")


@pytest.mark.parametrize("given, expected", [
    ("zh_CN", "zh_CN"), ("zh-CN", "zh_CN"), ("zh_CN.UTF-8", "zh_CN"), ("zh", "zh_CN"),
    ("en", "en"), ("en_US.UTF-8", "en"), ("C", "en"),
])
def test_language_names_are_normalized(given, expected):
    assert i18n.normalize(given) == expected


def test_an_unknown_language_is_refused_and_changes_nothing():
    with pytest.raises(ValueError, match="fr"):
        acl_lab.set_language("fr")
    assert acl_lab.get_language() == "en"


@pytest.mark.parametrize("value, language, warns", [("zh_CN", "zh_CN", False),
                                                    ("klingon", "en", True)])
def test_the_environment_chooses_and_a_typo_does_not_stop_the_import(value, language, warns):
    out = subprocess.run(
        [sys.executable, "-W", "always", "-c",
         "import acl_lab; print(acl_lab.get_language())"],
        capture_output=True, text=True, env={"ACL_LAB_LANG": value, "PATH": ""}, check=True)
    assert out.stdout.strip() == language
    assert ("ACL_LAB_LANG" in out.stderr) == warns


def test_a_double_free_is_explained_in_the_learners_language():
    acl_lab.reset()
    acl = acl_lab.load()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(ptr) == 0
    try:
        acl_lab.set_language("zh_CN")
        assert acl.rt.free(ptr) == ACL_ERROR_RT_PARAM_INVALID
        chinese_text = acl.get_recent_err_msg()
        acl_lab.set_language("en")
        assert acl.rt.free(ptr) == ACL_ERROR_RT_PARAM_INVALID
        english_text = acl.get_recent_err_msg()
    finally:
        acl_lab.set_language("en")
        acl_lab.reset()
    assert f"aclrtFree：0x{ptr:x} 已经释放过了" in chinese_text
    assert f"aclrtFree: 0x{ptr:x} was already released (" in english_text
    assert "Free each block exactly once" in english_text


def test_chinese_explanations_run_on_without_spaces_between_sentences():
    """An explanation's parts (meaning, usual cause, remedy) join with a space in English and
    directly in Chinese ("。应用代码中的常见原因…")."""
    code = ACL_ERROR_RT_INTERNAL_ERROR
    assert "in the runtime. Usual cause in application code: " in acl_lab.explain(code)
    acl_lab.set_language("zh_CN")
    try:
        assert "Runtime内部错误。应用代码中的常见原因：" in acl_lab.explain(code)
        spaced = [c for c in errors.ERROR_NAMES if "。 " in acl_lab.explain(c)]
    finally:
        acl_lab.set_language("en")
    assert spaced == []


def test_join_sentences_spaces_english_only():
    assert i18n.join_sentences(["One.", "Two."]) == "One. Two."
    assert i18n.join_sentences(["第一句。", "第二句。"]) == "第一句。第二句。"
    assert i18n.join_sentences(["第一句。", "Then English."]) == "第一句。Then English."
    assert i18n.join_sentences([]) == ""


def test_pool_refusals_and_injected_faults_speak_the_learners_language():
    from acl_lab.pool import MemoryPool

    acl_lab.reset()
    acl = acl_lab.load()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    pool = MemoryPool(acl, 4096)
    acl_lab.set_language("zh_CN")
    try:
        with pytest.raises(errors.AclLabError, match="4096 B 中只有 4096 B 空闲。请释放"):
            pool.alloc(5000)
        assert "0 个内存段" in repr(pool)
        fault = acl_lab.inject("rt.malloc", code=207001)
        assert repr(fault).startswith("<注入的故障：rt.malloc 以 ACL_ERROR_RT_MEMORY_ALLOCATION")
        assert acl.rt.malloc(64, 0)[1] == 207001
        assert acl.get_recent_err_msg().startswith("rt.malloc：注入的故障。")
    finally:
        acl_lab.set_language("en")
        pool.close(force=True)
        acl_lab.reset()


def test_exercise_feedback_speaks_the_learners_language(chinese):
    """Not only the title and hint: the check's own "not yet" and "passed" texts too."""
    acl_lab.reset()
    acl = acl_lab.load()
    try:
        assert acl.init() == 0
        exercises.forget()
        count, _ = acl.rt.get_device_count()
        assert "是整个 (count, ret) 元组：只保留它的第一个元素" in repr(
            exercises.check("00.1", acl, acl.rt.get_device_count()))
        assert repr(exercises.check("00.1", acl, count)).endswith(
            f"这台机器有 {count} 个Device，编号从 0 到 {count - 1}。")
        assert "ptr 应该是 int，而不是 str（'x'）。在 malloc 之前读取 " in repr(
            exercises.check("04.2", "x", 0))          # then the hint
    finally:
        acl_lab.reset()


def test_say_prints_a_cells_words_in_the_learners_language(capsys):
    """The same code cell, both editions: fields filled in, values as print shows them, no
    space after Chinese punctuation."""
    import numpy as np
    for lang, expected in (("en", "issued, not synchronized: [0 0]\nHBM free short by 7 bytes\n"),
                           ("zh_CN", "已下发，尚未同步：[0 0]\n空闲HBM少了 7 字节\n")):
        acl_lab.set_language(lang)
        try:
            acl_lab.say("issued, not synchronized:", np.zeros(2, dtype=np.uint8))
            acl_lab.say("HBM free short by {n} bytes", n=7)
        finally:
            acl_lab.set_language("en")
        assert capsys.readouterr().out == expected
