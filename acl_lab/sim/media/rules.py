"""The rules DVPP's engines check on the device, when a queued task runs: where a picture
lives, its strides, its buffer size, its rectangles. Each rule lives here once.

ACL checks little on the host (ACL's ``acldvppVpcResizeAsync`` checks formats and the
resize config, then launches the task); the engine checks the rest when it runs, so a
broken picture shows up at the synchronize that waits for it: that call returns
ACL_ERROR_RT_AICPU_EXCEPTION (DVPP tasks are AI CPU kernels, launched with
rtCpuKernelLaunch), the output descriptor's ret code is set, and no byte is written.
Figures: "Restrictions on Image Formats, Width and Height Alignment, and Buffers" of VPC,
JPEGD and JPEGE in the CANN reference (aclcppdevg_03_0637, aclpythondevg_01_0320,
aclcppdevg_03_0361), and acldvppMalloc's 128-byte starts (docs/rules.md#rule-10).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.align import DVPP_ALIGN
from acl_lab.i18n import _
from acl_lab.spec.codes import acl_lab_check
from acl_lab.sim.simerror import SimError, TaskFailed
from acl_lab.sim.media import formats as F
from acl_lab.sim.media.descriptors import PicDesc, RoiConfig

#: what a failed media task leaves in its output descriptor's ret code (any nonzero value
#: means failure in the reference; the simulator uses the code the stream reports)
DEVICE_FAILURE = C.ACL_ERROR_RT_AICPU_EXCEPTION
#: VPC's picture sides (Atlas 200/300/500 and Atlas inference products: 10x6 .. 4096x4096)
VPC_MIN, VPC_MAX = (10, 6), (4096, 4096)


def vdec_max_sides(soc_name: str, hevc: bool) -> tuple[int, int]:
    """(width, height) of the largest picture VDEC decodes on ``soc_name``: 4096 x 4096,
    except on the Atlas 200I/500 A2 (Ascend310B): H.264 8192 x 8192, H.265 5400 x 8192
    ("VDEC Functions and Restrictions", aclpythondevg_01_0337, CANN 8.5)."""
    if soc_name.startswith("Ascend310B"):
        return (5400, 8192) if hevc else (8192, 8192)
    return 4096, 4096


def failed(call: str, why: str) -> TaskFailed:
    return TaskFailed(DEVICE_FAILURE, acl_lab_check(_(
        "{call} failed when the device ran it: {why} The call itself had returned 0 (the "
        "task was only queued); the stream reports the failure now, the output "
        "descriptor's ret code is set, and no output byte was written.").format(
            call=call, why=why)))



def dvpp_memory(rt, ptr: int, nbytes: int, call: str, what: str):
    """(allocation, offset) of ``nbytes`` of DVPP memory at ``ptr``; TaskFailed otherwise."""
    if ptr == 0:
        raise failed(call, _("{what} is NULL (0): set it with "
                             "acl.media.dvpp_set_pic_desc_data.").format(what=what))
    a = rt.memory.map.find(ptr)
    if a is None or not a.alive():
        raise failed(call, _("{what} {ptr} is not memory of this process (never allocated, "
                             "or freed).").format(what=what, ptr=f"0x{ptr:x}"))
    if a.api != "dvpp_malloc":
        raise failed(call, _("{what} lies in {block}. DVPP engines read and write only "
                             "memory from acl.media.dvpp_malloc (or a MemoryPool over it): "
                             "allocate the picture there.").format(
                                 what=what, block=a.describe()))
    if ptr % DVPP_ALIGN:
        raise failed(call, _("{what} {ptr} is not 128-byte aligned. DVPP pictures start "
                             "on 128-byte boundaries, as acl.media.dvpp_malloc returns "
                             "them.").format(what=what, ptr=f"0x{ptr:x}"))
    if ptr + nbytes > a.ptr + a.size:
        raise failed(call, _("{what} needs {need} bytes from {ptr}, but {block} ends {left} "
                             "bytes after it.").format(
                                 what=what, need=nbytes, ptr=f"0x{ptr:x}", block=a.describe(),
                                 left=a.ptr + a.size - ptr))
    return a, ptr - a.ptr


def buffer_size(call: str, pic: PicDesc, need: int, what: str) -> None:
    if pic.size < need:
        raise failed(call, _("{what} holds {size} bytes (dvpp_set_pic_desc_size), but a "
                             "{fmt} picture of width stride {ws} and height stride {hs} "
                             "takes {need}.").format(
                                 what=what, size=pic.size, fmt=F.name(pic.format),
                                 ws=pic.width_stride, hs=pic.height_stride, need=need))


def vpc_picture(call: str, pic: PicDesc, what: str) -> int:
    """A VPC input or output: sides in range, width stride a multiple of 16 covering the
    row, height stride a multiple of 2 covering the height. Its size in bytes."""
    (wmin, hmin), (wmax, hmax) = VPC_MIN, VPC_MAX
    if not (wmin <= pic.width <= wmax and hmin <= pic.height <= hmax):
        raise failed(call, _("{what} is {w}x{h}; VPC takes {wmin}x{hmin} to {wmax}x{hmax}. "
                             "Set width and height with dvpp_set_pic_desc_width / "
                             "_height.").format(what=what, w=pic.width, h=pic.height,
                                                wmin=wmin, hmin=hmin, wmax=wmax, hmax=hmax))
    row = F.vpc_min_width_stride(pic.format, pic.width)
    if pic.width_stride % 16 or pic.width_stride < row:
        raise failed(call, _("{what} has width stride {ws}; VPC needs a multiple of 16 of at "
                             "least {row} (the row of {w} pixels of {fmt} in bytes, rounded "
                             "up to 16).").format(what=what, ws=pic.width_stride, row=row,
                                                  w=pic.width, fmt=F.name(pic.format)))
    if pic.height_stride % 2 or pic.height_stride < pic.height:
        raise failed(call, _("{what} has height stride {hs}; VPC needs a multiple of 2 of "
                             "at least the height {h}.").format(
                                 what=what, hs=pic.height_stride, h=pic.height))
    need = F.picture_bytes(pic.format, pic.width_stride, pic.height_stride)
    buffer_size(call, pic, need, what)
    return need


def jpege_picture(call: str, pic: PicDesc) -> int:
    """JPEGE's input rules (ACL's acldvppJpegPredictEncSize checks the same on the host)."""
    from acl_lab.sim.media.jpeg import MAX_SIDE, MIN_SIDE
    w, h, ws, hs = pic.width, pic.height, pic.width_stride, pic.height_stride
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the input picture is {w}x{h}; JPEGE takes {lo}x{lo} to {hi}x{hi}.").format(
                call=call, w=w, h=h, lo=MIN_SIDE, hi=MAX_SIDE))
    if pic.format in F.YUV420SP and (w % 2 or h % 2):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: a YUV420SP picture to encode needs an even width and height, not "
            "{w}x{h}.").format(call=call, w=w, h=h))
    if ws % 16 or ws < w:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: width stride {ws} must be a multiple of 16 of at least the width "
            "{w}.").format(call=call, ws=ws, w=w))
    if not (hs == h or (hs > h and hs % 16 == 0)):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: height stride {hs} must equal the height {h}, or be a larger multiple "
            "of 16.").format(call=call, hs=hs, h=h))
    return F.picture_bytes(pic.format, ws, hs)


def area(call: str, roi: RoiConfig, pic: PicDesc, what: str, paste: bool) -> tuple:
    """(left, top, width, height) of a crop or paste rectangle: inside the picture, left
    and top even (a paste's left a multiple of 16), right and bottom odd (edges are
    inclusive), at least 10x6."""
    w, h = roi.right - roi.left + 1, roi.bottom - roi.top + 1
    why = None
    if roi.right >= pic.width or roi.bottom >= pic.height or w < 10 or h < 6:
        why = _("it must lie inside the {pw}x{ph} picture and be at least 10x6.")
    elif roi.left % (16 if paste else 2) or roi.top % 2:
        why = (_("its left edge must be a multiple of 16 and its top edge even.") if paste
               else _("its left and top edges must be even."))
    elif roi.right % 2 == 0 or roi.bottom % 2 == 0:
        why = _("its right and bottom edges are inclusive and must be odd, so the width "
                "and height are even.")
    if why:
        raise failed(call, _("the {what} area (left {l}, right {r}, top {t}, bottom {b}) "
                             "is not usable: {why}").format(
                                 what=what, l=roi.left, r=roi.right, t=roi.top, b=roi.bottom,
                                 why=why.format(pw=pic.width, ph=pic.height)))
    return roi.left, roi.top, w, h


def scale(call: str, crop: tuple, paste: tuple) -> None:
    """VPC scales each side by 1/32 .. 16."""
    for src, dst in ((crop[2], paste[2]), (crop[3], paste[3])):
        if not (src <= 32 * dst and dst <= 16 * src):
            raise failed(call, _("scaling {src} pixels to {dst} is outside VPC's range of "
                                 "1/32 to 16 times.").format(src=src, dst=dst))
