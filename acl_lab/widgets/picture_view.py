"""PictureView: a YUV420SP picture in DVPP memory as its bytes lie there, padding included.

DVPP pictures are stored in padded rows: JPEGD writes a width x height picture into rows
of ``width stride`` bytes (ALIGN_UP(width, 64 or 128), by SoC) and ``height stride`` rows
(ALIGN_UP(height, 16)); VPC wants a width stride that is a multiple of 16. The view reads
the picture description with the pyACL getters (``acl.media.dvpp_get_pic_desc_*``), copies
the bytes back to the host (``acl.rt.memcpy``, device to host) and draws the whole buffer:
the Y plane, then the interleaved U/V plane of half the height. The picture area is drawn in
its colours; the padding columns and rows, bytes no pixel uses, are drawn as the grey values
they hold (in 8 levels) under an orange tint. One renderer (an SVG with the buffer as an inline PNG the
view writes itself, ``png_data``) for the live view and the static fallback.
"""
from __future__ import annotations

import base64
import struct
import zlib
from html import escape

import ipywidgets as widgets
import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import N_, _
from acl_lab.trace import untraced
from acl_lab.widgets._base import GONE, SceneView, generation
from acl_lab.widgets._svg import MUTED, Svg, format_bytes, message, text_width

YUV420SP = {C.PIXEL_FORMAT_YUV_SEMIPLANAR_420: "NV12", C.PIXEL_FORMAT_YVU_SEMIPLANAR_420: "NV21"}
PADDING_TINT = np.array([242, 140, 40], np.float32)     # orange: bytes no pixel uses
PICTURE_EDGE, PADDING_EDGE = "#1f5fbf", "#d9731a"
LARGEST = 4096 * 4096          # VPC's largest picture: a bigger description is not drawn
SHOWN_WIDTH, SHOWN_HEIGHT = 440, 400    # the most pixels the buffer is drawn in (scaled to fit)
LEGEND = (N_("picture"), N_("padding (no pixel uses these bytes)"))


def _getters(acl):
    m = acl.media
    return {field: untraced(getattr(m, f"dvpp_get_pic_desc_{field}"))
            for field in ("data", "size", "format", "width", "height", "width_stride",
                          "height_stride", "ret_code")}


def read_bytes(acl, ptr: int, nbytes: int) -> np.ndarray | None:
    """``nbytes`` at device address ``ptr``, read as a host program must: a synchronous
    device-to-host copy into pinned memory the view takes and gives back (kept out of the
    learner's trace). None when a call refuses."""
    malloc_host, free_host = untraced(acl.rt.malloc_host), untraced(acl.rt.free_host)
    memcpy, ptr_to_bytes = untraced(acl.rt.memcpy), untraced(acl.util.ptr_to_bytes)
    scratch, ret = malloc_host(nbytes)
    if ret != C.ACL_SUCCESS:
        return None
    try:
        if memcpy(scratch, nbytes, ptr, nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST) != C.ACL_SUCCESS:
            return None
        return np.frombuffer(ptr_to_bytes(scratch, nbytes), dtype=np.uint8).copy()
    finally:
        free_host(scratch)


def to_rgb(y: np.ndarray, uv: np.ndarray, nv21: bool) -> np.ndarray:
    """BT.601 full range: Y (h x w) and interleaved chroma (h/2 x w) -> RGB (h x w x 3)."""
    u = uv[:, 0::2].astype(np.float32) - 128
    v = uv[:, 1::2].astype(np.float32) - 128
    if nv21:
        u, v = v, u
    u = np.repeat(np.repeat(u, 2, axis=0), 2, axis=1)[:y.shape[0], :y.shape[1]]
    v = np.repeat(np.repeat(v, 2, axis=0), 2, axis=1)[:y.shape[0], :y.shape[1]]
    yf = y.astype(np.float32)
    rgb = np.stack([yf + 1.402 * v, yf - 0.344136 * u - 0.714136 * v, yf + 1.772 * u], -1)
    return np.clip(rgb + 0.5, 0, 255).astype(np.uint8)


