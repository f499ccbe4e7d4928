"""The AscendCL runtime simulator, one file per concern.

A pyACL call goes: the trace (``acl_lab/trace.py``, ``Traced``) -> the facade method in
``api.py`` (pyACL's names and return shapes; checks the arguments; the only place a
``SimError`` becomes a return code) -> the object that simulates it (below) -> the rules it
enforces (``acl_lab/spec/memory_rules.py``, ``acl_lab/align.py``; every rule with its source:
docs/rules.md). docs/call-map.md lists every call that way, with the test that exercises it.

    api.py          the pyACL-shaped facade: ``acl``, ``acl.rt``, ``acl.mdl``, ``acl.nn``, ...
                    (argument rules: acl_lab/spec/args.py; C prototypes:
                    acl_lab/spec/prototypes.py)
    process.py      one simulated process: init, devices, contexts, streams, events, memory
    events.py       the event calls: create, record, wait, synchronize, query, time
    memory.py       page pools and allocations (addresses: acl_lab/spec/address_map.py)
    storage.py      lazy byte storage (host RAM only for touched bytes; big blocks apart)
    extents.py      byte storage as extents of one buffer per allocation (Pyodide)
    hostram.py      the host-RAM budget for simulated bytes
    transfer.py     memset / memcpy / memcpy2d: validation, direction, modeled time
    streams.py      task queues, deferred execution, modeled clocks
    waits.py        events with flags, timestamps, waits with a time limit, stream queries
    callbacks.py    host callbacks on streams (subscribe, launch, process report)
    applog.py       aclAppLog: the program's own log lines (the plog, or stdout)
    capture.py      stream capture into a model RI (ACL Graph), replay, debug JSON
    models.py       offline models (aclmdl*): load, describe, datasets, execute
                    (the .om format and its executor: acl_lab/om/)
    model_gears.py  their gears: dynamic batch / image size / dims picked per dataset
    model_ranges.py shape-range models, a dataset's tensor descriptions
    model_configs.py config handles (aclmdlLoadWithConfig), exec configs (aclmdlExecuteV2)
    model_bundles.py bundle models: several models loaded and unloaded together
    model_aipp.py   dynamic AIPP: aclmdlAIPP objects, set into a model's input; AIPP types
    aclnn.py        aclnn operators: tensors, scalars, workspace + executor, launch
    peer.py         peer access between devices
    kernels.py      kernel binaries (aclrtBinaryLoad*) and the functions in them
    kernel_args.py  kernel argument lists; kernel launches (checked, then refused: no AI Core)
    device_tasks.py cache maintenance, reduce, value write / wait, copies by descriptor
    allocators.py   external allocator descriptors registered on streams
    ipc.py          IPC memory by key, both sides in one process
    vmm.py          virtual memory: reserved ranges, physical handles, mappings, sharing
    vmm_access.py   access rights on a mapping: aclrtMemSetAccess / aclrtMemGetAccess
    host_memory.py  pointer attributes; host memory registered for the device
    mem_pools.py    stream-ordered memory pools: blocks taken and given back in stream order
    batch_copy.py   aclrtMemcpyBatch: many copies, one direction, failIndex
    host_funcs.py   aclrtLaunchHostFunc: a host function as a task of a stream
    blas.py         acl.blas: GEMM / GEMV as the single operator GEMM
    device_facts.py what each simulated chip says about itself (cores, limits, features)
    device_queries.py  device attributes, capability, utilization, uuid, topology, id maps
    runtime_settings.py  sat mode, system options, resource limits, stream attributes,
                    operator timeouts
    stream_queries.py  stream / event ids and counts, event queries, overflow status, abort
    notifies.py     notifies: record / wait between streams, sharing by key
    task_reports.py who issued which task; the exception callback of a failed task
    cann_info.py    the CANN installation: package versions, attributes
    profiling.py    acl.prof collections: configs, init / start / stop, the profile written
    profiling_tx.py msproftx stamps, marks, ranges, push / pop; step info
    profiling_ops.py model subscriptions: op records into the program's pipe, their getters
    profiles.py     device profiles: memory kinds and sizes, rates, run mode
    simerror.py     SimError: a refusal, raised before any state changes; TaskFailed: a
                    queued task the device refused when it ran
    media/          acl.media: DVPP memory, JPEGD / JPEGE / PNGD / VPC (batch, make-border,
                    colour, pyramid), VDEC / VENC
    single_op/      acl.op: single operators compiled by acl-lab atc --singleop, custom
                    operators from kernels, shape inference, operator dumps

Examples (written by tools/call_map.py; every call: docs/call-map.md):

    acl.init → aclInit → SimAcl.init
        → Process.init (rules 9)
    acl.rt.set_device → aclrtSetDevice → Rt.set_device
        → Process.set_device (rules 14)
    acl.rt.malloc → aclrtMalloc → Rt.malloc
        → Process.malloc (rules 2 3 4 10 25)
    acl.rt.free → aclrtFree → Rt.free
        → Process.free (rules 2 23)
    acl.rt.memcpy_async → aclrtMemcpyAsync → Rt.memcpy_async
        → transfer.memcpy (rules 6 11 15 21 22 28)
    acl.rt.synchronize_stream → aclrtSynchronizeStream → Rt.synchronize_stream
        → Process.synchronize_stream (rules 15 18 27)
    acl.mdl.ri_capture_begin → aclmdlRICaptureBegin → Mdl.ri_capture_begin
        → CaptureManager.begin (rules 17 22 24 25)
    acl.util.ptr_to_numpy → (pyACL only) → Util.ptr_to_numpy
        → HostRam.need
"""
