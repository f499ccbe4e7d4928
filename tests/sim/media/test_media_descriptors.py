"""Every acl.media setter stores what its getter returns, on the description it was made
for, and refuses what pyACL refuses (descriptions of another kind, values beyond the C
type): one test per setter / getter pair of acl/ops/acl_dvpp.h."""
from __future__ import annotations

import pytest

from acl_lab import constants as C
from acl_lab.spec.prototypes import PROTOTYPES

CREATORS = {"dvpp_{}_pic_desc_": "dvpp_create_pic_desc",
            "dvpp_{}_stream_desc_": "dvpp_create_stream_desc",
            "dvpp_{}_resize_config_": "dvpp_create_resize_config",
            "dvpp_{}_jpege_config_": "dvpp_create_jpege_config",
            "vdec_{}_channel_desc_": "vdec_create_channel_desc",
            "venc_{}_channel_desc_": "venc_create_channel_desc",
            "venc_{}_frame_config_": "venc_create_frame_config"}
PAIRS = sorted((prefix, name[len("media.") + len(prefix.format("set")):])
               for name in PROTOTYPES for prefix in CREATORS
               if name.startswith("media." + prefix.format("set"))
               and not name.endswith("_param")           # (desc, type, value): tested below
               and not name.endswith("_callback")        # a function: the next test
               and "media." + prefix.format("get") + name[len("media.") + len(
                   prefix.format("set")):] in PROTOTYPES)


def test_the_pairs_cover_every_description():
    assert {prefix for prefix, _ in PAIRS} == set(CREATORS)
    assert len(PAIRS) >= 30


@pytest.mark.parametrize("kind", ["vdec", "venc"])
def test_the_callback_getter_gives_the_function_set_and_raises_as_pyacl_without_one(acl, kind):
    m = acl.media
    desc = getattr(m, f"{kind}_create_channel_desc")()
    get = getattr(m, f"{kind}_get_channel_desc_callback")
    with pytest.raises(RuntimeError, match="did not set callback"):
        get(desc)
    def fn(*args):
        return None
    assert getattr(m, f"{kind}_set_channel_desc_callback")(desc, fn) == 0
    assert get(desc) is fn
    with pytest.raises(RuntimeError, match="did not set callback"):
        get(0)


@pytest.mark.parametrize("prefix, field", PAIRS)
def test_a_setter_stores_what_its_getter_returns(acl, prefix, field):
    m = acl.media
    desc = getattr(m, CREATORS[prefix])()
    other = m.dvpp_create_roi_config(0, 1, 2, 3)
    setter = getattr(m, prefix.format("set") + field)
    getter = getattr(m, prefix.format("get") + field)
    wide = ("data", "timestamp", "thread_id", "buf_addr")      # pointers and 64-bit values
    value = 0x1234_5678_9A if field in wide else 3
    assert setter(desc, value) == 0, acl.get_recent_err_msg()
    assert getter(desc) == value
    assert setter(other, value) == C.ACL_ERROR_INVALID_PARAM
    assert "acldvppRoiConfig" in acl.get_recent_err_msg()
    assert getter(0) == 0 and acl.get_recent_err_msg()
    if field not in wide:
        assert setter(desc, 1 << 40) == C.ACL_ERROR_INVALID_PARAM
        assert getter(desc) == value          # a refused call changes nothing
    with pytest.raises(TypeError):
        setter(desc, "three")


def test_venc_param_calls_reach_the_same_fields_as_the_named_setters(acl):
    m = acl.media
    desc = m.venc_create_channel_desc()
    for param_type, getter, value in ((0, "thread_id", 77), (2, "pic_format", 2),
                                      (3, "entype", 1), (4, "pic_width", 640),
                                      (5, "pic_height", 480), (6, "key_frame_interval", 8)):
        assert m.venc_set_channel_desc_param(desc, param_type, value) == 0
        assert getattr(m, f"venc_get_channel_desc_{getter}")(desc) == value
        assert m.venc_get_channel_desc_param(desc, param_type) == (value, 0)
    assert m.venc_set_channel_desc_param(desc, 1, print) == 0     # ACL_VENC_CALLBACK_PTR
    assert m.venc_get_channel_desc_param(desc, 1) == (print, 0)
    assert m.venc_set_channel_desc_param(desc, 13, 0) == C.ACL_ERROR_INVALID_PARAM
    assert m.venc_get_channel_desc_param(desc, -1) == (0, C.ACL_ERROR_INVALID_PARAM)
