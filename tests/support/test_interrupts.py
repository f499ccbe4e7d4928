"""acl_lab/support/interrupts.py: a Ctrl-C that hits a critical call (here while it holds a lock)
reaches the program as the call returns, exactly once: the call's work is whole, and the
program's next statement never runs."""
from __future__ import annotations

import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import signal, sys, threading, time
    from acl_lab.support import interrupts
    interrupts.install()

    @interrupts.critical
    def critical_call(log):
        with threading._active_limbo_lock:     # held by the interrupted code
            signal.getsignal(signal.SIGINT)(signal.SIGINT, sys._getframe())
            log.append("went on")
        log.append("returned")

    log = []
    try:
        critical_call(log)
        log.append("after")
        time.sleep(5)
    except KeyboardInterrupt:
        log.append("KeyboardInterrupt")
    print(log)
""")


def test_a_ctrl_c_in_a_critical_call_comes_once_the_call_returned():
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         timeout=30)
    assert out.stdout.strip() == "['went on', 'returned', 'KeyboardInterrupt']", \
        out.stdout + out.stderr
