"""`acl-lab` and `acl-lab atc` speak the learner's language: in Chinese, argparse's own words
(usage, headings, -h, its error messages) are Chinese too; in English they are argparse's,
byte for byte."""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import acl_lab
from acl_lab.support import argparse_i18n
from acl_lab.om import atc
from acl_lab.support.argparse_i18n import ArgumentParser, translate
from acl_lab.i18n import _, columns, wide_count

ROOT = Path(__file__).resolve().parents[2]
#: argparse's English; none of it may show in Chinese output
ENGLISH = re.compile(r"usage|positional|options|show this help|error|required|invalid|choose"
                     r"|unrecognized|expected|ambiguous|could match|ignored|argument"
                     r"|command line", re.IGNORECASE)
#: (arguments, exit status, what English output says); atc refuses with an E-coded line and
#: status 1, as ATC does
RUNS = [
    (["--help"], 0, "options:\n  -h, --help            show this help message and exit"),
    (["atc", "--help"], 0, "`acl-lab atc`: ATC's command line"),
    (["lab", "--help"], 0, "usage: acl-lab lab [-h]"),
    (["assignments", "--help"], 0, "positional arguments:\n  out"),
    ([], 2, "acl-lab: error: the following arguments are required: command"),
    (["frobnicate"], 2, "argument command: invalid choice: 'frobnicate' (choose from 'doctor'"),
    (["lab", "--lang"], 2, "acl-lab lab: error: argument --lang: expected one argument"),
    (["assignments", "out", "--chapters"], 2, "argument --chapters: expected at least one"),
    (["--help=3"], 2, "argument -h/--help: ignored explicit argument '3'"),
    (["doctor", "extra"], 2, "acl-lab: error: unrecognized arguments: extra"),
    (["atc", "--out", "x"], 1, "E10016: ambiguous option: --out could match --output,"),
    (["atc", "--bogus"], 1, "E10016: unrecognized arguments: --bogus"),
]
RUN_IDS = [" ".join(args) or "(nothing)" for args, _, _ in RUNS]


@pytest.fixture
def chinese():
    acl_lab.set_language("zh_CN")
    yield
    acl_lab.set_language("en")


def _run(args, language=None) -> tuple[int, str]:
    """``acl-lab ARGS`` of this checkout (python -m, from its root), stdout and stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACL_LAB_")}
    env["COLUMNS"] = "80"
    if language:
        env["ACL_LAB_LANG"] = language
    out = subprocess.run([sys.executable, "-m", "acl_lab.cli", *args], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=60)
    return out.returncode, out.stdout + out.stderr


@pytest.mark.parametrize("args, status, english", RUNS, ids=RUN_IDS)
def test_chinese_help_and_errors_have_no_english_left(args, status, english):
    code, text = _run(args, "zh_CN")
    assert code == status, text
    lines = text.splitlines()
    if args[:1] == ["atc"] and status:      # ATC's closing line is its own, kept for scripts
        assert lines[-1] == atc.FAILED
        lines = lines[:-1]
    assert not ENGLISH.search("\n".join(lines)), text
    assert re.search(r"[\u4e00-\u9fff]", text)
    assert "用法：" in text or args[0] == "atc"


@pytest.mark.parametrize("language", [None, "en"])
@pytest.mark.parametrize("args, status, english", RUNS, ids=RUN_IDS)
def test_english_help_and_errors_are_argparses(args, status, english, language):
    code, text = _run(args, language)
    assert code == status, text
    assert english in text


def test_a_chinese_error_keeps_the_names_and_values_it_is_about():
    assert _run(["lab", "--lang", "xx"], "zh_CN")[1].endswith(
        "acl-lab lab：错误：参数 --lang：无效的选择：'xx'（可选值：'en', 'zh_CN'）\n")


def _sample(parser_class):
    """A parser with what acl-lab's have: subcommands, a positional, choices, nargs."""
    parser = parser_class(prog="p", description="What p does.")
    commands = parser.add_subparsers(dest="command", required=True)
    sub = commands.add_parser("make", help="make it")
    sub.add_argument("out", help="where")
    sub.add_argument("--lang", choices=["en", "zh_CN"], help="which " * 20)
    sub.add_argument("--chapters", nargs="+", metavar="NN")
    return parser, sub


@pytest.mark.parametrize("argv", [["make", "--help"], ["--help"], [], ["make", "o", "--lang"],
                                  ["make", "o", "--lang", "fr"], ["make", "--chapters"]])
