"""The descriptors media calls pass around: channel, picture, stream, ROI, resize and
JPEG-encode configs, VDEC / VENC channels and frame configs.

In C each is a struct behind a pointer; pyACL hands the pointer out as an int. Here each
is a small object in one handle table per process (deterministic handles, so notebook
outputs are stable). A handle that is not live (never made, destroyed, NULL) is refused
with ACL_ERROR_INVALID_PARAM before anything changes: real ACL would read freed memory.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError

MEDIA_BASE, HANDLE_STEP = 0x6000_0000, 0x40


@dataclass(eq=False)
class PicDesc:
    """acldvppPicDesc: where a picture lives and how it is laid out."""
    data: int = 0
    size: int = 0
    format: int = C.PIXEL_FORMAT_YUV_400
    width: int = 0
    height: int = 0
    width_stride: int = 0
    height_stride: int = 0
    ret_code: int = 0


@dataclass(eq=False)
class StreamDesc:
    """acldvppStreamDesc: a piece of a video stream (VDEC input, VENC output)."""
    data: int = 0
    size: int = 0
    format: int = C.H265_MAIN_LEVEL
    timestamp: int = 0
    eos: int = 0
    ret_code: int = 0


@dataclass(eq=False)
class ChannelDesc:
    """acldvppChannelDesc; ``created`` once acldvppCreateChannel succeeded, which gives it
    its channel id."""
    created: bool = False
    mode: int = 0
    channel_id: int = 0
    csc_matrix: int = C.ACL_DVPP_CSC_MATRIX_BT601_WIDE


@dataclass(eq=False)
class RoiConfig:
    """acldvppRoiConfig: a rectangle by its inclusive edges."""
    left: int = 0
    right: int = 0
    top: int = 0
    bottom: int = 0


@dataclass(eq=False)
class ResizeConfig:
    interpolation: int = 0


@dataclass(eq=False)
class JpegeConfig:
    level: int = 100


@dataclass(eq=False)
class VdecChannelDesc:
    channel_id: int = 0
    thread_id: int = 0
    callback: object = None
    entype: int = C.H265_MAIN_LEVEL
    out_pic_format: int = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420
    out_pic_width: int = 0
    out_pic_height: int = 0
    ref_frame_num: int = 0
    out_mode: int = 0
    bit_depth: int = 0
    csc_matrix: int = C.ACL_DVPP_CSC_MATRIX_BT601_WIDE
    channel: object = None          # the live decoder (video.VdecChannel) once created


@dataclass(eq=False)
class VencChannelDesc:
    thread_id: int = 0
    callback: object = None
    entype: int = C.H264_MAIN_LEVEL
    pic_format: int = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420
    pic_width: int = 0
    pic_height: int = 0
    key_frame_interval: int = 16
    buf_addr: int = 0
    buf_size: int = 0
    rc_mode: int = 0
    src_rate: int = 0
    max_bit_rate: int = 0
    max_ip_prop: int = 0
    channel_id: int = 0             # given by aclvencCreateChannel
    channel: object = None          # the live encoder (video.VencChannel) once created


@dataclass(eq=False)
class FrameConfig:
    """aclvdecFrameConfig / aclvencFrameConfig."""
    kind: str = "vdec"
    force_i_frame: int = 0
    eos: int = 0


@dataclass(eq=False)
class BatchPicDesc:
    """acldvppBatchPicDesc: ``pics`` are the handles of its pictures (acldvppGetPicDesc hands
    them out; they live and die with the batch)."""
    pics: tuple = ()


@dataclass(eq=False)
class BatchMember(PicDesc):
    """A picture description inside an acldvppBatchPicDesc."""


@dataclass(eq=False)
class BorderConfig:
    """acldvppBorderConfig: the border make-border adds around a picture (value[] per
    colour component, BORDER_CONSTANT by default)."""
    value: list = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])
    border_type: int = C.BORDER_CONSTANT
    top: int = 0
    bottom: int = 0
    left: int = 0
    right: int = 0


#: the C type of each descriptor, for messages
C_TYPES = {PicDesc: "acldvppPicDesc", StreamDesc: "acldvppStreamDesc",
           ChannelDesc: "acldvppChannelDesc", RoiConfig: "acldvppRoiConfig",
           ResizeConfig: "acldvppResizeConfig", JpegeConfig: "acldvppJpegeConfig",
           VdecChannelDesc: "aclvdecChannelDesc", VencChannelDesc: "aclvencChannelDesc",
           FrameConfig: "aclvdecFrameConfig / aclvencFrameConfig",
           BatchPicDesc: "acldvppBatchPicDesc", BatchMember: "acldvppPicDesc",
           BorderConfig: "acldvppBorderConfig"}


@dataclass(eq=False)
class Descriptors:
    """Every live media descriptor of one simulated process, by handle."""
    live: dict = field(default_factory=dict)
    made: int = 0

    def add(self, obj) -> int:
        self.made += 1
        handle = MEDIA_BASE + self.made * HANDLE_STEP
        self.live[handle] = obj
        return handle

    def get(self, handle: int, kind: type, call: str, what: str):
        """The live ``kind`` descriptor ``handle`` names; ACL_ERROR_INVALID_PARAM otherwise."""
        obj = self.live.get(handle)
        if isinstance(obj, kind):
            return obj
        want = C_TYPES[kind]
        if handle == 0:
            why = _("{call}: {what} is NULL (0). Create it first ({ctype}).")
        elif obj is None:
            why = _("{call}: {what} {handle} is not a live {ctype}: it was never created or "
                    "was destroyed. Real ACL would read freed memory here.")
        else:
            why = _("{call}: {what} {handle} is a {other}, not a {ctype}.")
        raise SimError(C.ACL_ERROR_INVALID_PARAM, why.format(
            call=call, what=what, handle=f"0x{handle:x}", ctype=want,
            other=C_TYPES.get(type(obj), "?")))

    def destroy(self, handle: int, kind: type, call: str, what: str):
        obj = self.get(handle, kind, call, what)
        del self.live[handle]
        return obj
