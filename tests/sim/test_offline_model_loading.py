"""Loading an offline model is all or nothing (issue 24): every byte of the .om is checked
before any memory is taken, and a load that fails — damaged bytes, an edited header, an
operator atc would refuse, Ctrl-C anywhere — leaves the process exactly as it was and every
later call working. Codes as hicann/ge base/common/helper/model_parser_base.cc
(ModelParserBase::ParseModelContent: a length or magic that does not match is
ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)."""
from __future__ import annotations

import json
import signal
import struct
import sys

import numpy as np
import pytest
from onnx import TensorProto, helper

import acl_lab
from acl_lab.om import atc
from acl_lab.om import container as om
from acl_lab import constants as C
from modelhelpers import Loaded, convert

PREFIX = struct.Struct("<8sIQ")


@pytest.fixture(scope="module")
def digits_om(tmp_path_factory):
    code, out, path = convert(tmp_path_factory.mktemp("om"), "digits")
    assert code == 0, out
    return path.read_bytes()


def _split(data: bytes):
    _magic, _version, hlen = PREFIX.unpack_from(data)
    return json.loads(data[PREFIX.size:PREFIX.size + hlen]), data[PREFIX.size + hlen:]


def _join(header: dict, graph: bytes) -> bytes:
    body = json.dumps(header).encode()
    return PREFIX.pack(om.MAGIC, om.VERSION, len(body)) + body + graph


def _edited(data: bytes, **fields) -> bytes:
    header, graph = _split(data)
    header.update(fields)
    return _join(header, graph)


def _state():
    """What a load may change: allocations, pools, loaded models, and the host RAM the
    budget counts for them."""
    from acl_lab.session import SESSION
    snap = acl_lab.snapshot()
    ram = SESSION.simulator.rt.memory.ram
    return (snap["allocations"], snap["offline_models"], snap["pools"], ram.held,
            ram.reserved)


def _still_works(acl, tmp_path, digits_om):
    """The stream synchronizes, the device resets, and a good model loads and runs."""
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    good = tmp_path / "good.om"
    good.write_bytes(digits_om)
    m = Loaded(acl, good)
    m.feed(np.zeros((1, 1, 28, 28), np.float32))
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    assert m.result().shape == (1, 10)


def _refused(acl, tmp_path, data: bytes, code=C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID):
    before = _state()
    path = tmp_path / "edited.om"
    path.write_bytes(data)
    assert acl.mdl.load_from_file(str(path)) == (0, code)
    message = acl.get_recent_err_msg()
    assert _state() == before
    return message


