"""Figures of numbers against numbers, measured on the running process and drawn with
matplotlib: the trends the chapters talk about, in the learner's language.

    from acl_lab import figures
    figures.copy_time(acl)                        # 03: copy time against size, pinned vs pageable
    figures.free_memory(acl, program)             # 04: free memory as a program runs
    figures.fragmentation(pool, workload)         # 05: a pool's fragmentation over a workload
    figures.replay_vs_eager(acl)                  # 06: launch cost against task count
    figures.batch_latency(acl, "model.om")        # 08: latency, throughput against batch size
    figures.decode_resize(acl)                    # 09: JPEGD + VPC time against picture size
    figures.segment_vs_pool(pool_rows, seg_rows)  # 10: memory held and fragmentation per step

Structure (where blocks live, what a graph does) is an SVG view (``acl_lab.widgets``);
numbers against numbers is a figure. Each function measures through the pyACL shape, so on
the simulator the times are modeled and the same on every run; the kit's own calls stay out
of the learner's trace. Each returns a matplotlib ``Figure`` whose ``data`` holds the
numbers drawn (re-plot them as you like) and whose text is a one-line summary; with
``plot=False`` it returns those numbers alone and never imports matplotlib. matplotlib is
imported on the first figure, not with the kit.

Labels come from the message catalogs. Chinese is drawn with the first CJK font of
``CJK_FONTS`` that matplotlib knows (fonts-noto-cjk on Debian); without one the labels stay
English, never boxes. The PNG a figure shows carries no date or version, so re-running a
chapter stores the same bytes.
"""
from __future__ import annotations

import base64
import io

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import N_, _, get_language
from acl_lab.trace import untraced

#: CJK fonts in order of preference (Simplified Chinese first); the first one installed wins
CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "Source Han Sans CN",
             "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Droid Sans Fallback",
             "Microsoft YaHei", "SimHei", "PingFang SC", "Hiragino Sans GB", "Heiti SC")
LATIN_FONT = "DejaVu Sans"            # ships with matplotlib: the same glyphs everywhere
COLORS = {"pinned": "#2a7ab9", "pageable": "#e07b39", "eager": "#c44e52", "replay": "#2a7ab9",
          "sync": "#e07b39", "async": "#2a7ab9", "decode": "#2a7ab9", "resize": "#55a868",
          "frag": "#8172b3", "used": "#2a7ab9", "largest": "#55a868", "pool": "#e07b39",
          "segment": "#2a7ab9", "live": "#555555"}
WIDTH, HEIGHT, DPI = 7.6, 3.1, 100    # inches: a 760 x 310 px picture, as wide as the views
KiB, MiB = 1 << 10, 1 << 20

LABELS = {
    "size": N_("bytes copied"), "time_us": N_("modeled time (µs)"),
    "bandwidth": N_("bandwidth (GB/s)"), "pinned": N_("pinned (malloc_host)"),
    "pageable": N_("pageable (numpy)"),
    "copy_title": N_("Host-to-device memcpy_async: time and bandwidth against size"),
    "step": N_("step of the program"), "workload_step": N_("step of the workload"), "taken": N_("taken since the start (MiB)"),
    "free_title": N_("Free memory as the program runs (aclrtGetMemInfo)"),
    "frag": N_("fragmentation"), "bytes": N_("bytes"), "used": N_("used"),
    "largest": N_("largest free block"),
    "frag_title": N_("The pool over a workload: used bytes, largest free block, fragmentation"),
    "tasks": N_("tasks (aclnnAdd) per run"), "host_us": N_("host time launching (µs)"),
    "stream_us": N_("stream time (µs)"), "eager": N_("eager: one launch per task"),
    "replay": N_("replay: one launch per model"),
    "replay_title": N_("Eager launches against one replay of a captured model"),
    "batch": N_("batch size"), "latency": N_("latency of one execution (µs)"),
    "throughput": N_("pictures per ms"), "sync": N_("synchronous (execute, memcpy)"),
    "async": N_("asynchronous (one stream)"),
    "batch_title": N_("Offline model: latency and throughput against batch size"),
    "pixels": N_("picture size (width x height)"), "decode": N_("JPEGD decode"),
    "resize": N_("VPC resize to 224 x 224"),
    "decode_title": N_("DVPP: decode and resize time against picture size"),
    "held": N_("device memory held (MiB)"), "live": N_("tensors alive"),
    "pool": N_("fixed pool (chapter 05)"), "segment": N_("expandable segment"),
    "segment_title": N_("One trace of growing and shrinking tensors: fixed pool against "
                        "expandable segment"),
}


