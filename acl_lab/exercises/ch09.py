"""Chapter 09 checks: a decoded picture read without its padding, a VPC output described
with the strides and the buffer VPC needs, and a pipeline that gives back all it took."""
from __future__ import annotations

import io

import numpy as np

import acl_lab
from acl_lab import constants as C

from acl_lab.i18n import _
from acl_lab.trace import untraced
from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name
from acl_lab.exercises.ch03 import device_bytes

NV12 = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420
#: the picture every exercise decodes: 200x150, a yellow bar on dark blue (strides 256x160)
WIDTH, HEIGHT = 200, 150


def sample_jpeg() -> bytes:
    """A small JPEG made here (no file, no download)."""
    from PIL import Image, ImageDraw
    picture = Image.new("RGB", (WIDTH, HEIGHT), (20, 30, 90))
    ImageDraw.Draw(picture).rectangle((40, 50, 160, 100), fill=(250, 210, 0))
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90)
    return out.getvalue()


def _pic_desc(acl, data: int, size: int) -> int:
    m = acl.media
    desc = m.dvpp_create_pic_desc()
    m.dvpp_set_pic_desc_data(desc, data)
    m.dvpp_set_pic_desc_size(desc, size)
    m.dvpp_set_pic_desc_format(desc, NV12)
    return desc


def _decode(acl):
    """A stream, a created channel and the sample JPEG decoded into DVPP memory."""
    m = acl.media
    stream, _r = acl.rt.create_stream()
    channel = m.dvpp_create_channel_desc()
    m.dvpp_create_channel(channel)
    jpeg = sample_jpeg()
    jpeg_dev, _r = m.dvpp_malloc(len(jpeg))
    acl.rt.memcpy(jpeg_dev, len(jpeg), acl.util.bytes_to_ptr(jpeg), len(jpeg),
                  C.ACL_MEMCPY_HOST_TO_DEVICE)
    size, _r = m.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(jpeg), len(jpeg), NV12)
    yuv, _r = m.dvpp_malloc(size)
    decoded = _pic_desc(acl, yuv, size)
    m.dvpp_jpeg_decode_async(channel, jpeg_dev, len(jpeg), decoded, stream)
    acl.rt.synchronize_stream(stream)
    return stream, channel, jpeg_dev, yuv, decoded


def _get(acl, field: str, desc: int) -> int:
    return untraced(getattr(acl.media, f"dvpp_get_pic_desc_{field}"))(desc)


# ----- 09.1 --------------------------------------------------------------------------------
def _decoded(acl):
    """09.1: the decoded picture's description."""
    return _decode(acl)[-1]


@exercise("09.1", "The picture without its padding",
          "The decoded picture lies in rows of width-stride bytes. Copy its Y plane (width "
          "stride x height stride bytes) to the host, then keep only the picture's rows and "
          "columns.",
          level="easy",
          more=("Read the four numbers with acl.media.dvpp_get_pic_desc_width / _height / "
                "_width_stride / _height_stride(decoded); copy ws * hs bytes from "
                "dvpp_get_pic_desc_data(decoded) with ACL_MEMCPY_DEVICE_TO_HOST into a numpy "
                "array, reshape it to (hs, ws) and slice [:h, :w].",),
          setup=_decoded,
          solution="""
          m = acl.media
          w, h = m.dvpp_get_pic_desc_width(decoded), m.dvpp_get_pic_desc_height(decoded)
          ws, hs = m.dvpp_get_pic_desc_width_stride(decoded), m.dvpp_get_pic_desc_height_stride(decoded)
          plane = np.zeros(ws * hs, dtype=np.uint8)            # the Y plane, padding included
          acl.rt.memcpy(acl.util.numpy_to_ptr(plane), plane.nbytes, m.dvpp_get_pic_desc_data(decoded),
                        plane.nbytes, ACL_MEMCPY_DEVICE_TO_HOST)
          luma = plane.reshape(hs, ws)[:h, :w]                  # rows of ws bytes; keep the picture
          """)
