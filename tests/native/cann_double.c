/* A test double of the CANN C libraries acl_lab's native bindings call (tests only).
 *
 * Same exported prototypes as the CANN headers, typedefs written from them:
 *   hicann/runtime include/external/acl/acl_base_rt.h  aclError, aclrtStream, aclrtEvent,
 *                                                       aclrtTaskGrp, aclDataType, aclFormat
 *   hicann/runtime include/external/acl/acl_rt.h       aclmdlRI, aclmdlRICaptureMode,
 *                                                       aclmdlRICaptureStatus, aclmdlRI* calls,
 *                                                       aclrtCreateEventExWithFlag
 *   hicann/runtime include/external/acl/acl_rt_memory_soma.h   aclrtMemPool, aclrtMemPoolAttr,
 *                                                       aclrtMemPoolProps, aclrtMemPool* calls
 *   hicann/runtime include/external/acl/acl_rt.h       aclrtMemLocation, aclrtMemcpyBatchAttr,
 *                                                       aclrtMemcpyBatch, aclrtDrvMemHandle,
 *                                                       aclrtMemAccessFlags, aclrtMemAccessDesc,
 *                                                       aclrtMemMapNoAccess, aclrtMem*Access
 *   hicann/opbase include/nnopbase/aclnn/acl_meta.h    aclnnStatus, aclTensor, aclScalar,
 *                                                       aclOpExecutor, aclCreateTensor, ...
 *   aclnn_add.h, aclnn_mul.h, aclnn_copy.h (hicann/ops-math)   the two-phase operators
 *
 * Every call appends one line to the file named by $CANN_DOUBLE_LOG:
 *   NAME param=VALUE/SIZE ...
 * VALUE as C received it (integers in decimal, arrays as [a,b], strings as is, out-
 * parameters as & when the pointer is not NULL) and SIZE = sizeof the declared parameter
 * type (for an out-parameter or an array: of what it points to), so the tests compare both
 * the values and the widths against what the bindings pass. It answers like the runtime
 * on the lawful path: handles above 4 GiB (a pointer cut to 32 bits shows), capture status
 * per stream, the thread's capture mode swapped.
 *
 * Built three times (PART_RT, PART_NNOPBASE, PART_OPAPI) into the libraries whose names
 * CANN uses; the test loads them through $ASCEND_HOME_PATH/lib64.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int aclError;
typedef int32_t aclnnStatus;
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtTaskGrp;
typedef void *aclmdlRI;
typedef enum { ACL_DT_UNDEFINED = -1, ACL_FLOAT = 0, ACL_FLOAT16 = 1, ACL_INT32 = 3,
               ACL_INT64 = 9, ACL_DOUBLE = 11 } aclDataType;
typedef enum { ACL_FORMAT_UNDEFINED = -1, ACL_FORMAT_ND = 2 } aclFormat;
typedef enum { ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
               ACL_MODEL_RI_CAPTURE_MODE_RELAXED } aclmdlRICaptureMode;
typedef enum { ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
               ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED } aclmdlRICaptureStatus;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclOpExecutor aclOpExecutor;

#define EXPORT __attribute__((visibility("default")))

static FILE *log_file(void) {       /* reopened when $CANN_DOUBLE_LOG names another file */
    static FILE *f;
    static char current[4096];
    const char *path = getenv("CANN_DOUBLE_LOG");
    if (path == NULL) path = "/dev/null";
    if (f == NULL || strcmp(path, current) != 0) {
        if (f != NULL) fclose(f);
        snprintf(current, sizeof current, "%s", path);
        f = fopen(current, "a");
        setvbuf(f, NULL, _IOLBF, 0);
    }
    return f;
}

#define BEGIN(name) fprintf(log_file(), "%s", name)
#define INT(name, v) fprintf(log_file(), " %s=%lld/%zu", name, (long long)(v), sizeof(v))
#define UINT(name, v) fprintf(log_file(), " %s=%llu/%zu", name, (unsigned long long)(v), sizeof(v))
#define PTR(name, v) fprintf(log_file(), " %s=%llu/%zu", name, \
                             (unsigned long long)(uintptr_t)(v), sizeof(v))