# ----- fonts and the figure --------------------------------------------------------------
def cjk_font() -> str | None:
    """The CJK font the Chinese labels are drawn with: the first of CJK_FONTS matplotlib
    knows, or None (then the labels stay English)."""
    from matplotlib import font_manager
    known = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in known), None)


def _labels() -> tuple[dict[str, str], list[str]]:
    """The labels in the learner's language and the font families that draw them."""
    if get_language() == "zh_CN":
        cjk = cjk_font()
        if cjk is not None:
            return {k: _(v) for k, v in LABELS.items()}, [LATIN_FONT, cjk]
    return dict(LABELS), [LATIN_FONT]


_FIGURE_CLASS: list = []


def _figure_class():
    """matplotlib's Figure with a deterministic PNG and a one-line text (made on first use:
    importing matplotlib is the costly part of the first figure)."""
    if _FIGURE_CLASS:
        return _FIGURE_CLASS[0]
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    class CourseFigure(Figure):
        """A figure of measured numbers: ``data`` has them, ``str()`` says what it shows."""

        def __init__(self, summary: str, data: dict, fonts: list[str]):
            self._rc = {"font.family": fonts, "font.size": 9, "axes.titlesize": 10,
                        "axes.labelsize": 9, "legend.fontsize": 8, "svg.hashsalt": "acl_lab"}
            with matplotlib.rc_context(self._rc):
                super().__init__(figsize=(WIDTH, HEIGHT), dpi=DPI)
            FigureCanvasAgg(self)
            self.summary, self.data = summary, data

        def draw(self, renderer):
            with matplotlib.rc_context(self._rc):      # tick labels are made while drawing
                return super().draw(renderer)

        def subplots_in_style(self, n: int, bottom: float = 0.16, left: float = 0.1):
            """``n`` panels side by side, margins fixed (a layout engine would draw the figure
            twice: the first figure of a chapter must stay cheap)."""
            with matplotlib.rc_context(self._rc):
                axes = self.subplots(1, n, squeeze=False)[0]
                self.subplots_adjust(left=left, right=0.985, top=0.88, bottom=bottom,
                                     wspace=0.28)
                for ax in axes:
                    ax.grid(True, color="#dddddd", linewidth=0.6)
                    ax.set_axisbelow(True)
                    for side in ("top", "right"):
                        ax.spines[side].set_visible(False)
                return list(axes)

        def text_in_style(self, fn, *args, **kwargs):
            with matplotlib.rc_context(self._rc):
                return fn(*args, **kwargs)

        def png(self) -> bytes:
            """The picture as PNG bytes, without the software name or a date."""
            out = io.BytesIO()
            self.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
            return out.getvalue()

        def _repr_png_(self) -> bytes:
            return self.png()

        def _ipython_display_(self):
            """A PNG and a text, nothing else: nbval skips PNGs and compares the text."""
            from IPython.display import display
            display({"image/png": base64.b64encode(self.png()).decode("ascii"),
                     "text/plain": str(self)}, raw=True)

        def __str__(self) -> str:
            return self.summary

        __repr__ = __str__

    _FIGURE_CLASS.append(CourseFigure)
    return CourseFigure


def _new(title_key: str, summary: str, data: dict, panels: int, bottom: float = 0.16,
         left: float = 0.1):
    labels, fonts = _labels()
    fig = _figure_class()(summary, data, fonts)
    axes = fig.subplots_in_style(panels, bottom, left)
    fig.text_in_style(fig.suptitle, labels[title_key], fontsize=10.5, fontweight="bold")
    return fig, axes, labels


def _legend(fig, ax, **kwargs) -> None:
    fig.text_in_style(ax.legend, frameon=False, **kwargs)


def _label(fig, ax, x: str, y: str) -> None:
    fig.text_in_style(ax.set_xlabel, x)
    fig.text_in_style(ax.set_ylabel, y)


