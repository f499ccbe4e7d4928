"""Device profiles: what a simulated machine has (memory kinds, sizes, rates, run mode).

Every number the simulator uses for sizes and modeled time lives here, in one place.
Figures marked "public" come from vendor spec sheets; figures marked "modeled" are round
numbers chosen for teaching where no public figure exists.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from acl_lab.spec.socs import Soc, soc_of

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30

ACL_DEVICE, ACL_HOST = 0, 1  # aclrtRunMode (acl_rt.h); kept local so profiles stay pure data


@dataclass(frozen=True)
class PoolSpec:
    """One page pool on a device: memory kind (DDR/HBM) x page type (huge/normal/huge1g)."""

    kind: str          # "DDR" or "HBM"
    page: str          # "normal", "huge" or "huge1g"
    size: int          # bytes
    p2p: bool = False  # reserved for device-to-device copies

    @property
    def page_size(self) -> int:
        return {"normal": 4 * KiB, "huge": 2 * MiB, "huge1g": GiB}[self.page]

    @property
    def label(self) -> str:
        return f"{self.kind}{' P2P' if self.p2p else ''} {self.page}"


@dataclass(frozen=True)
class Rates:
    """Modeled time. Bandwidths are bytes per microsecond (1 GB/s = 1e3 bytes/us).

    Every task a stream runs costs a fixed part plus a part that grows with its bytes:
    a copy pays the DMA engine's setup (descriptor fetch, a round trip over the link), its
    bytes at the bandwidth of its direction, and the completion report back to the stream;
    a device memset (a DMA task too) pays the same fixed costs; an operator pays its
    kernel's fixed cost, its bytes and the completion.
    Published figures for comparable accelerators put a small host<->device copy at several
    microseconds however few bytes it moves: about 10 us per cudaMemcpy below 8 KB
    (University of Virginia, "Memory Transfer Overhead", GTX 280 on PCIe 2.0,
    https://www.cs.virginia.edu/~mwb7w/cuda_support/memory_transfer_overhead.html) and
    5-7 us per cudaMemcpyAsync submission (Wu et al., "DualPath", arXiv 2602.21548, sec.
    5.2). No such figure is published for Ascend: the fixed costs below are "modeled" to
    land in that range (host launch 5-6 us, then 3-4 us on the device for a tiny copy).
    """

    launch_us: float          # host cost to issue one task to a stream (modeled, after the
    #                           5-7 us per cudaMemcpyAsync cited above)
    api_us: float             # host cost of a synchronous call or a status poll (modeled)
    dma_setup_us: float       # device: DMA descriptor + link round trip, per copy (modeled)
    completion_us: float      # device: completion report to the stream, per task (modeled)
    h2d_pinned: float         # host->device link, pinned host memory
    d2h_pinned: float         # device->host link, pinned host memory
    h2d_pageable: float       # host->device, pageable memory (staged via a bounce buffer)
    d2h_pageable: float       # device->host, pageable memory (staged via a bounce buffer)
    device: float             # device memory bandwidth (copies count read + write)
    host: float               # host memcpy bandwidth
    op_fixed_us: float        # fixed cost of one operator kernel on the device (modeled)
    replay_task_us: float     # device-side cost per task when a captured model replays

    def copy_us(self, direction: int, nbytes: int, pinned: bool) -> float:
        """One copy of ``nbytes`` in ``direction`` (aclrtMemcpyKind 0..3)."""
        if direction == _H2H:                       # the host CPU copies: no DMA, no stream
            return nbytes / self.host
        if direction == _D2D:                       # read and write device memory
            bandwidth = self.device / 2
        elif direction == _H2D:
            bandwidth = self.h2d_pinned if pinned else self.h2d_pageable
        else:
            bandwidth = self.d2h_pinned if pinned else self.d2h_pageable
        return self.dma_setup_us + nbytes / bandwidth + self.completion_us

    def memset_us(self, nbytes: int, on_device: bool) -> float:
        """A memset of ``nbytes``: the DMA engine fills device memory; the host CPU host memory."""
        if not on_device:
            return nbytes / self.host
        return self.dma_setup_us + nbytes / self.device + self.completion_us

    def op_us(self, nbytes: int) -> float:
        """An operator kernel that reads and writes ``nbytes`` of device memory in all."""
        return self.op_fixed_us + nbytes / self.device + self.completion_us


_H2H, _H2D, _D2H, _D2D = 0, 1, 2, 3   # aclrtMemcpyKind (acl_rt.h); local: profiles stay pure


def _gbps(x: float) -> float:
    """GB/s -> bytes per microsecond."""
    return x * 1e3


@dataclass(frozen=True)
class Profile:
    name: str
    soc_name: str
    description: str
    run_mode: int
    device_count: int
    pools: tuple[PoolSpec, ...]
    host_pinned: int           # bytes aclrtMallocHost may hand out (host side)
    rates: Rates
    notes: tuple[str, ...] = field(default=())

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.kind for p in self.pools))

    @property
    def soc(self) -> Soc:
        """The product line's row of the SoC table (acl_lab.spec.socs): what it has."""
        return soc_of(self.soc_name)


PROFILES: dict[str, Profile] = {}

def _register(p: Profile) -> Profile:
    """Add ``p``; its pools must be what its SoC has (HBM, 1 GiB pages: spec/socs.py)."""
    assert ("HBM" in p.kinds) == p.soc.hbm, p.name
    assert any(s.page == "huge1g" for s in p.pools) <= p.soc.huge1g_pages, p.name
    PROFILES[p.name] = p
    return p


# Host links: PCIe 3.0 carries 0.985 GB/s per lane and direction (8 GT/s, 128b/130b), PCIe
# 4.0 1.97 GB/s and PCIe 5.0 3.94 GB/s (PCI-SIG base specifications): x16 = 15.8 / 31.5 /
# 63 GB/s. Pinned copies are modeled at about 80% of the raw link, pageable ones (staged
# through a bounce buffer, one extra host memcpy) at 30-40%: "modeled".

# Atlas 300I inference card, Ascend 310: 8 GB LPDDR4X per chip (public), PCIe 3.0 x4 per
# chip (public: 3.94 GB/s raw; 3.2 GB/s pinned modeled), LPDDR4X ~ 25.6 GB/s (modeled).
_register(Profile(
    name="310", soc_name="Ascend310",
    description="Ascend 310 inference card in a server (DDR only, ACL_HOST)",
    run_mode=ACL_HOST, device_count=4,
    pools=(PoolSpec("DDR", "huge", 7 * GiB), PoolSpec("DDR", "normal", 1 * GiB)),
    host_pinned=16 * GiB,
    rates=Rates(launch_us=6.0, api_us=1.0, dma_setup_us=3.0, completion_us=1.0,
                h2d_pinned=_gbps(3.2), d2h_pinned=_gbps(3.2),
                h2d_pageable=_gbps(1.6), d2h_pageable=_gbps(1.4),
                device=_gbps(25.6), host=_gbps(10.0), op_fixed_us=2.0, replay_task_us=0.2),
))

# Atlas 200 DK-class board: the software stack runs on the chip's control CPU (ACL_DEVICE);
# 8 GB LPDDR4X shared with the OS (public), of which 4 GiB is modeled as usable. There is no
# host link: "host" memory is the same LPDDR4X (modeled at its bandwidth).
_register(Profile(
    name="200dk", soc_name="Ascend310",
    description="Atlas 200 DK-class board: code runs on the device (ACL_DEVICE)",
    run_mode=ACL_DEVICE, device_count=1,
    pools=(PoolSpec("DDR", "huge", 3 * GiB), PoolSpec("DDR", "normal", 1 * GiB)),
    host_pinned=0,
    rates=Rates(launch_us=6.0, api_us=1.0, dma_setup_us=2.0, completion_us=1.0,
                h2d_pinned=_gbps(25.6), d2h_pinned=_gbps(25.6),
                h2d_pageable=_gbps(12.8), d2h_pageable=_gbps(12.8),
                device=_gbps(25.6), host=_gbps(25.6), op_fixed_us=2.0, replay_task_us=0.2),
))

# Atlas 200I DK A2 developer kit (Orange Pi AIpro is the same class of board), Ascend 310B.
# Public (hiascend.com, "Atlas 200I DK A2 开发者套件 23.0.RC2, 基本规格", pd_0004): one DaVinci
# V300 AI core at 500 MHz and four TaiShan V200M CPU cores at 1.0 GHz on the chip, 4 TFLOPS
# FP16 / 8 TOPS INT8, 4 GB LPDDR4X at 3200 Mbps on a 64-bit bus (3200e6 x 8 B = 25.6 GB/s).
# Modeled: the run mode (the kit is a board whose own CPU runs the application, as on the
# Atlas 200 DK: ACL_DEVICE; `acl-lab selftest` on a kit confirms or corrects it), the SoC
# name (Ascend310B4, the --soc_version the kit's ATC guides use), the share of the 4 GB left
# to ACL (2.5 GiB; the OS keeps the rest), the kernel cost (one AI core, slower than 310P).
_register(Profile(
    name="310b", soc_name="Ascend310B4",
    description="Atlas 200I DK A2-class board, Ascend 310B: code runs on the board (ACL_DEVICE)",
    run_mode=ACL_DEVICE, device_count=1,
    pools=(PoolSpec("DDR", "huge", 2 * GiB), PoolSpec("DDR", "normal", 512 * MiB)),
    host_pinned=0,
    rates=Rates(launch_us=6.0, api_us=1.0, dma_setup_us=2.0, completion_us=1.0,
                h2d_pinned=_gbps(25.6), d2h_pinned=_gbps(25.6),
                h2d_pageable=_gbps(12.8), d2h_pageable=_gbps(12.8),
                device=_gbps(25.6), host=_gbps(25.6), op_fixed_us=3.0, replay_task_us=0.3),
))

# Atlas 300I Pro, Ascend 310P3: 24 GB LPDDR4X, 204.8 GB/s (public); PCIe 4.0 x16 (public:
# 31.5 GB/s raw per direction), 20 GB/s pinned modeled.
_register(Profile(
    name="310p", soc_name="Ascend310P3",
    description="Ascend 310P inference card (24 GiB DDR, ACL_HOST)",
    run_mode=ACL_HOST, device_count=1,
    pools=(PoolSpec("DDR", "huge", 22 * GiB), PoolSpec("DDR", "normal", 2 * GiB)),
    host_pinned=32 * GiB,
    rates=Rates(launch_us=5.0, api_us=1.0, dma_setup_us=2.0, completion_us=1.0,
                h2d_pinned=_gbps(20.0), d2h_pinned=_gbps(20.0),
                h2d_pageable=_gbps(8.0), d2h_pageable=_gbps(7.0),
                device=_gbps(204.8), host=_gbps(10.0), op_fixed_us=1.5, replay_task_us=0.15),
))

# Atlas 800T A2 NPU, Ascend 910B: 64 GB HBM2e at ~1.6 TB/s per NPU (public), 8 NPUs per
# server, each on a PCIe x16 host link (public). 25 GB/s pinned host->device (26 back) is
# modeled: ~80% of a PCIe 4.0 x16 link, what pinned copies reach on comparable accelerators
# (a PCIe 5.0 host would allow about twice as much). The device-side DDR and P2P / 1 GiB
# huge page pools are modeled sizes.
_register(Profile(
    name="910b", soc_name="Ascend910B3",
    description="Ascend 910B training NPU (64 GiB HBM first, plus DDR; ACL_HOST)",
    run_mode=ACL_HOST, device_count=8,
    pools=(
        PoolSpec("HBM", "huge", 56 * GiB), PoolSpec("HBM", "normal", 4 * GiB),
        PoolSpec("HBM", "huge1g", 4 * GiB),
        PoolSpec("HBM", "huge", 1 * GiB, p2p=True), PoolSpec("HBM", "normal", 256 * MiB, p2p=True),
        PoolSpec("DDR", "huge", 14 * GiB), PoolSpec("DDR", "normal", 2 * GiB),
    ),
    host_pinned=64 * GiB,
    rates=Rates(launch_us=5.0, api_us=1.0, dma_setup_us=2.0, completion_us=1.0,
                h2d_pinned=_gbps(25.0), d2h_pinned=_gbps(26.0),
                h2d_pageable=_gbps(10.0), d2h_pageable=_gbps(9.0),
                device=_gbps(1600.0), host=_gbps(10.0), op_fixed_us=1.0, replay_task_us=0.1),
))

DEFAULT_PROFILE = "910b"


def get_profile(name: str | None = None) -> Profile:
    """The profile called ``name``, else $ACL_LAB_PROFILE, else the default."""
    name = name or os.environ.get("ACL_LAB_PROFILE") or DEFAULT_PROFILE
    try:
        return PROFILES[name.lower()]
    except KeyError:
        raise ValueError(
            f"unknown profile {name!r}; choose one of {', '.join(sorted(PROFILES))}") from None