#define OUT(name, p) fprintf(log_file(), " %s=%s/%zu", name, (p) ? "&" : "NULL", sizeof(*(p)))
#define END() fprintf(log_file(), "\n")

static uint64_t next_handle(uint64_t base) {
    static uint64_t count;
    return base + (++count) * 0x40;
}

#ifdef PART_RT
/* ----- acl_rt.h: capture (aclmdlRI*) ------------------------------------------------- */
#define STREAMS 64
static aclrtStream capturing[STREAMS];
static aclmdlRI capture_model[STREAMS];
static __thread aclmdlRICaptureMode thread_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

static int slot(aclrtStream stream) {
    for (int i = 0; i < STREAMS; i++)
        if (capturing[i] == stream) return i;
    return -1;
}

EXPORT aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    BEGIN("aclmdlRICaptureBegin"); PTR("stream", stream); INT("mode", mode); END();
    int free_slot = slot(NULL);
    if (slot(stream) >= 0 || free_slot < 0) return 107027;  /* ACL_ERROR_RT_STREAM_CAPTURED */
    capturing[free_slot] = stream;
    capture_model[free_slot] = (aclmdlRI)(uintptr_t)next_handle(0x5A5A00001000ULL);
    return 0;
}

EXPORT aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                      aclmdlRI *modelRI) {
    BEGIN("aclmdlRICaptureGetInfo"); PTR("stream", stream); OUT("status", status);
    OUT("modelRI", modelRI); END();
    int i = slot(stream);
    *status = i >= 0 ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE : ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    *modelRI = i >= 0 ? capture_model[i] : NULL;
    return 0;
}

EXPORT aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI) {
    BEGIN("aclmdlRICaptureEnd"); PTR("stream", stream); OUT("modelRI", modelRI); END();
    int i = slot(stream);
    if (i < 0) return 107029;                          /* ACL_ERROR_RT_STREAM_NOT_CAPTURED */
    *modelRI = capture_model[i];
    capturing[i] = NULL;
    return 0;
}

EXPORT aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode) {
    BEGIN("aclmdlRICaptureThreadExchangeMode"); OUT("mode", mode);
    INT("mode_in", *mode); END();
    aclmdlRICaptureMode previous = thread_mode;
    thread_mode = *mode;
    *mode = previous;
    return 0;
}

EXPORT aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags) {
    BEGIN("aclmdlRIDebugJsonPrint"); PTR("modelRI", modelRI);
    fprintf(log_file(), " path=%s/s", path); UINT("flags", flags); END();
    FILE *f = fopen(path, "w");         /* two entries of the trace-event shape chapter 06 reads */
    if (f == NULL) return 507000;
    fprintf(f, "[{\"name\": \"double\", \"tid\": 1, \"ts\": 0, \"dur\": 0, \"args\": "
               "{\"Task Id\": 0, \"Bytes\": 0}}, {\"name\": \"double\", \"tid\": 1, \"ts\": 0, "
               "\"dur\": 0, \"args\": {\"Task Id\": 1, \"Bytes\": 0}}]");
    fclose(f);
    return 0;
}

EXPORT aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    BEGIN("aclmdlRIExecuteAsync"); PTR("modelRI", modelRI); PTR("stream", stream); END();
    return 0;
}

EXPORT aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
    BEGIN("aclmdlRIExecute"); PTR("modelRI", modelRI); INT("timeout", timeout); END();
    return 0;
}

EXPORT aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    BEGIN("aclmdlRIDestroy"); PTR("modelRI", modelRI); END();
    return 0;
}

EXPORT aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
    BEGIN("aclmdlRICaptureTaskGrpBegin"); PTR("stream", stream); END();
    return 0;
}

EXPORT aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) {
    BEGIN("aclmdlRICaptureTaskGrpEnd"); PTR("stream", stream); OUT("handle", handle); END();
    *handle = (aclrtTaskGrp)(uintptr_t)next_handle(0x6A6A00001000ULL);
    return 0;
}

