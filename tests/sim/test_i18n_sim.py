"""The simulator explains itself in the learner's language: a failure provoked in each part
of the simulator (capture, waits, callbacks, peer access, operators, offline models, the
runtime, the facade, the host-RAM budget) reads in Chinese under zh_CN — with no English
sentence left in it, also where the message is assembled from fragments — and exactly as
before in English."""

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import SimulatorLimit
from acl_lab.support import host_budget

from simhelpers import fresh

from langhelpers import CJK, ENGLISH, english_words  # noqa: F401


@pytest.fixture
def speak():
    """``speak(language)``: switch; English again afterwards, whatever happened."""
    yield acl_lab.set_language
    acl_lab.set_language("en")
    acl_lab.reset()


# ----- one failure per part of the simulator: (ret, message) ---------------------------------
def capture_linked_to_another(acl):
    """Two captures linked by one event: the second is invalidated, and capture end says why
    (a reason fragment put inside another sentence)."""
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    for s in (s1, s2):
        assert acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    assert acl.rt.record_event(e, s1) == 0
    assert acl.rt.stream_wait_event(s2, e) == C.ACL_ERROR_STREAM_CAPTURE_CONFLICT
    first = acl.get_recent_err_msg()
    _, ret = acl.mdl.ri_capture_end(s2)
    return ret, first + "\n" + acl.get_recent_err_msg()


