"""The course as a website (`make site`): a chapter page of each edition opens in headless
Chromium from a loopback server, every picture on it loads (the views' static SVGs and the
matplotlib figures), nothing is fetched from beyond the site, the language switch leads to
the same chapter in the other edition, and each edition has its search.

Builds the site into a temporary folder (both editions, ~40 s here); screenshots land in
test-artifacts/ (site-03-en.png, site-03-zh_CN.png).
"""
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from test_widgets_in_jupyterlab import CHROMIUM_FLAGS, free_port, require_browser_tools

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
CHAPTER = "03_memset_and_memcpy"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    chromium = require_browser_tools()
    pytest.importorskip("myst_nb", reason="the site extra: pip install -e '.[site]'")
    out = tmp_path_factory.mktemp("site") / "site"
    build_site.build(out)
    return chromium, out


@pytest.fixture(scope="module")
def served(site):
    chromium, root = site
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                             "127.0.0.1", "--directory", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{url}/index.html", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        yield chromium, root, url
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_site_has_a_page_per_chapter_and_edition_and_a_search(site):
    _, root = site
    for edition, (folder, _language, _name) in build_site.EDITIONS.items():
        pages = {p.stem for p in (root / edition).glob("[0-9][0-9]_*.html")}
        assert pages == {p.stem for p in build_site.chapters(folder)}, edition
        assert (root / edition / "search.html").is_file()
        assert (root / edition / "searchindex.js").stat().st_size > 10_000
    index = (root / "index.html").read_text(encoding="utf-8")
    assert 'href="en/index.html"' in index and 'href="zh_CN/index.html"' in index
    assert not (root / "jupyter_execute").exists()


@pytest.mark.parametrize("edition, other", [("en", "zh_CN"), ("zh_CN", "en")])
def test_a_chapter_page_shows_every_picture_and_fetches_nothing_from_outside(served, edition,
                                                                             other):
    from playwright.sync_api import sync_playwright
    chromium, root, url = served
    outside, failed = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})

            def route(handle):
                if handle.request.url.startswith((url, "data:")):
                    return handle.continue_()
                outside.append(handle.request.url)
                return handle.abort()
            page.route("**/*", route)
            page.on("requestfailed", lambda r: failed.append(r.url)
                    if r.url.startswith(url) else None)
            page.goto(f"{url}/{edition}/{CHAPTER}.html", wait_until="load")
            images = page.eval_on_selector_all(
                "article img", "els => els.map(e => [e.currentSrc.startsWith('data:') ? "
                "e.currentSrc.slice(0, 40) : e.currentSrc, e.complete, e.naturalWidth])")
            page.screenshot(path=str(ARTIFACTS / f"site-03-{edition}.png"), full_page=True)
            switch = page.get_attribute("#language-switch", "href")
            page.click("#language-switch")
            page.wait_for_load_state("load")
            arrived = page.url
        finally:
            browser.close()
    assert outside == [] and failed == []
    assert images and all(done and width > 0 for _src, done, width in images), images
    sources = [src for src, _d, _w in images]
    assert any(src.startswith("data:image/svg+xml") for src in sources), sources   # the views
    assert any(src.endswith(".png") for src in sources), sources                 # the figure
    assert switch and arrived == f"{url}/{other}/{CHAPTER}.html"


def test_the_chinese_edition_says_chinese_and_searches_in_chinese(site):
    _, root = site
    page = (root / "zh_CN" / f"{CHAPTER}.html").read_text(encoding="utf-8")
    assert 'lang="zh-CN"' in page or 'lang="zh_CN"' in page
    assert "内存初始化" in page and 'id="language-switch"' in page
    index = (root / "zh_CN" / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(index[index.index("(") + 1:index.rindex(")")])["terms"]
    assert "内存" in terms and "锁页" in terms      # words, not whole sentences (jieba)