def _size_text(n: float) -> str:
    for unit, size in (("MiB", MiB), ("KiB", KiB)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n:g} B"


def _log2_axis(ax, ticks, text=_size_text) -> None:
    """A log-2 x axis with a tick at each of ``ticks``, labelled by ``text`` (1 KiB ... 16
    MiB by default; matplotlib's own log labels are math text, slow to draw the first
    time)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(list(ticks)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: text(v)))


def _log_values(ax) -> None:
    """A log y axis labelled with plain numbers (matplotlib's default is math text, slow to
    draw the first time)."""
    from matplotlib.ticker import FuncFormatter, NullFormatter
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


# ----- the learner's process, without the trace -----------------------------------------
class _Quiet:
    """``acl`` with every call untraced: the figure's own calls stay out of the learner's
    trace (and out of the views that read it)."""

    def __init__(self, namespace):
        self._ns = namespace

    def __getattr__(self, name):
        value = getattr(self._ns, name)
        return untraced(value) if callable(value) else _Quiet(value)


def _ok(ret, what: str):
    """The value of a pyACL call's result; AclLabError naming the call if it failed."""
    import acl_lab
    acl_lab.check(ret, what)
    return ret[0] if isinstance(ret, tuple) and len(ret) == 2 else ret


def _host_us() -> float:
    import acl_lab
    return acl_lab.snapshot()["now_us"]


class _Timer:
    """Stream time between two events, and the host time a piece of code takes."""

    def __init__(self, q, stream):
        self.q, self.stream = q, stream
        self.t0 = _ok(q.rt.create_event(), "acl.rt.create_event()")
        self.t1 = _ok(q.rt.create_event(), "acl.rt.create_event()")

    def stream_us(self, issue) -> float:
        q = self.q
        _ok(q.rt.record_event(self.t0, self.stream), "acl.rt.record_event")
        issue()
        _ok(q.rt.record_event(self.t1, self.stream), "acl.rt.record_event")
        _ok(q.rt.synchronize_event(self.t1), "acl.rt.synchronize_event")
        return _ok(q.rt.event_elapsed_time(self.t0, self.t1), "acl.rt.event_elapsed_time") * 1e3

    @staticmethod
    def host_us(work) -> float:
        before = _host_us()
        work()
        return _host_us() - before

    def close(self) -> None:
        for event in (self.t0, self.t1):
            self.q.rt.destroy_event(event)


# ----- 03: copy time against size ---------------------------------------------------------
def copy_time(acl, sizes=tuple(KiB << (2 * k) for k in range(8)), plot: bool = True):
    """Time one host-to-device ``memcpy_async`` of each size in ``sizes`` (bytes) from pinned
    memory (``malloc_host``) and from pageable memory (a numpy array), timed with events on
    a stream of its own; plot time and bandwidth against size. Needs a device set."""
    q = _Quiet(acl)
    sizes = [int(s) for s in sizes]
    top = max(sizes)
    stream = _ok(q.rt.create_stream(), "acl.rt.create_stream()")
    timer = _Timer(q, stream)
    pinned = _ok(q.rt.malloc_host(top), "acl.rt.malloc_host")
    pageable = np.zeros(top, dtype=np.uint8)
    dev = _ok(q.rt.malloc(top, C.ACL_MEM_MALLOC_HUGE_FIRST), "acl.rt.malloc")
    times = {"pinned": [], "pageable": []}
    try:
        for src_kind, src in (("pinned", pinned), ("pageable", q.util.numpy_to_ptr(pageable))):
            for n in sizes:
                times[src_kind].append(timer.stream_us(lambda: _ok(q.rt.memcpy_async(
                    dev, top, src, n, C.ACL_MEMCPY_HOST_TO_DEVICE, stream),
                    "acl.rt.memcpy_async")))
    finally:
        timer.close()
        q.rt.free(dev)
        q.rt.free_host(pinned)
        q.rt.destroy_stream(stream)
    data = {"size": sizes, "pinned_us": times["pinned"], "pageable_us": times["pageable"]}
    if not plot:
        return data
    summary = _("Figure: host-to-device copy of {first} to {last}: {pinned:.1f} / {pageable:.1f} "
                "GB/s at the largest, pinned / pageable").format(
        first=_size_text(sizes[0]), last=_size_text(top),
        pinned=top / times["pinned"][-1] / 1e3, pageable=top / times["pageable"][-1] / 1e3)
    fig, (left, right), labels = _new("copy_title", summary, data, 2)
    for kind in ("pinned", "pageable"):
        us = times[kind]
        left.plot(sizes, us, marker="o", ms=3.5, color=COLORS[kind], label=labels[kind])
        right.plot(sizes, [n / t / 1e3 for n, t in zip(sizes, us)], marker="o", ms=3.5,
                   color=COLORS[kind], label=labels[kind])
    for ax in (left, right):
        _log2_axis(ax, sizes[::2])
    _log_values(left)
    _label(fig, left, labels["size"], labels["time_us"])
    _label(fig, right, labels["size"], labels["bandwidth"])
    _legend(fig, right, loc="upper left")
    return fig


