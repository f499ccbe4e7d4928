"""What an H.264 / H.265 stream declares before a decoder allocates for it.

A sequence parameter set (SPS) states the picture's sides and how many pictures the decoder
keeps for reference; a decoder sizes its buffers from it as soon as a slice refers to it.
``declared(data, hevc)`` reads every SPS of an Annex B access unit (ITU-T H.264 7.3.2.1.1,
H.265 7.3.2.2.1) without decoding anything, so the simulator can refuse a stream whose
pictures could not exist on VDEC, or would not fit the host-RAM budget, before FFmpeg sees
it. Bounded: at most ``MAX_SPS`` parameter sets of at most ``MAX_SPS_BYTES`` each are read.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_SPS, MAX_SPS_BYTES = 32, 1024
MAX_REFS = 16          # the largest decoded picture buffer both standards allow


class Unreadable(ValueError):
    """An SPS the reader cannot follow (truncated, or fields out of range)."""


@dataclass(frozen=True)
class Sps:
    width: int
    height: int
    refs: int          # pictures kept for reference (H.264 max_num_ref_frames,
    #                    H.265 sps_max_dec_pic_buffering_minus1 + 1)
    bit_depth: int


class _Bits:
    def __init__(self, rbsp: bytes):
        self.data, self.pos = rbsp, 0

    def u(self, n: int) -> int:
        v = 0
        for _ in range(n):
            byte = self.pos >> 3
            if byte >= len(self.data):
                raise Unreadable("truncated")
            v = v << 1 | (self.data[byte] >> (7 - (self.pos & 7))) & 1
            self.pos += 1
        return v

    def ue(self) -> int:
        zeros = 0
        while self.u(1) == 0:
            zeros += 1
            if zeros > 31:
                raise Unreadable("exp-Golomb code too long")
        return (1 << zeros) - 1 + self.u(zeros)

    def se(self) -> int:
        k = self.ue()
        return (k + 1) // 2 if k & 1 else -(k // 2)


def _rbsp(nal: bytes) -> bytes:
    """The NAL unit's payload without emulation-prevention bytes (00 00 03)."""
    out, zeros = bytearray(), 0
    for b in nal:
        if zeros >= 2 and b == 3:
            zeros = 0
            continue
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def nal_units(data: bytes):
    """The NAL units of Annex B ``data`` (start codes 00 00 01 / 00 00 00 01 removed)."""
    starts, i = [], data.find(b"\x00\x00\x01")
    while i >= 0:
        starts.append(i + 3)
        i = data.find(b"\x00\x00\x01", i + 3)
    for k, s in enumerate(starts):
        end = starts[k + 1] - 3 if k + 1 < len(starts) else len(data)
        yield data[s:end].rstrip(b"\x00") if k + 1 < len(starts) else data[s:end]


def _h264(r: _Bits) -> Sps:
    profile = r.u(8)
    r.u(16)                                   # constraint flags, level_idc
    r.ue()                                    # seq_parameter_set_id
    depth, chroma = 8, 1
    if profile in (100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135):
        chroma = r.ue()
        if chroma == 3:
            r.u(1)
        depth = 8 + r.ue()
        r.ue()
        r.u(1)
        if r.u(1):                            # seq_scaling_matrix_present_flag
            for i in range(8 if chroma != 3 else 12):
                if r.u(1):
                    last = nxt = 8
                    for _ in range(16 if i < 6 else 64):
                        if nxt:
                            nxt = (last + r.se()) % 256
                        last = nxt or last
    r.ue()                                    # log2_max_frame_num_minus4
    poc = r.ue()
    if poc == 0:
        r.ue()
    elif poc == 1:
        r.u(1)
        r.se()
        r.se()
        cycle = r.ue()
        if cycle > 255:
            raise Unreadable("num_ref_frames_in_pic_order_cnt_cycle")
        for _ in range(cycle):
            r.se()
    refs = r.ue()
    r.u(1)
    width = (r.ue() + 1) * 16
    height = (r.ue() + 1) * 16 * (2 - r.u(1))
    return Sps(width, height, refs, depth)


def _h265(r: _Bits) -> Sps:
    r.u(4)                                    # sps_video_parameter_set_id
    sub_layers = r.u(3)
    r.u(1)
    r.u(88)                                   # general profile: space, tier, idc, flags
    r.u(8)                                    # general_level_idc
    present = [(r.u(1), r.u(1)) for _ in range(sub_layers)]
    if sub_layers:
        r.u(2 * (8 - sub_layers))
    for profile, level in present:
        r.u(88 if profile else 0)
        r.u(8 if level else 0)
    r.ue()                                    # sps_seq_parameter_set_id
    if r.ue() == 3:                           # chroma_format_idc
        r.u(1)
    width, height = r.ue(), r.ue()
    if r.u(1):                                # conformance window
        for _ in range(4):
            r.ue()
    depth = 8 + r.ue()
    r.ue()
    r.ue()                                    # log2_max_pic_order_cnt_lsb_minus4
    ordering = r.u(1)
    refs = 0
    for _ in range(0 if ordering else sub_layers, sub_layers + 1):
        refs = max(refs, r.ue() + 1)
        r.ue()
        r.ue()
    return Sps(width, height, refs, depth)


def declared(data: bytes, hevc: bool) -> list[Sps]:
    """Every SPS of the access unit ``data``; Unreadable for one that cannot be read."""
    found = []
    for nal in nal_units(data):
        if not nal:
            continue
        kind = (nal[0] >> 1) & 0x3F if hevc else nal[0] & 0x1F
        if kind != (33 if hevc else 7):
            continue
        if len(found) == MAX_SPS:
            raise Unreadable("too many parameter sets in one access unit")
        r = _Bits(_rbsp(nal[2 if hevc else 1:][:MAX_SPS_BYTES]))
        sps = _h265(r) if hevc else _h264(r)
        if sps.refs > MAX_REFS or not 8 <= sps.bit_depth <= 16:
            raise Unreadable("reference pictures or bit depth out of range")
        found.append(sps)
    return found
