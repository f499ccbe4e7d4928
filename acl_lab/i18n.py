"""The language of the text a learner reads: English (the default) or Chinese (zh_CN).

Messages are written in English in the code; that English is the gettext message id, and
``acl_lab/locale/<lang>/LC_MESSAGES/acl_lab.mo`` (compiled from the ``.po`` files beside it,
one per room of the kit, by ``tools/compile_catalogs.py``; a test checks they agree) translates it. ``ACL_LAB_LANG``
or ``acl_lab.set_language()`` choose. C names, error codes and enum names are never
translated; a message without a translation is shown in English.
"""
from __future__ import annotations

import gettext
import os
import re
import unicodedata
import warnings
from pathlib import Path

LANGUAGES = ("en", "zh_CN")
DOMAIN = "acl_lab"
LOCALE_DIR = Path(__file__).with_name("locale")

_state = {"language": "en", "catalog": gettext.NullTranslations()}


def normalize(language: str) -> str:
    """'zh-CN', 'zh_CN.UTF-8', 'zh' -> 'zh_CN'; 'en_US', 'C' -> 'en'. ValueError otherwise."""
    key = str(language).split(".")[0].replace("-", "_").lower()
    if key in ("", "c", "posix", "en") or key.startswith("en_"):
        return "en"
    if key in ("zh", "zh_cn", "zh_hans", "zh_hans_cn"):
        return "zh_CN"
    raise ValueError(f"acl_lab speaks {' and '.join(LANGUAGES)}, not {language!r}")


def set_language(language: str) -> str:
    """Show explanations, hints, views and CLI output in ``language`` ("en" or "zh_CN")
    from now on; returns the normalized name."""
    lang = normalize(language)
    catalog = (gettext.NullTranslations() if lang == "en" else
               gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang]))
    _state.update(language=lang, catalog=catalog)
    return lang


def get_language() -> str:
    return _state["language"]


def _(message: str) -> str:
    """``message`` in the current language (itself when no translation exists)."""
    return _state["catalog"].gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where the same English means different things
    (the "free" button frees; a "free" block is unused): ``context`` tells them apart."""
    return _state["catalog"].pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` as a message id where it is defined (a table of labels, made at
    import); ``_()`` translates it where it is shown, in the language of that moment."""
    return message


#: Text ending in Chinese (or full-width punctuation) needs no space before what follows.
_WIDE_END = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]$")


def join_sentences(parts) -> str:
    """Sentences as one text: a space after an English one, none after a Chinese one
    (Chinese text runs on without spaces after "。")."""
    text = ""
    for part in parts:
        text += part if not text or _WIDE_END.search(text) else " " + part
    return text


def say(text: str, *values, **fields) -> None:
    """``print()`` for what a chapter's code cell says in words: ``text`` in the learner's
    language with its ``{fields}`` filled in, then ``values`` as print shows them (no space
    after Chinese punctuation: "已下发：[0 0]"). A code cell is the same in both editions;
    this is how it prints Chinese in the Chinese one."""
    words = _(text).format(**fields) if fields else _(text)
    if values and _WIDE_END.search(words):
        words, values = words + str(values[0]), values[1:]
    print(words, *values)


def wide_count(text: str) -> int:
    """How many characters of ``text`` are drawn wide (CJK, full-width forms): about an em
    in a picture, two columns in a terminal."""
    return 0 if text.isascii() else sum(unicodedata.east_asian_width(c) in "WF" for c in text)


def columns(text: str) -> int:
    """Terminal columns ``text`` takes (a Chinese character takes two)."""
    return len(text) + wide_count(text)


def join_list(items) -> str:
    """Items of a list in running text: "a, b" in English, "a，b" in Chinese."""
    return pgettext("list separator", ", ").join(items)


def _from_environment() -> None:
    try:
        set_language(os.environ.get("ACL_LAB_LANG") or "en")
    except ValueError as e:     # a typo in the environment must not stop the import
        warnings.warn(f"ACL_LAB_LANG: {e}; using English", stacklevel=2)


_from_environment()
