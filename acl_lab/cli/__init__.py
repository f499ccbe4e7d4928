"""``acl-lab doctor | lab | bench | atc | run | assignments | student | selftest``.

doctor: one screen for a workshop helper desk — versions, which backends can run here and
why not, what ``acl_lab.load()`` would pick, and whether Jupyter can show the widgets.
lab: JupyterLab at chapter 00. bench: the benchmark table (``python -m benchmarks``).
atc: ATC's command line, ONNX model -> offline model (.om) for the simulator (acl_lab.om.atc).
run: a pyACL program unchanged on the simulator, then its report (acl_lab.run).
assignments / student: nbgrader source notebooks / copies without solutions (acl_lab.cli.assignments).
selftest: the contract suite on this machine's NPU against the simulator, one report
(acl_lab.backends.ascend.selftest).
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from acl_lab.support.argparse_i18n import ArgumentParser
from acl_lab.i18n import _, columns, get_language, set_language

RUNTIME = ("numpy", "ipywidgets", "sortedcontainers", "onnx")
TEST_EXTRAS = ("pytest", "nbval", "hypothesis")
WIDGETS_EXTENSION = Path("labextensions", "@jupyter-widgets", "jupyterlab-manager")
START_NOTEBOOK = Path("notebooks", "00_start_here.ipynb")
#: chapter 00 of each edition (the Chinese one under notebooks/zh_CN/)
START_NOTEBOOKS = {"en": START_NOTEBOOK, "zh_CN": Path("notebooks", "zh_CN", START_NOTEBOOK.name)}
#: JupyterLab's own language setting (the zh_CN language pack provides the translation)
LAB_LOCALE = "@jupyterlab/translation-extension:plugin"
#: What every learner's JupyterLab is spared: the "Would you like to get notified about
#: official Jupyter news?" question and the update check (a workshop has no use for them,
#: and both reach the network). `acl-lab lab` and binder/postBuild write them.
LAB_QUIET = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                              "checkForUpdates": False}}
CHECKOUT = Path(__file__).resolve().parents[2]   # the source checkout, when installed -e
#: GitHub remotes as git prints them: https://github.com/O/R(.git), git@github.com:O/R.git,
#: ssh://git@github.com/O/R.git
GITHUB_REMOTE = re.compile(r"github\.com[:/](?P<owner>[\w.-]+)/(?P<repo>[\w.-]+?)(?:\.git)?/?$")


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _versions(dists) -> tuple[str, list[str]]:
    found = {d: _version(d) for d in dists}
    listed = " · ".join(f"{d} {v}" for d, v in found.items() if v)
    return listed, [d for d, v in found.items() if v is None]


def _env(var: str, default: str) -> str:
    value = os.environ.get(var)
    return f"{value} (${var})" if value else _("{default} (${var} unset)").format(
        default=default, var=var)


def _row(label: str, value: str) -> str:
    """One line of the doctor's report: the label in a column 11 wide (a Chinese one too)."""
    return f"  {label}{' ' * max(11 - columns(label), 1)}{value}"


def _widgets_extension() -> Path | None:
    try:
        from jupyter_core.paths import jupyter_path
        roots = [Path(p) for p in jupyter_path()]
    except ImportError:
        roots = [Path(sys.prefix, "share", "jupyter")]
    return next((r / WIDGETS_EXTENSION for r in roots if (r / WIDGETS_EXTENSION).is_dir()), None)


def _find(relative: Path) -> Path | None:
    """``relative`` under the current folder, else under the source checkout."""
    return next((base / relative for base in (Path.cwd(), CHECKOUT)
                 if (base / relative).exists()), None)


def _profile() -> tuple[str, bool]:
    """The profile load() would use, in words, and whether it exists."""
    from acl_lab.constants import RUN_MODE_NAMES
    from acl_lab.sim.profiles import get_profile

    try:
        p = get_profile()
    except ValueError as e:
        return str(e), False
    return _("{name} — {soc}, {run_mode}, {kinds}, {count} device(s)").format(
        name=p.name, soc=p.soc_name, run_mode=RUN_MODE_NAMES[p.run_mode],
        kinds="+".join(p.kinds), count=p.device_count), True


