"""What every acl_lab view shares: the freeze rule, a static SVG picture and a short text.

A view shows the state of the moment its cell ran. It looks again only when the learner
acts on it (its controls, ``refresh()``) or, for a view made with ``live=True``, after every
cell; what it shows (picture, controls, ``repr``) comes from that last look, never from the
state of now. Without a kernel (GitHub, nbviewer, an untrusted notebook) the widget cannot
render: the output then falls back to the picture saved beside it, the same SVG the live
widget draws, and to its repr, a one-line summary under 110 columns (a Chinese character
takes two). The SVG is saved
twice: as ``image/svg+xml`` (GitHub, nbviewer, VS Code) and as an ``<img>`` in ``text/html``,
because JupyterLab shows no SVG output of an untrusted notebook (as on Binder's first
open) but does show sanitized HTML, images with data: addresses included.
"""
from __future__ import annotations

import base64
from html import escape

import acl_lab

from acl_lab.i18n import N_, _, columns

TEXT_LIMIT = 110
GONE = N_("shown as last seen")     # translated where shown: _(GONE)


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` in at most ``limit`` columns, a Chinese character taking two; cut text ends
    in "…"."""
    if columns(text) <= limit:
        return text
    out, used = [], 1                        # the "…" takes one
    for char in text:
        used += columns(char)
        if used > limit:
            break
        out.append(char)
    return "".join(out) + "…"


def generation() -> tuple[int, int]:
    """Changes when the process a view looks at is replaced (``acl_lab.reset()``, a load of
    another profile): what the view last saw is then gone."""
    trace = acl_lab.tracer()
    return id(trace), trace.generation


def device_open(snap: dict) -> bool:
    """Whether the snapshot's process is initialised with a device open (a backend that
    does not say counts as open): a view that finds none keeps what it last saw."""
    devices = snap.get("devices")
    if devices is None:
        return True
    return bool(snap.get("initialized")) and any(d["open"] for d in devices.values())


class View:
    """Mixin for an ipywidgets box that has ``summary()``, ``svg()`` and ``refresh()``.

    ``live=True`` (``_follow_cells``) refreshes after every cell inside IPython; a refresh
    that fails shows its error in the view instead of raising, because a display hook must
    never turn a learner's successful cell into a failure. ``close()`` unhooks.
    """

    live = False
    _hooked_shell = None

    def summary(self) -> str:
        raise NotImplementedError

    def svg(self) -> str:
        """The picture of the last look, as SVG text."""
        raise NotImplementedError

    def refresh(self) -> None:
        raise NotImplementedError

    def show_error(self, text: str) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return clip(self.summary())

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        svg = self.svg()
        data["image/svg+xml"] = svg
        data["text/html"] = (f'<img src="data:image/svg+xml;base64,'
                             f'{base64.b64encode(svg.encode()).decode("ascii")}" '
                             f'alt="{escape(data["text/plain"])}"/>')
        return data

    def _follow_cells(self, live: bool) -> None:
        self.live = bool(live)
        if not self.live:
            return
        try:
            from IPython import get_ipython
        except ImportError:
            return
        shell = get_ipython()
        if shell is not None:
            shell.events.register("post_run_cell", self._after_cell)
            self._hooked_shell = shell

    def _after_cell(self, result=None) -> None:
        try:
            self.refresh()
        except Exception as e:  # noqa: BLE001 - shown in the view, see the class docstring
            self.show_error(_("refresh failed: {error}: {message}").format(
                error=type(e).__name__, message=e))

    def close(self) -> None:
        if self._hooked_shell is not None:
            self._hooked_shell.events.unregister("post_run_cell", self._after_cell)
            self._hooked_shell = None
        super().close()



class SceneView(View):
    """A view whose picture is its scene's, with a refresh button and a status line: the
    body most views share. A subclass makes ``self.scene`` (``refresh()``, ``state()``,
    ``svg()``, ``summary()``), then calls ``_build(live)``."""

    def _build(self, live: bool, force_on_click: bool = False) -> None:
        import ipywidgets as widgets

        self._shown = None
        self.picture = widgets.HTML()
        self.refresh_button = widgets.Button(description=_("refresh"))
        self.status = widgets.HTML()
        super().__init__(children=[self.picture, widgets.HBox([self.refresh_button,
                                                                self.status])])
        self.refresh_button.on_click(
            (lambda _b: self.refresh(force=True)) if force_on_click else
            (lambda _b: self.refresh()))
        self.refresh()
        self._follow_cells(live)

    def refresh(self) -> None:
        """Look again and redraw (nothing is sent if the picture would not change)."""
        self.scene.refresh()
        self._redraw()

    def _redraw(self) -> None:
        state = self.scene.state()
        if state != self._shown:
            self._shown = state
            self.picture.value = self.scene.svg()

    def show_error(self, text: str) -> None:
        self.status.value = f"<i>{escape(text)}</i>"

    def summary(self) -> str:
        return self.scene.summary()

    def svg(self) -> str:
        return self.scene.svg()
