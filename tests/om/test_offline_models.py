"""Offline inference (seed 001, chapter 08): `acl-lab atc`, the aclmdl* model API, data
buffers and datasets, model memory managed by ACL or by the application, sync and async
execution. One test per rule and code (codes as hicann/ge model.cpp / davinci_model.cc and
hicann/runtime data_buffer.cpp)."""
from __future__ import annotations

import io

import numpy as np
import pytest
from onnx import TensorProto, helper

import acl_lab
from acl_lab import cli, sample_models
from acl_lab.om import atc
from acl_lab.om import container as om
from acl_lab import constants as C
from acl_lab.align import align_up
from modelhelpers import Loaded, convert, dataset, reference
from simhelpers import device_buffer


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    paths = {}
    for name in sample_models.BUILDERS:
        code, out, path = convert(folder, name)
        assert code == 0, out
        paths[name] = path
    return paths


def _atc(*args) -> tuple[int, str]:
    out = io.StringIO()
    return atc.main(list(args), out=out), out.getvalue()


# ----- acl-lab atc --------------------------------------------------------------------------
def test_atc_writes_an_om_with_the_graphs_description_and_sizes(tmp_path):
    code, out, path = convert(tmp_path, "digits")
    assert (code, out.strip()) == (0, atc.SUCCESS)
    m = om.read(path)
    assert [(t.name, t.dims, t.dtype, t.fmt) for t in m.inputs] == [
        ("image", (1, 1, 28, 28), C.ACL_FLOAT, C.ACL_FORMAT_NCHW)]
    assert [(t.name, t.dims, t.dtype, t.fmt) for t in m.outputs] == [
        ("prob", (1, 10), C.ACL_FLOAT, C.ACL_FORMAT_ND)]
    assert m.inputs[0].size == 28 * 28 * 4
    def placed(n):      # GE's 512-byte placement
        return align_up(n, om.MEM_ALIGN)
    assert m.weight_size == placed(784 * 10 * 4) + placed(10 * 4)   # W and b
    assert m.work_size == placed(784 * 4) + 2 * placed(10 * 4)       # flat, scores, logits


def test_atc_input_fp16_nodes_and_output_type_change_the_buffers(tmp_path):
    code, out, path = convert(tmp_path, "convnet", "--input_fp16_nodes=data",
                              "--output_type=FP16")
    assert code == 0, out
    m = om.read(path)
    assert (m.inputs[0].dtype, m.inputs[0].size) == (C.ACL_FLOAT16, 3 * 224 * 224 * 2)
    assert (m.outputs[0].dtype, m.outputs[0].size) == (C.ACL_FLOAT16, 1000 * 2)


def test_acl_lab_cli_runs_atc(tmp_path, monkeypatch, capsys):
    sample_models.write("digits", tmp_path)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["atc", "--model=digits.onnx", "--framework=5", "--output=out/digits",
                     "--soc_version=Ascend310"]) == 0
    assert capsys.readouterr().out.strip() == atc.SUCCESS
    assert om.read(tmp_path / "out" / "digits.om").soc_version == "Ascend310"


