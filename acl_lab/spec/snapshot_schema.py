"""The shape of ``acl_lab.snapshot()``: one schema for every backend.

Views, exercise checks and notebooks read the snapshot, so its keys never depend on the
backend: each part of a backend builds its rows with these types (the simulator's runtime,
streams, memory, capture and offline models; on hardware the guard's registry), and the
contract suite checks every backend against them with ``mismatches``. What a backend cannot
observe is None (on hardware: a pool's base, a stream's counters, the bytes touched) and a
list it cannot fill is empty (contexts, captured models and the timeline on hardware).
"""
from __future__ import annotations

import functools
import types
import typing
from typing import TypedDict


class DeviceRow(TypedDict):
    refs: int                 # aclrtSetDevice calls not yet reset
    open: bool                # the device's default context exists


class ContextRow(TypedDict):
    handle: int
    device: int
    default: bool             # made by aclrtSetDevice, not aclrtCreateContext
    streams: list[int]        # handles of its streams (not the default stream)
    events: list[int]


class StreamSettingsRow(TypedDict):
    """What aclrtSetStreamAttribute and its siblings set on a stream."""
    id: int                   # aclrtStreamGetId
    failure_mode: int         # ACL_CONTINUE_ON_FAILURE (0) / ACL_STOP_ON_FAILURE (1)
    overflow_switch: int
    user_custom_tag: int
    res_limits: dict[int, int]   # aclrtDevResLimitType -> cores, set on this stream


class StreamRow(TypedDict):
    handle: int
    device: int | None
    context: int | None
    issued: int | None        # tasks issued so far
    executed: int | None      # tasks whose effect has run
    pending: int | None       # tasks queued, not yet run
    t_end_us: float | None    # modeled time when its last task finishes
    settings: StreamSettingsRow | None


class EventRow(TypedDict):
    handle: int
    device: int | None
    stream: int | None        # where it was last recorded (0: a default stream)
    recorded_at_us: float | None


class AllocationRow(TypedDict):
    ptr: int
    size: int                 # bytes asked for
    footprint: int            # bytes the allocator asks for (size with ACL's padding)
    occupied: int | None      # bytes of the pool it holds: whole 2 MiB / 1 GiB pages on huge
    #                           pages (memory_rules.occupied); None where the backend cannot
    #                           see the pages (ascend: the device's get_mem_info can)
    api: str                  # "malloc", "malloc_host", "dvpp_malloc", ... "numpy", "bytes"
    location: str             # "device" or "host"
    device: int | None        # None: host memory
    pool: str                 # pool label, or "pageable" for Python's own memory
    pinned: bool


class PoolRow(TypedDict):
    label: str                # "HBM huge (device 0)", "host normal (host)", ...
    device: int | None
    kind: str                 # "HBM", "DDR" or "host"
    page: str                 # "huge", "normal" or "huge1g"
    p2p: bool
    base: int | None
    total: int
    used: int
    largest_free: int | None


class TaskDetail(TypedDict, total=False):
    """What a recorded task says about itself, by kind (every key is optional)."""
    ptr: int                  # memset
    value: int
    size: int                 # memset, memcpy
    dst: int                  # memcpy, memcpy2d
    src: int
    direction: str            # "ACL_MEMCPY_HOST_TO_DEVICE", ...
    pinned: bool
    width: int                # memcpy2d
    height: int
    event: int                # record, wait, reset
    op: str                   # aclnn operator
    inputs: list[int]
    out: int
    shape: list[int]
    workspace: int
    model: int                # a model RI's replay, or the task-group update of one
    tasks: int
    execution: int
    task: int
    updated: bool             # replaced by a task-group update
    offline_model: int        # an offline model's execution
    block: bool               # a host callback


class TaskRow(TaskDetail):
    """A task recorded into a model RI by stream capture."""
    seq: int                  # its position on its stream, from 1
    stream: int
    kind: str                 # "memset", "memcpy", "op", "record", "wait", ...
    nbytes: int
    duration_us: float


