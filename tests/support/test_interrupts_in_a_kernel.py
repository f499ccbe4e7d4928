"""Kernel → Interrupt, as a learner presses it: in a real Jupyter kernel (jupyter_client runs
ipykernel, which puts Python's own SIGINT handler back before every cell), a cell looping over
kit calls stops within a second, in the cell that loaded the kit and in any later cell; the
traceback ends in the learner's cell; the books balance afterwards and the next calls work.

Runs under pytest, and alone (``python tests/support/test_interrupts_in_a_kernel.py``) for
the other Pythons .ci/run checks (they need only numpy, sortedcontainers, platformdirs,
ipykernel and jupyter_client).
"""
from __future__ import annotations

import os
import queue
import re
import sys
import textwrap
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STOP_WITHIN_S = 1.0

LOAD = """
import acl_lab
acl = acl_lab.load()
acl.init(); acl.rt.set_device(0)
"""
LOOP = {
    "device": """
import time
print("looping", flush=True)
t0 = time.monotonic()
while time.monotonic() - t0 < 20:
    s, _ = acl.rt.create_stream()
    p, _ = acl.rt.malloc(4096, 0)
    acl.rt.memset_async(p, 4096, 1, 4096, s)
    acl.rt.synchronize_stream(s)
    acl.rt.free(p)
    acl.rt.destroy_stream(s)
""",
    "pool": """
import time
from acl_lab.pool import MemoryPool
pool = MemoryPool(acl, 1 << 20)
print("looping", flush=True)
t0 = time.monotonic()
while time.monotonic() - t0 < 20:
    ptrs = [pool.alloc(1000) for _ in range(8)]
    for q in ptrs:
        pool.free(q)
""",
}
BALANCED = """
import signal
from acl_lab.support import interrupts
assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint   # in this cell too
snap = acl_lab.snapshot()
for pool in snap["pools"]:
    mine = sum(a["footprint"] for a in snap["allocations"] if a["pool"] == pool["label"])
    assert pool["used"] == mine, (pool, mine)
p, ret = acl.rt.malloc(64, 0)
assert ret == 0 and acl.rt.free(p) == 0
print("balanced")
"""


class Kernel:
    def __init__(self):
        from jupyter_client.manager import start_new_kernel
        env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.km, self.kc = start_new_kernel(kernel_name="python3", env=env)

    def run(self, code: str, timeout: float = 60) -> dict:
        msg_id = self.kc.execute(textwrap.dedent(code))
        return self._reply(msg_id, timeout)

    def _reply(self, msg_id: str, timeout: float, until: str | None = None) -> dict:
        """Read the cell's messages until it is done (or, with ``until``, until it printed
        that); its error, if any."""
        deadline = time.monotonic() + timeout
        error = None
        while True:
            try:
                msg = self.kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("the kernel did not finish the cell") from None
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if until and msg["msg_type"] == "stream" and until in msg["content"]["text"]:
                return {"error": None}
            if msg["msg_type"] == "error":
                error = msg["content"]
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return {"error": error}

    def interrupted(self, code: str, after_s: float = 0.5) -> tuple[float, dict]:
        """Run ``code``, press Interrupt ``after_s`` into its loop; (seconds to stop, error)."""
        msg_id = self.kc.execute(textwrap.dedent(code))
        assert self._reply(msg_id, 120, until="looping")["error"] is None
        time.sleep(after_s)
        pressed = time.monotonic()
        self.km.interrupt_kernel()
        reply = self._reply(msg_id, 30)
        return time.monotonic() - pressed, reply["error"]

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def _check(took: float, error: dict | None, where: str) -> None:
    assert error is not None, f"{where}: the cell was not interrupted"
    assert error["ename"] == "KeyboardInterrupt", (where, error["ename"], error["evalue"])
    assert took < STOP_WITHIN_S, f"{where}: stopped {took:.2f} s after Interrupt"
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error["traceback"]))   # no colours
    assert "acl_lab/" not in text.replace(REPO, ""), f"{where}: the kit's frames show:\n{text}"
    assert "Cell In[" in text or "<ipython-input" in text, text


def check_interrupts_in_a_kernel() -> list[str]:
    kernel = Kernel()
    seen = []
    try:
        took, error = kernel.interrupted(LOAD + LOOP["device"])      # the loading cell
        _check(took, error, "the cell that loaded the kit")
        assert kernel.run(BALANCED)["error"] is None
        seen.append(f"loading cell: {took:.2f} s")
        for name, loop in LOOP.items():                               # later cells
            for _ in range(3):
                took, error = kernel.interrupted(loop)
                _check(took, error, f"a later cell ({name})")
                assert kernel.run(BALANCED)["error"] is None
                seen.append(f"{name}: {took:.2f} s")
    finally:
        kernel.close()
    return seen


def test_kernel_interrupt_stops_a_loop_of_kit_calls_in_any_cell():
    check_interrupts_in_a_kernel()


if __name__ == "__main__":
    print(f"Python {sys.version.split()[0]}: interrupts in a kernel stopped after",
          ", ".join(check_interrupts_in_a_kernel()))