# ----- 04: free memory over a program ------------------------------------------------------
def free_memory(acl, program, attrs=(C.ACL_HBM_MEM_NORMAL, C.ACL_HBM_MEM_HUGE),
                plot: bool = True):
    """Run ``program(acl)``, a generator that yields a label after each step (e.g.
    "aclrtMalloc 3 MiB"), and plot how much of each memory attribute in ``attrs`` the
    process has taken since the start, after every step (aclrtGetMemInfo)."""
    get_mem_info = untraced(acl.rt.get_mem_info)

    def free() -> list[int]:
        return [_ok(get_mem_info(a)[0::2], "acl.rt.get_mem_info") for a in attrs]

    start, steps, taken = free(), [], []
    for label in program(acl):
        steps.append(str(label))
        taken.append([(s - f) / MiB for s, f in zip(start, free())])
    names = [C.MEM_ATTR_NAMES.get(a, str(a)) for a in attrs]
    data = {"steps": steps, **{n: [row[i] for row in taken] for i, n in enumerate(names)}}
    if not plot:
        return data
    peak = max((max(row) for row in taken), default=0.0)
    summary = _("Figure: free memory over {steps} steps of the program, at most {peak:g} MiB "
                "taken").format(steps=len(steps), peak=round(peak, 3))
    fig, (ax,), labels = _new("free_title", summary, data, 1, bottom=0.3, left=0.16)
    xs = list(range(1, len(steps) + 1))
    for i, name in enumerate(names):
        ax.step(xs, [row[i] for row in taken], where="post", marker="o", ms=3.5, label=name,
                color=("#2a7ab9", "#e07b39", "#55a868", "#8172b3")[i % 4])
    ax.set_xticks(xs)
    fig.text_in_style(ax.set_xticklabels, steps, rotation=20, ha="right")
    ax.set_ylim(bottom=0)
    _label(fig, ax, labels["step"], labels["taken"])
    _legend(fig, ax, loc="upper right")
    return fig


# ----- 05: fragmentation over a workload ---------------------------------------------------
def fragmentation(pool, workload, plot: bool = True):
    """Run ``workload(pool)``, a generator that yields a label after each step (an alloc or
    a free of ``pool``), and plot the pool's used bytes, its largest free block and its
    fragmentation (1 - largest free / free) after every step."""
    steps, used, largest, frag = [], [], [], []
    for label in workload(pool):
        s = pool.stats()
        steps.append(str(label))
        used.append(s.used)
        largest.append(s.largest_free)
        frag.append(round(s.fragmentation, 4))
    data = {"steps": steps, "used": used, "largest_free": largest, "fragmentation": frag}
    if not plot:
        return data
    summary = _("Figure: {steps} steps of the pool's workload, fragmentation at most "
                "{peak:.2f}").format(steps=len(steps), peak=max(frag, default=0.0))
    fig, (left, right), labels = _new("frag_title", summary, data, 2, bottom=0.33)
    xs = list(range(1, len(steps) + 1))
    left.step(xs, used, where="post", marker="o", ms=3.5, color=COLORS["used"],
              label=labels["used"])
    left.step(xs, largest, where="post", marker="o", ms=3.5, color=COLORS["largest"],
              label=labels["largest"])
    right.step(xs, frag, where="post", marker="o", ms=3.5, color=COLORS["frag"])
    right.set_ylim(-0.02, 1.02)
    for ax in (left, right):
        ax.set_xticks(xs)
        fig.text_in_style(ax.set_xticklabels, steps, rotation=60, ha="right",
                          rotation_mode="anchor", fontsize=7)
    left.set_ylim(bottom=0)
    _label(fig, left, labels["workload_step"], labels["bytes"])
    _label(fig, right, labels["workload_step"], labels["frag"])
    _legend(fig, left, loc="best")
    return fig