def binder_url(remote: str | None = None, language: str = "en") -> str | None:
    """The mybinder.org link that opens chapter 00 (of the ``language`` edition) of this
    checkout's GitHub repository (from ``git remote get-url origin`` unless ``remote`` is
    given); None without a GitHub remote."""
    if remote is None:
        try:
            remote = subprocess.run(["git", "-C", str(CHECKOUT), "remote", "get-url", "origin"],
                                    capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None
    match = GITHUB_REMOTE.search(remote)
    if match is None:
        return None
    return (f"https://mybinder.org/v2/gh/{match['owner']}/{match['repo']}/HEAD"
            f"?urlpath=lab/tree/{START_NOTEBOOKS[language].as_posix()}")


def doctor(out=None) -> int:
    """Print the report; 1 when the backend load() would pick cannot run here."""
    from acl_lab import __version__
    from acl_lab.backends.ascend import HOW_TO_INSTALL, SET_ENV, diagnose, guard_wanted
    from acl_lab.sim.profiles import PROFILES

    out = out or sys.stdout
    runtime, runtime_missing = _versions(RUNTIME)
    extras, extras_missing = _versions(TEST_EXTRAS)
    lines = ["acl_lab doctor",
             _row("Python", f"{sys.version.split()[0]}  {sys.executable}"),
             _row("acl_lab", f"{__version__}  {Path(__file__).resolve().parents[1]}"),
             _row(_("packages"), runtime
                  + (_("  MISSING {names}: pip install -e .").format(
                      names=", ".join(runtime_missing)) if runtime_missing else "")),
             _row(_("test"), (extras or "-")
                  + (_("  (missing {names}: pip install -e '.[test]')").format(
                      names=", ".join(extras_missing)) if extras_missing else ""))]

    found = diagnose()
    lines += [_("Backends"),
              _row("sim", _("ready: profiles {names}").format(names=", ".join(PROFILES)))]
    if found.ok:
        lines.append(_row("ascend", _("ready: {count} device(s); {notes}").format(
            count=found.device_count, notes="; ".join(found.notes))))
    else:
        lines.append(_row("ascend", _("not available here:")))
        lines += [f"             - {p}" for p in found.problems]
        lines.append("             " + _("fix: install the CANN toolkit (pyACL comes with it), "
                                         "then source {set_env}").format(set_env=SET_ENV))

    if found.ok:
        lines += _chapters_on_this_cann(found.module)
    lines += _socs(PROFILES)
    lines += _pyacl_coverage()

    backend = (os.environ.get("ACL_LAB_BACKEND") or "sim").lower()
    profile, profile_ok = _profile()
    usable = {"sim": profile_ok, "ascend": found.ok}.get(backend, False)
    lines += [_("Active"),
              _row(_("backend"), _env("ACL_LAB_BACKEND", "sim")
                   + ("" if usable else _("  <- cannot run here"))),
              _row(_("profile"), f"{_env('ACL_LAB_PROFILE', 'default')}: {profile}"),
              _row(_("guard"), (_("on") if guard_wanted() else _("OFF"))
                   + _(" ($ACL_LAB_GUARD; ascend only)"))]

    ext = _widgets_extension()
    start = _find(START_NOTEBOOK)
    lines += [_("Jupyter"),
              _row("jupyterlab", _version("jupyterlab") or _("MISSING: pip install -e .[lab]")),
              _row(_("widgets"), _("extension installed ({path})").format(path=ext) if ext else
                   _("extension MISSING: pip install jupyterlab_widgets, then restart "
                     "JupyterLab")),
              _row(_("chapters"), str(start) if start else
                   _("not found: run acl-lab from the source checkout")),
              _row("binder", binder_url() or _("no GitHub remote 'origin' in this checkout: "
                                               "push it to GitHub, then run acl-lab doctor "
                                               "again"))]
    if binder_url():
        lines.append("  binder 中文 " + binder_url(language="zh_CN"))
    print("\n".join(lines), file=out)
    if backend == "ascend" and not found.ok:
        print(_(HOW_TO_INSTALL).format(set_env=SET_ENV), file=out)
    return 0 if usable else 1


def _socs(profiles) -> list[str]:
    """Which product line each profile simulates, and the SoC table its rules come from."""
    from acl_lab.spec.socs import CHECKED_AGAINST, table
    lines = [_("SoCs (acl_lab/spec/socs.py; rules checked against {checked})").format(
        checked=CHECKED_AGAINST)]
    lines += [_row(name, f"{p.soc_name}: {p.soc.product} ({p.soc.key})")
              for name, p in profiles.items()]
    return lines + ["  " + line for line in table()]


def _pyacl_coverage() -> list[str]:
    """Per namespace, how many of the functions pyACL binds the simulator offers, and which
    it refuses on purpose (docs/pyacl-coverage.md names the missing ones)."""
    from acl_lab.session import Session
    from acl_lab.sim.profiles import DEFAULT_PROFILE
    from acl_lab.spec import pyacl_functions as pf

    table = pf.bound()     # a session of its own; the calls offered do not vary by profile
    rows = pf.coverage(Session().load(backend="sim", profile=DEFAULT_PROFILE), table)
    lines = [_("pyACL calls on the simulator (offered / bound by pyACL, hicann/runtime "
               "{commit})").format(commit=table.commit[:7])]
    lines += [_row(f"acl.{r.namespace}" if r.namespace else "acl",
                   f"{len(r.offered)}/{len(r.names)}") for r in rows]
    refused = [f"acl.{pf.qualified(r.namespace, n)} "
               f"({pf.REFUSED[pf.qualified(r.namespace, n)].code})"
               for r in rows for n in r.refused]
    lines.append(_row(_("refused"), ", ".join(refused) if refused else
                      _("none on purpose")))
    lines.append(_row(_("missing"), _("listed in docs/pyacl-coverage.md")))
    return lines


def _chapters_on_this_cann(pyacl) -> list[str]:
    """Per chapter: can it run with this pyACL and these CANN libraries, and why not."""
    from acl_lab.backends.ascend.native import Native
    from acl_lab.backends.ascend.native.chapters import survey, table
    from acl_lab.backends.ascend.native.libraries import cann_version, library_dir

    notebooks = _find(START_NOTEBOOK.parent)
    native = Native()
    soc = None
    try:
        soc = pyacl.get_soc_name()
    except Exception:       # pyACL without it, or not initialised: the table goes on without
        pass
    lines = [_("Chapters on this CANN ({version}; libraries in {folder})").format(
        version=cann_version() or _("version unknown"), folder=library_dir() or "-")]
    if notebooks is None:
        return lines + [_row(_("chapters"), _("not found: run acl-lab from the source "
                                               "checkout"))]
    return lines + table(survey(notebooks, pyacl, native, soc if isinstance(soc, str) else None))


def selftest(out: Path) -> int:
    """``acl-lab selftest``: needs the ascend backend and the checkout's tests/contract."""
    from acl_lab.backends.ascend import diagnose
    from acl_lab.backends.ascend.selftest import selftest as run

    contract = _find(Path("tests", "contract"))
    if contract is None:
        print(_("acl-lab selftest: no tests/contract here or in {checkout}; run it from the "
                "source checkout (git clone).").format(checkout=CHECKOUT), file=sys.stderr)
        return 2
    found = diagnose()
    if not found.ok:
        print(found.explain(), file=sys.stderr)
        return 2
    return run(contract, out)


def lab_arguments(extra: list[str], language: str = "en") -> list[str]:
    """Arguments of ``jupyter lab`` that open chapter 00 of the ``language`` edition, and
    print its URL (not the Launcher's) as the address to open. For zh_CN, JupyterLab's own
    menus default to Chinese too (an overrides.json in a settings folder of acl_lab's)."""
    chapter = START_NOTEBOOKS[language].as_posix()
    args = [f"--LabApp.default_url=/lab/tree/{chapter}", chapter, *extra,
            f"--LabApp.app_settings_dir={_lab_settings(language)}"]
    if getattr(os, "geteuid", lambda: 1)() == 0:   # containers and workshop VMs often run as root
        args.append("--allow-root")
    return args


def _lab_settings(language: str) -> Path:
    """A JupyterLab app-settings folder of acl_lab's with its overrides.json."""
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache",
                  "acl_lab", f"lab-{language}")
    write_lab_overrides(folder, language)
    return folder