def buffer_image(buf: np.ndarray, w: int, h: int, ws: int, hs: int, nv21: bool) -> np.ndarray:
    """The buffer as an RGB image of ws x (hs + hs/2): the Y plane over the UV plane, the
    picture in colour, every padding byte grey under the orange tint."""
    planes = buf[:ws * hs * 3 // 2].reshape(hs * 3 // 2, ws)
    grey = np.repeat(planes[:, :, None], 3, axis=2).astype(np.float32)
    picture = np.zeros(planes.shape, bool)
    picture[:h, :w] = True                                   # Y: the picture's rows
    picture[hs:hs + (h + 1) // 2, :w + (w & 1)] = True       # UV: one row per two
    levels = (planes // 32 * 32 + 16)[:, :, None].astype(np.float32)     # 8 greys: small PNG
    out = np.where(picture[:, :, None], grey, 0.45 * levels + 0.55 * PADDING_TINT)
    out[:h, :w] = to_rgb(planes[:h, :w], planes[hs:hs + (h + 1) // 2, :w + (w & 1)], nv21)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def shown(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """``image`` with at most ``width`` x ``height`` pixels (nearest neighbour): the SVG
    scales it up with crisp pixels, so a small picture stays small in the notebook."""
    rows, cols = image.shape[:2]
    if rows > height:
        image = image[(np.arange(height) * rows) // height]
    if cols > width:
        image = image[:, (np.arange(width) * cols) // width]
    return image


def png_data(image: np.ndarray) -> str:
    """An RGB image as a base64 PNG, written here (zlib level 9, filter 0 on every row):
    the same bytes wherever the notebook is run, so nbval can compare them, and no imaging
    library to import."""
    h, w = image.shape[:2]
    rows = np.zeros((h, 1 + 3 * w), np.uint8)          # each row: filter byte 0, then RGB
    rows[:, 1:] = image.reshape(h, 3 * w)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))
    return base64.b64encode(png).decode("ascii")


class PictureScene:
    """What the description said and the bytes it points at, as of the last look."""

    def __init__(self, acl, pic_desc: int):
        self.acl, self.pic_desc = acl, pic_desc
        self.desc: dict | None = None          # getters' values at the last good look
        self.image: np.ndarray | None = None
        self.problem = ""                      # why the last look drew nothing new
        self.gone = False
        self._generation = None

    def refresh(self) -> None:
        seen = generation()
        if self._generation is not None and seen != self._generation:
            self.gone = True                   # the process was replaced
            return
        self._generation = seen
        try:
            desc = {k: get(self.pic_desc) for k, get in _getters(self.acl).items()}
        except (AttributeError, TypeError):    # no acl.media on this backend
            self.problem = _("this backend has no acl.media")
            return
        problem = self._unusable(desc)
        if problem:
            self.gone = self.desc is not None
            self.problem = problem
            return
        w, h, ws, hs = desc["width"], desc["height"], desc["width_stride"], desc["height_stride"]
        buf = read_bytes(self.acl, desc["data"], ws * hs * 3 // 2)
        if buf is None:
            self.gone = self.desc is not None
            self.problem = _("its data could not be copied to the host (freed?)")
            return
        self.desc, self.problem, self.gone = desc, "", False
        self.image = buffer_image(buf, w, h, ws, hs,
                                  desc["format"] == C.PIXEL_FORMAT_YVU_SEMIPLANAR_420)

    @staticmethod
    def _unusable(d: dict) -> str:
        if not d["data"]:
            return _("the description has no data (destroyed, or never set)")
        if d["format"] not in YUV420SP:
            return _("the view draws YUV420SP (NV12, NV21) pictures only")
        w, h, ws, hs = d["width"], d["height"], d["width_stride"], d["height_stride"]
        if not (0 < w <= ws and 0 < h <= hs) or ws * hs > LARGEST or hs % 2:
            return _("width {w}, height {h}, strides {ws} x {hs} describe no picture yet "
                     "(decode into it first)").format(w=w, h=h, ws=ws, hs=hs)
        if d["size"] < ws * hs * 3 // 2:
            return _("its buffer ({size} B) is smaller than its strides need ({need} B)").format(
                size=d["size"], need=ws * hs * 3 // 2)
        return ""

    def summary(self) -> str:
        if self.desc is None:
            return _("PictureView: nothing to show: {why}").format(why=self.problem)
        d = self.desc
        w, h, ws, hs = d["width"], d["height"], d["width_stride"], d["height_stride"]
        text = _("PictureView: {fmt} {w}x{h}, strides {ws}x{hs}: {cols} padding columns, "
                 "{rows} padding rows, {size}").format(
            fmt=YUV420SP[d["format"]], w=w, h=h, ws=ws, hs=hs, cols=ws - w, rows=hs - h,
            size=format_bytes(ws * hs * 3 // 2))
        return text + (f" ({_(GONE)})" if self.gone else "")

    def svg(self) -> str:
        if self.desc is None:
            return message("PictureView", self.problem)
        return draw_picture(self.desc, self.image, self.gone)


def draw_picture(d: dict, image: np.ndarray, gone: bool = False) -> str:
    w, h, ws, hs = d["width"], d["height"], d["width_stride"], d["height_stride"]
    rows = hs * 3 // 2
    scale = min(SHOWN_WIDTH / ws, SHOWN_HEIGHT / rows)
    px = lambda n: n * scale                                      # noqa: E731
    left, top = 92, 40
    iw, ih = max(1, round(px(ws))), max(1, round(px(rows)))
    legend = [_(t) for t in LEGEND]
    width = max(left + iw + 150, 16 + sum(text_width(t, 10) + 32 for t in legend))
    svg = Svg(width, top + ih + 56)
    title = _("{fmt} picture {w}x{h}, strides {ws}x{hs}").format(
        fmt=YUV420SP[d["format"]], w=w, h=h, ws=ws, hs=hs)
    if gone:
        title += f" ({_(GONE)})"
    svg.text(8, 16, title, size=12, weight="bold")
    svg.parts.append(f'<image x="{left}" y="{top}" width="{iw}" height="{ih}" '
                     f'preserveAspectRatio="none" style="image-rendering: pixelated" '
                     f'href="data:image/png;base64,{png_data(shown(image, iw, ih))}"/>')
    # the picture areas of both planes, then the whole buffer
    svg.rect(left, top, px(w), px(h), "none", stroke=PICTURE_EDGE, stroke_width=1.5,
             title=_("picture: {w} x {h}").format(w=w, h=h))
    svg.rect(left, top + px(hs), px(w), px((h + 1) // 2), "none", stroke=PICTURE_EDGE,
             stroke_width=1.5)
    svg.rect(left, top, iw, ih, "none", stroke=MUTED)
    svg.line(left, top + px(hs), left + iw, top + px(hs), stroke=MUTED, dash="4 3")
    # widths along the top, heights on the left, planes on the right
    svg.text(left + px(w) / 2, top - 6, _("width {w}").format(w=w), size=10, anchor="middle",
             fill=PICTURE_EDGE)
    svg.text(left + iw, top - 20, _("width stride {ws}").format(ws=ws), size=10, anchor="end",
             fill=PADDING_EDGE)
    svg.text(left - 6, top + px(h) / 2, _("height {h}").format(h=h), size=10, anchor="end",
             fill=PICTURE_EDGE)
    svg.text(left - 6, top + px(hs) - 2, _("stride {hs}").format(hs=hs), size=10,
             anchor="end", fill=PADDING_EDGE)
    svg.text(left + iw + 8, top + px(hs) / 2, _("Y plane"), size=10, fill=MUTED)
    svg.text(left + iw + 8, top + px(hs) / 2 + 13, format_bytes(ws * hs), size=10, fill=MUTED)
    svg.text(left + iw + 8, top + px(hs) + px(hs // 2) / 2, _("UV plane (U, V interleaved)"),
             size=10, fill=MUTED)
    svg.text(left + iw + 8, top + px(hs) + px(hs // 2) / 2 + 13, format_bytes(ws * hs // 2),
             size=10, fill=MUTED)
    y = top + ih + 14
    svg.legend(8, y, [(PICTURE_EDGE, legend[0]), ("#d9a060", legend[1])], width=width - 16)
    svg.text(8, y + 32, _("{cols} padding columns, {rows} padding rows: {pad} of {size} are "
                          "padding").format(cols=ws - w, rows=hs - h,
                                            pad=format_bytes(ws * hs * 3 // 2 - w * h
                                                             - ((w + 1) // 2 * 2)
                                                             * ((h + 1) // 2)),
                                            size=format_bytes(ws * hs * 3 // 2)),
             size=10, fill=MUTED)
    return str(svg)


class PictureView(SceneView, widgets.VBox):
    """The picture ``pic_desc`` describes, as its bytes lie in DVPP memory (padding
    included), as it was when the cell ran; looks again on its button and ``refresh()``,
    and after every cell when ``live=True``."""

    def __init__(self, acl, pic_desc: int, live: bool = False):
        self.scene = PictureScene(acl, pic_desc)
        self._build(live)

    def refresh(self) -> None:
        """Read the description and its bytes again, and redraw."""
        self.scene.refresh()
        self.picture.value = self.scene.svg()
        self.status.value = f"<i>{escape(self.scene.problem)}</i>" if self.scene.problem else ""
