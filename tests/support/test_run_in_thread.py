"""acl_lab.run_in_thread: another thread for the chapters, real on CPython and simulated
where threads cannot start (Pyodide, imitated by ACL_LAB_PLATFORM=pyodide)."""
import threading

import pytest

import acl_lab
from acl_lab.support import threads
from acl_lab.support import pyodide as wasm
from acl_lab.constants import ACL_ERROR_RT_CONTEXT_NULL, ACL_SUCCESS


@pytest.fixture(params=["cpython", "pyodide"])
def platform(request, monkeypatch):
    if request.param == "pyodide":
        monkeypatch.setenv(wasm.ENV, "pyodide")
        monkeypatch.setattr(threading.Thread, "start", wasm._start_refused)
    else:
        monkeypatch.delenv(wasm.ENV, raising=False)
    return request.param


def test_another_thread_has_no_current_context_and_its_own_error(acl, platform):
    def worker():
        stream, ret = acl.rt.create_stream()
        return ret, acl.get_recent_err_msg(), threads.get_ident()

    ret, message, ident = acl_lab.run_in_thread(worker)
    assert ret == ACL_ERROR_RT_CONTEXT_NULL and "current context" in message
    assert ident != threads.get_ident()
    assert acl.rt.create_stream()[1] == ACL_SUCCESS     # this thread still has its context
    *in_worker, here = [(c.name, c.thread) for c in list(acl_lab.tracer().calls)[-3:]]
    assert here == ("rt.create_stream", "main")
    assert {name for _, name in in_worker} == {in_worker[0][1]} != {"main"}


def test_set_context_in_the_thread_lasts_only_there(acl, platform):
    ctx, _ = acl.rt.get_context()

    def worker():
        acl.rt.set_context(ctx)
        return acl.rt.create_stream()[1]

    assert acl_lab.run_in_thread(worker) == ACL_SUCCESS
    assert acl_lab.run_in_thread(lambda: acl.rt.get_context()[1]) == ACL_ERROR_RT_CONTEXT_NULL


def test_results_and_exceptions_come_back_to_the_caller(platform):
    assert acl_lab.run_in_thread(lambda a, b=1: a + b, 2, b=3) == 5
    with pytest.raises(ZeroDivisionError):
        acl_lab.run_in_thread(lambda: 1 / 0)


def test_where_threads_cannot_start_start_thread_says_so_and_changes_nothing(acl, monkeypatch):
    monkeypatch.setenv(wasm.ENV, "pyodide")
    with pytest.raises(acl_lab.SimulatorLimit, match="threads cannot start"):
        acl.util.start_thread(lambda args: None, [])


def test_code_in_a_notebook_cannot_start_a_thread_in_the_imitation(monkeypatch):
    monkeypatch.setattr(threading.Thread, "start", wasm._start_refused)
    notebook = {"__name__": "__main__", "threading": threading}
    with pytest.raises(RuntimeError, match=r"acl_lab\.run_in_thread"):
        exec("threading.Thread(target=print).start()", notebook)
