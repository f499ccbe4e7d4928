"""Modeled time of the media engines: microseconds per picture, from published frame rates.

Cited (Huawei, CANN 8.5 "Performance Specifications", Atlas inference products, one
channel; hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/):
  * JPEGD: 1080p at 128 FPS per channel (aclcppdevg_03_0685, "JPEGD Performance
    Specifications").
  * VDEC: 1080p at 240 FPS per channel (aclcppdevg_03_0687, "VDEC Performance
    Specifications").
Modeled (no public figure found): VPC at 1080p 512 FPS, JPEGE at 1080p 64 FPS, PNGD at
1080p 48 FPS, VENC at 1080p 30 FPS. A task costs a fixed 20 us (modeled: descriptor copy and engine start)
plus its pixels at that rate; the host pays the usual launch cost to issue it.
"""
from __future__ import annotations

_P1080 = 1920 * 1080
FIXED_US = 20.0
#: pixels per microsecond of each engine
RATE = {
    "jpegd": _P1080 * 128 / 1e6,     # cited
    "vdec": _P1080 * 240 / 1e6,      # cited
    "vpc": _P1080 * 512 / 1e6,       # modeled
    "jpege": _P1080 * 64 / 1e6,      # modeled
    "pngd": _P1080 * 48 / 1e6,       # modeled
    "venc": _P1080 * 30 / 1e6,       # modeled
}


def duration_us(engine: str, pixels: int) -> float:
    return FIXED_US + max(pixels, 0) / RATE[engine]
