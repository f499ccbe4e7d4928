"""acl.prof: collections into a folder (init / create_config / start / stop / finalize /
set_config), msproftx and step info, model subscriptions and the op records their pipe
receives, with pyACL's return shapes and the codes hicann/runtime's msprof gives.

Compared: return codes and values, what a collection writes (spec/profile_data.py reads
it), the records a subscription writes into the pipe. A refused call changes nothing the
program can see: the next lawful call behaves as if it had not been made."""
from __future__ import annotations

import os
import threading

import pytest

from acl_lab import constants as C
from acl_lab.spec import prof_op_desc, profile_data
from mdlhelpers import Model, convert, seq

INVALID = C.ACL_ERROR_INVALID_PARAM
FAILED = -1                   # PROFILING_FAILED: what msproftx's refusals return
TX = C.ACL_PROF_MSPROFTX | C.ACL_PROF_TASK_TIME | C.ACL_PROF_ACL_API


@pytest.fixture
def model(acl, tmp_path):
    om = convert(tmp_path, seq, acl.get_soc_name(), "--input_format=ND", "--input_shape=x:1,2,4")
    m = Model(acl, om)
    yield m
    acl.mdl.unload(m.id)


@pytest.fixture
def prof(acl, tmp_path):
    """acl.prof initialised into tmp_path/prof; finalised after the test."""
    assert acl.prof.init(str(tmp_path / "prof")) == 0
    yield tmp_path / "prof"
    assert acl.prof.finalize() == 0


def written(folder) -> profile_data.Profile:
    """The one collection written into ``folder`` (PROF_<n>_sim: numbered per process)."""
    found = [f for f in folder.iterdir() if f.name.startswith("PROF_")]
    assert len(found) == 1, found
    return profile_data.read(found[0])


def config(acl, types=TX) -> int:
    cfg = acl.prof.create_config([0], C.ACL_AICORE_NONE, 0, types)
    assert cfg, acl.get_recent_err_msg()
    return cfg


