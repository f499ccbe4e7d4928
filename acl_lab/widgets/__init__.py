"""Interactive views for notebooks (ipywidgets + matplotlib), loaded on first use.

    from acl_lab.widgets import PoolView, AlignmentExplorer, MemoryGauge
    from acl_lab.widgets import StreamTimeline, CaptureGraph

Each name is an ipywidgets widget driven by a plain-data model (``widget.model``) that
tests can drive without a browser, and each leaves a static PNG picture in the saved
notebook for renderers without a kernel. Like acl_lab.pool, widgets see the runtime only
through the pyACL shape, ``acl_lab.snapshot()`` and the trace, never the simulator.
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
