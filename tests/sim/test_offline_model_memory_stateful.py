"""Stateful: whatever mix of ACL-managed and app-managed loads, unloads and frees a program
makes, model memory is counted exactly once — get_mem_info's free bytes always equal the
pools' size less what the live allocations occupy, ACL holds two blocks per model it
manages and none for the others, and unload gives back exactly what ACL took."""
from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import acl_lab
from acl_lab import constants as C
from modelhelpers import convert


@pytest.fixture(scope="module")
def om_path(tmp_path_factory):
    code, out, path = convert(tmp_path_factory.mktemp("stateful"), "digits")
    assert code == 0, out
    return str(path)


def test_model_memory_is_counted_once(om_path):
    class ModelMemory(RuleBasedStateMachine):
        @initialize()
        def start(self):
            acl_lab.reset("910b")
            self.acl = acl_lab.load(profile="910b")
            assert self.acl.init() == 0 and self.acl.rt.set_device(0) == 0
            self.total = self.acl.rt.get_mem_info(C.ACL_HBM_MEM)[1]
            self.work_size, self.weight_size, _ = self.acl.mdl.query_size(om_path)
            self.models = {}          # model_id -> (work, weight) the app owns, or None
            self.app_blocks = []      # app memory no loaded model uses any more

        @rule()
        def load_acl_managed(self):
            model_id, ret = self.acl.mdl.load_from_file(om_path)
            assert ret == 0
            self.models[model_id] = None

        @rule()
        def load_app_managed(self):
            work, _ = self.acl.rt.malloc(self.work_size, C.ACL_MEM_MALLOC_HUGE_FIRST)
            weight, _ = self.acl.rt.malloc(self.weight_size, C.ACL_MEM_MALLOC_HUGE_FIRST)
            model_id, ret = self.acl.mdl.load_from_file_with_mem(
                om_path, work, self.work_size, weight, self.weight_size)
            assert ret == 0
            self.models[model_id] = (work, weight)

        @precondition(lambda self: self.models)
        @rule(data=st.data())
        def unload(self, data):
            model_id = data.draw(st.sampled_from(sorted(self.models)))
            assert self.acl.mdl.unload(model_id) == 0
            owned = self.models.pop(model_id)
            if owned:
                self.app_blocks.extend(owned)

        @precondition(lambda self: self.app_blocks)
        @rule()
        def free_app_memory(self):
            assert self.acl.rt.free(self.app_blocks.pop()) == 0

        @invariant()
        def counted_once(self):
            snap = acl_lab.snapshot()
            hbm = [a for a in snap["allocations"] if a["pool"].startswith("HBM")]
            free = self.acl.rt.get_mem_info(C.ACL_HBM_MEM)[0]
            assert free == self.total - sum(a["occupied"] for a in hbm)
            acl_owned = sum(m is None for m in self.models.values())
            assert sum(a["api"].startswith("model_") for a in hbm) == 2 * acl_owned
            rows = {m["model_id"]: m["memory"] for m in snap["offline_models"]}
            assert rows == {i: "acl" if m is None else "app" for i, m in self.models.items()}

    ModelMemory.TestCase.settings = settings(max_examples=30, stateful_step_count=12,
                                             deadline=None)
    ModelMemory.TestCase().runTest()