@pytest.mark.parametrize("args, expected", [
    (["--framework=5", "--output=x", "--soc_version=Ascend910B3"],
     "E10004: Value for parameter [--model] is empty"),
    (["--model=m.onnx", "--framework=7", "--output=x", "--soc_version=Ascend910B3"],
     "E10001: Value [7] for parameter [--framework] is invalid"),
    (["--model=m.onnx", "--framework=0", "--output=x", "--soc_version=Ascend910B3"],
     "the Caffe parser is not part of acl_lab"),
    (["--model=m.onnx", "--framework=5", "--output=x", "--soc_version=Ascend999"],
     "E10001: Value [Ascend999] for parameter [--soc_version] is invalid"),
    (["--model=missing.onnx", "--framework=5", "--output=x", "--soc_version=Ascend910B3"],
     "E10001: Value [missing.onnx] for parameter [--model] is invalid"),
    (["--model=m.onnx", "--framework=5", "--output=x", "--soc_version=Ascend910B3",
      "--input_format=NCDHW"], "parameter [--input_format] is invalid"),
    (["--model=m.onnx", "--framework=5", "--output=x", "--soc_version=Ascend910B3",
      "--frobnicate=1"], "E10016: unrecognized arguments: --frobnicate=1"),
])
def test_atc_refuses_bad_flags_as_atc_does(tmp_path, monkeypatch, args, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.onnx").write_bytes(sample_models.model("digits").SerializeToString())
    code, out = _atc(*args)
    assert code == 1
    assert expected in out
    assert out.strip().endswith(atc.FAILED)
    assert not (tmp_path / "x.om").exists()


def test_atc_speaks_the_learners_language_and_keeps_atcs_own_lines(tmp_path, monkeypatch):
    """ACL_LAB_LANG=zh_CN: the E-coded line keeps its code and brackets, its words are
    Chinese; "ATC run failed" stays ATC's own words, which scripts look for."""
    monkeypatch.chdir(tmp_path)
    acl_lab.set_language("zh_CN")
    try:
        code, out = _atc("--model=missing.onnx", "--framework=5", "--output=x",
                         "--soc_version=Ascend910B3")
    finally:
        acl_lab.set_language("en")
    assert code == 1
    assert "E10001: 参数[--model]的取值[missing.onnx]无效。原因：文件不存在或无法读取。" in out
    assert out.strip().endswith(atc.FAILED)


def _onnx(tmp_path, op: str, shape) -> str:
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / f"{op}.onnx"
    path.write_bytes(model.SerializeToString())
    return str(path)


def test_atc_refuses_an_operator_it_has_no_parser_for(tmp_path):
    # Gelu (opset 20) is not in CANN 8.0.0's ONNX operator list (om/onnx_ops.py)
    code, out = _atc(f"--model={_onnx(tmp_path, 'Gelu', [1, 4])}", "--framework=5",
                     f"--output={tmp_path / 'gelu'}", "--soc_version=Ascend910B3")
    assert code == 1
    assert "E19010: No parser is registered for Op [y, optype [Gelu]]." in out


def test_atc_needs_static_shapes_and_input_shape_fixes_them(tmp_path):
    model = _onnx(tmp_path, "Relu", ["batch", 4])
    code, out = _atc(f"--model={model}", "--framework=5", f"--output={tmp_path / 'r'}",
                     "--soc_version=Ascend910B3")
    assert code == 1 and "dynamic shape" in out and "--input_shape" in out
    code, out = _atc(f"--model={model}", "--framework=5", f"--output={tmp_path / 'r'}",
                     "--soc_version=Ascend910B3", "--input_shape=x:2,4")
    assert code == 0, out
    assert om.read(tmp_path / "r.om").inputs[0].dims == (2, 4)


def test_atc_refuses_a_file_that_is_not_onnx(tmp_path):
    (tmp_path / "junk.onnx").write_bytes(b"\x08\x07not a model at all")
    code, out = _atc(f"--model={tmp_path / 'junk.onnx'}", "--framework=5",
                     f"--output={tmp_path / 'j'}", "--soc_version=Ascend910B3")
    assert code == 1 and "not a valid ONNX model" in out


# ----- loading ------------------------------------------------------------------------------
def test_load_from_file_of_a_missing_file_is_model_path_invalid(acl, tmp_path):
    assert acl.mdl.load_from_file(str(tmp_path / "nope.om")) == (
        0, C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID)
    assert "does not exist" in acl.get_recent_err_msg()


def test_load_from_file_of_an_onnx_file_is_not_an_om(acl, tmp_path):
    path = sample_models.write("digits", tmp_path)
    assert acl.mdl.load_from_file(str(path)) == (0, C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)
    assert "convert it with `acl-lab atc`" in acl.get_recent_err_msg()


def test_load_needs_a_current_context(bare_acl, models):
    assert bare_acl.init() == 0
    assert bare_acl.mdl.load_from_file(str(models["digits"])) == (0, C.ACL_ERROR_RT_CONTEXT_NULL)


def test_a_model_built_for_another_soc_does_not_load(acl, tmp_path):
    _, _, path = convert(tmp_path, "digits", soc="Ascend310")
    assert acl.mdl.load_from_file(str(path)) == (0, C.ACL_ERROR_GE_LOAD_MODEL)
    assert "--soc_version=Ascend910B3" in acl.get_recent_err_msg()


def test_load_from_mem_reads_the_om_bytes_at_a_pointer(acl, models):
    data = models["digits"].read_bytes()
    ptr = acl.util.bytes_to_ptr(data)
    work, weight, ret = acl.mdl.query_size_from_mem(ptr, len(data))
    assert (work, weight, ret) == (om.parse(data).work_size, om.parse(data).weight_size, 0)
    model_id, ret = acl.mdl.load_from_mem(ptr, len(data))
    assert ret == 0 and model_id > 0
    assert acl.mdl.load_from_mem(0, len(data)) == (0, C.ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID)
    assert acl.mdl.load_from_mem(ptr, 0) == (0, C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)
    assert acl.mdl.load_from_mem(ptr, 10) == (0, C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)


def test_query_size_reports_what_the_model_needs(acl, models):
    m = om.read(models["convnet"])
    assert acl.mdl.query_size(str(models["convnet"])) == (m.work_size, m.weight_size, 0)
    assert acl.mdl.query_size("missing.om") == (0, 0, C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID)


def test_model_path_must_be_a_str(acl):
    with pytest.raises(TypeError):
        acl.mdl.load_from_file(42)


# ----- model memory: ACL-managed vs application-managed ------------------------------------
def _hbm_free(acl) -> int:
    free, _, ret = acl.rt.get_mem_info(C.ACL_HBM_MEM)
    assert ret == 0
    return free


def _model_allocations():
    return [a for a in acl_lab.snapshot()["allocations"] if a["api"].startswith("model_")]


def test_acl_managed_model_memory_is_counted_once_and_freed_at_unload(acl, models):
    before = _hbm_free(acl)
    m = om.read(models["convnet"])
    model_id, ret = acl.mdl.load_from_file(str(models["convnet"]))
    assert ret == 0
    allocs = _model_allocations()
    assert sorted((a["api"], a["size"]) for a in allocs) == [
        ("model_weight", m.weight_size), ("model_work", m.work_size)]
    assert before - _hbm_free(acl) == sum(a["occupied"] for a in allocs)
    [entry] = acl_lab.snapshot()["offline_models"]
    assert entry["memory"] == "acl" and entry["model_id"] == model_id
    assert acl.mdl.unload(model_id) == 0
    assert _model_allocations() == [] and _hbm_free(acl) == before
    assert acl_lab.snapshot()["offline_models"] == []


def test_app_managed_model_memory_is_used_not_duplicated_and_stays_the_apps(acl, models):
    path = str(models["convnet"])
    work_size, weight_size, ret = acl.mdl.query_size(path)
    work, weight = device_buffer(acl, work_size), device_buffer(acl, weight_size)
    before = _hbm_free(acl)
    model_id, ret = acl.mdl.load_from_file_with_mem(path, work, work_size, weight, weight_size)
    assert ret == 0
    assert _hbm_free(acl) == before and _model_allocations() == []
    [entry] = acl_lab.snapshot()["offline_models"]
    assert (entry["memory"], entry["work_ptr"], entry["weight_ptr"]) == ("app", work, weight)
    assert acl.mdl.unload(model_id) == 0
    assert _hbm_free(acl) == before                 # unload leaves the app's memory alone
    assert acl.rt.free(work) == 0 and acl.rt.free(weight) == 0


def test_load_from_mem_with_mem_uses_the_apps_memory_for_a_model_in_memory(acl, models):
    """aclmdlLoadFromMemWithMem: the om bytes at a pointer, work and weight memory the app
    allocated (sizes from aclmdlQuerySizeFromMem)."""
    data = models["convnet"].read_bytes()
    ptr = acl.util.bytes_to_ptr(data)
    work_size, weight_size, ret = acl.mdl.query_size_from_mem(ptr, len(data))
    assert ret == 0
    work, weight = device_buffer(acl, work_size), device_buffer(acl, weight_size)
    before = _hbm_free(acl)
    assert acl.mdl.load_from_mem_with_mem(0, len(data), work, work_size, weight,
                                          weight_size) == (
        0, C.ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID)
    assert acl.mdl.load_from_mem_with_mem(ptr, len(data), work, work_size - 1, weight,
                                          weight_size) == (0, C.ACL_ERROR_GE_PARAM_INVALID)
    assert acl_lab.snapshot()["offline_models"] == []
    model_id, ret = acl.mdl.load_from_mem_with_mem(ptr, len(data), work, work_size, weight,
                                                   weight_size)
    assert ret == 0 and model_id > 0
    assert _hbm_free(acl) == before and _model_allocations() == []
    [entry] = acl_lab.snapshot()["offline_models"]
    assert (entry["memory"], entry["work_ptr"], entry["weight_ptr"]) == ("app", work, weight)
    assert acl.mdl.unload(model_id) == 0
    assert acl.rt.free(work) == 0 and acl.rt.free(weight) == 0


def test_a_null_part_is_allocated_by_acl_and_freed_at_unload(acl, models):
    path = str(models["digits"])
    work_size, weight_size, _ = acl.mdl.query_size(path)
    weight = device_buffer(acl, weight_size)
    model_id, ret = acl.mdl.load_from_file_with_mem(path, 0, 0, weight, weight_size)
    assert ret == 0
    assert [a["api"] for a in _model_allocations()] == ["model_work"]
    assert acl_lab.snapshot()["offline_models"][0]["memory"] == "mixed"
    assert acl.mdl.unload(model_id) == 0 and _model_allocations() == []


@pytest.mark.parametrize("shrink", ["work", "weight"])
def test_model_memory_smaller_than_query_size_is_param_invalid(acl, models, shrink):
    path = str(models["convnet"])
    work_size, weight_size, _ = acl.mdl.query_size(path)
    work, weight = device_buffer(acl, work_size), device_buffer(acl, weight_size)
    sizes = {"work": work_size, "weight": weight_size}
    sizes[shrink] -= 1
    assert acl.mdl.load_from_file_with_mem(path, work, sizes["work"], weight, sizes["weight"]) \
        == (0, C.ACL_ERROR_GE_PARAM_INVALID)
    assert f"{shrink}Size is" in acl.get_recent_err_msg()
    assert acl_lab.snapshot()["offline_models"] == []


def test_model_memory_must_be_device_memory(acl, models):
    path = str(models["digits"])
    work_size, weight_size, _ = acl.mdl.query_size(path)
    host, _ = acl.rt.malloc_host(work_size)
    weight = device_buffer(acl, weight_size)
    assert acl.mdl.load_from_file_with_mem(path, host, work_size, weight, weight_size) == (
        0, C.ACL_ERROR_GE_PARAM_INVALID)
    assert "host memory" in acl.get_recent_err_msg()


def test_acl_owned_model_memory_cannot_be_freed_by_the_app(acl, models):
    model_id, _ = acl.mdl.load_from_file(str(models["digits"]))
    work = acl_lab.snapshot()["offline_models"][0]["work_ptr"]
    assert acl.rt.free(work) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "aclmdlUnload" in acl.get_recent_err_msg()
    assert len(_model_allocations()) == 2


def test_executing_after_the_app_freed_model_memory_fails_and_runs_nothing(acl, models):
    path = str(models["digits"])
    work_size, weight_size, _ = acl.mdl.query_size(path)
    work, weight = device_buffer(acl, work_size), device_buffer(acl, weight_size)
    model_id, _ = acl.mdl.load_from_file_with_mem(path, work, work_size, weight, weight_size)
    out = device_buffer(acl, 40)
    before = _read(acl, out, 40)
    inp = device_buffer(acl, 3136)
    assert acl.rt.free(work) == 0
    assert acl.mdl.execute(model_id, dataset(acl, (inp, 3136)), dataset(acl, (out, 40))) == \
        C.ACL_ERROR_RT_MODEL_EXECUTE
    assert "freed while the model is loaded" in acl.get_recent_err_msg()
    assert _read(acl, out, 40) == before


def test_reset_device_unloads_forgotten_models_and_says_so(acl, models, capsys):
    acl.mdl.load_from_file(str(models["digits"]))
    assert acl.rt.reset_device(0) == 0
    assert "never unloaded" in capsys.readouterr().err
    assert _model_allocations() == [] and acl_lab.snapshot()["offline_models"] == []


def _read(acl, ptr, n) -> bytes:
    host = np.empty(n, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), n, ptr, n,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host.tobytes()


# ----- unload and model IDs ---------------------------------------------------------------
def test_unloading_twice_or_an_unknown_model_is_model_id_invalid(acl, models):
    model_id, _ = acl.mdl.load_from_file(str(models["digits"]))
    assert acl.mdl.unload(model_id) == 0
    assert acl.mdl.unload(model_id) == C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID
    assert "already unloaded" in acl.get_recent_err_msg()
    assert acl.mdl.unload(999) == C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID
    assert "never loaded" in acl.get_recent_err_msg()


def test_model_ids_count_up_from_1(acl, models):
    ids = [acl.mdl.load_from_file(str(models["digits"]))[0] for _ in range(3)]
    assert ids == [1, 2, 3]


# ----- the model description -------------------------------------------------------------
def test_the_description_reports_what_atc_wrote(acl, models):
    m = Loaded(acl, models["digits"])
    d = m.desc
    assert (acl.mdl.get_num_inputs(d), acl.mdl.get_num_outputs(d)) == (1, 1)
    assert acl.mdl.get_input_dims(d, 0) == ({"name": "image", "dimCount": 4,
                                             "dims": [1, 1, 28, 28]}, 0)
    assert acl.mdl.get_output_dims(d, 0) == ({"name": "prob", "dimCount": 2, "dims": [1, 10]}, 0)
    assert acl.mdl.get_cur_output_dims(d, 0) == acl.mdl.get_output_dims(d, 0)
    assert (acl.mdl.get_input_size_by_index(d, 0), acl.mdl.get_output_size_by_index(d, 0)) == \
        (3136, 40)
    assert (acl.mdl.get_input_data_type(d, 0), acl.mdl.get_output_data_type(d, 0)) == \
        (C.ACL_FLOAT, C.ACL_FLOAT)
    assert (acl.mdl.get_input_format(d, 0), acl.mdl.get_output_format(d, 0)) == \
        (C.ACL_FORMAT_NCHW, C.ACL_FORMAT_ND)
    assert (acl.mdl.get_input_name_by_index(d, 0), acl.mdl.get_output_name_by_index(d, 0)) == \
        ("image", "prob")
    assert acl.mdl.get_input_index_by_name(d, "image") == (0, 0)
    assert acl.mdl.get_output_index_by_name(d, "nope") == (0, C.ACL_ERROR_INVALID_PARAM)


def test_an_index_out_of_range_gives_the_empty_answer_and_says_why(acl, models):
    d = Loaded(acl, models["digits"]).desc
    assert acl.mdl.get_input_size_by_index(d, 1) == 0
    assert "out of range" in acl.get_recent_err_msg()
    assert acl.mdl.get_input_dims(d, 5) == ({}, C.ACL_ERROR_INVALID_PARAM)
    assert acl.mdl.get_output_data_type(d, 1) == C.ACL_DT_UNDEFINED
    assert acl.mdl.get_output_format(d, 1) == C.ACL_FORMAT_UNDEFINED
    assert acl.mdl.get_output_name_by_index(d, 1) == ""


def test_an_empty_or_destroyed_desc_answers_nothing(acl, models):
    d = acl.mdl.create_desc()
    assert d != 0
    assert acl.mdl.get_num_inputs(d) == 0
    assert "acl.mdl.get_desc" in acl.get_recent_err_msg()
    assert acl.mdl.get_desc(d, 77) == C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID
    assert acl.mdl.destroy_desc(d) == 0
    assert acl.mdl.destroy_desc(d) == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.get_desc(0, 1) == C.ACL_ERROR_INVALID_PARAM


# ----- data buffers and datasets -----------------------------------------------------------
def test_data_buffers_keep_any_address_and_size(acl):
    b = acl.create_data_buffer(0x1234, 5 << 32 | 7)
    assert b != 0
    assert acl.get_data_buffer_addr(b) == 0x1234
    assert acl.get_data_buffer_size_v2(b) == 5 << 32 | 7
    assert acl.get_data_buffer_size(b) == 7               # the uint32 cast of the old call
    assert acl.update_data_buffer(b, 0x40, 64) == 0
    assert (acl.get_data_buffer_addr(b), acl.get_data_buffer_size_v2(b)) == (0x40, 64)
    assert acl.create_data_buffer(0, 0) != 0              # ACL accepts an empty buffer
    assert acl.destroy_data_buffer(b) == 0
    assert acl.destroy_data_buffer(b) == C.ACL_ERROR_INVALID_PARAM
    assert acl.destroy_data_buffer(0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.get_data_buffer_addr(b) == 0 and acl.get_data_buffer_size_v2(0) == 0


def test_datasets_hold_buffers_in_order(acl):
    ds = acl.mdl.create_dataset()
    bufs = [acl.create_data_buffer(0x1000 * i, i) for i in range(1, 4)]
    for b in bufs:
        assert acl.mdl.add_dataset_buffer(ds, b) == (ds, 0)
    assert acl.mdl.get_dataset_num_buffers(ds) == 3
    assert [acl.mdl.get_dataset_buffer(ds, i) for i in range(3)] == bufs
    assert acl.mdl.get_dataset_buffer(ds, 3) == 0
    assert acl.mdl.add_dataset_buffer(ds, 0) == (0, C.ACL_ERROR_INVALID_PARAM)
    assert acl.mdl.add_dataset_buffer(0, bufs[0]) == (0, C.ACL_ERROR_INVALID_PARAM)
    assert acl.mdl.destroy_dataset(ds) == 0
    assert acl.get_data_buffer_addr(bufs[0]) == 0x1000     # buffers outlive their dataset
    assert acl.mdl.destroy_dataset(ds) == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.get_dataset_num_buffers(ds) == 0


@pytest.mark.parametrize("dt, size", [
    (C.ACL_FLOAT, 4), (C.ACL_FLOAT16, 2), (C.ACL_BF16, 2), (C.ACL_INT8, 1), (C.ACL_BOOL, 1),
    (C.ACL_INT64, 8), (C.ACL_DOUBLE, 8), (C.ACL_COMPLEX128, 16), (C.ACL_STRING, 0),
    (C.ACL_DT_UNDEFINED, 0), (12345, 8)])
def test_data_type_size_follows_the_runtimes_table(acl, dt, size):
    assert acl.data_type_size(dt) == size


def test_fp16_helpers_convert_as_ieee_half(acl):
    assert acl.float_to_float16(1.0) == 0x3C00
    assert acl.float16_to_float(0xC000) == -2.0
    assert acl.float16_to_float(acl.float_to_float16(0.1)) == float(np.float16(0.1))


def test_get_version_is_major_minor_patch_ret(acl):
    major, minor, patch, ret = acl.get_version()
    assert ret == 0 and (major, minor) >= (1, 0)


# ----- execution -------------------------------------------------------------------------
def test_execute_computes_what_the_onnx_model_computes(acl, models):
    m = Loaded(acl, models["digits"])
    for digit in (0, 3, 8):
        x = sample_models.digit_image(digit, noise=0.3, seed=digit)
        m.feed(x)
        assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
        got = m.result()
        np.testing.assert_array_equal(got, reference("digits", x))
        assert got.argmax() == digit


def test_a_dataset_with_the_wrong_number_of_buffers_fails(acl, models):
    m = Loaded(acl, models["digits"])
    two = dataset(acl, (m.inputs[0], 3136), (m.inputs[0], 3136))
    assert acl.mdl.execute(m.model_id, two, m.out_ds) == C.ACL_ERROR_GE_FAILURE
    assert "holds 2 buffer(s), but the model has 1 input(s)" in acl.get_recent_err_msg()
    assert acl.mdl.execute(m.model_id, m.in_ds, acl.mdl.create_dataset()) == \
        C.ACL_ERROR_GE_FAILURE


def test_a_buffer_smaller_than_the_model_input_is_param_invalid(acl, models):
    m = Loaded(acl, models["digits"])
    slack = dataset(acl, (m.inputs[0], 3136 - 64))           # within GE's 64-byte slack
    assert acl.mdl.execute(m.model_id, slack, m.out_ds) == 0
    small = dataset(acl, (m.inputs[0], 3136 - 65))
    assert acl.mdl.execute(m.model_id, small, m.out_ds) == C.ACL_ERROR_GE_PARAM_INVALID
    assert "get_input_size_by_index" in acl.get_recent_err_msg()


def test_host_memory_where_device_memory_is_needed_is_param_invalid(acl, models):
    m = Loaded(acl, models["digits"])
    host, _ = acl.rt.malloc_host(3136)
    assert acl.mdl.execute(m.model_id, dataset(acl, (host, 3136)), m.out_ds) == \
        C.ACL_ERROR_GE_PARAM_INVALID
    assert "acl.rt.memcpy" in acl.get_recent_err_msg()
    array = np.zeros(3136, np.uint8)
    numpy_ds = dataset(acl, (acl.util.numpy_to_ptr(array), 3136))
    assert acl.mdl.execute(m.model_id, numpy_ds, m.out_ds) == C.ACL_ERROR_GE_PARAM_INVALID


def test_executing_an_unloaded_model_is_model_id_invalid(acl, models):
    m = Loaded(acl, models["digits"])
    assert acl.mdl.unload(m.model_id) == 0
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID
    assert acl.mdl.execute_async(m.model_id, m.in_ds, m.out_ds, 0) == \
        C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID


def test_null_or_destroyed_datasets_are_invalid_param(acl, models):
    m = Loaded(acl, models["digits"])
    assert acl.mdl.execute(m.model_id, 0, m.out_ds) == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.destroy_dataset(m.in_ds) == 0
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == C.ACL_ERROR_INVALID_PARAM


def test_a_null_output_of_a_synchronous_execution_is_allocated_by_acl(acl, models):
    m = Loaded(acl, models["digits"])
    m.feed(sample_models.digit_image(4))
    buf = acl.create_data_buffer(0, 0)
    out = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(out, buf)
    assert acl.mdl.execute(m.model_id, m.in_ds, out) == 0
    ptr = acl.get_data_buffer_addr(buf)
    assert ptr != 0 and acl.get_data_buffer_size_v2(buf) == 40
    assert np.frombuffer(_read(acl, ptr, 40), np.float32).argmax() == 4
    assert acl.rt.free(ptr) == 0                              # the app frees it
    assert acl.mdl.execute_async(m.model_id, m.in_ds, dataset(acl, (0, 0)), 0) == \
        C.ACL_ERROR_GE_PARAM_INVALID                          # async: no allocation


def test_execute_async_runs_in_stream_order_and_only_when_waited_for(acl, models):
    m = Loaded(acl, models["digits"])
    stream, _ = acl.rt.create_stream()
    x = sample_models.digit_image(6)
    stale = _read(acl, m.outputs[0], 40)
    host, _ = acl.rt.malloc_host(3136)
    acl.util.ptr_to_numpy(host, (3136,), np.dtype(np.uint8).num)[:] = x.view(np.uint8).ravel()
    assert acl.rt.memcpy_async(m.inputs[0], 3136, host, 3136, C.ACL_MEMCPY_HOST_TO_DEVICE,
                               stream) == 0
    assert acl.mdl.execute_async(m.model_id, m.in_ds, m.out_ds, stream) == 0
    assert _read(acl, m.outputs[0], 40) == stale          # forgot to synchronize: old bytes
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(m.result(), reference("digits", x))


def test_unload_waits_for_queued_executions(acl, models):
    m = Loaded(acl, models["digits"])
    m.feed(sample_models.digit_image(2))
    stream, _ = acl.rt.create_stream()
    assert acl.mdl.execute_async(m.model_id, m.in_ds, m.out_ds, stream) == 0
    assert acl.mdl.unload(m.model_id) == 0
    assert m.result().argmax() == 2


def test_the_snapshot_counts_executions(acl, models):
    m = Loaded(acl, models["digits"])
    for _ in range(3):
        acl.mdl.execute(m.model_id, m.in_ds, m.out_ds)
    assert acl_lab.snapshot()["offline_models"][0]["executions"] == 3


def test_a_refused_synchronous_execution_changes_nothing(acl, models):
    """Under a GLOBAL capture aclmdlExecute is a synchronous call: refused (107030) before
    anything happens — no output allocated, no execution counted."""
    m = Loaded(acl, models["digits"])
    buf = acl.create_data_buffer(0, 0)
    out = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(out, buf)
    stream, _ = acl.rt.create_stream()
    before = acl_lab.snapshot()["allocations"]
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.mdl.execute(m.model_id, m.in_ds, out) == C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert acl.get_data_buffer_addr(buf) == 0
    assert acl_lab.snapshot()["allocations"] == before
    assert acl_lab.snapshot()["offline_models"][0]["executions"] == 0
    acl.mdl.ri_capture_end(stream)
