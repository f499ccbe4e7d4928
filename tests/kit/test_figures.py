"""acl_lab.figures: each figure measures on the learner's process without disturbing it, is
the same on every run, shows a PNG and a text (nothing nbval would compare pixel by pixel),
and speaks the learner's language with glyphs the chosen font has: never boxes."""
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab import figures, sample_models
from acl_lab.pool import MemoryPool

MiB = 1 << 20


def program(acl):
    blocks = []
    for size in (256 << 10, 3 * MiB):
        ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
        blocks.append(ptr)
        yield f"aclrtMalloc {size >> 10} KiB"
    for ptr in blocks:
        acl.rt.free(ptr)
        yield "aclrtFree"


def workload(pool):
    segments = [pool.alloc(n) for n in (300, 200, 500)]
    yield "alloc x3"
    pool.free(segments[1])
    yield "free #2"


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """The digits model with batch gears, as chapter 08 converts it."""
    from acl_lab.om.atc import main as atc
    folder = tmp_path_factory.mktemp("models")
    sample_models.write("digits", folder)
    assert atc([f"--model={folder / 'digits.onnx'}", "--framework=5",
                f"--output={folder / 'digits_batch'}", "--soc_version=Ascend910B3",
                "--input_shape=image:-1,1,28,28", "--dynamic_batch_size=1,4,16"]) == 0
    return str(folder / "digits_batch.om")


def draw(name, acl, model=None):
    if name == "copy_time":
        return figures.copy_time(acl, sizes=(1024, 65536, 1 << 20))
    if name == "free_memory":
        return figures.free_memory(acl, program)
    if name == "fragmentation":
        pool = MemoryPool(acl, 4096)
        try:
            return figures.fragmentation(pool, workload)
        finally:
            pool.close(force=True)
    if name == "replay_vs_eager":
        return figures.replay_vs_eager(acl, counts=(1, 4, 16))
    if name == "batch_latency":
        return figures.batch_latency(acl, model, rounds=2)
    return figures.decode_resize(acl, sizes=((160, 120), (640, 480)))


NAMES = ("copy_time", "free_memory", "fragmentation", "replay_vs_eager", "batch_latency",
         "decode_resize")


def device_state() -> tuple:
    snap = acl_lab.snapshot()
    return (sorted((a["ptr"], a["size"]) for a in snap["allocations"] if a["pool"] != "pageable"),
            len(snap["streams"]), len(snap["events"]), len(snap["models"]),
            len(snap["offline_models"]))


@pytest.mark.parametrize("name", NAMES)
def test_a_figure_is_the_same_on_every_run_and_leaves_the_process_as_it_was(acl, model, name):
    before, calls = device_state(), len(acl_lab.tracer().calls)
    first = draw(name, acl, model)
    if name not in ("free_memory", "fragmentation"):    # the learner's program is traced
        assert len(acl_lab.tracer().calls) == calls     # the kit's own calls are not
    assert device_state() == before
    acl_lab.reset("910b")
    acl.init(), acl.rt.set_device(0)
    second = draw(name, acl, model)
    assert first.data == second.data and str(first) == str(second)
    assert first.png() == second.png() and first.png()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(first).startswith("Figure: ") and all(len(v) for v in first.data.values())


def test_the_numbers_alone_need_no_figure(acl):
    data = figures.copy_time(acl, sizes=(1024, 1 << 20), plot=False)
    assert set(data) == {"size", "pinned_us", "pageable_us"}
    assert data["pinned_us"][-1] < data["pageable_us"][-1]       # pinned is faster


def test_the_trends_the_chapters_teach(acl, model):
    copy = figures.copy_time(acl, plot=False)
    bandwidth = [n / t for n, t in zip(copy["size"], copy["pinned_us"])]
    assert bandwidth == sorted(bandwidth)            # small copies pay a fixed cost
    replay = figures.replay_vs_eager(acl, counts=(1, 8, 64), plot=False)
    assert replay["replay_host"] == [replay["replay_host"][0]] * 3       # one launch
    assert replay["eager_host"] == sorted(replay["eager_host"])
    batch = figures.batch_latency(acl, model, rounds=2, plot=False)
    assert batch["async_per_ms"] == sorted(batch["async_per_ms"])
    decode = figures.decode_resize(acl, sizes=((160, 120), (1280, 720)), plot=False)
    assert decode["decode_us"][0] < decode["decode_us"][1]


