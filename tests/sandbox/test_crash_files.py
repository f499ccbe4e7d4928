"""The sandbox promise for files (fourth probe): every file the kit reads is bounded and
typed, and it reads no file the learner did not name.

Each case runs in its own Python process (the crash suite's harness: 512 MiB budget, RSS
watchdog, here a 60 s timeout) in a fresh folder: a FIFO, /dev/zero, a 3 GiB file, a
symlink out of its folder, JSON nested past recursion, as an operator-model folder, the
progress file and its lock, an offline model, atc's inputs; and ONNX external data (a
Constant's value) at atc and at load, with onnxruntime and with onnx's reference
evaluator. Each ends in the call's code (or an empty progress store said once), never a
hang, a kill, a traceback or a byte of a file nobody named.
"""
from __future__ import annotations

import textwrap

import pytest

from test_crash_suite import _check, _run

FILES = """
import os, io, json, contextlib
WORK = os.getcwd()
def sparse(path, size):
    with open(path, "wb") as f:
        f.truncate(size)
"""

OPDIR = FILES + """
from acl_lab.om.op_model import OpModel, TensorSpec
ops = os.path.join(WORK, "ops")
os.makedirs(ops)
spec = TensorSpec(C.ACL_FLOAT, C.ACL_FORMAT_ND, (4,))
open(os.path.join(ops, "0_Add.om"), "wb").write(OpModel("Add", (spec, spec), (spec,), ()).to_bytes())

def set_dir_and_run():
    ret = acl.op.set_model_dir(ops)
    assert ret == 0, (ret, acl.get_recent_err_msg())
    d = acl.create_tensor_desc(C.ACL_FLOAT, [4], C.ACL_FORMAT_ND)
    buf, _ = acl.rt.malloc(16, 0)
    db = acl.create_data_buffer(buf, 16)
    assert acl.op.execute_v2("Add", [d, d], [db, db], [d], [db], 0, stream) == 0, \\
        acl.get_recent_err_msg()
    assert acl.op.execute_v2("Mul", [d, d], [db, db], [d], [db], 0, stream) == \\
        C.ACL_ERROR_OP_NOT_FOUND
    return acl.get_recent_err_msg()
"""

STORE = FILES + """
from acl_lab import exercises
from acl_lab.exercises import quiz
home = os.environ["ACL_LAB_HOME"]
os.makedirs(home)
progress = os.path.join(home, "progress.json")

def passes_and_warnings():
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        first, second = exercises.passed(), exercises.passed()
    assert first == second == [], first
    return err.getvalue()
"""

ATC = FILES + """
from acl_lab import sample_models
from acl_lab.om.atc import main as atc
digits = str(sample_models.write("digits", WORK))

def run_atc(*flags):
    out = io.StringIO()
    return atc(list(flags), out=out), out.getvalue()
"""

ONNX = FILES + """
import onnx
from onnx import helper, TensorProto
from acl_lab.om import graph as og
from acl_lab.om.container import OfflineModel, TensorDesc
with open(os.path.join(WORK, "secret.bin"), "wb") as f:
    f.write(b"SECRETSECRETSECR")

def constant(location=None):
    if location is None:
        value = helper.make_tensor("c", TensorProto.FLOAT, [4], [0.0] * 4)
    else:
        value = TensorProto(name="c", data_type=TensorProto.FLOAT, dims=[4],
                            data_location=TensorProto.EXTERNAL)
        for key, v in (("location", location), ("length", "16")):
            entry = value.external_data.add()
            entry.key, entry.value = key, v
    nodes = [helper.make_node("Constant", [], ["c"], value=value),
             helper.make_node("Add", ["x", "c"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", 1, [4])],
                          [helper.make_tensor_value_info("y", 1, [4])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m

def hand_made_om(location):
    \"\"\"An .om whose header is right for the graph, whose Constant reads `location`.\"\"\"
    facts = og.inspect(constant())
    io_ = lambda name: (TensorDesc(name, (4,), C.ACL_FLOAT, C.ACL_FORMAT_ND, C.ACL_FLOAT),)
    return OfflineModel("Ascend910B", io_("x"), io_("y"), facts.work_size, facts.weight_size,
                        constant(location).SerializeToString(), facts.nodes).to_bytes()
"""
NO_ONNXRUNTIME = "import sys\nsys.modules['onnxruntime'] = None   # onnx's reference evaluator\n"