EXPORT aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    BEGIN("aclmdlRICaptureTaskUpdateBegin"); PTR("stream", stream); PTR("handle", handle); END();
    return 0;
}

EXPORT aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    BEGIN("aclmdlRICaptureTaskUpdateEnd"); PTR("stream", stream); END();
    return 0;
}

/* ----- acl_rt_memory_soma.h: stream-ordered memory pools ------------------------------ */
typedef void *aclrtMemPool;
typedef enum { ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
               ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
               ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
               ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4 } aclrtMemPoolAttr;
typedef enum { ACL_MEM_LOCATION_TYPE_HOST = 0, ACL_MEM_LOCATION_TYPE_DEVICE } aclrtMemLocationType;
typedef struct { uint32_t id; aclrtMemLocationType type; } aclrtMemLocation;
typedef struct {
    int allocType;                 /* aclrtMemAllocationType */
    int handleType;                /* aclrtMemHandleType */
    aclrtMemLocation location;
    size_t maxSize;
    unsigned char reserved[32];
} aclrtMemPoolProps;
static uint64_t pool_threshold;

EXPORT aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps) {
    BEGIN("aclrtMemPoolCreate"); OUT("memPool", memPool);
    INT("allocType", poolProps->allocType); INT("handleType", poolProps->handleType);
    UINT("locationId", poolProps->location.id); INT("locationType", poolProps->location.type);
    UINT("maxSize", poolProps->maxSize); END();
    *memPool = (aclrtMemPool)(uintptr_t)next_handle(0x7A7A00001000ULL);
    return 0;
}

EXPORT aclError aclrtMemPoolDestroy(const aclrtMemPool memPool) {
    BEGIN("aclrtMemPoolDestroy"); PTR("memPool", memPool); END();
    return 0;
}

EXPORT aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value) {
    BEGIN("aclrtMemPoolSetAttr"); PTR("memPool", memPool); INT("attr", attr);
    if (attr <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
        UINT("value", *(uint32_t *)value);           /* the reuse switches: uint32_t */
    } else {
        UINT("value", *(uint64_t *)value);           /* the sizes: uint64_t */
        pool_threshold = *(uint64_t *)value;
    }
    END();
    return 0;
}

EXPORT aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value) {
    BEGIN("aclrtMemPoolGetAttr"); PTR("memPool", memPool); INT("attr", attr); END();
    if (attr <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES)
        *(uint32_t *)value = 1;
    else
        *(uint64_t *)value = attr == ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD ? pool_threshold
                                                                           : (1ULL << 40);
    return 0;
}

EXPORT aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool,
                                        aclrtStream stream) {
    BEGIN("aclrtMemPoolMallocAsync"); OUT("ptr", ptr); UINT("size", size);
    PTR("memPool", memPool); PTR("stream", stream); END();
    *ptr = (void *)(uintptr_t)next_handle(0x12C000001000ULL);
    return 0;
}

EXPORT aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream) {
    BEGIN("aclrtMemPoolFreeAsync"); PTR("ptr", ptr); PTR("stream", stream); END();
    return 0;
}

EXPORT aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep) {
    BEGIN("aclrtMemPoolTrimTo"); PTR("memPool", memPool); UINT("minBytesToKeep", minBytesToKeep);
    END();
    return 0;
}

