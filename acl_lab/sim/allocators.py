"""External allocator descriptors (aclrtAllocator*) of one simulated process.

The runtime keeps a descriptor's object and four function pointers, and on
aclrtAllocatorRegister a copy of them per stream (hicann/runtime src/acl/aclrt_impl/
allocator.cpp): registering needs the object, the alloc, free and get-addr-from-block
functions (alloc-advise is optional); the stream must not be NULL but is not otherwise
checked; registering again replaces; unregistering a stream without one succeeds.

pyACL (python/pyACL/rt/rt_allocator.cpp) keeps ONE Python function per kind for the whole
process (g_allocFunc, g_freeFunc ...): setting a function on any descriptor replaces it for
every descriptor. Its C bridge calls the Python function and hands the runtime NULL whatever
the function returns (AllocatorAllocFunc returns nullptr).

Where the runtime calls them: GE takes a single operator's memory from the allocator
registered on the stream it runs on (hicann/ge api/acl/acl_op_executor/single_op/
op_executor.cpp, LoadSingleOp / UpdateExecuteArgs -> AclResourceManager::GetAllocators). The
simulator does the same: an operator issued on such a stream calls the Python alloc function
for its argument memory, and then, as through real pyACL, the runtime gets NULL and the
operator fails with ACL_ERROR_GE_MEMORY_ALLOCATION.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.support import interrupts

DESC_BASE = 0xC000_0000
ALLOC, FREE, ADVISE, GET_ADDR = "alloc", "free", "alloc_advise", "get_addr_from_block"
REQUIRED = (ALLOC, FREE, GET_ADDR)      # aclrtAllocatorRegisterImpl checks these and obj
POINTER_BYTES = 8


@interrupts.uncritical       # the learner's function: Ctrl-C stops it at once
def learner_call(fn, *args):
    """Call the learner's Python function from inside a kit call (its caller changed
    nothing yet)."""
    return fn(*args)


@dataclass(eq=False)
class Desc:
    handle: int
    obj: int | None = None          # None: aclrtAllocatorSetObjToDesc never called
    funcs: set = field(default_factory=set)


class Allocators:
    def __init__(self, rt):
        self.rt = rt
        self.descs: dict[int, Desc] = {}
        self.python: dict[str, object] = {}           # pyACL's one function per kind
        self.streams: dict[int, tuple[int, Desc]] = {}  # stream -> (desc handle, copy)
        self._count = 0

    def create(self) -> int:
        self._count += 1
        d = Desc(DESC_BASE + self._count * 0x40)
        self.descs[d.handle] = d
        return d.handle

    def desc(self, handle: int, call: str) -> Desc:
        return handles.live(self.descs, handle, call, _(
            "{call}: {handle} is not a live allocator description (destroyed, or never "
            "created; on hardware this touches freed memory). Use what "
            "acl.rt.allocator_create_desc returned."),
            _("{call}: the allocator description is NULL."))

    def destroy(self, handle: int) -> None:
        self.desc(handle, "aclrtAllocatorDestroyDesc")
        del self.descs[handle]       # a stream registered with it keeps its copy

    def set_obj(self, handle: int, obj: int) -> None:
        """pyACL passes the runtime the address of its own copy of ``obj``, never NULL."""
        self.desc(handle, "aclrtAllocatorSetObjToDesc").obj = obj

    def set_func(self, handle: int, kind: str, fn, call: str) -> None:
        self.desc(handle, call).funcs.add(kind)
        self.python[kind] = fn

    def register(self, stream: int, handle: int, call: str = "aclrtAllocatorRegister") -> None:
        if stream == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: stream is NULL; an allocator is registered on an explicit stream "
                "(acl.rt.create_stream).").format(call=call))
        d = self.desc(handle, call)
        missing = [k for k in REQUIRED if k not in d.funcs]
        if d.obj is None or missing:
            names = ([] if d.obj is not None else ["allocator_set_obj_to_desc"]) + \
                [f"allocator_set_{k}_func_to_desc" for k in missing]
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: allocator description {handle} is incomplete: call {names} on it "
                "first.").format(call=call, handle=f"0x{handle:x}",
                                 names=", ".join(f"acl.rt.{n}" for n in names)))
        self.streams[stream] = (handle, Desc(d.handle, d.obj, set(d.funcs)))

    def unregister(self, stream: int, call: str = "aclrtAllocatorUnregister") -> None:
        if stream == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: stream is NULL.").format(call=call))
        self.streams.pop(stream, None)

    def before_operator(self, stream: int, tensors: int, call: str) -> None:
        """An operator is issued on ``stream``: with an allocator registered there, GE asks
        it for the operator's argument memory. pyACL's bridge calls the Python alloc
        function and gives the runtime NULL, so the operator fails (see the module doc)."""
        registered = self.streams.get(stream)
        if registered is None:
            return
        _handle, desc = registered
        size = align_up(max(tensors, 1) * POINTER_BYTES, 32)
        fn = self.python.get(ALLOC)
        try:
            result = repr(learner_call(fn, desc.obj, size)) if callable(fn) else _("nothing (not callable)")
        except Exception as e:      # pyACL logs "AllocatorAllocFunc wrong out" and goes on
            result = _("an exception, {error}").format(error=repr(e))
        raise SimError(C.ACL_ERROR_GE_MEMORY_ALLOCATION, _(
            "{call}: stream {stream} has an external allocator (acl.rt.allocator_register), so "
            "the runtime asked it for the operator's {size} B: your alloc function was called "
            "with ({obj}, {size}) and returned {result}. pyACL's bridge "
            "(rt_allocator.cpp, AllocatorAllocFunc) hands the runtime NULL whatever the Python "
            "function returns, so the memory could not be had and the operator did not run. "
            "Call acl.rt.allocator_unregister(stream) to let the runtime allocate.").format(
                call=call, stream=f"0x{stream:x}", size=size, obj=desc.obj, result=result))

    def snapshot(self) -> list[dict]:
        return [{"stream": s, "desc": h, "obj": d.obj, "funcs": sorted(d.funcs)}
                for s, (h, d) in sorted(self.streams.items())]