# ----- 10: an expandable segment against a fixed pool ---------------------------------------
def segment_vs_pool(pool_rows, segment_rows, plot: bool = True):
    """Rows of ``acl_lab.caching.replay`` (label, live bytes, held bytes, fragmentation) for
    the same trace on a fixed pool and on an expandable segment: memory held against the
    tensors alive, and fragmentation, after every step."""
    steps = [r[0] for r in pool_rows]
    data = {"steps": steps, "live": [r[1] for r in pool_rows],
            "pool_held": [r[2] for r in pool_rows], "segment_held": [r[2] for r in segment_rows],
            "pool_fragmentation": [r[3] for r in pool_rows],
            "segment_fragmentation": [r[3] for r in segment_rows]}
    if not plot:
        return data
    summary = _("Figure: {steps} steps; memory held at most {pool:g} MiB (pool) and {seg:g} MiB "
                "(segment), at the end {pool_end:g} and {seg_end:g} MiB").format(
                    steps=len(steps), pool=max(data["pool_held"]) / MiB,
                    seg=max(data["segment_held"]) / MiB, pool_end=data["pool_held"][-1] / MiB,
                    seg_end=data["segment_held"][-1] / MiB)
    fig, (left, right), labels = _new("segment_title", summary, data, 2, bottom=0.33)
    xs = list(range(1, len(steps) + 1))
    for key in ("pool", "segment"):
        left.step(xs, [v / MiB for v in data[f"{key}_held"]], where="post", marker="o",
                  ms=3, color=COLORS[key], label=labels[key])
        right.step(xs, data[f"{key}_fragmentation"], where="post", marker="o", ms=3,
                   color=COLORS[key])
    left.step(xs, [v / MiB for v in data["live"]], where="post", color=COLORS["live"],
              linestyle="--", label=labels["live"])
    right.set_ylim(-0.02, 1.02)
    for ax in (left, right):
        ax.set_xticks(xs)
        fig.text_in_style(ax.set_xticklabels, steps, rotation=70, ha="right",
                          rotation_mode="anchor", fontsize=6)
    left.set_ylim(bottom=0)
    _label(fig, left, labels["workload_step"], labels["held"])
    _label(fig, right, labels["workload_step"], labels["frag"])
    _legend(fig, left, loc="upper left", fontsize=7)
    return fig


