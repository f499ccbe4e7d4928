"""Build the course as a static website, both languages, from the committed executed
notebooks (``make site``).

    make site                                    # builds into build/site
    .venv/bin/python tools/build_site.py [OUTPUT]

Sphinx with MyST-NB renders each chapter's stored outputs (execution off: what nbval
checked is what the site shows): every view's static SVG (the picture saved beside each
widget; the widget itself needs a kernel and is left out), every matplotlib figure (PNG),
text and tables. Each edition is its own Sphinx project with its own search (Sphinx's, a
local index: English, and Chinese split by character), a page per chapter, and on every
page a link to the same page in the other edition. Nothing is fetched at build or view time:
the theme (furo) ships its files, no widget JavaScript is loaded, nor MathJax (the chapters have no math).
``build/site/index.html`` lets the reader pick a language.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
#: edition -> (folder of its notebooks, Sphinx language, its name in the language switch)
EDITIONS = {"en": (NOTEBOOKS, "en", "English"), "zh_CN": (NOTEBOOKS / "zh_CN", "zh_CN", "中文")}
TITLES = {"en": "acl_lab: learn the AscendCL runtime", "zh_CN": "acl_lab：动手学 AscendCL 运行时"}
INTRO = {
    "en": "The chapters of acl_lab as they run on its simulator, outputs included. To run "
          "them yourself, open them in JupyterLab (`make lab`), on Binder or in JupyterLite.",
    "zh_CN": "acl_lab 的各章及其在模拟器上运行的输出。要自己运行，请在 JupyterLab（`make lab`）、"
             "Binder 或 JupyterLite 中打开。",
}
CONF = '''\
project = {title!r}
language = {language!r}
extensions = ["myst_nb"]
html_theme = "furo"
html_title = {title!r}
html_static_path = []
templates_path = ["_templates"]
html_sidebars = {{"**": ["sidebar/brand.html", "language.html", "sidebar/search.html",
                         "sidebar/scroll-start.html", "sidebar/navigation.html",
                         "sidebar/scroll-end.html"]}}
html_context = {{"other_edition": {other!r}, "other_name": {other_name!r}}}
html_show_sourcelink = False
html_copy_source = False
# the stored outputs are the site: nothing runs
nb_execution_mode = "off"
nb_merge_streams = True
# a widget needs a kernel: show the picture saved beside it (its text/html <img>, or SVG)
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None),
                              ("html", "application/vnd.jupyter.widget-state+json", None)]
nb_ipywidgets_js = {{}}          # no widget JavaScript from a CDN
# MathJax would come from a CDN, but Sphinx adds it only to a page with math, and the
# chapters have none (tests/browser/test_site.py fails on any request beyond the site)
suppress_warnings = ["mystnb.unknown_mime_type", "myst.header", "misc.highlighting_failure",
                     "toc.not_included"]
'''
LANGUAGE_TEMPLATE = '''\
<div class="sidebar-tree" style="padding: 0 var(--sidebar-item-spacing-horizontal)">
  <a class="reference" href="{{ pathto('index') | replace('index.html', '') }}../{{ other_edition }}/{{ pagename }}.html"
     hreflang="{{ other_edition }}" id="language-switch">{{ other_name }}</a>
</div>
'''
ROOT_PAGE = '''\
<!doctype html>
<html><head><meta charset="utf-8"><title>acl_lab</title>
<style>body{{font-family:sans-serif;max-width:40em;margin:4em auto;line-height:1.5}}</style>
</head><body>
<h1>acl_lab</h1>
<ul>{links}</ul>
</body></html>
'''


def chapters(folder: Path) -> list[Path]:
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def title_of(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    first = next((c.source for c in nb.cells if c.cell_type == "markdown"), "")
    return next((line.lstrip("# ").strip() for line in first.splitlines()
                 if line.startswith("# ")), path.stem)


def source_tree(edition: str, work: Path) -> Path:
    """A Sphinx source folder for one edition: its notebooks, their pictures, an index."""
    folder, language, _name = EDITIONS[edition]
    other = next(e for e in EDITIONS if e != edition)
    src = work / edition
    shutil.rmtree(src, ignore_errors=True)
    (src / "_templates").mkdir(parents=True)
    for path in chapters(folder):
        shutil.copy2(path, src / path.name)
    if (folder / "images").is_dir():         # pictures the chapters' markdown shows
        shutil.copytree(folder / "images", src / "images")
    (src / "conf.py").write_text(CONF.format(title=TITLES[edition], language=language,
                                             other=other, other_name=EDITIONS[other][2]))
    (src / "_templates" / "language.html").write_text(LANGUAGE_TEMPLATE)
    toc = "\n".join(p.stem for p in chapters(folder))
    (src / "index.md").write_text(textwrap.dedent(f"""\
        # {TITLES[edition]}

        {INTRO[edition]}

        ```{{toctree}}
        :maxdepth: 1

        {{toc}}
        ```
        """).replace("{toc}", toc))
    return src


def build(out: Path) -> None:
    work = ROOT / "build" / "site-src"
    shutil.rmtree(out, ignore_errors=True)
    for edition in EDITIONS:
        src = source_tree(edition, work)
        subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", "auto",
                        str(src), str(out / edition)], check=True)
        for scratch in (out / edition / ".doctrees", out / edition / "_sources",
                        out / "jupyter_execute"):     # Sphinx's and MyST-NB's working files
            shutil.rmtree(scratch, ignore_errors=True)
    links = "".join(f'<li><a href="{e}/index.html" hreflang="{e}">{EDITIONS[e][2]}: '
                    f"{TITLES[e]}</a></li>" for e in EDITIONS)
    (out / "index.html").write_text(ROOT_PAGE.format(links=links), encoding="utf-8")
    print(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: open "
          f"{out / 'index.html'}")


def main(argv: list[str]) -> int:
    build(Path(argv[0]).resolve() if argv else ROOT / "build" / "site")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
