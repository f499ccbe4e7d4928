"""The snapshot schema's checker (acl_lab/spec/snapshot_schema.py), which the contract suite runs
on every backend: it must see every kind of drift, named by its path."""
import copy

import acl_lab
from acl_lab.spec.snapshot_schema import EventRow, TaskRow, mismatches


def test_a_live_simulator_snapshot_matches(acl, stream):
    acl.rt.malloc(100, 0)
    acl.rt.create_event()
    assert mismatches(acl_lab.snapshot()) == []


def test_missing_extra_and_mistyped_keys_are_named_by_their_path(acl, stream):
    snap = copy.deepcopy(acl_lab.snapshot())
    del snap["streams"][0]["pending"]
    snap["streams"][0]["priority"] = 0
    snap["devices"][0]["refs"] = True               # a bool is not an int
    snap["now_us"] = "0"
    snap["pools"][0]["base"] = None                 # None where the schema allows it
    assert mismatches(snap) == [
        "snapshot['now_us']: '0' has type str, not int or float",
        "snapshot['devices'][0]['refs']: True has type bool, not int",
        "snapshot['streams'][0]: no 'pending'",
        "snapshot['streams'][0]: unexpected key 'priority'"]
    assert mismatches({**acl_lab.snapshot(), "guard": True}) == [
        "snapshot: unexpected key 'guard'"]


def test_optional_keys_may_be_absent_but_not_of_another_type():
    row = {"seq": 1, "stream": 2, "kind": "memset", "nbytes": 8, "duration_us": 1.5}
    assert mismatches(row, TaskRow, "task") == []
    assert mismatches({**row, "event": None}, TaskRow, "task") == [
        "task['event']: None has type NoneType, not int"]
    assert mismatches({"handle": 1, "device": None, "stream": 0, "recorded_at_us": 2},
                      EventRow, "event") == []             # an int where a float may be