# ----- 06: replay against eager launches ---------------------------------------------------
def replay_vs_eager(acl, counts=(1, 2, 4, 8, 16, 32, 64), plot: bool = True):
    """For each n in ``counts``: launch n small aclnnAdd tasks one by one (eager), then
    capture the same n Adds into a model and replay it once; plot the host's launch time and
    the stream's time against n. Needs a device set."""
    q = _Quiet(acl)
    counts = [int(n) for n in counts]
    stream = _ok(q.rt.create_stream(), "acl.rt.create_stream()")
    timer = _Timer(q, stream)
    dev = _ok(q.rt.malloc(1024, C.ACL_MEM_MALLOC_HUGE_FIRST), "acl.rt.malloc")
    _ok(q.rt.memset(dev, 1024, 0, 1024), "acl.rt.memset")
    tensor = q.nn.create_tensor([256], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [256], dev)
    one = q.nn.create_scalar(1.0, C.ACL_FLOAT)

    def adds(n: int) -> None:
        for _i in range(n):
            ws, executor, ret = q.nn.add_get_workspace_size(tensor, tensor, one, tensor)
            _ok(ret, "acl.nn.add_get_workspace_size")
            _ok(q.nn.add(0, ws, executor, stream), "acl.nn.add")

    rows = {"eager_host": [], "eager_stream": [], "replay_host": [], "replay_stream": []}
    try:
        for n in counts:
            host = []
            rows["eager_stream"].append(timer.stream_us(lambda: host.append(
                _Timer.host_us(lambda: adds(n)))))
            rows["eager_host"].append(host[0])
            _ok(q.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
                "acl.mdl.ri_capture_begin")
            adds(n)
            model = _ok(q.mdl.ri_capture_end(stream), "acl.mdl.ri_capture_end")
            host = []
            rows["replay_stream"].append(timer.stream_us(lambda: host.append(_Timer.host_us(
                lambda: _ok(q.mdl.ri_execute_async(model, stream), "acl.mdl.ri_execute_async")))))
            rows["replay_host"].append(host[0])
            q.mdl.ri_destroy(model)
    finally:
        timer.close()
        q.nn.destroy_tensor(tensor)
        q.nn.destroy_scalar(one)
        q.rt.free(dev)
        q.rt.destroy_stream(stream)
    data = {"tasks": counts, **{k: [round(v, 3) for v in vs] for k, vs in rows.items()}}
    if not plot:
        return data
    summary = _("Figure: {tasks} tasks cost the host {eager:.0f} µs eager, {replay:.0f} µs "
                "replayed").format(tasks=counts[-1], eager=rows["eager_host"][-1],
                                   replay=rows["replay_host"][-1])
    fig, (left, right), labels = _new("replay_title", summary, data, 2)
    for kind in ("eager", "replay"):
        left.plot(counts, rows[f"{kind}_host"], marker="o", ms=3.5, color=COLORS[kind],
                  label=labels[kind])
        right.plot(counts, rows[f"{kind}_stream"], marker="o", ms=3.5, color=COLORS[kind],
                   label=labels[kind])
    from matplotlib.ticker import MaxNLocator
    for ax in (left, right):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
    _label(fig, left, labels["tasks"], labels["host_us"])
    _label(fig, right, labels["tasks"], labels["stream_us"])
    _legend(fig, left, loc="upper left")
    return fig