def without_padding(acl, luma: np.ndarray, decoded: int):
    name = learner_name(luma, "luma")
    w, h = _get(acl, "width", decoded), _get(acl, "height", decoded)
    ws, hs = _get(acl, "width_stride", decoded), _get(acl, "height_stride", decoded)
    if not w or not ws:
        raise NotYet(_("decoded describes no picture: run the exercise cell from its first "
                       "line."))
    plane = device_bytes(acl, _get(acl, "data", decoded), ws * hs).reshape(hs, ws)
    got = np.asarray(luma)
    if got.shape != (h, w):
        if got.size == ws * hs or got.shape == (hs, ws):
            raise NotYet(_("{name} has the padding too ({shape}): keep the picture's "
                           "{h} rows of {w} columns.").format(name=name, shape=got.shape,
                                                              h=h, w=w))
        raise NotYet(_("{name} has shape {shape}; the picture is {h} rows of {w} "
                       "columns.").format(name=name, shape=got.shape, h=h, w=w))
    if np.array_equal(got, plane.reshape(-1)[:w * h].reshape(h, w)) and ws != w:
        raise NotYet(_("{name} took the first {n} bytes as if rows were {w} bytes long: "
                       "each row starts {ws} bytes after the one before (the width "
                       "stride).").format(name=name, n=w * h, w=w, ws=ws))
    if not np.array_equal(got, plane[:h, :w]):
        raise NotYet(_("{name} is not the picture's Y plane: copy width stride x height "
                       "stride bytes, reshape to (height stride, width stride), slice "
                       "[:height, :width].").format(name=name))
    return _("{h} rows of {w} pixels, read from rows of {ws} bytes: the {pad} padding "
             "columns stayed behind.").format(h=h, w=w, ws=ws, pad=ws - w)


# ----- 09.2 --------------------------------------------------------------------------------
OUT_W, OUT_H = 100, 50


def _resize_setup(acl):
    """09.2: stream, channel, the decoded picture, an empty output description, a config."""
    stream, channel, _jpeg, _yuv, decoded = _decode(acl)
    return stream, channel, decoded, acl.media.dvpp_create_pic_desc(), \
        acl.media.dvpp_create_resize_config()


@exercise("09.2", "Describe a VPC output",
          "VPC writes into memory you describe: DVPP memory (acl.media.dvpp_malloc), the "
          "format, width and height, a width stride that is a multiple of 16, a height "
          "stride that is a multiple of 2, and a size of at least ws x hs x 3/2 bytes. Then "
          "resize and wait for the stream.",
          level="medium",
          more=("For 100x50: width stride ALIGN_UP(100, 16) = 112, height stride 50, size 112 "
                "* 50 * 3 // 2 = 8400. Set data, size, format (PIXEL_FORMAT_YUV_SEMIPLANAR_420), "
                "width, height, width_stride and height_stride on out_desc, call "
                "acl.media.dvpp_vpc_resize_async(channel, decoded, out_desc, resize_config, "
                "stream), then acl.rt.synchronize_stream(stream); a 507018 there means the "
                "engine refused (acl.get_recent_err_msg() says which rule).",),
          setup=_resize_setup,
          solution="""
          ws, hs = (100 + 15) // 16 * 16, 50                   # VPC: multiples of 16 and 2
          size = ws * hs * 3 // 2                              # YUV420SP: Y plane + half for UV
          out_buf, ret = acl.media.dvpp_malloc(size)
          m = acl.media
          m.dvpp_set_pic_desc_data(out_desc, out_buf)
          m.dvpp_set_pic_desc_size(out_desc, size)
          m.dvpp_set_pic_desc_format(out_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
          m.dvpp_set_pic_desc_width(out_desc, 100)
          m.dvpp_set_pic_desc_height(out_desc, 50)
          m.dvpp_set_pic_desc_width_stride(out_desc, ws)
          m.dvpp_set_pic_desc_height_stride(out_desc, hs)
          m.dvpp_vpc_resize_async(channel, decoded, out_desc, resize_config, stream)
          acl.rt.synchronize_stream(stream)
          """)