# ----- collections ----------------------------------------------------------------------------
def test_a_collection_writes_the_tasks_and_the_msproftx_marks_of_its_time(acl, prof, model):
    stream, _ = acl.rt.create_stream()
    assert acl.mdl.execute_async(model.id, model.in_ds, model.out_ds, stream) == 0  # before
    acl.rt.synchronize_stream(stream)
    cfg = config(acl)
    assert acl.prof.start(cfg) == 0
    stamp = acl.prof.create_stamp()
    assert stamp and acl.prof.set_stamp_trace_message(stamp, "infer", 5) == 0
    assert acl.prof.push(stamp) == 0
    for _ in range(2):
        assert acl.mdl.execute_async(model.id, model.in_ds, model.out_ds, stream) == 0
    assert acl.prof.mark_ex("queued", stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.prof.pop() == 0
    range_id, ret = acl.prof.range_start(stamp)
    assert ret == 0 and range_id >= 1
    assert acl.prof.range_stop(range_id) == 0
    assert acl.prof.destroy_stamp(stamp) is None
    assert acl.prof.stop(cfg) == 0
    assert acl.prof.destroy_config(cfg) == 0
    profile = written(prof)
    assert [t["kind"] for t in profile.tasks] == ["inference", "inference", "mark"]
    assert {t["stream"] for t in profile.tasks} == {stream}
    messages = [m.message for m in profile.marks]
    assert sorted(messages) == ["infer", "infer", "queued"]
    pushed = next(m for m in profile.marks if m.message == "infer" and m.end_us > m.start_us)
    assert pushed.start_us <= profile.tasks[0]["start_us"]
    assert pushed.end_us >= profile.tasks[-1]["end_us"]


def test_without_task_time_a_collection_has_no_tasks_and_without_msproftx_no_marks(acl, prof,
                                                                                   model):
    cfg = config(acl, C.ACL_PROF_ACL_API)
    assert acl.prof.start(cfg) == 0
    assert acl.mdl.execute(model.id, model.in_ds, model.out_ds) == 0
    assert acl.prof.create_stamp() == 0                     # msproftx is off
    assert acl.prof.mark_ex("x", 0) == FAILED
    assert acl.prof.stop(cfg) == 0
    assert written(prof) == ([], [])


def test_create_config_refuses_what_is_valid_prof_config_refuses(acl):
    count, _ = acl.rt.get_device_count()
    assert acl.prof.create_config([0], C.ACL_AICORE_NONE, 0x1000, TX) == 0   # events
    assert acl.get_recent_err_msg()
    assert acl.prof.create_config([count], C.ACL_AICORE_NONE, 0, TX) == 0
    assert acl.prof.create_config(list(range(count + 1)), C.ACL_AICORE_NONE, 0, TX) == 0
    if count > 1:
        assert acl.prof.create_config([0, 0], C.ACL_AICORE_NONE, 0, TX) == 0
    assert acl.prof.create_config([], C.ACL_AICORE_NONE, 0, C.ACL_PROF_TASK_TIME) == 0
    cfg = acl.prof.create_config([], C.ACL_AICORE_NONE, 0, C.ACL_PROF_MSPROFTX)
    assert cfg and acl.prof.destroy_config(cfg) == 0
    with pytest.raises(TypeError):
        acl.prof.create_config((0,), C.ACL_AICORE_NONE, 0, TX)
    with pytest.raises(TypeError):
        acl.prof.create_config(["0"], C.ACL_AICORE_NONE, 0, TX)


def test_configs_are_destroyed_once(acl):
    cfg = config(acl)
    assert acl.prof.destroy_config(cfg) == 0
    assert acl.prof.destroy_config(cfg) == INVALID
    assert acl.prof.destroy_config(0) == INVALID


def test_init_start_stop_finalize_follow_the_profilers_modes(acl, tmp_path):
    cfg = config(acl)
    assert acl.prof.stop(cfg) == 0 and acl.prof.finalize() == 0     # nothing to do yet
    assert acl.prof.start(cfg) == C.ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.init("") == INVALID
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert acl.prof.init(str(a_file)) == INVALID
    assert acl.prof.init(str(tmp_path / "p")) == 0
    assert acl.prof.init(str(tmp_path / "p")) == C.ACL_ERROR_REPEAT_INITIALIZE
    assert acl.prof.stop(cfg) == C.ACL_ERROR_PROF_NOT_RUN                 # none running
    assert acl.prof.start(config(acl, 0)) == INVALID                       # collects nothing
    assert acl.prof.start(config(acl, 1 << 50)) == C.ACL_ERROR_PROF_MODULES_UNSUPPORTED
    assert acl.prof.start(cfg) == 0
    assert acl.prof.start(cfg) == 0                                        # the same again
    other = config(acl, C.ACL_PROF_TASK_TIME)
    assert acl.prof.start(other) == C.ACL_ERROR_INVALID_PROFILING_CONFIG
    assert acl.prof.stop(other) == C.ACL_ERROR_INVALID_PROFILING_CONFIG
    assert acl.prof.stop(cfg) == 0                                          # still running
    assert acl.prof.finalize() == 0
    assert len(list((tmp_path / "p").iterdir())) == 1


def test_finalize_writes_a_collection_still_running(acl, tmp_path):
    assert acl.prof.init(str(tmp_path / "p")) == 0
    assert acl.prof.start(config(acl)) == 0
    assert acl.prof.finalize() == 0
    assert written(tmp_path / "p").tasks == []


def test_set_config_checks_the_type_and_the_value(acl):
    assert acl.prof.set_config(C.ACL_PROF_ARGS_MIN, "1") == INVALID
    assert acl.prof.set_config(C.ACL_PROF_ARGS_MAX, "1") == INVALID
    assert acl.prof.set_config(C.ACL_PROF_SYS_IO_FREQ, "9" * 257) == INVALID
    assert acl.prof.set_config(C.ACL_PROF_STORAGE_LIMIT, "100MB") == \
        C.ACL_ERROR_INVALID_PROFILING_CONFIG
    assert acl.prof.set_config(C.ACL_PROF_STORAGE_LIMIT, "200MB") == 0
    assert acl.prof.set_config(C.ACL_PROF_SYS_IO_FREQ, "100") == 0


# ----- msproftx and step info -------------------------------------------------------------------
def test_msproftx_refusals_give_profiling_failed_and_leave_stacks_as_they_were(acl, prof):
    cfg = config(acl)
    stamp = acl.prof.create_stamp()
    assert stamp == 0 and acl.prof.mark(stamp) == FAILED       # off: no stamp; NULL
    assert acl.prof.start(cfg) == 0
    stamp = acl.prof.create_stamp()
    assert stamp
    assert acl.prof.set_stamp_trace_message(stamp, "m" * 200, 128) == FAILED
    assert acl.prof.set_stamp_trace_message(stamp, "ok", 2) == 0
    assert acl.prof.pop() == FAILED                           # nothing pushed
    assert acl.prof.push(0) == INVALID
    assert acl.prof.range_start(0) == (0, INVALID)
    assert acl.prof.range_stop(999) == FAILED
    assert acl.prof.mark_ex("", 0) == FAILED
    assert acl.prof.mark_ex("m" * 128, 0) == FAILED
    assert acl.prof.push(stamp) == 0
    assert acl.prof.pop() == 0 and acl.prof.pop() == FAILED
    range_id, ret = acl.prof.range_start(stamp)
    assert ret == 0
    assert acl.prof.range_stop(range_id) == 0 and acl.prof.range_stop(range_id) == FAILED
    assert acl.prof.destroy_stamp(stamp) is None
    assert acl.prof.mark(stamp) == FAILED                     # destroyed
    assert acl.prof.stop(cfg) == 0


def test_a_step_info_takes_one_start_and_one_end(acl):
    stream, _ = acl.rt.create_stream()
    step = acl.prof.create_step_info()
    assert step
    assert acl.prof.get_step_timestamp(0, C.ACL_STEP_START, stream) == INVALID
    assert acl.prof.get_step_timestamp(step, C.ACL_STEP_START, 0xDEAD0) == \
        C.ACL_ERROR_GE_FAILURE
    assert acl.prof.get_step_timestamp(step, C.ACL_STEP_START, stream) == 0   # not taken yet
    assert acl.prof.get_step_timestamp(step, C.ACL_STEP_START, stream) == INVALID
    assert acl.prof.get_step_timestamp(step, C.ACL_STEP_END, stream) == 0
    assert acl.prof.get_step_timestamp(step, C.ACL_STEP_END, stream) == INVALID
    assert acl.prof.destroy_step_info(step) is None
    assert acl.prof.destroy_step_info(step) is None
    assert acl.get_recent_err_msg()


# ----- model subscriptions --------------------------------------------------------------------
@pytest.fixture
def pipe():
    r, w = os.pipe()
    yield r, w
    for fd in (r, w):
        try:
            os.close(fd)
        except OSError:
            pass          # the profiler closed the write end


def read_all(fd: int) -> bytes:
    out = b""
    while chunk := os.read(fd, 4096):
        out += chunk
    return out


def test_a_subscription_writes_one_record_per_operator_and_execution(acl, model, pipe):
    r, w = pipe
    sub = acl.prof.create_subscribe_config(1, C.ACL_AICORE_NONE, w)
    assert sub
    assert acl.prof.model_subscribe(model.id, sub) == 0
    for _ in range(3):
        assert acl.mdl.execute(model.id, model.in_ds, model.out_ds) == 0
    assert acl.prof.model_un_subscribe(model.id) == 0
    data = read_all(r)                        # the write end is closed: end of file
    with pytest.raises(OSError):
        os.close(w)
    size, ret = acl.prof.get_op_desc_size()
    assert (size, ret) == (prof_op_desc.SIZE, 0) and len(data) == 3 * size
    ptr = acl.util.bytes_to_ptr(data)
    assert acl.prof.get_op_num(ptr, len(data)) == (3, 0)
    starts = []
    for i in range(3):
        assert acl.prof.get_model_id(ptr, len(data), i) == model.id
        assert acl.prof.get_op_type_len(ptr, len(data), i) == (len("MatMul") + 1, 0)
        assert acl.prof.get_op_type(ptr, len(data), i, 7) == ("MatMul", 0)
        assert acl.prof.get_op_type(ptr, len(data), i, 7) == ("", INVALID)    # read once
        assert acl.prof.get_op_name_v2(ptr, len(data), i) == ("MatMul_0", 0)
        assert acl.prof.get_op_name_v2(ptr, len(data), i) == (None, INVALID)
        start, end = (acl.prof.get_op_start(ptr, len(data), i),
                      acl.prof.get_op_end(ptr, len(data), i))
        assert 0 < start < end
        assert acl.prof.get_op_duration(ptr, len(data), i) == end - start
        starts.append(start)
    assert starts == sorted(starts)
    assert acl.prof.destroy_subscribe_config(sub) == 0


def test_op_getters_refuse_what_op_desc_parser_refuses(acl, model, pipe):
    r, w = pipe
    sub = acl.prof.create_subscribe_config(1, C.ACL_AICORE_NONE, w)
    assert acl.prof.model_subscribe(model.id, sub) == 0
    assert acl.mdl.execute(model.id, model.in_ds, model.out_ds) == 0
    assert acl.prof.model_unsubscribe(model.id) == 0
    data = read_all(r)
    ptr, n = acl.util.bytes_to_ptr(data), len(data)
    assert acl.prof.get_op_num(0, n) == (0, INVALID)
    assert acl.prof.get_op_num(ptr, n - 1) == (0, INVALID)          # not whole records
    tampered = bytearray(data)
    tampered[40] ^= 1
    bad = acl.util.bytes_to_ptr(tampered)
    assert acl.prof.get_op_num(bad, n) == (0, INVALID)              # signature
    assert acl.prof.get_op_start(ptr, n, 1) == 0                    # past the last
    assert acl.prof.get_model_id(ptr, n, 1) == INVALID              # the code as the id
    assert acl.prof.get_op_type(ptr, n, 0, 5000) == ("", INVALID)   # pyACL's 4096
    assert acl.prof.get_op_type(ptr, n, 0, 0) == ("", INVALID)
    assert acl.prof.get_op_type(ptr, n, 0, 3) == ("", INVALID)      # too short: not read
    assert acl.prof.get_op_type(ptr, n, 0, 6) == ("MatMu", 0)       # the last byte is NUL
    assert acl.prof.get_op_name(ptr, n, 0, 100) == ("MatMul_0", 0)


def test_subscribe_refuses_as_the_profiler_does_and_changes_nothing(acl, model, pipe, tmp_path):
    r, w = pipe
    assert acl.prof.create_subscribe_config(2, C.ACL_AICORE_NONE, w) == 0
    sub = acl.prof.create_subscribe_config(1, C.ACL_AICORE_NONE, w)
    nothing = acl.prof.create_subscribe_config(0, C.ACL_AICORE_NONE, w)
    assert acl.prof.model_subscribe(model.id + 100, sub) == C.ACL_ERROR_INVALID_MODEL_ID
    assert acl.prof.model_subscribe(model.id, 0) == INVALID
    assert acl.prof.model_subscribe(model.id, nothing) == INVALID          # asks for nothing
    stdout = acl.prof.create_subscribe_config(1, C.ACL_AICORE_NONE, 1)
    assert acl.prof.model_subscribe(model.id, stdout) == INVALID           # the kit's rule
    read_end = acl.prof.create_subscribe_config(1, C.ACL_AICORE_NONE, r)
    assert acl.prof.model_subscribe(model.id, read_end) == INVALID
    assert acl.prof.model_un_subscribe(model.id) == C.ACL_ERROR_INVALID_MODEL_ID
    assert acl.prof.init(str(tmp_path / "p")) == 0
    assert acl.prof.model_subscribe(model.id, sub) == C.ACL_ERROR_PROF_API_CONFLICT
    assert acl.prof.finalize() == 0
    assert acl.prof.model_subscribe(model.id, sub) == 0
    assert acl.prof.model_subscribe(model.id, sub) == C.ACL_ERROR_PROF_REPEAT_SUBSCRIBE
    assert acl.prof.init(str(tmp_path / "p")) == C.ACL_ERROR_PROF_API_CONFLICT
    assert acl.prof.model_un_subscribe(model.id) == 0
    assert read_all(r) == b""                        # no execution: no record, then EOF
    for cfg in (sub, nothing, stdout, read_end):
        assert acl.prof.destroy_subscribe_config(cfg) == 0
    assert acl.prof.destroy_subscribe_config(sub) == INVALID


def test_a_reader_thread_gets_every_record_as_the_official_sample_reads_them(acl, model, pipe):
    """hicann/runtime example/profiling/2_subscribe_model: read N records at a time in a
    thread, parse each chunk, stop at end of file."""
    r, w = pipe
    got = []

    def reader():
        size, _ = acl.prof.get_op_desc_size()
        while data := os.read(r, size * 10):
            ptr = acl.util.bytes_to_ptr(data)
            n, ret = acl.prof.get_op_num(ptr, len(data))
            got.extend(acl.prof.get_op_type_v2(ptr, len(data), i)[0] for i in range(n))

    t = threading.Thread(target=reader)
    t.start()
    sub = acl.prof.create_subscribe_config(1, C.ACL_AICORE_NONE, w)
    assert acl.prof.model_subscribe(model.id, sub) == 0
    for _ in range(1000):                      # 80 kB of records: more than a pipe holds
        assert acl.mdl.execute(model.id, model.in_ds, model.out_ds) == 0
    assert acl.prof.model_un_subscribe(model.id) == 0
    t.join(60)
    assert not t.is_alive() and got == ["MatMul"] * 1000
