"""PictureView: a DVPP picture as its bytes lie in memory, padding included, as of the cell
that showed it (the freeze rule), read without leaving a trace or a block behind."""
from __future__ import annotations

import re

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.exercises.ch09 import HEIGHT, WIDTH, _decode
from acl_lab.widgets import PictureView
from acl_lab.widgets.picture_view import PADDING_TINT, buffer_image

pytest.importorskip("PIL")


@pytest.fixture
def decoded(acl):
    stream, channel, jpeg_dev, yuv, desc = _decode(acl)
    return desc, yuv


def test_it_draws_the_decoded_picture_and_its_padding(acl, decoded):
    desc, yuv = decoded
    ws, hs = 256, 160                       # ALIGN_UP(200, 128), ALIGN_UP(150, 16)
    view = PictureView(acl, desc)
    assert repr(view) == (f"PictureView: NV12 {WIDTH}x{HEIGHT}, strides {ws}x{hs}: "
                          f"{ws - WIDTH} padding columns, {hs - HEIGHT} padding rows, 60.0 KiB")
    svg = view.svg()
    assert svg.startswith("<svg") and "data:image/png;base64," in svg
    assert "width stride 256" in svg and "stride 160" in svg
    image = view.scene.image
    assert image.shape == (hs * 3 // 2, ws, 3)
    # the picture: the yellow bar (40..160, 50..100) on dark blue, in colour
    r, g, b = image[75, 100].astype(int)
    assert r > 200 and g > 170 and b < 80
    r, g, b = image[10, 10].astype(int)
    assert b > r and b > g
    # the padding: grey bytes under the orange tint, never a colour of the picture
    plane = np.zeros(ws * hs * 3 // 2, np.uint8)
    acl.rt.memcpy(acl.util.numpy_to_ptr(plane), plane.nbytes, yuv, plane.nbytes,
                  C.ACL_MEMCPY_DEVICE_TO_HOST)
    raw = plane.reshape(-1, ws)
    expected = np.clip(0.45 * (raw[:hs, WIDTH:, None] // 32 * 32 + 16) + 0.55 * PADDING_TINT + 0.5, 0, 255)
    assert np.array_equal(image[:hs, WIDTH:], expected.astype(np.uint8))
    assert np.array_equal(image[HEIGHT:hs, :WIDTH],
                          np.clip(0.45 * (raw[HEIGHT:hs, :WIDTH, None] // 32 * 32 + 16) + 0.55 * PADDING_TINT
                                  + 0.5, 0, 255).astype(np.uint8))


def test_looking_leaves_no_call_in_the_trace_and_no_block_behind(acl, decoded):
    desc, _yuv = decoded
    calls = len(acl_lab.tracer().calls)
    blocks = len(acl_lab.snapshot()["allocations"])
    view = PictureView(acl, desc)
    view.refresh()
    assert len(acl_lab.tracer().calls) == calls
    assert len(acl_lab.snapshot()["allocations"]) == blocks


def test_it_keeps_what_it_saw_when_the_picture_is_gone(acl, decoded):
    desc, _yuv = decoded
    view = PictureView(acl, desc)
    before = view.svg()
    acl.media.dvpp_destroy_pic_desc(desc)
    assert view.svg() == before                   # nothing changes until it looks again
    view.refresh()
    assert "shown as last seen" in repr(view) and "shown as last seen" in view.svg()
    acl_lab.reset("910b")
    view.refresh()
    assert "shown as last seen" in repr(view)


def test_a_description_without_a_picture_says_why(acl):
    desc = acl.media.dvpp_create_pic_desc()
    assert "nothing to show" in repr(PictureView(acl, desc))
    buf, _ = acl.media.dvpp_malloc(4096)
    for setter, value in ((acl.media.dvpp_set_pic_desc_data, buf),
                          (acl.media.dvpp_set_pic_desc_size, 100),
                          (acl.media.dvpp_set_pic_desc_format, C.PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          (acl.media.dvpp_set_pic_desc_width, 28),
                          (acl.media.dvpp_set_pic_desc_height, 28),
                          (acl.media.dvpp_set_pic_desc_width_stride, 32),
                          (acl.media.dvpp_set_pic_desc_height_stride, 28)):
        setter(desc, value)
    assert re.search(r"smaller than its strides need \(1344 B\)", repr(PictureView(acl, desc)))


def test_odd_sides_keep_their_chroma_in_the_picture():
    """A 5x3 picture in 16x4 strides: the UV plane's picture part is 6 bytes by 2 rows."""
    buf = np.full(16 * 4 * 3 // 2, 128, np.uint8)
    image = buffer_image(buf, 5, 3, 16, 4, nv21=False)
    assert image.shape == (6, 16, 3)
    assert (image[4:6, :6] == 128).all()          # chroma of the picture: plain grey
    assert not (image[4:6, 6:] == 128).all()      # beyond it: tinted padding


def test_the_png_it_writes_is_the_image_and_shrinks_only_what_does_not_fit():
    import base64
    import io

    from PIL import Image

    from acl_lab.widgets.picture_view import png_data, shown
    image = np.random.default_rng(1).integers(0, 256, (13, 7, 3), dtype=np.uint8)
    decoded = np.asarray(Image.open(io.BytesIO(base64.b64decode(png_data(image)))))
    assert decoded.shape == (13, 7, 3) and np.array_equal(decoded, image)
    assert shown(image, 100, 100) is image                  # small: the SVG scales it up
    assert shown(image, 4, 5).shape == (5, 4, 3)
    assert np.array_equal(shown(image, 4, 5)[:, 0], image[[0, 2, 5, 7, 10], 0])