/* ----- acl_rt.h: many copies in one call ---------------------------------------------- */
typedef struct {
    aclrtMemLocation dstLoc;
    aclrtMemLocation srcLoc;
    uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

static void sizes_list(const char *name, const size_t *values, size_t count) {
    fprintf(log_file(), " %s=[", name);
    for (size_t i = 0; i < count; i++)
        fprintf(log_file(), "%s%llu", i ? "," : "", (unsigned long long)values[i]);
    fprintf(log_file(), "]/%zu", sizeof(*values));
}

static void pointers_list(const char *name, void *const *values, size_t count) {
    fprintf(log_file(), " %s=[", name);
    for (size_t i = 0; i < count; i++)
        fprintf(log_file(), "%s%llu", i ? "," : "", (unsigned long long)(uintptr_t)values[i]);
    fprintf(log_file(), "]/%zu", sizeof(*values));
}

EXPORT aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                 size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                 size_t *attrsIndexes, size_t numAttrs, size_t *failIndex) {
    BEGIN("aclrtMemcpyBatch"); pointers_list("dsts", dsts, numBatches);
    sizes_list("destMaxs", destMaxs, numBatches); pointers_list("srcs", srcs, numBatches);
    sizes_list("sizes", sizes, numBatches); UINT("numBatches", numBatches);
    fprintf(log_file(), " attrs=");                       /* src id:type>dst id:type, ... */
    for (size_t i = 0; i < numAttrs; i++)
        fprintf(log_file(), "%s%u:%d>%u:%d", i ? "," : "", attrs[i].srcLoc.id,
                (int)attrs[i].srcLoc.type, attrs[i].dstLoc.id, (int)attrs[i].dstLoc.type);
    fprintf(log_file(), "/%zu", sizeof(*attrs));
    sizes_list("attrsIndexes", attrsIndexes, numAttrs); UINT("numAttrs", numAttrs);
    OUT("failIndex", failIndex); END();
    *failIndex = numBatches > 1 ? 1 : (size_t)-1;      /* blame the second copy, if any */
    return numBatches > 1 ? 107000 : 0;
}

/* ----- acl_rt.h: a host function as a task of a stream --------------------------------- */
typedef void (*aclrtHostFunc)(void *args);

EXPORT aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) {
    BEGIN("aclrtLaunchHostFunc"); PTR("stream", stream); PTR("fn", fn); PTR("args", args);
    END();
    fn(args);                       /* the stream reaches it at once: the double runs it now */
    return 0;
}

/* ----- acl_rt.h: access rights on mapped virtual memory -------------------------------- */
typedef void *aclrtDrvMemHandle;
typedef enum { ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0, ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
               ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3 } aclrtMemAccessFlags;
typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location;
    uint8_t rsv[12];
} aclrtMemAccessDesc;

EXPORT aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset,
                                    aclrtDrvMemHandle handle, uint64_t flags) {
    BEGIN("aclrtMemMapNoAccess"); PTR("virPtr", virPtr); UINT("size", size);
    UINT("offset", offset); PTR("handle", handle); UINT("flags", flags); END();
    return 0;
}

EXPORT aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc,
                                  size_t count) {
    BEGIN("aclrtMemSetAccess"); PTR("virPtr", virPtr); UINT("size", size);
    fprintf(log_file(), " desc=");                        /* flags@id:type, ... */
    for (size_t i = 0; i < count; i++)
        fprintf(log_file(), "%s%d@%u:%d", i ? "," : "", (int)desc[i].flags,
                desc[i].location.id, (int)desc[i].location.type);
    fprintf(log_file(), "/%zu", sizeof(*desc));
    UINT("count", count); END();
    return 0;
}

EXPORT aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag) {
    BEGIN("aclrtMemGetAccess"); PTR("virPtr", virPtr);
    fprintf(log_file(), " location=%u:%d/%zu", location->id, (int)location->type,
            sizeof(*location));
    OUT("flag", flag); END();
    *flag = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    return 0;
}

/* ----- acl_rt.h: a runtime call an older pyACL lacks ---------------------------------- */
EXPORT aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
    BEGIN("aclrtCreateEventExWithFlag"); OUT("event", event); UINT("flag", flag); END();
    *event = (aclrtEvent)(uintptr_t)next_handle(0x4E4E00001000ULL);
    return 0;
}
#endif

#ifdef PART_NNOPBASE
/* ----- acl_meta.h: tensors and scalars ------------------------------------------------- */
static void dims(const char *name, const int64_t *values, uint64_t count) {
    fprintf(log_file(), " %s=[", name);
    for (uint64_t i = 0; i < count; i++)
        fprintf(log_file(), "%s%lld", i ? "," : "", (long long)values[i]);
    fprintf(log_file(), "]/%zu", sizeof(*values));
}

