"""Process, devices, run mode (chapters 00, 01, 04). Compared: return codes and values."""
from acl_lab import constants as C


def test_run_mode_is_host_or_device(acl, run_mode):
    assert run_mode in (C.ACL_HOST, C.ACL_DEVICE)


def test_set_device_makes_device_0_current(acl):
    count, ret = acl.rt.get_device_count()
    assert ret == 0 and count >= 1
    assert acl.rt.get_device() == (0, C.ACL_SUCCESS)
    name = acl.get_soc_name()
    assert isinstance(name, str) and name.startswith("Ascend")


def test_a_second_init_reports_repeat_initialize(acl):
    assert acl.init() == C.ACL_ERROR_REPEAT_INITIALIZE


def test_set_device_is_reference_counted(acl):
    """Each set_device needs its reset_device; one reset too many is an error (507007)."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.get_device() == (0, C.ACL_SUCCESS)     # one reference left: still open
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device(0) == C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR


def test_an_unknown_device_id_is_refused(acl):
    count, _ = acl.rt.get_device_count()
    assert acl.rt.set_device(count) == C.ACL_ERROR_RT_INVALID_DEVICEID
