"""aclInit's JSON config: the default device ({"defaultDevice": {"default_device": "0"}}) and
how a config file fails, in the order aclInitImpl checks (hicann/runtime src/acl/aclrt_impl/
acl.cpp, JsonParser::GetDefaultDeviceIdFromFile)."""
import json

import pytest

import acl_lab
from acl_lab import constants as C


@pytest.fixture
def config(tmp_path):
    def write(content) -> str:
        path = tmp_path / "acl.json"
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return str(path)
    return write


def test_a_default_device_is_set_implicitly_by_the_first_call_that_needs_a_context(
        bare_acl, config):
    acl = bare_acl
    assert acl.init(config({"defaultDevice": {"default_device": "1"}})) == 0
    assert acl_lab.snapshot()["devices"] == {}            # nothing is set until a call needs it
    ptr, ret = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    assert acl.rt.get_device() == (1, 0)
    assert acl_lab.snapshot()["devices"][1] == {"refs": 1, "open": True}
    assert acl.rt.free(ptr) == 0 and acl.rt.reset_device(1) == 0
    assert acl.finalize() == 0


def test_each_thread_without_a_context_gets_the_default_device(bare_acl, config):
    acl = bare_acl
    assert acl.init(config({"defaultDevice": {"default_device": "0"}})) == 0
    assert acl_lab.run_in_thread(acl.rt.get_device) == (0, 0)
    assert acl.rt.get_device() == (0, 0)
    assert acl_lab.snapshot()["devices"][0]["refs"] == 2    # one implicit set per thread


def test_finalize_turns_the_default_device_off(bare_acl, config):
    acl = bare_acl
    assert acl.init(config({"defaultDevice": {"default_device": "0"}})) == 0
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    assert acl.init() == 0
    assert acl.rt.get_device() == (0, C.ACL_ERROR_RT_CONTEXT_NULL)


@pytest.mark.parametrize("config_json", [
    {}, {"dump": {}}, {"defaultDevice": {}}, {"defaultDevice": "0"}, [1, 2], "",
])
def test_a_config_without_a_default_device_leaves_set_device_to_the_program(
        bare_acl, config, config_json):
    acl = bare_acl
    assert acl.init(config(config_json)) == 0
    assert acl.rt.malloc(64, 0) == (0, C.ACL_ERROR_RT_CONTEXT_NULL)


@pytest.mark.parametrize("value", [0, "01", "-1", "zero", " 0", None])
def test_a_default_device_not_written_as_a_decimal_string_fails_init(bare_acl, config, value):
    acl = bare_acl
    assert acl.init(config({"defaultDevice": {"default_device": value}})) == C.ACL_ERROR_FAILURE
    assert "default_device" in acl.get_recent_err_msg()
    assert acl.init() == 0          # the failed aclInit left the process uninitialised


def test_a_default_device_that_does_not_exist_fails_init(bare_acl, config):
    acl = bare_acl
    assert acl.init(config({"defaultDevice": {"default_device": "8"}})) == \
        C.ACL_ERROR_RT_INVALID_DEVICEID
    assert "device 8 does not exist" in acl.get_recent_err_msg()


def test_a_repeated_init_is_refused_before_its_config_is_read(bare_acl, config, tmp_path):
    acl = bare_acl
    assert acl.init() == 0
    assert acl.init(str(tmp_path / "missing.json")) == C.ACL_ERROR_REPEAT_INITIALIZE
    assert acl.init(config("{not json")) == C.ACL_ERROR_REPEAT_INITIALIZE


def test_a_missing_or_broken_config_fails_the_first_init(bare_acl, config, tmp_path):
    acl = bare_acl
    assert acl.init(str(tmp_path / "missing.json")) == C.ACL_ERROR_INVALID_FILE
    assert acl.init(config("{not json")) == C.ACL_ERROR_PARSE_FILE
    with pytest.raises(TypeError):
        acl.init(42)
    assert acl.init() == 0
