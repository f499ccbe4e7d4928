"""The checks of chapter 08: each passes with the solution, and fails cleanly (a ❌, never an
exception) with the placeholder ``...`` and with a plausible wrong answer."""
import threading

import numpy as np
import pytest

from acl_lab import constants as C
from acl_lab import exercises, sample_models
from modelhelpers import convert, dataset
from simhelpers import device_buffer
from test_exercises_ch04_07 import fails, passes


@pytest.fixture(scope="module")
def digits_om(tmp_path_factory):
    code, out, path = convert(tmp_path_factory.mktemp("ch08"), "digits")
    assert code == 0, out
    return str(path)


def _loaded(acl, path):
    model_id, ret = acl.mdl.load_from_file(path)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    return model_id, desc


def test_08_1_app_managed_memory(acl, digits_om):
    work_size, weight_size, _ = acl.mdl.query_size(digits_om)
    work, weight = device_buffer(acl, work_size), device_buffer(acl, weight_size)
    model_id, ret = acl.mdl.load_from_file_with_mem(digits_om, work, work_size, weight,
                                                    weight_size)
    assert ret == 0
    passes("08.1", acl, model_id)
    fails("08.1", acl, ...)
    fails("08.1", acl, 99, hint="not loaded")
    acl_managed, _ = acl.mdl.load_from_file(digits_om)
    fails("08.1", acl, acl_managed, hint="memory ACL allocated")


def test_08_2_outputs_from_the_description(acl, digits_om):
    _, desc = _loaded(acl, digits_om)
    size = acl.mdl.get_output_size_by_index(desc, 0)
    passes("08.2", acl, desc, dataset(acl, (device_buffer(acl, size), size)))
    fails("08.2", acl, desc, ...)
    fails("08.2", acl, desc, acl.mdl.create_dataset(), hint="holds 0 buffer(s)")
    fails("08.2", acl, desc, dataset(acl, (device_buffer(acl, 8), 8)), hint="needs 40 B")
    host, _ = acl.rt.malloc_host(size)
    fails("08.2", acl, desc, dataset(acl, (host, size)), hint="acl.rt.malloc")


def test_08_3_results_by_callback(acl, digits_om):
    model_id, desc = _loaded(acl, digits_om)
    stream, _ = acl.rt.create_stream()
    in_size, out_size = (acl.mdl.get_input_size_by_index(desc, 0),
                         acl.mdl.get_output_size_by_index(desc, 0))
    in_dev, out_dev = device_buffer(acl, in_size), device_buffer(acl, out_size)
    in_ds, out_ds = dataset(acl, (in_dev, in_size)), dataset(acl, (out_dev, out_size))
    stop = threading.Event()

    def serve(_):
        while not stop.is_set():
            acl.rt.process_report(10)

    worker, _ = acl.util.start_thread(serve, [])
    assert acl.rt.subscribe_report(worker, stream) == 0
    digits, answers = [2, 6, 8], []
    out_host, _ = acl.rt.malloc_host(out_size)

    def collect(_):
        acl.rt.memcpy(out_host, out_size, out_dev, out_size, C.ACL_MEMCPY_DEVICE_TO_HOST)
        answers.append(int(acl.util.ptr_to_numpy(out_host, (10,), np.dtype(np.float32).num)
                           .argmax()))

    fails("08.3", acl, answers, digits, hint="each of the 3 images needs both")
    for d in digits:
        pinned, _ = acl.rt.malloc_host(in_size)
        acl.util.ptr_to_numpy(pinned, (1, 1, 28, 28), np.dtype(np.float32).num)[:] = \
            sample_models.digit_image(d)
        acl.rt.memcpy_async(in_dev, in_size, pinned, in_size, C.ACL_MEMCPY_HOST_TO_DEVICE,
                            stream)
        assert acl.mdl.execute_async(model_id, in_ds, out_ds, stream) == 0
        assert acl.rt.launch_callback(collect, [d], C.ACL_CALLBACK_BLOCK, stream) == 0
    fails("08.3", acl, answers, digits, hint="synchronize the stream first")   # not yet run
    assert acl.rt.synchronize_stream(stream) == 0
    passes("08.3", acl, answers, digits)
    fails("08.3", acl, answers[::-1], digits, hint="read its own output")
    fails("08.3", acl, ..., digits)
    acl.rt.unsubscribe_report(worker, stream)
    stop.set()
    assert acl.util.stop_thread(worker) == 0


def test_chapter_08_exercises_are_registered():
    assert {"08.1", "08.2", "08.3"} <= set(exercises.available())
