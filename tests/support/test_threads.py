"""The current context is per thread, and the simulator stays consistent under threads."""
from __future__ import annotations

import random
import threading

import acl_lab
from acl_lab import constants as C
from simhelpers import run_in_thread as in_thread


def test_current_context_is_per_thread(acl):
    ctx, _ = acl.rt.get_context()

    def other_thread():
        seen = {"get_context": acl.rt.get_context(), "malloc": acl.rt.malloc(64, 0),
                "message": acl.get_recent_err_msg()}
        seen["set_context"] = acl.rt.set_context(ctx)
        seen["malloc_after"] = acl.rt.malloc(64, 0)
        seen["context_after"] = acl.rt.get_context()
        return seen

    seen = in_thread(other_thread)
    assert seen["get_context"] == (0, C.ACL_ERROR_RT_CONTEXT_NULL)
    assert seen["malloc"] == (0, C.ACL_ERROR_RT_CONTEXT_NULL)
    assert "per thread" in seen["message"]
    assert seen["set_context"] == 0
    assert seen["malloc_after"][1] == 0 and seen["context_after"] == (ctx, 0)
    assert acl.rt.get_context() == (ctx, 0)          # the main thread's context is untouched
    assert acl.get_recent_err_msg() == ""           # and so is its last error message


def test_set_context_in_one_thread_does_not_move_another(acl):
    default_ctx, _ = acl.rt.get_context()
    created = in_thread(lambda: acl.rt.create_context(0))
    assert created[1] == 0 and created[0] != default_ctx
    assert acl.rt.get_context() == (default_ctx, 0)


def test_concurrent_malloc_and_free_keep_accounting_exact(acl):
    ctx, _ = acl.rt.get_context()
    free0, total, _ = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    n_threads, rounds = 4, 150
    all_live = threading.Barrier(n_threads + 1, timeout=30)
    may_free = threading.Barrier(n_threads + 1, timeout=30)
    errors: list[str] = []

    def worker(seed):
        rng = random.Random(seed)
        if acl.rt.set_context(ctx) != 0:
            errors.append("set_context failed")
        live = []
        for _ in range(rounds):
            if live and rng.random() < 0.4:
                if acl.rt.free(live.pop(rng.randrange(len(live)))) != 0:
                    errors.append(acl.get_recent_err_msg())
            else:
                ptr, ret = acl.rt.malloc(rng.choice([1, 100, 4096, 3 << 20]), 0)
                if ret != 0:
                    errors.append(acl.get_recent_err_msg())
                live.append(ptr)
        all_live.wait()
        may_free.wait()
        for ptr in live:
            if acl.rt.free(ptr) != 0:
                errors.append(acl.get_recent_err_msg())

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    all_live.wait()
    allocs = [a for a in acl_lab.snapshot()["allocations"] if a["location"] == "device"]
    for a, b in zip(allocs, allocs[1:]):
        assert a["ptr"] + a["occupied"] <= b["ptr"]
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM) == (
        free0 - sum(a["occupied"] for a in allocs), total, 0)
    may_free.wait()
    for t in threads:
        t.join()
    assert errors == []
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM) == (free0, total, 0)


def test_after_a_reset_threads_are_numbered_from_one_again():
    """A chapter run twice in one kernel prints the same thread names both times."""
    import threading

    import acl_lab

    def worker_name():
        acl = acl_lab.load()
        t = threading.Thread(target=acl.rt.get_run_mode)
        t.start()
        t.join()
        return [c.thread for c in acl_lab.tracer().calls if c.name == "rt.get_run_mode"][-1]

    acl_lab.reset()
    first = worker_name()
    acl_lab.reset()
    assert worker_name() == first == "thread-1"