class ModelRow(TypedDict):
    """A model RI made by stream capture (ready once the capture ended)."""
    handle: int
    device: int
    stream: int               # the stream the capture began on
    streams: list[int]        # every stream the capture took tasks from
    ready: bool
    executions: int
    in_flight: int            # replays queued, not yet run
    tasks: list[TaskRow]


class OfflineModelRow(TypedDict):
    """An offline (.om) model loaded with aclmdlLoadFrom*."""
    model_id: int
    device: int | None
    soc_version: str | None
    memory: str               # who allocated work and weight memory: "acl", "app", "mixed"
    work_ptr: int | None      # None: where ACL put it is not known
    work_size: int | None
    weight_ptr: int | None
    weight_size: int | None
    inputs: list[str] | None  # tensor names
    outputs: list[str] | None
    executions: int | None


class RuntimeRow(TypedDict):
    """What a program set on the runtime for the whole process."""
    sat_mode: int             # aclrtFloatOverflowMode (aclrtSetDeviceSatMode)
    sys_params: dict[int, int]   # aclSysParamOpt -> value (aclrtSetSysParamOpt)
    op_wait_timeout_s: int    # aclrtSetOpWaitTimeout; 0: never
    op_execute_timeout_ms: int   # what aclrtGetOpExecuteTimeout reports
    device_res_limits: dict[int, dict[int, int]]   # device -> type -> cores it was limited to


class NotifyRow(TypedDict):
    handle: int
    id: int                   # aclrtGetNotifyId
    device: int
    set_pending: bool         # a record waits to be taken by a wait
    exported: bool            # aclrtNotifyGetExportKey gave it a key
    imported: bool            # this handle came from aclrtNotifyImportByKey


class TimelineRow(TypedDict):
    """A task that ran, on the modeled clock."""
    stream: int
    kind: str
    start_us: float
    end_us: float
    nbytes: int
    model: int | None         # the model RI a replay ran
    event: int | None


class KernelBinaryRow(TypedDict):
    """A kernel binary loaded with aclrtBinaryLoad*."""
    handle: int
    source: str               # the file, or "data at 0x..."
    cpu: bool                 # an AI CPU binary (its functions come by aclrtRegisterCpuFunc)
    kernels: list[str]        # the kernel functions the binary holds
    functions: list[int]      # handles handed out by aclrtBinaryGetFunction / RegisterCpuFunc


class KernelArgsRow(TypedDict):
    """An argument list of aclrtKernelArgsInit / InitByUserMem."""
    handle: int
    function: int
    params: int               # parameters appended (placeholders included)
    bytes: int                # bytes of the list used so far
    finalized: bool


class StreamAllocatorRow(TypedDict):
    """An external allocator registered on a stream (aclrtAllocatorRegister)."""
    stream: int
    desc: int
    obj: int | None
    funcs: list[str]          # "alloc", "free", "alloc_advise", "get_addr_from_block"


class IpcKeyRow(TypedDict):
    """Device memory shared by aclrtIpcMemGetExportKey."""
    key: str
    ptr: int
    size: int
    pids: list[int]           # processes allowed to import it
    check_pid: bool           # False: exported without pid validation
    mappings: list[int]       # addresses aclrtIpcMemImportByKey gave, not closed yet


class VmMappingRow(TypedDict):
    """One aclrtMapMem: a granule-aligned part of a reserved range backed by a handle."""
    va: int
    size: int
    handle: int               # the aclrtDrvMemHandle mapped (freed already: deferred free)
    device: int


class VmReservationRow(TypedDict):
    """One aclrtReserveMemAddress range: addresses only, memory where mapped."""
    va: int
    size: int
    mappings: list[VmMappingRow]


class VmPhysicalRow(TypedDict):
    """Memory from aclrtMallocPhysical (or imported): pages of a pool, no address."""
    handles: list[int]        # live handles to it (empty: freed while mapped, deferred)
    size: int
    occupied: int             # bytes of the pool it holds (whole granules)
    device: int
    mem_attr: str             # ACL_HBM_MEM_HUGE, ...
    pool: str
    granularity: int
    shareable: int | None     # aclrtMemExportToShareableHandle's value, once exported
    deferred_free: bool       # aclrtFreePhysical came while mapped: goes at the last unmap
    mapped_at: list[int]      # virtual addresses it is mapped at


