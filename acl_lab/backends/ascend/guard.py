"""The guard between a learner and real pyACL.

On real hardware a wrong pointer does not come back as an error code: the driver copies
into someone else's memory, or the Python process dies. The guard keeps its own registry
of what malloc / malloc_host / dvpp_malloc / numpy_to_ptr / bytes_to_ptr returned and,
before a call reaches the device, refuses the ones it can prove wrong from that registry:
unknown or freed pointers, free/free_host mismatches, counts beyond the registered size,
sync 2D copies whose kind contradicts where the pointers live, and the reads through
util.ptr_to_numpy / ptr_to_bytes that would crash the process. It refuses with the code
the simulator returns for the same misuse and explains in the simulator's words (which
rule, which pointer, what to do instead). Everything else goes to the real runtime, which
answers with its own code and message. Turned off (``enabled = False``), it still keeps
the registry (which ``acl_lab.snapshot()`` reads), but refuses nothing.
"""
from __future__ import annotations

import functools
import math
import operator
import sys
import threading
import time
import types
import weakref

import numpy as np

from acl_lab import constants as C
from acl_lab.support import interrupts, threads
from acl_lab.errors import AclLabError, Refusal, check_unsigned
from acl_lab.spec.dtypes import NPY_TYPES
from acl_lab.spec.memory_rules import host_readable
from acl_lab.spec.memory_rules import ACCEPTED_KINDS, ALLOCATORS, D2D, D2H, DEFAULT, FREED_BY, H2D, KEEP_DROPPED, KEEP_DROPPED_BYTES, c_name, constant_spans, dropped_beyond_bound, kind_refusal, note_registration, root_array
from acl_lab.spec.address_map import AddressMap, Block
from acl_lab.spec.transfer_rules import check_aligned64, check_count, check_no_overlap, check_stream_can_write, check_writable
from acl_lab.i18n import N_, _, join_list, join_sentences
from acl_lab.spec.args import out_of_range_code
from acl_lab.spec.prototypes import PROTOTYPES
from acl_lab.trace import pyacl_functions
from acl_lab.backends.ascend.native.bindings import DoesNotFit
from acl_lab.backends.ascend.guard_models import ModelWatch
from acl_lab.backends.ascend.guard_ops import OpWatch, both
from acl_lab.backends.ascend.guard_memory_extras import MemoryExtrasWatch
from acl_lab.backends.ascend.guard_vmm import VmmWatch

_COPY2D_KINDS = (H2D, D2H, D2D, DEFAULT)
#: acl.prof's getters that read (opInfo, opInfoLen): the host CPU dereferences opInfo
OP_INFO_READERS = ("get_op_num", "get_op_type_len", "get_op_type", "get_op_type_v2",
                   "get_op_name_len", "get_op_name", "get_op_name_v2", "get_op_start",
                   "get_op_end", "get_op_duration", "get_model_id")
_STOPPED = N_("(acl_lab's guard stopped this call before it reached the device.)")


class GuardedAcl(types.SimpleNamespace):
    """pyACL's ``acl`` with the guard in front: same namespaces, same functions."""


class Entry(Block):
    """A block the guard saw handed out or registered."""

    __slots__ = ()

    @property
    def footprint(self) -> int:
        """Bytes the documented rules say the allocator takes (a SoC may pad differently)."""
        return self.size if self.python_owned else ALLOCATORS[self.api].footprint(self.size)


class Registry(AddressMap):
    """Every live block the guard has seen handed out, by start address."""

    def __init__(self):
        super().__init__()
        self.entries: dict[int, Entry] = self.blocks
        self._prune_at = 1024

    def add(self, e: Entry) -> None:
        if len(self.entries) >= self._prune_at:     # arrays die unseen: drop them now and then
            for dead in [d for d in self.entries.values() if not d.alive()]:
                self.drop(dead, dead.gone_why())
            self._prune_at = 2 * len(self.entries) + 1024
        super().add(e)

    def prune_bytes(self) -> None:
        """Release bytes objects the program dropped, beyond memory_rules' bound."""
        regs = [e for e in self.entries.values() if e.api == "bytes"]    # oldest first
        if len(regs) > 2 * KEEP_DROPPED or \
                sum(e.size for e in regs) > 2 * KEEP_DROPPED_BYTES:
            for e in dropped_beyond_bound(regs, "_owner"):
                self.drop(e, _("the program dropped its bytes object (pyACL keeps no "
                               "reference to it)"))

    def live(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.alive()]


