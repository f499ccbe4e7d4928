"""The exercises of chapter 08, driven as a learner drives them (see test_exercises_ch05_07):
``exercises.start`` converts and loads the digits model as the exercise needs, the test does
the learner's part, and the check passes or names the real cause."""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab import exercises
from acl_lab.exercises import ch08
from test_exercises_ch05_07 import fails, passes, solve


@pytest.fixture(autouse=True)
def in_a_fresh_folder(tmp_path, monkeypatch):
    """Where the chapter's notebook would be: models/digits.om is written there on demand."""
    monkeypatch.chdir(tmp_path)


def test_08_1_converts_the_model_when_it_is_missing_and_the_solution_passes(acl, tmp_path):
    model_path = exercises.start("08.1", acl)
    assert model_path == "models/digits.om" and (tmp_path / model_path).is_file()
    digits_id = solve("08.1", acl, model_path=model_path)["digits_id"]
    assert "acl.mdl.unload will leave them to you" in passes("08.1", acl, digits_id).message
    fails("08.1", acl, ..., hint="the model file can tell you", then="acl.mdl.query_size(model_path)")


def test_08_1_names_each_real_cause(acl):
    model_path = exercises.start("08.1", acl)
    work_size, weight_size, _ = acl.mdl.query_size(model_path)
    work, _ = acl.rt.malloc(work_size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    weight, _ = acl.rt.malloc(weight_size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    result = acl.mdl.load_from_file_with_mem(model_path, work, work_size - 1, weight,
                                             weight_size)
    fails("08.1", acl, result, hint="whole (model_id, ret) tuple")
    fails("08.1", acl, result[0], hint="returned 145000")
    model_id, ret = acl.mdl.load_from_file_with_mem(model_path, work, work_size, weight,
                                                    weight_size)
    assert ret == 0
    passes("08.1", acl, model_id)
    acl.rt.free(weight)
    fails("08.1", acl, model_id, hint="weight memory is not a live device allocation")
    acl_managed, _ = acl.mdl.load_from_file(model_path)
    fails("08.1", acl, acl_managed, hint="memory ACL allocated")
    acl.mdl.unload(acl_managed)
    fails("08.1", acl, acl_managed, hint="was unloaded")
    fails("08.1", acl, 99, hint="not a loaded model")


def _dataset(acl, *ptr_sizes):
    ds = acl.mdl.create_dataset()
    for ptr, size in ptr_sizes:
        acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
    return ds


def test_08_2_outputs_from_the_description(acl):
    digits_id, desc = exercises.start("08.2", acl)
    out_ds = solve("08.2", acl, digits_id=digits_id, desc=desc)["out_ds"]
    passes("08.2", acl, desc, out_ds)
    fails("08.2", acl, desc, ..., hint="knows how many outputs", then="get_num_outputs(desc)")
    fails("08.2", acl, desc, acl.mdl.create_dataset(), hint="holds 0 buffer(s)")
    small, _ = acl.rt.malloc(8, C.ACL_MEM_MALLOC_HUGE_FIRST)
    fails("08.2", acl, desc, _dataset(acl, (small, 8)), hint="needs 40 B")
    host, _ = acl.rt.malloc_host(40)
    fails("08.2", acl, desc, _dataset(acl, (host, 40)), hint="acl.rt.malloc")
    fails("08.2", acl, acl.mdl.create_desc(), out_ds, hint="desc describes no model")
    fails("08.2", acl, desc, acl.mdl.add_dataset_buffer(acl.mdl.create_dataset(), 0),
          hint="whole (dataset, ret) tuple")


def test_08_2_says_not_yet_in_chinese_too(acl):
    _digits_id, desc = exercises.start("08.2", acl)
    acl_lab.set_language("zh_CN")
    try:
        message = fails("08.2", acl, acl.mdl.create_desc(), acl.mdl.create_dataset()).message
    finally:
        acl_lab.set_language("en")
    assert "没有描述任何模型" in message and "describes" not in message


def _start_08_3(acl):
    names = ("digits_id", "stream", "in_dev", "in_size", "in_ds", "out_dev", "out_size",
             "out_ds", "out_host", "pinned", "digits")
    return dict(zip(names, exercises.start("08.3", acl)))


def test_08_3_solution_collects_in_stream_order(acl):
    h = _start_08_3(acl)
    assert h["digits"] == list(ch08.CALLBACK_DIGITS)
    answers = solve("08.3", acl, answers=[], NPY_FLOAT32=np.dtype(np.float32).num, **h)["answers"]
    passes("08.3", acl, answers, h["digits"])
    fails("08.3", acl, answers[::-1], h["digits"], hint="read the output of its own execution")
    fails("08.3", acl, ..., h["digits"], hint="worker thread", then="four calls on stream")


def _by_callback(acl, h, *, sync_copy=False, block=C.ACL_CALLBACK_BLOCK, synchronize=True,
                 copy_inside=False):
    answers = []

    def collect(_user_data):
        if copy_inside:      # what aclrtLaunchCallback's constraints forbid
            acl.rt.memcpy(h["out_host"], h["out_size"], h["out_dev"], h["out_size"],
                          C.ACL_MEMCPY_DEVICE_TO_HOST)
        answers.append(int(acl.util.ptr_to_numpy(h["out_host"], (10,),
                                                 np.dtype(np.float32).num).argmax()))

    for d in h["digits"]:
        if sync_copy:
            acl.rt.memcpy(h["in_dev"], h["in_size"], h["pinned"][d], h["in_size"],
                          C.ACL_MEMCPY_HOST_TO_DEVICE)
        else:
            acl.rt.memcpy_async(h["in_dev"], h["in_size"], h["pinned"][d], h["in_size"],
                                C.ACL_MEMCPY_HOST_TO_DEVICE, h["stream"])
        assert acl.mdl.execute_async(h["digits_id"], h["in_ds"], h["out_ds"], h["stream"]) == 0
        if not copy_inside:
            assert acl.rt.memcpy_async(h["out_host"], h["out_size"], h["out_dev"], h["out_size"],
                                       C.ACL_MEMCPY_DEVICE_TO_HOST, h["stream"]) == 0
        assert acl.rt.launch_callback(collect, [d], block, h["stream"]) == 0
    if synchronize:
        assert acl.rt.synchronize_stream(h["stream"]) == 0
    return answers


def test_08_3_names_each_real_cause(acl):
    h = _start_08_3(acl)
    fails("08.3", acl, [], h["digits"], hint="each of the 3 images needs both")
    answers = _by_callback(acl, h, synchronize=False)
    fails("08.3", acl, answers, h["digits"], hint="queued but have not run")
    acl.rt.synchronize_stream(h["stream"])
    passes("08.3", acl, answers, h["digits"])

    h = _start_08_3(acl)
    fails("08.3", acl, _by_callback(acl, h, sync_copy=True), h["digits"],
          hint="does not wait for the stream")

    h = _start_08_3(acl)          # right digits, but copied inside the callback
    answers = _by_callback(acl, h, copy_inside=True)
    assert answers == h["digits"]
    fails("08.3", acl, answers, h["digits"], hint="the callback called rt.memcpy")
    assert any("inside a host callback" in r for r in acl_lab.snapshot()["reports"])


def test_08_3_a_new_start_ends_the_last_worker(acl):
    import threading
    before = {t for t in threading.enumerate() if t.name.startswith("acl_lab callback")}
    for _ in range(3):
        _start_08_3(acl)
    acl_lab.reset("910b")
    for t in threading.enumerate():
        if t.name.startswith("acl_lab callback") and t not in before:
            t.join(timeout=5)
            assert not t.is_alive()


def test_chapter_08_exercises_are_registered():
    assert {"08.1", "08.2", "08.3"} <= set(exercises.available("08"))