# ----- 08: latency and throughput against batch size ---------------------------------------
def batch_latency(acl, model_path: str, rounds: int = 4, plot: bool = True):
    """Load the offline model at ``model_path`` (converted with ``--dynamic_batch_size``) and,
    for each of its batch gears: the stream time of one execution, and how many pictures per
    modeled ms ``rounds`` executions get through synchronously (memcpy, execute, memcpy, the
    host waiting each time) and asynchronously (memcpy_async, execute_async, memcpy_async on
    one stream from pinned memory, one synchronize). Needs a device set."""
    q = _Quiet(acl)
    model = _ok(q.mdl.load_from_file(str(model_path)), "acl.mdl.load_from_file")
    desc = q.mdl.create_desc()
    stream = _ok(q.rt.create_stream(), "acl.rt.create_stream()")
    timer = _Timer(q, stream)
    owned, buffers, datasets = [], [], []
    try:
        _ok(q.mdl.get_desc(desc, model), "acl.mdl.get_desc")
        gears = _ok(q.mdl.get_dynamic_batch(desc), "acl.mdl.get_dynamic_batch")["batch"]
        gear_input = _ok(q.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data"),
                         "acl.mdl.get_input_index_by_name")
        for count, size_of in ((q.mdl.get_num_inputs(desc), q.mdl.get_input_size_by_index),
                               (q.mdl.get_num_outputs(desc), q.mdl.get_output_size_by_index)):
            dataset, sizes = q.mdl.create_dataset(), []
            datasets.append((dataset, sizes))
            for i in range(count):
                size = size_of(desc, i)
                ptr = _ok(q.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST), "acl.rt.malloc")
                owned.append(ptr)
                buffer = q.create_data_buffer(ptr, size)
                buffers.append(buffer)
                _ok(q.mdl.add_dataset_buffer(dataset, buffer), "acl.mdl.add_dataset_buffer")
                sizes.append((ptr, size))
        (inputs, in_bufs), (outputs, out_bufs) = datasets
        (in_ptr, in_size), (out_ptr, out_size) = in_bufs[0], out_bufs[0]
        host_size = max(in_size, out_size)
        host = _ok(q.rt.malloc_host(host_size), "acl.rt.malloc_host")
        _ok(q.rt.memset(host, host_size, 0, host_size), "acl.rt.memset")
        h2d, d2h = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
        rows = {"latency_us": [], "sync_per_ms": [], "async_per_ms": []}
        for batch in gears:
            _ok(q.mdl.set_dynamic_batch_size(model, inputs, gear_input, batch),
                "acl.mdl.set_dynamic_batch_size")
            n_in, n_out = in_size * batch // max(gears), out_size * batch // max(gears)
            latency = timer.stream_us(lambda: _ok(q.mdl.execute_async(
                model, inputs, outputs, stream), "acl.mdl.execute_async"))

            def sync_rounds():
                for _r in range(rounds):
                    _ok(q.rt.memcpy(in_ptr, in_size, host, n_in, h2d), "acl.rt.memcpy")
                    _ok(q.mdl.execute(model, inputs, outputs), "acl.mdl.execute")
                    _ok(q.rt.memcpy(host, host_size, out_ptr, n_out, d2h), "acl.rt.memcpy")

            def async_rounds():
                for _r in range(rounds):
                    _ok(q.rt.memcpy_async(in_ptr, in_size, host, n_in, h2d, stream),
                        "acl.rt.memcpy_async")
                    _ok(q.mdl.execute_async(model, inputs, outputs, stream),
                        "acl.mdl.execute_async")
                    _ok(q.rt.memcpy_async(host, host_size, out_ptr, n_out, d2h, stream),
                        "acl.rt.memcpy_async")
                _ok(q.rt.synchronize_stream(stream), "acl.rt.synchronize_stream")

            rows["latency_us"].append(round(latency, 3))
            rows["sync_per_ms"].append(round(rounds * batch / _Timer.host_us(sync_rounds) * 1e3, 3))
            rows["async_per_ms"].append(round(rounds * batch / _Timer.host_us(async_rounds) * 1e3,
                                              3))
        q.rt.free_host(host)
    finally:
        timer.close()
        for buffer in buffers:
            q.destroy_data_buffer(buffer)
        for dataset, _sizes in datasets:
            q.mdl.destroy_dataset(dataset)
        for ptr in owned:
            q.rt.free(ptr)
        q.mdl.destroy_desc(desc)
        q.mdl.unload(model)
        q.rt.destroy_stream(stream)
    data = {"batch": list(gears), **rows}
    if not plot:
        return data
    summary = _("Figure: batch {first} to {last}: {low:.0f} to {high:.0f} pictures per ms "
                "asynchronously").format(first=gears[0], last=gears[-1],
                                         low=rows["async_per_ms"][0], high=rows["async_per_ms"][-1])
    fig, (left, right), labels = _new("batch_title", summary, data, 2)
    left.plot(gears, rows["latency_us"], marker="o", ms=3.5, color=COLORS["async"])
    for kind in ("sync", "async"):
        right.plot(gears, rows[f"{kind}_per_ms"], marker="o", ms=3.5, color=COLORS[kind],
                   label=labels[kind])
    for ax in (left, right):
        _log2_axis(ax, gears, lambda v: f"{v:g}")
        ax.set_ylim(bottom=0)
    _label(fig, left, labels["batch"], labels["latency"])
    _label(fig, right, labels["batch"], labels["throughput"])
    _legend(fig, right, loc="upper left")
    return fig