def test_jupyter_gets_a_png_and_a_text_only(acl, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: shown.append((a, k)))
    fig = figures.replay_vs_eager(acl, counts=(1, 2))
    fig._ipython_display_()
    (bundle,), options = shown[0]
    assert set(bundle) == {"image/png", "text/plain"} and options == {"raw": True}
    assert bundle["text/plain"] == str(fig) and isinstance(bundle["image/png"], str)


def test_importing_the_kit_or_asking_for_numbers_does_not_import_matplotlib():
    code = ("import sys, acl_lab\nfrom acl_lab import figures\nacl = acl_lab.load()\n"
            "acl.init(); acl.rt.set_device(0)\nfigures.copy_time(acl, sizes=(1024,), plot=False)\n"
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ----- the learner's language -------------------------------------------------------------
@pytest.fixture
def chinese():
    acl_lab.set_language("zh_CN")
    yield
    acl_lab.set_language("en")


def test_the_cjk_font_is_the_first_installed_of_the_list():
    from matplotlib import font_manager
    known = {f.name for f in font_manager.fontManager.ttflist}
    installed = [name for name in figures.CJK_FONTS if name in known]
    assert figures.cjk_font() == (installed[0] if installed else None)


def test_chinese_labels_have_every_glyph_in_the_chosen_font(chinese):
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font
    cjk = figures.cjk_font()
    if cjk is None:
        pytest.skip("no CJK font installed (CI installs fonts-noto-cjk)")
    labels, fonts = figures._labels()
    assert fonts == [figures.LATIN_FONT, cjk]
    entry = next(f for f in font_manager.fontManager.ttflist if f.name == cjk)
    font = FT2Font(entry.fname, face_index=getattr(entry, "index", 0))
    latin = FT2Font(font_manager.findfont(figures.LATIN_FONT))
    for key, text in labels.items():
        assert text != figures.LABELS[key] or text.isascii(), key     # translated
        for char in set(text) - {" "}:
            assert latin.get_char_index(ord(char)) or font.get_char_index(ord(char)), (key, char)


def test_a_chinese_figure_draws_without_a_missing_glyph(acl, chinese):
    if figures.cjk_font() is None:
        pytest.skip("no CJK font installed (CI installs fonts-noto-cjk)")
    fig = figures.copy_time(acl, sizes=(1024, 1 << 20))
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # matplotlib warns "Glyph ... missing from font"
        png = fig.png()
    assert png and str(fig).startswith("图")


def test_without_a_cjk_font_the_labels_stay_english_never_boxes(acl, chinese, monkeypatch):
    monkeypatch.setattr(figures, "CJK_FONTS", ("No Such Font",))
    labels, fonts = figures._labels()
    assert labels == figures.LABELS and fonts == [figures.LATIN_FONT]
    fig = figures.replay_vs_eager(acl, counts=(1, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.png()
    texts = [fig._suptitle.get_text()] + [
        t.get_text() for ax in fig.axes
        for t in (ax.xaxis.label, ax.yaxis.label,
                  *(ax.get_legend().get_texts() if ax.get_legend() else ()))]
    assert texts and not any(re.search("[\u4e00-\u9fff]", t) for t in texts), texts


def test_every_label_is_a_catalog_message():
    import gettext
    from acl_lab.i18n import LOCALE_DIR
    catalog = gettext.translation("acl_lab", LOCALE_DIR, languages=["zh_CN"])
    missing = [v for v in figures.LABELS.values() if catalog.gettext(v) == v]
    assert not missing


def test_data_is_plain_numbers_to_replot(acl):
    data = figures.copy_time(acl, sizes=(1024, 4096), plot=False)
    assert all(isinstance(x, (int, float)) and np.isfinite(x)
               for v in data.values() for x in v)
