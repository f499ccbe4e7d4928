"""What a simulated chip answers when asked about itself: core counts, cache, the limits and
optional features the runtime registers per chip, identities (uuid, topology) and the CANN
installation beside it. One table, per SoC family, so every query agrees with every other.

Sources: hicann/runtime ``src/runtime/config/<chip>/dev_info_reg.cc`` (the runtime's own
table per chip: ``mini`` is Ascend 310, ``dc`` 310P, ``mini_v3`` 310B, ``910_B_93`` 910B:
maxAllocStreamNum, stubEventCount, the optional-feature set), the CANN API reference
(``docs/zh/api_ref``: notify counts per product, default and longest operator timeouts) and
public product sheets where cited. Values marked "modeled" have no public figure: they are
round numbers chosen so that the calls teach what they do, and a learner's hardware gives
its own.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from acl_lab import constants as C

# optional features the runtime checks before these calls (RtOptionalFeatureType)
STREAM_ABORT = "stream_abort"                 # RT_FEATURE_STREAM_ABORT: aclrtStreamAbort
TASK_ABORT = "task_abort"                     # RT_FEATURE_DFX_FAST_RECOVER: aclrtDeviceTaskAbort
IPC_NOTIFY = "ipc_notify"                     # RT_FEATURE_IPC_NOTIFY: export / import keys
AVAILABLE_STREAMS = "available_streams"       # RT_FEATURE_STREAM_GET_AVILIABLE_NUM
ATTR_FAILURE_MODE = "attr_failure_mode"       # RT_FEATURE_STREAM_ATTR_FAILURE_MODE
ATTR_OVERFLOW = "attr_overflow"               # RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK
ATTR_TAG = "attr_tag"                         # RT_FEATURE_STREAM_ATTR_USER_CUSTOM_TAG
DEFAULT_STREAM_ATTRS = "default_stream_attrs"  # docs: A2/A3 accept stream NULL for attributes
UUID = "uuid"                                 # aclrtDeviceGetUuid answers (A2/A3 drivers)
OVERFLOW_MODE = "overflow_mode"               # RT_FEATURE_OVERFLOW_MODE: INFNAN by default
NOTIFY_RESET = "notify_reset"                 # RT_FEATURE_NOTIFY_RESET: aclrtNotifyBatchReset
SAT_STATUS = "sat_status"                     # deviceSatStatusImpl: overflow status read/reset


@dataclass(frozen=True)
class ChipFacts:
    chip: str                  # the runtime's config folder for the chip
    ai_cores: int              # ACL_DEV_ATTR_AICORE_CORE_NUM / ACL_DEVICE_INFO_AI_CORE_NUM
    cube_cores: int
    vector_cores: int          # 0: none (aclrtGetDeviceUtilizationRate answers -1)
    aicpu_cores: int
    l2_bytes: int
    npu_arch: int              # ACL_DEV_ATTR_NPU_ARCH (the __NPU_ARCH__ of its kernels)
    form_factor: int           # ACL_DEV_ATTR_DEVICE_FORM_FACTOR
    streams: int               # maxAllocStreamNum (dev_info_reg.cc)
    events: int                # stubEventCount (dev_info_reg.cc)
    notifies: int              # notifies per device (aclrtCreateNotify 约束说明)
    op_interval_us: int        # aclrtGetOpTimeOutInterval (modeled: 2^32 ns / 2^31 ns steps)
    op_default_ms: int         # the operator timeout before any set call (docs)
    features: frozenset
    cann_attrs: tuple          # aclGetCannAttributeList: what this chip supports
    topology: int              # ACL_RT_DEVS_TOPOLOGY_* between two of its devices (modeled)


_ALL_STREAM = frozenset({STREAM_ABORT, AVAILABLE_STREAMS, ATTR_FAILURE_MODE})
CHIPS: dict[str, ChipFacts] = {
    # Atlas 800T A2, Ascend 910B3: 20 AI cores (cube) and 40 vector cores (public), 6 AI CPUs
    # and 192 MiB L2 (modeled); 1091 s default operator timeout (docs); HCCS between the NPUs
    # of one server (public)
    "Ascend910B": ChipFacts(
        "910_B_93", 20, 20, 40, 6, 192 << 20, 2201, C.ACL_DEVICE_FORM_FACTOR_A_X, 32768, 65536,
        8192, 4294967, 1090921,
        _ALL_STREAM | {TASK_ABORT, IPC_NOTIFY, ATTR_OVERFLOW, ATTR_TAG, DEFAULT_STREAM_ATTRS,
                       UUID, OVERFLOW_MODE, NOTIFY_RESET, SAT_STATUS},
        (C.ACL_CANN_ATTR_INF_NAN, C.ACL_CANN_ATTR_BF16, C.ACL_CANN_ATTR_JIT_COMPILE),
        C.ACL_RT_DEVS_TOPOLOGY_HCCS),
    # Atlas 300I Pro, Ascend 310P3: 8 AI cores and 7 vector cores (public), 16 AI CPUs
    # (modeled), 16 MiB L2 (modeled); 547 s default AI Core timeout (docs)
    "Ascend310P": ChipFacts(
        "dc", 8, 8, 7, 16, 16 << 20, 2002, C.ACL_DEVICE_FORM_FACTOR_PCIE_CARD, 992, 1024, 1024,
        2147483, 546962, _ALL_STREAM | {IPC_NOTIFY, SAT_STATUS}, (C.ACL_CANN_ATTR_JIT_COMPILE,),
        C.ACL_RT_DEVS_TOPOLOGY_PIX),
    # Atlas 200I DK A2, Ascend 310B4: one AI core (public, profiles.py), no vector core, four
    # CPU cores of which 1 runs AI CPU tasks (modeled), 1091 s default timeout (docs)
    "Ascend310B": ChipFacts(
        "mini_v3", 1, 1, 0, 1, 4 << 20, 3002, C.ACL_DEVICE_FORM_FACTOR_A_K, 480, 65536, 2048,
        4294967, 1090921, _ALL_STREAM | {SAT_STATUS},
        (C.ACL_CANN_ATTR_JIT_COMPILE,), C.ACL_RT_DEVS_TOPOLOGY_SYS),
    # Ascend 310: 2 AI cores and 8 AI CPUs (public), 8 MiB L2 (public); the docs give no
    # timeout for it: 310P's figures (modeled)
    "Ascend310": ChipFacts(
        "mini", 2, 2, 0, 8, 8 << 20, 1001, C.ACL_DEVICE_FORM_FACTOR_PCIE_CARD, 992, 1024, 1024,
        2147483, 546962, frozenset({STREAM_ABORT}), (), C.ACL_RT_DEVS_TOPOLOGY_PIX),
}

#: what the simulated devices report as their utilization: the runtime samples the device,
#: the simulator has no busy cores to sample (modeled: idle)
IDLE_PERCENT = 0


def chip(soc_name: str) -> ChipFacts:
    """The facts of the SoC family ``soc_name`` belongs to (longest prefix wins)."""
    for prefix in sorted(CHIPS, key=len, reverse=True):
        if soc_name.startswith(prefix):
            return CHIPS[prefix]
    return CHIPS["Ascend910B"]


def uuid(profile_name: str, device: int) -> list[int]:
    """Device ``device``'s 16 uuid bytes: a hash of the profile and the device (modeled; a
    real device's comes from its driver). Each byte below 128: pyACL hands C chars to Python."""
    digest = hashlib.sha256(f"acl_lab:{profile_name}:{device}".encode()).digest()
    return [b & 0x7F for b in digest[:16]]


# ----- the CANN installation the simulator stands for (acl.cpp: share/info/<pkg>/version.info)
CANN_VERSION = "8.5.0"
#: package folder -> its version.info "Version=" (modeled: one CANN 8.5.0 release)
PACKAGES = {"runtime": CANN_VERSION, "bisheng-compiler": CANN_VERSION, "hccl": CANN_VERSION,
            "oam-tools": CANN_VERSION, "ops-legacy": CANN_VERSION, "driver": "25.5.0",
            "firmware": "7.8.0.5.216"}
#: aclCANNPackageName -> its folder (acl.cpp kMapToPkgName)
PACKAGE_OF = {C.ACL_PKG_NAME_CANN: "runtime", C.ACL_PKG_NAME_RUNTIME: "runtime",
              C.ACL_PKG_NAME_COMPILER: "bisheng-compiler", C.ACL_PKG_NAME_HCCL: "hccl",
              C.ACL_PKG_NAME_TOOLKIT: "oam-tools", C.ACL_PKG_NAME_OPP: "ops-legacy",
              C.ACL_PKG_NAME_OPP_KERNEL: "ops-legacy", C.ACL_PKG_NAME_DRIVER: "driver"}
