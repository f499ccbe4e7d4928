"""What every acl_lab widget shares: a static picture and a short text for renderers without
a kernel, and (optionally) a refresh after each notebook cell.

Without a kernel (GitHub, nbviewer, an untrusted notebook) the widget view cannot render;
the output then falls back to the ``image/png`` and ``text/plain`` saved beside it, so the
widget's ``_repr_mimebundle_`` adds a PNG and its repr is a one-line summary under 110
characters. Live refreshes change widget state only (comm messages), never the cell's
output, so nbval's comparison of saved outputs is unaffected.
"""
from __future__ import annotations

import base64

TEXT_LIMIT = 110


class StaticPicture:
    """Mixin for an ipywidgets widget that has ``summary()`` and ``picture()``."""

    def summary(self) -> str:
        raise NotImplementedError

    def picture(self) -> bytes:
        """The widget's current state as PNG bytes."""
        raise NotImplementedError

    def __repr__(self) -> str:
        text = self.summary()
        return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT - 1] + "…"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        data["image/png"] = base64.b64encode(self.picture()).decode("ascii")
        return data


class RefreshAfterCells:
    """Mixin: call ``refresh()`` after every cell, when running inside IPython.

    A refresh that fails shows its error in the widget instead of raising: a display hook
    must never turn a learner's successful cell into a failure. ``close()`` unhooks.
    """

    _hooked_shell = None

    def refresh(self) -> None:
        raise NotImplementedError

    def show_error(self, text: str) -> None:
        raise NotImplementedError

    def _watch_cells(self) -> None:
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
        except Exception as e:  # noqa: BLE001 - shown in the widget, see the class docstring
            self.show_error(f"refresh failed: {type(e).__name__}: {e}")

    def close(self) -> None:
        if self._hooked_shell is not None:
            self._hooked_shell.events.unregister("post_run_cell", self._after_cell)
            self._hooked_shell = None
        super().close()
