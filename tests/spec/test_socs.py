"""The SoC table (acl_lab/spec/socs.py): one row per product line, read by the profiles,
the media engines, acl-lab doctor and the chapters' badges; each SoC-dependent rule follows
the profile's row."""
from __future__ import annotations

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import PROFILES
from acl_lab.spec.socs import CHECKED_AGAINST, RULES, SOCS, badge, captures, soc_of
from simhelpers import fresh

MiB = 1 << 20


@pytest.mark.parametrize("name, key", [("Ascend910B3", "910b"), ("Ascend910", "910"),
                                       ("Ascend910_9391", "A3"), ("Ascend310P3", "310p"),
                                       ("Ascend310B4", "310b"), ("Ascend310", "310")])
def test_the_longest_prefix_names_the_product_line(name, key):
    assert soc_of(name).key == key


def test_a_soc_the_table_does_not_know_is_let_try_capture():
    with pytest.raises(KeyError):
        soc_of("Ascend610")
    assert captures("Ascend610")


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_profile_is_a_row_and_has_what_its_row_says(profile):
    p = PROFILES[profile]
    assert ("HBM" in p.kinds) == p.soc.hbm
    assert any(s.page == "huge1g" for s in p.pools) == p.soc.huge1g_pages


@pytest.mark.parametrize("profile, can", [("910b", True), ("310p", True), ("310", False),
                                          ("200dk", False), ("310b", False)])
def test_capture_follows_the_soc(profile, can):
    """rtStreamBeginCapture needs RT_FEATURE_MODEL_ACL_GRAPH: the Ascend 310 (config "mini")
    and 310B ("mini_v3") lack it -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT."""
    acl = fresh(profile)
    stream, _ = acl.rt.create_stream()
    ret = acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    if can:
        assert ret == 0 and acl.mdl.ri_destroy(acl.mdl.ri_capture_end(stream)[0]) == 0
    else:
        assert ret == C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        assert soc_of(acl.get_soc_name()).product in acl.get_recent_err_msg()
    acl_lab.reset()


@pytest.mark.parametrize("profile, ret", [("910b", 0), ("310p", C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
                                          ("310", C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)])
def test_1g_page_attributes_follow_the_soc(profile, ret):
    """NpuDriver::MemGetInfoEx -> CheckIfSupport1GHugePage: RT_FEATURE_MEM_1G_HUGE_PAGE."""
    acl = fresh(profile)
    assert acl.rt.get_mem_info(C.ACL_HBM_MEM_HUGE1G)[-1] == ret
    assert acl.rt.get_mem_info(C.ACL_MEM_P2P_NORMAL)[-1] == 0     # lacked: 0 / 0, no error
    acl_lab.reset()


@pytest.mark.parametrize("profile, ret", [("910b", 0), ("310p", C.ACL_ERROR_INVALID_PARAM)])
def test_memcpy2d_async_device_to_device_follows_the_soc(profile, ret):
    """11-03 aclrtMemcpy2dAsync: DEVICE_TO_DEVICE only on 950, A3 and A2; other kinds
    return ACL_ERROR_INVALID_PARAM."""
    acl = fresh(profile)
    stream, _ = acl.rt.create_stream()
    a, _ = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    b, _ = acl.rt.malloc(256, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy2d_async(b, 16, a, 16, 16, 4, C.ACL_MEMCPY_DEVICE_TO_DEVICE,
                                 stream) == ret
    assert acl.rt.synchronize_stream(stream) == 0
    acl_lab.reset()


def test_a_badge_reads_its_values_from_the_table():
    text = badge("jpegd_width_align")
    assert "910b, 310p, 310b: 64" in text and "310: 128" in text and CHECKED_AGAINST in text
    assert all(RULES) and len({s.key for s in SOCS}) == len(SOCS)
