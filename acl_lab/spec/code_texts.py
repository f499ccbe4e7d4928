"""What each ACL error code means and what to do about it: the texts ``explain`` shows.

Follows the cause / remedy tables of the CANN "aclError" reference page, reworded; codes
that page leaves out are explained from the comments of hicann/runtime's rt_error_codes.h,
hicann/ge's ge_error_codes.h and the aclnn status codes. Each text is a gettext message id.
"""

SUPPORT = "Application code cannot fix this: collect the logs and contact Huawei support."
PERSISTS = "If it keeps happening, collect the logs and contact Huawei support."

MEANINGS: dict[str, str] = {
    "ACL_SUCCESS": "Success: the call did what it was asked.",
    "ACL_ERROR_INVALID_EXCEPTION_INFO": (
        "The exception information is invalid. Read exception details only from the info "
        "passed to the callback registered with aclrtSetExceptionInfoCallback."
    ),
    # --- acl_base_rt.h: 1xxxxx, environment or program logic ---
    "ACL_ERROR_INVALID_PARAM": (
        "An argument failed validation (null pointer, zero or oversized size, value outside "
        "its enum...). Check each argument against the API's documentation."
    ),
    "ACL_ERROR_UNINITIALIZE": (
        "Not initialised. Call acl.init() before any other ACL call, and a feature's own "
        "init (e.g. aclmdlInitDump, aclprofInit) before using that feature."
    ),
    "ACL_ERROR_REPEAT_INITIALIZE": (
        "Initialised or loaded a second time. acl.init() may run only once per process: "
        "remove the repeated call."
    ),
    "ACL_ERROR_INVALID_FILE": "The file is invalid. Check that it exists and can be read.",
    "ACL_ERROR_WRITE_FILE": (
        "Writing a file failed. Check that the path exists and that you may write there."
    ),
    "ACL_ERROR_INVALID_FILE_SIZE": "The file's size is not one the API accepts. Check the file.",
    "ACL_ERROR_PARSE_FILE": (
        "The file could not be parsed. Check that its content is well formed (for acl.init, valid "
        "JSON)."
    ),
    "ACL_ERROR_FILE_MISSING_ATTR": "The file lacks a required field. Complete the file.",
    "ACL_ERROR_FILE_ATTR_INVALID": "A field in the file has an invalid value. Correct it.",
    "ACL_ERROR_INVALID_DUMP_CONFIG": (
        "The dump configuration is invalid. Check it against the precision-debugging guide."
    ),
    "ACL_ERROR_INVALID_PROFILING_CONFIG": "The profiling configuration is invalid. Check it.",
    "ACL_ERROR_INVALID_MODEL_ID": (
        "No loaded model has this ID. Check the ID and that the model loaded successfully."
    ),
    "ACL_ERROR_DESERIALIZE_MODEL": (
        "The model could not be deserialised, probably because another CANN version built it. "
        "Rebuild the model with the installed version."
    ),
    "ACL_ERROR_PARSE_MODEL": (
        "The model could not be parsed, probably because it does not match this CANN version. "
        "Rebuild the model."
    ),
    "ACL_ERROR_READ_MODEL_FAILURE": (
        "The model file could not be read. Check that it exists and can be read."
    ),
    "ACL_ERROR_MODEL_SIZE_INVALID": (
        "The model's size is invalid, so the file is bad. Rebuild the model."
    ),
    "ACL_ERROR_MODEL_MISSING_ATTR": (
        "The model lacks an attribute this version needs. Rebuild it with the installed CANN "
        "version."
    ),
    "ACL_ERROR_MODEL_INPUT_NOT_MATCH": (
        "The inputs do not match what the model expects. Check their number, sizes and types."
    ),
    "ACL_ERROR_MODEL_OUTPUT_NOT_MATCH": (
        "The outputs do not match what the model produces. Check their number and sizes."
    ),
    "ACL_ERROR_MODEL_NOT_DYNAMIC": (
        "The model is not dynamic, so dynamic batch or shape settings do not apply. "
        "Use fixed inputs or rebuild the model with dynamic dimensions."
    ),
    "ACL_ERROR_OP_TYPE_NOT_MATCH": (
        "The single operator's type does not match. Check the type name."
    ),
    "ACL_ERROR_OP_INPUT_NOT_MATCH": (
        "The operator's inputs do not match. Check the input descriptions."
    ),
    "ACL_ERROR_OP_OUTPUT_NOT_MATCH": (
        "The operator's outputs do not match. Check the output descriptions."
    ),
    "ACL_ERROR_OP_ATTR_NOT_MATCH": (
        "The operator's attributes do not match. Check their names and values."
    ),
    "ACL_ERROR_OP_NOT_FOUND": (
        "The operator was not found. Check that this operator type is supported."
    ),
    "ACL_ERROR_OP_LOAD_FAILED": (
        "The operator could not be loaded; its compiled model probably does not match this "
        "version. Rebuild the single-operator model."
    ),
    "ACL_ERROR_UNSUPPORTED_DATA_TYPE": (
        "The data type is not supported here. Check the aclDataType value and whether this "
        "operation supports it."
    ),
    "ACL_ERROR_FORMAT_NOT_MATCH": "The tensor format does not match. Check the aclFormat value.",
    "ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED": (
        "No kernel selector is registered for the operator being compiled. Register one "
        "with aclopRegisterSelectKernelFunc."
    ),
    "ACL_ERROR_KERNEL_NOT_FOUND": (
        "No kernel is registered for the operator being compiled. Register it with "
        "aclopCreateKernel."
    ),
    "ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED": (
        "A kernel selector is already registered for this operator. Register it only once."
    ),
    "ACL_ERROR_KERNEL_ALREADY_REGISTERED": (
        "The operator kernel is already registered. Register it only once."
    ),
    "ACL_ERROR_INVALID_QUEUE_ID": "The queue ID is invalid. Check it.",
    "ACL_ERROR_REPEAT_SUBSCRIBE": (
        "The stream is already subscribed. Call aclrtSubscribeReport only once per stream."
    ),
    "ACL_ERROR_STREAM_NOT_SUBSCRIBE": (
        "The stream is not subscribed to a callback thread. Call aclrtSubscribeReport first "
        "(newer versions report ACL_ERROR_RT_STREAM_NO_CB_REG)."
    ),
    "ACL_ERROR_THREAD_NOT_SUBSCRIBE": (
        "The thread is not subscribed. Call aclrtSubscribeReport first "
        "(newer versions report ACL_ERROR_RT_THREAD_SUBSCRIBE)."
    ),
    "ACL_ERROR_WAIT_CALLBACK_TIMEOUT": (
        "Waiting for a callback timed out. Check that aclrtLaunchCallback queued one, that the "
        "aclrtProcessReport timeout is long enough, and that it was not already processed "
        "(newer versions report ACL_ERROR_RT_REPORT_TIMEOUT)."
    ),
    "ACL_ERROR_REPEAT_FINALIZE": (
        "Finalised a second time. Call acl.finalize() only once, at the end of the program; "
        "like ACL_ERROR_REPEAT_INITIALIZE it only says \"already done\", and the tutorial's "
        "C code accepts it."
    ),
    "ACL_ERROR_NOT_STATIC_AIPP": (
        "There is no static AIPP configuration at that index. Pass a valid index to "
        "aclmdlGetFirstAippInfo."
    ),
    "ACL_ERROR_COMPILING_STUB_MODE": (
        "The library path points at the compile-time stub libraries. Set LD_LIBRARY_PATH to "
        "the real runtime libraries."
    ),
    "ACL_ERROR_GROUP_NOT_SET": (
        "No group has been set. Call aclrtSetGroup first (newer versions report "
        "ACL_ERROR_RT_GROUP_NOT_SET)."
    ),
    "ACL_ERROR_GROUP_NOT_CREATE": (
        "The group does not exist. Use a group ID from 0 to aclrtGetGroupCount() - 1."
    ),
    "ACL_ERROR_PROF_ALREADY_RUN": (
        "A profiling collection is already running. Configure profiling in one way only, and "
        "once per device."
    ),
    "ACL_ERROR_PROF_NOT_RUN": "Profiling was not initialised. Call aclprofInit first.",
    "ACL_ERROR_DUMP_ALREADY_RUN": (
        "Dump is already configured (e.g. in acl.init's config file). Configure dump in one way "
        "only."
    ),
    "ACL_ERROR_DUMP_NOT_RUN": (
        "Dump was not initialised. Call aclmdlInitDump before aclmdlSetDump and aclmdlFinalizeDump."
    ),
    "ACL_ERROR_PROF_REPEAT_SUBSCRIBE": (
        "The model is already subscribed for profiling. Check the order of the profiling calls."
    ),
    "ACL_ERROR_PROF_API_CONFLICT": (
        "Two styles of profiling API were mixed (aclprofInit/Start/Stop/Finalize versus "
        "aclprofModelSubscribe/UnSubscribe). Use one style at a time."
    ),
    "ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG": (
        "The operator-cache ageing setting is invalid. Check it in acl.init's configuration."
    ),
    "ACL_ERROR_INVALID_OPP_PATH": (
        "ASCEND_OPP_PATH is unset or wrong. Point it at the opp package's installation path."
    ),
    "ACL_ERROR_OP_UNSUPPORTED_DYNAMIC": (
        "The operator does not support dynamic shapes. Give it fixed shapes."
    ),
    "ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED": (
        "A related resource still exists (e.g. a channel whose description is being destroyed). "
        "Destroy the dependent resource first."
    ),
    "ACL_ERROR_UNSUPPORTED_JPEG": (
        "The JPEG uses an encoding JPEGD cannot decode (arithmetic, progressive, JPEG2000). "
        "Use a baseline Huffman-coded JPEG."
    ),
    "ACL_ERROR_INVALID_BUNDLE_MODEL_ID": (
        "The bundle model ID is invalid. Check it and that the model loaded successfully."
    ),
    # --- 2xxxxx: resources, or a request the hardware does not support ---
    "ACL_ERROR_BAD_ALLOC": (
        "Memory allocation failed. Check how much memory is left; free what you no longer need "
        "or ask for less."
    ),
    "ACL_ERROR_API_NOT_SUPPORT": (
        "This API is not supported here (product, version or run mode). Check its support list."
    ),
    "ACL_ERROR_INVALID_DEVICE": (
        "The device is invalid. Use an ID from 0 to get_device_count() - 1 (newer versions "
        "report ACL_ERROR_RT_INVALID_DEVICEID)."
    ),
    "ACL_ERROR_MEMORY_ADDRESS_UNALIGNED": (
        "The memory address is not aligned as the API requires. Check the address and any offset "
        "added to it."
    ),
    "ACL_ERROR_RESOURCE_NOT_MATCH": (
        "The resources passed do not belong together. Check that the stream, context and so on "
        "are the right ones."
    ),
    "ACL_ERROR_INVALID_RESOURCE_HANDLE": (
        "The resource handle is invalid: the stream, context or event was destroyed or is in "
        "use. Check its lifetime."
    ),
    "ACL_ERROR_FEATURE_UNSUPPORTED": "The feature is not supported. " + SUPPORT,
    "ACL_ERROR_PROF_MODULES_UNSUPPORTED": (
        "The profiling configuration asks for unsupported modules. Check what was given to "
        "aclprofCreateConfig."
    ),
    "ACL_ERROR_STORAGE_OVER_LIMIT": "The storage limit was exceeded. Check the storage left.",
    # --- 5xxxxx: internal errors ---
    "ACL_ERROR_INTERNAL_ERROR": "Unknown internal error. " + SUPPORT,
    "ACL_ERROR_FAILURE": "Internal error. " + SUPPORT,
    "ACL_ERROR_GE_FAILURE": "Error in the Graph Engine (GE) module. " + SUPPORT,
    "ACL_ERROR_RT_FAILURE": "Error in the runtime module. " + SUPPORT,
    "ACL_ERROR_DRV_FAILURE": "Error in the driver module. " + SUPPORT,
    "ACL_ERROR_PROFILING_FAILURE": "Error in the profiling module. " + SUPPORT,
    # --- rt_error_codes.h: 107xxx, program logic ---
    "ACL_ERROR_RT_PARAM_INVALID": (
        "The runtime rejected an argument. Check the call's arguments (null pointers, sizes, enum "
        "values)."
    ),
    "ACL_ERROR_RT_INVALID_DEVICEID": (
        "The device ID is invalid. Use an ID from 0 to get_device_count() - 1."
    ),
    "ACL_ERROR_RT_CONTEXT_NULL": (
        "This thread has no current context. Call set_device or set_context in this thread "
        "first. The runtime also returns it for aclrtDestroyContext on a device's default "
        "context, which only aclrtResetDevice releases."
    ),
    "ACL_ERROR_RT_STREAM_CONTEXT": (
        "The stream does not belong to the current context. Make its context current, or use "
        "a stream of the current one."
    ),
    "ACL_ERROR_RT_MODEL_CONTEXT": (
        "The model does not belong to the current context. Use the context it was loaded in."
    ),
    "ACL_ERROR_RT_STREAM_MODEL": (
        "The stream is not bound to this model. Check which model it was bound to."
    ),
    "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID": (
        "The event has no valid timestamp. Check that it was created and recorded, and has "
        "completed."
    ),
    "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL": (
        "The event timestamps are reversed (end before start). Check that both events were "
        "created and recorded in order."
    ),
    "ACL_ERROR_RT_ADDR_UNALIGNED": (
        "The memory address is not aligned as required (e.g. 64 bytes for async copies). "
        "Check the address."
    ),
    "ACL_ERROR_RT_FILE_OPEN": "A file could not be opened. Check that it exists.",
    "ACL_ERROR_RT_FILE_WRITE": "A file could not be written. Check that it exists and is writable.",
    "ACL_ERROR_RT_STREAM_SUBSCRIBE": (
        "The stream is not subscribed, or subscribed twice. Check its aclrtSubscribeReport calls."
    ),
    "ACL_ERROR_RT_THREAD_SUBSCRIBE": (
        "The thread is not subscribed, or subscribed twice. Check its subscription."
    ),
    "ACL_ERROR_RT_GROUP_NOT_SET": "No group has been set. Call aclrtSetGroup first.",
    "ACL_ERROR_RT_GROUP_NOT_CREATE": (
        "The group does not exist. Use a group ID from 0 to aclrtGetGroupCount() - 1."
    ),
    "ACL_ERROR_RT_STREAM_NO_CB_REG": (
        "The callback's stream is not registered to a thread. Call aclrtSubscribeReport for it "
        "first."
    ),
    "ACL_ERROR_RT_INVALID_MEMORY_TYPE": (
        "The memory type is invalid for this operation. Check where each buffer was allocated."
    ),
    "ACL_ERROR_RT_INVALID_HANDLE": (
        "The handle is invalid. Check that it is the right one and has not been destroyed."
    ),
    "ACL_ERROR_RT_INVALID_MALLOC_TYPE": (
        "The requested memory type is wrong for this allocation. Check the policy or type given."
    ),
    "ACL_ERROR_RT_WAIT_TIMEOUT": "A wait timed out. Issue the task again.",
    "ACL_ERROR_RT_TASK_TIMEOUT": (
        "A task ran past its timeout. Check how the work is arranged, or set a longer timeout."
    ),
    "ACL_ERROR_RT_SYSPARAMOPT_NOT_SET": (
        "The system parameter is not set in the current context. Set it with "
        "aclrtCtxSetSysParamOpt first."
    ),
    "ACL_ERROR_RT_DEVICE_TASK_ABORT": (
        "The call collided with aclrtDeviceTaskAbort stopping the device's tasks. Wait until "
        "the abort has finished."
    ),
    "ACL_ERROR_RT_STREAM_ABORT": (
        "The stream's tasks are being cleared, so it cannot be waited on. Wait until the clearing "
        "ends."
    ),
    "ACL_ERROR_RT_CAPTURE_DEPENDENCY": (
        "In a capture, an event wait has no matching event record. Record the event "
        "(record_event) inside the capture before waiting on it."
    ),
    "ACL_ERROR_RT_STREAM_UNJOINED": (
        "A stream drawn into the capture was not joined back into the origin stream. End it "
        "with record_event and make the origin stream wait on that event (stream_wait_event)."
    ),
    "ACL_ERROR_RT_MODEL_CAPTURED": (
        "The model is already being captured. End the capture (aclmdlRICaptureEnd) first."
    ),
    "ACL_ERROR_RT_STREAM_CAPTURED": (
        "The stream is already capturing. End the capture (aclmdlRICaptureEnd) before this call."
    ),
    "ACL_ERROR_RT_EVENT_CAPTURED": (
        "The event belongs to a capture in progress. End the capture (aclmdlRICaptureEnd) before "
        "this call."
    ),
    "ACL_ERROR_RT_STREAM_NOT_CAPTURED": (
        "The stream is not capturing. Call aclmdlRICaptureBegin on it first."
    ),
    "ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT": (
        "The current capture mode forbids this call (e.g. a synchronous copy in GLOBAL mode). "
        "Switch the thread's mode with aclmdlRICaptureThreadExchangeMode, or move the call out "
        "of the capture."
    ),
    "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT": (
        "The default stream cannot be used while capturing. Use a stream you created instead."
    ),
    "ACL_ERROR_STREAM_CAPTURE_CONFLICT": (
        "An event ties together streams that belong to different captures. Do not link streams "
        "that begin capture separately through events."
    ),
    "ACL_ERROR_STREAM_TASK_GROUP_STATUS": (
        "The task group is in the wrong state (begun twice, updated twice at once, Begin "
        "without End, or recorded and updated on one stream). Pair every TaskGrpBegin/End and "
        "TaskUpdateBegin/End."
    ),
    "ACL_ERROR_STREAM_TASK_GROUP_INTR": (
        "Task-group recording was interrupted: a task went to a capturing stream that is not "
        "recording the group. Open the group on that stream before submitting to it."
    ),
    "ACL_ERROR_RT_TASK_ABORT_STOP": (
        "A device task abort stopped before its post-processing. Let the abort finish, then "
        "retry. " + PERSISTS
    ),
    "ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED": (
        "The capture was not begun on this stream. Call aclmdlRICaptureBegin and "
        "aclmdlRICaptureEnd on the same stream."
    ),
    "ACL_ERROR_RT_MODEL_RUNNING": (
        "The model is still executing, so it cannot be destroyed. Synchronise first, then destroy "
        "it."
    ),
    "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD": (
        "The capture was ended on another thread than the one that began it. Unless the mode "
        "is ACL_MODEL_RI_CAPTURE_MODE_RELAXED, call aclmdlRICaptureEnd on the beginning thread."
    ),
    "ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY": (
        "The array passed in is too small for the results. Pass a larger one."
    ),
    "ACL_ERROR_RT_MODEL_UPDATE_FAILED": "Updating the model failed. Check the tasks being updated.",
    "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC": (
        "An asynchronous call would have to run synchronously, which a capturing stream does "
        "not allow. Move it out of the capture or give it memory it can use asynchronously "
        "(e.g. malloc_host)."
    ),
    # --- 207xxx: resources and hardware limits ---
    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT": "The feature is not supported. " + SUPPORT,
    "ACL_ERROR_RT_MEMORY_ALLOCATION": (
        "Out of memory: the allocation failed. Check free memory (get_mem_info), free unused "
        "buffers or ask for less."
    ),
    "ACL_ERROR_RT_MEMORY_FREE": (
        "Freeing memory failed. Free each pointer once, with the call that matches its "
        "allocator. " + PERSISTS
    ),
    "ACL_ERROR_RT_AICORE_OVER_FLOW": (
        "An AI Core operator overflowed. Find it from the dump data and fix its inputs or "
        "precision."
    ),
    "ACL_ERROR_RT_NO_DEVICE": "The device is unavailable. Check that it is present and healthy.",
    "ACL_ERROR_RT_RESOURCE_ALLOC_FAIL": (
        "A runtime resource could not be allocated. Release streams and other resources you no "
        "longer use."
    ),
    "ACL_ERROR_RT_NO_PERMISSION": (
        "No permission for this operation. Check the user the application runs as."
    ),
    "ACL_ERROR_RT_NO_EVENT_RESOURCE": (
        "No more events can be created. Destroy unused events (see aclrtCreateEvent's limits)."
    ),
    "ACL_ERROR_RT_NO_STREAM_RESOURCE": (
        "No more streams can be created. Destroy unused streams (see aclrtCreateStream's limits)."
    ),
    "ACL_ERROR_RT_NO_NOTIFY_RESOURCE": (
        "Internal notify resources ran out: too many concurrent media tasks or models. "
        "Run fewer at once or unload some models."
    ),
    "ACL_ERROR_RT_NO_MODEL_RESOURCE": "Model resources ran out. Unload some models.",
    "ACL_ERROR_RT_NO_CDQ_RESOURCE": "Runtime-internal resources ran out. " + SUPPORT,
    "ACL_ERROR_RT_OVER_LIMIT": (
        "Too many queues. Destroy the ones you no longer need before creating more."
    ),
    "ACL_ERROR_RT_QUEUE_EMPTY": "The queue is empty. Put data in before taking it out.",
    "ACL_ERROR_RT_QUEUE_FULL": "The queue is full. Take data out before adding more.",
    "ACL_ERROR_RT_REPEATED_INIT": "The queue was initialised twice. Initialise it once.",
    "ACL_ERROR_RT_AIVEC_OVER_FLOW": (
        "A vector-core operator overflowed. Find it from the dump data and fix its inputs or "
        "precision."
    ),
    "ACL_ERROR_RT_OVER_FLOW": (
        "A computation overflowed. Find the operator from the dump data and fix its inputs or "
        "precision."
    ),
    "ACL_ERROR_RT_DEVICE_OOM": (
        "The device ran out of memory. Check its memory use and keep allocations within its "
        "capacity."
    ),
    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP": (
        "The installed driver cannot update this operator. Upgrade the driver (Ascend HDK "
        "25.0.RC1 or later)."
    ),
    "ACL_ERROR_RT_TIMEOUT": (
        "The driver timed out. Retry. " + PERSISTS
    ),
    # --- 507xxx: internal runtime, device and hardware errors ---
    "ACL_ERROR_RT_INTERNAL_ERROR": "Internal error in the runtime. " + SUPPORT,
    "ACL_ERROR_RT_TS_ERROR": "Internal error in the device's task scheduler. " + SUPPORT,
    "ACL_ERROR_RT_STREAM_TASK_FULL": "The stream's task queue is full. " + SUPPORT,
    "ACL_ERROR_RT_STREAM_TASK_EMPTY": "The stream's task queue is empty. " + SUPPORT,
    "ACL_ERROR_RT_STREAM_NOT_COMPLETE": "Not all tasks on the stream have completed. " + SUPPORT,
    "ACL_ERROR_RT_END_OF_SEQUENCE": "An AI CPU task reached the end of its sequence. " + SUPPORT,
    "ACL_ERROR_RT_EVENT_NOT_COMPLETE": "The event has not completed. " + SUPPORT,
    "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR": "Releasing a context failed. " + SUPPORT,
    "ACL_ERROR_RT_SOC_VERSION": "The SoC version could not be obtained. " + SUPPORT,
    "ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT": "The task type is not supported. " + SUPPORT,
    "ACL_ERROR_RT_LOST_HEARTBEAT": "The task scheduler lost its heartbeat. " + SUPPORT,
    "ACL_ERROR_RT_MODEL_EXECUTE": "Model execution failed. " + SUPPORT,
    "ACL_ERROR_RT_REPORT_TIMEOUT": (
        "No message came back from the task scheduler in time. Lengthen the API's timeout. "
        + PERSISTS
    ),
    "ACL_ERROR_RT_SYS_DMA": "The system DMA hardware failed. " + SUPPORT,
    "ACL_ERROR_RT_AICORE_TIMEOUT": "AI Core execution timed out. " + SUPPORT,
    "ACL_ERROR_RT_AICORE_EXCEPTION": "AI Core execution raised an exception. " + SUPPORT,
    "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION": "AI Core hit a trap exception. " + SUPPORT,
    "ACL_ERROR_RT_AICPU_TIMEOUT": "AI CPU execution timed out. " + SUPPORT,
    "ACL_ERROR_RT_AICPU_EXCEPTION": "AI CPU execution raised an exception. " + SUPPORT,
    "ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR": (
        "The AI CPU did not answer the task scheduler after a data dump. " + SUPPORT
    ),
    "ACL_ERROR_RT_AICPU_MODEL_RSP_ERR": (
        "The AI CPU did not answer the task scheduler after a model operation. " + SUPPORT
    ),
    "ACL_ERROR_RT_PROFILING_ERROR": "Profiling failed. " + SUPPORT,
    "ACL_ERROR_RT_IPC_ERROR": "Inter-process communication failed. " + SUPPORT,
    "ACL_ERROR_RT_MODEL_ABORT_NORMAL": "The model was aborted. " + SUPPORT,
    "ACL_ERROR_RT_KERNEL_UNREGISTERING": "The kernel is being unregistered. " + SUPPORT,
    "ACL_ERROR_RT_RINGBUFFER_NOT_INIT": "The ring buffer is not initialised. " + SUPPORT,
    "ACL_ERROR_RT_RINGBUFFER_NO_DATA": "The ring buffer holds no data. " + SUPPORT,
    "ACL_ERROR_RT_KERNEL_LOOKUP": "A runtime-internal kernel is not registered. " + SUPPORT,
    "ACL_ERROR_RT_KERNEL_DUPLICATE": "A runtime-internal kernel was registered twice. " + SUPPORT,
    "ACL_ERROR_RT_DEBUG_REGISTER_FAIL": "Registering the debug function failed. " + SUPPORT,
    "ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL": "Unregistering the debug function failed. " + SUPPORT,
    "ACL_ERROR_RT_LABEL_CONTEXT": "The label is not in the current context. " + SUPPORT,
    "ACL_ERROR_RT_PROGRAM_USE_OUT": "Too many programs are registered. " + SUPPORT,
    "ACL_ERROR_RT_DEV_SETUP_ERROR": "The device failed to start. " + SUPPORT,
    "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT": "Vector core execution timed out. " + SUPPORT,
    "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION": "Vector core execution raised an exception. " + SUPPORT,
    "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION": "The vector core hit a trap exception. " + SUPPORT,
    "ACL_ERROR_RT_CDQ_BATCH_ABNORMAL": (
        "A runtime-internal resource allocation went wrong. " + SUPPORT
    ),
    "ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR": "The die mode cannot be changed. " + SUPPORT,
    "ACL_ERROR_RT_DIE_SET_ERROR": "A die cannot be chosen in single-die mode. " + SUPPORT,
    "ACL_ERROR_RT_INVALID_DIEID": "The die ID is invalid. " + SUPPORT,
    "ACL_ERROR_RT_DIE_MODE_NOT_SET": "The die mode has not been set. " + SUPPORT,
    "ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW": (
        "AI Core trap: a read went out of bounds. " + SUPPORT
    ),
    "ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW": (
        "AI Core trap: a write went out of bounds. " + SUPPORT
    ),
    "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW": (
        "Vector core trap: a read went out of bounds. " + SUPPORT
    ),
    "ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW": (
        "Vector core trap: a write went out of bounds. " + SUPPORT
    ),
    "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT": (
        "The stream's tasks did not all finish within the synchronisation timeout. Lengthen "
        "the timeout or find the task that hangs. " + PERSISTS
    ),
    "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT": (
        "The event did not complete within the synchronisation timeout. Lengthen the timeout "
        "or find the task that hangs. " + PERSISTS
    ),
    "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT": "An internal (FFTS+) task timed out. " + SUPPORT,
    "ACL_ERROR_RT_FFTS_PLUS_EXCEPTION": "An internal (FFTS+) task raised an exception. " + SUPPORT,
    "ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION": "An internal (FFTS+) task hit a trap. " + SUPPORT,
    "ACL_ERROR_RT_SEND_MSG": "Sending a message failed while enqueuing data. " + SUPPORT,
    "ACL_ERROR_RT_COPY_DATA": "Copying memory failed while enqueuing data. " + SUPPORT,
    "ACL_ERROR_RT_DEVICE_MEM_ERROR": (
        "Device memory has an uncorrectable error (UCE). Get the faulty addresses with "
        "aclrtGetMemUceInfo and repair them as that API describes."
    ),
    "ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR": "HBM multi-bit ECC error. " + SUPPORT,
    "ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR": (
        "Possibly an uncorrectable memory error on a peer device this device reads from. "
        "Check the peer device's process for errors."
    ),
    "ACL_ERROR_RT_LINK_ERROR": (
        "The communication link between two devices is down. Retry; if it persists, check the link."
    ),
    "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR": (
        "A peer device's memory failed or this device accessed memory out of bounds. Check the "
        "peer's errors and this device's memory accesses."
    ),
    "ACL_ERROR_RT_DRV_INTERNAL_ERROR": "Internal error in the driver. " + SUPPORT,
    "ACL_ERROR_RT_AICPU_INTERNAL_ERROR": "Internal error in the AI CPU module. " + SUPPORT,
    "ACL_ERROR_RT_SOCKET_CLOSE": (
        "The internal host-device communication (HDC) session was disconnected. " + SUPPORT
    ),
    "ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR": (
        "The AI CPU failed to handle a scheduling request. " + SUPPORT
    ),
    "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED": (
        "The capture was invalidated by an earlier error during it (status "
        "ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED). End the capture, discard its model and "
        "capture again without the failing call."
    ),
    "ACL_ERROR_RT_COMM_OP_RETRY_FAIL": (
        "Retrying a collective-communication (HCCL) operation failed. " + SUPPORT
    ),
    "ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT": "Locking the process for a snapshot timed out. " + SUPPORT,
    "ACL_ERROR_SNAPSHOT_LOCK_FAILED": "Locking the process for a snapshot failed. " + SUPPORT,
    "ACL_ERROR_SNAPSHOT_UNLOCK_FAILED": (
        "Unlocking the process after a snapshot failed. " + SUPPORT
    ),
    "ACL_ERROR_SNAPSHOT_BACKUP_FAILED": "Backing up the process for a snapshot failed. " + SUPPORT,
    "ACL_ERROR_SNAPSHOT_RESTORE_FAILED": (
        "Restoring the process from a snapshot failed. " + SUPPORT
    ),
    "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED": (
        "This host memory range is already registered. Register each range only once."
    ),
    "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED": (
        "The host memory to unregister was never registered. Unregister only registered memory."
    ),
    "ACL_ERROR_SNAPSHOT_CALLBACK_FAILED": (
        "A registered snapshot callback returned failure. Check your callback."
    ),
    "ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED": (
        "Registering a snapshot callback failed. Check the stage and callback passed to "
        "aclrtSnapShotCallbackRegister."
    ),
    "ACL_ERROR_RT_L3_PORT_ERROR": "A UB memory (L3 port) error occurred. " + SUPPORT,
    "ACL_ERROR_RT_SYMBOL_NOT_FOUND": (
        "A symbol (e.g. a kernel function name) was not found. Check the name looked up."
    ),
    # --- Graph Engine (model load / execute; hicann/ge ge_error_codes.h) ---
    "ACL_ERROR_GE_PARAM_INVALID": (
        "The model rejected an argument: an input or output buffer smaller than the model "
        "needs, work or weight memory smaller than aclmdlQuerySize reported, or a dataset that "
        "does not match the model. Size buffers from the model description."
    ),
    "ACL_ERROR_GE_EXEC_NOT_INIT": "The model executor is not initialised. Call acl.init() first.",
    "ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID": (
        "The model file path is invalid: the file does not exist, is empty or cannot be read. "
        "Check the path (relative paths start from the working directory)."
    ),
    "ACL_ERROR_GE_EXEC_MODEL_ID_INVALID": (
        "No loaded model has this ID: it was never loaded, or it was unloaded already. Use the "
        "ID a successful load returned, and unload each model once."
    ),
    "ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID": (
        "The model data is not a valid offline model (.om): wrong size or header. Convert the "
        "model with ATC (acl-lab atc) and load the .om file."
    ),
    "ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID": (
        "The model data address is invalid (NULL). Pass the address of the loaded .om bytes."
    ),
    "ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID": (
        "The buffer of the dynamic gear input (ascend_mbatch_shape_data) is not device memory "
        "the runtime can write. Give that input a buffer from acl.rt.malloc."
    ),
    "ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID": (
        "The buffer of the dynamic gear input is too small for the gear. Size it with "
        "acl.mdl.get_input_size_by_index."
    ),
    "ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID": (
        "The batch size or image size is not one of the model's gears (or none was set). Pick "
        "one that acl.mdl.get_dynamic_batch / get_dynamic_hw lists."
    ),
    "ACL_ERROR_GE_AIPP_BATCH_EMPTY": (
        "The AIPP parameters hold no batch. Create them for at least one batch."
    ),
    "ACL_ERROR_GE_AIPP_NOT_EXIST": (
        "The model has no AIPP (or not at this input). Convert it with --insert_op_conf to "
        "compile image preprocessing in."
    ),
    "ACL_ERROR_GE_AIPP_MODE_INVALID": (
        "The AIPP mode does not allow this call: static AIPP is fixed when the model is "
        "built, dynamic AIPP is set per execution."
    ),
    "ACL_ERROR_GE_MEMORY_ALLOCATION": (
        "The model's memory could not be allocated on the device. Free device memory or unload "
        "other models."
    ),
    "ACL_ERROR_GE_INTERNAL_ERROR": "Graph Engine internal error. " + PERSISTS,
    "ACL_ERROR_GE_LOAD_MODEL": (
        "Loading the model failed, e.g. it was built for another SoC. Convert it again with "
        "--soc_version set to this device (acl.get_soc_name())."
    ),
    # --- aclnn operator API (aclnnStatus) ---
    "ACLNN_ERR_PARAM_NULLPTR": (
        "An aclnn argument is a null pointer (a tensor, scalar or executor). Create every "
        "tensor with aclCreateTensor and pass the executor the first phase returned."
    ),
    "ACLNN_ERR_PARAM_INVALID": (
        "An aclnn argument is invalid: a data type the operator does not support, shapes that "
        "do not broadcast, or an output tensor of the wrong shape. Check the operator's "
        "dtype and shape rules."
    ),
    "ACLNN_ERR_RUNTIME_ERROR": (
        "The operator failed while running on the device (e.g. a bad stream or workspace). "
        "Check the stream and workspace you passed, then the runtime's error message."
    ),
}