def vpc_output(acl, out_desc: int, stream: int):
    name = learner_name(out_desc, "out_desc")
    calls = calls_since_start()
    resizes = [i for i, c in enumerate(calls) if c.name == "media.dvpp_vpc_resize_async"
               and c.args[2:3] == (out_desc,)]
    if not resizes:
        raise NotYet(_("no acl.media.dvpp_vpc_resize_async into {name} yet.").format(name=name))
    if calls[resizes[-1]].ret != 0:
        raise NotYet(_("the resize call returned {code}: acl.get_recent_err_msg() says "
                       "why.").format(code=calls[resizes[-1]].ret))
    waits = [c for c in calls[resizes[-1] + 1:] if c.name in (
        "rt.synchronize_stream", "rt.synchronize_device")]
    if not waits:
        raise NotYet(_("the resize is only queued: wait for the stream (synchronize_stream) "
                       "to let it run."))
    if waits[0].ret != 0 or _get(acl, "ret_code", out_desc) != 0:
        raise NotYet(_("the engine refused the resize when it ran ({code}): "
                       "acl.get_recent_err_msg() names the rule (width stride, height stride "
                       "or size of {name}).").format(code=waits[0].ret, name=name))
    w, h = _get(acl, "width", out_desc), _get(acl, "height", out_desc)
    if (w, h) != (OUT_W, OUT_H):
        raise NotYet(_("{name} describes {w}x{h}; the exercise asks for {ow}x{oh}.").format(
            name=name, w=w, h=h, ow=OUT_W, oh=OUT_H))
    ws, size = _get(acl, "width_stride", out_desc), _get(acl, "size", out_desc)
    return _("VPC wrote a {w}x{h} picture into rows of {ws} bytes ({size} B buffer).").format(
        w=w, h=h, ws=ws, size=size)


# ----- 09.3 --------------------------------------------------------------------------------
def _leaky(acl):
    """09.3: what one pass of the pipeline took: a channel, a stream, the JPEG's input
    buffer, the decoded picture's buffer and its description."""
    stream, channel, jpeg_dev, yuv, decoded = _decode(acl)
    return stream, channel, jpeg_dev, yuv, decoded


@exercise("09.3", "Give back what the pipeline took",
          "The pipeline still holds two DVPP buffers, a picture description and a channel "
          "with its description. Each has its own call that gives it back (section 10); "
          "release each exactly once.",
          level="hard",
          more=("A buffer from acl.media.dvpp_malloc goes back through the media namespace's "
                "free call, a description from a create call through its destroy call; the "
                "channel goes before its description. A refused release changes nothing, "
                "and acl.get_recent_err_msg() says why.",
                "Free jpeg_dev and yuv with acl.media.dvpp_free, destroy decoded with "
                "dvpp_destroy_pic_desc, the channel with dvpp_destroy_channel(channel) then "
                "dvpp_destroy_channel_desc(channel); every call returns 0 (a second free of the "
                "same buffer returns an error: that is the double free of the sample).",),
          setup=_leaky,
          solution="""
          for buffer in (jpeg_dev, yuv):                       # each DVPP buffer once
              acl.media.dvpp_free(buffer)
          acl.media.dvpp_destroy_pic_desc(decoded)
          acl.media.dvpp_destroy_channel(channel)              # the channel, then its description
          acl.media.dvpp_destroy_channel_desc(channel)
          """)
def released(acl, channel: int, decoded: int):
    calls = calls_since_start()
    failed = [c for c in calls if c.name.startswith("media.dvpp_") and c.ret not in (0, None)
              and (c.name.startswith("media.dvpp_destroy") or c.name == "media.dvpp_free")]
    if failed:
        c = failed[0]
        raise NotYet(_("acl.{call} returned {code}: each buffer and description is released "
                       "exactly once (acl.get_recent_err_msg() says what it was).").format(
                           call=c.name, code=c.ret))
    left = [a for a in acl_lab.snapshot()["allocations"] if a["api"] == "dvpp_malloc"]
    if left:
        raise NotYet(_("{count} DVPP buffer(s) still allocated ({ptrs}): free each with "
                       "acl.media.dvpp_free.").format(
                           count=len(left), ptrs=", ".join(hex(a["ptr"]) for a in left)))
    if _get(acl, "data", decoded):
        raise NotYet(_("{name} is still a live picture description: destroy it with "
                       "acl.media.dvpp_destroy_pic_desc.").format(
                           name=learner_name(decoded, "decoded")))
    done = {c.name for c in calls if c.ret == 0 and c.args[:1] == (channel,)}
    for call in ("media.dvpp_destroy_channel", "media.dvpp_destroy_channel_desc"):
        if call not in done:
            raise NotYet(_("the channel is still there: acl.{call}({name}) gives it back "
                           "(the channel first, then its description).").format(
                               call=call, name=learner_name(channel, "channel")))
    return _("nothing the pipeline took is left: no DVPP buffer, no description, no "
             "channel.")
