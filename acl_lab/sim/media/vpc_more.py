"""VPC's colour conversion and pyramid down-sampling (acldvppVpcConvertColorAsync,
acldvppVpcPyrDownAsync), on the Atlas inference products' DVPP (ImageProcessorV200; the
Atlas 200/300/500's has neither: ACL_ERROR_FEATURE_UNSUPPORTED).

As image_processor_v200.cpp checks on the host: ConvertColor takes a VPC input format and
an output of its own list (ValidConvertColorParam), PyrDown YUV400 in and out
(ValidatePyrDownFormat) and a NULL reserve; a format off the list is
ACL_ERROR_FORMAT_NOT_MATCH. On the device (rules.py), as for VPC: the picture rules, and
for ConvertColor an output the size of the input, for PyrDown an output of half the
input's sides rounded up (OpenCV's pyrDown: a 5x5 Gaussian, border reflect-101).
"""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.media import dvpp, pixels, rules, state
from acl_lab.sim.media import formats as F
from acl_lab.sim.media.descriptors import PicDesc
from acl_lab.sim.simerror import SimError

CONVERT_OUTPUTS = frozenset({F.YUV400, F.NV12, F.NV21, C.PIXEL_FORMAT_YUV_SEMIPLANAR_422,
                             C.PIXEL_FORMAT_YVU_SEMIPLANAR_422, C.PIXEL_FORMAT_YUV_PACKED_444,
                             F.RGB, F.BGR, C.PIXEL_FORMAT_ARGB_8888, C.PIXEL_FORMAT_ABGR_8888,
                             C.PIXEL_FORMAT_RGBA_8888, C.PIXEL_FORMAT_BGRA_8888})
_KERNEL = np.array([1, 4, 6, 4, 1], np.float32) / 16


def _v200(rt, call: str) -> None:
    if state.of(rt).gen == "v100":
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: the DVPP of {soc} (Atlas 200/300/500 inference products) has no such "
            "function; the Atlas inference products' (310P) has.").format(
                call=call, soc=rt.profile.soc_name))


def convert_color(rt, channel: int, in_desc: int, out_desc: int, stream: int) -> None:
    call = "acldvppVpcConvertColorAsync"
    _v200(rt, call)
    m = state.of(rt)
    ch = dvpp._channel(m, call, channel)
    inp = m.descs.get(in_desc, PicDesc, call, "inputDesc")
    out = m.descs.get(out_desc, PicDesc, call, "outputDesc")

    def host_checks() -> None:
        dvpp._format_in(call, inp.format, F.vpc_inputs(m.gen), _("input picture"))
        dvpp._format_in(call, out.format, CONVERT_OUTPUTS, _("output picture"))
        dvpp._simulated(call, inp.format)
        dvpp._simulated(call, out.format)

    host_checks()

    def run() -> None:
        dvpp._on_device(call, host_checks)
        dvpp._created(call, ch, "vpc")
        if (out.width, out.height) != (inp.width, inp.height):
            raise rules.failed(call, _("the output picture is {ow}x{oh}, the input {iw}x{ih}: "
                                       "colour conversion keeps the size.").format(
                                           ow=out.width, oh=out.height, iw=inp.width,
                                           ih=inp.height))
        frame, write = _read_write(rt, call, inp, out)
        write(frame)

    dvpp._queue(rt, call, stream, "vpc", inp.width * inp.height, run, (out,),
                (inp.data, out.data), {"input": inp.data, "output": out.data})


def pyr_down(rt, channel: int, in_desc: int, out_desc: int, reserve: int,
             stream: int) -> None:
    call = "acldvppVpcPyrDownAsync"
    _v200(rt, call)
    m = state.of(rt)
    ch = dvpp._channel(m, call, channel)
    inp = m.descs.get(in_desc, PicDesc, call, "inputDesc")
    out = m.descs.get(out_desc, PicDesc, call, "outputDesc")
    if reserve != 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: reserve must be NULL (0), not {value}.").format(call=call, value=reserve))

    def host_checks() -> None:
        for pic, what in ((inp, _("input picture")), (out, _("output picture"))):
            dvpp._format_in(call, pic.format, {F.YUV400}, what)

    host_checks()

    def run() -> None:
        dvpp._on_device(call, host_checks)
        dvpp._created(call, ch, "vpc")
        want = ((inp.width + 1) // 2, (inp.height + 1) // 2)
        if (out.width, out.height) != want:
            raise rules.failed(call, _("the output picture is {ow}x{oh}; pyramid down of a "
                                       "{iw}x{ih} picture gives {w}x{h}.").format(
                                           ow=out.width, oh=out.height, iw=inp.width,
                                           ih=inp.height, w=want[0], h=want[1]))
        frame, write = _read_write(rt, call, inp, out)
        write(pixels.Frame(y=_pyr_down(frame.y), uv=np.full(
            (want[1] // 2, want[0] // 2, 2), 128, np.uint8)))

    dvpp._queue(rt, call, stream, "vpc", inp.width * inp.height, run, (out,),
                (inp.data, out.data), {"input": inp.data, "output": out.data})


def _read_write(rt, call: str, inp: PicDesc, out: PicDesc):
    """The input picture, and a function writing a frame as the output picture."""
    in_bytes = rules.vpc_picture(call, inp, _("the input picture"))
    out_bytes = rules.vpc_picture(call, out, _("the output picture"))
    a_in, i_off = rules.dvpp_memory(rt, inp.data, in_bytes, call, _("the input picture"))
    a_out, o_off = rules.dvpp_memory(rt, out.data, out_bytes, call, _("the output picture"))
    rt.memory.ram.need(in_bytes + a_out.fresh_bytes(o_off, out_bytes)
                       + pixels.scratch_bytes(inp.width, inp.height), call)
    frame = pixels.read(dvpp._read(rt, call, a_in, i_off, in_bytes), inp.format, inp.width,
                        inp.height, inp.width_stride, inp.height_stride)

    def write(f) -> None:
        pixels.write(a_out.view(o_off, out_bytes, call), out.format, out.width_stride,
                     out.height_stride, f)
    return frame, write


def _pyr_down(plane: np.ndarray) -> np.ndarray:
    """OpenCV's pyrDown of one plane: blur with [1 4 6 4 1]/16 both ways (reflect-101 at the
    edges), keep every second pixel, round."""
    p = plane.astype(np.float32)
    for axis in (0, 1):
        n = p.shape[axis]
        padded = np.pad(p, [(2, 2) if a == axis else (0, 0) for a in range(2)],
                        mode="reflect" if n > 2 else "edge")
        p = sum(_KERNEL[k] * np.take(padded, np.arange(k, k + n), axis=axis)
                for k in range(5))
    return np.clip(np.rint(p[::2, ::2]), 0, 255).astype(np.uint8)