CASES = {
    # --- acl.op.set_model_dir: ListFiles lists regular files and folders only -------------
    "opdir_fifo": ("ok", OPDIR, """
        os.mkfifo(os.path.join(ops, "1_pipe.om"))
        set_dir_and_run()
        outcome("ok")
    """),
    "opdir_dev_zero_symlink": ("ok", OPDIR, """
        os.symlink("/dev/zero", os.path.join(ops, "1_zero.om"))
        set_dir_and_run()
        outcome("ok")
    """),
    "opdir_3GiB_files": ("ok", OPDIR, """
        sparse(os.path.join(ops, "1_big.om"), 3 * GiB)
        with open(os.path.join(ops, "2_big.om"), "wb") as f:
            f.write(b"ACLLABSO")
            f.truncate(3 * GiB)
        ret = acl.op.set_model_dir(ops)
        # ReadBytesFromBinaryFile keeps the length in an int32: the call fails, as ACL's
        assert ret == C.ACL_ERROR_READ_MODEL_FAILURE, ret
        assert "1_big.om" in acl.get_recent_err_msg()
        os.remove(os.path.join(ops, "1_big.om"))
        sparse(os.path.join(ops, "1_big.om"), 200 * MiB)
        os.remove(os.path.join(ops, "2_big.om"))
        with open(os.path.join(ops, "2_big.om"), "wb") as f:
            f.write(b"ACLLABSO")
            f.truncate(200 * MiB)
        assert "2_big.om" in set_dir_and_run()       # skipped, and said so
        outcome("ok")
    """),
    "opdir_unparsable_models": ("ok", OPDIR, """
        for i, data in enumerate([b"ACLLABSO{not json", b'ACLLABSO{"op": 1}',
                                  b"ACLLABSO" + b"[" * 100000 + b"]" * 100000,
                                  b'ACLLABSO{"op": "Add", "inputs": [{"dtype": 0, "format": 2, '
                                  b'"dims": ["4"], "const": null}], "outputs": [], "attrs": []}']):
            open(os.path.join(ops, f"{i + 1}_bad.om"), "wb").write(data)
        assert "skipped 4 .om file(s)" in set_dir_and_run()
        outcome("ok")
    """),
    "opdir_links_loops_and_depth": ("ok", OPDIR, """
        outside = os.path.join(WORK, "outside")
        os.makedirs(outside)
        open(os.path.join(outside, "9_Mul.om"), "wb").write(
            OpModel("Mul", (spec, spec), (spec,), ()).to_bytes())
        os.symlink(outside, os.path.join(ops, "link"))       # never followed
        os.symlink(ops, os.path.join(ops, "loop"))
        deep = os.path.join(ops, "a", "b", "c")              # three folders down: too deep
        os.makedirs(deep)
        open(os.path.join(deep, "9_Mul.om"), "wb").write(
            OpModel("Mul", (spec, spec), (spec,), ()).to_bytes())
        set_dir_and_run()                                     # Mul is not found
        outcome("ok")
    """),
    "opdir_root_is_not_walked": ("refused", "", """
        import time
        t0 = time.monotonic()
        ret = acl.op.set_model_dir("/")
        assert ret in (0, C.ACL_ERROR_READ_MODEL_FAILURE), ret
        assert time.monotonic() - t0 < 20
        outcome("refused")
    """),
    # --- progress.json and its lock ----------------------------------------------------
    "progress_fifo": ("ok", STORE, """
        os.mkfifo(progress)
        assert passes_and_warnings().count("cannot be read") == 1
        quiz.record_exercise("00.1")                  # replaces it
        assert exercises.passed() == ["00.1"]
        outcome("ok")
    """),
    "progress_dev_zero": ("ok", STORE, """
        os.symlink("/dev/zero", progress)
        assert "cannot be read" in passes_and_warnings()
        outcome("ok")
    """),
    "progress_3GiB": ("ok", STORE, """
        sparse(progress, 3 * GiB)
        assert "cannot be read" in passes_and_warnings()
        outcome("ok")
    """),
    "progress_nested_json": ("ok", STORE, """
        open(progress, "w").write("[" * 100000 + "]" * 100000)
        assert "nested too deeply" in passes_and_warnings()
        outcome("ok")
    """),
    "progress_symlink_out_of_home": ("ok", STORE, """
        other = os.path.join(WORK, "elsewhere.json")
        open(other, "w").write(json.dumps({"format": 1, "exercises": ["02.1"],
                                           "questions": []}))
        os.symlink(other, progress)
        assert "outside" in passes_and_warnings()
        outcome("ok")
    """),
    "progress_lock_fifo_or_device": ("ok", STORE, """
        lock = os.path.join(home, ".progress.lock")
        os.mkfifo(lock)
        quiz.record_exercise("00.1")
        os.remove(lock)
        os.symlink("/dev/zero", lock)
        quiz.record_exercise("01.1")
        assert exercises.passed() == ["00.1", "01.1"]
        outcome("ok")
    """),
    # --- offline models ------------------------------------------------------------------
    "om_fifo_dev_zero_3GiB": ("refused", FILES, """
        import struct
        from acl_lab.om.container import MAGIC, VERSION
        os.mkfifo("pipe.om")
        os.symlink("/dev/zero", "zero.om")
        header = json.dumps({"soc_version": "Ascend910B", "work_size": 512, "weight_size": 0,
            "nodes": 1, "model_length": 3 * GiB,
            "inputs": [{"name": "x", "dims": [4], "dtype": 0, "format": 2, "onnx_dtype": 0}],
            "outputs": [{"name": "y", "dims": [4], "dtype": 0, "format": 2,
                         "onnx_dtype": 0}]}).encode()
        with open("big.om", "wb") as f:
            f.write(struct.pack("<8sIQ", MAGIC, VERSION, len(header)) + header)
            f.truncate(f.tell() + 3 * GiB)
        for path in ("pipe.om", "zero.om", "/dev/zero"):
            assert acl.mdl.load_from_file(path)[1] == C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID
            assert acl.mdl.query_size(path)[2] == C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID
        assert refused_by_limit(acl.mdl.load_from_file, "big.om")
        assert acl.mdl.query_size("big.om") == (512, 0, 0)      # the header alone
        outcome("refused")
    """),
    # --- acl-lab atc's inputs --------------------------------------------------------------
    "atc_inputs_fifo_dev_zero_3GiB": ("refused", ATC, """
        os.mkfifo("pipe")
        os.symlink("/dev/zero", "zero")
        sparse("big", 3 * GiB)
        for bad in ("pipe", "zero", "big"):
            for flags in ([f"--model={bad}", "--output=m"],
                          [f"--model={digits}", "--output=m", f"--insert_op_conf={bad}"],
                          [f"--singleop={bad}", "--output=ops"]):
                rc, text = run_atc(*flags, "--framework=5", "--soc_version=Ascend910B3")
                assert rc == 1 and "E10001" in text and "cannot be read" in text, text
        outcome("refused")
    """),
    # --- ONNX external data: never read ---------------------------------------------------
    **{f"external_data_{executor}": ("refused", (NO_ONNXRUNTIME if executor == "reference"
                                                  else "") + ONNX + ATC, """
        onnx.save(constant("secret.bin"), "ext.onnx")
        rc, text = run_atc("--model=ext.onnx", "--framework=5", "--output=ext",
                           "--soc_version=Ascend910B3")
        assert rc == 1 and "E10001" in text and "outside the model" in text, text
        assert not os.path.exists("ext.om")
        for location in ("secret.bin", os.path.join(WORK, "secret.bin")):
            data = hand_made_om(location)
            model, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
            assert ret == C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, ret
            assert "outside the model" in acl.get_recent_err_msg()
        assert acl_lab.snapshot()["offline_models"] == []
        outcome("refused")
    """) for executor in ("onnxruntime", "reference")},
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_file_the_kit_reads_is_bounded_and_typed(name, tmp_path):
    expected, shared, body = CASES[name]
    _check(name, expected, *_run(name, shared + textwrap.dedent(body),
                                 {"ACL_LAB_HOME": str(tmp_path / "home")}, timeout=60,
                                 cwd=tmp_path))
