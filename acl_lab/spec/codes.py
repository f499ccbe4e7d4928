"""ACL error codes in plain words: what each means and what to do (``explain``).

The texts (acl_lab/spec/code_texts.py) are gettext message ids: the catalogs translate them;
USUAL_CAUSES adds, for codes whose remedy is "contact support", what application code
usually did.
"""

from acl_lab.constants import ERROR_NAMES
from acl_lab.i18n import _, join_sentences
from acl_lab.spec.code_texts import MEANINGS, PERSISTS, SUPPORT

_UNKNOWN = "not an ACL error code known to acl_lab."

#: For codes whose documented remedy is "contact support" but that application code
#: commonly causes, what usually caused them (the cases the chapters show). explain() puts
#: them between the runtime's meaning and the remedy, which then applies only if none fits.
USUAL_CAUSES: dict[str, str] = {
    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT": (
        "Usual causes in application code: asking for something this chip or this state does "
        "not have, e.g. 1 GiB huge pages (ACL_HBM_MEM_HUGE1G) on a chip without them, an "
        "asynchronous host-to-host copy in ACL_HOST mode, stream capture on a chip without "
        "ACL Graph, or recording (or waiting on) an event from aclrtCreateEvent or "
        "aclrtCreateEventWithFlag in a capture (only aclrtCreateEventExWithFlag events can be "
        "captured; the capture stays active)."
    ),
    "ACL_ERROR_RT_AICPU_EXCEPTION": (
        "Usual cause in application code: a media task (JPEG decode or encode, VPC resize or "
        "crop) runs as an AI CPU kernel, and its engine refused a picture: memory not from "
        "acldvppMalloc, a stride or buffer size off the rules, a crop area out of bounds. The "
        "output picture description's ret code is set; on the simulator "
        "acl.get_recent_err_msg() names the rule."
    ),
    "ACL_ERROR_RT_MODEL_EXECUTE": (
        "Usual cause in application code: memory a captured model uses was freed (or handed "
        "to someone else) before aclmdlRIDestroy, or an offline model's input, output, work "
        "or weight memory was freed before aclmdlExecute. Keep every buffer a model touches "
        "alive until the model is destroyed or unloaded."
    ),
    "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR": (
        "Usual cause in application code: aclrtResetDevice without a matching aclrtSetDevice "
        "(one reset too many, or a device this process never set). Reset each device as many "
        "times as you set it."
    ),
    "ACL_ERROR_RT_EVENT_NOT_COMPLETE": (
        "Usual cause in application code: aclrtEventElapsedTime before the end event completed. "
        "Synchronize the end event (aclrtSynchronizeEvent) first."
    ),
    "ACL_ERROR_RT_INTERNAL_ERROR": (
        "Usual cause in application code: aclrtEventElapsedTime with an event that was never "
        "recorded. Record both events on a stream first."
    ),
    "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED": (
        "Usual cause in application code: a captured event recorded or waited on in a way that "
        "links two different captures (the failing call returned 107032; both captures are "
        "invalidated). The runtime also invalidates a capture when it cannot allocate a task "
        "for it. Keep each captured event inside one capture."
    ),
    "ACL_ERROR_RT_DEV_SETUP_ERROR": (
        "Usual cause: aclrtSetDevice could not get the device memory the runtime needs for "
        "this process, because other processes hold the device's memory (npu-smi info shows "
        "who). Free the device or use another one."
    ),
    "ACL_ERROR_GE_FAILURE": (
        "Usual cause in application code: a dataset whose number of buffers differs from the "
        "model's inputs or outputs (aclmdlGetNumInputs / aclmdlGetNumOutputs), passed to "
        "aclmdlExecute. Add one data buffer per input and per output."
    ),
}
#: where each usual cause comes from (hicann/runtime at spec.socs.CHECKED_AGAINST): file and
#: function, never translated; explain() names it after the causes
SOURCES: dict[str, str] = {
    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT": (
        "NpuDriver::CheckIfSupport1GHugePage, ApiErrorDecorator::MemcpyAsync, "
        "rtStreamBeginCapture, ApiImpl::EventRecord"),
    "ACL_ERROR_RT_AICPU_EXCEPTION": "acldvpp*Async (single_op/dvpp), rtCpuKernelLaunch",
    "ACL_ERROR_RT_MODEL_EXECUTE": "hicann/runtime dev_guide 04-01_single_stream_capture.md (7)",
    "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR": "ApiImpl::DeviceReset",
    "ACL_ERROR_RT_EVENT_NOT_COMPLETE": "ApiImpl::EventElapsedTime",
    "ACL_ERROR_RT_INTERNAL_ERROR": "ApiImpl::EventElapsedTime",
    "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED": "TerminateCapture (capture_model_utils.cc)",
    "ACL_ERROR_RT_DEV_SETUP_ERROR": (
        "field logs: EL0004 from MemoryPoolManager::Init in aclrtSetDevice, "
        "hw-native-sys/PTOAS#341, Ascend/samples#16"),
    "ACL_ERROR_GE_FAILURE": "aclmdlExecute (ge executor: input / output count)",
}
assert set(SOURCES) == set(USUAL_CAUSES)
_SOURCE = "Source: {source}."
#: the mark on every check acl_lab makes that real ACL does not (the chapters use it too)
ACL_LAB_CHECK = "[acl_lab check]"


def acl_lab_check(message: str) -> str:
    """``message`` (in the learner's language already) marked as a check acl_lab makes and
    real ACL does not: on hardware the call would go ahead and corrupt, crash or hang."""
    return join_sentences([_(ACL_LAB_CHECK), message])


_IF_NONE = {SUPPORT: "If none of these applies, collect the logs and contact Huawei support.",
            PERSISTS: "If none applies and it keeps happening, collect the logs and contact "
                       "Huawei support."}


def _split(meaning: str) -> tuple[str, str]:
    """A meaning's own text and the remedy it ends with ("" if none of _IF_NONE's)."""
    for remedy in _IF_NONE:
        if meaning.endswith(remedy):
            return meaning[:-len(remedy)].rstrip(), remedy
    return meaning, ""


def meaning(code: int) -> str:
    """What ``code`` means and what to do, in the current language."""
    name = ERROR_NAMES.get(code)
    if not name:
        return _(_UNKNOWN)
    head, remedy = _split(MEANINGS[name])
    causes = USUAL_CAUSES.get(name)
    parts = [_(head)] + ([_(causes), _(_SOURCE).format(source=SOURCES[name])] if causes else [])
    if remedy:       # after the usual causes, the remedy applies only if none of them fits
        parts.append(_(_IF_NONE[remedy] if causes else remedy))
    return join_sentences(parts)


def message_ids() -> set[str]:
    """Every text explain() can show, as gettext message ids (the catalogs translate them)."""
    ids = {_UNKNOWN, _SOURCE, ACL_LAB_CHECK, *_IF_NONE, *_IF_NONE.values(),
           *USUAL_CAUSES.values()}
    return ids | {_split(m)[0] for m in MEANINGS.values()}


def explain(code: int) -> str:
    """'ACL_ERROR_XXX (code): meaning and what to do', for any int."""
    if code not in ERROR_NAMES:
        return f"{code}: {meaning(code)}"
    return f"{ERROR_NAMES[code]} ({code}): {meaning(code)}"
