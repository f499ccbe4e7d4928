"""Host callbacks (aclrtSubscribeReport / LaunchCallback / ProcessReport / UnSubscribeReport)
and pyACL's util.start_thread / stop_thread: the function runs on the subscribed thread, in
stream order; codes as hicann/runtime callback.cpp, api_impl.cc and subscribe.cc."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from acl_lab import constants as C

MiB = 1 << 20


class Worker:
    """The pyACL pattern: a thread looping on process_report until told to stop."""

    def __init__(self, acl, timeout_ms=20):
        self.acl, self.stop = acl, False
        self.tid, ret = acl.util.start_thread(self._loop, [timeout_ms])
        assert ret == 0

    def _loop(self, args):
        while not self.stop:
            self.acl.rt.process_report(args[0])

    def close(self):
        if not self.stop:
            self.stop = True
            assert self.acl.util.stop_thread(self.tid) == 0


@pytest.fixture
def worker(acl):
    w = Worker(acl)
    yield w
    w.close()


def test_a_callback_on_an_unsubscribed_stream_is_no_cb_reg(acl):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.launch_callback(lambda d: None, [], C.ACL_CALLBACK_BLOCK, stream) == \
        C.ACL_ERROR_RT_STREAM_NO_CB_REG
    assert "subscribe_report" in acl.get_recent_err_msg()


def test_the_callback_runs_on_the_subscribed_thread_after_earlier_work(acl, worker):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(worker.tid, stream) == 0
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    seen = []

    def callback(user_data):
        seen.append((user_data, threading.get_ident(),
                     acl.util.ptr_to_numpy(host, (4,), np.dtype(np.uint8).num).tolist()))

    assert acl.rt.memset_async(dev, 64, 9, 64, stream) == 0
    assert acl.rt.memcpy_async(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.launch_callback(callback, ["batch 0"], C.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert seen == [(["batch 0"], worker.tid, [9, 9, 9, 9])]
    assert acl.rt.unsubscribe_report(worker.tid, stream) == 0


def test_the_trace_gives_each_task_to_the_call_that_issued_it_not_to_a_waiting_worker(acl, worker):
    """A worker's process_report spans the main thread's launches: the table must not show
    the worker as issuing them (the learner's walkthrough of chapter 08)."""
    import acl_lab
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(worker.tid, stream) == 0
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    for k in range(3):
        assert acl.rt.memset_async(dev, 64, k, 64, stream) == 0
        assert acl.rt.launch_callback(lambda d: None, [k], C.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.unsubscribe_report(worker.tid, stream) == 0
    calls = acl_lab.tracer().calls
    issued = [c.name for c in calls if c.task is not None]
    assert issued.count("rt.memset_async") == 3 and issued.count("rt.launch_callback") == 3
    assert not [c for c in calls if c.name == "rt.process_report" and c.task is not None]


def _worker_waits(acl):
    """One run of chapter 08's pattern (blocking callbacks that only read host memory); the
    worker's process_report spans with modeled time in them, after its loop timed out once
    more."""
    import acl_lab
    acl_lab.reset("910b")
    acl.init()
    acl.rt.set_device(0)
    w = Worker(acl)
    try:
        stream, _ = acl.rt.create_stream()
        assert acl.rt.subscribe_report(w.tid, stream) == 0
        dev, _ = acl.rt.malloc(64 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
        for k in range(3):                # the stream runs well ahead of the host
            assert acl.rt.memset_async(dev, 64 * MiB, k, 64 * MiB, stream) == 0
            assert acl.rt.launch_callback(lambda d: None, [k], C.ACL_CALLBACK_BLOCK,
                                          stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        time.sleep(0.05)                  # the worker's next process_report times out
        ends = [r["end_us"] for r in acl_lab.snapshot()["timeline"] if r["kind"] == "callback"]
        waits = [(c.start_us, c.end_us) for c in acl_lab.tracer().calls
                 if c.name == "rt.process_report" and c.end_us > c.start_us]
        return waits, ends
    finally:
        acl.rt.unsubscribe_report(w.tid, stream)
        w.close()


def test_the_workers_waits_end_with_their_callbacks_on_every_run(acl):
    """A worker's process_report returns when the stream reaches its blocking callback, and
    whether it is back in process_report before the next one must not depend on thread
    scheduling: the timeline of chapter 08 is compared by nbval."""
    runs = [_worker_waits(acl) for _ in range(5)]
    assert all(r == runs[0] for r in runs), runs
    waits, callback_ends = runs[0]
    # each wait ends when the stream reaches its callback (the host runs it then), and the
    # loop's next wait starts from there: none is left over after the last one
    assert [end for _start, end in waits] == callback_ends
def test_a_callbacks_calls_happen_when_the_stream_reached_it(acl, worker):
    """Deferred execution runs callbacks only when the main thread waits, long after they
    were queued: their copies still sit in modeled time where their stream reached each
    callback, one after another, and the main thread's clock is left alone (chapter 08's
    timeline draws each callback's copy under its callback)."""
    import acl_lab
    stream, _ = acl.rt.create_stream()
    acl.rt.subscribe_report(worker.tid, stream)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)

    def copy_back(_user_data):
        acl.rt.memcpy(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST)

    for k in range(3):
        acl.rt.memset_async(dev, 64, k, 64, stream)
        acl.rt.launch_callback(copy_back, [k], C.ACL_CALLBACK_BLOCK, stream)
    main_before = acl_lab.snapshot()["now_us"]
    acl.rt.synchronize_stream(stream)
    acl.rt.unsubscribe_report(worker.tid, stream)
    callbacks = [t for t in acl_lab.snapshot()["timeline"] if t["kind"] == "callback"]
    copies = [c for c in acl_lab.tracer().calls if c.name == "rt.memcpy" and c.thread != "main"]
    assert [c.start_us for c in copies] == [t["start_us"] for t in callbacks]
    assert all(c.end_us > c.start_us for c in copies)
    assert len({round(c.start_us, 3) for c in copies}) == 3          # three boxes, not one
    assert acl_lab.snapshot()["now_us"] >= main_before


def test_a_blocking_callback_holds_later_work_on_its_stream(acl, worker):
    stream, _ = acl.rt.create_stream()
    acl.rt.subscribe_report(worker.tid, stream)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    order = []
    acl.rt.launch_callback(lambda d: order.append("callback"), [], C.ACL_CALLBACK_BLOCK, stream)
    acl.rt.memset_async(dev, 64, 1, 64, stream)
    acl.rt.memcpy_async(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST, stream)
    acl.rt.synchronize_stream(stream)
    order.append(acl.util.ptr_to_numpy(host, (1,), np.dtype(np.uint8).num)[0])
    assert order == ["callback", 1]
    acl.rt.unsubscribe_report(worker.tid, stream)


def test_callbacks_run_in_launch_order(acl, worker):
    stream, _ = acl.rt.create_stream()
    acl.rt.subscribe_report(worker.tid, stream)
    order = []
    for i in range(5):
        acl.rt.launch_callback(order.append, i, i % 2, stream)
    acl.rt.synchronize_stream(stream)
    acl.rt.unsubscribe_report(worker.tid, stream)     # delivers what is left, then unbinds
    worker.close()                                    # the thread has run everything
    assert order == [0, 1, 2, 3, 4]


def test_subscribing_a_stream_twice_is_stream_subscribe(acl, worker):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(worker.tid, stream) == 0
    assert acl.rt.subscribe_report(worker.tid, stream) == C.ACL_ERROR_RT_STREAM_SUBSCRIBE
    assert acl.rt.subscribe_report(threading.get_ident(), stream) == \
        C.ACL_ERROR_RT_STREAM_SUBSCRIBE
    acl.rt.unsubscribe_report(worker.tid, stream)


def test_unsubscribing_what_is_not_subscribed_is_refused(acl, worker):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.unsubscribe_report(worker.tid, stream) == C.ACL_ERROR_RT_STREAM_SUBSCRIBE
    acl.rt.subscribe_report(worker.tid, stream)
    assert acl.rt.unsubscribe_report(threading.get_ident(), stream) == \
        C.ACL_ERROR_RT_THREAD_SUBSCRIBE
    assert acl.rt.unsubscribe_report(worker.tid, stream) == 0


def test_process_report_on_a_thread_with_no_subscription_is_thread_subscribe(acl):
    assert acl.rt.process_report(10) == C.ACL_ERROR_RT_THREAD_SUBSCRIBE


@pytest.mark.parametrize("timeout", [0, -2])
def test_process_report_timeout_must_be_minus_1_or_positive(acl, timeout):
    assert acl.rt.process_report(timeout) == C.ACL_ERROR_INVALID_PARAM


def test_process_report_with_nothing_to_do_times_out(acl):
    stream, _ = acl.rt.create_stream()
    me = threading.get_ident()
    assert acl.rt.subscribe_report(me, stream) == 0
    assert acl.rt.process_report(5) == C.ACL_ERROR_RT_REPORT_TIMEOUT
    ran = []
    acl.rt.launch_callback(ran.append, "now", C.ACL_CALLBACK_NO_BLOCK, stream)
    assert acl.rt.process_report(5) == C.ACL_ERROR_RT_REPORT_TIMEOUT   # deferred: not reached
    assert acl.rt.synchronize_stream(stream) == 0       # the stream reaches it: handed over
    assert ran == []
    assert acl.rt.process_report(5) == 0 and ran == ["now"]
    assert acl.rt.unsubscribe_report(me, stream) == 0


def test_block_type_must_be_block_or_no_block(acl):
    stream, _ = acl.rt.create_stream()
    acl.rt.subscribe_report(threading.get_ident(), stream)
    assert acl.rt.launch_callback(print, [], 2, stream) == C.ACL_ERROR_INVALID_PARAM
    with pytest.raises(TypeError):
        acl.rt.launch_callback("not a function", [], 0, stream)


def test_a_thread_serves_streams_of_one_device_only(acl_on):
    acl = acl_on("910b")
    if acl.rt.get_device_count()[0] < 2:
        pytest.skip("profile has one device")
    s0, _ = acl.rt.create_stream()
    me = threading.get_ident()
    assert acl.rt.subscribe_report(me, s0) == 0
    acl.rt.set_device(1)
    s1, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(me, s1) == C.ACL_ERROR_RT_THREAD_SUBSCRIBE


def test_a_blocking_callback_whose_thread_is_gone_does_not_hang_the_stream(acl, capsys):
    stream, _ = acl.rt.create_stream()
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    assert acl.rt.subscribe_report(t.ident, stream) == 0
    acl.rt.launch_callback(print, [], C.ACL_CALLBACK_BLOCK, stream)
    assert acl.rt.synchronize_stream(stream) == 0
    assert "is gone" in capsys.readouterr().err


def test_a_raising_callback_is_reported_and_the_thread_goes_on(acl, worker, capsys):
    stream, _ = acl.rt.create_stream()
    acl.rt.subscribe_report(worker.tid, stream)
    ran = []
    acl.rt.launch_callback(lambda d: 1 / 0, [], C.ACL_CALLBACK_BLOCK, stream)
    acl.rt.launch_callback(ran.append, "after", C.ACL_CALLBACK_BLOCK, stream)
    acl.rt.synchronize_stream(stream)
    assert ran == ["after"]
    assert "ZeroDivisionError" in capsys.readouterr().err
    acl.rt.unsubscribe_report(worker.tid, stream)


def test_stop_thread_of_an_unknown_thread_is_refused(acl):
    assert acl.util.stop_thread(12345) == C.ACL_ERROR_INVALID_PARAM


@pytest.mark.parametrize("timeout_ms", [50, 2**31 - 1, -1])
def test_process_report_on_an_unsubscribed_thread_refuses_at_once(acl, timeout_ms):
    """process_report on a thread with no subscription returns 107012 at once, whatever its
    timeout, as CbSubscribe::GetGroupIdByThreadId answers (it used to wait out the timeout:
    2**31-1 ms is 24 days); a loop on it still leaves other threads a turn (1 ms)."""
    start = time.monotonic()
    for _ in range(10):
        assert acl.rt.process_report(timeout_ms) == C.ACL_ERROR_RT_THREAD_SUBSCRIBE
    assert 0.009 <= time.monotonic() - start < 1.0


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.parametrize("timeout_ms", [20, -1])
def test_reset_ends_the_workers_the_old_process_started(acl, timeout_ms):
    """A worker left running (never told to stop, never unsubscribed) ends with its process:
    after acl_lab.reset() it neither spins nor calls into the next process, and the next
    process's last error stays its own. It ends by SystemExit, which Python's threading
    ignores (pytest's thread-exception plugin alone reports it)."""
    import acl_lab

    leftover = Worker(acl, timeout_ms)
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(leftover.tid, stream) == 0
    thread = next(t for t in threading.enumerate() if t.ident == leftover.tid)
    acl_lab.reset()
    thread.join(timeout=2)
    assert not thread.is_alive()
    assert acl.rt.free(0x1234) != 0
    time.sleep(0.1)
    assert acl.get_recent_err_msg().startswith("aclrtFree")


def test_a_thread_that_never_processes_reports_costs_one_handoff_wait(acl, monkeypatch):
    """A live thread subscribed to a stream that never calls process_report: the first
    blocking callback waits HANDOFF_LIMIT_S for it, later ones go on at once (100 launches
    used to cost 100 x 10 s); once it calls process_report, it is waited for again."""
    from acl_lab.sim import callbacks
    monkeypatch.setattr(callbacks, "HANDOFF_LIMIT_S", 0.3)
    go = threading.Event()
    t = threading.Thread(target=go.wait, daemon=True)
    t.start()
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(t.ident, stream) == 0
    for _ in range(20):
        assert acl.rt.launch_callback(lambda d: None, [], C.ACL_CALLBACK_BLOCK, stream) == 0
    start = time.monotonic()
    assert acl.rt.synchronize_stream(stream) == 0
    assert 0.3 <= time.monotonic() - start < 2.0
    go.set()
    t.join()


def test_ctrl_c_while_waiting_for_a_blocking_callback_runs_it_once(acl, worker):
    """Ctrl-C ends synchronize_stream's wait for a blocking callback at once; the callback
    stays queued and, when the stream is synchronized again, runs once (not twice)."""
    import signal

    from acl_lab.support import interrupts
    runs, release = [], threading.Event()
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(worker.tid, stream) == 0

    def slow(data):
        release.wait(5)
        runs.append(data)

    assert acl.rt.launch_callback(slow, "once", C.ACL_CALLBACK_BLOCK, stream) == 0
    assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint
    timer = threading.Timer(0.2, signal.pthread_kill,
                            (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        acl.rt.synchronize_stream(stream)
        time.sleep(2)
    assert time.monotonic() - start < 1.5
    release.set()
    assert acl.rt.synchronize_stream(stream) == 0
    assert runs == ["once"]
    assert acl.rt.unsubscribe_report(worker.tid, stream) == 0


def test_a_forbidden_call_in_a_callback_runs_but_is_reported(acl, worker):
    """aclrtLaunchCallback 约束说明 (hicann/runtime 12_execution_control.md): no allocation,
    free, synchronisation or task submission in a callback. The runtime does not check, so
    the call goes ahead; the simulator says so (snapshot()["reports"] and stderr)."""
    import acl_lab
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(worker.tid, stream) == 0
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(64)
    rets = []

    def copies_inside(_):
        rets.append(acl.rt.memcpy(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST))

    def reads_only(_):
        rets.append(int(acl.util.ptr_to_numpy(host, (1,), np.dtype(np.uint8).num)[0]))

    assert acl.rt.memset_async(dev, 64, 5, 64, stream) == 0
    assert acl.rt.launch_callback(copies_inside, [], C.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert rets == [0]
    reports = acl_lab.snapshot()["reports"]
    assert len(reports) == 1 and reports[0].startswith("aclrtMemcpy was called inside a host "
                                                       "callback")
    assert acl.rt.memcpy_async(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.launch_callback(reads_only, [], C.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert rets == [0, 5] and len(acl_lab.snapshot()["reports"]) == 1
    assert acl.rt.unsubscribe_report(worker.tid, stream) == 0