def test_english_output_is_argparses_own_byte_for_byte(argv, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    printed = []
    for parser_class in (argparse.ArgumentParser, ArgumentParser):
        with pytest.raises(SystemExit) as e:
            _sample(parser_class)[0].parse_args(argv)
        printed.append((e.value.code, capsys.readouterr()))
    assert printed[0] == printed[1]


def test_chinese_usage_lines_up_under_the_program_name(chinese, monkeypatch):
    """"用法：" takes 6 columns, not 3: continuation lines start under the first option."""
    monkeypatch.setenv("COLUMNS", "60")
    first, second = atc._parser().format_usage().splitlines()[:2]
    assert first.startswith("用法：acl-lab atc [-h] ")
    assert second.startswith(" " * columns("用法：acl-lab atc ") + "[")


def test_chinese_help_has_chinese_headings_and_fits_the_terminal(chinese, monkeypatch):
    monkeypatch.setenv("COLUMNS", "50")
    text = _sample(ArgumentParser)[1].format_help() + atc._parser().format_help()
    for heading in ("\n位置参数：\n", "\n选项：\n", "显示此帮助信息并退出"):
        assert heading in text
    chinese_lines = [line for line in text.splitlines() if wide_count(line)]
    assert max(map(columns, chinese_lines)) <= 50 - 2       # argparse's width: COLUMNS - 2


@pytest.mark.parametrize("width", [16, 20, 33])
def test_wrapping_by_columns_keeps_every_word_and_breaks_beside_chinese(width):
    text = "要打开的版本（zh_CN：中文版，菜单也是中文；默认取 $ACL_LAB_LANG，未设置时为 en）"
    lines = argparse_i18n._wrap(text, width)
    assert all(columns(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line.startswith(("，", "；", "）")) for line in lines)
    assert "$ACL_LAB_LANG" in "\n".join(lines)        # an ASCII word stays whole


class Refused(Exception):
    """argparse's error message, as it reaches ``error()``."""


class _Refusing(ArgumentParser):
    def error(self, message):
        raise Refused(message)


def _exclusive(required: bool):
    def add(parser):
        group = parser.add_mutually_exclusive_group(required=required)
        group.add_argument("--a")
        group.add_argument("--b")
    return add


#: (template, what the parser has, a command line that makes argparse say it)
TEMPLATES = [
    ("argument %(argument_name)s: %(message)s", lambda p: p.add_argument("--n"), ["--n"]),
    ("the following arguments are required: %s", lambda p: p.add_argument("out"), []),
    ("one of the arguments %s is required", _exclusive(True), []),
    ("not allowed with argument %s", _exclusive(False), ["--a", "1", "--b", "2"]),
    ("unrecognized arguments: %s", lambda p: None, ["--x", "y"]),
    ("ambiguous option: %(option)s could match %(matches)s",
     lambda p: (p.add_argument("--output"), p.add_argument("--out_nodes")), ["--out", "x"]),
    ("ignored explicit argument %r", lambda p: p.add_argument("--v", action="store_true"),
     ["--v=1"]),
    ("expected one argument", lambda p: p.add_argument("--n"), ["--n"]),
    ("expected at least one argument", lambda p: p.add_argument("--n", nargs="+"), ["--n"]),
    ("expected %s argument", lambda p: p.add_argument("--n", nargs=1), ["--n"]),
    ("expected %s arguments", lambda p: p.add_argument("--n", nargs=2), ["--n"]),
    ("invalid choice: %(value)r (choose from %(choices)s)",
     lambda p: p.add_argument("--n", choices=["a", "b"]), ["--n", "c"]),
    ("invalid %(type)s value: %(value)r", lambda p: p.add_argument("--n", type=int),
     ["--n", "x"]),
]


def _refusal(add, argv) -> str:
    parser = _Refusing(prog="p")
    add(parser)
    with pytest.raises(Refused) as e:
        parser.parse_args(argv)
    return str(e.value)


def _pieces(template: str) -> list[str]:
    """The words of a template around its placeholders."""
    return [p for p in re.split(r"%(?:\(\w+\))?[sr]", template) if p]


def test_every_template_has_a_case_and_is_argparses_own():
    """A Python whose argparse words its messages otherwise fails here by name."""
    assert sorted(t for t, _, _ in TEMPLATES) == sorted(argparse_i18n.ERRORS)
    source = Path(argparse.__file__).read_text(encoding="utf-8")
    for template in argparse_i18n.ERRORS:
        assert f"'{template}'" in source or f'"{template}"' in source, template


def test_a_message_takes_its_own_template_not_a_looser_one():
    """"expected one argument" is not "expected %s argument" with %s = "one"."""
    for template in argparse_i18n.ERRORS:
        example = argparse_i18n.PLACEHOLDER.sub("X", template)
        assert next(t for t, pattern in argparse_i18n.PATTERNS.items()
                    if pattern.fullmatch(example)) == template


@pytest.mark.parametrize("template, add, argv", TEMPLATES, ids=[t for t, _, _ in TEMPLATES])
def test_each_argparse_error_is_translated_by_its_template(template, add, argv, chinese):
    message = _refusal(add, argv)           # argparse's words are English whatever we speak
    translated = translate(message)
    assert all(piece in translated for piece in _pieces(_(template))), (message, translated)
    assert not any(piece in translated for piece in _pieces(template) if piece.strip(": ")), \
        (message, translated)


@pytest.mark.parametrize("template, add, argv", TEMPLATES, ids=[t for t, _, _ in TEMPLATES])
def test_english_errors_come_back_unchanged(template, add, argv):
    message = _refusal(add, argv)
    assert translate(message) == message


def test_a_message_argparse_did_not_write_is_left_alone(chinese):
    assert translate("无法识别的参数：--foo") == "无法识别的参数：--foo"
    assert translate("E10004: something else") == "E10004: something else"
