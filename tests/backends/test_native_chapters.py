"""Chapters 06 and 07 on the ascend backend, as far as this machine can take them.

The chapters' own code cells (read from the notebooks now, so edits to them are followed)
run with ``acl_lab.load()`` choosing the ascend backend: pyACL is a recording stand-in
(tests/backends/test_ascend_guard.py) that binds what pyACL binds, and every capture (aclmdlRI*)
and aclnn call goes through acl_lab.backends.ascend.native into the C double of the CANN libraries
(tests/native/cann_double.c), which records what C received. The tests check that every
capture and aclnn call the chapters make reached C, with the values and widths the
chapter meant. What the device would compute is not checked here: that waits for a device
(acl-lab selftest).
"""
import ast
import ctypes
import re
import sys
import weakref
from pathlib import Path

import nbformat
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.spec.memory_rules import root_array
from nativehelpers import build, calls
from ascendhelpers import StandIn
from test_native_bindings import _widths_match

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: lines that draw a view, or grade an exercise from the simulator's state: not run here
_SKIPPED_LINE = re.compile(r"^\s*(from acl_lab\.widgets import|(CaptureGraph|StreamTimeline|"
                           r"PoolView)\(|.*exercises\.check\()")
_EXERCISE = re.compile(r"^# (Exercise|Solution)")
_CALL = re.compile(r"\bacl\.(mdl\.ri_\w+|nn\.\w+)\(")


class PyAcl(StandIn):
    """pyACL as the chapters use it: the runtime calls pyACL binds (aclrtCreateEventExWithFlag
    left out, as an older pyACL lacks it), no aclmdlRI* and no aclnn."""

    def __init__(self):
        super().__init__()
        self.bytes = {}
        self.rt = self._namespace("rt", [
            "set_device", "reset_device", "get_device", "get_device_count", "get_run_mode",
            "malloc", "malloc_align32", "malloc_cached", "malloc_host", "free", "free_host",
            "memset", "memset_async", "memcpy", "memcpy_async", "memcpy2d", "memcpy2d_async",
            "create_stream", "destroy_stream", "synchronize_stream", "synchronize_device",
            "create_event", "destroy_event", "record_event", "synchronize_event",
            "query_event_status", "event_elapsed_time", "stream_wait_event", "get_mem_info",
            "get_context", "set_context"])
        self.mdl = self._namespace("mdl", ["load_from_file", "init_dump"])

    # bytes: device memory is a sparse map here; numpy arrays (numpy_to_ptr) are real memory,
    # so what the chapters copy back (MemoryPool's guard bytes, results) is what they wrote
    def _numpy_to_ptr(self, array):
        ptr = super()._numpy_to_ptr(array)
        self.arrays = [a for a in getattr(self, "arrays", []) if a[1]() is not None]
        self.arrays.append((ptr, weakref.ref(root_array(array)), array.nbytes))
        return ptr

    def _real(self, ptr, n):
        return any(p <= ptr and ptr + n <= p + size and ref() is not None
                   for p, ref, size in getattr(self, "arrays", []))

    def _read(self, ptr, n):
        if self._real(ptr, n):
            return ctypes.string_at(ptr, n)
        return bytes(self.bytes.get(ptr + i, 0) for i in range(n))

    def _write(self, ptr, data):
        if self._real(ptr, len(data)):
            ctypes.memmove(ptr, data, len(data))
        else:
            self.bytes.update((ptr + i, b) for i, b in enumerate(data))

    def _memcpy(self, dst, dest_max, src, count, kind, stream=None):
        self._write(dst, self._read(src, count))
        return 0

    def _memset(self, ptr, max_count, value, count, stream=None):
        self._write(ptr, bytes([value & 0xFF]) * count)
        return 0

    _memcpy_async, _memset_async = _memcpy, _memset

    def _get_context(self): return (0xC000, 0)
    def _query_event_status(self, event): return (0, 0)
    def _event_elapsed_time(self, start, end): return (0.5, 0)