def lab_overrides(language: str = "en") -> dict:
    """JupyterLab's defaults for the kit's learners (a learner's own choice in Settings still
    wins): no news question nor update check, and for zh_CN menus in Chinese."""
    out = dict(LAB_QUIET)
    if language != "en":
        out[LAB_LOCALE] = {"locale": language}
    return out


def write_lab_overrides(folder, language: str = "en") -> Path:
    """Write ``lab_overrides(language)`` as ``folder``/overrides.json (binder/postBuild: the
    environment's own settings folder, ``<prefix>/share/jupyter/lab/settings``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "overrides.json"
    path.write_text(json.dumps(lab_overrides(language), indent=1) + "\n")
    return path


def lab(extra: list[str], language: str = "en") -> int:
    """Replace this process with JupyterLab opened at chapter 00 of ``language``'s edition."""
    if _version("jupyterlab") is None:
        print(_("acl-lab lab: JupyterLab is not installed; it is the kit's `lab` extra: "
                "pip install -e '.[lab]' (or make lab)."), file=sys.stderr)
        return 2
    start = _find(START_NOTEBOOKS[language])
    if start is None:
        print(_("acl-lab lab: {chapter} not found here or in {checkout}; run it from the source "
                "checkout (git clone, then make lab).").format(
            chapter=START_NOTEBOOKS[language], checkout=CHECKOUT), file=sys.stderr)
        return 2
    os.chdir(start.parents[len(START_NOTEBOOKS[language].parts) - 1])
    os.execv(sys.executable, [sys.executable, "-m", "jupyter", "lab",
                              *lab_arguments(extra, language)])
    return 0   # not reached: execv does not return


