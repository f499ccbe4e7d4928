"""The guard and offline models on real hardware (a recording stand-in for pyACL): loads
pass through and are recorded for the snapshot; memory an app-managed model runs on cannot
be freed while the model is loaded; unload and device reset forget the model."""

import pytest

import acl_lab
from acl_lab import constants as C
from ascendhelpers import StandIn, acl, real, refused  # noqa: F401 (fixtures)


class WithModels(StandIn):
    def __init__(self):
        super().__init__()
        self.mdl = self._namespace("mdl", ["load_from_file", "load_from_file_with_mem",
                                           "query_size", "unload"])

    def _load_from_file_with_mem(self, path, work, work_size, weight, weight_size):
        return (8, 0)

    def _query_size(self, path):
        return (4096, 1024, 0)


@pytest.fixture
def stand_in():
    return WithModels


def _app_managed(acl):
    work, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    weight, _ = acl.rt.malloc(1024, C.ACL_MEM_MALLOC_HUGE_FIRST)
    model_id, ret = acl.mdl.load_from_file_with_mem("m.om", work, 4096, weight, 1024)
    assert (model_id, ret) == (8, 0)
    return model_id, work, weight


def test_loads_pass_through_and_show_in_the_snapshot(real, acl):
    assert acl.mdl.load_from_file("a.om") == (7, 0)
    model_id, work, weight = _app_managed(acl)
    assert real.names("mdl.") == ["mdl.load_from_file", "mdl.load_from_file_with_mem"]
    rows = {m["model_id"]: m for m in acl_lab.snapshot()["offline_models"]}
    assert rows[7]["memory"] == "acl" and rows[7]["work_ptr"] is None
    assert (rows[8]["memory"], rows[8]["work_ptr"], rows[8]["weight_size"]) == ("app", work, 1024)


def test_memory_a_loaded_model_runs_on_cannot_be_freed(real, acl):
    model_id, work, weight = _app_managed(acl)
    for ptr, what in ((work, "work"), (weight + 16, "weight")):
        refused(real, acl, acl.rt.free(ptr), C.ACL_ERROR_RT_PARAM_INVALID, what,
                f"acl.mdl.unload({model_id})")
    assert "rt.free" not in real.names()
    assert acl.mdl.unload(model_id) == 0
    assert acl.rt.free(work) == 0 and acl.rt.free(weight) == 0
    assert acl_lab.snapshot()["offline_models"] == []


def test_reset_device_forgets_its_models(real, acl):
    _app_managed(acl)
    assert acl.rt.reset_device(0) == 0
    assert acl_lab.snapshot()["offline_models"] == []
