"""The top level of pyACL beyond the basics (issue 31, part A): the tensor-description family
(hicann/ge tensor_desc_internal_om2.cpp), what the CANN installation says (hicann/runtime
acl.cpp, cann_info_utils.cpp) and aclFinalizeReference (acl.cpp)."""
from __future__ import annotations

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.session import SESSION
from simhelpers import refused


@pytest.fixture
def desc(acl):
    d = acl.create_tensor_desc(C.ACL_FLOAT16, [1, 3, -1, -1], C.ACL_FORMAT_NCHW)
    assert d
    yield d
    acl.destroy_tensor_desc(d)


def test_get_tensor_desc_dim(acl, desc):
    assert [acl.get_tensor_desc_dim(desc, i) for i in range(4)] == [1, 3, -1, -1]
    assert acl.get_tensor_desc_dim(desc, 4) == -1
    assert "index 4 is out of range" in acl.get_recent_err_msg()
    assert acl.get_tensor_desc_dim(0, 0) == -1 and acl.get_recent_err_msg()


def test_origin_and_storage_formats_and_shapes(acl, desc):
    assert acl.set_tensor_storage_format(desc, C.ACL_FORMAT_NC1HWC0) == 0
    assert acl.set_tensor_storage_shape(desc, [1, 1, 224, 224, 16]) == 0
    assert acl.get_tensor_desc_format(desc) == C.ACL_FORMAT_NCHW       # the origin's
    assert acl.set_tensor_origin_format(desc, C.ACL_FORMAT_NHWC) == 0
    assert acl.set_tensor_origin_shape(desc, [1, 224, 224, 3]) == 0
    assert acl.get_tensor_desc_format(desc) == C.ACL_FORMAT_NHWC
    assert acl.get_tensor_desc_num_dims(desc) == 4
    assert acl.get_tensor_desc_dim(desc, 3) == 3
    extras = SESSION.simulator.rt.single_ops.descs[desc].extras
    assert extras["storage_format"] == C.ACL_FORMAT_NC1HWC0
    assert extras["storage_shape"] == [1, 1, 224, 224, 16]
    # NULL: the format setters do nothing and succeed (if (desc != nullptr)), the shape
    # setters refuse
    assert acl.set_tensor_storage_format(0, 1) == 0
    assert acl.set_tensor_origin_format(0, 1) == 0
    refused(acl, acl.set_tensor_storage_shape(0, [1]), C.ACL_ERROR_INVALID_PARAM)
    refused(acl, acl.set_tensor_origin_shape(0, [1]), C.ACL_ERROR_INVALID_PARAM)
    acl.destroy_tensor_desc(acl.create_tensor_desc(C.ACL_FLOAT, [1], C.ACL_FORMAT_ND))


def test_a_destroyed_description_is_refused(acl):
    d = acl.create_tensor_desc(C.ACL_FLOAT, [2], C.ACL_FORMAT_ND)
    acl.destroy_tensor_desc(d)
    refused(acl, acl.set_tensor_storage_format(d, 1), C.ACL_ERROR_INVALID_PARAM, "not a live")
    refused(acl, acl.set_tensor_shape_range(d, [[1, 2]]), C.ACL_ERROR_INVALID_PARAM)
    assert acl.get_tensor_desc_address(d) == 0 and "not a live" in acl.get_recent_err_msg()


def test_shape_ranges(acl, desc):
    assert acl.set_tensor_shape_range(desc, [[1, 1], [3, 3], [1, 224], [1, 224]]) == 0
    assert acl.get_tensor_desc_dim_range(desc, 2, 2) == ([1, 224], 0)
    assert acl.get_tensor_desc_dim_range(desc, 0, 4) == ([1, 1, 0, 0], 0)
    assert acl.get_tensor_desc_dim_range(desc, 4, 2) == (None, C.ACL_ERROR_INVALID_PARAM)
    refused(acl, acl.get_tensor_desc_dim_range(desc, 0, 1), C.ACL_ERROR_INVALID_PARAM, "less")
    refused(acl, acl.get_tensor_desc_dim_range(desc, 0, 5000), C.ACL_ERROR_INVALID_PARAM)
    with pytest.raises(TypeError):
        acl.set_tensor_shape_range(desc, [(1, 2)])           # pyACL wants lists of lists
    assert acl.set_tensor_value_range(desc, [[0, 255]]) == 0
    assert acl.set_tensor_shape_range(desc, []) == 0          # cleared
    assert acl.get_tensor_desc_dim_range(desc, 0, 2)[1] == C.ACL_ERROR_INVALID_PARAM


