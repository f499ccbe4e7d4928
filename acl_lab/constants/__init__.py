"""Every AscendCL constant acl_lab uses, under its C name.

pyACL exports no constants: its samples define the few they need by hand
(e.g. ``ACL_MEM_MALLOC_HUGE_FIRST = 0`` in a ``constant.py``). acl_lab instead
defines them all here, with the values of the CANN runtime headers, so code
written against acl_lab reads the same as C code and pyACL samples.

Source: github.com/hicann/runtime, include/external/acl/ (paths below).
"""

# one namespace, read in this order: the name tables below span definition order
from acl_lab.constants.runtime import *   # noqa: E402,F401,F403
from acl_lab.constants.codes import *     # noqa: E402,F401,F403
from acl_lab.constants.media import *     # noqa: E402,F401,F403
from acl_lab.constants.models import *    # noqa: E402,F401,F403
from acl_lab.constants.prof import *      # noqa: E402,F401,F403


def _span(first: str, last: str) -> dict[int, str]:
    """value -> C name for the constants defined above from `first` to `last`
    (module globals keep definition order); an alias never displaces the
    first name given to a value."""
    names = list(globals())
    table: dict[int, str] = {}
    for name in names[names.index(first) : names.index(last) + 1]:
        table.setdefault(globals()[name], name)
    return table


RUN_MODE_NAMES = _span("ACL_DEVICE", "ACL_HOST")
EVENT_STATUS_NAMES = _span("ACL_EVENT_STATUS_COMPLETE", "ACL_EVENT_STATUS_RESERVED")
EVENT_RECORDED_STATUS_NAMES = _span(
    "ACL_EVENT_RECORDED_STATUS_NOT_READY", "ACL_EVENT_RECORDED_STATUS_COMPLETE"
)
STREAM_STATUS_NAMES = _span("ACL_STREAM_STATUS_COMPLETE", "ACL_STREAM_STATUS_RESERVED")
MEMCPY_KIND_NAMES = _span("ACL_MEMCPY_HOST_TO_HOST", "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE")
MALLOC_POLICY_NAMES = _span("ACL_MEM_MALLOC_HUGE_FIRST", "ACL_MEM_ACCESS_USER_SPACE_READONLY")
MEM_ATTR_NAMES = _span("ACL_DDR_MEM", "ACL_MEM_P2P_HUGE1G")
CAPTURE_MODE_NAMES = _span(
    "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL", "ACL_MODEL_RI_CAPTURE_MODE_RELAXED"
)
CAPTURE_STATUS_NAMES = _span(
    "ACL_MODEL_RI_CAPTURE_STATUS_NONE", "ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED"
)
DEBUG_JSON_PRINT_NAMES = _span(
    "ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY", "ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE"
)
DATA_TYPE_NAMES = _span("ACL_DT_UNDEFINED", "ACL_HIFLOAT4_SCALE")
FORMAT_NAMES = _span("ACL_FORMAT_UNDEFINED", "ACL_FORMAT_FRACTAL_NZ_C0_8")
ERROR_NAMES = _span("ACL_SUCCESS", "ACLNN_ERR_RUNTIME_ERROR")
PIXEL_FORMAT_NAMES = _span("PIXEL_FORMAT_YUV_400", "PIXEL_FORMAT_UNKNOWN")
STREAM_FORMAT_NAMES = _span("H265_MAIN_LEVEL", "H264_HIGH_LEVEL")
MEM_LOCATION_TYPE_NAMES = _span("ACL_MEM_LOCATION_TYPE_HOST", "ACL_MEM_LOCATION_TYPE_HOST_NUMA")