def bench(extra: list[str]) -> int:
    """Run ``python -m benchmarks`` in the checkout that has them."""
    found = _find(Path("benchmarks", "__main__.py"))
    if found is None:
        print(_("acl-lab bench: no benchmarks/ here; they live in the source checkout."),
              file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, "-m", "benchmarks", *extra],
                           cwd=found.parent.parent)


def copies(kind: str, out: Path, chapters: list[str] | None, notebooks: Path | None,
           language: str = "en") -> int:
    """``acl-lab assignments|student OUT``: write the nbgrader source tree or student copies
    (of ``language``'s edition unless ``notebooks`` names the chapters' folder)."""
    from acl_lab.cli.assignments import write_assignments, write_student

    notebooks = notebooks or _find(START_NOTEBOOKS[language].parent)
    if notebooks is None:
        print(_("acl-lab {command}: no notebooks/ here or in {checkout}; pass --notebooks "
                "DIR.").format(command=kind, checkout=CHECKOUT), file=sys.stderr)
        return 2
    write = write_assignments if kind == "assignments" else write_student
    try:
        written = write(notebooks, out, chapters)
    except (FileNotFoundError, ValueError) as e:
        print(f"acl-lab {kind}: {e}", file=sys.stderr)
        return 2
    except OSError as e:         # OUT is a file, or a folder that cannot be written
        print(_("acl-lab {command}: cannot write {path}: {reason}").format(
            command=kind, path=e.filename or out, reason=e.strerror or e), file=sys.stderr)
        return 2
    for path in written:
        print(_("wrote {path}").format(path=path))
    if kind == "assignments":
        print(_("next: cd {out} && nbgrader generate_assignment chNN (then autograde "
                "submissions in submitted/<student>/chNN/)").format(out=out))
    return 0


