"""A figure in a real Jupyter kernel (jupyter_client runs ipykernel, with its inline backend
configured as in JupyterLab): the cell shows a PNG and its one-line text, and drawing it
imports neither pyplot nor a backend module beyond Agg (pyplot is the costly part of
matplotlib a learner would wait for; the figure needs only Figure and the Agg canvas)."""
from __future__ import annotations

import json
import os
import queue
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CELLS = (
    "import acl_lab\nacl = acl_lab.load()\nacl.init(); acl.rt.set_device(0)",
    "from acl_lab import figures\nfigures.copy_time(acl, sizes=(1024, 4096))",
    "import json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith("
    "('matplotlib.pyplot', 'matplotlib_inline', 'matplotlib.backends.backend_')))))",
)


def _outputs(kc, code: str, timeout: float = 120) -> list[dict]:
    msg_id = kc.execute(code)
    deadline, outputs = time.monotonic() + timeout, []
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError("the kernel did not finish the cell") from None
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "error":
            raise AssertionError("\n".join(msg["content"]["traceback"]))
        if msg["msg_type"] in ("stream", "display_data", "execute_result"):
            outputs.append(msg["content"])
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return outputs


def test_a_figure_cell_shows_a_png_without_pyplot():
    from jupyter_client.manager import start_new_kernel
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
    km, kc = start_new_kernel(kernel_name="python3", env=env)
    try:
        _outputs(kc, CELLS[0])
        shown = [o["data"] for o in _outputs(kc, CELLS[1]) if "data" in o]
        assert len(shown) == 1 and set(shown[0]) == {"image/png", "text/plain"}, shown
        assert shown[0]["text/plain"].startswith("Figure: host-to-device copy")
        (printed,) = _outputs(kc, CELLS[2])
        assert json.loads(printed["text"]) == ["matplotlib.backends.backend_agg"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