def test_dynamic_input_placement_address_and_index(acl, desc):
    assert acl.set_tensor_dynamic_input(desc, "x") == 0
    assert acl.set_tensor_place_ment(desc, C.ACL_MEMTYPE_HOST) == 0
    refused(acl, acl.set_tensor_place_ment(0, 0), C.ACL_ERROR_INVALID_PARAM)
    assert acl.get_tensor_desc_address(desc) == 0              # a program's own description
    assert acl.get_tensor_desc_by_index(desc, 0) == desc
    assert acl.get_tensor_desc_by_index(desc, 1) == 0
    assert "past the end" in acl.get_recent_err_msg()
    assert acl.get_tensor_desc_by_index(0, 0) == 0


def test_descriptions_handed_out_as_an_array(acl):
    from acl_lab.sim.single_op.desc_extras import register_array
    made = [acl.create_tensor_desc(C.ACL_FLOAT, [i + 1], C.ACL_FORMAT_ND) for i in range(3)]
    register_array(SESSION.simulator.rt, tuple(made), (0x1000, 0x2000, 0x3000))
    assert [acl.get_tensor_desc_by_index(made[0], i) for i in range(3)] == made
    assert acl.get_tensor_desc_address(acl.get_tensor_desc_by_index(made[0], 2)) == 0x3000
    assert acl.get_tensor_desc_by_index(made[1], 2) == 0


def test_trans_tensor_desc_format_is_reserved(acl, desc):
    refused(acl, acl.trans_tensor_desc_format(desc, C.ACL_FORMAT_NC1HWC0),
            C.ACL_ERROR_API_NOT_SUPPORT, "reserved")
    assert acl.trans_tensor_desc_format(desc, 3)[0] == 0


@pytest.mark.parametrize("profile, attrs", [
    ("910b", [C.ACL_CANN_ATTR_INF_NAN, C.ACL_CANN_ATTR_BF16, C.ACL_CANN_ATTR_JIT_COMPILE]),
    ("310p", [C.ACL_CANN_ATTR_JIT_COMPILE]), ("310", [])])
def test_cann_attributes(acl_on, profile, attrs):
    acl = acl_on(profile)
    assert acl.get_cann_attribute_list() == (attrs, len(attrs), 0)
    for attr in (C.ACL_CANN_ATTR_INF_NAN, C.ACL_CANN_ATTR_BF16, C.ACL_CANN_ATTR_JIT_COMPILE):
        assert acl.get_cann_attribute(attr) == (int(attr in attrs), 0)
    refused(acl, acl.get_cann_attribute(C.ACL_CANN_ATTR_UNDEFINED), C.ACL_ERROR_INVALID_PARAM)


def test_cann_versions(bare_acl):
    acl = bare_acl
    version, ret = acl.get_cann_version(C.ACL_PKG_NAME_CANN)
    assert ret == 0 and version["version"] == "8.5.0"
    assert (version["major_version"], version["minor_version"], version["release_version"],
            version["patch_version"]) == ("8", "5", "0", "0")
    assert acl.get_cann_version(C.ACL_PKG_NAME_DRIVER)[0]["major_version"] == "25"
    empty, ret = acl.get_cann_version(8)
    assert ret == C.ACL_ERROR_INVALID_PARAM and set(empty.values()) == {""}
    assert acl.get_version_str("runtime") == ("8.5.0", 0)
    assert acl.get_version_str("oam_tools") == ("8.5.0", 0)       # "_" read as "-" too
    refused(acl, acl.get_version_str("nothing"), C.ACL_ERROR_INVALID_FILE, "no package")
    assert acl.get_version_str("nothing")[0] == ""


def test_finalize_reference_undoes_one_init(bare_acl):
    acl = bare_acl
    assert acl.finalize_reference() == (0, C.ACL_ERROR_REPEAT_FINALIZE)
    assert acl.init() == 0
    assert acl.init() == C.ACL_ERROR_REPEAT_INITIALIZE      # counted even so
    assert acl.rt.set_device(0) == 0
    assert acl.finalize_reference() == (1, 0)
    assert acl_lab.snapshot()["initialized"]
    assert acl.finalize_reference() == (0, 0)                # the last one finalizes
    assert not acl_lab.snapshot()["initialized"]
    assert acl.finalize_reference() == (0, C.ACL_ERROR_REPEAT_FINALIZE)
    assert acl.init() == 0 and acl.finalize() == 0          # aclFinalize ends every reference
    assert acl.finalize_reference() == (0, C.ACL_ERROR_REPEAT_FINALIZE)