# ----- 09: decode and resize time against picture size -------------------------------------
def decode_resize(acl, sizes=((160, 120), (320, 240), (640, 480), (1280, 720), (1920, 1080)),
                  plot: bool = True):
    """For each (width, height) in ``sizes``: a JPEG of that size (made with Pillow), decoded
    by JPEGD and resized by VPC to 224 x 224 in DVPP memory, each timed with events; plot
    both times against the picture's megapixels. Needs a device set."""
    from PIL import Image

    q = _Quiet(acl)
    media = q.media
    nv12 = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420
    stream = _ok(q.rt.create_stream(), "acl.rt.create_stream()")
    timer = _Timer(q, stream)
    channel = media.dvpp_create_channel_desc()
    _ok(media.dvpp_create_channel(channel), "acl.media.dvpp_create_channel")
    config = media.dvpp_create_resize_config()
    out_size = 224 * 224 * 3 // 2
    out_buf = _ok(media.dvpp_malloc(out_size), "acl.media.dvpp_malloc")
    out_desc = _describe(media, media.dvpp_create_pic_desc(), out_buf, out_size, 224, 224, 224,
                         224)
    rows = {"megapixels": [], "decode_us": [], "resize_us": []}
    try:
        for width, height in sizes:
            rgb = np.empty((height, width, 3), dtype=np.uint8)      # a colour ramp
            rgb[..., 0] = np.linspace(0, 255, width, dtype=np.uint8)[None, :]
            rgb[..., 1] = np.linspace(0, 255, height, dtype=np.uint8)[:, None]
            rgb[..., 2] = 128
            out = io.BytesIO()
            Image.fromarray(rgb).save(out, "JPEG", quality=90)
            jpeg = np.frombuffer(out.getvalue(), dtype=np.uint8)
            host = _ok(q.rt.malloc_host(jpeg.size), "acl.rt.malloc_host")   # no pageable leftovers
            q.util.ptr_to_numpy(host, (jpeg.size,), np.dtype(np.uint8).num)[:] = jpeg
            dec_size = _ok(media.dvpp_jpeg_predict_dec_size(host, len(jpeg), nv12),
                           "acl.media.dvpp_jpeg_predict_dec_size")
            src = _ok(media.dvpp_malloc(len(jpeg)), "acl.media.dvpp_malloc")
            dst = _ok(media.dvpp_malloc(dec_size), "acl.media.dvpp_malloc")
            pic = _describe(media, media.dvpp_create_pic_desc(), dst, dec_size)
            try:
                _ok(q.rt.memcpy(src, len(jpeg), host, len(jpeg), C.ACL_MEMCPY_HOST_TO_DEVICE),
                    "acl.rt.memcpy")
                rows["decode_us"].append(round(timer.stream_us(lambda: _ok(
                    media.dvpp_jpeg_decode_async(channel, src, len(jpeg), pic, stream),
                    "acl.media.dvpp_jpeg_decode_async")), 3))
                rows["resize_us"].append(round(timer.stream_us(lambda: _ok(
                    media.dvpp_vpc_resize_async(channel, pic, out_desc, config, stream),
                    "acl.media.dvpp_vpc_resize_async")), 3))
                rows["megapixels"].append(round(width * height / 1e6, 4))
            finally:
                media.dvpp_destroy_pic_desc(pic)
                media.dvpp_free(dst)
                media.dvpp_free(src)
                q.rt.free_host(host)
    finally:
        timer.close()
        media.dvpp_destroy_pic_desc(out_desc)
        media.dvpp_free(out_buf)
        media.dvpp_destroy_resize_config(config)
        media.dvpp_destroy_channel(channel)
        media.dvpp_destroy_channel_desc(channel)
        q.rt.destroy_stream(stream)
    data = {"size": [f"{w}x{h}" for w, h in sizes], **rows}
    if not plot:
        return data
    summary = _("Figure: decode {first:.0f} to {last:.0f} µs from {small} to {large}").format(
        first=rows["decode_us"][0], last=rows["decode_us"][-1], small=data["size"][0],
        large=data["size"][-1])
    fig, (ax,), labels = _new("decode_title", summary, data, 1)
    for kind in ("decode", "resize"):
        ax.plot(rows["megapixels"], rows[f"{kind}_us"], marker="o", ms=3.5, color=COLORS[kind],
                label=labels[kind])
    names = dict(zip(rows["megapixels"], data["size"]))
    _log2_axis(ax, rows["megapixels"], lambda v: names.get(v, ""))
    _log_values(ax)
    _label(fig, ax, labels["pixels"], labels["time_us"])
    _legend(fig, ax, loc="upper left")
    return fig


def _describe(media, desc, data: int, size: int, width=0, height=0, width_stride=0,
              height_stride=0):
    """A YUV420SP picture description (acldvppSetPicDesc*)."""
    for setter, value in ((media.dvpp_set_pic_desc_data, data),
                          (media.dvpp_set_pic_desc_size, size),
                          (media.dvpp_set_pic_desc_format, C.PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          (media.dvpp_set_pic_desc_width, width),
                          (media.dvpp_set_pic_desc_height, height),
                          (media.dvpp_set_pic_desc_width_stride, width_stride),
                          (media.dvpp_set_pic_desc_height_stride, height_stride)):
        _ok(setter(desc, value), "acl.media.dvpp_set_pic_desc")
    return desc