class VirtualMemoryRow(TypedDict):
    reservations: list[VmReservationRow]
    physical: list[VmPhysicalRow]


class Snapshot(TypedDict):
    backend: str              # "sim" or "ascend"
    profile: str | None       # the simulator's device profile; None on hardware
    soc_name: str | None
    run_mode: str | None      # "ACL_HOST" or "ACL_DEVICE"
    initialized: bool
    now_us: float             # the host's (modeled) clock
    devices: dict[int, DeviceRow]
    contexts: list[ContextRow]
    streams: list[StreamRow]
    events: list[EventRow]
    allocations: list[AllocationRow]
    pools: list[PoolRow]
    touched_bytes: int | None  # simulated bytes that hold data (RAM the simulator spends)
    models: list[ModelRow]
    offline_models: list[OfflineModelRow]
    timeline: list[TimelineRow]
    reports: list[str]        # what was released for the program (leaks), in words
    kernel_binaries: list[KernelBinaryRow]
    kernel_args: list[KernelArgsRow]
    stream_allocators: list[StreamAllocatorRow]
    ipc_keys: list[IpcKeyRow]
    runtime: RuntimeRow | None
    notifies: list[NotifyRow]
    virtual_memory: VirtualMemoryRow   # chapter 10 (empty lists on hardware)


def mismatches(value, expected: type = Snapshot, where: str = "snapshot") -> list[str]:
    """Every place where ``value`` does not have the type ``expected`` (a TypedDict of this
    module, or a type built from them), named by its path: missing or unexpected keys,
    values of another type. An int passes where a float is expected; a bool is not an int."""
    problems: list[tuple[tuple, str]] = []
    _check(value, expected, (), problems)
    return [where + "".join(f"[{k!r}]" for k in path) + ": " + what for path, what in problems]


def _check(value, expected, path: tuple, problems: list) -> None:
    kind, *shape = _shape(expected)
    if kind == "leaf":
        if type(value) not in shape[0]:
            problems.append((path, f"{value!r:.80} has type {type(value).__name__}, "
                                   f"not {' or '.join(t.__name__ for t in shape[0])}"))
    elif kind == "union":
        for option in shape[0]:
            tried: list = []
            _check(value, option, path, tried)
            if not tried:
                return
        problems.append((path, f"{value!r:.80} is not {expected}"))
    elif type(value) is not (list if kind == "list" else dict):
        problems.append((path, f"{type(value).__name__}, not {expected}"))
    elif kind == "list":
        for i, v in enumerate(value):
            _check(v, shape[0], path + (i,), problems)
    elif kind == "dict":
        for k, v in value.items():
            _check(k, shape[0], path, problems)
            _check(v, shape[1], path + (k,), problems)
    else:
        fields, required = shape
        problems += [(path, f"no {k!r}") for k in required if k not in value]
        problems += [(path, f"unexpected key {k!r}") for k in value if k not in fields]
        for k, v in value.items():
            if k in fields:
                _check(v, fields[k], path + (k,), problems)


@functools.lru_cache(maxsize=None)
def _shape(expected) -> tuple:
    """How to check a value against ``expected``, worked out once per type: a TypedDict's
    keys with their types (its __annotations__ and its bases', resolved) and its required
    keys; a union's options; a list's or a dict's item types; the classes a leaf may be."""
    if typing.is_typeddict(expected):
        fields = typing.get_type_hints(expected)
        return "typeddict", fields, [k for k in fields if k in expected.__required_keys__]
    origin, args = typing.get_origin(expected), typing.get_args(expected)
    if origin in (typing.Union, types.UnionType):
        return "union", args
    if origin in (list, dict):
        return (origin.__name__, *args)
    if expected in (None, type(None)):
        return "leaf", (type(None),)
    return "leaf", (int, float) if expected is float else (expected,)