def _cells(name: str) -> tuple[list[str], set[str]]:
    """The chapter's code cells that are not exercises (views and checks taken out), and
    the names the exercise cells assign (a cell needing one is left to the exercises)."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    exercise_names = {t.id for src in code if _EXERCISE.match(src)
                      for node in ast.walk(ast.parse(src)) if isinstance(node, ast.Assign)
                      for target in node.targets for t in ast.walk(target)
                      if isinstance(t, ast.Name)}
    kept = ["\n".join(line for line in src.splitlines() if not _SKIPPED_LINE.match(line))
            for src in code if not _EXERCISE.match(src)]
    return kept, exercise_names


@pytest.fixture
def device(tmp_path, monkeypatch, tmp_path_factory):
    """ACL_LAB_BACKEND=ascend over the pyACL stand-in and the C double; cwd a temp dir."""
    home = tmp_path_factory.getbasetemp() / "cann-chapters"
    if not (home / "lib64" / "libopapi.so").exists():
        build(home)
    log = tmp_path / "calls.log"
    for var, value in {"ASCEND_HOME_PATH": str(home), "CANN_DOUBLE_LOG": str(log),
                       "ACL_LAB_BACKEND": "ascend"}.items():
        monkeypatch.setenv(var, value)
    monkeypatch.delenv("ACL_LAB_GUARD", raising=False)
    monkeypatch.delenv("CANN_DOUBLE_WORKSPACE", raising=False)
    monkeypatch.chdir(tmp_path)
    real = PyAcl()
    monkeypatch.setitem(sys.modules, "acl", real)
    yield real, log
    acl_lab.load(backend="sim")


def _run(name: str, capsys) -> tuple[list[str], dict]:
    """Run the chapter's cells in one namespace; the cells that needed an exercise's name."""
    cells, exercise_names = _cells(name)
    scope, left = {"__name__": "__main__"}, []
    for src in cells:
        try:
            exec(compile(src, name, "exec"), scope)
        except NameError as e:
            if e.name not in exercise_names:
                raise
            left.append(src.splitlines()[0])
    capsys.readouterr()
    return left, scope


def _chapter_calls(name: str) -> set[str]:
    cells, _ = _cells(name)
    return {m for src in cells for m in _CALL.findall(src)}


#: pyACL-shaped name -> C function (the facade's table)
def _c_name(call: str) -> str:
    from acl_lab.spec.prototypes import PROTOTYPES
    return PROTOTYPES[call].c_name


def test_chapter_06_capture_and_aclnn_calls_reach_c_as_the_chapter_wrote_them(device, capsys):
    real, log = device
    left, scope = _run("06_capture_acl_graph.ipynb", capsys)
    seen = calls(log)
    names = {c.name for c in seen}
    assert {_c_name(c) for c in _chapter_calls("06_capture_acl_graph.ipynb")} <= names
    assert "aclrtCreateEventExWithFlag" in names          # a runtime call this pyACL lacks
    assert _widths_match(seen) == []

    # the seed's sample (after the chapter's aclnn primer): three [4, 2] float tensors over
    # the memory malloc returned, alpha 1.1 as a float32, captured copy-in / Add / copy-out,
    # 8 replays
    tensors = calls(log, "aclCreateTensor")
    data = [scope[v] for v in ("self_d", "other_d", "out_d")]
    first = next(tensors[i:i + 3] for i in range(len(tensors) - 2)
                 if [t.values()["tensorData"] for t in tensors[i:i + 3]] == data)
    for t in first:
        assert t.values() | {"tensorData": 0} == {
            "viewDims": [4, 2], "viewDimsNum": 2, "dataType": 0, "stride": [2, 1],
            "offset": 0, "format": 2, "storageDims": [4, 2], "storageDimsNum": 2,
            "tensorData": 0}
    assert [t.values()["tensorData"] for t in first] == [scope[v] for v in
                                                         ("self_d", "other_d", "out_d")]
    assert (1.10000002, 4) in [c["element"] for c in calls(log, "aclCreateScalar")]
    add = next(c.values() for c in calls(log, "aclnnAddGetWorkspaceSize")
               if c.values()["self"] == scope["self_t"])
    assert [add[k] for k in ("self", "other", "alpha", "out")] == [
        scope[v] for v in ("self_t", "other_t", "alpha", "out_t")]
    begin = calls(log, "aclmdlRICaptureBegin")[0]
    assert begin.values() == {"stream": scope["stream"], "mode": 0} and begin["mode"][1] == 4
    assert [c.values()["mode_in"] for c in calls(log, "aclmdlRICaptureThreadExchangeMode")[:2]] \
        == [2, 0]                                          # RELAXED for the sync copy, back
    launches = [c.values() for c in calls(log, "aclnnAdd")]
    assert launches[0]["stream"] == 0                # the primer's (its second launch of the
    launch = launches[1]                             # same executor never reaches C)
    assert launch["stream"] == scope["stream"] and launch["workspace"] == 0
    model = next(c for c in seen if c.name == "aclmdlRICaptureEnd")
    replays = [c.values() for c in calls(log, "aclmdlRIExecuteAsync")[:8]]
    assert len({r["modelRI"] for r in replays}) == 1 and replays[0]["stream"] == scope["stream"]
    assert calls(log, "aclmdlRIDebugJsonPrint")[0].values()["path"] == "modelRI.json"
    assert model.values()["stream"] == scope["stream"]
    assert len(left) <= 2       # only cells that need an exercise's names were left out


def test_chapter_06_misuse_the_guard_stops_never_reaches_c(device, capsys):
    """The chapter frees a buffer a captured model uses, then replays the model: on a device
    that writes freed memory, so the guard refuses and C never sees that replay."""
    real, log = device
    _run("06_capture_acl_graph.ipynb", capsys)
    refused = [c.args[0] for c in acl_lab.tracer().calls
               if c.name == "mdl.ri_execute_async" and c.ret == C.ACL_ERROR_RT_MODEL_EXECUTE]
    assert refused
    replayed = {c.values()["modelRI"] for c in calls(log, "aclmdlRIExecuteAsync")}
    assert not set(refused) & replayed
    destroyed = {c.values()["modelRI"] for c in calls(log, "aclmdlRIDestroy")}
    assert set(refused) <= destroyed            # and the chapter destroys it after all


def test_chapter_07_pipeline_reaches_c_with_pool_memory_and_two_streams(device, capsys):
    real, log = device
    _, scope = _run("07_capstone.ipynb", capsys)
    seen = calls(log)
    assert {_c_name(c) for c in _chapter_calls("07_capstone.ipynb")} <= {c.name for c in seen}
    assert _widths_match(seen) == []
    tensors = calls(log, "aclCreateTensor")
    assert len(tensors) >= 5 and all(t.values()["viewDims"] == [256] for t in tensors[:5])
    pool = scope["pool"]                # the tensors are over the pool's segments
    assert all(pool.base <= t.values()["tensorData"] < pool.base + pool.capacity
               for t in tensors[:5])
    mul = calls(log, "aclnnMulGetWorkspaceSize")
    begin = calls(log, "aclmdlRICaptureBegin")[0].values()
    # the captured compute stage: Mul then Add, both launched on the capturing stream
    launched = [c for c in seen if c.name in ("aclnnMul", "aclnnAdd")]
    assert mul and any(c.values()["stream"] == begin["stream"] for c in launched)
    assert len(calls(log, "aclmdlRIExecuteAsync")) >= 4          # four batches


# ----- acl-lab doctor: per chapter, can this CANN and pyACL run it ---------------------------
def _doctor() -> str:
    import io

    from acl_lab import cli

    out = io.StringIO()
    cli.doctor(out)
    return out.getvalue()


def _chapter_line(text: str, chapter: str) -> list[str]:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(chapter))
    return [lines[at]] + [line for line in lines[at + 1:at + 5] if line.startswith("      - ")]


def test_doctor_says_per_chapter_what_this_cann_can_run(device):
    text = _doctor()
    assert "Chapters on this CANN" in text
    for chapter in ("06_capture_acl_graph", "07_capstone"):     # capture and aclnn: native
        line = _chapter_line(text, chapter)
        assert "ready (" in line[0] and "through acl_lab's native bindings" in line[0], line
    # a chapter needing calls neither this pyACL stand-in nor acl_lab binds says which
    assert "cannot run all of it" in _chapter_line(text, "08_offline_inference")[0]


def test_doctor_names_the_missing_library_calls_and_the_release(device, tmp_path, monkeypatch):
    old = tmp_path / "old-cann"
    build(old, {"RT": "libascendcl.so"})            # no libnnopbase.so, no libopapi.so
    monkeypatch.setenv("ASCEND_HOME_PATH", str(old))
    line = " ".join(_chapter_line(_doctor(), "07_capstone"))
    assert "cannot run all of it" in line
    assert "acl.nn.add: aclnnAdd is in none of the CANN libraries in" in line
    assert "(it needs CANN 8.0.0 or later)" in line


def test_doctor_warns_that_a_310b_board_cannot_capture(device, monkeypatch):
    real, _log = device
    monkeypatch.setattr(real, "get_soc_name", lambda: "Ascend310B4")
    line = " ".join(_chapter_line(_doctor(), "06_capture_acl_graph"))
    assert "Ascend310B4 (Atlas 200I/500 A2 推理产品) cannot capture a stream" in line
