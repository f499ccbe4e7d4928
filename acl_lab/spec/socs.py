"""Which SoC has which feature and which rule: ONE table, read by the simulator's profiles,
its media engines, ``acl-lab doctor`` and the chapters' SoC badges.

Every row cites where its facts come from. The CANN API reference marks each rule that
depends on the product with a "产品支持情况" block (an ``<!-- npu="910b" -->`` tag per
product line); the runtime's source lists each chip's optional features in
``src/runtime/config/<chip>/dev_info_reg.cc``. Both read at hicann/runtime master, commit
681ef7610df1 (2026-08-22, the CANN 9.x line): CHECKED_AGAINST. Where the two disagree, the
simulator follows the source and the chapters say what the docs claim.

Sources of the columns (hicann/runtime unless a page is named):
- capture: hicann/runtime docs/zh/api_ref/15_model_running_instance__management.md,
  aclmdlRICaptureBegin 产品支持情况; source ``rtStreamBeginCapture`` (src/runtime/api/api_c_standard_soc.cc)
  refuses a chip without ``RT_FEATURE_MODEL_ACL_GRAPH`` with RT_ERROR_FEATURE_NOT_SUPPORT
  (ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000). The Ascend 310 (config ``mini``) lacks it.
- huge1g_pages: ``RT_FEATURE_MEM_1G_HUGE_PAGE`` in the chip's config;
  ``NpuDriver::CheckIfSupport1GHugePage`` (src/runtime/driver/npu_driver_mem.cc) refuses
  the 1 GiB-page attributes and policies elsewhere with 207000.
- hbm: the memory the product carries (aclrtGetMemInfo: a chip without HBM answers an HBM
  attribute with its DDR figures, ``MAP_WHEN_GET_INFO`` in NpuDriver::MemGetInfoEx).
- malloc_policy_or: hicann/runtime docs/zh/api_ref/11-01_device_memory_malloc_and_free.md,
  aclrtMalloc 约束说明 (id11): only IPV350 takes policies OR-ed with ACL_MEM_TYPE_*_BAND_WIDTH. The
  source (aclMallocMemInner, src/acl/aclrt_impl/memory.cpp) compares the policy with each
  enum value, so an OR-ed value matches none and gets the default flags on every chip.
- malloc_padding: 11-01 aclrtMalloc 功能说明 (id2/id3): ALIGN_UP(size, 32) + 32, except
  Ascend 950 (ALIGN_UP(size, 32) only).
- memcpy2d_async_d2d: hicann/runtime docs/zh/api_ref/11-03_memory_copy_and_set.md,
  aclrtMemcpy2dAsync 约束说明 (id14).
- jpegd_width_align / jpegd_height_align: JPEGD "功能及约束说明", table 2 (CANN 8.0.RC1,
  hiascend.com .../canncommercial/80RC1/apiref/appdevgapi/aclpythondevg_01_0321.html):
  width stride ALIGN_UP(w, 128) on Atlas 200/300/500 and Atlas training products, 64 on Atlas
  inference products, Atlas 200I/500 A2 and Atlas A2; height stride ALIGN_UP(h, 16).
- dvpp_generation: the ACL DVPP code's ImageProcessorV100 (Ascend 310) / V200 (later chips),
  single_op/dvpp/base (the formats each VPC takes).
- virtual_memory / virtual_memory_rc: hicann/runtime docs/zh/api_ref/11-04_virtual_memory_management.md,
  aclrtMallocPhysical / aclrtReserveMemAddress / aclrtMapMem 产品支持情况 (every line but IPV350)
  and 约束说明 (the Atlas 200I/500 A2 in the Ascend RC form, the ACL_DEVICE run mode, does not
  support them). The Ascend 310 is not listed: the kit refuses there.
- stream_ordered_pools: include/external/acl/acl_rt_memory_soma.h and
  hicann/runtime docs/zh/api_ref/11-10 (aclrtMemPoolCreate 产品支持情况): Atlas A2 only, experimental.
- memcpy_batch: hicann/runtime docs/zh/api_ref/11-03_memory_copy_and_set.md, aclrtMemcpyBatch
  产品支持情况: Ascend 950, Atlas A3 and Atlas A2.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from acl_lab.i18n import N_, _, join_list, pgettext

#: what the rules of the kit were read against (each chapter names it)
CHECKED_AGAINST = "CANN 9.x (hicann/runtime 681ef76, 2026-08-22)"


@dataclass(frozen=True)
class Soc:
    """One product line as the CANN documentation names it, and what it has."""

    key: str                       # the docs' npu tag ("910b") or the kit's name ("310")
    product: str                   # the product line, as the docs' 产品支持情况 names it
    prefixes: tuple[str, ...]      # aclrtGetSocName() values it covers ("Ascend910B3")
    config: str | None             # src/runtime/config/<config>/dev_info_reg.cc
    capture: bool                  # aclmdlRICaptureBegin works (ACL Graph)
    huge1g_pages: bool             # 1 GiB huge pages (ACL_HBM_MEM_HUGE1G, HUGE1G_ONLY)
    hbm: bool                      # HBM beside DDR
    malloc_policy_or: bool         # aclrtMalloc documents OR-ed bandwidth flags
    malloc_padding: int            # bytes aclrtMalloc adds after ALIGN_UP(size, 32)
    memcpy2d_async_d2d: bool       # aclrtMemcpy2dAsync documents DEVICE_TO_DEVICE
    jpegd_width_align: int | None  # JPEGD output width stride = ALIGN_UP(width, this)
    jpegd_height_align: int | None  # JPEGD output height stride = ALIGN_UP(height, this)
    dvpp_generation: str | None    # "v100" / "v200": which formats VPC takes
    virtual_memory: bool = True    # aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem
    virtual_memory_rc: bool = True  # the same in the ACL_DEVICE run mode (Ascend RC form)
    stream_ordered_pools: bool = False  # aclrtMemPoolCreate / MallocAsync (experimental)
    memcpy_batch: bool = False     # aclrtMemcpyBatch


SOCS: tuple[Soc, ...] = (
    Soc("950", "Ascend 950PR/Ascend 950DT", ("Ascend950",), "950", capture=True,
        huge1g_pages=True, hbm=True, malloc_policy_or=False, malloc_padding=0,
        memcpy2d_async_d2d=True, jpegd_width_align=None, jpegd_height_align=None,
        dvpp_generation=None, memcpy_batch=True),
    Soc("A3", "Atlas A3 训练系列产品/Atlas A3 推理系列产品", ("Ascend910_93",), "910_B_93",
        capture=True, huge1g_pages=True, hbm=True, malloc_policy_or=False, malloc_padding=32,
        memcpy2d_async_d2d=True, jpegd_width_align=None, jpegd_height_align=None,
        dvpp_generation="v200", memcpy_batch=True),
    Soc("910b", "Atlas A2 训练系列产品/Atlas A2 推理系列产品", ("Ascend910B",), "910_B_93",
        capture=True, huge1g_pages=True, hbm=True, malloc_policy_or=False, malloc_padding=32,
        memcpy2d_async_d2d=True, jpegd_width_align=64, jpegd_height_align=16,
        dvpp_generation="v200", stream_ordered_pools=True, memcpy_batch=True),
    Soc("910", "Atlas 训练系列产品", ("Ascend910",), "cloud", capture=False,
        huge1g_pages=False, hbm=True, malloc_policy_or=False, malloc_padding=32,
        memcpy2d_async_d2d=False, jpegd_width_align=128, jpegd_height_align=16,
        dvpp_generation="v200"),
    Soc("310p", "Atlas 推理系列产品", ("Ascend310P",), "dc", capture=True,
        huge1g_pages=False, hbm=False, malloc_policy_or=False, malloc_padding=32,
        memcpy2d_async_d2d=False, jpegd_width_align=64, jpegd_height_align=16,
        dvpp_generation="v200"),
    Soc("310b", "Atlas 200I/500 A2 推理产品", ("Ascend310B",), "mini_v3", capture=False,
        huge1g_pages=False, hbm=False, malloc_policy_or=False, malloc_padding=32,
        memcpy2d_async_d2d=False, jpegd_width_align=64, jpegd_height_align=16,
        dvpp_generation="v200", virtual_memory_rc=False),
    # The docs at CHECKED_AGAINST no longer list the Ascend 310; its facts come from the
    # source's config "mini" and the CANN 8.0.RC1 pages cited above.
    Soc("310", "Atlas 200/300/500 推理产品", ("Ascend310",), "mini", capture=False,
        huge1g_pages=False, hbm=False, malloc_policy_or=False, malloc_padding=32,
        memcpy2d_async_d2d=False, jpegd_width_align=128, jpegd_height_align=16,
        dvpp_generation="v100", virtual_memory=False, virtual_memory_rc=False),
    # IPV350: the docs list capture as not supported; its config ("350") has ACL Graph.
    Soc("IPV350", "IPV350", ("IPV350",), "350", capture=True, huge1g_pages=True, hbm=False,
        malloc_policy_or=True, malloc_padding=32, memcpy2d_async_d2d=False,
        jpegd_width_align=None, jpegd_height_align=None, dvpp_generation=None,
        virtual_memory=False, virtual_memory_rc=False),
)

#: the table's rows a learner can ask about, with their words (badges, acl-lab doctor)
RULES = {
    "capture": N_("stream capture (aclmdlRICaptureBegin)"),
    "huge1g_pages": N_("1 GiB huge pages (ACL_HBM_MEM_HUGE1G, ACL_MEM_MALLOC_HUGE1G_ONLY)"),
    "hbm": N_("HBM beside DDR"),
    "malloc_policy_or": N_("aclrtMalloc policy OR-ed with ACL_MEM_TYPE_*_BAND_WIDTH"),
    "malloc_padding": N_("bytes aclrtMalloc adds after ALIGN_UP(size, 32)"),
    "memcpy2d_async_d2d": N_("aclrtMemcpy2dAsync with ACL_MEMCPY_DEVICE_TO_DEVICE"),
    "jpegd_width_align": N_("JPEGD output width stride: ALIGN_UP(width, n)"),
    "jpegd_height_align": N_("JPEGD output height stride: ALIGN_UP(height, n)"),
    "dvpp_generation": N_("DVPP generation (which formats VPC takes)"),
    "virtual_memory": N_("virtual memory (aclrtReserveMemAddress, aclrtMallocPhysical, "
                         "aclrtMapMem)"),
    "virtual_memory_rc": N_("virtual memory in the ACL_DEVICE run mode (Ascend RC form)"),
    "stream_ordered_pools": N_("stream-ordered memory pools (aclrtMemPoolCreate; "
                               "experimental)"),
    "memcpy_batch": N_("batch copies (aclrtMemcpyBatch)"),
}
assert set(RULES) == {f.name for f in fields(Soc)} - {"key", "product", "prefixes", "config"}


def soc_of(soc_name: str) -> Soc:
    """The row of the product whose SoC name ``soc_name`` is (the longest prefix wins:
    "Ascend910B3" is Atlas A2, not Atlas training); KeyError for a name no row covers."""
    found = [(len(p), s) for s in SOCS for p in s.prefixes if soc_name.startswith(p)]
    if not found:
        raise KeyError(soc_name)
    return max(found, key=lambda pair: pair[0])[1]


def captures(soc_name: str) -> bool:
    """Whether a SoC can capture a stream into a model (ACL Graph); a SoC the table does
    not know (real hardware newer than the kit) is let try: its runtime answers."""
    try:
        return soc_of(soc_name).capture
    except KeyError:
        return True


def _value(value) -> str:
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return "-" if value is None else str(value)


def badge(rule: str) -> str:
    """The one-line "depends on the SoC" note a chapter shows beside ``rule`` (a column of
    the table): the value on each product line the kit simulates, from the table itself."""
    shown = [s for s in SOCS if s.key in ("910b", "310p", "310b", "310")]
    values: dict[str, list[str]] = {}
    for s in shown:
        values.setdefault(_value(getattr(s, rule)), []).append(s.key)
    parts = pgettext("clause separator", "; ").join(
        _("{socs}: {value}").format(socs=join_list(keys), value=v) for v, keys in values.items())
    return _("Depends on the SoC — {rule}: {parts} (acl_lab.spec.socs, checked against "
             "{checked})").format(rule=_(RULES[rule]), parts=parts, checked=CHECKED_AGAINST)


def table() -> list[str]:
    """The table as lines of text, one row per product line (``acl-lab doctor``)."""
    rows = [(_(RULES[rule]), [_value(getattr(s, rule)) for s in SOCS]) for rule in RULES]
    width = max(len(label) for label, _values in rows)
    head = " " * width + "  " + " ".join(f"{s.key:>7}" for s in SOCS)
    return [head] + [f"{label:<{width}}  " + " ".join(f"{v:>7}" for v in values)
                     for label, values in rows]