def run(program: str, args: list[str], profile: str | None, json_path: Path | None,
        strict: bool) -> int:
    """`acl-lab run`: the program's own exit status (1 if it raised), its report on stderr."""
    from acl_lab.run import run_program
    from acl_lab.run.program import tell, uninterrupted

    if not Path(program).is_file():
        print(_("acl-lab run: {program} is not a file").format(program=program),
              file=sys.stderr)
        return 2
    if profile is not None:
        from acl_lab.sim.profiles import get_profile
        try:
            get_profile(profile)
        except ValueError as e:
            print(f"acl-lab run: {e}", file=sys.stderr)
            return 2
    report = run_program(program, args, profile)
    with contextlib.suppress(ValueError, OSError, AttributeError):
        sys.stdout.flush()               # the program's output first (it may have closed it)
    with uninterrupted():
        tell(report.render())
        if json_path is not None:
            try:
                json_path.write_text(json.dumps(report.as_json(), indent=1, ensure_ascii=False),
                                     encoding="utf-8")
            except OSError as e:
                tell(_("acl-lab run: cannot write {path}: {reason}").format(
                    path=json_path, reason=e.strerror or e))
    if report.status in ("exception", "stopped"):
        return 1
    if report.status == "interrupted":
        return 130                      # as Python's own exit after Ctrl-C (128 + SIGINT)
    if report.status.startswith("exit "):
        return int(report.status.split()[1])
    return 1 if strict and report.findings() else 0


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="acl-lab", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("doctor", help=_("versions, backends, active profile, Jupyter status"))
    lab_parser = commands.add_parser("lab", help=_("open JupyterLab at chapter 00 (extra args "
                                                   "go to jupyter)"))
    lab_parser.add_argument("--lang", choices=sorted(START_NOTEBOOKS), default=None,
                            help=_("the edition to open (zh_CN: the Chinese one, menus too; "
                                   "default: $ACL_LAB_LANG, else en)"))
    commands.add_parser("bench", help=_("print the benchmark table (extra args: benchmark "
                                        "names)"))
    commands.add_parser("atc", add_help=False, help=_("convert an ONNX model to an offline "
                                                      "model (.om): --model=M.onnx "
                                                      "--framework=5 --output=M "
                                                      "--soc_version=..."))
    run_parser = commands.add_parser("run", help=_("run a pyACL program unchanged on the "
                                                   "simulator, then report its misuse and leaks"))
    run_parser.add_argument("--profile", default=None,
                            help=_("the simulated device: 910b (default), 310, 310p, 200dk"))
    run_parser.add_argument("--json", type=Path, default=None, metavar="PATH",
                            help=_("also write the report as JSON to PATH"))
    run_parser.add_argument("--strict", action="store_true",
                            help=_("exit with status 1 when the report finds misuse or leaks"))
    run_parser.add_argument("program", help=_("the Python program (app.py)"))
    run_parser.add_argument("args", nargs=argparse.REMAINDER,
                            help=_("its own arguments (sys.argv[1:])"))
    for name, what in (("assignments", _("write an nbgrader source tree: OUT/source/chNN/")),
                       ("student", _("write the chapters without their solutions into OUT"))):
        sub = commands.add_parser(name, help=what)
        sub.add_argument("out", type=Path, help=_("the folder to write"))
        sub.add_argument("--chapters", nargs="+", metavar="NN",
                         help=_("only these (e.g. 02 03)"))
        sub.add_argument("--notebooks", type=Path, help=_("the chapters' folder (default: "
                                                          "notebooks/ here or in the source "
                                                          "checkout)"))
        sub.add_argument("--lang", choices=sorted(START_NOTEBOOKS), default=None,
                         help=_("the edition to copy, and the language of the messages "
                                "(default: $ACL_LAB_LANG, else en)"))
    selftest_parser = commands.add_parser(
        "selftest", help=_("run the contract suite on this machine's NPU and write a report "
                           "to attach to an issue"))
    selftest_parser.add_argument("--out", type=Path, default=Path("acl-lab-selftest.md"),
                                 help=_("the report to write (default: acl-lab-selftest.md)"))
    args, extra = parser.parse_known_args(argv)
    # the other commands pass extra arguments on
    if extra and args.command in ("assignments", "student", "doctor", "selftest"):
        parser.error(_("unrecognized arguments: %s") % " ".join(extra))   # argparse's words
    if args.command in ("assignments", "student"):
        with _speaking(args.lang) as language:
            return copies(args.command, args.out, args.chapters, args.notebooks, language)
    if args.command == "run":
        return run(args.program, args.args + extra, args.profile, args.json, args.strict)
    if args.command == "atc":
        from acl_lab.om.atc import main as atc
        return atc(extra)
    if args.command == "doctor":
        return doctor()
    if args.command == "selftest":
        return selftest(args.out)
    if args.command == "lab":       # --lang picks the edition, and the language of lab's messages
        with _speaking(args.lang) as language:
            return lab(extra, language)
    return bench(extra)


@contextlib.contextmanager
def _speaking(language: str | None):
    """``language`` (None: the current one) for the messages of a command, which works on
    that language's edition of the chapters."""
    before = get_language()
    try:
        yield set_language(language or before)
    finally:
        set_language(before)


if __name__ == "__main__":
    sys.exit(main())