def _ints(*values) -> tuple[int, ...] | None:
    """The arguments as ints, or None when one is not (pyACL then raises TypeError itself)."""
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        return None


def _code(result) -> int:
    """The return code in a pyACL result: ``ret`` or the last item of ``(value, ..., ret)``."""
    if isinstance(result, tuple) and result:
        result = result[-1]
    return result if type(result) is int else 0


class Guard:
    """Wraps the real ``acl`` module; ``self.acl`` is the pyACL-shaped object handed out."""

    def __init__(self, real, enabled: bool = True):
        self.real, self.enabled = real, enabled
        self.registry = Registry()
        self.lock = threading.RLock()
        self.initialized = False
        self.device_refs: dict[int, int] = {}      # aclrtSetDevice calls not yet reset
        self.streams: dict[int, int | None] = {}   # handle -> device
        self.events: dict[int, int | None] = {}
        self.reports: list[str] = []
        self.views: list[tuple] = []                # (weakref to a ptr_to_numpy array, ptr, n)
        self.queued: dict[int, list[tuple]] = {}    # stream -> (ptr, n) written by async calls
        self.capturing: dict[int, set] = {}         # stream -> starts of blocks captured tasks use
        self.captured: dict[int, set] = {}          # model RI -> starts of blocks its tasks use
        self._run_mode: int | None = None
        self._local = threads.Local()               # last refusal, per thread like ACL's
        self._t0 = time.perf_counter()
        self.models = ModelWatch(self)              # offline models (guard_models.py)
        self.ops = OpWatch(self)                    # aclnn objects, task groups (guard_ops.py)
        self.extras = MemoryExtrasWatch(self, Entry)   # (guard_memory_extras.py)
        self.vmm = VmmWatch(self, Entry)              # mapped ranges (guard_vmm.py)
        self.acl = self._build()

    # ----- the pyACL shape ---------------------------------------------------------------
    def _build(self):
        hooks = self._hooks()
        top = GuardedAcl()
        for ns, functions in pyacl_functions(self.real).items():
            holder = types.SimpleNamespace() if ns else top
            for name, fn in functions.items():
                setattr(holder, name, self._wrap(f"{ns}.{name}" if ns else name, fn,
                                                 hooks.get(ns, {}).get(name)))
            if ns:
                setattr(top, ns, holder)
        top.get_recent_err_msg = self.get_recent_err_msg
        return top

    def _wrap(self, name: str, real_fn, hook):
        """Forward to ``real_fn``; with a hook, check first (guard on) and record after. A
        refused call gives what pyACL gives when it fails (spec/prototypes: ``(NULL, code)``
        for a malloc, NULL for aclCreateTensor; util reads raise), and the whole call is a
        critical section (Ctrl-C comes once the guard's books are written)."""
        check, after = hook or (None, None)
        proto = PROTOTYPES.get(name)
        failed = proto.failed if proto else lambda code, message: code
        raises = name.startswith("util.")

        def refused(code: int, message: str):
            self._local.refusal = join_sentences([message, _(_STOPPED)])
            if raises:
                raise AclLabError(code, self._local.refusal) from None
            return failed(code, self._local.refusal)

        @functools.wraps(real_fn)
        def call(*args, **kwargs):
            __tracebackhide__ = True      # noqa: F841 - read by IPython and pytest
            try:
                if check is not None and self.enabled:
                    try:
                        with self.lock:
                            check(*args, **kwargs)
                    except TypeError:
                        pass        # wrong arguments: pyACL raises its own TypeError below
                    except Refusal as r:
                        return refused(r.code, r.message)
                try:
                    result = real_fn(*args, **kwargs)
                except DoesNotFit as e:       # a native binding's argument: C never saw it
                    return refused(out_of_range_code(e.call), _(
                        "{call}: {name}={value} does not fit its C type ({ctype}); C would "
                        "receive another value. Pass a value within the type's range.").format(
                            call=e.call, name=e.name, value=e.value, ctype=e.ctype_text))
                if not raises and _code(result) != 0:
                    self._local.refusal = None      # the runtime's own message is the latest
                if after is not None:
                    with self.lock:
                        after(result, *args, **kwargs)
                return result
            finally:
                if interrupts.state.noted:
                    interrupts.returning()
        return interrupts.register(call)

    def get_recent_err_msg(self) -> str:
        """The guard's explanation when it refused the last call, else the runtime's own;
        read once, like aclGetRecentErrMsg."""
        refusal = self._local.get("refusal")
        self._local.refusal = None
        return refusal if refusal else self.real.get_recent_err_msg()

    @property
    def now_us(self) -> float:
        """Microseconds of wall time since the backend was loaded (the trace's clock)."""
        return (time.perf_counter() - self._t0) * 1e6

    timeline = ()    # the trace's other question: hardware work is not modeled per task

    def _hooks(self) -> dict[str, dict]:
        rt = {name: (self._check_size(name), self._note_malloc(name))
              for name in ("malloc", "malloc_align32", "malloc_cached", "malloc_host")}
        rt.update(
            free=(self.models.guard_free(self._check_free("free")), self._note_free("free")),
            free_host=(self._check_free("free_host"), self._note_free("free_host")),
            memset=(self._check_memset, None),
            memset_async=(self._check_memset, self._note_async(lambda a: (a[0], a[3]))),
            memcpy=(self._check_memcpy, None),
            memcpy_async=(self._check_memcpy, self._note_async(lambda a: (a[0], a[3]))),
            memcpy2d=(self._check_memcpy2d, None),
            memcpy2d_async=(self._check_memcpy2d, self._note_async(
                lambda a: (a[0], (a[5] - 1) * a[1] + a[4]))),
            synchronize_stream=(None, self._note_synchronized),
            synchronize_device=(None, self._note_synchronized),
            record_event=(None, self.ops.note_record),
            synchronize_event=(None, self.ops.note_event_synchronized),
            set_device=(None, self._note_set_device),
            reset_device=(None, self._note_reset_device),
            create_stream=(None, self._note_handle(self.streams)),
            destroy_stream=(None, self._note_destroy(self.streams, self.queued)),
            create_event=(None, self._note_handle(self.events)),
            destroy_event=(None, self._note_destroy(self.events)),
            # the same bookkeeping for the runtime's wider calls (flags, config, force)
            reset_device_force=(None, self._note_reset_device_force),
            create_stream_with_config=(None, self._note_handle(self.streams)),
            destroy_stream_force=(None, self._note_destroy(self.streams)),
            create_event_with_flag=(None, self._note_handle(self.events)),
            create_event_ex_with_flag=(None, self._note_handle(self.events)),
        )
        rt.update(self.extras.hooks()["rt"])    # WithCfg allocators, IPC, kernel args
        rt.update(self.vmm.hooks())            # virtual memory, host registration
        watched = self.models.hooks()       # offline models (load / unload)
        ops = self.ops.hooks()              # aclnn objects, task groups
        watched["nn"] = ops["nn"]
        watched["mdl"].update(ops["mdl"])
        watched["mdl"].update(
            ri_capture_begin=(self.ops.stream_check("aclmdlRICaptureBegin", 0),
                              self._note_capture_begin),
            ri_capture_end=(self.ops.stream_check("aclmdlRICaptureEnd", 0),
                            self._note_capture_end),
            ri_execute=(self._check_model, self.ops.note_execute),
            ri_execute_async=(both(self._check_model,
                                   self.ops.stream_check("aclmdlRIExecuteAsync", 1)),
                              self.ops.note_execute_async),
            ri_debug_json_print=(self._check_model_known("aclmdlRIDebugJsonPrint"), None),
            ri_destroy=(self._check_model_known("aclmdlRIDestroy"), self._note_model_destroyed))
        media = {"dvpp_malloc": (None, self._note_malloc("dvpp_malloc")),
                 "dvpp_malloc_with_cfg": (None, self._note_malloc("dvpp_malloc")),
                 "dvpp_free": (self._check_free("dvpp_free"), self._note_free("dvpp_free"))}
        util = {"numpy_to_ptr": (None, self._note_python("numpy")),
                "bytes_to_ptr": (None, self._note_python("bytes")),
                "ptr_to_numpy": (self._check_ptr_to_numpy, self._note_view),
                "ptr_to_bytes": (self._check_ptr_to_bytes, None)}
        top = {"init": (None, self._note_init), "finalize": (None, self._note_finalize)}
        prof = {name: (self._check_op_info(PROTOTYPES[f"prof.{name}"].c_name), None)
                for name in OP_INFO_READERS}
        return {"": top, "rt": rt, "media": media, "util": util, "prof": prof, **watched}

    # ----- what the real runtime tells the guard -----------------------------------------
    def _current_device(self) -> int | None:
        device, ret = self.real.rt.get_device()
        return device if ret == 0 else None

    def run_mode(self) -> int | None:
        if self._run_mode is None:
            mode, ret = self.real.rt.get_run_mode()
            self._run_mode = mode if ret == 0 else None
        return self._run_mode

    # ----- bookkeeping after a real call -------------------------------------------------
    def _note_malloc(self, api: str):
        def after(result, size, *_rest):
            ptr, ret = result
            if ret != 0 or not ptr:
                return
            on_device = ALLOCATORS[api].location == "device" or self.run_mode() == C.ACL_DEVICE
            self.registry.add(Entry(ptr, operator.index(size), api,
                                    "device" if on_device else "host",
                                    self._current_device() if on_device else None))
        return after

    def _note_free(self, api: str):
        def after(ret, ptr):
            e = self.registry.entries.get(ptr)
            if ret == 0 and e is not None:
                views = self._live_views(e)
                if views:
                    self.report(_("{call}: {ptr} was freed while arrays from "
                                  "acl.util.ptr_to_numpy still point into it ({views}). Reading "
                                  "or writing them now is a use-after-free: on the device it "
                                  "crashes or corrupts. Copy what you need (array.copy()) before "
                                  "freeing, and drop the arrays.").format(
                                    call=c_name(api), ptr=f"0x{ptr:x}", views=join_list(views)))
                self.registry.drop(e, (c_name(api),))   # worded when asked (released_why)
        return after

    def _note_python(self, api: str):
        def after(ptr, obj):
            if not ptr:
                return
            e = self.registry.find(ptr)
            if e is None and api == "numpy":    # the whole buffer counts, though ptr may be a view's
                root = root_array(obj)
                into = obj.__array_interface__["data"][0] - root.__array_interface__["data"][0]
                e = Entry(ptr - into, root.nbytes, api, "host", None, weakref.ref(root))
                self.registry.add(e)
            elif e is None:
                e = Entry(ptr, len(obj), api, "host", None, obj)
                if isinstance(obj, bytes):      # a bytes literal of the caller's code
                    e.read_only_spans = constant_spans(obj, sys._getframe(1))
                self.registry.add(e)
                self.registry.prune_bytes()
            if e is not None and e.api == "numpy" and isinstance(obj, np.ndarray):
                e.read_only_spans = note_registration(e.read_only_spans, ptr - e.ptr, obj,
                                                      obj.flags.writeable)
        return after

    def _note_set_device(self, ret, device):
        if ret == 0:
            self.device_refs[device] = self.device_refs.get(device, 0) + 1

    def _note_reset_device(self, ret, device):
        if ret != 0:
            return
        refs = self.device_refs.get(device, 1) - 1
        self.device_refs[device] = refs
        if refs <= 0:
            del self.device_refs[device]
            self._forget(f"aclrtResetDevice({device})", device)

    def _note_reset_device_force(self, ret, device):
        """aclrtResetDeviceForce releases the device however many times it was set."""
        if ret == 0 and device in self.device_refs:
            self.device_refs[device] = 1
            self._note_reset_device(ret, device)

    def _note_init(self, ret, *_rest):
        if ret in (C.ACL_SUCCESS, C.ACL_ERROR_REPEAT_INITIALIZE):
            self.initialized = True

    def _note_finalize(self, ret):
        if ret == 0:
            self.initialized = False
            self.device_refs.clear()
            self._forget("aclFinalize", None)

    def _note_handle(self, table: dict):
        def after(result, *_args):      # create_stream / create_event and their flag forms
            handle, ret = result
            if ret == 0:
                table[handle] = self._current_device()
        return after

    def _note_destroy(self, *tables: dict):
        def after(ret, handle):
            if ret == 0:
                for table in tables:
                    table.pop(handle, None)
        return after

    def _note_async(self, span):
        """An async write was queued: what it writes, until its stream is synchronized
        (freeing that memory first must wait for it); in a capture, what the model uses."""
        def after(ret, *args):
            stream = args[-1]
            if ret != 0 or _ints(*args) is None:
                return
            ptr, n = span(args)
            if stream in self.capturing:
                self.capturing[stream].update(e.ptr for e in map(self.registry.find, args[:3:2])
                                              if e is not None)
            else:
                self.queued.setdefault(stream, []).append((ptr, n))
        return after

    def _note_synchronized(self, ret, stream=None):
        if ret == 0:
            self.ops.note_synchronized(stream)
            if stream is None:
                self.queued.clear()
            else:
                self.queued.pop(stream, None)

    def _note_capture_begin(self, ret, stream, *_rest):
        if ret == 0:
            self.capturing[stream] = set()

    def _note_capture_end(self, result, stream):
        model, ret = result
        uses = self.capturing.pop(stream, set())
        if ret == 0:
            self.captured[model] = uses
            self.ops.note_model(model, stream, self._current_device())

    def _note_model_destroyed(self, ret, model):
        if ret == 0:
            self.captured.pop(model, None)
        self.ops.note_destroyed(ret, model)

    def _note_view(self, array, ptr, *_rest):
        """ptr_to_numpy handed out an array over ``ptr``: freeing under it is a use-after-free."""
        if isinstance(array, np.ndarray):
            self.views = [v for v in self.views if v[0]() is not None]
            self.views.append((weakref.ref(array), ptr, array.nbytes))

    def _live_views(self, e: Entry | None = None) -> list[str]:
        return [f"0x{ptr:x} ({n} B)" for ref, ptr, n in self.views if ref() is not None
                and (e is None or e.ptr <= ptr < e.end)]

    def _forget(self, by: str, device: int | None) -> None:
        """The runtime released a device's (or, device None, every) resource: say what leaked."""
        def mine(d: int | None) -> bool:
            return device is None or d == device

        self.models.forget(device)
        leaked = [e for e in self.registry.live() if not e.python_owned and (
            mine(e.device) if e.location == "device" else device is None)]
        for table in (self.streams, self.events):
            for h in [h for h, d in table.items() if mine(d)]:
                del table[h]
        if leaked:
            blocks = join_list(e.describe() for e in leaked[:5]) + (
                " ..." if len(leaked) > 5 else "")
            self.report(_("{call}: {count} allocation(s) never freed: {blocks}; the runtime "
                          "released them. Free memory before resetting the device.").format(
                              call=by, count=len(leaked), blocks=blocks))
        for e in leaked:
            self.registry.drop(e, _("released by {call}").format(call=by))

    def report(self, text: str) -> None:
        self.reports.append(text)
        print(f"[acl_lab] {text}", file=sys.stderr)

    # ----- checks before a real call (raise Refusal) -------------------------------------
    def _check_free(self, api: str):
        def check(ptr):
            if _ints(ptr) is not None and ptr != 0:    # NULL: the runtime answers 100000
                e = self.registry.check_free(ptr, api)
                self._finish_queued_writes(e)
        return check

    def _finish_queued_writes(self, e: Entry) -> None:
        """An async copy into ``e`` is still queued: the device would write freed memory.
        Wait for its stream first, as the simulator's free does."""
        for stream, spans in list(self.queued.items()):
            if any(e.ptr < p + n and p < e.end for p, n in spans):
                self.real.rt.synchronize_stream(stream)
                self.queued.pop(stream, None)

    def _check_size(self, api: str):
        def check(size, *_rest):
            if _ints(size) is not None:
                check_unsigned(c_name(api), size=size)
        return check

    def _check_memset(self, ptr, max_count, value, count, stream=None):
        call = "aclrtMemset" if stream is None else "aclrtMemsetAsync"
        if _ints(ptr, max_count, count) is None:
            return
        check_unsigned(call, maxCount=max_count, count=count)
        if count == 0 or ptr == 0:
            return
        check_count(call, count, max_count, "maxCount")
        e = self.registry.resolve(ptr, count, "devPtr", call)
        check_writable(call, e, "devPtr", ptr, count)
        if stream is not None:
            check_stream_can_write(call, ptr, e)

    def _check_memcpy(self, dst, dest_max, src, count, kind, stream=None):
        call = "aclrtMemcpy" if stream is None else "aclrtMemcpyAsync"
        if _ints(dst, dest_max, src, count, kind) is None:
            return                  # pyACL raises its own TypeError
        check_unsigned(call, destMax=dest_max, count=count)
        if count == 0 or 0 in (dst, src) or kind not in ACCEPTED_KINDS:
            return                  # the runtime answers these itself, safely
        check_count(call, count, dest_max, "destMax")
        if dst == src:
            return
        d = self.registry.resolve(dst, count, "dst", call)
        s = self.registry.resolve(src, count, "src", call)
        check_writable(call, d, "dst", dst, count)
        check_no_overlap(call, dst, src, count)
        if stream is not None and not (d.python_owned or s.python_owned):
            check_aligned64(call, dst=dst, src=src)

    def _check_memcpy2d(self, dst, dpitch, src, spitch, width, height, kind, stream=None):
        call = "aclrtMemcpy2d" if stream is None else "aclrtMemcpy2dAsync"
        if _ints(dst, dpitch, src, spitch, width, height, kind) is None:
            return
        check_unsigned(call, dpitch=dpitch, spitch=spitch, width=width, height=height)
        if 0 in (width, height, dst, src) or width > min(spitch, dpitch) \
                or kind not in _COPY2D_KINDS:
            return
        d = self.registry.resolve(dst, (height - 1) * dpitch + width, "dst", call)
        check_writable(call, d, "dst", dst, (height - 1) * dpitch + width)
        s = self.registry.resolve(src, (height - 1) * spitch + width, "src", call)
        if stream is None:
            self._check_direction(call, kind, d, s)

    @staticmethod
    def _check_direction(call: str, kind: int, d: Entry, s: Entry) -> None:
        refusal = kind_refusal(call, kind, d, s)
        if refusal:
            raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID, refusal)

    def _check_ptr_to_numpy(self, ptr, shape, npy_type):
        dtype = NPY_TYPES.get(npy_type) if _ints(npy_type) else None
        dims = _ints(*(shape if isinstance(shape, (tuple, list)) else (shape,)))
        if dtype is None or dims is None:
            return
        if min(dims, default=0) < 0 or max(dims, default=0) >= 1 << 63:
            raise ValueError(_("{call}: dimensions must be between 0 and 2**63-1 (shape "
                               "{shape}); a negative one would make a view of the whole "
                               "address space.").format(call="ptr_to_numpy", shape=dims))
        self._check_host_readable(ptr, math.prod(dims) * dtype.itemsize, "ptr_to_numpy")

    def _check_ptr_to_bytes(self, ptr, size):
        if _ints(size) is not None:
            if size < 0:
                raise ValueError(_("{call}: size {size} is negative.").format(
                    call="ptr_to_bytes", size=size))
            self._check_host_readable(ptr, size, "ptr_to_bytes")

    def _check_model_known(self, call: str):
        def check(model, *_rest):
            """A handle aclmdlRICaptureEnd did not return (or one destroyed) is a pointer
            the runtime would follow into freed memory."""
            if _ints(model) is not None and model != 0 and model not in self.captured:
                raise Refusal(C.ACL_ERROR_RT_INVALID_HANDLE,
                              _("{call}: {handle} is not a live model RI. Use the handle "
                                "aclmdlRICaptureEnd returned, before aclmdlRIDestroy.").format(
                                  call=call, handle=f"0x{model:x}"))
        return check

    def _check_model(self, model, *_rest):
        """A captured model whose buffers were freed would make the device write freed
        memory (docs/rules.md#rule-23: resources must outlive the model). Refused, as the
        simulator does at execution."""
        self._check_model_known("aclmdlRIExecute")(model)
        gone = [hex(p) for p in self.captured.get(model, ()) if p not in self.registry.entries]
        if gone:
            raise Refusal(C.ACL_ERROR_RT_MODEL_EXECUTE,
                          _("{call}: model {model} uses {blocks}, freed after capture. "
                            "Resources of captured tasks must stay valid until aclmdlRIDestroy; "
                            "nothing ran.").format(call="aclmdlRIExecute", model=f"0x{model:x}",
                                                   blocks=join_list(gone)))

    def _check_op_info(self, call: str):
        def check(op_info, op_info_len, *_rest):
            """The profiler reads opInfoLen bytes at opInfo: host memory, in bounds."""
            if _ints(op_info_len) is not None and op_info_len >= 0:
                self._check_host_readable(op_info, op_info_len, call)
        return check

    def _check_host_readable(self, ptr, nbytes: int, call: str) -> None:
        """The host CPU is about to dereference ``ptr``: only memory it can read, in bounds."""
        if _ints(ptr) is not None:
            host_readable(self.registry, ptr, nbytes, call, self.run_mode())

    # ----- acl_lab.reset() on hardware ----------------------------------------------------
    def release_all(self) -> None:
        """Give back everything the guard saw handed out, in docs/rules.md#rule-16 order
        (captures, models and aclnn objects, then finish and destroy streams, events, memory,
        then reset devices), so a notebook can start again. ACL stays initialised: aclInit
        runs once per process."""
        rt, media = self.real.rt, getattr(self.real, "media", None)
        views = self._live_views()
        if views:
            self.report(_("{call}: arrays from acl.util.ptr_to_numpy still point into memory "
                          "released now ({views}). Using them after the reset is a "
                          "use-after-free on the device: drop or copy them first.").format(
                              call="acl_lab.reset()", views=join_list(views[:5])))
        self.ops.release(self.real, list(self.capturing), list(self.captured))
        for h in list(self.streams):
            rt.synchronize_stream(h)
            rt.destroy_stream(h)
        for h in list(self.events):
            rt.destroy_event(h)
        freers = {"free": rt.free, "free_host": rt.free_host,
                  "dvpp_free": getattr(media, "dvpp_free", None)}
        for e in self.registry.live():     # (the runtime's own blocks and IPC maps: no free)
            freer = None if e.python_owned else freers.get(FREED_BY.get(e.api))
            if freer is not None:
                freer(e.ptr)
        for device, refs in self.device_refs.items():
            for _step in range(refs):
                rt.reset_device(device)
        self.registry = Registry()
        self.models.forget(None)
        self.device_refs.clear()
        self.streams.clear()
        self.events.clear()
        self.views.clear()
        self.queued.clear()
        self.capturing.clear()
        self.captured.clear()
        self.reports.clear()
        self._local.refusal = None
