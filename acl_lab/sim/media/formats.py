"""Pixel formats as DVPP lays them out: bytes per picture, which formats each engine takes,
and the stride rules each engine checks. One table each, so every call judges alike.

Sources: the CANN ACL DVPP code (``single_op/dvpp/base/image_processor.cpp``:
``CalcImageSizeKernel``, ``acldvppJpegPredictDecSize``, ``acldvppJpegPredictEncSize``;
``image_processor_v100.cpp`` / ``image_processor_v200.cpp``: ``ValidateVpcInputFormat``,
``ValidateVpcOutputFormat``, ``ValidateJpegOutputFormat``) and the pyACL reference pages
"JPEGD / VPC / JPEGE functions and restrictions" (hiascend.com aclpythondevg_01_0320,
aclcppdevg_03_0637, aclcppdevg_03_0361).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.spec.socs import Soc

NV12, NV21 = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420, C.PIXEL_FORMAT_YVU_SEMIPLANAR_420
YUV400, RGB, BGR = C.PIXEL_FORMAT_YUV_400, C.PIXEL_FORMAT_RGB_888, C.PIXEL_FORMAT_BGR_888
YUV420SP = (NV12, NV21)

#: the formats whose pixels the simulator computes (the ones the official samples use)
SIMULATED = (NV12, NV21, YUV400, RGB, BGR)

_V100_VPC_IN = frozenset({
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
_V200_VPC_IN = frozenset({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                          C.PIXEL_FORMAT_YUV_SEMIPLANAR_440, C.PIXEL_FORMAT_YVU_SEMIPLANAR_440})
_V100_VPC_OUT = frozenset(YUV420SP)
_V200_VPC_OUT = frozenset({0, 1, 2, 3, 4, 11, 12, 13, 14, 15, 16, 17})
_JPEGD_OUT = frozenset({NV12, NV21, C.PIXEL_FORMAT_YVU_SEMIPLANAR_422,
                        C.PIXEL_FORMAT_YVU_SEMIPLANAR_444, C.PIXEL_FORMAT_YVU_SEMIPLANAR_440,
                        C.PIXEL_FORMAT_UNKNOWN})
#: JPEGE input formats (YUV420SP and the packed 4:2:2 ones)
JPEGE_IN = frozenset({NV12, NV21, 7, 8, 9, 10})


def vpc_inputs(gen: str) -> frozenset:
    return _V100_VPC_IN if gen == "v100" else _V200_VPC_IN


def vpc_outputs(gen: str) -> frozenset:
    return _V100_VPC_OUT if gen == "v100" else _V200_VPC_OUT


def jpegd_outputs() -> frozenset:
    return _JPEGD_OUT


def name(fmt: int) -> str:
    return C.PIXEL_FORMAT_NAMES.get(fmt, str(fmt))


def names(formats) -> str:
    return ", ".join(name(f) for f in sorted(formats))


def picture_bytes(fmt: int, width_stride: int, height_stride: int) -> int:
    """Bytes a picture of ``fmt`` takes (CalcImageSizeKernel). For packed formats the width
    stride is already in bytes (RGB888: width * 3, rounded up to 16)."""
    if fmt in YUV420SP:
        return width_stride * height_stride * 3 // 2
    if fmt in (3, 4, C.PIXEL_FORMAT_YUV_SEMIPLANAR_440, C.PIXEL_FORMAT_YVU_SEMIPLANAR_440):
        return width_stride * height_stride * 2
    if fmt in (5, 6):
        return width_stride * height_stride * 3
    return width_stride * height_stride


def bytes_per_pixel(fmt: int) -> int:
    """Bytes one pixel takes in a row of a packed format (1 for the planar / semi-planar
    ones, whose width stride counts pixels)."""
    return {7: 2, 8: 2, 9: 2, 10: 2, 11: 3, 12: 3, 13: 3, 14: 4, 15: 4, 16: 4, 17: 4}.get(fmt, 1)


def jpegd_strides(soc: Soc, width: int, height: int) -> tuple[int, int]:
    """JPEGD's output strides on ``soc``: the width rounded up to 64 (Atlas A2, 310P,
    200I/500 A2) or 128 (Atlas 200/300/500, Atlas training), the height up to 16 (the SoC
    table, acl_lab.spec.socs)."""
    return align_up(width, soc.jpegd_width_align), align_up(height, soc.jpegd_height_align)


def vpc_min_width_stride(fmt: int, width: int) -> int:
    """The smallest width stride VPC takes: the row in bytes, rounded up to 16."""
    return align_up(width * bytes_per_pixel(fmt), 16)


def even(n: int) -> int:
    """Rounded down to a multiple of 2 (YUV420SP pictures have even sides)."""
    return n & ~1