EXPORT aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
                                  aclDataType dataType, const int64_t *stride, int64_t offset,
                                  aclFormat format, const int64_t *storageDims,
                                  uint64_t storageDimsNum, void *tensorData) {
    BEGIN("aclCreateTensor"); dims("viewDims", viewDims, viewDimsNum);
    UINT("viewDimsNum", viewDimsNum); INT("dataType", dataType);
    dims("stride", stride, viewDimsNum); INT("offset", offset); INT("format", format);
    dims("storageDims", storageDims, storageDimsNum); UINT("storageDimsNum", storageDimsNum);
    PTR("tensorData", tensorData); END();
    return (aclTensor *)(uintptr_t)next_handle(0x7E7E00001000ULL);
}

EXPORT aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    BEGIN("aclCreateScalar"); PTR("value", value);      /* and the element it points at */
    if (dataType == ACL_FLOAT)
        fprintf(log_file(), " element=%.9g/%zu", *(float *)value, sizeof(float));
    else if (dataType == ACL_DOUBLE)
        fprintf(log_file(), " element=%.17g/%zu", *(double *)value, sizeof(double));
    else if (dataType == ACL_INT32)
        fprintf(log_file(), " element=%d/%zu", *(int32_t *)value, sizeof(int32_t));
    else if (dataType == ACL_INT64)
        fprintf(log_file(), " element=%lld/%zu", (long long)*(int64_t *)value, sizeof(int64_t));
    INT("dataType", dataType); END();
    return (aclScalar *)(uintptr_t)next_handle(0x5C5C00001000ULL);
}

EXPORT aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    BEGIN("aclDestroyTensor"); PTR("tensor", tensor); END();
    return 0;
}

EXPORT aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
    BEGIN("aclDestroyScalar"); PTR("scalar", scalar); END();
    return 0;
}
#endif

#ifdef PART_OPAPI
/* ----- aclnn_add.h, aclnn_mul.h, aclnn_copy.h: two-phase operators -------------------- */
static uint64_t workspace_size(void) {
    const char *size = getenv("CANN_DOUBLE_WORKSPACE");
    return size ? strtoull(size, NULL, 0) : 0;
}

#define PHASE_ONE_END(ws, ex) \
    OUT("workspaceSize", ws); OUT("executor", ex); END(); \
    *(ws) = workspace_size(); \
    *(ex) = (aclOpExecutor *)(uintptr_t)next_handle(0x6E6E00001000ULL); \
    return 0;

#define PHASE_TWO(name) \
    EXPORT aclnnStatus name(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, \
                            aclrtStream stream) { \
        BEGIN(#name); PTR("workspace", workspace); UINT("workspaceSize", workspaceSize); \
        PTR("executor", executor); PTR("stream", stream); END(); \
        return 0; \
    }

EXPORT aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                            const aclScalar *alpha, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor) {
    BEGIN("aclnnAddGetWorkspaceSize"); PTR("self", self); PTR("other", other);
    PTR("alpha", alpha); PTR("out", out);
    PHASE_ONE_END(workspaceSize, executor)
}

EXPORT aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                            aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
    BEGIN("aclnnMulGetWorkspaceSize"); PTR("self", self); PTR("other", other); PTR("out", out);
    PHASE_ONE_END(workspaceSize, executor)
}

EXPORT aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef, const aclTensor *src,
                                                    uint64_t *workspaceSize,
                                                    aclOpExecutor **executor) {
    BEGIN("aclnnInplaceCopyGetWorkspaceSize"); PTR("selfRef", selfRef); PTR("src", src);
    PHASE_ONE_END(workspaceSize, executor)
}

PHASE_TWO(aclnnAdd)
PHASE_TWO(aclnnMul)
PHASE_TWO(aclnnInplaceCopy)
#endif
