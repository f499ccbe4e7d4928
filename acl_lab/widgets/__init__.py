"""Interactive views for notebooks (ipywidgets, pictures drawn as SVG), loaded on first use.

    from acl_lab.widgets import PoolView, AlignmentExplorer, MemoryGauge
    from acl_lab.widgets import StreamTimeline, CaptureGraph, MemoryMap, CopyMap
    from acl_lab.widgets import PictureView          # a DVPP picture, padding included
    from acl_lab.widgets import VirtualMemoryView    # reserved ranges, mapped granules

The rule every view follows: **a view shows the state at the moment its cell ran.** It
changes only when the learner acts on it (its own controls, ``view.refresh()``), or after
every cell when it was made with ``live=True``. A view that looks again and finds its
subject gone (a closed pool, no device open, a destroyed model, a reset process) keeps its
last picture and says "shown as last seen"; controls that can no longer act are disabled.
``repr(view)``, the one-line text a notebook without a kernel shows, follows the same rule.
So Run All leaves every picture as the text beside it describes, whatever later cells do.

Each name is an ipywidgets widget driven by a plain-data scene (``widget.scene``: what its picture shows) that
tests can drive without a browser. Its picture is SVG built in Python: the live widget
shows it, and the same SVG is saved beside the widget (``image/svg+xml``) for GitHub,
nbviewer and other renderers without a kernel. Streams appear by the names given with
``acl_lab.name(stream, "copy")``. Like acl_lab.pool, widgets see the runtime only through
the pyACL shape, ``acl_lab.snapshot()`` and the trace, never the simulator.
"""
from __future__ import annotations

import importlib

# name -> module that defines it; a new view adds one line here.
_VIEWS = {
    "PoolView": "pool_view",
    "AlignmentExplorer": "alignment",
    "MemoryGauge": "gauge",
    "StreamTimeline": "timeline",
    "CaptureGraph": "capture_graph",
    "MemoryMap": "memory_map",
    "CopyMap": "copy_map",
    "PictureView": "picture_view",
    "VirtualMemoryView": "virtual_memory",
}

__all__ = list(_VIEWS)


def __getattr__(name: str):
    module = _VIEWS.get(name)
    if module is None:
        raise AttributeError(f"module 'acl_lab.widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