def test_a_truncated_om_does_not_load_and_nothing_breaks_later(acl, tmp_path, digits_om):
    """It used to load with ret 0 and make every later synchronize raise DecodeError."""
    for cut in (1, 100, len(digits_om) // 2):
        msg = _refused(acl, tmp_path, digits_om[:-cut])
        assert "truncated" in msg
    _refused(acl, tmp_path, digits_om + b"\0")
    _still_works(acl, tmp_path, digits_om)


@pytest.mark.parametrize("fields", [
    {"weight_size": 1.5}, {"weight_size": "32256"}, {"weight_size": True},
    {"work_size": -1}, {"work_size": 1 << 70}, {"nodes": None}, {"model_length": 3},
    {"soc_version": 7}, {"inputs": 5}, {"inputs": []}, {"inputs": [{}]},
    {"inputs": [{"name": "image", "dims": [[1]], "dtype": 0, "format": 0, "onnx_dtype": 0}]},
    {"inputs": [{"name": "image", "dims": [1, 1, 28, 28], "dtype": 99, "format": 0,
                 "onnx_dtype": 0}]},
    {"inputs": [{"name": "image", "dims": [1, 1, 28, 28], "dtype": 0, "format": 77,
                 "onnx_dtype": 0}]},
    {"outputs": [{"name": "prob", "dims": [1 << 30] * 8, "dtype": 0, "format": 2,
                  "onnx_dtype": 0}]},
])
def test_an_edited_header_field_is_not_an_om_and_changes_nothing(acl, tmp_path, digits_om,
                                                                 fields):
    msg = _refused(acl, tmp_path, _edited(digits_om, **fields))
    assert "damaged" in msg or "truncated" in msg
    _still_works(acl, tmp_path, digits_om)


def test_a_header_nested_beyond_reason_is_not_an_om(acl, tmp_path, digits_om):
    """json.loads raises RecursionError on deep nesting: still a return code."""
    _header, graph = _split(digits_om)
    deep = b"[" * 200_000 + b"]" * 200_000
    data = PREFIX.pack(om.MAGIC, om.VERSION, len(deep)) + deep + graph
    assert "damaged" in _refused(acl, tmp_path, data)


@pytest.mark.parametrize("fields, words", [
    ({"work_size": 4608 * 2}, "sizes"),
    ({"weight_size": 0}, "sizes"),
    ({"nodes": 3}, "sizes"),
    ({"inputs": [{"name": "image", "dims": [1, 1, 28, 27], "dtype": 0, "format": 0,
                  "onnx_dtype": 0}]}, "graph says"),
    ({"inputs": [{"name": "picture", "dims": [1, 1, 28, 28], "dtype": 0, "format": 0,
                  "onnx_dtype": 0}]}, "not the graph's"),
])
def test_a_header_that_does_not_describe_its_graph_is_not_an_om(acl, tmp_path, digits_om,
                                                                fields, words):
    assert words in _refused(acl, tmp_path, _edited(digits_om, **fields))


def test_a_graph_with_an_operator_atc_refuses_does_not_load(acl, tmp_path, digits_om):
    header, graph = _split(digits_om)
    edited = graph.replace(b"Softmax", b"Erf\0\0\0\0")         # same length: still protobuf
    assert edited != graph
    msg = _refused(acl, tmp_path, _join(header, edited))
    assert "Erf" in msg


def test_graph_bytes_that_are_not_protobuf_do_not_load(acl, tmp_path, digits_om):
    header, graph = _split(digits_om)
    assert "not a valid ONNX" in _refused(acl, tmp_path, _join(header, b"\xff" * len(graph)))


def test_a_model_without_weights_converts_loads_and_runs(acl, tmp_path):
    """It used to convert but never load (245000: a weight block of 0 bytes)."""
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "relu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    (tmp_path / "relu.onnx").write_bytes(model.SerializeToString())
    assert atc.main([f"--model={tmp_path / 'relu.onnx'}", "--framework=5",
                     f"--output={tmp_path / 'relu'}", "--soc_version=Ascend910B3"]) == 0
    assert acl.mdl.query_size(str(tmp_path / "relu.om"))[1:] == (0, 0)
    m = Loaded(acl, tmp_path / "relu.om")
    x = np.arange(-4, 4, dtype=np.float32).reshape(2, 4)
    m.feed(x)
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    np.testing.assert_array_equal(m.result(), np.maximum(x, 0))
    row, = acl_lab.snapshot()["offline_models"]
    assert (row["weight_ptr"], row["weight_size"], row["memory"]) == (0, 0, "acl")
    assert acl.mdl.unload(m.model_id) == 0


class _Interrupt:
    """Press Ctrl-C (call the SIGINT handler, as the interpreter does) on the ``at``-th Python
    function entry (where CPython 3.11+ delivers SIGINT) of code in acl_lab, onnx or numpy;
    None: only count."""

    def __init__(self, at=None):
        self.at, self.calls = at, 0

    def __call__(self, frame, event, arg):
        if event == "call" and any(p in frame.f_code.co_filename
                                   for p in ("acl_lab", "onnx", "numpy")):
            self.calls += 1
            if self.calls == self.at:
                signal.getsignal(signal.SIGINT)(signal.SIGINT, frame)
        return None


def _points(total: int, most: int = 80) -> list[int]:
    return sorted({1 + round(i * (total - 1) / (most - 1)) for i in range(most)}) \
        if total > most else list(range(1, total + 1))


@pytest.mark.parametrize("call", ["load_from_file", "load_from_file_with_mem",
                                  "load_from_mem"])
def test_ctrl_c_anywhere_in_a_load_comes_when_it_is_whole(acl, tmp_path, digits_om, call):
    """A Ctrl-C at any point of a load arrives once the load is whole: before it began
    (nothing changed) or after it ended (the model loaded, counted, and unloadable)."""
    path = tmp_path / "digits.om"
    path.write_bytes(digits_om)
    work, weight, _ = acl.mdl.query_size(str(path))
    w_ptr, _ = acl.rt.malloc(work, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(len(digits_om))
    src = np.frombuffer(digits_om, np.uint8).copy()
    assert acl.rt.memcpy(host, len(digits_om), acl.util.numpy_to_ptr(src), src.size,
                         C.ACL_MEMCPY_HOST_TO_HOST) == 0
    args = {"load_from_file": (str(path),),
            "load_from_file_with_mem": (str(path), w_ptr, work, 0, 0),
            "load_from_mem": (host, len(digits_om))}[call]
    load = getattr(acl.mdl, call)
    counter = _Interrupt()
    sys.settrace(counter)
    try:
        model_id, ret = load(*args)
    finally:
        sys.settrace(None)
    assert ret == 0 and acl.mdl.unload(model_id) == 0
    before = _state()
    for at in _points(counter.calls):
        sys.settrace(_Interrupt(at))
        try:
            model_id, ret = load(*args)
        except KeyboardInterrupt:
            sys.settrace(None)
            loaded = [m["model_id"] for m in acl_lab.snapshot()["offline_models"]]
            if loaded:             # it came as the load returned: the model is whole
                assert len(loaded) == 1, f"interrupted at call {at}"
                assert acl.mdl.unload(loaded[0]) == 0
            assert _state() == before, f"interrupted at call {at}"
            continue
        finally:
            sys.settrace(None)
        assert ret == 0, acl.get_recent_err_msg()   # a later load makes fewer calls
        assert acl.mdl.unload(model_id) == 0
        assert _state() == before
    _still_works(acl, tmp_path, digits_om)
