"""Chapter 09's checks: each passes with its kit solution typed into its exercise's fresh
state, fails with a hint for an unfinished answer and for the plausible wrong ones (the
padding kept, rows read as if packed, a width stride VPC refuses, a double free)."""
from __future__ import annotations

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab import exercises
from acl_lab.constants import *  # noqa: F403 - the names a solution uses, as in a chapter

NAMES = {"09.1": ("decoded",), "09.2": ("stream", "channel", "decoded", "out_desc",
                                        "resize_config"),
         "09.3": ("stream", "channel", "jpeg_dev", "yuv", "decoded")}


def started(exercise_id: str, acl) -> dict:
    exercises.forget(exercise_id)
    handles = exercises.start(exercise_id, acl)
    values = handles if isinstance(handles, tuple) else (handles,)
    scope = {**{k: v for k, v in globals().items() if k.isupper()}, "np": np, "acl": acl,
             "acl_lab": acl_lab}
    scope.update(zip(NAMES[exercise_id], values))
    return scope


def solved(exercise_id: str, acl) -> dict:
    scope = started(exercise_id, acl)
    exec(exercises.solution(exercise_id).code, scope)
    return scope


def test_09_1_the_picture_without_its_padding(acl):
    s = solved("09.1", acl)
    assert s["luma"].shape == (150, 200)
    assert exercises.check("09.1", acl, s["luma"], s["decoded"]).passed
    bright = s["luma"][75, 100]                      # the yellow bar is bright in Y
    assert bright > 150 and s["luma"][5, 5] < 60
    s = started("09.1", acl)
    assert not exercises.check("09.1", acl, ..., s["decoded"]).passed
    ws, hs = 256, 160
    plane = np.zeros(ws * hs, np.uint8)
    acl.rt.memcpy(acl.util.numpy_to_ptr(plane), plane.nbytes,
                  acl.media.dvpp_get_pic_desc_data(s["decoded"]), plane.nbytes,
                  C.ACL_MEMCPY_DEVICE_TO_HOST)
    padded = exercises.check("09.1", acl, plane.reshape(hs, ws), s["decoded"])
    assert not padded.passed and "padding" in padded.message
    packed = exercises.check("09.1", acl, plane[:200 * 150].reshape(150, 200), s["decoded"])
    assert not packed.passed and "256" in packed.message


def test_09_2_describe_a_vpc_output(acl):
    s = solved("09.2", acl)
    result = exercises.check("09.2", acl, s["out_desc"], s["stream"])
    assert result.passed and "112" in result.message
    s = started("09.2", acl)
    assert not exercises.check("09.2", acl, s["out_desc"], s["stream"]).passed
    code = exercises.solution("09.2").code.replace("(100 + 15) // 16 * 16", "100")
    exec(code, s)                                     # a width stride VPC refuses
    result = exercises.check("09.2", acl, s["out_desc"], s["stream"])
    assert not result.passed and "507018" in result.message


def test_09_3_give_back_what_the_pipeline_took(acl):
    s = solved("09.3", acl)
    assert exercises.check("09.3", acl, s["channel"], s["decoded"]).passed
    s = started("09.3", acl)
    acl.media.dvpp_free(s["yuv"])
    result = exercises.check("09.3", acl, s["channel"], s["decoded"])
    assert not result.passed and "still allocated" in result.message
    acl.media.dvpp_free(s["yuv"])                     # the sample's double free
    result = exercises.check("09.3", acl, s["channel"], s["decoded"])
    assert not result.passed and "media.dvpp_free returned 107000" in result.message
