"""argparse in the learner's language: the parser of ``acl-lab`` and of ``acl-lab atc``.

argparse's own words ("usage: ", its section titles, -h's help, its error messages) come
from gettext calls inside argparse, in argparse's domain, for which no catalog ships. Here
they come from acl_lab's catalog instead: the headings and -h are set where the parser is
made, "usage: " by the help formatter, and an error message, which argparse has already
formatted in English before ``error()`` sees it, is matched against argparse's English
templates and rewritten from the translated one. English output is argparse's own.
"""
from __future__ import annotations

import argparse
import itertools
import re
import sys

from acl_lab.i18n import N_, _, columns, wide_count

#: argparse's error messages that a command line can cause (Python 3.11's argparse.py),
#: placeholders included; "%(message)s" is itself one of them (an ArgumentError's text).
#: A message takes the first that matches: "expected one argument" comes before
#: "expected %s argument".
ERRORS = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
)
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[sr]")


def _namer():
    """Names placeholders in order: a named one by its name, a positional one (%s) p0, p1..."""
    count = itertools.count()
    return lambda match: match[1] or f"p{next(count)}"


def _regex(template: str) -> re.Pattern:
    """What argparse writes from ``template``: its words, and anything for a placeholder."""
    name = _namer()
    parts, end = [], 0
    for match in PLACEHOLDER.finditer(template):
        parts += [re.escape(template[end:match.start()]), f"(?P<{name(match)}>.+?)"]
        end = match.end()
    return re.compile("".join(parts) + re.escape(template[end:]), re.DOTALL)


#: each template's regex, in the order of ERRORS
PATTERNS = {t: _regex(t) for t in ERRORS}


def translate(message: str) -> str:
    """argparse's English error ``message`` in the learner's language; a message argparse
    did not write (the kit's own, already translated) comes back as it is."""
    for template, pattern in PATTERNS.items():
        match = pattern.fullmatch(message)
        if match:
            values = {k: translate(v) if k == "message" else v
                      for k, v in match.groupdict().items()}
            name = _namer()
            return PLACEHOLDER.sub(lambda m: values[name(m)], _(template))
    return message


#: what a line may break between: a space, an ASCII word, a single Chinese character (each
#: with the opening or closing punctuation that must stay beside it)
_UNITS = re.compile(r" |[（“「]*(?:[\x21-\x7e]+|\S)[，。、：；！？）”」]*")


def _wrap(text: str, width: int) -> list[str]:
    """``text`` on lines of at most ``width`` terminal columns (a Chinese character takes
    two); a line breaks at a space or beside a Chinese character."""
    lines, line = [], ""
    for unit in _UNITS.findall(" ".join(text.split())):
        if line.strip() and columns(line + unit.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += unit if line or unit != " " else ""
    return lines + [line.rstrip()] if line.strip() else lines


class HelpFormatter(argparse.HelpFormatter):
    """argparse's layout with "usage: " in the learner's language, and help text wrapped by
    terminal columns where it has Chinese in it (argparse counts characters)."""

    class _Section(argparse.HelpFormatter._Section):
        """A section whose heading ends as the language's headings do ("选项：")."""

        def format_help(self):
            text = super().format_help()
            return text.replace(f"{self.heading}:\n", _("{heading}:").format(
                heading=self.heading) + "\n", 1) if self.heading else text

    def _format_usage(self, usage, actions, groups, prefix):
        prefix = _("usage: ") if prefix is None else prefix
        blank = " " * columns(prefix)       # argparse lines the usage up under len(blank)
        return prefix + super()._format_usage(usage, actions, groups, blank)[len(blank):]

    def _split_lines(self, text, width):
        return _wrap(text, width) if wide_count(text) else super()._split_lines(text, width)

    def _fill_text(self, text, width, indent):
        if not wide_count(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in _wrap(text, width - len(indent)))


class ArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose own words (usage, headings, -h, errors) follow the
    learner's language, as of when it is made; its subcommands' parsers are of its class."""

    def __init__(self, *, add_help=True, formatter_class=HelpFormatter, **kwargs):
        super().__init__(add_help=False, formatter_class=formatter_class, **kwargs)
        self.add_help = add_help
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=_("show this help message and exit"))

    def error(self, message):
        """Usage and the error on stderr, exit status 2, as argparse does."""
        self.print_usage(sys.stderr)
        self.exit(2, _("%(prog)s: error: %(message)s\n") % {
            "prog": self.prog, "message": translate(message)})
