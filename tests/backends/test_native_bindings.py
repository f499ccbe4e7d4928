"""acl_lab.backends.ascend.native against a C double of the CANN libraries (tests/native/cann_double.c).

The double has the headers' prototypes and records each argument as C received it, with
the size of its declared type. So these tests prove, without an NPU, that the ctypes
bindings pass every argument at its C width and value (enums as 32-bit ints, 64-bit
dims, handles above 4 GiB), read every out-parameter back, find each symbol in whichever
library exports it, and say in plain words what is missing. Skipped without a C compiler.
"""
import ctypes
import types

import pytest

from acl_lab import constants as C
from acl_lab.backends.ascend.native import Libraries, Native, NativeUnavailable, added, bindable, complete
from acl_lab.backends.ascend.native import cdecl
from acl_lab.spec.prototypes import PROTOTYPES
from nativehelpers import build, calls

BIG = 0x1234_5678_9ABC          # a handle above 4 GiB: a 32-bit cut would show
HUGE = 1 << 40                  # a dimension or size that needs 64 bits


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("cann")
    build(home)
    return home


@pytest.fixture
def log(home, tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    monkeypatch.setenv("CANN_DOUBLE_LOG", str(tmp_path / "calls.log"))
    monkeypatch.delenv("CANN_DOUBLE_WORKSPACE", raising=False)
    return tmp_path / "calls.log"


@pytest.fixture
def native(log):
    bound = Native()
    return types.SimpleNamespace(**{
        ns: types.SimpleNamespace(**{n.split(".")[1]: bound.function(n) for n in bindable()
                                     if n.startswith(ns + ".")})
        for ns in ("mdl", "nn", "rt")}, bound=bound)


def _widths_match(recorded) -> list[str]:
    """Every recorded argument whose C size differs from what the binding passed."""
    by_c = {s.c_name: s for s in (cdecl.read(PROTOTYPES[n].c) for n in bindable())}
    wrong = []
    for call in recorded:
        params = {p.name: p for p in by_c[call.name].params}
        for field, (_value, size) in call.items():
            if field in params and size != "s":
                passed = ctypes.sizeof(params[field].type)
                if passed != size:
                    wrong.append(f"{call.name}.{field}: C {size} B, binding {passed} B")
    return wrong


def test_capture_calls_reach_c_at_their_width_and_values(native, log):
    mdl = native.mdl
    assert mdl.ri_capture_begin(BIG, C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    status, model, ret = mdl.ri_capture_get_info(BIG)
    assert (status, ret) == (C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, 0) and model > 1 << 32
    assert mdl.ri_capture_thread_exchange_mode(C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == (0, 0)
    assert mdl.ri_capture_thread_exchange_mode(0) == (C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED, 0)
    assert mdl.ri_capture_end(BIG) == (model, 0)
    assert mdl.ri_capture_get_info(BIG) == (C.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0, 0)
    assert mdl.ri_capture_end(BIG) == (0, C.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
    assert mdl.ri_debug_json_print(model, str(log.parent / "m.json"), 1) == 0
    assert mdl.ri_execute_async(model, BIG) == 0
    assert mdl.ri_execute(model, -1) == 0
    assert mdl.ri_destroy(model) == 0
    seen = calls(log)
    assert [c.name for c in seen][:3] == ["aclmdlRICaptureBegin", "aclmdlRICaptureGetInfo",
                                          "aclmdlRICaptureThreadExchangeMode"]
    assert seen[0].values() == {"stream": BIG, "mode": 2}
    assert seen[0]["mode"] == (2, 4)                 # aclmdlRICaptureMode: a 32-bit enum
    assert seen[2].values() == {"mode": "&", "mode_in": 2}
    assert calls(log, "aclmdlRIDebugJsonPrint")[0].values() == {
        "modelRI": model, "path": str(log.parent / "m.json"), "flags": 1}
    assert calls(log, "aclmdlRIExecute")[0]["timeout"] == (-1, 4)      # int32_t, signed
    assert calls(log, "aclmdlRIExecuteAsync")[0].values() == {"modelRI": model, "stream": BIG}
    assert _widths_match(seen) == []


def test_task_groups_and_a_newer_runtime_call(native, log):
    mdl = native.mdl
    assert mdl.ri_capture_begin(BIG, 0) == 0
    assert mdl.ri_capture_task_grp_begin(BIG) == 0
    group, ret = mdl.ri_capture_task_grp_end(BIG)
    assert ret == 0 and group > 1 << 32
    assert mdl.ri_capture_end(BIG)[1] == 0
    assert mdl.ri_capture_task_update_begin(BIG + 0x40, group) == 0
    assert mdl.ri_capture_task_update_end(BIG + 0x40) == 0
    event, ret = native.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    assert ret == 0 and event > 1 << 32
    assert calls(log, "aclmdlRICaptureTaskUpdateBegin")[0].values() == {
        "stream": BIG + 0x40, "handle": group}
    assert calls(log, "aclrtCreateEventExWithFlag")[0]["flag"] == (C.ACL_EVENT_SYNC, 4)
    assert _widths_match(calls(log)) == []


def test_aclnn_tensors_scalars_and_the_two_phases(native, log, monkeypatch):
    nn = native.nn
    monkeypatch.setenv("CANN_DOUBLE_WORKSPACE", str(HUGE + 0x40))
    t = [nn.create_tensor([4, HUGE], C.ACL_FLOAT, [HUGE, 1], 3, C.ACL_FORMAT_ND, [4, HUGE],
                          0x1240_0000_0000 + i * 0x1000) for i in range(3)]
    assert all(h > 1 << 32 for h in t) and len(set(t)) == 3
    alpha = nn.create_scalar(1.1, C.ACL_FLOAT)
    wide = nn.create_scalar(HUGE, C.ACL_INT64)
    exact = nn.create_scalar(1.1, C.ACL_DOUBLE)
    ws, executor, ret = nn.add_get_workspace_size(t[0], t[1], alpha, t[2])
    assert (ws, ret) == (HUGE + 0x40, 0) and executor > 1 << 32
    assert nn.add(0x1240_0010_0000, ws, executor, BIG) == 0
    _, mul_ex, ret = nn.mul_get_workspace_size(t[0], t[1], t[2])
    assert ret == 0 and nn.mul(0, 0, mul_ex, BIG) == 0
    _, copy_ex, ret = nn.inplace_copy_get_workspace_size(t[2], t[0])
    assert ret == 0 and nn.inplace_copy(0, 0, copy_ex, BIG) == 0
    for h in t:
        assert nn.destroy_tensor(h) == 0
    for h in (alpha, wide, exact):
        assert nn.destroy_scalar(h) == 0
    assert native.bound.scalar_values == {}             # buffers kept until aclDestroyScalar

    tensor = calls(log, "aclCreateTensor")[0]
    assert tensor.values() == {"viewDims": [4, HUGE], "viewDimsNum": 2, "dataType": 0,
                               "stride": [HUGE, 1], "offset": 3, "format": 2,
                               "storageDims": [4, HUGE], "storageDimsNum": 2,
                               "tensorData": 0x1240_0000_0000}
    assert tensor["viewDims"][1] == tensor["dataType"][1] * 2 == 8   # int64_t dims, enum 32
    scalars = calls(log, "aclCreateScalar")
    assert [s["element"] for s in scalars] == [(1.10000002, 4), (HUGE, 8), (1.1000000000000001, 8)]
    assert [s["dataType"] for s in scalars] == [(0, 4), (9, 4), (11, 4)]
    phase_one = calls(log, "aclnnAddGetWorkspaceSize")[0].values()
    assert phase_one == {"self": t[0], "other": t[1], "alpha": alpha, "out": t[2],
                         "workspaceSize": "&", "executor": "&"}
    assert calls(log, "aclnnAdd")[0].values() == {"workspace": 0x1240_0010_0000,
                                                  "workspaceSize": HUGE + 0x40,
                                                  "executor": executor, "stream": BIG}
    assert calls(log, "aclnnInplaceCopyGetWorkspaceSize")[0].values()["selfRef"] == t[2]
    assert _widths_match(calls(log)) == []


def test_values_that_do_not_fit_are_refused_before_c(native, log):
    with pytest.raises(OverflowError, match="32-bit signed"):
        native.mdl.ri_capture_begin(BIG, 1 << 32)
    with pytest.raises(OverflowError, match="64-bit unsigned"):
        native.mdl.ri_destroy(-1)
    with pytest.raises(TypeError, match="must be an int"):
        native.mdl.ri_capture_begin(BIG, 0.5)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        native.mdl.ri_capture_begin(BIG)
    with pytest.raises(TypeError, match="must be a str"):
        native.mdl.ri_debug_json_print(1, 7, 0)
    # strides of another length than the shape: aclCreateTensor would read past the array
    assert native.nn.create_tensor([4, 2], 0, [1], 0, 2, [8], 0x1000) == 0
    assert native.nn.create_scalar(1, 999) == 0            # a type acl_lab cannot lay out
    assert calls(log) == []


def test_a_missing_library_or_symbol_says_which_call_library_and_release(tmp_path, monkeypatch):
    home = tmp_path / "old"
    build(home, {"NNOPBASE": "libnnopbase.so"})
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    begin = Native().function("mdl.ri_capture_begin")
    with pytest.raises(NativeUnavailable) as e:
        begin(BIG, 0)
    text = str(e.value)
    for words in ("acl.mdl.ri_capture_begin needs aclmdlRICaptureBegin", "pyACL does not bind",
                  "libacl_rt.so not installed", "libascendcl.so not installed",
                  "libnnopbase.so does not export it", "CANN 8.1.RC1 or later"):
        assert words in text
    monkeypatch.delenv("ASCEND_HOME_PATH")
    monkeypatch.delenv("ASCEND_TOOLKIT_HOME", raising=False)
    with pytest.raises(NativeUnavailable, match="ASCEND_HOME_PATH is not set"):
        Native().function("nn.create_scalar")(1.0, 0)


def test_each_symbol_comes_from_whichever_library_exports_it(tmp_path, monkeypatch):
    home = tmp_path / "split"       # a toolkit with the runtime split out into libacl_rt.so
    build(home, {"RT": "libacl_rt.so", "NNOPBASE": "libnnopbase.so", "OPAPI": "libopapi.so"})
    libraries = Libraries(home / "lib64")
    assert libraries.find("aclmdlRICaptureBegin")[1] == "libacl_rt.so"
    assert libraries.find("aclCreateTensor")[1] == "libnnopbase.so"
    assert libraries.find("aclnnAdd")[1] == "libopapi.so"
    assert libraries.find("aclNoSuchCall") is None


def test_pyacls_own_binding_is_kept_and_only_what_it_lacks_is_added():
    pyacl = types.ModuleType("acl")
    pyacl.rt = types.ModuleType("acl.rt")
    pyacl.mdl = types.ModuleType("acl.mdl")
    pyacl.rt.create_event_ex_with_flag = own = lambda flag: (1, 0)
    pyacl.mdl.load_from_file = lambda path: (7, 0)
    completed = complete(pyacl)
    assert completed.rt.create_event_ex_with_flag is own
    assert completed.mdl.load_from_file("m.om") == (7, 0)
    assert getattr(completed.mdl.ri_capture_begin, "native", False)
    assert not hasattr(pyacl.mdl, "ri_capture_begin")          # the real module is untouched
    lacking = added(pyacl)
    assert "rt.create_event_ex_with_flag" not in lacking
    assert {"mdl.ri_capture_begin", "mdl.ri_capture_task_grp_end", "nn.add",
            "nn.create_tensor"} <= set(lacking)


def test_completed_namespaces_are_named_after_the_module_they_complete():
    """complete() once reused one variable for the module's name and each member's: every
    namespace was named after the last member it copied ("free_host.mdl")."""
    pyacl = types.ModuleType("acl")
    for ns, member in (("rt", "malloc"), ("mdl", "load_from_file"), ("util", "ptr_to_numpy")):
        setattr(pyacl, ns, types.ModuleType(f"acl.{ns}"))
        setattr(getattr(pyacl, ns), member, lambda *a: 0)
    completed = complete(pyacl)
    assert completed.__name__ == "acl"
    assert {ns: getattr(completed, ns).__name__ for ns in ("rt", "mdl", "util", "nn")} == \
        {"rt": "acl.rt", "mdl": "acl.mdl", "util": "acl.util", "nn": "acl.nn"}


def test_every_capture_and_aclnn_call_of_the_facade_is_bound():
    """The chapters' capture and aclnn calls all have a binding (launch_callback and the
    aclmdlIODims readers stay pyACL's: a C callback and a struct out-parameter)."""
    family = [n for n in PROTOTYPES if n.startswith(("mdl.ri_", "nn."))]
    assert set(family) <= set(added(types.ModuleType("acl")))


def test_chapter_10s_unbound_memory_calls_reach_c_at_their_width_and_values(native, log):
    """Stream-ordered pools (acl_rt_memory_soma.h) and aclrtMemcpyBatch: pyACL binds none;
    the struct fields, the attribute value's width (uint32_t for the reuse switches, uint64_t
    for sizes) and the arrays reach C as the headers declare them."""
    rt = native.rt
    props = {"allocType": 0, "handleType": 0, "location": {"id": 3, "type": 1},
             "maxSize": HUGE}
    pool, ret = rt.mem_pool_create(props)
    assert ret == 0 and pool > 1 << 32
    assert rt.mem_pool_set_attr(pool, C.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, HUGE) == 0
    assert rt.mem_pool_set_attr(pool, C.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 1) == 0
    assert rt.mem_pool_get_attr(pool, C.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD) == (HUGE, 0)
    assert rt.mem_pool_get_attr(pool, C.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC) == (1, 0)
    ptr, ret = rt.mem_pool_malloc_async(HUGE, pool, BIG)
    assert ret == 0 and ptr > 1 << 32
    assert rt.mem_pool_free_async(ptr, BIG) == 0
    assert rt.mem_pool_trim_to(pool, HUGE) == 0
    assert rt.mem_pool_destroy(pool) == 0
    h2d = {"dstLoc": {"id": 0, "type": 1}, "srcLoc": {"id": 0, "type": 0}}
    assert rt.memcpy_batch([BIG, BIG + 64], [64, 64], [BIG + 128, BIG + 192], [HUGE, 8],
                           [h2d], [0]) == (1, C.ACL_ERROR_RT_PARAM_INVALID)
    assert rt.memcpy_batch([BIG], [64], [BIG + 128], [8], [h2d], [0]) == ((1 << 64) - 1, 0)
    seen = {c.name: c for c in calls(log)}
    create = seen["aclrtMemPoolCreate"]
    assert create.values() == {"memPool": "&", "allocType": 0, "handleType": 0, "locationId": 3,
                               "locationType": 1, "maxSize": HUGE}
    assert create["maxSize"][1] == 8 and create["locationId"][1] == 4
    set_attrs = calls(log, "aclrtMemPoolSetAttr")
    assert [(c["attr"], c["value"]) for c in set_attrs] == [((4, 4), (HUGE, 8)), ((2, 4), (1, 4))]
    assert seen["aclrtMemPoolMallocAsync"].values() == {"ptr": "&", "size": HUGE,
                                                        "memPool": pool, "stream": BIG}
    assert seen["aclrtMemPoolTrimTo"]["minBytesToKeep"] == (HUGE, 8)
    batch = calls(log, "aclrtMemcpyBatch")[0]
    assert batch["sizes"] == ([HUGE, 8], 8) and batch["numBatches"] == (2, 8)
    assert batch["dsts"] == ([BIG, BIG + 64], 8) and batch["attrs"] == ("0:0>0:1", 32)
    assert batch["attrsIndexes"] == ([0], 8) and batch["numAttrs"] == (1, 8)
    by_hand = {"aclrtMemPoolCreate", "aclrtMemPoolSetAttr", "aclrtMemcpyBatch"}  # checked above
    assert _widths_match([c for c in calls(log) if c.name not in by_hand]) == []


def test_a_host_function_reaches_c_as_a_function_pointer_and_runs(native, log):
    """aclrtLaunchHostFunc (not in pyACL): the Python function goes to C as a pointer-wide
    function pointer, its argument as a token; the double calls it, and it runs once."""
    seen = []
    assert native.rt.launch_host_func(BIG, seen.append, {"step": 3}) == 0
    assert seen == [{"step": 3}] and native.bound.host_funcs == {}
    call, = calls(log, "aclrtLaunchHostFunc")
    assert call["stream"] == (BIG, 8) and call["fn"][0] > 0 and call["fn"][1] == 8
    assert call["args"] == (1, 8)
    with pytest.raises(TypeError):
        native.rt.launch_host_func(BIG, 5, None)


def test_access_rights_on_mapped_memory_reach_c_at_their_width_and_values(native, log):
    """aclrtMemMapNoAccess, aclrtMemSetAccess, aclrtMemGetAccess (not in pyACL): the desc
    list goes to C as an array of 24-byte aclrtMemAccessDesc with its count, the location
    behind a pointer, the flag back as a uint64_t; handles and addresses above 4 GiB."""
    rt = native.rt
    dev1 = {"id": 1, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}
    host = {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_HOST}
    assert rt.mem_map_no_access(BIG, HUGE, 0, BIG + 0x40, 0) == 0
    rw = C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE
    assert rt.mem_set_access(BIG, HUGE, [{"flags": rw, "location": dev1},
                                         {"flags": rw, "location": host}]) == 0
    assert rt.mem_get_access(BIG, dev1) == (rw, 0)
    mapped, = calls(log, "aclrtMemMapNoAccess")
    assert mapped.values() == {"virPtr": BIG, "size": HUGE, "offset": 0, "handle": BIG + 0x40,
                               "flags": 0}
    granted, = calls(log, "aclrtMemSetAccess")
    assert granted["desc"] == ("3@1:1,3@0:0", 24) and granted["count"] == (2, 8)
    assert granted["virPtr"] == (BIG, 8) and granted["size"] == (HUGE, 8)
    asked, = calls(log, "aclrtMemGetAccess")
    assert asked["location"] == ("1:1", 8) and asked["flag"] == ("&", 8)
    assert _widths_match([mapped]) == []
    with pytest.raises(TypeError):
        rt.mem_set_access(BIG, HUGE, {"flags": rw, "location": dev1})