def capture_unjoined(acl):
    """A stream joins a capture and never comes back: the problem fragment, in a sentence."""
    main, _ = acl.rt.create_stream()
    side, _ = acl.rt.create_stream()
    fork, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(main, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.record_event(fork, main) == 0
    assert acl.rt.stream_wait_event(side, fork) == 0
    assert acl.rt.memset_async(dev, 64, 0, 64, side) == 0
    _, ret = acl.mdl.ri_capture_end(main)
    return ret, acl.get_recent_err_msg()


def waits_timestamp_of_an_unrecorded_event(acl):
    e, _ = acl.rt.create_event()
    _, ret = acl.rt.event_get_timestamp(e)
    return ret, acl.get_recent_err_msg()


def waits_stream_timeout(acl):
    s, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(1 << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(dev, 1 << 20, 1, 1 << 20, s) == 0
    ret = acl.rt.synchronize_stream_with_timeout(s, 0)
    return ret, acl.get_recent_err_msg()


def callbacks_on_an_unsubscribed_stream(acl):
    s, _ = acl.rt.create_stream()
    ret = acl.rt.launch_callback(print, None, C.ACL_CALLBACK_BLOCK, s)
    return ret, acl.get_recent_err_msg()


def peer_with_itself(acl):
    ret = acl.rt.device_enable_peer_access(0, 0)
    return ret, acl.get_recent_err_msg()


def ops_reversed_view(acl):
    tensor = acl.nn.create_tensor([2], C.ACL_FLOAT, [-1], 0, C.ACL_FORMAT_ND, [2], 0x1000)
    assert tensor == 0
    return C.ACL_ERROR_INVALID_PARAM, acl.get_recent_err_msg()


def ops_beyond_storage(acl):
    """A view past its storage: the tensor's description is a fragment too."""
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    t = acl.nn.create_tensor([4], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [2], dev)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    _, _, ret = acl.nn.add_get_workspace_size(t, t, one, t)
    return ret, acl.get_recent_err_msg()


def model_never_loaded(acl):
    ret = acl.mdl.unload(99)
    return ret, acl.get_recent_err_msg()


def model_wrong_dataset(acl):
    _, ret = acl.mdl.add_dataset_buffer(0x1234, 0)
    return ret, acl.get_recent_err_msg()


def runtime_reset_of_a_device_not_set(acl):
    ret = acl.rt.reset_device(1)
    return ret, acl.get_recent_err_msg()


def runtime_leak_report(acl):
    """A stream never destroyed: reset_device says so (a report, not a failure)."""
    acl.rt.create_stream()
    assert acl.rt.reset_device(0) == 0
    return C.ACL_SUCCESS, acl_lab.snapshot()["reports"][-1]


def api_capture_on_the_default_stream(acl):
    ret = acl.mdl.ri_capture_begin(0, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    return ret, acl.get_recent_err_msg()


def api_dataset_index(acl):
    ds = acl.mdl.create_dataset()
    assert acl.mdl.get_dataset_buffer(ds, 3) == 0
    return C.ACL_ERROR_INVALID_PARAM, acl.get_recent_err_msg()


PROVOKE = [capture_linked_to_another, capture_unjoined, waits_timestamp_of_an_unrecorded_event,
           waits_stream_timeout, callbacks_on_an_unsubscribed_stream, peer_with_itself,
           ops_reversed_view, ops_beyond_storage, model_never_loaded, model_wrong_dataset,
           runtime_reset_of_a_device_not_set, runtime_leak_report,
           api_capture_on_the_default_stream, api_dataset_index]


@pytest.mark.parametrize("provoke", PROVOKE, ids=lambda f: f.__name__)
def test_each_part_of_the_simulator_explains_itself_in_chinese(provoke, speak):
    english_ret, english = provoke(fresh())
    speak("zh_CN")
    chinese_ret, chinese = provoke(fresh())
    assert chinese_ret == english_ret                 # the language changes words, not codes
    assert english and not CJK.search(english), english
    assert CJK.search(chinese), chinese
    assert not english_words(chinese), (english_words(chinese), chinese)
    assert chinese.split("：")[0].split("(")[0] == english.split(":")[0].split("(")[0]


def test_a_budget_refusal_speaks_the_language_of_its_moment(speak, monkeypatch):
    """The process was made in English; the refusal comes after the switch, in Chinese (where
    the budget comes from and what the bytes are for included)."""
    monkeypatch.setenv(host_budget.ENV, "16MiB")
    acl = fresh()
    dev, _ = acl.rt.malloc(64 << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    speak("zh_CN")
    with pytest.raises(SimulatorLimit) as refused:
        acl.rt.memset(dev, 64 << 20, 1, 64 << 20)
    text = str(refused.value)
    assert CJK.search(text) and "ACL_LAB_HOST_RAM=16MiB" in text
    assert "模拟的数据" in text
    assert not english_words(text), (english_words(text), text)


def test_english_fragments_are_not_left_in_a_chinese_model_message(speak):
    """A model loaded from bytes that are not an .om: the reason comes from om.py."""
    acl = fresh()
    speak("zh_CN")
    data = b"not a model at all"
    _, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID
    text = acl.get_recent_err_msg()
    assert "不是离线模型" in text and "魔数" in text
    assert not english_words(text), (english_words(text), text)


def test_the_trace_table_reads_in_chinese_and_stays_aligned(acl, speak):
    """Column headers, the task cell and the injected mark follow the language; each column
    still starts at the same terminal column in every row (a Chinese character takes two)."""
    from acl_lab.i18n import columns
    s, _ = acl.rt.create_stream()
    ptr, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(ptr, 64, 0, 64, s) == 0
    acl_lab.inject("rt.malloc", code=C.ACL_ERROR_RT_MEMORY_ALLOCATION)
    acl.rt.malloc(8, 0)
    english = repr(acl_lab.tracer().table(3))
    assert english.splitlines()[0].split() == ["#", "call", "args", "ret", "thread", "t_us",
                                               "task"]
    assert "memset on 0x" in english and "207001 injected" in english
    speak("zh_CN")
    table = acl_lab.tracer().table(3)
    text = repr(table)
    head, *rows = text.splitlines()
    assert head.split() == ["#", "调用", "参数", "返回值", "线程", "t_us", "任务"]
    assert "上的 memset" in text and "207001 已注入" in text
    assert not english_words(text.replace("rt.", "").replace("main", ""))
    start = columns(head[:head.index("线程")])          # the thread column starts here...
    assert all(columns(r[:r.index("main")]) == start for r in rows)   # ...in every row
    assert "<th>调用</th>" in table._repr_html_()
